/*
 * detect_impl.h: what detect.c and detect_static.c share (private to
 * detector/): one kernel's state while it is checked, and the steps each
 * file gives the other.
 */
#ifndef AUCS_DETECT_IMPL_H
#define AUCS_DETECT_IMPL_H

#include "aucs/detect.h"

#include "aucs/demangle.h"
#include "aucs/kernel.h"
#include "aucs/nvvm.h"

#include "aucs/adaptive.h"
#include "aucs/jobs.h"

#include "aucs/assume.h"
#include "aucs/benign.h"
#include "aucs/datadep.h"
#include "aucs/inputs.h"
#include "aucs/interp.h"
#include "aucs/launchplan.h"
#include "aucs/natural.h"
#include "aucs/progress.h"
#include "aucs/qcache.h"
#include "aucs/replay.h"
#include "aucs/search.h"
#include "aucs/seeds.h"
#include "aucs/srcloc.h"
#include "aucs/static.h"
#include "aucs/util.h"
#include "aucs/wire.h"
#include <errno.h>
#include <llvm-c/Core.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* One selected kernel while it is checked. */
typedef struct kstate {
  const aucs_detect_options *o;
  aucs_qcache *cache; /* the static answers of the module (qcache.h) */
  const char *prefix; /* of the reproduce command */
  aucs_report_kernel *k;
  aucs_prog *prog;
  aucs_param *params;
  size_t np;
  uint64_t *vals;       /* per parameter: --arg values, raw bits */
  unsigned char *fixed; /* which params --arg fixed */
  aucs_inputs *in;      /* the leaves, also of a kernel that did not lower */
  size_t nl;
  aucs_inputs_values iv;  /* per leaf: the user's values, buffer sizes */
  aucs_param *leaves;     /* per leaf, for the search */
  unsigned char *lfixed;  /* per leaf: not searched (the user's, or a float
                             field left to the fill) */
  unsigned char *lset;    /* per leaf: a run writes the field's value */
  unsigned char *lranged; /* per leaf: the host bounds it, llo..lhi */
  uint64_t *llo, *lhi;
  size_t nbar;
  uint64_t *bar_runs; /* runs that passed barrier i */
  unsigned char *bar_ordered;
  aucs_launch *bar_launch; /* the first run that passed it */
  char **bar_args;
  char **bar_shown;          /* what its launch note shows of bar_args */
  char **bar_cmd;            /* its reproduce command */
  aucs_static *st;           /* the static checker's results, or NULL */
  unsigned char *unreplayed; /* per pair: the replay limit cut its replay */
  aucs_candidate *found;     /* per finding of a run: that run (natural.h) */
  size_t nfound;
  aucs_adaptive *plan; /* the search may stop once the runs settle it */
  uint64_t failed;     /* runs that hit a budget or trapped */
  /* Threads a run simulates at most (the first blocks and the last), when
   * a run of a big grid needed more memory than its budget; 0: the
   * interpreter's default. */
  uint64_t max_threads;
  /* The fewest blocks a run simulated before it left out the rest but the
   * last (aucs_run_config.sample_steps), and of how many; 0: none did. */
  uint64_t sampled_after, sampled_of;
  char *failure;       /* the first one: what, where, how to reproduce */
  aucs_progress pg;    /* the kernel's time and memory budget, how far it got */
  aucs_ptrmap fmap;    /* add_finding's index (finding_key) */
  size_t *fnext;
  int taint;                 /* runs track filled data (datadep.h) */
  aucs_budget datadep;       /* the taint replays' own time (datadep.h) */
  uint64_t datadep_steps;    /* thread instructions the replays have left */
  aucs_findings until;       /* a replay may stop once these are settled */
  aucs_replay_memo replayed; /* a trial's replayed runs, for its search */
  aucs_launchplan lp; /* the launch: the user's, the host code's, searched */
  aucs_seeds *seeds;  /* inputs solved from the preconditions, or NULL */
  int stop_runs;      /* a trial's replays stop at its stop's finding */
  int stopped;        /* one did: the trial ends, its report partial */
  double start;       /* its budget's clock start (the command's); 0: now */
} kstate;

/* detect.c */
int dt_scalar(const aucs_param *p);
/* A demangled name's length before its parameters, and before the
 * template arguments that end that part (--kernel matching). */
size_t dt_name_len(const char *dem);
size_t dt_base_len(const char *dem, size_t len);
/* Check one kernel that lowered: static checker, search, report. */
void dt_check_kernel(kstate *s);

/* family.c: check the kernels tasks[0..nt) of st, a template family per
 * task of the process pool, up to jobs at once (started: the command's
 * start, the budget clock's start of the first tasks). */
void dt_check_families(kstate *st, const size_t *tasks, size_t nt,
                       unsigned jobs, double started);
char *dt_format_args(const kstate *s, const uint64_t *vals,
                     const unsigned char *read);
/* One run of the kernel on candidate c (search.h's evaluator). */
aucs_search_verdict dt_eval(void *ctx, const aucs_candidate *c,
                            aucs_fitness *fit);
int dt_in_finding(const aucs_report_kernel *k, LLVMValueRef I);
/* A __syncthreads_count/_and/_or whose result is used. */
int dt_communicates(LLVMValueRef bar);

/* detect_static.c: before the search, the analysis and its witnesses'
 * replays; after it, the barriers Z3 proves redundant, then witnesses,
 * possible races and assumptions in the report. */
void dt_static_replay(kstate *s, const aucs_search_space *sp);
void dt_static_proven_barriers(kstate *s);
void dt_static_annotate(kstate *s);

#endif
