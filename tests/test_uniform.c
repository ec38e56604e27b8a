/*
 * test_uniform: block uniformity and varying values on small inline kernels,
 * one behaviour a test: seeds, loads, joins, loops, calls, private memory.
 */
#include "support.h"

#include "aucs/uniform.h"
#include <string.h>

typedef struct fixture {
  LLVMModuleRef m;
  LLVMValueRef fn;
  aucs_cfg *cfg;
  aucs_uniformity *u;
} fixture;

static const char decls[] = "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                            "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
                            "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
                            "declare i32 @llvm.nvvm.read.ptx.sreg.laneid()\n";

static fixture load(const char *body) {
  fixture f;
  size_t n = strlen(decls) + strlen(body) + 1;
  char *ir = test_malloc(n);
  strcpy(ir, decls);
  strcat(ir, body);
  f.m = support_parse(ir);
  test_free(ir);
  f.fn = support_fn(f.m, "k");
  f.cfg = aucs_cfg_build(f.fn);
  f.u = aucs_uniform_compute(f.cfg);
  return f;
}

static void unload(fixture *f) {
  aucs_uniform_free(f->u);
  aucs_cfg_free(f->cfg);
  support_free(f->m);
}

static int B(const fixture *f, const char *name) {
  return aucs_cfg_index(f->cfg, support_block(f->fn, name));
}

static LLVMValueRef V(const fixture *f, const char *name) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f->fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i)) {
      size_t len;
      if (strcmp(LLVMGetValueName2(i, &len), name) == 0)
        return i;
    }
  print_error("no value %%%s in fixture\n", name);
  fail();
  return NULL;
}

/* Block name has reason why, naming block by (and aux when aux is set). */
static void expect_why(const fixture *f, const char *name, aucs_why why,
                       const char *by, const char *aux) {
  int blk = -2, ax = -2;
  assert_int_equal(aucs_uniform_why(f->u, B(f, name), &blk, &ax), why);
  assert_false(aucs_uniform_block(f->u, B(f, name)));
  if (by)
    assert_int_equal(blk, B(f, by));
  if (aux)
    assert_int_equal(ax, B(f, aux));
}

static void expect_uniform(const fixture *f, const char *name) {
  assert_true(aucs_uniform_block(f->u, B(f, name)));
  assert_int_equal(aucs_uniform_why(f->u, B(f, name), NULL, NULL),
                   AUCS_WHY_UNIFORM);
}

/* if (threadIdx.x < 4) *p = 1; phi at the join. */
static const char tid_if[] =
    "define ptx_kernel void @k(ptr %p) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %c = icmp ult i32 %t, 4\n"
    "  br i1 %c, label %then, label %join\n"
    "then:\n"
    "  store i32 1, ptr %p\n"
    "  br label %join\n"
    "join:\n"
    "  %v = phi i32 [ 1, %entry ], [ 2, %then ]\n"
    "  %w = phi i32 [ 7, %entry ], [ 7, %then ]\n"
    "  store i32 %v, ptr %p\n"
    "  ret void\n"
    "}\n";

static void test_uniform_tid_branch_divergent(void **state) {
  (void)state;
  fixture f = load(tid_if);
  expect_uniform(&f, "entry");
  expect_why(&f, "then", AUCS_WHY_BRANCH, "entry", NULL);
  expect_uniform(&f, "join");
  assert_true(aucs_uniform_branch_divergent(f.u, B(&f, "entry")));
  assert_string_equal(aucs_uniform_origin(f.u, V(&f, "c")), "tid.x");
  unload(&f);
}

static void test_uniform_divergent_join_phi_varies(void **state) {
  (void)state;
  fixture f = load(tid_if);
  assert_true(aucs_uniform_varying(f.u, V(&f, "v")));
  assert_string_equal(aucs_uniform_origin(f.u, V(&f, "v")), "divergent join");
  assert_false(aucs_uniform_varying(f.u, V(&f, "w")));
  assert_null(aucs_uniform_origin(f.u, V(&f, "w")));
  unload(&f);
}

static void test_uniform_block_ids_uniform(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %p) {\n"
                   "entry:\n"
                   "  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
                   "  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
                   "  %m = mul i32 %b, %d\n"
                   "  %c = icmp ult i32 %m, 100\n"
                   "  br i1 %c, label %then, label %join\n"
                   "then:\n"
                   "  store i32 1, ptr %p\n"
                   "  br label %join\n"
                   "join:\n"
                   "  %v = phi i32 [ 1, %entry ], [ 2, %then ]\n"
                   "  store i32 %v, ptr %p\n"
                   "  ret void\n"
                   "}\n");
  expect_uniform(&f, "then");
  assert_false(aucs_uniform_branch_divergent(f.u, B(&f, "entry")));
  assert_false(aucs_uniform_varying(f.u, V(&f, "m")));
  assert_false(aucs_uniform_varying(f.u, V(&f, "v")));
  unload(&f);
}

static void test_uniform_kernel_argument_uniform(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %p, i32 %n) {\n"
                   "entry:\n"
                   "  %c = icmp sgt i32 %n, 0\n"
                   "  br i1 %c, label %then, label %join\n"
                   "then:\n"
                   "  store i32 1, ptr %p\n"
                   "  br label %join\n"
                   "join:\n"
                   "  ret void\n"
                   "}\n");
  expect_uniform(&f, "then");
  assert_false(aucs_uniform_branch_divergent(f.u, B(&f, "entry")));
  unload(&f);
}

/* if (a[tid] > 0) / if (a[n] > 0) */
static const char load_branch[] =
    "define ptx_kernel void @k(ptr %a, i32 %n) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %pt = getelementptr inbounds i32, ptr %a, i32 %t\n"
    "  %x = load i32, ptr %pt\n"
    "  %cx = icmp sgt i32 %x, 0\n"
    "  br i1 %cx, label %then, label %mid\n"
    "then:\n"
    "  store i32 0, ptr %a\n"
    "  br label %mid\n"
    "mid:\n"
    "  %pn = getelementptr inbounds i32, ptr %a, i32 %n\n"
    "  %y = load i32, ptr %pn\n"
    "  %cy = icmp sgt i32 %y, 0\n"
    "  br i1 %cy, label %then2, label %end\n"
    "then2:\n"
    "  store i32 0, ptr %a\n"
    "  br label %end\n"
    "end:\n"
    "  ret void\n"
    "}\n";

static void test_uniform_load_varying_address_varies(void **state) {
  (void)state;
  fixture f = load(load_branch);
  assert_true(aucs_uniform_varying(f.u, V(&f, "x")));
  assert_string_equal(aucs_uniform_origin(f.u, V(&f, "x")), "tid.x");
  expect_why(&f, "then", AUCS_WHY_BRANCH, "entry", NULL);
  unload(&f);
}

static void test_uniform_load_uniform_address_uniform(void **state) {
  (void)state;
  fixture f = load(load_branch);
  assert_false(aucs_uniform_varying(f.u, V(&f, "y")));
  expect_uniform(&f, "mid");
  expect_uniform(&f, "then2");
  assert_false(aucs_uniform_branch_divergent(f.u, B(&f, "mid")));
  unload(&f);
}

/* for (i = 0; i < tid; i++) s += i;  use s after the loop. */
static void test_uniform_loop_tid_trip_count(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %p) {\n"
                   "entry:\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  br label %head\n"
                   "head:\n"
                   "  %i = phi i32 [ 0, %entry ], [ %i1, %body ]\n"
                   "  %s = phi i32 [ 0, %entry ], [ %s1, %body ]\n"
                   "  %c = icmp ult i32 %i, %t\n"
                   "  br i1 %c, label %body, label %exit\n"
                   "body:\n"
                   "  %s1 = add i32 %s, %i\n"
                   "  %i1 = add i32 %i, 1\n"
                   "  br label %head\n"
                   "exit:\n"
                   "  %r = add i32 %s, 1\n"
                   "  store i32 %r, ptr %p\n"
                   "  ret void\n"
                   "}\n");
  expect_why(&f, "head", AUCS_WHY_LOOP, "head", "head");
  expect_why(&f, "body", AUCS_WHY_LOOP, "head", "head");
  expect_uniform(&f, "exit");
  expect_uniform(&f, "entry");
  assert_true(aucs_uniform_varying(f.u, V(&f, "s")));
  assert_string_equal(aucs_uniform_origin(f.u, V(&f, "s")),
                      "divergent loop exit");
  assert_true(aucs_uniform_varying(f.u, V(&f, "r")));
  unload(&f);
}

/* for (i = 0; i < n; i++) { if (a[tid] == i) break; } */
static void test_uniform_loop_divergent_break(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %a, i32 %n) {\n"
                   "entry:\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  %pt = getelementptr inbounds i32, ptr %a, i32 %t\n"
                   "  br label %head\n"
                   "head:\n"
                   "  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]\n"
                   "  %c = icmp slt i32 %i, %n\n"
                   "  br i1 %c, label %body, label %exit\n"
                   "body:\n"
                   "  %x = load i32, ptr %pt\n"
                   "  %e = icmp eq i32 %x, %i\n"
                   "  br i1 %e, label %exit, label %latch\n"
                   "latch:\n"
                   "  %i1 = add i32 %i, 1\n"
                   "  br label %head\n"
                   "exit:\n"
                   "  ret void\n"
                   "}\n");
  assert_false(aucs_uniform_branch_divergent(f.u, B(&f, "head")));
  assert_true(aucs_uniform_branch_divergent(f.u, B(&f, "body")));
  expect_why(&f, "head", AUCS_WHY_LOOP, "head", "body");
  expect_why(&f, "body", AUCS_WHY_LOOP, "head", "body");
  expect_why(&f, "latch", AUCS_WHY_LOOP, "head", "body");
  expect_uniform(&f, "exit");
  unload(&f);
}

/* for (...) { if (tid < 4) { if (n > 3) break; } }: the exiting branch is
 * uniform, but only some threads reach it. */
static void test_uniform_loop_nested_break_divergent(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(i32 %n) {\n"
                   "entry:\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  br label %head\n"
                   "head:\n"
                   "  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]\n"
                   "  %d = icmp ult i32 %t, 4\n"
                   "  br i1 %d, label %inner, label %latch\n"
                   "inner:\n"
                   "  %u = icmp sgt i32 %n, 3\n"
                   "  br i1 %u, label %exit, label %latch\n"
                   "latch:\n"
                   "  %i1 = add i32 %i, 1\n"
                   "  %c = icmp slt i32 %i1, %n\n"
                   "  br i1 %c, label %head, label %exit\n"
                   "exit:\n"
                   "  ret void\n"
                   "}\n");
  assert_false(aucs_uniform_branch_divergent(f.u, B(&f, "inner")));
  expect_why(&f, "latch", AUCS_WHY_LOOP, "head", "inner");
  expect_why(&f, "inner", AUCS_WHY_LOOP, "head", "inner");
  unload(&f);
}

/* if (tid < 4) { if (n > 0) x; else y; } */
static void test_uniform_nested_if_nonuniform(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %p, i32 %n) {\n"
                   "entry:\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  %c = icmp ult i32 %t, 4\n"
                   "  br i1 %c, label %outer, label %end\n"
                   "outer:\n"
                   "  %u = icmp sgt i32 %n, 0\n"
                   "  br i1 %u, label %x, label %y\n"
                   "x:\n"
                   "  store i32 1, ptr %p\n"
                   "  br label %ij\n"
                   "y:\n"
                   "  store i32 2, ptr %p\n"
                   "  br label %ij\n"
                   "ij:\n"
                   "  %v = phi i32 [ 1, %x ], [ 2, %y ]\n"
                   "  store i32 %v, ptr %p\n"
                   "  br label %end\n"
                   "end:\n"
                   "  ret void\n"
                   "}\n");
  expect_why(&f, "outer", AUCS_WHY_BRANCH, "entry", NULL);
  expect_why(&f, "ij", AUCS_WHY_BRANCH, "entry", NULL);
  expect_why(&f, "x", AUCS_WHY_NONUNIFORM, "outer", NULL);
  expect_why(&f, "y", AUCS_WHY_NONUNIFORM, "outer", NULL);
  assert_false(aucs_uniform_branch_divergent(f.u, B(&f, "outer")));
  assert_false(aucs_uniform_varying(f.u, V(&f, "v")));
  expect_uniform(&f, "end");
  unload(&f);
}

/* A uniform loop inside a divergent if: its blocks are NONUNIFORM, not LOOP,
 * and its counter does not vary. */
static void test_uniform_uniform_loop_in_divergent_if(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(i32 %n) {\n"
                   "entry:\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  %c = icmp ult i32 %t, 4\n"
                   "  br i1 %c, label %head, label %end\n"
                   "head:\n"
                   "  %i = phi i32 [ 0, %entry ], [ %i1, %head ]\n"
                   "  %i1 = add i32 %i, 1\n"
                   "  %l = icmp slt i32 %i1, %n\n"
                   "  br i1 %l, label %head, label %end\n"
                   "end:\n"
                   "  ret void\n"
                   "}\n");
  expect_why(&f, "head", AUCS_WHY_BRANCH, "entry", NULL);
  assert_false(aucs_uniform_varying(f.u, V(&f, "i")));
  assert_false(aucs_uniform_branch_divergent(f.u, B(&f, "head")));
  expect_uniform(&f, "end");
  unload(&f);
}

static void test_uniform_atomics_vary(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %p) {\n"
                   "entry:\n"
                   "  %a = atomicrmw add ptr %p, i32 1 seq_cst\n"
                   "  %x = cmpxchg ptr %p, i32 0, i32 1 seq_cst seq_cst\n"
                   "  %x0 = extractvalue { i32, i1 } %x, 0\n"
                   "  %l = load atomic i32, ptr %p acquire, align 4\n"
                   "  %c = icmp eq i32 %a, 0\n"
                   "  br i1 %c, label %then, label %end\n"
                   "then:\n"
                   "  br label %end\n"
                   "end:\n"
                   "  ret void\n"
                   "}\n");
  assert_string_equal(aucs_uniform_origin(f.u, V(&f, "a")), "atomic");
  assert_true(aucs_uniform_varying(f.u, V(&f, "x0")));
  assert_true(aucs_uniform_varying(f.u, V(&f, "l")));
  expect_why(&f, "then", AUCS_WHY_BRANCH, "entry", NULL);
  unload(&f);
}

/* __syncthreads_or(tid < 4), in LLVM 22 and in the old spelling. */
static void test_uniform_barrier_reduce_uniform(void **state) {
  (void)state;
  fixture f =
      load("declare i1 @llvm.nvvm.barrier.cta.red.or.aligned.all(i32, i1)\n"
           "declare i32 @llvm.nvvm.barrier0.or(i32)\n"
           "define ptx_kernel void @k(ptr %p) {\n"
           "entry:\n"
           "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
           "  %c = icmp ult i32 %t, 4\n"
           "  %r = call i1 @llvm.nvvm.barrier.cta.red.or.aligned.all("
           "i32 0, i1 %c)\n"
           "  %ci = zext i1 %c to i32\n"
           "  %o = call i32 @llvm.nvvm.barrier0.or(i32 %ci)\n"
           "  br i1 %r, label %then, label %end\n"
           "then:\n"
           "  store i32 %o, ptr %p\n"
           "  br label %end\n"
           "end:\n"
           "  ret void\n"
           "}\n");
  assert_true(aucs_uniform_varying(f.u, V(&f, "c")));
  assert_false(aucs_uniform_varying(f.u, V(&f, "r")));
  /* LLVM upgrades barrier0.or on parsing and drops the name %o. */
  LLVMValueRef st = LLVMGetFirstInstruction(support_block(f.fn, "then"));
  assert_false(aucs_uniform_varying(f.u, LLVMGetOperand(st, 0)));
  expect_uniform(&f, "then");
  unload(&f);
}

/* int x = tid; ... x read back; int y = n; y read back. */
static void test_uniform_alloca_reload_varies(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %p, i32 %n) {\n"
                   "entry:\n"
                   "  %x = alloca i32, align 4\n"
                   "  %y = alloca [2 x i32], align 4\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  store i32 %t, ptr %x\n"
                   "  %y1 = getelementptr [2 x i32], ptr %y, i32 0, i32 1\n"
                   "  store i32 %n, ptr %y1\n"
                   "  %lx = load i32, ptr %x\n"
                   "  %ly = load i32, ptr %y1\n"
                   "  %s = add i32 %lx, %ly\n"
                   "  store i32 %s, ptr %p\n"
                   "  ret void\n"
                   "}\n");
  assert_true(aucs_uniform_varying(f.u, V(&f, "lx")));
  assert_string_equal(aucs_uniform_origin(f.u, V(&f, "lx")), "tid.x");
  assert_false(aucs_uniform_varying(f.u, V(&f, "ly")));
  unload(&f);
}

/* A uniform value stored in a divergent block; an alloca passed to a call. */
static void test_uniform_alloca_divergent_store_varies(void **state) {
  (void)state;
  fixture f = load("declare void @ext(ptr)\n"
                   "define ptx_kernel void @k(ptr %p) {\n"
                   "entry:\n"
                   "  %x = alloca i32, align 4\n"
                   "  %e = alloca i32, align 4\n"
                   "  store i32 0, ptr %x\n"
                   "  store i32 0, ptr %e\n"
                   "  call void @ext(ptr %e)\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  %c = icmp ult i32 %t, 4\n"
                   "  br i1 %c, label %then, label %end\n"
                   "then:\n"
                   "  store i32 1, ptr %x\n"
                   "  br label %end\n"
                   "end:\n"
                   "  %lx = load i32, ptr %x\n"
                   "  %le = load i32, ptr %e\n"
                   "  %s = add i32 %lx, %le\n"
                   "  store i32 %s, ptr %p\n"
                   "  ret void\n"
                   "}\n");
  assert_true(aucs_uniform_varying(f.u, V(&f, "lx")));
  assert_true(aucs_uniform_varying(f.u, V(&f, "le")));
  assert_string_equal(aucs_uniform_origin(f.u, V(&f, "le")), "alloca");
  unload(&f);
}

static const char helpers[] =
    "define i32 @get_tid() {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  ret i32 %t\n"
    "}\n"
    "define i32 @ident(i32 %a) {\n"
    "entry:\n"
    "  %b = add i32 %a, 1\n"
    "  ret i32 %b\n"
    "}\n"
    "define i32 @rec(i32 %a) {\n"
    "entry:\n"
    "  %r = call i32 @rec(i32 %a)\n"
    "  ret i32 %r\n"
    "}\n"
    "declare i32 @external(i32)\n"
    "define ptx_kernel void @k(ptr %p, i32 %n) {\n"
    "entry:\n"
    "  %h = call i32 @get_tid()\n"
    "  %i = call i32 @ident(i32 %n)\n"
    "  %j = call i32 @ident(i32 %h)\n"
    "  %r = call i32 @rec(i32 %n)\n"
    "  %e = call i32 @external(i32 %n)\n"
    "  store i32 %i, ptr %p\n"
    "  ret void\n"
    "}\n";

static void test_uniform_call_helper_returning_tid_varies(void **state) {
  (void)state;
  fixture f = load(helpers);
  assert_true(aucs_uniform_varying(f.u, V(&f, "h")));
  assert_string_equal(aucs_uniform_origin(f.u, V(&f, "h")), "call @get_tid");
  assert_true(aucs_uniform_varying(f.u, V(&f, "j")));
  assert_true(aucs_uniform_varying(f.u, V(&f, "r")));
  assert_string_equal(aucs_uniform_origin(f.u, V(&f, "e")), "call @external");
  unload(&f);
}

static void test_uniform_call_helper_returning_argument_uniform(void **state) {
  (void)state;
  fixture f = load(helpers);
  assert_false(aucs_uniform_varying(f.u, V(&f, "i")));
  unload(&f);
}

/* libdevice's math (declared when it is not linked) is a function of its
 * arguments: __log2f of a constant is uniform, of tid.x varies. */
static void test_uniform_libdevice_call_follows_arguments(void **state) {
  (void)state;
  fixture f = load("declare float @__nv_fast_log2f(float) #0\n"
                   "define ptx_kernel void @k(ptr %p) {\n"
                   "entry:\n"
                   "  %c = call float @__nv_fast_log2f(float 1.6e+01)\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  %x = uitofp i32 %t to float\n"
                   "  %v = call float @__nv_fast_log2f(float %x)\n"
                   "  store float %c, ptr %p\n"
                   "  store float %v, ptr %p\n"
                   "  ret void\n"
                   "}\n"
                   "attributes #0 = { convergent nounwind }\n");
  assert_false(aucs_uniform_varying(f.u, V(&f, "c")));
  assert_true(aucs_uniform_varying(f.u, V(&f, "v")));
  unload(&f);
}

static void test_uniform_unreachable_block(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k() {\n"
                   "entry:\n"
                   "  ret void\n"
                   "dead:\n"
                   "  br label %entry2\n"
                   "entry2:\n"
                   "  ret void\n"
                   "}\n");
  expect_uniform(&f, "entry");
  expect_why(&f, "dead", AUCS_WHY_UNREACHABLE, NULL, NULL);
  expect_why(&f, "entry2", AUCS_WHY_UNREACHABLE, NULL, NULL);
  unload(&f);
}

/* switch (laneid) { case 0: ...; case 1: ...; } */
static void test_uniform_switch_divergent(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %p) {\n"
                   "entry:\n"
                   "  %l = call i32 @llvm.nvvm.read.ptx.sreg.laneid()\n"
                   "  switch i32 %l, label %end [ i32 0, label %a\n"
                   "                              i32 1, label %b ]\n"
                   "a:\n"
                   "  br label %end\n"
                   "b:\n"
                   "  br label %end\n"
                   "end:\n"
                   "  %v = phi i32 [ 0, %entry ], [ 1, %a ], [ 2, %b ]\n"
                   "  store i32 %v, ptr %p\n"
                   "  ret void\n"
                   "}\n");
  assert_true(aucs_uniform_branch_divergent(f.u, B(&f, "entry")));
  expect_why(&f, "a", AUCS_WHY_BRANCH, "entry", NULL);
  expect_why(&f, "b", AUCS_WHY_BRANCH, "entry", NULL);
  expect_uniform(&f, "end");
  assert_string_equal(aucs_uniform_origin(f.u, V(&f, "l")), "laneid");
  assert_true(aucs_uniform_varying(f.u, V(&f, "v")));
  unload(&f);
}

/* A join reached from one side only of a divergent branch is no join:
 * if (tid) { if (n) a else b; j: phi } */
static void test_uniform_one_sided_join_phi_uniform(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %p, i32 %n) {\n"
                   "entry:\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  %c = icmp ult i32 %t, 4\n"
                   "  br i1 %c, label %s, label %end\n"
                   "s:\n"
                   "  %u = icmp sgt i32 %n, 0\n"
                   "  br i1 %u, label %a, label %j\n"
                   "a:\n"
                   "  br label %j\n"
                   "j:\n"
                   "  %v = phi i32 [ 0, %s ], [ 1, %a ]\n"
                   "  store i32 %v, ptr %p\n"
                   "  br label %end\n"
                   "end:\n"
                   "  %w = phi i32 [ 0, %entry ], [ %v, %j ]\n"
                   "  store i32 %w, ptr %p\n"
                   "  ret void\n"
                   "}\n");
  assert_false(aucs_uniform_varying(f.u, V(&f, "v")));
  assert_true(aucs_uniform_varying(f.u, V(&f, "w")));
  expect_why(&f, "a", AUCS_WHY_NONUNIFORM, "s", NULL);
  unload(&f);
}

/* switch (tid % 2) with the impossible default clang emits, then a uniform
 * switch: the code after the first switch is uniform. */
static void test_uniform_unreachable_default_reconverges(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %p, i32 %n) {\n"
                   "entry:\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  %r = urem i32 %t, 2\n"
                   "  switch i32 %r, label %dead [ i32 0, label %a\n"
                   "                              i32 1, label %b ]\n"
                   "a:\n"
                   "  br label %mid\n"
                   "b:\n"
                   "  br label %mid\n"
                   "dead:\n"
                   "  unreachable\n"
                   "mid:\n"
                   "  %u = icmp sgt i32 %n, 0\n"
                   "  br i1 %u, label %c, label %end\n"
                   "c:\n"
                   "  store i32 1, ptr %p\n"
                   "  br label %end\n"
                   "end:\n"
                   "  ret void\n"
                   "}\n");
  expect_why(&f, "a", AUCS_WHY_BRANCH, "entry", NULL);
  expect_uniform(&f, "mid");
  expect_uniform(&f, "c");
  expect_uniform(&f, "end");
  unload(&f);
}

/* for (i < n) { if (a[tid] < 0) __trap(); }: a trapping thread does not make
 * the loop divergent. */
static void test_uniform_trap_in_loop_not_divergent(void **state) {
  (void)state;
  fixture f = load("declare void @llvm.trap()\n"
                   "define ptx_kernel void @k(ptr %a, i32 %n) {\n"
                   "entry:\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  %pt = getelementptr inbounds i32, ptr %a, i32 %t\n"
                   "  br label %head\n"
                   "head:\n"
                   "  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]\n"
                   "  %x = load i32, ptr %pt\n"
                   "  %bad = icmp slt i32 %x, 0\n"
                   "  br i1 %bad, label %trap, label %latch\n"
                   "trap:\n"
                   "  call void @llvm.trap()\n"
                   "  unreachable\n"
                   "latch:\n"
                   "  %i1 = add i32 %i, 1\n"
                   "  %c = icmp slt i32 %i1, %n\n"
                   "  br i1 %c, label %head, label %exit\n"
                   "exit:\n"
                   "  ret void\n"
                   "}\n");
  assert_true(aucs_uniform_branch_divergent(f.u, B(&f, "head")));
  expect_uniform(&f, "head");
  expect_uniform(&f, "latch");
  expect_why(&f, "trap", AUCS_WHY_BRANCH, "head", NULL);
  assert_false(aucs_uniform_varying(f.u, V(&f, "i")));
  unload(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_uniform_tid_branch_divergent),
      cmocka_unit_test(test_uniform_divergent_join_phi_varies),
      cmocka_unit_test(test_uniform_block_ids_uniform),
      cmocka_unit_test(test_uniform_kernel_argument_uniform),
      cmocka_unit_test(test_uniform_load_varying_address_varies),
      cmocka_unit_test(test_uniform_load_uniform_address_uniform),
      cmocka_unit_test(test_uniform_loop_tid_trip_count),
      cmocka_unit_test(test_uniform_loop_divergent_break),
      cmocka_unit_test(test_uniform_loop_nested_break_divergent),
      cmocka_unit_test(test_uniform_nested_if_nonuniform),
      cmocka_unit_test(test_uniform_uniform_loop_in_divergent_if),
      cmocka_unit_test(test_uniform_atomics_vary),
      cmocka_unit_test(test_uniform_barrier_reduce_uniform),
      cmocka_unit_test(test_uniform_alloca_reload_varies),
      cmocka_unit_test(test_uniform_alloca_divergent_store_varies),
      cmocka_unit_test(test_uniform_call_helper_returning_tid_varies),
      cmocka_unit_test(test_uniform_call_helper_returning_argument_uniform),
      cmocka_unit_test(test_uniform_libdevice_call_follows_arguments),
      cmocka_unit_test(test_uniform_unreachable_block),
      cmocka_unit_test(test_uniform_switch_divergent),
      cmocka_unit_test(test_uniform_one_sided_join_phi_uniform),
      cmocka_unit_test(test_uniform_unreachable_default_reconverges),
      cmocka_unit_test(test_uniform_trap_in_loop_not_divergent),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
