/*
 * repair: the detect -> plan -> apply -> verify -> detect loop (DESIGN.md
 * section 6.4) that answers each finding of the detector with edits.
 *
 * Each round plans, for every finding of the round's detection still
 * present, one trial: the edit is made on a clone of the module, the clone
 * is verified and detected again, and the edit is kept (replayed on the
 * module itself) only when its finding is gone and no new one came (a new
 * redundant barrier does not count; a deleted divergent barrier may leave
 * races, which the same trial then repairs). Rounds stop when no finding is
 * left, when a round keeps no edit, or after max_rounds.
 *
 * Answers: a race gets a barrier (place.h); one inside a __device__ helper
 * first gets that helper's call inlined into the kernel; a divergent
 * barrier moves to the nearest uniform point after it, else is deleted and
 * the races it leaves are repaired; a redundant barrier is deleted when the
 * static checker proves it redundant, or on dynamic evidence under
 * trust_dynamic; inter-block races, self-races and out-of-bounds accesses
 * are unfixable, with a reason and a suggestion.
 *
 * Stable ids: every load, store, atomic, call and terminator carries
 * `!aucs.id !{i32 N}`, set once before round 1 (inlining copies them), so a
 * finding of round 1 is matched to the IR of round 3.
 *
 * A race or a divergent barrier in a loop whose trip count differs by
 * thread first gets the loop uniformized (uniformize.h; DESIGN.md 6.3 step
 * 4), then the barrier goes inside it.
 *
 * Limitation: a loop that cannot be uniformized safely (uniformize.h) keeps
 * its finding, with the reason.
 */
#ifndef AUCS_REPAIR_H
#define AUCS_REPAIR_H

#include "aucs/detect.h"
#include "aucs/editlog.h"
#include "aucs/util.h"
#include <llvm-c/Types.h>

#define AUCS_REPAIR_ROUNDS 8
/* The least solver budget of a redundancy proof, in nominal ms (smt.h);
 * otherwise it gets what the first detection's static checker spent. */
#define AUCS_REPAIR_PROOF_MIN_MS 250u

typedef struct aucs_repair_options {
  const aucs_detect_options *detect; /* NULL: the detector's defaults */
  int trust_dynamic;   /* delete redundant barriers on dynamic evidence */
  unsigned max_rounds; /* 0: AUCS_REPAIR_ROUNDS */
  /* The whole repair's budget (budget.h), its detections included: seconds
   * (0: AUCS_BUDGET_FIX_SECONDS) and resident bytes (0: the default). When
   * it is spent, no trial starts, one under way is rejected (its check was
   * cut short), and what was verified is kept. */
  double time_budget;
  uint64_t memory_limit;
  /* Called once with the first detection's report, before the findings
   * that do not count are left out of it (`fix --format=json` builds its
   * document from it); NULL: none. */
  void (*first)(void *ctx, const aucs_report *rep);
  void *first_ctx;
} aucs_repair_options;

typedef enum aucs_outcome {
  AUCS_OUTCOME_FIXED,
  AUCS_OUTCOME_UNFIXABLE, /* no barrier edit can fix it */
  AUCS_OUTCOME_REMAINS,   /* a fix exists in principle, aucs found none */
} aucs_outcome;

/* One finding the repair saw (in the first detection, or one an edit left
 * behind), and what became of it. Owns its strings. */
typedef struct aucs_repair_item {
  aucs_finding_kind kind;
  char *kernel;   /* the kernel's (mangled) name */
  char *location; /* "k.cu:17:10" of its first access */
  char *headline; /* "data race on 'buf[2]' (shared)" */
  aucs_outcome outcome;
  char *how;         /* FIXED: the edits; otherwise the reason */
  char *suggestion;  /* UNFIXABLE: what the user can do; else NULL */
  int introduced;    /* left behind by an edit, not in the first detection */
  /* A redundant barrier with dynamic evidence only (a warning of the
   * detector): deleted when the repair proves it redundant (after inlining
   * the helper it lies in), else kept without failing the fix. */
  int warning;
  int attempted;     /* some trial was made for it */
  unsigned ida, idb; /* stable ids of its two sides */
} aucs_repair_item;

/* Where a repair's time went (fix --stats). */
typedef struct aucs_repair_stats {
  unsigned trials;      /* trials made (each on a clone) */
  unsigned detections;  /* trial detections (incremental) */
  unsigned proofs;      /* redundancy proofs (one barrier each) */
  unsigned proofs_cut;  /* of those: ran out of their budget */
  double first_seconds; /* the first detection, in full */
  double trial_seconds; /* the trials' detections */
  double proof_seconds; /* the redundancy proofs */
  double final_seconds; /* the fresh-seed full detection(s) */
  uint64_t final_queries, final_cached; /* their static queries, and of
                                           those answered by the cache */
  double seconds;       /* the whole repair */
  unsigned folded;      /* inlined calls undone before the final check */
} aucs_repair_stats;

/* "fixed", "unfixable", "not-fixed" (the JSON and SARIF reports). */
const char *aucs_repair_outcome_name(aucs_outcome o);

/* One line for fix --stats, appended to out. */
void aucs_repair_stats_print(const aucs_repair_stats *st, aucs_buf *out);

/* Barriers one kernel executes per thread on the checked inputs (the
 * runs of the first detection that showed its findings, which every trial
 * replays): before the repair (the original module, counted in that
 * detection) and after it (the repaired module, the same runs replayed
 * once more, repair_cost.c). Sums over the runs' threads: divide by
 * threads for the mean per thread. */
typedef struct aucs_repair_per_thread {
  char *kernel; /* the kernel's (mangled) name */
  uint64_t runs, threads;
  uint64_t barriers_before, barriers_after; /* __syncthreads and its forms */
  uint64_t warp_before, warp_after;         /* __syncwarp() calls */
} aucs_repair_per_thread;

typedef struct aucs_repair_result {
  aucs_editlog log;
  aucs_repair_item *items;
  size_t nitems;
  size_t fixed, unfixable, remaining; /* items by outcome */
  size_t kept; /* warning items not fixed (counted apart, not remaining) */
  unsigned rounds;
  char *warnings; /* kernels not checked (unsupported, run errors), one
                     "aucs: warning: ..." line each; or NULL */
  int incomplete; /* the first detection checked no kernel, or a kernel's
                     run failed or budget ran out (where detect exits 2) */
  int none_checked; /* of those: the first detection checked no kernel */
  char *budget;   /* what ran out, when the budget stopped the repair: its
                     findings not attempted say so; or NULL */
  size_t unattempted; /* findings left with no trial made */
  aucs_repair_stats stats;
  size_t max_listed; /* items aucs_repair_print lists (--max-findings); 0:
                        all; the counts cover every item */
  /* Edits the minimization took out of the log once the rest re-validated
   * without them (minimize.c), one sentence each. */
  char **dropped;
  size_t ndropped;
  /* Per kernel the log edits whose checked inputs could be replayed. */
  aucs_repair_per_thread *per_thread;
  size_t nper_thread;
} aucs_repair_result;

/* Give every load, store, atomic, call and terminator of m that has none a
 * fresh `!aucs.id`. */
void aucs_repair_ids_assign(LLVMModuleRef m);
/* The stable id of I, 0 when it has none. */
unsigned aucs_repair_id(LLVMValueRef I);
/* Remove every `!aucs.id` from m (before writing it). */
void aucs_repair_ids_strip(LLVMModuleRef m);

/* Repair the kernels of m in place. 0 with *r filled (free with
 * aucs_repair_result_free); nonzero with *err (free with free()) on a
 * usage error of the detector options or an internal failure. */
int aucs_repair_run(LLVMModuleRef m, const aucs_repair_options *o,
                    aucs_repair_result *r, char **err);
void aucs_repair_result_free(aucs_repair_result *r);

/* The text report: every edit, then one line per finding (fixed, how;
 * unfixable, why and a suggestion; remains, why), then a summary line. */
void aucs_repair_print(const aucs_repair_result *r, aucs_buf *out);
/* What the review (review.h) does not say: the kernels not repaired, a
 * budget that stopped the repair, and the summary line. */
void aucs_repair_print_brief(const aucs_repair_result *r, aucs_buf *out);

#endif
