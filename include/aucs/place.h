/*
 * place: where a __syncthreads() goes to order a race, and the small IR
 * edits the repair is made of (DESIGN.md section 6.3, steps 1, 2, 3 and 5).
 *
 * For a race A -> B (A reaches B with no barrier between):
 *   1. A and B in one block: the points between them are the candidates.
 *   2. Otherwise the candidates are the points on every barrier-free path
 *      from A to B: the rest of A's block, the start of B's block, and
 *      every block all those paths pass through.
 * A candidate must lie in a uniform block (uniform.h) and in no loop that
 * A and B are both outside of; the one nearest B wins, moved up to the
 * start of B's statement when that keeps it between A and B.
 *   3. No candidate, because A and B sit in one divergent region (the two
 *      arms of a divergent if, or one arm): the region must be flattened
 *      and the barrier goes in the guard just before B's block.
 *   5. A store racing with itself that cannot reach itself barrier-free
 *      (outside any loop, or every way around passes a barrier), an
 *      inter-block race,
 *      an out-of-bounds access: no barrier orders them (unfixable).
 * Calls to functions that execute a barrier count as barriers.
 *
 *   4. A or B in a loop whose trip count differs between threads, or both
 *      in one loop inside a divergent region (flattening keeps a loop
 *      whole, so no guard falls inside it): LOOP, naming the loop to
 *      uniformize (uniformize.h); after that the body is a divergent region
 *      under `active` and steps 2 and 3 apply.
 *
 * Limitation: reachability ignores which threads take which path.
 */
#ifndef AUCS_PLACE_H
#define AUCS_PLACE_H

#include "aucs/cfg.h"
#include "aucs/finding.h"
#include "aucs/uniform.h"
#include <llvm-c/Types.h>

typedef enum aucs_place_status {
  AUCS_PLACE_FOUND,   /* insert the barrier right before `before` */
  AUCS_PLACE_NO_PATH, /* neither reaches the other barrier-free, and they
                         share no divergent region */
  AUCS_PLACE_FLATTEN, /* no uniform point: flatten region entry..exit */
  AUCS_PLACE_LOOP,    /* A or B in a loop with a divergent exit, or both in
                         one loop inside a divergent region: uniformize
                         out->loop (uniformize.h), then place again */
} aucs_place_status;

typedef struct aucs_place {
  aucs_place_status status;
  int step;                   /* 1 or 2 for FOUND, 3 for FLATTEN */
  LLVMValueRef before;        /* FOUND: the barrier goes right before it */
  LLVMValueRef first, second; /* the race's accesses in program order */
  int entry, exit;            /* FLATTEN: uniform blocks bounding the region
                                 (exit may be AUCS_CFG_EXIT) */
  int split;                  /* FLATTEN: A and B share a block, which must be
                                 split before `second` first */
  int loop;                   /* LOOP: header block of the loop to uniformize
                                 (the outermost non-uniform loop holding A or
                                 B); its preheader is non-uniform when the
                                 loop sits in a divergent region */
} aucs_place;

/* Where to put a barrier ordering a before b, two instructions of cfg's
 * function. When a does not reach b barrier-free: FLATTEN if neither
 * reaches the other at all (exclusive arms; out->first is the one earlier
 * in topological order), else NO_PATH. */
aucs_place_status aucs_place_find(const aucs_cfg *cfg, const aucs_uniformity *u,
                                  LLVMValueRef a, LLVMValueRef b,
                                  aucs_place *out);
/* 1 when a path from right after a reaches b with no barrier on it. */
int aucs_place_reaches(const aucs_cfg *cfg, LLVMValueRef a, LLVMValueRef b);
/* 1 when I is a block-wide barrier or a call to a function that (through
 * its callees) executes one. */
int aucs_place_is_barrier(LLVMValueRef I);
/* 1 when I is exactly a call to a block-wide barrier intrinsic. */
int aucs_place_is_barrier_call(LLVMValueRef I);
/* Whether I touches memory or calls: a barrier commutes with anything
 * else, so only these tell whether it splits a statement. */
int aucs_place_effectful(LLVMValueRef I);
/* The line of the statement I belongs to as the user wrote the kernel:
 * for code inlined from a helper (or a header), the line of the outermost
 * call; 0 without a location. */
unsigned aucs_place_line_of(LLVMValueRef I);
/* The next instruction after I for which located holds, through
 * unconditional jumps (NULL: none within 256 steps). */
LLVMValueRef aucs_place_next_where(LLVMValueRef I,
                                   int (*located)(LLVMValueRef));
/* The previous instruction before I that is effectful and located, in I's
 * block or, through a single predecessor that jumps here unconditionally,
 * above it (the condition of an `if` computed before a barrier does not
 * make the barrier part of the `if`). */
LLVMValueRef aucs_place_prev_access_where(LLVMValueRef I,
                                          int (*located)(LLVMValueRef));

/* Insert `__syncthreads()` right before `before`, spelt as the module
 * already spells it (a declared llvm.nvvm.barrier.cta.sync.aligned.all or
 * llvm.nvvm.barrier0 is reused; otherwise LLVM's own intrinsic), with the
 * debug location of `before` (or of the next instruction that has one).
 * Returns the new call. */
LLVMValueRef aucs_place_insert_barrier(LLVMValueRef before);

/* A call of f (type ty) with args[0..n) inserted before `before`, with the
 * debug location of the first instruction from `before` on that has one
 * (so reports point at the statement it precedes). */
LLVMValueRef aucs_place_call_before(LLVMValueRef before, LLVMTypeRef ty,
                                    LLVMValueRef f, LLVMValueRef *args,
                                    unsigned n);
/* Split at's block before at: the instructions above at (phis included)
 * move to a new block that takes over every predecessor and falls through
 * into at's block; when at is a load or store, the pure arithmetic right
 * above it that only computes its address stays with it. Returns the new
 * block. */
LLVMBasicBlockRef aucs_place_split(LLVMValueRef at);
/* Inline the call site `call` (to a defined function) into its caller,
 * leaving every other call site of the callee as it is. 0 on success;
 * nonzero with *err (free with free()). */
int aucs_place_inline(LLVMValueRef call, char **err);

/* Why no barrier can fix f (NULL when one might), with a suggestion in
 * *suggestion. Static strings. */
const char *aucs_place_unfixable(const aucs_finding *f,
                                 const char **suggestion);
/* The source edit equivalent to the barrier `bar` inserted in the IR
 * ("insert __syncthreads(); before k.cu:15"), or NULL with *why (a
 * sentence) when it sits inside one statement or the module has no !dbg.
 * Free the result and *why with free(). */
char *aucs_place_source_edit(LLVMValueRef bar, char **why);

#endif
