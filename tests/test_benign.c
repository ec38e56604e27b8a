/*
 * test_benign: write-write races that store one value (benign.h). The
 * interpreter compares the bytes of each write-write conflict (finding
 * values), the static checker proves two stores' values equal or not
 * (aucs_static_same_value: values read after the last barrier from memory
 * no thread writes, fields and block-uniform terms), and the detector
 * makes a race that is both a warning.
 */
#include "interp_fx.h"

#include "aucs/detect.h"
#include "aucs/kernel.h"
#include "aucs/options.h"
#include "aucs/static.h"

#define DECLS                                                                  \
  "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"                             \
  "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"                           \
  "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n"

/* ir with its one "@X@" replaced by x. Free with free(). */
static char *with(const char *ir, const char *x) {
  const char *at = strstr(ir, "@X@");
  assert_non_null(at);
  return aucs_xasprintf("%.*s%s%s", (int)(at - ir), ir, x, at + 3);
}

/* ---- the interpreter: the values of a write-write race ------------------*/

/* Every thread of the block writes out[0]; "@X@" computes %v. */
static const char *store_ir =
    "define ptx_kernel void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "@X@"
    "  store i32 %v, ptr %out\n"
    "  ret void\n"
    "}\n" DECLS;

static aucs_values values_of(const char *v) {
  fx f;
  char *ir = with(store_ir, v);
  load_fx(&f, ir, "k");
  free(ir);
  aucs_run_config c = config(1, 64);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  aucs_values x = first(&f, AUCS_FINDING_RACE)->values;
  free_fx(&f);
  return x;
}

static void test_benign_interp_compares_stored_bytes(void **state) {
  (void)state;
  assert_int_equal(values_of("  %v = add i32 7, 0\n"), AUCS_VALUES_EQUAL);
  assert_int_equal(values_of("  %v = add i32 %t, 0\n"), AUCS_VALUES_DIFFER);
  /* threads 0..31 store 0 (the race is reported at the first of them),
   * threads 32..63 store 1: the later conflict marks the finding */
  assert_int_equal(values_of("  %v = lshr i32 %t, 5\n"), AUCS_VALUES_DIFFER);
}

static void test_benign_interp_read_write_has_no_values(void **state) {
  (void)state;
  fx f;
  load_fx(&f,
          "define ptx_kernel void @k(ptr %out) {\n"
          "entry:\n"
          "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
          "  %c = icmp eq i32 %t, 0\n"
          "  br i1 %c, label %w, label %r\n"
          "w:\n"
          "  store i32 1, ptr %out\n"
          "  ret void\n"
          "r:\n"
          "  %v = load i32, ptr %out\n"
          "  ret void\n"
          "}\n" DECLS,
          "k");
  aucs_run_config c = config(1, 64);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(first(&f, AUCS_FINDING_RACE)->values, AUCS_VALUES_UNKNOWN);
  free_fx(&f);
}

static void test_benign_interp_reports_the_read_it_hides(void **state) {
  (void)state;
  /* each thread stores 7 to out[0] and reads it back: thread 1's store
   * races with thread 0's store (the same value) and with thread 0's read;
   * the read-write race is reported too, so that a benign write-write race
   * does not hide it */
  fx f;
  load_fx(&f,
          "define ptx_kernel void @k(ptr %out) {\n"
          "entry:\n"
          "  store i32 7, ptr %out\n"
          "  %v = load i32, ptr %out\n"
          "  %p = getelementptr i32, ptr %out, i32 1\n"
          "  store i32 %v, ptr %p\n"
          "  ret void\n"
          "}\n" DECLS,
          "k");
  aucs_run_config c = config(1, 64);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  int ww = 0, rw = 0;
  for (size_t i = 0; i < f.res.findings.n; i++) {
    const aucs_finding *x = &f.res.findings.v[i];
    if (x->kind != AUCS_FINDING_RACE || x->offset != 0)
      continue;
    ww += x->a.op == AUCS_OP_WRITE && x->b.op == AUCS_OP_WRITE;
    rw += x->a.op == AUCS_OP_READ && x->b.op == AUCS_OP_WRITE;
  }
  assert_int_equal(ww, 1);
  assert_int_equal(rw, 1);
  free_fx(&f);
}

/* ---- the static checker: proven equal or not ----------------------------*/

/* A block's reduction leaves its winner in s[0]; after the barrier "@X@"
 * computes %v, which every thread stores to out[ctaid]. */
static const char *tail_ir =
    "@s = internal addrspace(3) global [1024 x i32] undef\n"
    "define ptx_kernel void @k(ptr %out, ptr byval({ i32, i32 }) %p) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
    "  %sp = getelementptr [1024 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
    "  store i32 %t, ptr addrspace(3) %sp\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "@X@"
    "  %o = getelementptr i32, ptr %out, i32 %b\n"
    "  store i32 %v, ptr %o\n"
    "  ret void\n"
    "}\n" DECLS;

/* Whether the last store of @k (the instruction before the last `ret`)
 * is proven to store one value in ir. */
static int proven_ir(const char *ir) {
  LLVMModuleRef m = support_parse(ir);
  aucs_static_options o = {.timeout_ms = 600000u, .budget_ms = 3600000u};
  LLVMValueRef k = support_fn(m, "k");
  aucs_static *s = aucs_static_analyze(k, &o);
  LLVMValueRef last = LLVMGetLastInstruction(LLVMGetLastBasicBlock(k));
  LLVMValueRef store = LLVMGetPreviousInstruction(last);
  int r = aucs_static_same_value(s, store, store, NULL);
  aucs_static_free(s);
  support_free(m);
  return r;
}

static int proven(const char *v) {
  char *ir = with(tail_ir, v);
  int r = proven_ir(ir);
  free(ir);
  return r;
}

static void test_benign_static_value_read_after_the_barrier(void **state) {
  (void)state;
  /* s[0], which no thread writes after the barrier */
  assert_true(proven("  %v = load i32, ptr addrspace(3) @s\n"));
  /* an expression of it and block-uniform values */
  assert_true(proven("  %x = load i32, ptr addrspace(3) @s\n"
                     "  %v = add i32 %x, %b\n"));
  /* a field of a struct parameter */
  assert_true(proven("  %f = getelementptr { i32, i32 }, ptr %p, i32 0, "
                     "i32 1\n"
                     "  %v = load i32, ptr %f\n"));
}

static void test_benign_static_values_that_differ(void **state) {
  (void)state;
  /* the thread index */
  assert_false(proven("  %x = load i32, ptr addrspace(3) @s\n"
                      "  %v = add i32 %x, %t\n"));
  /* a slot per thread */
  assert_false(proven("  %q = getelementptr [1024 x i32], ptr addrspace(3) "
                      "@s, i32 0, i32 %t\n"
                      "  %v = load i32, ptr addrspace(3) %q\n"));
  /* s[0] written in the same interval by thread 0: a thread that loads
   * before the write and one after it read different values */
  assert_false(proven("  %z = icmp eq i32 %t, 0\n"
                      "  br i1 %z, label %w, label %r\n"
                      "w:\n"
                      "  store i32 5, ptr addrspace(3) @s\n"
                      "  br label %r\n"
                      "r:\n"
                      "  %v = load i32, ptr addrspace(3) @s\n"));
  /* global memory another block may write in the meantime */
  assert_false(proven("  %v = load i32, ptr %out\n"));
}

/* A loop of four rounds whose body loads s[0] and stores it to
 * out[ctaid]; "@X@" is the end of the body (it may hold a barrier). The
 * entry writes s[tid + 1], so s is not memory the kernel only reads
 * (static_readonly.c), and s[0] is no thread's. */
static const char *loop_ir =
    "@s = internal addrspace(3) global [1024 x i32] undef\n"
    "define ptx_kernel void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
    "  %o = getelementptr i32, ptr %out, i32 %b\n"
    "  %t1 = add nuw i32 %t, 1\n"
    "  %st = getelementptr [1024 x i32], ptr addrspace(3) @s, i32 0, i32 %t1\n"
    "  store i32 %t, ptr addrspace(3) %st\n"
    "  br label %loop\n"
    "loop:\n"
    "  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]\n"
    "  %x = load i32, ptr addrspace(3) @s\n"
    "  store i32 %x, ptr %o\n"
    "@X@"
    "  %i1 = add nuw nsw i32 %i, 1\n"
    "  %more = icmp ult i32 %i1, 4\n"
    "  br i1 %more, label %loop, label %exit\n"
    "exit:\n"
    "  ret void\n"
    "}\n" DECLS;

/* The store the proof is about: the loop's. */
static int proven_in_loop(const char *tail) {
  char *ir = with(loop_ir, tail);
  LLVMModuleRef m = support_parse(ir);
  free(ir);
  aucs_static_options o = {.timeout_ms = 600000u, .budget_ms = 3600000u};
  LLVMValueRef k = support_fn(m, "k");
  aucs_static *s = aucs_static_analyze(k, &o);
  LLVMValueRef store = NULL;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(k); b;
       b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef I = LLVMGetFirstInstruction(b); I;
         I = LLVMGetNextInstruction(I))
      if (LLVMIsAStoreInst(I))
        store = I;
  int r = aucs_static_same_value(s, store, store, NULL);
  aucs_static_free(s);
  support_free(m);
  return r;
}

static void test_benign_static_loads_in_loops(void **state) {
  (void)state;
  /* no barrier in the loop: every thread reads s[0] in one interval, in
   * which nobody writes it */
  assert_true(proven_in_loop(""));
  /* Limitation: a load in a loop that holds a barrier is not followed
   * (two threads could read it in different intervals), even where, as
   * here, both stores are of one round */
  assert_false(proven_in_loop(
      "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"));
}

static void test_benign_static_barrier_in_a_divergent_block(void **state) {
  (void)state;
  /* a barrier only some threads reach: two threads may load s[0] in
   * different intervals, so the values are not proven equal */
  assert_false(proven("  %z = icmp ult i32 %t, 32\n"
                      "  br i1 %z, label %d, label %r\n"
                      "d:\n"
                      "  call void @llvm.nvvm.barrier.cta.sync.aligned.all("
                      "i32 0)\n"
                      "  br label %r\n"
                      "r:\n"
                      "  %v = load i32, ptr addrspace(3) @s\n"));
}

/* ---- the detector: a warning --------------------------------------------*/

/* The detection of tail_ir with %v from v; the report's instructions
 * point into *m (free it after the report). */
static aucs_report detect(const char *v, const char *options,
                          LLVMModuleRef *m) {
  char *ir = with(tail_ir, v);
  *m = support_parse(ir);
  free(ir);
  LLVMValueRef *ks;
  size_t n = aucs_kernel_list(*m, &ks);
  aucs_detect_options o = {0};
  char *err = NULL;
  assert_int_equal(aucs_options_parse(&o, options, &err), 0);
  aucs_report r;
  assert_int_equal(aucs_detect_run(*m, ks, n, &o, &r, &err), 0);
  aucs_options_free(&o);
  free(ks);
  return r;
}

static void done(aucs_report *r, LLVMModuleRef m) {
  aucs_detect_report_free(r);
  support_free(m);
}

static void test_benign_detect_makes_a_warning(void **state) {
  (void)state;
  LLVMModuleRef m;
  aucs_report r = detect("  %v = load i32, ptr addrspace(3) @s\n",
                         "--grid 2 --block 64", &m);
  const aucs_findings *fs = &r.kernels[0].findings;
  assert_int_equal(fs->n, 1);
  assert_int_equal(fs->v[0].kind, AUCS_FINDING_RACE);
  assert_int_equal(fs->v[0].severity, AUCS_SEVERITY_WARNING);
  assert_non_null(fs->v[0].benign);
  assert_non_null(strstr(fs->v[0].benign, "proven equal"));
  assert_int_equal(aucs_detect_exit(&r), 0);
  r.strict = 1;
  assert_int_equal(aucs_detect_exit(&r), 1);
  done(&r, m);

  /* values that differ: an error, whatever the checker says */
  r = detect("  %x = load i32, ptr addrspace(3) @s\n"
             "  %v = add i32 %x, %t\n",
             "--grid 2 --block 64", &m);
  fs = &r.kernels[0].findings;
  assert_int_equal(fs->n, 1);
  assert_int_equal(fs->v[0].severity, AUCS_SEVERITY_ERROR);
  assert_int_equal(fs->v[0].values, AUCS_VALUES_DIFFER);
  assert_null(fs->v[0].benign);
  done(&r, m);

  /* no static checker, no proof: an error */
  r = detect("  %v = load i32, ptr addrspace(3) @s\n",
             "--grid 2 --block 64 --no-static", &m);
  fs = &r.kernels[0].findings;
  assert_int_equal(fs->v[0].severity, AUCS_SEVERITY_ERROR);
  assert_int_equal(fs->v[0].values, AUCS_VALUES_EQUAL);
  done(&r, m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_benign_interp_compares_stored_bytes),
      cmocka_unit_test(test_benign_interp_read_write_has_no_values),
      cmocka_unit_test(test_benign_interp_reports_the_read_it_hides),
      cmocka_unit_test(test_benign_static_value_read_after_the_barrier),
      cmocka_unit_test(test_benign_static_values_that_differ),
      cmocka_unit_test(test_benign_static_loads_in_loops),
      cmocka_unit_test(test_benign_static_barrier_in_a_divergent_block),
      cmocka_unit_test(test_benign_detect_makes_a_warning),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
