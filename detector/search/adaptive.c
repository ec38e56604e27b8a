/*
 * adaptive: the static side's early stop for the input search.
 *
 * Steps:
 *   1. No plan unless the static checker proved every pair (race-free).
 *   2. Uniformity of the kernel (uniform.h): a barrier outside the kernel
 *      (in a helper) or in a non-uniform block is in question (barrier
 *      divergence needs runs): no plan.
 *   3. Per barrier: proven redundant by Z3, or not (it needs a run that
 *      shows it ordering a pair, else the dynamic rule would call it
 *      redundant on too little evidence).
 *   4. Settled: each proven barrier passed once, each other one ordered.
 *
 * Limitation: see adaptive.h.
 */
#include "aucs/adaptive.h"

#include "aucs/cfg.h"
#include "aucs/uniform.h"
#include "aucs/util.h"
#include <llvm-c/Core.h>
#include <stdlib.h>

struct aucs_adaptive {
  size_t n;
  unsigned char *proven; /* per barrier: Z3 proved it redundant */
};

/* Barrier bar lies in a uniform block of kernel. */
static int uniform_barrier(LLVMValueRef kernel, const aucs_cfg *cfg,
                           const aucs_uniformity *u, LLVMValueRef bar) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(bar);
  if (!bb || LLVMGetBasicBlockParent(bb) != kernel)
    return 0;
  int b = aucs_cfg_index(cfg, bb);
  return b >= 0 && aucs_uniform_block(u, b);
}

static int barriers_uniform(LLVMValueRef kernel, const aucs_prog *prog) {
  size_t n = aucs_prog_nbarriers(prog);
  if (!n)
    return 1;
  aucs_cfg *cfg = aucs_cfg_build(kernel);
  aucs_uniformity *u = aucs_uniform_compute(cfg);
  int ok = 1;
  for (size_t i = 0; i < n && ok; i++)
    ok = uniform_barrier(kernel, cfg, u, aucs_prog_barrier(prog, i));
  aucs_uniform_free(u);
  aucs_cfg_free(cfg);
  return ok;
}

aucs_adaptive *aucs_adaptive_plan(LLVMValueRef kernel, const aucs_static *st,
                                  const aucs_prog *prog) {
  if (!st || !prog || aucs_static_proof_of(st) != AUCS_PROOF_RACE_FREE ||
      !barriers_uniform(kernel, prog))
    return NULL;
  aucs_adaptive *a = aucs_xcalloc(1, sizeof *a);
  a->n = aucs_prog_nbarriers(prog);
  a->proven = aucs_xcalloc(a->n + 1, 1);
  for (size_t i = 0; i < a->n; i++)
    a->proven[i] = (unsigned char)aucs_static_barrier_redundant(
        st, aucs_prog_barrier(prog, i));
  return a;
}

int aucs_adaptive_settled(const aucs_adaptive *a, const uint64_t *runs,
                          const unsigned char *ordered) {
  for (size_t i = 0; a && i < a->n; i++)
    if (a->proven[i] ? !runs[i] : !ordered[i])
      return 0;
  return a != NULL;
}

void aucs_adaptive_free(aucs_adaptive *a) {
  if (!a)
    return;
  free(a->proven);
  free(a);
}
