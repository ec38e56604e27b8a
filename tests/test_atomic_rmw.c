/*
 * test_atomic_rmw: which read-modify-writes atomic_rmw.h makes one
 * atomicrmw, and the instruction it makes.
 */
#include "support.h"

#include "aucs/atomic_rmw.h"

#include <llvm-c/Analysis.h>
#include <stdlib.h>

static const char *RMW_IR =
    "@h = addrspace(3) global [16 x i32] undef\n"
    "@f = addrspace(3) global [16 x float] undef\n"
    "declare void @g()\n"
    "define void @k(ptr %in, i32 %i, i32 %v, float %x) {\n"
    "inc:\n" /* h[i]++ with the address computed twice, as at -O0 */
    "  %p = getelementptr [16 x i32], ptr addrspace(3) @h, i32 0, i32 %i\n"
    "  %q = getelementptr [16 x i32], ptr addrspace(3) @h, i32 0, i32 %i\n"
    "  %a = load i32, ptr addrspace(3) %p\n"
    "  %b = add nsw i32 %a, 1\n"
    "  store i32 %b, ptr addrspace(3) %q\n"
    "  br label %sub\n"
    "sub:\n" /* v - h[i]: the load is not the first operand */
    "  %c = load i32, ptr addrspace(3) %p\n"
    "  %d = sub i32 %v, %c\n"
    "  store i32 %d, ptr addrspace(3) %p\n"
    "  br label %between\n"
    "between:\n" /* a call between the load and the store */
    "  %e = load i32, ptr addrspace(3) %p\n"
    "  call void @g()\n"
    "  %e1 = xor i32 %e, %v\n"
    "  store i32 %e1, ptr addrspace(3) %p\n"
    "  br label %twice\n"
    "twice:\n" /* the old value used again: h[i] += h[i] */
    "  %t = load i32, ptr addrspace(3) %p\n"
    "  %t1 = add i32 %t, %t\n"
    "  store i32 %t1, ptr addrspace(3) %p\n"
    "  br label %mul\n"
    "mul:\n" /* no atomic multiplies */
    "  %m = load i32, ptr addrspace(3) %p\n"
    "  %m1 = mul i32 %m, %v\n"
    "  store i32 %m1, ptr addrspace(3) %p\n"
    "  br label %fadd\n"
    "fadd:\n"
    "  %fp = getelementptr [16 x float], ptr addrspace(3) @f, i32 0, i32 %i\n"
    "  %y = load float, ptr addrspace(3) %fp\n"
    "  %y1 = fadd float %x, %y\n"
    "  store float %y1, ptr addrspace(3) %fp\n"
    "  ret void\n"
    "}\n";

static LLVMValueRef nth(LLVMBasicBlockRef bb, int i) {
  LLVMValueRef I = LLVMGetFirstInstruction(bb);
  while (I && i--)
    I = LLVMGetNextInstruction(I);
  return I;
}

static int matches(LLVMValueRef k, const char *block, int load, int store) {
  LLVMBasicBlockRef bb = support_block(k, block);
  aucs_atomic_rmw r;
  return aucs_atomic_rmw_match(nth(bb, load), nth(bb, store), &r) &&
         aucs_atomic_rmw_match(nth(bb, store), nth(bb, store), &r);
}

/* A load/store pair and the store alone (racing with itself) match when
 * the operation is an atomic one of the loaded value and another value. */
static void test_atomic_rmw_match_shapes(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(RMW_IR);
  LLVMValueRef k = support_fn(m, "k");
  assert_true(matches(k, "inc", 2, 4));
  assert_false(matches(k, "sub", 0, 2));     /* v - h[i]: not h[i] -= v */
  assert_false(matches(k, "between", 0, 3)); /* a call between */
  assert_false(matches(k, "twice", 0, 2));   /* old value used twice */
  assert_false(matches(k, "mul", 0, 2));     /* no atomicMul */
  assert_true(matches(k, "fadd", 1, 3));
  aucs_atomic_rmw r;
  LLVMBasicBlockRef inc = support_block(k, "inc");
  assert_true(aucs_atomic_rmw_match(nth(inc, 2), nth(inc, 4), &r));
  assert_int_equal(r.bin, LLVMAtomicRMWBinOpAdd);
  assert_string_equal(r.cuda, "atomicAdd");
  /* another load than the statement's own is not the pair */
  assert_false(
      aucs_atomic_rmw_match(nth(support_block(k, "sub"), 0), nth(inc, 4), &r));
  support_free(m);
}

/* The load, add and store become one seq_cst atomicrmw add of the other
 * operand, at the store's address; the module verifies. */
static void test_atomic_rmw_apply_makes_one_atomicrmw(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(RMW_IR);
  LLVMValueRef k = support_fn(m, "k");
  LLVMBasicBlockRef inc = support_block(k, "inc"),
                    fadd = support_block(k, "fadd");
  char *err = NULL;
  LLVMValueRef x = aucs_atomic_rmw_apply(nth(inc, 4), &err);
  assert_null(err);
  assert_non_null(LLVMIsAAtomicRMWInst(x));
  assert_int_equal(LLVMGetAtomicRMWBinOp(x), LLVMAtomicRMWBinOpAdd);
  assert_int_equal(LLVMGetOrdering(x),
                   LLVMAtomicOrderingSequentiallyConsistent);
  assert_ptr_equal(LLVMGetOperand(x, 0), nth(inc, 1)); /* the store's %q */
  assert_int_equal(LLVMConstIntGetZExtValue(LLVMGetOperand(x, 1)), 1);
  assert_ptr_equal(nth(inc, 2), x); /* %a and %b are gone */
  LLVMValueRef y = aucs_atomic_rmw_apply(nth(fadd, 3), &err);
  assert_non_null(y);
  assert_int_equal(LLVMGetAtomicRMWBinOp(y), LLVMAtomicRMWBinOpFAdd);
  char *msg = NULL;
  if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg))
    fail_msg("%s", msg);
  LLVMDisposeMessage(msg);
  /* a store ending no read-modify-write: an error, nothing changed */
  LLVMValueRef st = nth(support_block(k, "mul"), 2);
  assert_null(aucs_atomic_rmw_apply(st, &err));
  assert_non_null(err);
  free(err);
  assert_non_null(LLVMIsAStoreInst(nth(support_block(k, "mul"), 2)));
  support_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_atomic_rmw_match_shapes),
      cmocka_unit_test(test_atomic_rmw_apply_makes_one_atomicrmw),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
