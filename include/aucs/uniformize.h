/*
 * uniformize: make a loop whose trip count differs between threads run the
 * same number of iterations in every thread of a block, so that a barrier
 * may go inside it (DESIGN.md section 6.3 step 4; the case the AuCS paper
 * could not fix). See repair/uniformize.c for the algorithm and pictures.
 *
 * After the rewrite every thread keeps a flag `active`; the loop runs while
 * __syncthreads_or(active) holds; the original body runs under `active`;
 * an exit of a thread clears its flag and records which exit it took, and
 * the exit is taken, with the values it carried, once the whole block has
 * left. The new header and the or-barrier are uniform wherever the loop's
 * preheader is; the body is one divergent region under `active`, which
 * flattening (flatten.h) makes uniform where a barrier must go.
 *
 * Any edit invalidates the cfg facts of the function: callers rebuild them.
 */
#ifndef AUCS_UNIFORMIZE_H
#define AUCS_UNIFORMIZE_H

#include "aucs/cfg.h"
#include <llvm-c/Types.h>

typedef struct aucs_uniformize_result {
  LLVMBasicBlockRef head; /* the new header: the or-barrier and the exit test */
  LLVMValueRef any;       /* the or-barrier call */
} aucs_uniformize_result;

/* Why loop l of cfg (an index into cfg->loops) cannot be uniformized
 * safely, as a sentence (free with free()), or NULL when it can. absorb:
 * the loop's single preheader must end in `br c, header, other` (see
 * aucs_uniformize_loop). */
char *aucs_uniformize_check(const aucs_cfg *cfg, int l, int absorb);

/* Uniformize the loop whose header is block `header` (an index in fn's
 * block order, as in aucs_cfg) of fn. absorb 0: every thread enters with
 * active = true. absorb 1: the preheader's conditional branch into the loop
 * is absorbed: every thread enters, active = the branch condition, and the
 * threads that would not have entered take the branch's other target once
 * the loop is done (a loop inside a divergent region, guarded by
 * flattening). 0 with *out filled (out may be NULL); nonzero with *err
 * (free with free()) and fn unchanged when the loop cannot be uniformized.
 * The result verifies. */
int aucs_uniformize_loop(LLVMValueRef fn, int header, int absorb,
                         aucs_uniformize_result *out, char **err);
/* As aucs_uniformize_loop, made on fn directly with no run on a clone
 * first: on failure fn may be left half-rewritten (the caller discards its
 * module, or replays a rewrite that succeeded on an identical module). */
int aucs_uniformize_loop_unchecked(LLVMValueRef fn, int header, int absorb,
                                   aucs_uniformize_result *out, char **err);

/* The CUDA the rewrite is equivalent to, for the review, naming the loop's
 * source line (free with free()). */
char *aucs_uniformize_source(LLVMValueRef header_term, int absorb);

#endif
