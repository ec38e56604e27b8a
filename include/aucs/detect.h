/*
 * detect: the detector's orchestration (DESIGN.md section 5): for each
 * kernel, lower it once (aucs_interp_lower), choose its inputs (the user's,
 * else the search of search.h), run it, and gather the findings of every
 * run into one report (report.h).
 *
 * Findings are the union over all runs, deduplicated by kind and the pair
 * of instructions (in either order); each keeps the launch, arguments and
 * seed of the first run that found it, and a command that replays exactly
 * that run. A barrier that some run passed and that never ordered a
 * conflicting pair of accesses in any run is a REDUNDANT_BARRIER finding
 * (dynamic evidence only), unless a run of its kernel failed, the barrier is
 * part of another finding, or it communicates (a __syncthreads_count, _and,
 * _or whose result is used).
 *
 * Per kernel: lowering fails -> status "unsupported"; a run that exceeds a
 * budget or traps is left out and the search goes on with other inputs;
 * no run finished -> status "error" (reason: the first failure); some did
 * -> "checked", with a reason that counts the failed runs and names the
 * first. The other kernels are checked regardless.
 *
 * Budgets: each kernel's check ends at its time budget or the memory limit
 * (the static checker stops building or asking queries, replays and the
 * search start no run, a run in flight stops); the kernel is then
 * "checked" with a reason saying what was and was not checked (also in
 * report.h's budget fields), or "error" when nothing was.
 */
#ifndef AUCS_DETECT_H
#define AUCS_DETECT_H

#include "aucs/options.h"
#include "aucs/report.h"
#include <llvm-c/Types.h>
#include <stddef.h>
#include <stdint.h>

/* Check kernels[0..n) of m (o may be NULL for the defaults). 0 with *r
 * filled (free with aucs_detect_report_free); nonzero with *err (free with
 * free()) on a usage error: no kernel named o->kernel, an --arg no kernel
 * has, a value that is not of its parameter's kind, an impossible launch. */
int aucs_detect_run(LLVMModuleRef m, LLVMValueRef *kernels, size_t n,
                    const aucs_detect_options *o, aucs_report *r, char **err);
void aucs_detect_report_free(aucs_report *r);

/* The exit code of a report: 1 when a finding counts (aucs_finding_counts:
 * an error or a redundant barrier; with --strict any); otherwise 2 when a
 * kernel's runs failed or no kernel could be checked (a module of library
 * kernels only is 0: nothing of the user's to check); otherwise 0. */
int aucs_detect_exit(const aucs_report *r);

#endif
