/*
 * warpuni: blocks every lane of a warp reaches together, the same number
 * of times (warp-uniform blocks), for a given block shape.
 *
 * Steps:
 *   1. The linear thread id (32 * warp + lane) is threadIdx.x of a
 *      one-dimensional block (or one whose x size is a multiple of 32), or
 *      threadIdx.y * blockDim.x + threadIdx.x of a block with z size 1;
 *      plus a warp-uniform multiple of 32 it stays linear.
 *   2. A value is warp-uniform when uniform.c deems it uniform, or it is a
 *      comparison of the linear thread id with a multiple of 32 (`tid <
 *      32`, `tid < warpSize`, `tid >= 64`, `tid <= 31`), the warp index
 *      (`lin >> 5`), or and/or/xor/casts/selects of warp-uniform values.
 *   3. A block is warp-uniform when every branch it is control dependent
 *      on, directly or through other branches, is block-uniform or has a
 *      warp-uniform condition.
 * Used by the repair's __syncwarp (repair/warpsync.c) and by the static
 * checker, for which a full-mask __syncwarp in such a block orders the
 * lanes of a warp (detector/static/static_access.c).
 *
 * Limitation: the block shape must be known (a launch): without it,
 * threadIdx.x is no linear thread id.
 */
#include "aucs/warpuni.h"

#include "aucs/nvvm.h"
#include "aucs/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct wctx {
  const aucs_uniformity *u;
  unsigned bx, by, bz;
} wctx;

static int is_sreg(LLVMValueRef v, const char *what) {
  char name[64];
  snprintf(name, sizeof name, "llvm.nvvm.read.ptx.sreg.%s", what);
  return !strcmp(aucs_nvvm_callee(v), name);
}

int aucs_warpuni_sreg(LLVMValueRef v, const char *what) {
  while (LLVMIsAZExtInst(v) || LLVMIsASExtInst(v))
    v = LLVMGetOperand(v, 0);
  return is_sreg(v, what);
}

static LLVMValueRef strip_casts(LLVMValueRef v) {
  while (LLVMIsAZExtInst(v) || LLVMIsASExtInst(v))
    v = LLVMGetOperand(v, 0);
  return v;
}

static int const_of(LLVMValueRef v, long long *c) {
  v = strip_casts(v);
  if (!LLVMIsAConstantInt(v))
    return 0;
  *c = LLVMConstIntGetSExtValue(v);
  return 1;
}

int aucs_warpuni_const(LLVMValueRef v, long long *c) { return const_of(v, c); }

static int binop(LLVMValueRef v, LLVMOpcode op) {
  return LLVMIsABinaryOperator(v) && LLVMGetInstructionOpcode(v) == op;
}

/* A warp-uniform multiple of 32: a constant, warpSize, a product with
 * one. */
static int mult32(const wctx *w, LLVMValueRef v) {
  long long c;
  v = strip_casts(v);
  if (const_of(v, &c))
    return c >= 0 && c % 32 == 0;
  if (is_sreg(v, "warpsize"))
    return 1;
  if (aucs_uniform_varying(w->u, v))
    return 0;
  if (binop(v, LLVMMul))
    return mult32(w, LLVMGetOperand(v, 0)) || mult32(w, LLVMGetOperand(v, 1));
  if (binop(v, LLVMShl))
    return const_of(LLVMGetOperand(v, 1), &c) && c >= 5;
  return 0;
}

/* threadIdx.y * blockDim.x (or the launch's x size as a constant). */
int aucs_warpuni_row(LLVMValueRef v, unsigned block_x) {
  long long c;
  v = strip_casts(v);
  if (!binop(v, LLVMMul))
    return 0;
  for (int k = 0; k < 2; k++) {
    LLVMValueRef y = strip_casts(LLVMGetOperand(v, k)),
                 x = strip_casts(LLVMGetOperand(v, !k));
    if (is_sreg(y, "tid.y") &&
        (is_sreg(x, "ntid.x") || (const_of(x, &c) && c == (long long)block_x)))
      return 1;
  }
  return 0;
}

/* The linear thread id (32 * warp + lane), or it plus a warp-uniform
 * multiple of 32. */
static int lane_linear(const wctx *w, LLVMValueRef v) {
  v = strip_casts(v);
  if (is_sreg(v, "tid.x"))
    return (w->by == 1 && w->bz == 1) || w->bx % 32 == 0;
  if (!binop(v, LLVMAdd) && !binop(v, LLVMOr))
    return 0;
  for (int k = 0; k < 2; k++) {
    LLVMValueRef a = LLVMGetOperand(v, k), b = LLVMGetOperand(v, !k);
    if (is_sreg(strip_casts(a), "tid.x") && aucs_warpuni_row(b, w->bx) && w->bz == 1)
      return 1;
    if (lane_linear(w, a) && mult32(w, b))
      return 1;
  }
  return 0;
}

static int warp_uniform(const wctx *w, LLVMValueRef v, int depth);

/* `lin < M`, `lin >= M`, `lin <= M - 1`, `lin > M - 1` (either side). */
static int lane_compare(const wctx *w, LLVMValueRef v) {
  LLVMIntPredicate p = LLVMGetICmpPredicate(v);
  for (int k = 0; k < 2; k++) {
    LLVMValueRef l = LLVMGetOperand(v, k), r = LLVMGetOperand(v, !k);
    long long c;
    if (!lane_linear(w, l))
      continue;
    int strict = p == LLVMIntULT || p == LLVMIntSLT || p == LLVMIntUGE ||
                 p == LLVMIntSGE;
    if (strict && mult32(w, r))
      return 1;
    if (!strict && p != LLVMIntEQ && p != LLVMIntNE && const_of(r, &c) &&
        c >= 0 && (c + 1) % 32 == 0)
      return 1;
  }
  return 0;
}

static int warp_uniform(const wctx *w, LLVMValueRef v, int depth) {
  if (!aucs_uniform_varying(w->u, v))
    return 1;
  if (depth > 8 || !LLVMIsAInstruction(v))
    return 0;
  if (LLVMIsAICmpInst(v))
    return lane_compare(w, v) ||
           (warp_uniform(w, LLVMGetOperand(v, 0), depth + 1) &&
            warp_uniform(w, LLVMGetOperand(v, 1), depth + 1));
  if (binop(v, LLVMAnd) || binop(v, LLVMOr) || binop(v, LLVMXor) ||
      LLVMIsAZExtInst(v) || LLVMIsATruncInst(v) || LLVMIsASelectInst(v)) {
    for (int k = 0; k < LLVMGetNumOperands(v); k++)
      if (!warp_uniform(w, LLVMGetOperand(v, k), depth + 1))
        return 0;
    return 1;
  }
  if (binop(v, LLVMLShr) || binop(v, LLVMAShr)) { /* lin >> 5: the warp */
    long long c;
    return lane_linear(w, LLVMGetOperand(v, 0)) &&
           const_of(LLVMGetOperand(v, 1), &c) && c >= 5;
  }
  return 0;
}

/* Block b is control dependent on the branch ending block c: some
 * successor of c leads to b for sure, and b does not post-dominate c. */
static int depends_on(const aucs_cfg *g, int b, int c) {
  if (aucs_cfg_postdominates(g, b, c) && b != c)
    return 0;
  for (int i = 0; i < g->nsucc[c]; i++) {
    int s = g->succ[c][i];
    if (s == b || aucs_cfg_postdominates(g, b, s))
      return 1;
  }
  return 0;
}

static LLVMValueRef branch_condition(LLVMBasicBlockRef bb) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
  if (LLVMIsABranchInst(term) && LLVMIsConditional(term))
    return LLVMGetCondition(term);
  if (LLVMIsASwitchInst(term))
    return LLVMGetOperand(term, 0);
  return NULL;
}

/* memo: 0 not asked, 1 being asked (a cycle through loop edges adds no
 * branch of its own), 2 warp-uniform, 3 not. */
static int warp_block(const aucs_cfg *g, const wctx *w, int b,
                      unsigned char *memo) {
  if (aucs_uniform_block(w->u, b) || memo[b] == 1 || memo[b] == 2)
    return 1;
  if (memo[b] == 3)
    return 0;
  memo[b] = 1;
  int ok = 1;
  for (int c = 0; ok && c < g->nblocks; c++) {
    if (c == b || g->topo_index[c] < 0 || !depends_on(g, b, c))
      continue;
    LLVMValueRef cond = branch_condition(g->blocks[c]);
    if (aucs_uniform_branch_divergent(w->u, c) &&
        (!cond || !warp_uniform(w, cond, 0)))
      ok = 0;
    else
      ok = warp_block(g, w, c, memo);
  }
  memo[b] = ok ? 2 : 3;
  return ok;
}

int aucs_warpuni_block(const aucs_cfg *g, const aucs_uniformity *u,
                       const unsigned block[3], int b) {
  wctx w = {u, block[0], block[1], block[2]};
  unsigned char *memo = aucs_xcalloc((size_t)g->nblocks, 1);
  int ok = warp_block(g, &w, b, memo);
  free(memo);
  return ok;
}

