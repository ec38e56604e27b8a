/*
 * test_precond: the kernel's preconditions solved for inputs on small
 * inline kernels: equalities random values never meet, launch dimensions,
 * thread-dependent assumptions (the grid's last thread), unreachable and
 * trap guards, early exits (wants), fields of struct parameters, fixed
 * inputs, diverse inputs, the constants of the conditions, and the culprit
 * of an unsatisfiable set.
 */
#include "support.h"

#include "aucs/precond.h"
#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

#define DECLS                                                                  \
  "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"                             \
  "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"                            \
  "declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()\n"                          \
  "declare void @llvm.assume(i1)\n"                                            \
  "declare void @llvm.trap()\n"

/* Leaves: two i32 scalar parameters (1 and 2; parameter 0 is a pointer). */
static const aucs_precond_leaf two_ints[2] = {{.param = 1, .bits = 32},
                                              {.param = 2, .bits = 32}};

typedef struct fx {
  LLVMModuleRef m;
  aucs_precond_result r;
} fx;

static fx *solve_q(const char *body, const aucs_precond_query *q) {
  fx *f = aucs_xcalloc(1, sizeof *f);
  char *ir = aucs_xasprintf("define ptx_kernel void @k(ptr %%out, i32 %%n, "
                            "i32 %%m) {\n%s}\n" DECLS,
                            body);
  f->m = support_parse(ir);
  free(ir);
  aucs_precond_solve(support_fn(f->m, "k"), q, &f->r);
  return f;
}

static fx *solve(const char *body, unsigned want) {
  aucs_precond_query q = {.leaves = two_ints, .nleaves = 2, .want = want};
  return solve_q(body, &q);
}

static void fx_free(fx *f) {
  aucs_precond_result_free(&f->r);
  support_free(f->m);
  free(f);
}

static int has_constant(const aucs_precond_result *r, uint64_t c) {
  for (size_t i = 0; i < r->nconstants; i++)
    if (r->constants[i] == c)
      return 1;
  return 0;
}

/* n == 320 && m == 640: the one input, both chosen, in the dictionary. */
static void test_precond_equalities(void **state) {
  (void)state;
  fx *f = solve("entry:\n"
                "  %a = icmp eq i32 %n, 320\n"
                "  call void @llvm.assume(i1 %a)\n"
                "  %b = icmp eq i32 %m, 640\n"
                "  call void @llvm.assume(i1 %b)\n"
                "  store i32 %n, ptr %out\n"
                "  ret void\n",
                4);
  assert_int_equal(f->r.verdict, AUCS_PRECOND_SAT);
  assert_int_equal(f->r.conditions, 2);
  assert_int_equal(f->r.n, 1); /* nothing else satisfies them */
  assert_int_equal(f->r.vals[0][0], 320);
  assert_int_equal(f->r.vals[0][1], 640);
  assert_true(f->r.leaf[0] && f->r.leaf[1]);
  assert_false(f->r.block[0] || f->r.grid[0]);
  assert_true(has_constant(&f->r, 320) && has_constant(&f->r, 640));
  fx_free(f);
}

/* n % 64 == 0: several inputs, each different, each a solution, within
 * the search's own ranges (tier 0). */
static void test_precond_diverse_inputs(void **state) {
  (void)state;
  fx *f = solve("entry:\n"
                "  %r = urem i32 %n, 64\n"
                "  %a = icmp eq i32 %r, 0\n"
                "  call void @llvm.assume(i1 %a)\n"
                "  ret void\n",
                4);
  assert_int_equal(f->r.verdict, AUCS_PRECOND_SAT);
  assert_int_equal(f->r.n, 4);
  for (size_t i = 0; i < f->r.n; i++) {
    assert_int_equal(f->r.vals[i][0] % 64, 0);
    assert_true(f->r.vals[i][0] >= 1 && f->r.vals[i][0] <= 4096);
    for (size_t j = 0; j < i; j++)
      assert_true(f->r.vals[i][0] != f->r.vals[j][0]);
  }
  assert_true(f->r.leaf[0]);
  assert_false(f->r.leaf[1]); /* m is free: the search's to choose */
  assert_true(has_constant(&f->r, 64));
  fx_free(f);
}

/* blockDim.x == 96, and a thread-dependent one: tid.x < 48 holds for every
 * thread only when the block has at most 48. */
static void test_precond_launch_dimensions(void **state) {
  (void)state;
  fx *f = solve("entry:\n"
                "  %b = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
                "  %a = icmp eq i32 %b, 96\n"
                "  call void @llvm.assume(i1 %a)\n"
                "  ret void\n",
                2);
  assert_int_equal(f->r.verdict, AUCS_PRECOND_SAT);
  assert_int_equal(f->r.launch[0].block.x, 96);
  assert_true(f->r.block[0]);
  assert_false(f->r.leaf[0]);
  fx_free(f);
  f = solve("entry:\n"
            "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
            "  %a = icmp ult i32 %t, 48\n"
            "  call void @llvm.assume(i1 %a)\n"
            "  ret void\n",
            4);
  assert_int_equal(f->r.verdict, AUCS_PRECOND_SAT);
  assert_true(f->r.block[0]);
  for (size_t i = 0; i < f->r.n; i++)
    assert_true(f->r.launch[i].block.x <= 48);
  fx_free(f);
}

/* A guard of `unreachable` and one of llvm.trap are never entered. */
static void test_precond_unreachable_and_trap(void **state) {
  (void)state;
  static const char *const bad[] = {"  unreachable\n",
                                    "  call void @llvm.trap()\n"
                                    "  unreachable\n"};
  for (int i = 0; i < 2; i++) {
    char *body = aucs_xasprintf("entry:\n"
                                "  %%r = urem i32 %%n, 96\n"
                                "  %%ok = icmp eq i32 %%r, 0\n"
                                "  br i1 %%ok, label %%body, label %%bad\n"
                                "bad:\n%s"
                                "body:\n"
                                "  store i32 %%n, ptr %%out\n"
                                "  ret void\n",
                                bad[i]);
    fx *f = solve(body, 3);
    assert_int_equal(f->r.verdict, AUCS_PRECOND_SAT);
    assert_true(f->r.n >= 1);
    for (size_t k = 0; k < f->r.n; k++)
      assert_int_equal(f->r.vals[k][0] % 96, 0);
    assert_true(has_constant(&f->r, 96));
    fx_free(f);
    free(body);
  }
}

/* An early exit the first thread should not take (a want): n == 1000
 * makes the kernel do its work; a must that contradicts it drops it. */
static void test_precond_early_exit(void **state) {
  (void)state;
  static const char *exit_ir = "  %x = icmp ne i32 %n, 1000\n"
                               "  br i1 %x, label %done, label %work\n"
                               "work:\n"
                               "  store i32 %m, ptr %out\n"
                               "  br label %done\n"
                               "done:\n"
                               "  ret void\n";
  char *body = aucs_xasprintf("entry:\n%s", exit_ir);
  fx *f = solve(body, 1);
  assert_int_equal(f->r.verdict, AUCS_PRECOND_SAT);
  assert_int_equal(f->r.vals[0][0], 1000);
  assert_true(f->r.leaf[0]);
  fx_free(f);
  free(body);
  body = aucs_xasprintf("entry:\n"
                        "  %%a = icmp ult i32 %%n, 500\n"
                        "  call void @llvm.assume(i1 %%a)\n%s",
                        exit_ir);
  f = solve(body, 1);
  assert_int_equal(f->r.verdict, AUCS_PRECOND_SAT);
  assert_true(f->r.vals[0][0] < 500);
  fx_free(f);
  free(body);
}

/* n > 100, then n < 50: UNSAT, and the second is the one named. */
static void test_precond_unsat_names_the_culprit(void **state) {
  (void)state;
  fx *f = solve("entry:\n"
                "  %a = icmp sgt i32 %n, 100\n"
                "  call void @llvm.assume(i1 %a)\n"
                "  %b = icmp slt i32 %n, 50\n"
                "  call void @llvm.assume(i1 %b)\n"
                "  ret void\n",
                4);
  assert_int_equal(f->r.verdict, AUCS_PRECOND_UNSAT);
  assert_int_equal(f->r.n, 0);
  assert_non_null(f->r.culprit);
  LLVMValueRef second = LLVMGetNextInstruction(
      LLVMGetNextInstruction(LLVMGetNextInstruction(LLVMGetFirstInstruction(
          LLVMGetEntryBasicBlock(support_fn(f->m, "k"))))));
  assert_ptr_equal(f->r.culprit, second);
  assert_int_equal(f->r.before, 1);
  char *d = aucs_precond_describe(f->r.culprit);
  assert_non_null(strstr(d, "icmp slt i32 %n, 50"));
  free(d);
  fx_free(f);
}

/* n == gridDim.x * blockDim.x && n % 512 == 0: SAT for a free launch, UNSAT
 * for 2 blocks of 128 threads, and for a fixed n that is not a multiple. */
static void test_precond_fixed_inputs(void **state) {
  (void)state;
  static const char *body =
      "entry:\n"
      "  %g = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()\n"
      "  %b = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
      "  %t = mul i32 %g, %b\n"
      "  %a = icmp eq i32 %n, %t\n"
      "  call void @llvm.assume(i1 %a)\n"
      "  %r = urem i32 %n, 512\n"
      "  %c = icmp eq i32 %r, 0\n"
      "  call void @llvm.assume(i1 %c)\n"
      "  ret void\n";
  fx *f = solve(body, 2);
  assert_int_equal(f->r.verdict, AUCS_PRECOND_SAT);
  for (size_t i = 0; i < f->r.n; i++) {
    aucs_launch l = f->r.launch[i];
    assert_int_equal(f->r.vals[i][0], (uint64_t)l.grid.x * l.block.x);
    assert_int_equal(f->r.vals[i][0] % 512, 0);
  }
  assert_true(f->r.grid[0] && f->r.block[0] && f->r.leaf[0]);
  fx_free(f);
  aucs_precond_query q = {.fixed_grid = 1,
                          .fixed_block = 1,
                          .launch = {{2, 1, 1}, {128, 1, 1}},
                          .leaves = two_ints,
                          .nleaves = 2};
  f = solve_q(body, &q);
  assert_int_equal(f->r.verdict, AUCS_PRECOND_UNSAT);
  assert_int_equal(f->r.before, 1);
  assert_false(f->r.block[0] || f->r.grid[0]); /* given, not chosen */
  fx_free(f);
  aucs_precond_leaf fixed[2] = {
      {.param = 1, .bits = 32, .fixed = 1, .value = 640},
      {.param = 2, .bits = 32}};
  q = (aucs_precond_query){.leaves = fixed, .nleaves = 2};
  f = solve_q(body, &q);
  assert_int_equal(f->r.verdict, AUCS_PRECOND_UNSAT);
  assert_false(f->r.leaf[0]);
  fx_free(f);
}

/* A field of a struct passed by value: pitch == cols + 8. */
static void test_precond_struct_fields(void **state) {
  (void)state;
  LLVMModuleRef m =
      support_parse("%rows = type { ptr, i32, i32 }\n"
                    "define ptx_kernel void @k(ptr byval(%rows) align 8 %r) {\n"
                    "entry:\n"
                    "  %cp = getelementptr inbounds i8, ptr %r, i64 8\n"
                    "  %cols = load i32, ptr %cp\n"
                    "  %pp = getelementptr inbounds i8, ptr %r, i64 12\n"
                    "  %pitch = load i32, ptr %pp\n"
                    "  %c8 = add i32 %cols, 8\n"
                    "  %a = icmp eq i32 %pitch, %c8\n"
                    "  call void @llvm.assume(i1 %a)\n"
                    "  ret void\n"
                    "}\n"
                    "declare void @llvm.assume(i1)\n");
  aucs_precond_leaf fields[2] = {
      {.param = 0, .field = 1, .offset = 8, .bits = 32},
      {.param = 0, .field = 1, .offset = 12, .bits = 32}};
  aucs_precond_query q = {.leaves = fields, .nleaves = 2, .want = 3};
  aucs_precond_result r;
  aucs_precond_solve(support_fn(m, "k"), &q, &r);
  assert_int_equal(r.verdict, AUCS_PRECOND_SAT);
  assert_true(r.leaf[0] && r.leaf[1]);
  assert_true(r.n >= 2);
  for (size_t i = 0; i < r.n; i++)
    assert_int_equal(r.vals[i][1], r.vals[i][0] + 8);
  aucs_precond_result_free(&r);
  support_free(m);
}

/* No condition: nothing asked. */
static void test_precond_no_condition(void **state) {
  (void)state;
  fx *f = solve("entry:\n"
                "  store i32 %n, ptr %out\n"
                "  ret void\n",
                4);
  assert_int_equal(f->r.verdict, AUCS_PRECOND_NONE);
  assert_int_equal(f->r.queries, 0);
  assert_int_equal(f->r.n, 0);
  fx_free(f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_precond_equalities),
      cmocka_unit_test(test_precond_diverse_inputs),
      cmocka_unit_test(test_precond_launch_dimensions),
      cmocka_unit_test(test_precond_unreachable_and_trap),
      cmocka_unit_test(test_precond_early_exit),
      cmocka_unit_test(test_precond_unsat_names_the_culprit),
      cmocka_unit_test(test_precond_fixed_inputs),
      cmocka_unit_test(test_precond_struct_fields),
      cmocka_unit_test(test_precond_no_condition),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
