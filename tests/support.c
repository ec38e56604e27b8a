/*
 * support: fixtures shared by the unit tests.
 */
#include "support.h"

#include "aucs/cfg.h"
#include "aucs/util.h"
#include <llvm-c/IRReader.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *header =
    "target datalayout = \"e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-"
    "n16:32:64\"\n"
    "target triple = \"nvptx64-nvidia-cuda\"\n";

LLVMModuleRef support_parse(const char *ir) {
  char *text = strstr(ir, "target triple") ? aucs_xstrdup(ir)
                                           : aucs_xasprintf("%s%s", header, ir);
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(
      text, strlen(text), "fixture.ll");
  free(text);
  LLVMModuleRef m = NULL;
  char *msg = NULL;
  if (LLVMParseIRInContext(ctx, buf, &m, &msg)) {
    print_error("fixture does not parse: %s\n", msg ? msg : "?");
    LLVMDisposeMessage(msg);
    LLVMContextDispose(ctx);
    fail();
  }
  return m;
}

void support_free(LLVMModuleRef m) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMDisposeModule(m);
  LLVMContextDispose(ctx);
}

LLVMValueRef support_fn(LLVMModuleRef m, const char *name) {
  LLVMValueRef fn = LLVMGetNamedFunction(m, name);
  if (!fn) {
    print_error("no function @%s in fixture\n", name);
    fail();
  }
  return fn;
}

LLVMBasicBlockRef support_block(LLVMValueRef fn, const char *name) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    if (strcmp(LLVMGetBasicBlockName(bb), name) == 0)
      return bb;
  print_error("no block %%%s in fixture\n", name);
  fail();
  return NULL;
}

char *support_write_file(const char *name, const void *data, size_t len) {
  char *path = aucs_xasprintf("%s/%s", AUCS_TEST_TMP, name);
  FILE *f = fopen(path, "wb");
  assert_non_null(f);
  assert_int_equal(fwrite(data, 1, len, f), len);
  fclose(f);
  return path;
}

int support_block_index(LLVMValueRef fn, const char *name) {
  aucs_cfg *cfg = aucs_cfg_build(fn);
  int i = aucs_cfg_index(cfg, support_block(fn, name));
  aucs_cfg_free(cfg);
  return i;
}

uint64_t support_rng(uint64_t *s) {
  *s ^= *s << 13;
  *s ^= *s >> 7;
  *s ^= *s << 17;
  return *s;
}

aucs_prog *support_lower(LLVMValueRef fn) {
  aucs_prog *p = NULL;
  aucs_findings d = {0};
  if (aucs_interp_lower(fn, &p, &d))
    print_error("lowering failed: %s\n", d.n ? d.v[0].message : "?");
  aucs_findings_free(&d);
  assert_non_null(p);
  return p;
}

void support_compare_memory(const aucs_prog *p, const aucs_run_result *a,
                            const aucs_run_result *b, size_t bytes,
                            uint64_t run) {
  unsigned char *x = aucs_xmalloc(bytes), *y = aucs_xmalloc(bytes);
  for (size_t i = 0; i < aucs_prog_nparams(p); i++) {
    if (aucs_prog_param(p, i)->kind != AUCS_PARAM_POINTER)
      continue;
    assert_int_equal(aucs_run_read(a, i, 0, x, bytes), 0);
    assert_int_equal(aucs_run_read(b, i, 0, y, bytes), 0);
    if (memcmp(x, y, bytes))
      print_error("run %llu: memory of param %zu differs\n",
                  (unsigned long long)run, i);
    assert_memory_equal(x, y, bytes);
  }
  free(x);
  free(y);
}

aucs_run_status support_run_both(const aucs_prog *p, const aucs_prog *q,
                                 const aucs_run_config *c, aucs_run_result *a,
                                 aucs_run_result *b, size_t bytes,
                                 uint64_t run) {
  aucs_run_status sa = aucs_interp_run(p, c, a);
  aucs_run_status sb = aucs_interp_run(q, c, b);
  if (sa != sb)
    print_error("run %llu: status %d vs %d (%s / %s)\n",
                (unsigned long long)run, sa, sb, a->error ? a->error : "",
                b->error ? b->error : "");
  assert_int_equal(sa, sb);
  if (sa == AUCS_RUN_OK)
    support_compare_memory(p, a, b, bytes, run);
  return sa;
}
