/*
 * uniform: which blocks every thread of a thread block executes the same
 * number of times (DESIGN.md section 4), and which values vary by thread.
 *
 * A taint analysis to a fixed point:
 *   1. Seeds: tid.{x,y,z}, laneid, warpid, lanemask*, clock*, results of
 *      atomics (atomicrmw, cmpxchg, atomic intrinsics), warp shuffles and
 *      votes, calls to unknown external functions.
 *   2. A value is varying when an operand is; a load when its address is, or
 *      when it reads bytes of a private alloca that some store writes
 *      varying bits to (byte by byte at constant offsets, the whole alloca
 *      otherwise), or that escapes into a call; a call when an argument
 *      is, or when the defined callee returns a varying value with uniform
 *      arguments.
 *   3. A branch (br/switch) is divergent when its condition varies.
 *   4. A block is non-uniform when it is control-dependent on a divergent
 *      branch or on any branch of a non-uniform block, or lies in a loop with
 *      a divergent exit.
 *   5. Phis at joins of divergent branches (the region of a divergent branch
 *      up to and including its post-dominator) and values defined in a loop
 *      with a divergent exit and used outside it vary.
 * blockIdx, blockDim, gridDim, kernel arguments, globals and the block-wide
 * reduction barriers (__syncthreads_or/and/count) are uniform.
 *
 * Limitation: loads from shared or global memory through a uniform address
 * are uniform; that holds for race-free kernels, which is what a barrier
 * placed by aucs must assume.
 */
#ifndef AUCS_UNIFORM_H
#define AUCS_UNIFORM_H

#include "aucs/cfg.h"
#include <llvm-c/Types.h>

typedef enum aucs_why {
  AUCS_WHY_UNIFORM = 0,
  AUCS_WHY_UNREACHABLE,   /* no path from the entry */
  AUCS_WHY_BRANCH,        /* control-dependent on divergent branch of block */
  AUCS_WHY_NONUNIFORM,    /* control-dependent on a branch of block, which
                             is itself non-uniform */
  AUCS_WHY_LOOP,          /* in loop (header = block) whose exit at aux is
                             divergent */
} aucs_why;

typedef struct aucs_uniformity aucs_uniformity;

/* Analyse cfg's function. Calls into defined functions are summarised on
 * demand. Free with aucs_uniform_free; cfg must outlive the result. */
aucs_uniformity *aucs_uniform_compute(const aucs_cfg *cfg);
void aucs_uniform_free(aucs_uniformity *u);

/* 1 when block b is uniform. */
int aucs_uniform_block(const aucs_uniformity *u, int b);
/* Why block b is not uniform; *block and *aux (may be NULL) get the blocks
 * the reason names (-1 when unused). */
aucs_why aucs_uniform_why(const aucs_uniformity *u, int b, int *block, int *aux);
/* 1 when block b ends in a conditional branch or switch whose condition
 * varies by thread. */
int aucs_uniform_branch_divergent(const aucs_uniformity *u, int b);
/* 1 when value v (an instruction or argument of the function) varies. */
int aucs_uniform_varying(const aucs_uniformity *u, LLVMValueRef v);
/* The seed a varying value derives from, for explanations: a short name
 * such as "tid.x", "laneid", "atomic", "call @f", "alloca", "divergent join"
 * or "divergent loop exit". NULL when v is uniform. Lives as long as u. */
const char *aucs_uniform_origin(const aucs_uniformity *u, LLVMValueRef v);

#endif
