/*
 * test_lower: what lowering accepts, what it reports, and what it records
 * about the kernel (parameters, barriers, globals).
 */
#include "support.h"

#include "aucs/interp.h"
#include <llvm-c/Core.h>
#include <string.h>

static LLVMValueRef nth(LLVMValueRef fn, LLVMOpcode op, int n) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I))
      if (LLVMGetInstructionOpcode(I) == op && n-- == 0)
        return I;
  fail_msg("no such instruction");
  return NULL;
}

/* Lowering @k of ir must fail; returns the finding's message (owned by
 * *d) after checking it names the n-th instruction of opcode op. */
static const char *unsupported_with(const char *ir, LLVMOpcode op, int n,
                                    aucs_findings *d, int strict) {
  LLVMModuleRef m = support_parse(ir);
  LLVMValueRef k = support_fn(m, "k");
  aucs_prog *p = (aucs_prog *)1;
  aucs_lower_options o = {.strict = strict};
  assert_int_not_equal(aucs_interp_lower_with(k, &o, &p, d), 0);
  assert_null(p);
  assert_int_equal(d->n, 1);
  assert_int_equal(d->v[0].kind, AUCS_FINDING_UNSUPPORTED);
  assert_ptr_equal(d->v[0].a.instr, nth(k, op, n));
  support_free(m);
  return d->v[0].message;
}

static const char *unsupported(const char *ir, LLVMOpcode op, int n,
                               aucs_findings *d) {
  return unsupported_with(ir, op, n, d, 0);
}

static void test_lower_params_kinds_and_names(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(
      "%S = type { i32, float }\n"
      "define void @k(ptr addrspace(1) %in, i32 %n, float %f, i64, "
      "ptr byval(%S) %s, double %d) {\n"
      "  ret void\n"
      "}\n");
  aucs_prog *p;
  assert_int_equal(aucs_interp_lower(support_fn(m, "k"), &p, NULL), 0);
  assert_int_equal(aucs_prog_nparams(p), 6);
  const aucs_param *in = aucs_prog_param(p, 0), *n = aucs_prog_param(p, 1),
                   *f = aucs_prog_param(p, 2), *a3 = aucs_prog_param(p, 3),
                   *s = aucs_prog_param(p, 4), *d = aucs_prog_param(p, 5);
  assert_string_equal(in->name, "in");
  assert_int_equal(in->kind, AUCS_PARAM_POINTER);
  assert_string_equal(n->name, "n");
  assert_int_equal(n->kind, AUCS_PARAM_INT);
  assert_int_equal(n->bits, 32);
  assert_int_equal(f->kind, AUCS_PARAM_FLOAT);
  assert_int_equal(f->bits, 32);
  assert_string_equal(a3->name, "arg3");
  assert_int_equal(a3->bits, 64);
  assert_int_equal(s->kind, AUCS_PARAM_AGGREGATE);
  assert_int_equal(d->kind, AUCS_PARAM_FLOAT);
  assert_int_equal(d->bits, 64);
  aucs_prog_free(p);
  support_free(m);
}

static const char *barriers_ir =
    "define internal void @helper() {\n"
    "  call void @llvm.nvvm.barrier.cta.sync.all(i32 0)\n"
    "  %r = call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 "
    "true)\n"
    "  ret void\n"
    "}\n"
    "define void @k() {\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  call void @helper()\n"
    "  call void @helper()\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 1, i32 64)\n"
    "  ret void\n"
    "}\n"
    "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n"
    "declare void @llvm.nvvm.barrier.cta.sync.aligned.count(i32, i32)\n"
    "declare void @llvm.nvvm.barrier.cta.sync.all(i32)\n"
    "declare i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32, i1)\n";

static void test_lower_barriers_listed_once_in_order(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(barriers_ir);
  LLVMValueRef k = support_fn(m, "k"), h = support_fn(m, "helper");
  aucs_prog *p;
  assert_int_equal(aucs_interp_lower(k, &p, NULL), 0);
  /* the kernel's two, then the helper's two (lowered once) */
  assert_int_equal(aucs_prog_nbarriers(p), 4);
  assert_ptr_equal(aucs_prog_barrier(p, 0), nth(k, LLVMCall, 0));
  assert_ptr_equal(aucs_prog_barrier(p, 1), nth(k, LLVMCall, 3));
  assert_ptr_equal(aucs_prog_barrier(p, 2), nth(h, LLVMCall, 0));
  assert_ptr_equal(aucs_prog_barrier(p, 3), nth(h, LLVMCall, 1));
  aucs_prog_free(p);
  support_free(m);
}

static void test_lower_old_barrier_spellings(void **state) {
  (void)state;
  /* LLVM 22 upgrades these on parse; either spelling must be a barrier */
  LLVMModuleRef m =
      support_parse("define void @k() {\n"
                    "  call void @llvm.nvvm.barrier0()\n"
                    "  %c = call i32 @llvm.nvvm.barrier0.popc(i32 1)\n"
                    "  call void @llvm.nvvm.bar.sync(i32 0)\n"
                    "  ret void\n"
                    "}\n"
                    "declare void @llvm.nvvm.barrier0()\n"
                    "declare i32 @llvm.nvvm.barrier0.popc(i32)\n"
                    "declare void @llvm.nvvm.bar.sync(i32)\n");
  aucs_prog *p;
  assert_int_equal(aucs_interp_lower(support_fn(m, "k"), &p, NULL), 0);
  assert_int_equal(aucs_prog_nbarriers(p), 3);
  aucs_prog_free(p);
  support_free(m);
}

/* PTX outside intrinsics.def, texture.def and ptx.def (test_ptx.c has the
 * forms inside) stays unsupported, quoting its text. */
static void test_lower_unknown_inline_asm_is_unsupported(void **state) {
  (void)state;
  aucs_findings d = {0};
  const char *msg = unsupported("define void @k() {\n"
                                "  call void asm sideeffect \"pmevent 1;\", "
                                "\"\"()\n"
                                "  ret void\n"
                                "}\n",
                                LLVMCall, 0, &d);
  assert_non_null(strstr(msg, "inline assembly `pmevent 1;`"));
  assert_non_null(strstr(msg, "@k"));
  aucs_findings_free(&d);
}

static void test_lower_va_arg_is_unsupported(void **state) {
  (void)state;
  aucs_findings d = {0};
  const char *msg = unsupported("define void @k(ptr %ap) {\n"
                                "  %v = va_arg ptr %ap, i32\n"
                                "  ret void\n"
                                "}\n",
                                LLVMVAArg, 0, &d);
  assert_non_null(strstr(msg, "va_arg"));
  aucs_findings_free(&d);
}

static void test_lower_i128_is_unsupported(void **state) {
  (void)state;
  aucs_findings d = {0};
  const char *msg = unsupported("define void @k(i64 %x) {\n"
                                "  %w = zext i64 %x to i128\n"
                                "  ret void\n"
                                "}\n",
                                LLVMZExt, 0, &d);
  assert_non_null(strstr(msg, "wider than 64 bits"));
  aucs_findings_free(&d);
}

static void test_lower_vector_geps_are_unsupported(void **state) {
  (void)state;
  aucs_findings d = {0};
  const char *msg =
      unsupported("define void @k(ptr %p) {\n"
                  "  %q = getelementptr i32, ptr %p, <2 x i64> <i64 0, i64 1>\n"
                  "  ret void\n"
                  "}\n",
                  LLVMGetElementPtr, 0, &d);
  assert_non_null(strstr(msg, "vectors of pointers"));
  aucs_findings_free(&d);
}

/* A function the module only declares: strict lowering names it at the
 * call; the default lowers the call (an arbitrary result) and lists it. */
static void test_lower_external_call_names_callee(void **state) {
  (void)state;
  const char *ir = "declare i32 @mystery(i32)\n"
                   "define void @k(i32 %x) {\n"
                   "  %a = add i32 %x, 1\n"
                   "  %y = call i32 @mystery(i32 %a)\n"
                   "  ret void\n"
                   "}\n";
  aucs_findings d = {0};
  const char *msg = unsupported_with(ir, LLVMCall, 0, &d, 1);
  assert_non_null(strstr(msg, "'mystery'"));
  aucs_findings_free(&d);
  LLVMModuleRef m = support_parse(ir);
  aucs_prog *p = support_lower(support_fn(m, "k"));
  assert_int_equal(aucs_prog_nexternals(p), 1);
  assert_ptr_equal(aucs_prog_external(p, 0), nth(support_fn(m, "k"), LLVMCall, 0));
  aucs_prog_free(p);
  support_free(m);
}

static void test_lower_unsupported_in_callee_names_callee_instr(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse("define internal void @h() {\n"
                                  "  call void asm \"trap;\", \"\"()\n"
                                  "  ret void\n"
                                  "}\n"
                                  "define void @k() {\n"
                                  "  call void @h()\n"
                                  "  ret void\n"
                                  "}\n");
  aucs_findings d = {0};
  aucs_prog *p;
  assert_int_not_equal(aucs_interp_lower(support_fn(m, "k"), &p, &d), 0);
  assert_int_equal(d.n, 1);
  assert_ptr_equal(d.v[0].a.instr, nth(support_fn(m, "h"), LLVMCall, 0));
  aucs_findings_free(&d);
  support_free(m);
}

/* Constant-expression GEPs into an initialised global fold at lowering. */
static const char *globals_ir =
    "@g = internal addrspace(1) global { i32, [3 x i16] } "
    "{ i32 5, [3 x i16] [i16 1, i16 2, i16 3] }\n"
    "@z = internal addrspace(1) global [4 x i64] zeroinitializer\n"
    "define void @k(ptr %out) {\n"
    "  %a = load i32, ptr addrspace(1) @g\n"
    "  %b = load i16, ptr addrspace(1) getelementptr inbounds "
    "({ i32, [3 x i16] }, ptr addrspace(1) @g, i64 0, i32 1, i64 2)\n"
    "  %c = load i64, ptr addrspace(1) getelementptr inbounds "
    "([4 x i64], ptr addrspace(1) @z, i64 0, i64 3)\n"
    "  %b1 = zext i16 %b to i32\n"
    "  %c1 = trunc i64 %c to i32\n"
    "  %s = add i32 %a, %b1\n"
    "  %t = add i32 %s, %c1\n"
    "  store i32 %t, ptr %out\n"
    "  ret void\n"
    "}\n";

static void test_lower_global_initializers_and_constant_geps(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(globals_ir);
  aucs_prog *p;
  assert_int_equal(aucs_interp_lower(support_fn(m, "k"), &p, NULL), 0);
  aucs_run_config c = {.launch = {{1, 1, 1}, {1, 1, 1}}, .keep_memory = 1};
  aucs_run_result r;
  assert_int_equal(aucs_interp_run(p, &c, &r), AUCS_RUN_OK);
  uint32_t v;
  assert_int_equal(aucs_run_read(&r, 0, 0, &v, 4), 0);
  assert_int_equal(v, 5 + 3 + 0);
  aucs_run_result_free(&r);
  aucs_prog_free(p);
  support_free(m);
}

static void test_lower_aggregates_in_registers(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(
      "define void @k(ptr %out, i32 %x) {\n"
      "  %r = call { i32, i1 } @llvm.uadd.with.overflow.i32(i32 %x, i32 %x)\n"
      "  %v = extractvalue { i32, i1 } %r, 0\n"
      "  %o = extractvalue { i32, i1 } %r, 1\n"
      "  %a = insertvalue [2 x i32] poison, i32 %v, 1\n"
      "  %w = extractvalue [2 x i32] %a, 1\n"
      "  %o1 = zext i1 %o to i32\n"
      "  store i32 %w, ptr %out\n"
      "  %p = getelementptr i32, ptr %out, i64 1\n"
      "  store i32 %o1, ptr %p\n"
      "  ret void\n"
      "}\n"
      "declare { i32, i1 } @llvm.uadd.with.overflow.i32(i32, i32)\n");
  aucs_prog *p;
  assert_int_equal(aucs_interp_lower(support_fn(m, "k"), &p, NULL), 0);
  uint64_t args[] = {0, 0x80000001u};
  aucs_run_config c = {
      .launch = {{1, 1, 1}, {1, 1, 1}}, .keep_memory = 1, .args = args};
  aucs_run_result r;
  assert_int_equal(aucs_interp_run(p, &c, &r), AUCS_RUN_OK);
  uint32_t v[2];
  aucs_run_read(&r, 0, 0, v, 8);
  assert_int_equal(v[0], 2); /* 0x100000002 wraps */
  assert_int_equal(v[1], 1);
  aucs_run_result_free(&r);
  aucs_prog_free(p);
  support_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_lower_params_kinds_and_names),
      cmocka_unit_test(test_lower_barriers_listed_once_in_order),
      cmocka_unit_test(test_lower_old_barrier_spellings),
      cmocka_unit_test(test_lower_unknown_inline_asm_is_unsupported),
      cmocka_unit_test(test_lower_va_arg_is_unsupported),
      cmocka_unit_test(test_lower_i128_is_unsupported),
      cmocka_unit_test(test_lower_vector_geps_are_unsupported),
      cmocka_unit_test(test_lower_external_call_names_callee),
      cmocka_unit_test(test_lower_unsupported_in_callee_names_callee_instr),
      cmocka_unit_test(test_lower_global_initializers_and_constant_geps),
      cmocka_unit_test(test_lower_aggregates_in_registers),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
