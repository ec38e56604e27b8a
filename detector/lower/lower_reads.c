/*
 * lower_reads: where the kernel's bytecode marks a scalar parameter read
 * (OP_MARK, for the run's leaf_read: interp.h), so a reproduce line can
 * leave out the inputs a run never read.
 *
 * Steps, for the kernel (a callee sees a parameter only as an argument,
 * and the call that passes it is a use):
 *   1. Each use of an integer or floating-point parameter names a block:
 *      the user's, or for a phi the incoming block the value comes from
 *      (the phi's copy is made there, before the branch).
 *   2. A loop header's mark moves to the loop's preheader (its one
 *      predecessor outside the loop, with no other successor): once the
 *      preheader runs the header does, and the mark runs once instead of
 *      every iteration.
 *   3. A block keeps its mark unless a block that strictly dominates it
 *      marks the same parameter: that mark ran first.
 * A mark opens its block, before the use: a parameter a thread read is
 * always marked.
 *
 * Limitation: a thread that stops between the mark and the use (a trap, a
 * budget) still marks the parameter read, which lists one input more.
 */
#include "lower_impl.h"

#include "aucs/cfg.h"

struct lw_marks {
  aucs_cfg *cfg;
  unsigned np;
  unsigned char *at; /* [block * np + param]: mark param at block's start */
};

static int scalar_param(LLVMValueRef a) {
  LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(a));
  return k == LLVMIntegerTypeKind || k == LLVMFloatTypeKind ||
         k == LLVMDoubleTypeKind;
}

/* The preheader of the loop headed by b, or -1. */
static int preheader(const aucs_cfg *cfg, int b) {
  for (int l = 0; l < cfg->nloops; l++) {
    if (cfg->loops[l].header != b)
      continue;
    int outside = -1, n = 0;
    for (int i = 0; i < cfg->npred[b]; i++)
      if (!aucs_cfg_in_loop(cfg, l, cfg->pred[b][i]))
        outside = cfg->pred[b][i], n++;
    return n == 1 && cfg->nsucc[outside] == 1 ? outside : -1;
  }
  return -1;
}

static void need(lw_marks *m, LLVMBasicBlockRef bb, unsigned param) {
  int b = aucs_cfg_index(m->cfg, bb);
  if (b < 0 || !m->cfg->reachable[b])
    return;
  for (int p = preheader(m->cfg, b); p >= 0; p = preheader(m->cfg, b))
    b = p;
  m->at[(size_t)b * m->np + param] = 1;
}

static void uses(lw_marks *m, LLVMValueRef a, unsigned param) {
  for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef I = LLVMGetUser(u);
    if (!LLVMIsAInstruction(I))
      continue;
    if (!LLVMIsAPHINode(I)) {
      need(m, LLVMGetInstructionParent(I), param);
      continue;
    }
    for (unsigned k = 0; k < LLVMCountIncoming(I); k++)
      if (LLVMGetIncomingValue(I, k) == a)
        need(m, LLVMGetIncomingBlock(I, k), param);
  }
}

/* Step 3: drop the marks a strict dominator makes already. */
static void prune(lw_marks *m) {
  const aucs_cfg *cfg = m->cfg;
  for (int b = cfg->nblocks - 1; b >= 0; b--)
    for (unsigned i = 0; i < m->np; i++) {
      if (!m->at[(size_t)b * m->np + i])
        continue;
      for (int x = cfg->idom[b]; x >= 0; x = cfg->idom[x])
        if (m->at[(size_t)x * m->np + i]) {
          m->at[(size_t)b * m->np + i] = 2; /* dropped, still dominating */
          break;
        }
    }
}

lw_marks *lw_marks_build(LLVMValueRef kernel) {
  lw_marks *m = aucs_xcalloc(1, sizeof *m);
  m->cfg = aucs_cfg_build(kernel);
  m->np = LLVMCountParams(kernel);
  m->at = aucs_xcalloc((size_t)m->cfg->nblocks * m->np + 1, 1);
  for (unsigned i = 0; i < m->np; i++)
    if (scalar_param(LLVMGetParam(kernel, i)))
      uses(m, LLVMGetParam(kernel, i), i);
  prune(m);
  return m;
}

void lw_marks_emit(lowerer *L, const lw_marks *m, LLVMBasicBlockRef bb) {
  int b = m ? aucs_cfg_index(m->cfg, bb) : -1;
  for (unsigned i = 0; b >= 0 && i < m->np; i++)
    if (m->at[(size_t)b * m->np + i] == 1)
      lw_emit(L, (bc_insn){.op = OP_MARK, .a = i});
}

void lw_marks_free(lw_marks *m) {
  if (!m)
    return;
  aucs_cfg_free(m->cfg);
  free(m->at);
  free(m);
}
