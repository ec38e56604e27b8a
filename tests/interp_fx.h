/*
 * interp_fx: the fixture the interpreter's unit tests share (test_interp.c,
 * test_interp_limits.c, test_texture.c): a lowered kernel, a launch, and lookups into the
 * run's findings and memory.
 */
#ifndef AUCS_TESTS_INTERP_FX_H
#define AUCS_TESTS_INTERP_FX_H

#include "support.h"

#include "aucs/interp.h"
#include "aucs/util.h"
#include <llvm-c/Core.h>
#include <stdlib.h>
#include <string.h>

typedef struct fx {
  LLVMModuleRef m;
  aucs_prog *p;
  aucs_run_result res;
} fx;

static inline aucs_run_config config(unsigned grid, unsigned block) {
  aucs_run_config c = {0};
  c.launch.grid = (aucs_dim3){grid, 1, 1};
  c.launch.block = (aucs_dim3){block, 1, 1};
  c.seed = 1;
  c.keep_memory = 1;
  return c;
}

static inline void load_fx(fx *f, const char *ir, const char *fn) {
  memset(f, 0, sizeof *f);
  f->m = support_parse(ir);
  aucs_findings d = {0};
  int rc = aucs_interp_lower(support_fn(f->m, fn), &f->p, &d);
  if (rc)
    print_error("lowering failed: %s\n", d.n ? d.v[0].message : "?");
  assert_int_equal(rc, 0);
  aucs_findings_free(&d);
}

static inline aucs_run_status run_fx(fx *f, const aucs_run_config *c) {
  aucs_run_result_free(&f->res);
  aucs_run_status st = aucs_interp_run(f->p, c, &f->res);
  if (st != AUCS_RUN_OK && f->res.error)
    print_message("run: %s\n", f->res.error);
  return st;
}

static inline void free_fx(fx *f) {
  aucs_run_result_free(&f->res);
  aucs_prog_free(f->p);
  support_free(f->m);
}

static inline uint64_t out64(fx *f, size_t i) {
  uint64_t v = 0;
  assert_int_equal(aucs_run_read(&f->res, 0, i * 8, &v, 8), 0);
  return v;
}

static inline size_t count(const fx *f, aucs_finding_kind k) {
  size_t n = 0;
  for (size_t i = 0; i < f->res.findings.n; i++)
    n += f->res.findings.v[i].kind == k;
  return n;
}

static inline const aucs_finding *first(const fx *f, aucs_finding_kind k) {
  for (size_t i = 0; i < f->res.findings.n; i++)
    if (f->res.findings.v[i].kind == k)
      return &f->res.findings.v[i];
  fail_msg("no %s finding", aucs_finding_kind_name(k));
  return NULL;
}

/* The n-th instruction of fn with opcode op. */
static inline LLVMValueRef nth(fx *f, const char *fn, LLVMOpcode op, int n) {
  LLVMValueRef F = support_fn(f->m, fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(F); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I))
      if (LLVMGetInstructionOpcode(I) == op && n-- == 0)
        return I;
  fail_msg("no such instruction in @%s", fn);
  return NULL;
}

#define SREG_DECLS                                                             \
  "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"                             \
  "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"                           \
  "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n"
#endif
