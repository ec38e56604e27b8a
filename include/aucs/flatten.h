/*
 * flatten: make a divergent region uniform by guarding each of its blocks
 * with its entry condition (DESIGN.md section 6.2, AuCS Algorithm 1 made
 * exact). After the transform every thread runs every guard of the region,
 * so a barrier may be inserted in any guard.
 *
 * The region between a block u1 and a block u2 that post-dominates it is
 * every block reachable from u1 without passing u2. A loop whose header is
 * in the region is one node of it and is kept whole. See repair/flatten.c
 * for the algorithm and the pictures.
 *
 * Any edit invalidates the cfg facts of the function: callers rebuild them.
 */
#ifndef AUCS_FLATTEN_H
#define AUCS_FLATTEN_H

#include "aucs/cfg.h"
#include "aucs/uniform.h"
#include <llvm-c/Types.h>

typedef enum aucs_flatten_status {
  AUCS_FLATTEN_OK = 0,
  AUCS_FLATTEN_BAD_REGION,  /* u1/u2 do not bound a single-entry region
                               that u2 post-dominates */
  AUCS_FLATTEN_UNSUPPORTED, /* a region shape the transform does not
                               handle (named in the message) */
  AUCS_FLATTEN_INTERNAL,    /* the result did not verify: a bug in aucs */
} aucs_flatten_status;

typedef struct aucs_flatten_result {
  /* nodes[i] is the entry block of the i-th node of the region in layout
   * order (a block, or the header of a loop kept whole) and guards[i] the
   * guard just before it; the last pair is (u2, the final guard, which
   * branches to u2 unconditionally). Owned; free with
   * aucs_flatten_result_free. */
  LLVMBasicBlockRef *nodes, *guards;
  int n;
  int made_reducible; /* fix-irreducible ran on the function first */
} aucs_flatten_result;

/* Flatten the region between blocks u1 and u2 (indices in the function's
 * block order, as in aucs_cfg) of fn. 0 (AUCS_FLATTEN_OK) with *out filled;
 * otherwise a status with *err set (free with free()) and fn unchanged: the
 * transform is first made and verified on a clone of the module. An
 * irreducible cycle in the region is first made reducible by LLVM's
 * fix-irreducible pass (which may touch other irreducible cycles of fn); a
 * loop in the region that exits to several blocks first has its exits
 * merged by LLVM's unify-loop-exits pass (which merges those of fn's other
 * multi-exit loops too). out may be NULL. */
aucs_flatten_status aucs_flatten_region(LLVMValueRef fn, int u1, int u2,
                                        aucs_flatten_result *out, char **err);
/* As aucs_flatten_region, made on fn directly, with no run on a clone
 * first: on failure fn may be left half-rewritten. For a caller that then
 * discards fn's module (a repair trial's clone) or replays a flattening
 * that succeeded on an identical module; it saves a module clone. */
aucs_flatten_status aucs_flatten_region_unchecked(LLVMValueRef fn, int u1,
                                                  int u2,
                                                  aucs_flatten_result *out,
                                                  char **err);
void aucs_flatten_result_free(aucs_flatten_result *r);

/* The guard just before bb when bb is a node's entry block (or u2) of the
 * flattened region, else NULL. */
LLVMBasicBlockRef aucs_flatten_guard_of(const aucs_flatten_result *r,
                                        LLVMBasicBlockRef bb);

/* The smallest region that holds block as one of its nodes (not inside a
 * loop kept whole), between a uniform block *u1 dominating it and the
 * nearest uniform strict post-dominator *u2 of *u1, that
 * aucs_flatten_region accepts. 0 when found, nonzero when none. */
int aucs_flatten_find_region(const aucs_cfg *cfg, const aucs_uniformity *uni,
                             int block, int *u1, int *u2);

/* ---- exit flattening (DESIGN.md section 8) ----
 * A `ret` reached under a thread-dependent condition is an edge to the
 * function's exit: once fn's returns are merged into one exit block, that
 * block post-dominates every block, and a region ending there holds the
 * early return as an edge to it. Flattening that region keeps the threads
 * that returned running the guards up to the exit: their `active` flag is
 * the guard conditions (each later block's entry condition holds the
 * negated return condition), and the one `ret` is at the end. */

/* The number of `ret` instructions of fn. */
int aucs_flatten_count_returns(LLVMValueRef fn);
/* Merge fn's returns into one new block %exit (`ret`, with a phi of the
 * returned values when fn returns one); each old `ret` becomes `br %exit`
 * with its location and metadata. Returns how many were merged (0 when fn
 * has fewer than two, and is left as it is). */
int aucs_flatten_unify_exits(LLVMValueRef fn);
/* The terminator of a block of the region (u1, u2) (u1 itself included)
 * that jumps to u2 on a path that never passes `block`: the early return
 * that skips it, preferring one with a source location; NULL when none. */
LLVMValueRef aucs_flatten_early_exit(const aucs_cfg *cfg, int u1, int u2,
                                     int block);
/* Keep every thread in until the barrier `bar`, which must start its block
 * (after phis): flatten the region (u1, u2) holding that block as a node,
 * then move bar into the guard before its block, which every thread runs.
 * 0 on success; otherwise a status with *err (free with free()) and fn
 * unchanged. */
aucs_flatten_status aucs_flatten_keep_in(LLVMValueRef fn, LLVMValueRef bar,
                                         int u1, int u2, char **err);
/* As aucs_flatten_keep_in, unchecked as aucs_flatten_region_unchecked. */
aucs_flatten_status aucs_flatten_keep_in_unchecked(LLVMValueRef fn,
                                                   LLVMValueRef bar, int u1,
                                                   int u2, char **err);

#endif
