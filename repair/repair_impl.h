/*
 * repair_impl: what the parts of the repair loop share (private to
 * the repair loop's files in repair/, not repair/patch/): the loop state, a trial, the replayable ops. repair.c
 * runs the loop (ids, items, trials, rounds, the report); repair_plan.c
 * plans the edits that answer each kind of finding (races, barrier
 * divergence, keeping exited threads in, redundant barriers). Functions
 * one part calls in the other are prefixed rp_.
 */
#ifndef AUCS_REPAIR_IMPL_H
#define AUCS_REPAIR_IMPL_H

#include "aucs/repair.h"

#include "aucs/budget.h"
#include "aucs/cfg.h"
#include "aucs/cond.h"
#include "aucs/flatten.h"
#include "aucs/kernel.h"
#include "aucs/names.h"
#include "aucs/place.h"
#include "aucs/report.h"
#include "aucs/search.h"
#include "aucs/smt.h"
#include "aucs/spot.h"
#include "aucs/srcloc.h"
#include "aucs/static.h"
#include "aucs/uniform.h"
#include "aucs/uniformize.h"
#include "aucs/util.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void (*inst_fn)(LLVMValueRef I, void *ctx);

typedef struct pos {
  int fn, bb, ins;
} pos;

typedef enum op_kind {
  OP_INSERT,
  OP_DELETE,
  OP_SPLIT,
  OP_INLINE,
  OP_FLATTEN,
  OP_UNIFORMIZE,
  OP_UNIFY_EXITS,
  OP_KEEP_IN,
  OP_WIDEN, /* syncfix.c (planned in repair_sync.c): an atomic of block scope made device-scoped */
  OP_FENCE, /* syncfix.c (planned in repair_sync.c): __threadfence() before `at` (id: the fence's) */
  OP_ATOMIC, /* atomic_rmw.c: the read-modify-write ending in store `at` made
               one atomicrmw */
  OP_WARPSYNC /* warpsync.c: __syncwarp(u1) before `at` (id: the call's) */
} op_kind;

typedef struct op {
  op_kind kind;
  pos at;
  unsigned id; /* OP_INSERT: the new barrier's id */
  int u1, u2;  /* OP_FLATTEN, OP_KEEP_IN: the region; OP_UNIFORMIZE: u1 =
                  absorb */
  pos at2;     /* OP_FLATTEN: the op returns the guard before whichever of
                  the blocks of `at` and `at2` the layout puts later */
} op;

/* Where an item's finding was in its kernel once the helpers were inlined
 * (a detection found it, or found it gone), for the module as it was at
 * `version`: inlining is deterministic, so a later trial of the item on the
 * same module finds it at the same positions without detecting again. */
typedef struct prep_memo {
  int item;
  unsigned version;
  pos from_a, from_b; /* the finding's instructions before (in the helper) */
  int found, has_b;
  pos a, b; /* ... and in the inlined kernel, when found */
} prep_memo;

/* A hash index over finding keys (repair_index.c). */
typedef struct rp_slot {
  const char *kernel; /* NULL: an empty slot */
  uint64_t hash;
  unsigned lo, hi; /* the key's repair ids, ordered */
  int kind;
  size_t a, b; /* what the key maps to */
} rp_slot;

typedef struct rp_index {
  rp_slot *v;
  size_t cap, n;
} rp_index;

typedef struct state {
  LLVMModuleRef m;    /* the module the rounds edit: a clone of user's, or
                         user's itself once the ops were replayed on it */
  LLVMModuleRef user; /* the caller's module: pristine until the end */
  op *ops;            /* every kept trial's ops, in order (commit) */
  size_t nops;
  const aucs_repair_options *o; /* its detect options are within budget */
  aucs_budget budget;           /* the whole repair's */
  aucs_repair_result *r;
  aucs_report cur;            /* the detection of m as it is now */
  aucs_detect_options detect; /* o->detect's, with a cache for all trials */
  aucs_smt *own_smt;          /* detect.smt when made here */
  unsigned next_id;
  char *err;
  struct proof *proofs; /* barrier redundancy per kernel text and barrier */
  size_t nproofs;
  /* The distinct runs that showed a finding (record_run), which trials
   * replay (detect_trial). */
  char **run_kernel;
  aucs_candidate *runs;
  size_t *run_nargs;
  size_t nruns;
  /* repair_cost.c: of those, the first detection's (first_runs of them,
   * once it is over), each with what it executed on the original module:
   * threads, block barriers, __syncwarp() calls. */
  uint64_t (*run_tally)[3];
  size_t first_runs;
  int first_done;
  rp_index item_index; /* key -> item (add_item) */
  rp_index warn_index; /* keys of the warnings detections left out */
  char **names;        /* the kernel names warn_index points at */
  size_t nnames;
  uint64_t first_units; /* Z3 units the first detection spent (proofs) */
  rp_index cur_index;  /* key -> (kernel, finding) of cur, when cur_indexed */
  int cur_indexed;
  unsigned version; /* edits kept on m so far (commit) */
  /* The rounds leave user as it was (repair_fold.c): m is user until the first
   * kept trial, then that trial's clone (commit). in_place: after unfold,
   * commits edit user itself. */
  int in_place;
  prep_memo *memo;
  size_t nmemo;
  /* repair_sweep.c: barriers the last trial deleted as left redundant by
   * its edits; no_sweep: the retry of a rejected trial that did */
  unsigned swept;
  int no_sweep;
  /* repair_tried.c: the simple edits the current finding's rejected trials
   * made, and why each was rejected */
  char *tried;
} state;

/* The static checker's redundancy verdict for one barrier of one kernel,
 * as the kernel's IR text was when analysed (only the queries the barrier
 * separates were asked): it answers the barrier's items in this round and
 * the next. */
typedef struct proof {
  char *ir;
  unsigned id; /* the barrier's repair id */
  int proven;
  int ran_out; /* not proven: a query ran out of time, none was SAT */
} proof;

typedef struct trial {
  LLVMModuleRef c; /* the clone the trial edits */
  op *ops;
  size_t nops;
  aucs_editlog edits;
  unsigned next_id;
  aucs_report prep; /* detection after inlining, when there was some */
  int has_prep;
  aucs_finding inlined; /* the finding in the kernel after inlining, when
                           its instructions' ids told where (no prep) */
  char *why; /* why the plan failed */
  int item;
  /* Its edits are proven harmless (a statically redundant barrier
   * deleted): its detection replays the recorded runs only. */
  int replay_only;
  /* Its detection may stop at the first finding that rejects it
   * (rp_detect_trial, plan_copies); stopped: it did. */
  int may_stop, stopped;
  /* Its detection only locates the item's finding (after inlining, or in
   * a copy of the code not planned for yet): it stops at the first copy
   * found whose pair of instructions is none of the ndone in done. */
  int locating;
  LLVMValueRef (*done)[2];
  size_t ndone;
} trial;

int rp_tracing(void);
LLVMValueRef rp_at_pos(LLVMModuleRef m, pos p);
LLVMValueRef rp_apply_op(LLVMModuleRef m, const op *o, char **err);
void rp_set_id(LLVMValueRef I, unsigned id);
/* The fresh-seed full detection of m: 0 clean (*full freed), 1 a finding
 * the loop has not seen (*full kept), -1 the detection failed. */
int rp_final_check(state *s, LLVMModuleRef m, aucs_report *full);
/* repair_fold.c: undo the inlining behind the committed ops when the edits mean
 * the same on s->user's own helpers; 1 when done (s->user edited, the log
 * rewritten, the final check passed), 0 to go on as without it. */
int rp_fold_run(state *s);
LLVMValueRef rp_fn_of(LLVMValueRef I);
pos rp_pos_of(LLVMValueRef I);
int rp_cut_short(const aucs_report *rep);
int rp_detect_trial(state *s, trial *t, aucs_report *rep);
int rp_find_item(const state *s, const char *kernel, const aucs_finding *f);
const aucs_finding *rp_lookup(const aucs_report *rep,
                              const aucs_repair_item *it, LLVMValueRef *kernel);
void rp_index_add(rp_index *x, const char *kernel, int kind, unsigned ida,
                  unsigned idb, size_t a, size_t b);
int rp_index_find(const rp_index *x, const char *kernel, int kind, unsigned ida,
                  unsigned idb, size_t *a, size_t *b);
void rp_index_free(rp_index *x);
void rp_index_report(rp_index *x, const aucs_report *rep);
void rp_cur_changed(state *s);
const aucs_finding *rp_lookup_cur(state *s, const aucs_repair_item *it,
                                  LLVMValueRef *kernel);
char *rp_where(LLVMValueRef I, const char *rel);
LLVMValueRef rp_trial_op(trial *t, op o);
void rp_log_edit(state *s, trial *t, aucs_edit e, LLVMValueRef fn);
LLVMValueRef rp_insert(state *s, trial *t, LLVMValueRef before,
                       const char *why);
void rp_delete(state *s, trial *t, LLVMValueRef bar, const char *why);
int rp_place_race(state *s, trial *t, LLVMValueRef a, LLVMValueRef b,
                  int variant);
int rp_new_key(state *s, const char *kernel, const aucs_finding *f);
void rp_proofs_seed(state *s, const aucs_report *rep);
void rp_proofs_free(state *s);
int rp_plan_redundant(state *s, trial *t, LLVMValueRef kernel,
                      const aucs_finding *f);
/* Whether bar is proven redundant in kernel as it is now (one static
 * proof per kernel text and barrier); *ran_out: a query ran out of time. */
int rp_proven_redundant(state *s, LLVMValueRef kernel, LLVMValueRef bar,
                        int *ran_out);
/* repair_sweep.c: after a divergence trial's keep-in edits, delete on a
 * proof the barriers they left redundant (one side of each empty). */
void rp_sweep_redundant(state *s, trial *t, LLVMValueRef kernel);
/* After a race's placement that uniformized loops (repair_plan.c
 * place_one): the same sweep on kernel fn; returns failed. */
int rp_sweep_after_place(state *s, trial *t, LLVMValueRef fn, int uniformized,
                         int failed);
int rp_divergence_variant(state *s, trial *t, LLVMValueRef kernel,
                          const aucs_finding *f, int variant);
/* repair_sync.c: a scope-race's and a missing-fence's edits (variants 0..2). */
int rp_plan_scope(state *s, trial *t, LLVMValueRef kernel,
                  const aucs_finding *f, int variant);
int rp_plan_fence(state *s, trial *t, LLVMValueRef kernel,
                  const aucs_finding *f, int variant);
/* repair_sync.c: a race on one read-modify-write statement made atomic (the
 * loop's variant RP_ATOMIC, tried before any barrier). */
/* repair_inline.c: make *f's instructions the kernel's (inline the calls
 * leading to them) and point *f at the same finding there; 0 on success.
 * rp_unique_id: the one instruction of fn with repair id `id` (inlining
 * copies ids), or NULL when there is none or more than one. */
int rp_prepare(state *s, trial *t, LLVMValueRef *kernel,
               const aucs_finding **f);
LLVMValueRef rp_unique_id(LLVMValueRef fn, unsigned id);
/* "k.cu:12" for I, or NULL without a location (repair_plan.c). */
char *rp_file_line(LLVMValueRef I);
/* "delete the __syncthreads(); at k.cu:12", or NULL (repair.c). */
char *rp_delete_source_edit(LLVMValueRef bar);
enum { RP_ATOMIC = -1 };
/* A barrier the trial inserted splits a read-modify-write statement (its
 * load before, its store after): 1 with t->why (repair_sync.c). */
int rp_splits_rmw(const state *s, trial *t, LLVMValueRef kernel,
                  unsigned first);
int rp_plan_atomic(state *s, trial *t, LLVMValueRef kernel,
                   const aucs_finding *f);
/* warpsync.c: a race of two lanes of one warp in code some threads skip,
 * ordered by __syncwarp() (the loop's variant RP_WARP, tried first when
 * rp_warp_candidate). rp_warpsync_insert: the call before `before`. */
enum { RP_WARP = -2 };
int rp_warp_candidate(const aucs_finding *f);
int rp_plan_warp(state *s, trial *t, LLVMValueRef kernel,
                 const aucs_finding *f);
LLVMValueRef rp_warpsync_insert(LLVMValueRef before, int mask);

/* repair_cost.c: keep what recorded run i executed (during the first
 * detection); after the repair, replay the kernels' first runs on the
 * repaired module and fill s->r->per_thread; free the tallies. */
void rp_cost_note(state *s, size_t i, const aucs_run_result *res);
void rp_cost_measure(state *s);
void rp_cost_free(state *s);

/* minimize.c: after the repair re-validated, drop each inserted barrier
 * or __syncwarp() whose removal still re-validates (t0: the repair's
 * start, for its share of the time). */
void rp_minimize(state *s, double t0);

/* repair_tried.c: the rejected simple trials of the finding being
 * repaired, told on the first structural edit of the trial kept. */
void rp_tried_reset(state *s);
void rp_tried_note(state *s, const trial *t);
void rp_tried_explain(state *s, trial *t);

#endif
