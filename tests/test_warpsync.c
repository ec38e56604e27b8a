/*
 * test_warpsync: the warp-level repair (repair/warpsync.c) through the
 * repair loop (repair.h), on inline .ll kernels: one step of a
 * warp-synchronous tail `if (t < K) { s[t] += s[t + D]; }`, whose K and D
 * decide whether the racing lanes share a warp and reach the point
 * together.
 */
#include "support.h"

#include "aucs/editlog.h"
#include "aucs/place.h"
#include "aucs/repair.h"

#include <llvm-c/Analysis.h>
#include <stdio.h>
#include <string.h>

/* if (t < K) { v[t] += v[t + D]; v[t] += v[t + D / 2]; } (volatile) */
static char *tail_ir(int k, int d) {
  static char ir[4096];
  snprintf(
      ir, sizeof ir,
      "@s = internal addrspace(3) global [256 x float] undef\n"
      "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n"
      "define ptx_kernel void @k(ptr %%out) {\n"
      "entry:\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %%p = getelementptr [256 x float], ptr addrspace(3) @s, i32 0, i32 "
      "%%t\n"
      "  store float 1.0, ptr addrspace(3) %%p\n"
      "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
      "  %%c = icmp ult i32 %%t, %d\n"
      "  br i1 %%c, label %%tail, label %%done\n"
      "tail:\n"
      "  %%u = add i32 %%t, %d\n"
      "  %%q = getelementptr [256 x float], ptr addrspace(3) @s, i32 0, i32 "
      "%%u\n"
      "  %%a = load volatile float, ptr addrspace(3) %%q\n"
      "  %%b = load volatile float, ptr addrspace(3) %%p\n"
      "  %%x = fadd float %%a, %%b\n"
      "  store volatile float %%x, ptr addrspace(3) %%p\n"
      "  %%w = add i32 %%t, %d\n"
      "  %%r = getelementptr [256 x float], ptr addrspace(3) @s, i32 0, i32 "
      "%%w\n"
      "  %%e = load volatile float, ptr addrspace(3) %%r\n"
      "  %%f = load volatile float, ptr addrspace(3) %%p\n"
      "  %%y = fadd float %%e, %%f\n"
      "  store volatile float %%y, ptr addrspace(3) %%p\n"
      "  br label %%done\n"
      "done:\n"
      "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
      "  %%z = load float, ptr addrspace(3) @s\n"
      "  %%o = getelementptr float, ptr %%out, i32 %%t\n"
      "  store float %%z, ptr %%o\n"
      "  ret void\n"
      "}\n",
      k, d, d / 2);
  return ir;
}

static void repair(LLVMModuleRef m, unsigned block, aucs_repair_result *r) {
  aucs_detect_options d = {0};
  d.has_grid = d.has_block = d.has_seed = 1;
  d.grid = (aucs_dim3){1, 1, 1};
  d.block = (aucs_dim3){block, 1, 1};
  d.seed = 3;
  aucs_repair_options o = {.detect = &d};
  char *err = NULL;
  assert_int_equal(aucs_repair_run(m, &o, r, &err), 0);
  aucs_repair_ids_strip(m);
  assert_false(LLVMVerifyModule(m, LLVMReturnStatusAction, NULL));
}

static int count_calls(LLVMValueRef fn, const char *callee) {
  int n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I)) {
      LLVMValueRef f = LLVMIsACallInst(I) ? LLVMGetCalledValue(I) : NULL;
      size_t len;
      n += f && LLVMIsAFunction(f) &&
           !strcmp(LLVMGetValueName2(f, &len), callee);
    }
  return n;
}

static int edits_of(const aucs_repair_result *r, aucs_edit_kind k) {
  int n = 0;
  for (size_t i = 0; i < r->log.n; i++)
    n += r->log.v[i].kind == k;
  return n;
}

static void all_fixed(const aucs_repair_result *r) {
  assert_true(r->nitems >= 1);
  for (size_t i = 0; i < r->nitems; i++)
    if (!r->items[i].introduced && r->items[i].outcome != AUCS_OUTCOME_FIXED)
      print_message("item %zu: %s\n", i,
                    r->items[i].how ? r->items[i].how : "");
  for (size_t i = 0; i < r->nitems; i++)
    if (!r->items[i].introduced)
      assert_int_equal(r->items[i].outcome, AUCS_OUTCOME_FIXED);
}

/* One warp runs the tail: only __syncwarp(), full mask, between each
 * step's reads and its write and after the write; the block barriers stay
 * the kernel's two. */
static void test_warpsync_one_warp_gets_syncwarp(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(tail_ir(32, 16));
  aucs_repair_result r;
  repair(m, 64, &r);
  all_fixed(&r);
  assert_int_equal(edits_of(&r, AUCS_EDIT_INSERT_BARRIER), 0);
  assert_int_equal(edits_of(&r, AUCS_EDIT_INSERT_WARP_SYNC), 3);
  LLVMValueRef k = support_fn(m, "k");
  assert_int_equal(count_calls(k, "llvm.nvvm.bar.warp.sync"), 3);
  assert_int_equal(count_calls(k, "llvm.nvvm.barrier.cta.sync.aligned.all"), 2);
  assert_non_null(strstr(r.log.v[0].why, "warp-synchronous code: correct "
                                         "before Volta, a race under "
                                         "independent thread scheduling"));
  aucs_repair_result_free(&r);
  support_free(m);
}

/* Half a warp runs the tail (t < 16): a full mask would name lanes that
 * never arrive, so no __syncwarp is put; the block barrier variants fix
 * it. */
static void test_warpsync_half_warp_gets_none(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(tail_ir(16, 8));
  aucs_repair_result r;
  repair(m, 64, &r);
  all_fixed(&r);
  assert_int_equal(edits_of(&r, AUCS_EDIT_INSERT_WARP_SYNC), 0);
  assert_int_equal(count_calls(support_fn(m, "k"), "llvm.nvvm.bar.warp.sync"),
                   0);
  aucs_repair_result_free(&r);
  support_free(m);
}

/* Two warps run the tail and lane t reads the slot lane t of the other
 * warp writes: no __syncwarp orders them, a block barrier does. */
static void test_warpsync_two_warps_keep_the_block_barrier(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(tail_ir(64, 32));
  aucs_repair_result r;
  repair(m, 128, &r);
  all_fixed(&r);
  assert_int_equal(edits_of(&r, AUCS_EDIT_INSERT_WARP_SYNC), 0);
  assert_true(edits_of(&r, AUCS_EDIT_INSERT_BARRIER) >= 1);
  assert_int_equal(count_calls(support_fn(m, "k"), "llvm.nvvm.bar.warp.sync"),
                   0);
  aucs_repair_result_free(&r);
  support_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_warpsync_one_warp_gets_syncwarp),
      cmocka_unit_test(test_warpsync_half_warp_gets_none),
      cmocka_unit_test(test_warpsync_two_warps_keep_the_block_barrier),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
