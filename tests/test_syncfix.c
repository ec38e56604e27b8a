/*
 * test_syncfix: the synchronization edits of syncfix.h on inline IR:
 * widening a block-scoped atomic, finding the flag store, inserting a
 * fence.
 */
#include "support.h"

#include "aucs/syncfix.h"

#include <llvm-c/Analysis.h>
#include <stdlib.h>
#include <string.h>

static const char *LOCK_IR =
    "declare i32 @llvm.nvvm.atomic.cas.gen.i.cta.i32.p0(ptr, i32, i32)\n"
    "declare i32 @llvm.nvvm.atomic.add.gen.i.sys.i32.p0(ptr, i32)\n"
    "define void @k(ptr %lock, ptr %n) {\n"
    "entry:\n"
    "  br label %spin\n"
    "spin:\n"
    "  %old = call i32 @llvm.nvvm.atomic.cas.gen.i.cta.i32.p0(ptr %lock, "
    "i32 0, i32 1)\n"
    "  %busy = icmp ne i32 %old, 0\n"
    "  br i1 %busy, label %spin, label %body\n"
    "body:\n"
    "  %s = call i32 @llvm.nvvm.atomic.add.gen.i.sys.i32.p0(ptr %n, i32 1)\n"
    "  %b = atomicrmw add ptr %n, i32 1 syncscope(\"block\") monotonic\n"
    "  %d = atomicrmw add ptr %n, i32 1 syncscope(\"device\") monotonic\n"
    "  ret void\n"
    "}\n";

static LLVMValueRef nth(LLVMBasicBlockRef bb, int i) {
  LLVMValueRef I = LLVMGetFirstInstruction(bb);
  while (I && i--)
    I = LLVMGetNextInstruction(I);
  return I;
}

static void verify(LLVMModuleRef m) {
  char *msg = NULL;
  int bad = LLVMVerifyModule(m, LLVMReturnStatusAction, &msg);
  if (bad)
    fail_msg("%s", msg);
  LLVMDisposeMessage(msg);
}

/* Only block scope is narrow: not sys, not device, not a plain call. */
static void test_syncfix_narrow_is_block_scope_only(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(LOCK_IR);
  LLVMValueRef k = support_fn(m, "k");
  LLVMBasicBlockRef spin = support_block(k, "spin"),
                    body = support_block(k, "body");
  assert_true(aucs_syncfix_narrow(nth(spin, 0)));
  assert_false(aucs_syncfix_narrow(nth(spin, 1)));
  assert_false(aucs_syncfix_narrow(nth(body, 0)));
  assert_true(aucs_syncfix_narrow(nth(body, 1)));
  assert_false(aucs_syncfix_narrow(nth(body, 2)));
  support_free(m);
}

/* atomicCAS_block's intrinsic becomes clang's atomicCAS: a seq_cst
 * cmpxchg of default scope whose old value feeds the old users. */
static void test_syncfix_widen_cas_call_becomes_cmpxchg(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(LOCK_IR);
  LLVMValueRef k = support_fn(m, "k");
  LLVMBasicBlockRef spin = support_block(k, "spin");
  char *err = NULL;
  LLVMValueRef x = aucs_syncfix_widen(nth(spin, 0), &err);
  assert_null(err);
  assert_non_null(x);
  assert_non_null(LLVMIsAAtomicCmpXchgInst(x));
  assert_int_equal(LLVMGetCmpXchgSuccessOrdering(x),
                   LLVMAtomicOrderingSequentiallyConsistent);
  assert_false(aucs_syncfix_narrow(x));
  LLVMValueRef old = nth(spin, 1), cmp = nth(spin, 2);
  assert_non_null(LLVMIsAExtractValueInst(old));
  assert_ptr_equal(LLVMGetOperand(cmp, 0), old);
  verify(m);
  support_free(m);
}

/* An atomicrmw of block scope keeps its place and gets device scope. */
static void test_syncfix_widen_rmw_gets_device_scope(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(LOCK_IR);
  LLVMValueRef k = support_fn(m, "k");
  LLVMValueRef b = nth(support_block(k, "body"), 1),
               d = nth(support_block(k, "body"), 2);
  char *err = NULL;
  assert_ptr_equal(aucs_syncfix_widen(b, &err), b);
  assert_false(aucs_syncfix_narrow(b));
  assert_int_equal(LLVMGetAtomicSyncScopeID(b), LLVMGetAtomicSyncScopeID(d));
  /* a device-scoped atomic is not widened */
  assert_null(aucs_syncfix_widen(nth(support_block(k, "body"), 0), &err));
  assert_non_null(err);
  free(err);
  verify(m);
  support_free(m);
}

static const char *FLAG_IR = "define void @k(ptr %data, ptr %flag, i1 %c) {\n"
                             "entry:\n"
                             "  store i32 7, ptr %data\n"
                             "  store i32 8, ptr %data\n"
                             "  br i1 %c, label %then, label %done\n"
                             "then:\n"
                             "  store volatile i32 1, ptr %flag\n"
                             "  br label %done\n"
                             "done:\n"
                             "  ret void\n"
                             "}\n";

/* The flag store is the first strong write after the access, through the
 * CFG; plain stores are not flags. The fence goes right before it. */
static void test_syncfix_fence_before_flag_store(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(FLAG_IR);
  LLVMValueRef k = support_fn(m, "k");
  LLVMValueRef a = nth(support_block(k, "entry"), 0);
  LLVMValueRef flag = aucs_syncfix_flag_store(a);
  assert_ptr_equal(flag, nth(support_block(k, "then"), 0));
  assert_null(aucs_syncfix_flag_store(flag));
  LLVMValueRef fence = aucs_syncfix_fence(flag);
  assert_ptr_equal(LLVMGetNextInstruction(fence), flag);
  size_t n;
  assert_string_equal(LLVMGetValueName2(LLVMGetCalledValue(fence), &n),
                      "llvm.nvvm.membar.gl");
  verify(m);
  char *why = NULL, *src = aucs_syncfix_fence_source(fence, "the flag", &why);
  assert_null(src); /* no debug location: IR only, with the reason */
  assert_non_null(why);
  free(why);
  support_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_syncfix_narrow_is_block_scope_only),
      cmocka_unit_test(test_syncfix_widen_cas_call_becomes_cmpxchg),
      cmocka_unit_test(test_syncfix_widen_rmw_gets_device_scope),
      cmocka_unit_test(test_syncfix_fence_before_flag_store),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
