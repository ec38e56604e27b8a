/*
 * warpuni: warp-uniform blocks, reached by every lane of a warp together
 * (passes/analysis/warpuni.c).
 */
#ifndef AUCS_WARPUNI_H
#define AUCS_WARPUNI_H

#include "aucs/cfg.h"
#include "aucs/uniform.h"
#include <llvm-c/Core.h>

/* Every branch block b of g is control dependent on, directly or through
 * other branches, is block-uniform (u) or the same for the 32 lanes of a
 * warp, for blocks of the shape block[0..2] (x, y, z). */
int aucs_warpuni_block(const aucs_cfg *g, const aucs_uniformity *u,
                       const unsigned block[3], int b);

/* v is threadIdx.y * blockDim.x (or threadIdx.y * block_x, a constant). */
int aucs_warpuni_row(LLVMValueRef v, unsigned block_x);

/* v, through integer extensions, reads the special register
 * `llvm.nvvm.read.ptx.sreg.<what>` ("tid.x", "warpsize"). */
int aucs_warpuni_sreg(LLVMValueRef v, const char *what);

/* v, through integer extensions, is the constant *c (sign-extended). */
int aucs_warpuni_const(LLVMValueRef v, long long *c);

#endif
