/*
 * test_uniformize: loop uniformization. Each shape is uniformized in a clone
 * of its module; the result must verify, the new header must be uniform on
 * the rebuilt facts, and the original and uniformized kernels must leave
 * identical memory (and run status) for every thread in the interpreter on
 * many launches and argument values from a seeded loop. Loops that cannot
 * be uniformized safely are rejected with their reason.
 */
#include "support.h"

#include "aucs/cfg.h"
#include "aucs/flatten.h"
#include "aucs/interp.h"
#include "aucs/uniform.h"
#include "aucs/uniformize.h"
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <stdlib.h>
#include <string.h>

enum { RUNS = 64, BYTES = 2048 };

static int equivalence_runs; /* reported at the end */

static const char *decls =
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n";

static LLVMModuleRef parse(const char *body) {
  char *ir = aucs_xasprintf("%s%s", decls, body);
  LLVMModuleRef m = support_parse(ir);
  free(ir);
  return m;
}

/* ---- equivalence in the interpreter ---- */

static size_t races(const aucs_run_result *r) {
  size_t n = 0;
  for (size_t i = 0; i < r->findings.n; i++)
    n += r->findings.v[i].kind == AUCS_FINDING_RACE ||
         r->findings.v[i].kind == AUCS_FINDING_BARRIER_DIVERGENCE;
  return n;
}

/* Run original and uniformized on RUNS launches; returns how many ran. */
static int equivalent(LLVMValueRef orig, LLVMValueRef uni) {
  aucs_prog *p = support_lower(orig), *q = support_lower(uni);
  assert_int_equal(aucs_prog_nparams(p), aucs_prog_nparams(q));
  uint64_t s = 0x9e3779b97f4a7c15ull, args[8] = {0};
  int ran = 0;
  for (int run = 0; run < RUNS; run++) {
    aucs_run_config c = {0};
    c.launch.grid = (aucs_dim3){1 + (unsigned)(support_rng(&s) % 2), 1, 1};
    c.launch.block = (aucs_dim3){1 + (unsigned)(support_rng(&s) % 64), 1, 1};
    for (size_t i = 0; i < aucs_prog_nparams(p) && i < 8; i++)
      args[i] = (uint64_t)((int64_t)(support_rng(&s) % 12) - 2);
    c.args = args;
    c.seed = (uint64_t)run + 1;
    c.fill = run % 2 ? AUCS_FILL_SMALL : AUCS_FILL_RANDOM;
    c.keep_memory = 1;
    aucs_run_result a = {0}, b = {0};
    if (support_run_both(p, q, &c, &a, &b, BYTES, (uint64_t)run) ==
        AUCS_RUN_OK) {
      assert_int_equal(races(&a), 0);
      assert_int_equal(races(&b), 0);
      ran++;
    }
    aucs_run_result_free(&a);
    aucs_run_result_free(&b);
  }
  aucs_prog_free(p);
  aucs_prog_free(q);
  equivalence_runs += ran;
  return ran;
}

/* The block holding the or-barrier, and every block that was the loop's
 * preheader, are uniform. */
static void head_uniform(LLVMValueRef fn, LLVMBasicBlockRef head) {
  aucs_cfg *cfg = aucs_cfg_build(fn);
  aucs_uniformity *u = aucs_uniform_compute(cfg);
  int h = aucs_cfg_index(cfg, head);
  if (!aucs_uniform_block(u, h))
    print_error("uniformized header %s is not uniform\n",
                LLVMGetBasicBlockName(head));
  assert_true(aucs_uniform_block(u, h));
  aucs_uniform_free(u);
  aucs_cfg_free(cfg);
}

/* Uniformize the loop at `header` of @k in a clone (after flattening
 * (u1, u2) when given, then absorbing the guard) and compare. */
static void check_flat(const char *body, const char *header, const char *u1,
                       const char *u2) {
  LLVMModuleRef m = parse(body), clone = LLVMCloneModule(m);
  LLVMValueRef orig = support_fn(m, "k"), fn = support_fn(clone, "k");
  char *err = NULL;
  if (u1) {
    aucs_flatten_status st = aucs_flatten_region(
        fn, support_block_index(fn, u1), support_block_index(fn, u2), NULL, &err);
    if (st)
      print_error("flatten: %s\n", err);
    assert_int_equal(st, AUCS_FLATTEN_OK);
  }
  aucs_uniformize_result r = {0};
  int rc = aucs_uniformize_loop(fn, support_block_index(fn, header), u1 != NULL, &r,
                                &err);
  if (rc)
    print_error("uniformize: %s\n", err);
  assert_int_equal(rc, 0);
  assert_false(LLVMVerifyFunction(fn, LLVMReturnStatusAction));
  head_uniform(fn, r.head);
  assert_true(equivalent(orig, fn) > RUNS / 2);
  LLVMDisposeModule(clone);
  support_free(m);
}

static void check(const char *body, const char *header) {
  check_flat(body, header, NULL, NULL);
}

/* ---- shapes ---- */

/* for (i = 0; i < t % 5 + 1; i++) { acc += i * t; out[8t + i] = acc; }
 * res[t] = acc; res[64 + t] = i. */
static const char *for_bound =
    "define ptx_kernel void @k(ptr %out, ptr %res, i32 %n) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %r = urem i32 %t, 5\n"
    "  %bound = add i32 %r, 1\n"
    "  br label %head\n"
    "head:\n"
    "  %i = phi i32 [ 0, %entry ], [ %i1, %body ]\n"
    "  %acc = phi i32 [ %n, %entry ], [ %acc1, %body ]\n"
    "  %c = icmp slt i32 %i, %bound\n"
    "  br i1 %c, label %body, label %done\n"
    "body:\n"
    "  %m = mul i32 %i, %t\n"
    "  %acc1 = add i32 %acc, %m\n"
    "  %base = mul i32 %t, 8\n"
    "  %j = add i32 %base, %i\n"
    "  %p = getelementptr i32, ptr %out, i32 %j\n"
    "  store i32 %acc1, ptr %p\n"
    "  %i1 = add i32 %i, 1\n"
    "  br label %head\n"
    "done:\n"
    "  %q = getelementptr i32, ptr %res, i32 %t\n"
    "  store i32 %acc, ptr %q\n"
    "  %t64 = add i32 %t, 64\n"
    "  %q2 = getelementptr i32, ptr %res, i32 %t64\n"
    "  store i32 %i, ptr %q2\n"
    "  ret void\n"
    "}\n";

static void test_uniformize_thread_bound(void **state) {
  (void)state;
  check(for_bound, "head");
}

/* while (in[t + i] % 4 != 0 && i < 12) { out[8t + i % 8] = v; i++; } */
static const char *while_data =
    "define ptx_kernel void @k(ptr %in, ptr %out, ptr %res) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %base = mul i32 %t, 8\n"
    "  br label %head\n"
    "head:\n"
    "  %i = phi i32 [ 0, %entry ], [ %i1, %body ]\n"
    "  %a = add i32 %t, %i\n"
    "  %p = getelementptr i32, ptr %in, i32 %a\n"
    "  %v = load i32, ptr %p\n"
    "  %m = and i32 %v, 3\n"
    "  %nz = icmp ne i32 %m, 0\n"
    "  %lim = icmp slt i32 %i, 12\n"
    "  %c = and i1 %nz, %lim\n"
    "  br i1 %c, label %body, label %done\n"
    "body:\n"
    "  %w = and i32 %i, 7\n"
    "  %j = add i32 %base, %w\n"
    "  %o = getelementptr i32, ptr %out, i32 %j\n"
    "  store i32 %v, ptr %o\n"
    "  %i1 = add i32 %i, 1\n"
    "  br label %head\n"
    "done:\n"
    "  %q = getelementptr i32, ptr %res, i32 %t\n"
    "  store i32 %i, ptr %q\n"
    "  %t64 = add i32 %t, 64\n"
    "  %q2 = getelementptr i32, ptr %res, i32 %t64\n"
    "  store i32 %v, ptr %q2\n"
    "  ret void\n"
    "}\n";

static void test_uniformize_data_while(void **state) {
  (void)state;
  check(while_data, "head");
}

/* for (i = 0; i < n; i++) { v = in[t + i]; if (v % 7 == 0) { out[t] = 77;
 * break; } s += v; if (i + 1 >= 10) break; } res[t] = s: three exits, two
 * targets, a phi at the join with values from inside the loop. */
static const char *early_break =
    "define ptx_kernel void @k(ptr %in, ptr %out, ptr %res, i32 %n) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  br label %head\n"
    "head:\n"
    "  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]\n"
    "  %s = phi i32 [ 0, %entry ], [ %s1, %latch ]\n"
    "  %c = icmp slt i32 %i, %n\n"
    "  br i1 %c, label %body, label %done\n"
    "body:\n"
    "  %a = add i32 %t, %i\n"
    "  %p = getelementptr i32, ptr %in, i32 %a\n"
    "  %v = load i32, ptr %p\n"
    "  %k7 = urem i32 %v, 7\n"
    "  %z = icmp eq i32 %k7, 0\n"
    "  br i1 %z, label %brk, label %latch\n"
    "latch:\n"
    "  %s1 = add i32 %s, %v\n"
    "  %i1 = add i32 %i, 1\n"
    "  %e = icmp ult i32 %i1, 10\n"
    "  br i1 %e, label %head, label %done\n"
    "brk:\n"
    "  %o = getelementptr i32, ptr %out, i32 %t\n"
    "  store i32 %v, ptr %o\n"
    "  br label %done\n"
    "done:\n"
    "  %r = phi i32 [ %s, %head ], [ %s1, %latch ], [ %i, %brk ]\n"
    "  %q = getelementptr i32, ptr %res, i32 %t\n"
    "  store i32 %r, ptr %q\n"
    "  ret void\n"
    "}\n";

static void test_uniformize_early_break(void **state) {
  (void)state;
  check(early_break, "head");
}

/* for (i = 0; i < 9; i++) { v = in[t + i]; if (v % 5 == 0) { res[t] = i;
 * return; } out[8t + i % 8] = v; } res[t] = -1: an early return. */
static const char *early_return =
    "define ptx_kernel void @k(ptr %in, ptr %out, ptr %res) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %base = mul i32 %t, 8\n"
    "  br label %head\n"
    "head:\n"
    "  %i = phi i32 [ 0, %entry ], [ %i1, %body ]\n"
    "  %c = icmp slt i32 %i, 9\n"
    "  br i1 %c, label %test, label %done\n"
    "test:\n"
    "  %a = add i32 %t, %i\n"
    "  %p = getelementptr i32, ptr %in, i32 %a\n"
    "  %v = load i32, ptr %p\n"
    "  %k5 = urem i32 %v, 5\n"
    "  %z = icmp eq i32 %k5, 0\n"
    "  br i1 %z, label %early, label %body\n"
    "body:\n"
    "  %w = and i32 %i, 7\n"
    "  %j = add i32 %base, %w\n"
    "  %o = getelementptr i32, ptr %out, i32 %j\n"
    "  store i32 %v, ptr %o\n"
    "  %i1 = add i32 %i, 1\n"
    "  br label %head\n"
    "early:\n"
    "  %q = getelementptr i32, ptr %res, i32 %t\n"
    "  store i32 %i, ptr %q\n"
    "  ret void\n"
    "done:\n"
    "  %q2 = getelementptr i32, ptr %res, i32 %t\n"
    "  store i32 -1, ptr %q2\n"
    "  ret void\n"
    "}\n";

static void test_uniformize_early_return(void **state) {
  (void)state;
  check(early_return, "head");
}

/* for (j = 0; j < 3; j++) { for (i = 0; i <= t % 4; i++) s += i;
 * out[8t + j] = s; } res[t] = s: only the inner loop is divergent. */
static const char *nested =
    "define ptx_kernel void @k(ptr %out, ptr %res) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %b = urem i32 %t, 4\n"
    "  %base = mul i32 %t, 8\n"
    "  br label %outer\n"
    "outer:\n"
    "  %j = phi i32 [ 0, %entry ], [ %j1, %olatch ]\n"
    "  %s = phi i32 [ 0, %entry ], [ %s2, %olatch ]\n"
    "  br label %inner\n"
    "inner:\n"
    "  %i = phi i32 [ 0, %outer ], [ %i1, %inner ]\n"
    "  %si = phi i32 [ %s, %outer ], [ %sn, %inner ]\n"
    "  %sn = add i32 %si, %i\n"
    "  %i1 = add i32 %i, 1\n"
    "  %ci = icmp ule i32 %i1, %b\n"
    "  br i1 %ci, label %inner, label %olatch\n"
    "olatch:\n"
    "  %s2 = phi i32 [ %sn, %inner ]\n"
    "  %jj = add i32 %base, %j\n"
    "  %o = getelementptr i32, ptr %out, i32 %jj\n"
    "  store i32 %s2, ptr %o\n"
    "  %j1 = add i32 %j, 1\n"
    "  %cj = icmp ult i32 %j1, 3\n"
    "  br i1 %cj, label %outer, label %done\n"
    "done:\n"
    "  %q = getelementptr i32, ptr %res, i32 %t\n"
    "  store i32 %s2, ptr %q\n"
    "  ret void\n"
    "}\n";

static void test_uniformize_nested_inner(void **state) {
  (void)state;
  check(nested, "inner");
}

/* if (t < n) for (s = 4; s > 0; s >>= 1) out[8t + s] += s: a uniform loop
 * in a divergent if (the final warp of a reduction): the if is flattened
 * with the loop as one node, and the guard into the loop is absorbed. */
static const char *in_if =
    "define ptx_kernel void @k(ptr %out, ptr %res, i32 %n) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %base = mul i32 %t, 8\n"
    "  %c = icmp slt i32 %t, %n\n"
    "  br i1 %c, label %head, label %join\n"
    "head:\n"
    "  %s = phi i32 [ 4, %entry ], [ %s1, %head ]\n"
    "  %j = add i32 %base, %s\n"
    "  %p = getelementptr i32, ptr %out, i32 %j\n"
    "  %v = load i32, ptr %p\n"
    "  %v1 = add i32 %v, %s\n"
    "  store i32 %v1, ptr %p\n"
    "  %s1 = lshr i32 %s, 1\n"
    "  %more = icmp ne i32 %s1, 0\n"
    "  br i1 %more, label %head, label %join\n"
    "join:\n"
    "  %r = phi i32 [ 0, %entry ], [ %s1, %head ]\n"
    "  %q = getelementptr i32, ptr %res, i32 %t\n"
    "  store i32 %r, ptr %q\n"
    "  ret void\n"
    "}\n";

static void test_uniformize_loop_in_divergent_if(void **state) {
  (void)state;
  check_flat(in_if, "head", "entry", "join");
}

/* ---- loops that cannot be uniformized safely ---- */

static void expect_error(const char *body, const char *header,
                         const char *needle) {
  LLVMModuleRef m = parse(body);
  LLVMValueRef fn = support_fn(m, "k");
  char *before = LLVMPrintValueToString(fn), *err = NULL;
  assert_int_not_equal(
      aucs_uniformize_loop(fn, support_block_index(fn, header), 0, NULL, &err), 0);
  assert_non_null(err);
  if (!strstr(err, needle))
    print_error("error '%s' does not say '%s'\n", err, needle);
  assert_non_null(strstr(err, needle));
  char *after = LLVMPrintValueToString(fn);
  assert_string_equal(before, after); /* unchanged */
  LLVMDisposeMessage(before);
  LLVMDisposeMessage(after);
  free(err);
  support_free(m);
}

/* Limitation: a call to a helper that executes a barrier cannot be guarded
 * under `active` without making that barrier divergent. */
static void test_uniformize_rejects_barrier_helper(void **state) {
  (void)state;
  expect_error("define void @h() {\n"
               "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
               "  ret void\n"
               "}\n"
               "define ptx_kernel void @k(i32 %n) {\n"
               "entry:\n"
               "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
               "  br label %head\n"
               "head:\n"
               "  %i = phi i32 [ 0, %entry ], [ %i1, %head ]\n"
               "  call void @h()\n"
               "  %i1 = add i32 %i, 1\n"
               "  %c = icmp ult i32 %i1, %t\n"
               "  br i1 %c, label %head, label %done\n"
               "done:\n"
               "  ret void\n"
               "}\n",
               "head", "executes a barrier");
}

/* Limitation: a reduction barrier in the loop would see only the active
 * threads' predicates. */
static void test_uniformize_rejects_reduction_barrier(void **state) {
  (void)state;
  expect_error("declare i1 @llvm.nvvm.barrier.cta.red.or.aligned.all(i32, "
               "i1)\n"
               "define ptx_kernel void @k(i32 %n) {\n"
               "entry:\n"
               "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
               "  br label %head\n"
               "head:\n"
               "  %i = phi i32 [ 0, %entry ], [ %i1, %head ]\n"
               "  %x = icmp eq i32 %i, %n\n"
               "  %any = call i1 @llvm.nvvm.barrier.cta.red.or.aligned.all("
               "i32 0, i1 %x)\n"
               "  %i1 = add i32 %i, 1\n"
               "  %c = icmp ult i32 %i1, %t\n"
               "  br i1 %c, label %head, label %done\n"
               "done:\n"
               "  ret void\n"
               "}\n",
               "head", "__syncthreads_or");
}

/* Limitation: irreducible control flow (a cycle entered at two blocks)
 * touching the loop is rejected. */
static void test_uniformize_rejects_irreducible(void **state) {
  (void)state;
  expect_error("define ptx_kernel void @k(i32 %n) {\n"
               "entry:\n"
               "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
               "  %c0 = icmp ult i32 %t, %n\n"
               "  br label %head\n"
               "head:\n"
               "  br i1 %c0, label %a, label %b\n"
               "a:\n"
               "  %ca = icmp eq i32 %t, 3\n"
               "  br i1 %ca, label %b, label %latch\n"
               "b:\n"
               "  %cb = icmp eq i32 %t, 5\n"
               "  br i1 %cb, label %a, label %latch\n"
               "latch:\n"
               "  %cl = icmp ult i32 %t, 7\n"
               "  br i1 %cl, label %head, label %done\n"
               "done:\n"
               "  ret void\n"
               "}\n",
               "head", "irreducible");
}

static void test_uniformize_rejects_non_header(void **state) {
  (void)state;
  expect_error(for_bound, "done", "no loop header");
}

/* The or-barrier is spelt as the module spells it: a declaration the
 * module has is reused (LLVM 22 reads barrier0.or as the cta.red.or form). */
static void test_uniformize_old_spelling(void **state) {
  (void)state;
  char *ir = aucs_xasprintf("declare i32 @llvm.nvvm.barrier0.or(i32)\n"
                            "define i32 @u(i32 %%x) {\n"
                            "  %%r = call i32 @llvm.nvvm.barrier0.or(i32 %%x)\n"
                            "  ret i32 %%r\n"
                            "}\n%s",
                            for_bound);
  LLVMModuleRef m = parse(ir);
  free(ir);
  LLVMValueRef fn = support_fn(m, "k");
  LLVMValueRef decl =
      LLVMGetNamedFunction(m, "llvm.nvvm.barrier.cta.red.or.aligned.all");
  if (!decl)
    decl = LLVMGetNamedFunction(m, "llvm.nvvm.barrier0.or");
  assert_non_null(decl);
  aucs_uniformize_result r;
  char *err = NULL;
  assert_int_equal(
      aucs_uniformize_loop(fn, support_block_index(fn, "head"), 0, &r, &err), 0);
  assert_ptr_equal(LLVMGetCalledValue(r.any), decl);
  assert_false(LLVMVerifyFunction(fn, LLVMReturnStatusAction));
  support_free(m);
}

static void test_uniformize_runs_counted(void **state) {
  (void)state;
  print_message("equivalence runs: %d\n", equivalence_runs);
  assert_true(equivalence_runs >= 6 * RUNS / 2);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_uniformize_thread_bound),
      cmocka_unit_test(test_uniformize_data_while),
      cmocka_unit_test(test_uniformize_early_break),
      cmocka_unit_test(test_uniformize_early_return),
      cmocka_unit_test(test_uniformize_nested_inner),
      cmocka_unit_test(test_uniformize_loop_in_divergent_if),
      cmocka_unit_test(test_uniformize_rejects_barrier_helper),
      cmocka_unit_test(test_uniformize_rejects_reduction_barrier),
      cmocka_unit_test(test_uniformize_rejects_irreducible),
      cmocka_unit_test(test_uniformize_rejects_non_header),
      cmocka_unit_test(test_uniformize_old_spelling),
      cmocka_unit_test(test_uniformize_runs_counted),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
