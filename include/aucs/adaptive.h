/*
 * adaptive: when the dynamic runs of a kernel may stop before the search is
 * over, because the static checker has already answered what more runs
 * could answer (search.h, "Adaptive stopping"; docs/decisions.md).
 *
 * A kernel qualifies when the static checker proved every pair race-free
 * and every barrier sits in a uniform block of the kernel itself (so no
 * barrier can diverge). It is settled, and the search stops, once every
 * barrier is either proven redundant and passed by some run (the dynamic
 * redundant-barrier finding is then what any number of runs would give) or
 * seen ordering a conflicting pair (it is needed, for good). At least one
 * run is always made.
 *
 * Limitation: what later runs would have checked is skipped: out-of-bounds
 * accesses under other launches and arguments, traps and budgets (a failed
 * run would have withheld the redundant-barrier findings), and races the
 * proof misses through its own stated assumptions (distinct pointer
 * arguments, llvm.assume preconditions).
 */
#ifndef AUCS_ADAPTIVE_H
#define AUCS_ADAPTIVE_H

#include "aucs/interp.h"
#include "aucs/static.h"
#include <llvm-c/Types.h>
#include <stdint.h>

typedef struct aucs_adaptive aucs_adaptive;

/* The plan for kernel (lowered to prog, analysed into st, which may be
 * NULL): NULL when the kernel does not qualify. Free with
 * aucs_adaptive_free. */
aucs_adaptive *aucs_adaptive_plan(LLVMValueRef kernel, const aucs_static *st,
                                  const aucs_prog *prog);
/* 1 when the runs so far settle every barrier (per aucs_prog_barrier i:
 * runs[i] runs passed it, ordered[i] one ordered a pair). */
int aucs_adaptive_settled(const aucs_adaptive *a, const uint64_t *runs,
                          const unsigned char *ordered);
void aucs_adaptive_free(aucs_adaptive *a);

#endif
