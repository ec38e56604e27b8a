/*
 * options: detect's options (aucs_detect_options) and their one parser
 * (detector/options.c), for the command line, $AUCS_OPTIONS and the
 * reproduce lines alike.
 */
#ifndef AUCS_OPTIONS_H
#define AUCS_OPTIONS_H

#include "aucs/inputs.h"
#include "aucs/interp.h"
#include "aucs/qcache.h"
#include "aucs/search.h"
#include <stddef.h>
#include <stdint.h>

/* Zero-initialise for the defaults. Strings are borrowed (from argv or the
 * parsed text); free with aucs_options_free. */
/* Runs that replay solver witnesses, per kernel, by default (--replays). */
enum { AUCS_DETECT_REPLAYS = 24 };

typedef struct aucs_detect_options {
  const char *input;   /* the input as the user named it; NULL: the module's
                          identifier */
  const char *command; /* how the reproduce command starts ("aucs detect
                          k.cu -O2"); NULL: "aucs detect <input>" */
  const char *kernel;  /* only this kernel, mangled or demangled; NULL: all */
  int has_grid, has_block, has_seed, has_fill;
  aucs_dim3 grid, block;
  uint64_t seed;
  aucs_fill fill;        /* with has_fill: every run's fill; else searched */
  aucs_inputs_user user; /* --arg, --buffer, --dynamic-shared, --inputs */
  /* The launches of the input's host code (hostlaunch.h; borrowed): a
   * kernel is checked at its own launch where the user fixed none
   * (launchplan.h). NULL: no host code was looked at. */
  const struct aucs_host_launches *host;
  uint64_t step_budget; /* 0: AUCS_INTERP_STEP_BUDGET */
  size_t memory_budget; /* 0: AUCS_INTERP_MEMORY_BUDGET */
  /* --run-budget: thread instructions per run, 0: unbounded; without
   * has_run_budget, aucs_interp_run_steps of the run's launch */
  uint64_t run_budget;
  int has_run_budget;
  int warp_lockstep;
  unsigned population, generations; /* 0: search.h defaults */
  int json, stats;
  int sarif; /* --format=sarif: a SARIF 2.1.0 log (sarif.h) on stdout */
  int possible; /* list every possible race in the text report */
  int strict;   /* warnings count as errors (exit code, repair) */
  /* The static checker (static.h): --static runs it alone (no search; only
   * its witnesses are replayed), --no-static skips it; by default both. */
  int static_only, no_static;
  unsigned smt_timeout;   /* ms per query; 0: AUCS_STATIC_TIMEOUT_MS */
  unsigned static_budget; /* ms per kernel; 0: AUCS_STATIC_BUDGET_MS */
  unsigned replays; /* runs replaying witnesses per kernel; 0: the default */
  /* The search (search.h): --exhaustive-search runs every generation and
   * never stops early; --search-budget MS bounds its wall clock (0: the
   * default). */
  int exhaustive;
  unsigned search_budget;
  /* -j N: kernels checked at once, each in a fork()ed worker (jobs.h); 0:
   * the number of processors. The report is the same for every N. */
  unsigned jobs;
  int may_alias; /* static: pointer arguments may overlap (static.h) */
  /* static: answers shared across calls (a repair's trials); borrowed.
   * NULL: one cache for the kernels of this call. */
  aucs_qcache *cache;
  struct aucs_smt *smt; /* static: a Z3 context shared likewise; borrowed */
  /* Budgets (budget.h), per kernel: seconds of wall clock (the static
   * checker gets half unless it runs alone) and the process's resident
   * bytes; 0: AUCS_BUDGET_DETECT_SECONDS, AUCS_BUDGET_MEMORY_BYTES. within: an
   * enclosing budget that also bounds every kernel (fix's), or NULL.
   * started: when the command started (aucs_seconds()), 0: unknown; the
   * first kernel each job checks counts its time from it, so that loading
   * and lowering are inside its budget. */
  double time_budget;
  double started;
  /* --max-findings N: findings listed per kernel (report.h); 0: the
   * default, UINT64_MAX: all (the user's 0). */
  uint64_t max_findings;
  uint64_t memory_limit;
  struct aucs_budget *within;
  /* For the repair only (repair.c). record: called with the run of each new
   * finding (its candidate has nargs input values; res: what the run did,
   * for its barriers per thread). trial: instead of the input search,
   * replay those runs of the kernel, then search one candidate and its
   * children (three fresh runs at most). */
  void (*record)(void *ctx, const char *kernel, const aucs_candidate *c,
                 size_t nargs, const aucs_run_result *res);
  void *record_ctx;
  const struct aucs_detect_trial *trial;
  /* For the repair's final check: no static barrier-redundancy proofs
   * (they only annotate redundant-barrier findings, which the final check
   * does not read); every pair is still asked. */
  int no_barrier_proofs;
  /* Library kernels: a kernel defined in a header under sdk (the CUDA SDK
   * root, aucs_module_sdk; NULL: none) is CUB's or Thrust's, launched by
   * the library's own host code; it is listed, not checked, unless
   * --library-kernels (library_kernels) or --kernel names it. */
  const char *sdk;
  int library_kernels;
  char *text; /* owned copy of the text aucs_options_parse split */
} aucs_detect_options;

/* Runs a repair trial replays (aucs_detect_options.trial). */
typedef struct aucs_detect_trial {
  const char *const *kernels; /* per run: its kernel's name */
  const aucs_candidate *runs;
  const size_t *nargs; /* per run: how many values runs[i].args holds */
  size_t n;
  /* Replay the runs only, no fresh search, when the kernel has one (an
   * edit the static checker proved harmless: a redundant barrier's
   * deletion). */
  int replay_only;
  /* Called with each finding a replayed run adds: nonzero stops the trial
   * there, inside that run (no further step, replay or fresh search), so
   * the report holds the findings found so far, and no redundant barrier.
   * NULL: never. */
  int (*stop)(void *ctx, const char *kernel, const aucs_finding *f);
  void *stop_ctx;
  /* The trial only locates a finding (the repair, after inlining): once
   * stopped, its findings are not classified either (no data-dependence
   * replay: each stays an error). */
  int locate;
} aucs_detect_trial;

/* Parse the detect option at argv[*i], moving *i past its value: 1 when it
 * was one, 0 when it is no detect option, -1 with *err (free with free())
 * when its value is bad. */
int aucs_options_arg(aucs_detect_options *o, int argc, char **argv, int *i,
                       char **err);
/* Parse a whole option string, words split at blanks ("--grid 2 --block
 * 64", as in $AUCS_OPTIONS). 0 on success; nonzero with *err. */
int aucs_options_parse(aucs_detect_options *o, const char *text,
                              char **err);
void aucs_options_free(aucs_detect_options *o);

#endif
