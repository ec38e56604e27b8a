/*
 * test_flatten: the flattening transform. Each shape is flattened in a
 * clone of its module; the result must verify, every guard must be uniform
 * on the rebuilt facts, and the original and flattened kernels must leave
 * identical memory (and run status) in the interpreter on many launches
 * and argument values from a seeded loop.
 */
#include "support.h"

#include "aucs/cfg.h"
#include "aucs/flatten.h"
#include "aucs/interp.h"
#include "aucs/srcloc.h"
#include "aucs/uniform.h"
#include "aucs/uniformize.h"
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <stdlib.h>
#include <string.h>

enum { RUNS = 48, BYTES = 2048 };

static const char *decls = "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                           "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
                           "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n";

static LLVMModuleRef parse(const char *body) {
  char *ir = aucs_xasprintf("%s%s", decls, body);
  LLVMModuleRef m = support_parse(ir);
  free(ir);
  return m;
}

/* ---- equivalence in the interpreter ---- */

static size_t count_kind(const aucs_run_result *r, aucs_finding_kind k) {
  size_t n = 0;
  for (size_t i = 0; i < r->findings.n; i++)
    n += r->findings.v[i].kind == k;
  return n;
}

/* Run original and flattened on RUNS launches; returns how many ran. */
static int equivalent(LLVMValueRef orig, LLVMValueRef flat) {
  aucs_prog *p = support_lower(orig), *q = support_lower(flat);
  assert_int_equal(aucs_prog_nparams(p), aucs_prog_nparams(q));
  uint64_t s = 0x9e3779b97f4a7c15ull, args[8] = {0};
  int ran = 0;
  for (int run = 0; run < RUNS; run++) {
    aucs_run_config c = {0};
    c.launch.grid = (aucs_dim3){1 + (unsigned)(support_rng(&s) % 2), 1, 1};
    c.launch.block = (aucs_dim3){1 + (unsigned)(support_rng(&s) % 64), 1, 1};
    for (size_t i = 0; i < aucs_prog_nparams(p) && i < 8; i++)
      args[i] = (uint64_t)((int64_t)(support_rng(&s) % 80) - 8);
    c.args = args;
    c.seed = (uint64_t)run + 1;
    c.keep_memory = 1;
    aucs_run_result a = {0}, b = {0};
    if (support_run_both(p, q, &c, &a, &b, BYTES, (uint64_t)run) ==
        AUCS_RUN_OK) {
      assert_int_equal(count_kind(&a, AUCS_FINDING_RACE) != 0,
                       count_kind(&b, AUCS_FINDING_RACE) != 0);
      ran++;
    }
    aucs_run_result_free(&a);
    aucs_run_result_free(&b);
  }
  aucs_prog_free(p);
  aucs_prog_free(q);
  return ran;
}

/* ---- the common check ---- */

typedef struct flat_fx {
  LLVMModuleRef m, clone;
  LLVMValueRef orig, fn;
  aucs_flatten_result res;
} flat_fx;

static void guards_uniform(flat_fx *f) {
  aucs_cfg *cfg = aucs_cfg_build(f->fn);
  aucs_uniformity *u = aucs_uniform_compute(cfg);
  for (int i = 0; i < f->res.n; i++) {
    int g = aucs_cfg_index(cfg, f->res.guards[i]);
    assert_true(g >= 0);
    if (!aucs_uniform_block(u, g))
      print_error("guard %s is not uniform\n",
                  LLVMGetBasicBlockName(f->res.guards[i]));
    assert_true(aucs_uniform_block(u, g));
  }
  aucs_uniform_free(u);
  aucs_cfg_free(cfg);
}

/* Flatten (u1, u2) of @k in a clone and check it. */
static void flatten_fx(flat_fx *f, const char *body, const char *u1,
                       const char *u2) {
  memset(f, 0, sizeof *f);
  f->m = parse(body);
  f->clone = LLVMCloneModule(f->m);
  f->orig = support_fn(f->m, "k");
  f->fn = support_fn(f->clone, "k");
  char *err = NULL;
  aucs_flatten_status st = aucs_flatten_region(
      f->fn, support_block_index(f->fn, u1), support_block_index(f->fn, u2), &f->res, &err);
  if (st)
    print_error("flatten: %s\n", err);
  assert_int_equal(st, AUCS_FLATTEN_OK);
  assert_null(err);
  assert_false(LLVMVerifyFunction(f->fn, LLVMReturnStatusAction));
  guards_uniform(f);
}

static void free_fx(flat_fx *f) {
  aucs_flatten_result_free(&f->res);
  LLVMDisposeModule(f->clone);
  support_free(f->m);
}

static void check(const char *body, const char *u1, const char *u2, int nodes) {
  flat_fx f;
  flatten_fx(&f, body, u1, u2);
  assert_int_equal(f.res.n, nodes + 1);
  assert_true(equivalent(f.orig, f.fn) > RUNS / 2);
  free_fx(&f);
}

/* ---- shapes ---- */

static const char *diamond =
    "define ptx_kernel void @k(ptr %out, i32 %n) {\n"
    "entry:\n"
    "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %cmp = icmp slt i32 %tid, %n\n"
    "  %slot = getelementptr i32, ptr %out, i32 %tid\n"
    "  br i1 %cmp, label %then, label %else\n"
    "then:\n"
    "  store i32 1, ptr %slot\n"
    "  br label %join\n"
    "else:\n"
    "  store i32 2, ptr %slot\n"
    "  br label %join\n"
    "join:\n"
    "  %hi = getelementptr i32, ptr %slot, i32 64\n"
    "  store i32 3, ptr %hi\n"
    "  ret void\n"
    "}\n";

static void test_flatten_diamond(void **state) {
  (void)state;
  flat_fx f;
  flatten_fx(&f, diamond, "entry", "join");
  assert_int_equal(f.res.n, 3);
  assert_string_equal(LLVMGetBasicBlockName(f.res.guards[0]), "guard.then");
  assert_string_equal(LLVMGetBasicBlockName(f.res.guards[1]), "guard.else");
  assert_string_equal(LLVMGetBasicBlockName(f.res.guards[2]), "guard.join");
  assert_ptr_equal(aucs_flatten_guard_of(&f.res, support_block(f.fn, "else")),
                   f.res.guards[1]);
  assert_null(aucs_flatten_guard_of(&f.res, support_block(f.fn, "entry")));
  /* guard.then: br %cmp, then, guard.else; then: br guard.else */
  LLVMValueRef t = LLVMGetBasicBlockTerminator(f.res.guards[0]);
  assert_string_equal(LLVMGetValueName(LLVMGetCondition(t)), "cmp");
  assert_ptr_equal(LLVMGetSuccessor(t, 0), support_block(f.fn, "then"));
  assert_ptr_equal(LLVMGetSuccessor(t, 1), f.res.guards[1]);
  LLVMValueRef tt = LLVMGetBasicBlockTerminator(support_block(f.fn, "then"));
  assert_int_equal(LLVMGetNumSuccessors(tt), 1);
  assert_ptr_equal(LLVMGetSuccessor(tt, 0), f.res.guards[1]);
  assert_true(equivalent(f.orig, f.fn) > RUNS / 2);
  free_fx(&f);
}

static void test_flatten_if_without_else(void **state) {
  (void)state;
  check("define ptx_kernel void @k(ptr %out, i32 %n) {\n"
        "entry:\n"
        "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
        "  %cmp = icmp ult i32 %tid, %n\n"
        "  br i1 %cmp, label %then, label %join\n"
        "then:\n"
        "  %slot = getelementptr i32, ptr %out, i32 %tid\n"
        "  store i32 7, ptr %slot\n"
        "  br label %join\n"
        "join:\n"
        "  %v = phi i32 [ 1, %then ], [ 2, %entry ]\n"
        "  %s = getelementptr i32, ptr %out, i32 %tid\n"
        "  %h = getelementptr i32, ptr %s, i32 64\n"
        "  store i32 %v, ptr %h\n"
        "  ret void\n"
        "}\n",
        "entry", "join", 1);
}

/* The inner condition is computed in the outer branch: the guards read it
 * after that block, so it is repaired with a zero default. */
static const char *nested =
    "define ptx_kernel void @k(ptr %out, i32 %n) {\n"
    "entry:\n"
    "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %slot = getelementptr i32, ptr %out, i32 %tid\n"
    "  %c1 = icmp slt i32 %tid, %n\n"
    "  br i1 %c1, label %outer, label %join\n"
    "outer:\n"
    "  %r = srem i32 %tid, 2\n"
    "  %c2 = icmp eq i32 %r, 1\n"
    "  br i1 %c2, label %odd, label %even\n"
    "odd:\n"
    "  store i32 1, ptr %slot\n"
    "  br label %inner.end\n"
    "even:\n"
    "  store i32 2, ptr %slot\n"
    "  br label %inner.end\n"
    "inner.end:\n"
    "  %x = phi i32 [ 10, %odd ], [ 20, %even ]\n"
    "  %y = add i32 %x, %r\n"
    "  %h = getelementptr i32, ptr %slot, i32 64\n"
    "  store i32 %y, ptr %h\n"
    "  br label %join\n"
    "join:\n"
    "  %z = phi i32 [ %y, %inner.end ], [ -1, %entry ]\n"
    "  %h2 = getelementptr i32, ptr %slot, i32 128\n"
    "  store i32 %z, ptr %h2\n"
    "  ret void\n"
    "}\n";

static void test_flatten_nested_ifs(void **state) {
  (void)state;
  check(nested, "entry", "join", 4);
}

/* A DAG region that is no diamond: C is entered from A and from B, J from
 * A, B and C; phis at C and J. */
static void test_flatten_multi_exit_dag(void **state) {
  (void)state;
  check("define ptx_kernel void @k(ptr %out, i32 %n) {\n"
        "entry:\n"
        "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
        "  %slot = getelementptr i32, ptr %out, i32 %tid\n"
        "  %b0 = and i32 %tid, 1\n"
        "  %a = icmp eq i32 %b0, 0\n"
        "  br i1 %a, label %A, label %B\n"
        "A:\n"
        "  %va = add i32 %tid, 100\n"
        "  %b1 = and i32 %tid, 2\n"
        "  %b = icmp eq i32 %b1, 0\n"
        "  br i1 %b, label %C, label %J\n"
        "B:\n"
        "  %vb = mul i32 %tid, 3\n"
        "  %c = icmp slt i32 %tid, %n\n"
        "  br i1 %c, label %C, label %J\n"
        "C:\n"
        "  %vc = phi i32 [ %va, %A ], [ %vb, %B ]\n"
        "  store i32 %vc, ptr %slot\n"
        "  br label %J\n"
        "J:\n"
        "  %vj = phi i32 [ %va, %A ], [ %vb, %B ], [ 0, %C ]\n"
        "  %h = getelementptr i32, ptr %slot, i32 64\n"
        "  store i32 %vj, ptr %h\n"
        "  ret void\n"
        "}\n",
        "entry", "J", 3);
}

static void test_flatten_switch(void **state) {
  (void)state;
  check("define ptx_kernel void @k(ptr %out) {\n"
        "entry:\n"
        "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
        "  %slot = getelementptr i32, ptr %out, i32 %tid\n"
        "  %lane = urem i32 %tid, 5\n"
        "  switch i32 %lane, label %other [ i32 0, label %low\n"
        "                                   i32 1, label %low\n"
        "                                   i32 3, label %three ]\n"
        "low:\n"
        "  store i32 10, ptr %slot\n"
        "  br label %join\n"
        "three:\n"
        "  store i32 30, ptr %slot\n"
        "  br label %join\n"
        "other:\n"
        "  br label %join\n"
        "join:\n"
        "  %v = phi i32 [ 1, %low ], [ 3, %three ], [ 9, %other ]\n"
        "  %h = getelementptr i32, ptr %slot, i32 64\n"
        "  store i32 %v, ptr %h\n"
        "  ret void\n"
        "}\n",
        "entry", "join", 3);
}

/* %v is defined in A and used in D and after the join; A no longer
 * dominates them once flattened. */
static void test_flatten_value_used_after_join(void **state) {
  (void)state;
  check("define ptx_kernel void @k(ptr %out, i32 %n) {\n"
        "entry:\n"
        "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
        "  %slot = getelementptr i32, ptr %out, i32 %tid\n"
        "  %c = icmp slt i32 %tid, %n\n"
        "  br i1 %c, label %A, label %E\n"
        "A:\n"
        "  %v = mul i32 %tid, 7\n"
        "  %odd = trunc i32 %tid to i1\n"
        "  br i1 %odd, label %B, label %C\n"
        "B:\n"
        "  store i32 1, ptr %slot\n"
        "  br label %D\n"
        "C:\n"
        "  store i32 2, ptr %slot\n"
        "  br label %D\n"
        "D:\n"
        "  %w = add i32 %v, 1\n"
        "  %h = getelementptr i32, ptr %slot, i32 64\n"
        "  store i32 %w, ptr %h\n"
        "  br label %J\n"
        "E:\n"
        "  br label %J\n"
        "J:\n"
        "  %r = phi i32 [ %v, %D ], [ 5, %E ]\n"
        "  %h2 = getelementptr i32, ptr %slot, i32 128\n"
        "  store i32 %r, ptr %h2\n"
        "  ret void\n"
        "}\n",
        "entry", "J", 5);
}

/* A uniform loop inside the divergent branch is kept whole; a value
 * computed in the loop is used after it. */
static void test_flatten_region_with_loop(void **state) {
  (void)state;
  flat_fx f;
  flatten_fx(&f,
             "define ptx_kernel void @k(ptr %out, i32 %n) {\n"
             "entry:\n"
             "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
             "  %slot = getelementptr i32, ptr %out, i32 %tid\n"
             "  %c = icmp ult i32 %tid, 20\n"
             "  br i1 %c, label %pre, label %else\n"
             "pre:\n"
             "  br label %header\n"
             "header:\n"
             "  %i = phi i32 [ 0, %pre ], [ %i.next, %body ]\n"
             "  %acc = phi i32 [ 0, %pre ], [ %acc.next, %body ]\n"
             "  %more = icmp slt i32 %i, %n\n"
             "  br i1 %more, label %body, label %after\n"
             "body:\n"
             "  %acc.next = add i32 %acc, %i\n"
             "  %i.next = add i32 %i, 1\n"
             "  br label %header\n"
             "after:\n"
             "  store i32 %acc, ptr %slot\n"
             "  br label %join\n"
             "else:\n"
             "  store i32 -1, ptr %slot\n"
             "  br label %join\n"
             "join:\n"
             "  %v = phi i32 [ %acc, %after ], [ 0, %else ]\n"
             "  %h = getelementptr i32, ptr %slot, i32 64\n"
             "  store i32 %v, ptr %h\n"
             "  ret void\n"
             "}\n",
             "entry", "join");
  /* nodes: pre, header (the loop), after, else; then join */
  assert_int_equal(f.res.n, 5);
  assert_non_null(aucs_flatten_guard_of(&f.res, support_block(f.fn, "header")));
  assert_null(aucs_flatten_guard_of(&f.res, support_block(f.fn, "body")));
  assert_true(equivalent(f.orig, f.fn) > RUNS / 2);
  free_fx(&f);
}

/* GKLEE's example: odd threads read a[i-1], even threads a[i+1], each
 * writes a[i], in the two branches of one if. */
static void test_flatten_gklee(void **state) {
  (void)state;
  check("define ptx_kernel void @k(ptr %a) {\n"
        "entry:\n"
        "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
        "  %i = add i32 %tid, 1\n"
        "  %slot = getelementptr i32, ptr %a, i32 %i\n"
        "  %r = urem i32 %tid, 2\n"
        "  %odd = icmp eq i32 %r, 1\n"
        "  br i1 %odd, label %if.then, label %if.else\n"
        "if.then:\n"
        "  %pl = getelementptr i32, ptr %slot, i32 -1\n"
        "  %l = load i32, ptr %pl\n"
        "  store i32 %l, ptr %slot\n"
        "  br label %if.end\n"
        "if.else:\n"
        "  %pr = getelementptr i32, ptr %slot, i32 1\n"
        "  %rr = load i32, ptr %pr\n"
        "  store i32 %rr, ptr %slot\n"
        "  br label %if.end\n"
        "if.end:\n"
        "  ret void\n"
        "}\n",
        "entry", "if.end", 2);
}

/* The region sits in the body of a uniform loop: u1 and u2 are in the
 * loop, u2 its latch. */
static void test_flatten_inside_loop(void **state) {
  (void)state;
  check("define ptx_kernel void @k(ptr %out, i32 %n) {\n"
        "entry:\n"
        "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
        "  %slot = getelementptr i32, ptr %out, i32 %tid\n"
        "  br label %header\n"
        "header:\n"
        "  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]\n"
        "  %more = icmp slt i32 %i, %n\n"
        "  br i1 %more, label %body, label %exit\n"
        "body:\n"
        "  %mine = icmp ult i32 %tid, %i\n"
        "  br i1 %mine, label %then, label %latch\n"
        "then:\n"
        "  %old = load i32, ptr %slot\n"
        "  %new = add i32 %old, %i\n"
        "  store i32 %new, ptr %slot\n"
        "  br label %latch\n"
        "latch:\n"
        "  %t = phi i32 [ %new, %then ], [ 0, %body ]\n"
        "  %h = getelementptr i32, ptr %slot, i32 64\n"
        "  store i32 %t, ptr %h\n"
        "  %i.next = add i32 %i, 1\n"
        "  br label %header\n"
        "exit:\n"
        "  ret void\n"
        "}\n",
        "body", "latch", 1);
}

/* u2 is also entered from outside the region: its phi keeps that entry
 * and takes the region's through the final guard. */
static void test_flatten_u2_shared(void **state) {
  (void)state;
  check("define ptx_kernel void @k(ptr %out, i32 %n) {\n"
        "entry:\n"
        "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
        "  %slot = getelementptr i32, ptr %out, i32 %tid\n"
        "  %u = icmp sgt i32 %n, 10\n"
        "  br i1 %u, label %u1, label %other\n"
        "u1:\n"
        "  %c = icmp slt i32 %tid, %n\n"
        "  br i1 %c, label %a, label %u2\n"
        "a:\n"
        "  %va = add i32 %tid, 1000\n"
        "  br label %u2\n"
        "other:\n"
        "  br label %u2\n"
        "u2:\n"
        "  %v = phi i32 [ %va, %a ], [ 2, %u1 ], [ 3, %other ]\n"
        "  store i32 %v, ptr %slot\n"
        "  ret void\n"
        "}\n",
        "u1", "u2", 1);
}

/* The region ends on a loop's back edge: `if (tid < i) ...; continue;`,
 * u2 the loop header. */
static void test_flatten_ends_at_back_edge(void **state) {
  (void)state;
  check("define ptx_kernel void @k(ptr %out, i32 %n) {\n"
        "entry:\n"
        "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
        "  %slot = getelementptr i32, ptr %out, i32 %tid\n"
        "  br label %header\n"
        "header:\n"
        "  %i = phi i32 [ 0, %entry ], [ %i.next, %body ], [ %i.next, %then ]\n"
        "  %s = phi i32 [ 0, %entry ], [ %s, %body ], [ %s2, %then ]\n"
        "  %more = icmp slt i32 %i, %n\n"
        "  br i1 %more, label %body, label %exit\n"
        "body:\n"
        "  %i.next = add i32 %i, 1\n"
        "  %mine = icmp ult i32 %tid, %i\n"
        "  br i1 %mine, label %then, label %header\n"
        "then:\n"
        "  %s2 = add i32 %s, %i\n"
        "  br label %header\n"
        "exit:\n"
        "  store i32 %s, ptr %slot\n"
        "  ret void\n"
        "}\n",
        "body", "header", 1);
}

/* Calls stay under their condition; the unreachable default of a covering
 * switch is a node whose guard never opens. */
static void test_flatten_calls_and_unreachable(void **state) {
  (void)state;
  check("define internal i32 @sq(i32 %x) {\n"
        "  %r = mul i32 %x, %x\n"
        "  ret i32 %r\n"
        "}\n"
        "define ptx_kernel void @k(ptr %out) {\n"
        "entry:\n"
        "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
        "  %slot = getelementptr i32, ptr %out, i32 %tid\n"
        "  %lane = and i32 %tid, 1\n"
        "  switch i32 %lane, label %never [ i32 0, label %zero\n"
        "                                   i32 1, label %one ]\n"
        "zero:\n"
        "  %s = call i32 @sq(i32 %tid)\n"
        "  br label %join\n"
        "one:\n"
        "  br label %join\n"
        "never:\n"
        "  unreachable\n"
        "join:\n"
        "  %v = phi i32 [ %s, %zero ], [ 1, %one ]\n"
        "  store i32 %v, ptr %slot\n"
        "  ret void\n"
        "}\n",
        "entry", "join", 3);
}

/* An irreducible cycle inside the region is made reducible first. */
static void test_flatten_irreducible(void **state) {
  (void)state;
  flat_fx f;
  flatten_fx(&f,
             "define ptx_kernel void @k(ptr %out, i32 %n) {\n"
             "entry:\n"
             "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
             "  %slot = getelementptr i32, ptr %out, i32 %tid\n"
             "  %c = icmp ult i32 %tid, 8\n"
             "  br i1 %c, label %a, label %b\n"
             "a:\n"
             "  %x = phi i32 [ 0, %entry ], [ %y1, %b ]\n"
             "  %x1 = add i32 %x, 1\n"
             "  %da = icmp slt i32 %x1, %n\n"
             "  br i1 %da, label %b, label %out.b\n"
             "b:\n"
             "  %y = phi i32 [ 5, %entry ], [ %x1, %a ]\n"
             "  %y1 = add i32 %y, 2\n"
             "  %db = icmp slt i32 %y1, %n\n"
             "  br i1 %db, label %a, label %out.b\n"
             "out.b:\n"
             "  %r = phi i32 [ %x1, %a ], [ %y1, %b ]\n"
             "  store i32 %r, ptr %slot\n"
             "  ret void\n"
             "}\n",
             "entry", "out.b");
  assert_int_equal(f.res.made_reducible, 1);
  assert_true(equivalent(f.orig, f.fn) > RUNS / 2);
  free_fx(&f);
}

/* A loop that leaves to two blocks (found / not found) is one node once
 * unify-loop-exits merged its exits: the merge block is a node too, its
 * phis carry the value used after the loop and which exit was taken. */
static const char *two_exit_loop =
    "define ptx_kernel void @k(ptr %out, i32 %n) {\n"
    "entry:\n"
    "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %slot = getelementptr i32, ptr %out, i32 %tid\n"
    "  %c = icmp ult i32 %tid, 40\n"
    "  br i1 %c, label %header, label %join\n"
    "header:\n"
    "  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]\n"
    "  %more = icmp slt i32 %i, %n\n"
    "  br i1 %more, label %body, label %missed\n"
    "body:\n"
    "  %i.next = add i32 %i, 1\n"
    "  %s = add i32 %i, %tid\n"
    "  %m = and i32 %s, 15\n"
    "  %stop = icmp eq i32 %m, 11\n"
    "  br i1 %stop, label %found, label %header\n"
    "missed:\n"
    "  %a = phi i32 [ %i, %header ]\n"
    "  store i32 %a, ptr %slot\n"
    "  br label %join\n"
    "found:\n"
    "  %b = mul i32 %i.next, 3\n"
    "  %lo = getelementptr i32, ptr %slot, i32 64\n"
    "  store i32 %b, ptr %lo\n"
    "  br label %join\n"
    "join:\n"
    "  %r = phi i32 [ -1, %entry ], [ %a, %missed ], [ %b, %found ]\n"
    "  %hi = getelementptr i32, ptr %slot, i32 128\n"
    "  store i32 %r, ptr %hi\n"
    "  ret void\n"
    "}\n";

static void test_flatten_two_exit_loop(void **state) {
  (void)state;
  flat_fx f;
  flatten_fx(&f, two_exit_loop, "entry", "join");
  assert_int_equal(f.res.n, 5); /* header, the merge, missed, found; join */
  assert_ptr_equal(f.res.nodes[0], support_block(f.fn, "header"));
  assert_int_equal(f.res.made_reducible, 0);
  assert_true(equivalent(f.orig, f.fn) > RUNS / 2);
  free_fx(&f);
}

/* ---- placement of the guards and what stays untouched ---- */

static void test_flatten_keeps_debug_locations(void **state) {
  (void)state;
  flat_fx f;
  flatten_fx(&f,
             "define ptx_kernel void @k(ptr %out) !dbg !3 {\n"
             "entry:\n"
             "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
             "  %c = icmp ult i32 %tid, 3\n"
             "  br i1 %c, label %then, label %join, !dbg !5\n"
             "then:\n"
             "  store i32 1, ptr %out, !dbg !6\n"
             "  br label %join, !dbg !6\n"
             "join:\n"
             "  ret void, !dbg !7\n"
             "}\n"
             "!llvm.dbg.cu = !{!0}\n"
             "!llvm.module.flags = !{!2}\n"
             "!0 = distinct !DICompileUnit(language: DW_LANG_C99, file: !1, "
             "emissionKind: LineTablesOnly)\n"
             "!1 = !DIFile(filename: \"k.cu\", directory: \"/\")\n"
             "!2 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
             "!3 = distinct !DISubprogram(name: \"k\", scope: !1, file: !1, "
             "line: 1, type: !4, unit: !0, spFlags: DISPFlagDefinition)\n"
             "!4 = !DISubroutineType(types: !{})\n"
             "!5 = !DILocation(line: 3, column: 7, scope: !3)\n"
             "!6 = !DILocation(line: 4, column: 5, scope: !3)\n"
             "!7 = !DILocation(line: 5, column: 1, scope: !3)\n",
             "entry", "join");
  for (int i = 0; i < f.res.n; i++) {
    aucs_srcloc l =
        aucs_srcloc_of(LLVMGetBasicBlockTerminator(f.res.guards[i]));
    assert_int_equal(l.line, 3);
  }
  aucs_srcloc e =
      aucs_srcloc_of(LLVMGetBasicBlockTerminator(support_block(f.fn, "entry")));
  assert_int_equal(e.line, 3);
  aucs_srcloc t =
      aucs_srcloc_of(LLVMGetBasicBlockTerminator(support_block(f.fn, "then")));
  assert_int_equal(t.line, 4);
  free_fx(&f);
}

/* The instructions of a block as text, without its label line (whose
 * comment lists the predecessors). */
static char *block_text(LLVMValueRef fn, const char *name) {
  char *s =
      LLVMPrintValueToString(LLVMBasicBlockAsValue(support_block(fn, name)));
  char *body = strchr(s + 1, '\n');
  char *r = aucs_xstrdup(body ? body : s);
  LLVMDisposeMessage(s);
  return r;
}

/* Code outside the region is not touched: a second divergent if after
 * the first keeps its text, and no phi appears outside the guards. */
static void test_flatten_no_churn(void **state) {
  (void)state;
  const char *ir = "define ptx_kernel void @k(ptr %out, i32 %n) {\n"
                   "entry:\n"
                   "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  %slot = getelementptr i32, ptr %out, i32 %tid\n"
                   "  %c = icmp slt i32 %tid, %n\n"
                   "  br i1 %c, label %then, label %join\n"
                   "then:\n"
                   "  store i32 1, ptr %slot\n"
                   "  br label %join\n"
                   "join:\n"
                   "  %d = icmp sgt i32 %tid, 4\n"
                   "  br i1 %d, label %then2, label %end\n"
                   "then2:\n"
                   "  store i32 2, ptr %slot\n"
                   "  br label %end\n"
                   "end:\n"
                   "  ret void\n"
                   "}\n";
  LLVMModuleRef m = parse(ir);
  LLVMValueRef fn = support_fn(m, "k");
  const char *untouched[] = {"then", "then2", "end"};
  char *before[3];
  for (int i = 0; i < 3; i++)
    before[i] = block_text(fn, untouched[i]);
  char *err = NULL;
  aucs_flatten_result r;
  assert_int_equal(aucs_flatten_region(fn, support_block_index(fn, "join"),
                                       support_block_index(fn, "end"), &r, &err),
                   AUCS_FLATTEN_OK);
  for (int i = 0; i < 3; i++) {
    char *after = block_text(fn, untouched[i]);
    if (i == 1) /* then2's branch now goes to the final guard */
      assert_non_null(strstr(after, "br label %guard.end"));
    else
      assert_string_equal(before[i], after);
    free(after);
    free(before[i]);
  }
  aucs_flatten_result_free(&r);
  support_free(m);
}

/* ---- limitations: clean errors, function unchanged ---- */

static char *fn_text(LLVMValueRef fn) {
  char *s = LLVMPrintValueToString(fn);
  char *r = aucs_xstrdup(s);
  LLVMDisposeMessage(s);
  return r;
}

static void expect_error(const char *body, const char *u1, const char *u2,
                         aucs_flatten_status want, const char *words) {
  LLVMModuleRef m = parse(body);
  LLVMValueRef fn = support_fn(m, "k");
  char *before = fn_text(fn), *err = NULL;
  aucs_flatten_result r;
  aucs_flatten_status st = aucs_flatten_region(fn, support_block_index(fn, u1),
                                               support_block_index(fn, u2), &r, &err);
  assert_int_equal(st, want);
  assert_non_null(err);
  if (!strstr(err, words))
    print_error("error '%s' lacks '%s'\n", err, words);
  assert_non_null(strstr(err, words));
  char *after = fn_text(fn);
  assert_string_equal(before, after);
  assert_int_equal(r.n, 0);
  free(before);
  free(after);
  free(err);
  support_free(m);
}

static void test_flatten_rejects_return_in_region(void **state) {
  (void)state;
  expect_error("define ptx_kernel void @k(ptr %out) {\n"
               "entry:\n"
               "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
               "  %c = icmp ult i32 %tid, 4\n"
               "  br i1 %c, label %early, label %join\n"
               "early:\n"
               "  ret void\n"
               "join:\n"
               "  ret void\n"
               "}\n",
               "entry", "join", AUCS_FLATTEN_BAD_REGION,
               "%early leaves the function before %join");
}

/* The unchecked flattening (no run on a module clone first: the repair's
 * trials and commits) rewrites fn exactly as the checked one, and fails
 * with the same status. */
static void test_flatten_unchecked_same_result(void **state) {
  (void)state;
  LLVMModuleRef a = parse(diamond), b = parse(diamond);
  LLVMValueRef fa = support_fn(a, "k"), fb = support_fn(b, "k");
  aucs_flatten_result ra, rb;
  char *err = NULL;
  assert_int_equal(aucs_flatten_region(fa, support_block_index(fa, "entry"),
                                       support_block_index(fa, "join"), &ra,
                                       &err),
                   AUCS_FLATTEN_OK);
  assert_int_equal(
      aucs_flatten_region_unchecked(fb, support_block_index(fb, "entry"),
                                    support_block_index(fb, "join"), &rb, &err),
      AUCS_FLATTEN_OK);
  assert_int_equal(ra.n, rb.n);
  char *ta = fn_text(fa), *tb = fn_text(fb);
  assert_string_equal(ta, tb);
  free(ta);
  free(tb);
  aucs_flatten_result_free(&ra);
  aucs_flatten_result_free(&rb);
  support_free(a);
  support_free(b);
  LLVMModuleRef m = parse("define ptx_kernel void @k(ptr %out) {\n"
                          "entry:\n"
                          "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                          "  %c = icmp ult i32 %tid, 4\n"
                          "  br i1 %c, label %early, label %join\n"
                          "early:\n"
                          "  ret void\n"
                          "join:\n"
                          "  ret void\n"
                          "}\n");
  LLVMValueRef fn = support_fn(m, "k");
  assert_int_equal(aucs_flatten_region_unchecked(
                       fn, support_block_index(fn, "entry"),
                       support_block_index(fn, "join"), NULL, &err),
                   AUCS_FLATTEN_BAD_REGION);
  assert_non_null(err);
  free(err);
  support_free(m);
}

static void test_flatten_rejects_side_entry(void **state) {
  (void)state;
  expect_error("define ptx_kernel void @k(ptr %out, i1 %u) {\n"
               "entry:\n"
               "  br i1 %u, label %u1, label %side\n"
               "u1:\n"
               "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
               "  %c = icmp ult i32 %tid, 4\n"
               "  br i1 %c, label %a, label %join\n"
               "side:\n"
               "  br label %a\n"
               "a:\n"
               "  br label %join\n"
               "join:\n"
               "  ret void\n"
               "}\n",
               "u1", "join", AUCS_FLATTEN_BAD_REGION,
               "%a is entered from %side");
}

static void test_flatten_rejects_loop_header_entry(void **state) {
  (void)state;
  expect_error("define ptx_kernel void @k(ptr %out, i32 %n) {\n"
               "entry:\n"
               "  br label %header\n"
               "header:\n"
               "  %i = phi i32 [ 0, %entry ], [ %i.next, %header ]\n"
               "  %i.next = add i32 %i, 1\n"
               "  %more = icmp slt i32 %i.next, %n\n"
               "  br i1 %more, label %header, label %exit\n"
               "exit:\n"
               "  ret void\n"
               "}\n",
               "header", "exit", AUCS_FLATTEN_BAD_REGION, "lies on a cycle");
}

/* ---- finding a region ---- */

static void find(const char *body, const char *block, const char *u1,
                 const char *u2) {
  LLVMModuleRef m = parse(body);
  LLVMValueRef fn = support_fn(m, "k");
  aucs_cfg *cfg = aucs_cfg_build(fn);
  aucs_uniformity *u = aucs_uniform_compute(cfg);
  int a = -1, b = -1;
  int rc = aucs_flatten_find_region(
      cfg, u, aucs_cfg_index(cfg, support_block(fn, block)), &a, &b);
  if (!u1) {
    assert_int_not_equal(rc, 0);
  } else {
    assert_int_equal(rc, 0);
    assert_string_equal(LLVMGetBasicBlockName(cfg->blocks[a]), u1);
    assert_string_equal(LLVMGetBasicBlockName(cfg->blocks[b]), u2);
  }
  aucs_uniform_free(u);
  aucs_cfg_free(cfg);
  support_free(m);
}

static void test_flatten_find_region(void **state) {
  (void)state;
  find(diamond, "then", "entry", "join");
  find(nested, "odd", "entry", "join");
  find(nested, "inner.end", "entry", "join");
  /* a uniform if around a divergent one: the smallest region is inside */
  const char *inner = "define ptx_kernel void @k(ptr %out, i32 %n) {\n"
                      "entry:\n"
                      "  %big = icmp sgt i32 %n, 3\n"
                      "  br i1 %big, label %A, label %end\n"
                      "A:\n"
                      "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                      "  %c = icmp slt i32 %tid, %n\n"
                      "  br i1 %c, label %B, label %C\n"
                      "B:\n"
                      "  store i32 1, ptr %out\n"
                      "  br label %C\n"
                      "C:\n"
                      "  br label %end\n"
                      "end:\n"
                      "  ret void\n"
                      "}\n";
  find(inner, "B", "A", "C");
  /* the body of a loop kept whole is no node of any region */
  find("define ptx_kernel void @k(ptr %out, i32 %n) {\n"
       "entry:\n"
       "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
       "  %c = icmp ult i32 %tid, 4\n"
       "  br i1 %c, label %header, label %join\n"
       "header:\n"
       "  %i = phi i32 [ 0, %entry ], [ %i.next, %body ]\n"
       "  %more = icmp slt i32 %i, %n\n"
       "  br i1 %more, label %body, label %join\n"
       "body:\n"
       "  %i.next = add i32 %i, 1\n"
       "  br label %header\n"
       "join:\n"
       "  ret void\n"
       "}\n",
       "body", NULL, NULL);
  /* a block after a loop with two exits: found, the exits merged later */
  find(two_exit_loop, "found", "entry", "join");
  find(diamond, "entry", NULL, NULL);
}

/* ---- exit flattening: a `ret` under a divergent condition ---- */

static const char *bar_decl =
    "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n";

typedef struct exit_case {
  const char *body;
  const char *fn;  /* the function to edit (default "k") */
  const char *at;  /* a block of the region, found from it; NULL: the
                      region runs from u1 to the merged exit */
  const char *u1;  /* the region's expected start */
  int merged;      /* returns merged into %exit (0: one `ret` already) */
  const char *bar; /* the block whose first instruction is the barrier to
                      keep (keep_in), or NULL: flatten the region only */
} exit_case;

static LLVMValueRef first_insn(LLVMValueRef fn, const char *block) {
  return LLVMGetFirstInstruction(support_block(fn, block));
}

/* The block holding bar is uniform in fn. */
static int uniform_at(LLVMValueRef fn, LLVMValueRef bar) {
  aucs_cfg *cfg = aucs_cfg_build(fn);
  aucs_uniformity *u = aucs_uniform_compute(cfg);
  int b = aucs_cfg_index(cfg, LLVMGetInstructionParent(bar));
  int ok = aucs_uniform_block(u, b);
  aucs_uniform_free(u);
  aucs_cfg_free(cfg);
  return ok;
}

/* Merge the returns, find the region of c->at (it must end at the one
 * return), flatten it (keeping c->bar's barrier in when given), and compare
 * the kernel with the original in the interpreter. */
static void check_exit(const exit_case *c) {
  char *ir = aucs_xasprintf("%s%s", bar_decl, c->body);
  LLVMModuleRef m = parse(ir), clone = LLVMCloneModule(m);
  free(ir);
  LLVMValueRef fn = support_fn(clone, c->fn ? c->fn : "k");
  assert_int_equal(aucs_flatten_unify_exits(fn), c->merged);
  assert_int_equal(aucs_flatten_count_returns(fn), 1);
  aucs_cfg *cfg = aucs_cfg_build(fn);
  aucs_uniformity *u = aucs_uniform_compute(cfg);
  int u1 = support_block_index(fn, c->u1), u2 = cfg->nblocks - 1;
  if (c->at) /* else: the region from u1 to the merged exit */
    assert_int_equal(aucs_flatten_find_region(
                         cfg, u, support_block_index(fn, c->at), &u1, &u2),
                     0);
  assert_int_equal(u1, support_block_index(fn, c->u1));
  LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->blocks[u2]);
  assert_int_equal(LLVMGetInstructionOpcode(t), LLVMRet);
  aucs_uniform_free(u);
  aucs_cfg_free(cfg);
  char *err = NULL;
  aucs_flatten_status st;
  if (c->bar) {
    LLVMValueRef bar = first_insn(fn, c->bar);
    st = aucs_flatten_keep_in(fn, bar, u1, u2, &err);
    if (!st)
      assert_true(uniform_at(fn, bar));
  } else
    st = aucs_flatten_region(fn, u1, u2, NULL, &err);
  if (st)
    print_error("flatten: %s\n", err);
  assert_int_equal(st, AUCS_FLATTEN_OK);
  assert_false(LLVMVerifyFunction(fn, LLVMReturnStatusAction));
  assert_true(equivalent(support_fn(m, "k"), support_fn(clone, "k")) >
              RUNS / 2);
  LLVMDisposeModule(clone);
  support_free(m);
}

#define TID "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
#define SLOT(name, off)                                                        \
  "  %" name " = getelementptr i32, ptr %out, i32 %tid." off "\n"
#define BAR "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"

/* if (tid >= n) return; out[tid] = 1; __syncthreads(); out[tid+64] = 2; */
static void test_flatten_exit_before_first_barrier(void **state) {
  (void)state;
  check_exit(&(exit_case){"define ptx_kernel void @k(ptr %out, i32 %n) {\n"
                          "entry:\n" TID "  %c = icmp sge i32 %tid, %n\n"
                          "  br i1 %c, label %early, label %work\n"
                          "early:\n"
                          "  ret void\n"
                          "work:\n"
                          "  %p = getelementptr i32, ptr %out, i32 %tid\n"
                          "  store i32 1, ptr %p\n"
                          "  br label %sync\n"
                          "sync:\n" BAR
                          "  %q = getelementptr i32, ptr %p, i32 64\n"
                          "  store i32 2, ptr %q\n"
                          "  ret void\n"
                          "}\n",
                          NULL, "sync", "entry", 2, "sync"});
}

/* out[tid] = 1; __syncthreads(); if (tid >= n) return; out[tid+64] = 2;
 * __syncthreads(); out[tid+128] = 3; */
static void test_flatten_exit_between_barriers(void **state) {
  (void)state;
  check_exit(&(exit_case){
      "define ptx_kernel void @k(ptr %out, i32 %n) {\n"
      "entry:\n" TID "  %p = getelementptr i32, ptr %out, i32 %tid\n"
      "  store i32 1, ptr %p\n" BAR "  %c = icmp sge i32 %tid, %n\n"
      "  br i1 %c, label %early, label %work\n"
      "early:\n"
      "  ret void\n"
      "work:\n"
      "  %q = getelementptr i32, ptr %p, i32 64\n"
      "  store i32 2, ptr %q\n"
      "  br label %sync\n"
      "sync:\n" BAR "  %r = getelementptr i32, ptr %p, i32 128\n"
      "  store i32 3, ptr %r\n"
      "  ret void\n"
      "}\n",
      NULL, "sync", "entry", 2, "sync"});
}

/* if (tid < n) { if (tid % 2) return; out[tid] = 1; } else out[tid] = 2;
 * __syncthreads(); out[tid+64] = tid; */
static void test_flatten_exit_nested_ifs(void **state) {
  (void)state;
  check_exit(&(exit_case){
      "define ptx_kernel void @k(ptr %out, i32 %n) {\n"
      "entry:\n" TID "  %p = getelementptr i32, ptr %out, i32 %tid\n"
      "  %c = icmp slt i32 %tid, %n\n"
      "  br i1 %c, label %a, label %else\n"
      "a:\n"
      "  %odd = and i32 %tid, 1\n"
      "  %c2 = icmp ne i32 %odd, 0\n"
      "  br i1 %c2, label %early, label %b\n"
      "early:\n"
      "  ret void\n"
      "b:\n"
      "  store i32 1, ptr %p\n"
      "  br label %sync\n"
      "else:\n"
      "  store i32 2, ptr %p\n"
      "  br label %sync\n"
      "sync:\n" BAR "  %q = getelementptr i32, ptr %p, i32 64\n"
      "  store i32 %tid, ptr %q\n"
      "  ret void\n"
      "}\n",
      NULL, "sync", "entry", 2, "sync"});
}

/* Three returns, one of them after the barrier, with a value computed
 * before the first return stored after the last. */
static void test_flatten_exit_multiple_returns(void **state) {
  (void)state;
  check_exit(&(exit_case){"define ptx_kernel void @k(ptr %out, i32 %n) {\n"
                          "entry:\n" TID "  %sq = mul i32 %tid, %tid\n"
                          "  %p = getelementptr i32, ptr %out, i32 %tid\n"
                          "  %c = icmp sge i32 %tid, %n\n"
                          "  br i1 %c, label %r1, label %a\n"
                          "r1:\n"
                          "  ret void\n"
                          "a:\n"
                          "  %c2 = icmp eq i32 %tid, 5\n"
                          "  br i1 %c2, label %r2, label %sync\n"
                          "r2:\n"
                          "  store i32 7, ptr %p\n"
                          "  ret void\n"
                          "sync:\n" BAR "  %c3 = icmp ugt i32 %tid, 40\n"
                          "  br i1 %c3, label %r3, label %tail\n"
                          "r3:\n"
                          "  ret void\n"
                          "tail:\n"
                          "  store i32 %sq, ptr %p\n"
                          "  ret void\n"
                          "}\n",
                          NULL, "sync", "entry", 4, "sync"});
}

/* The return's condition is loaded data: if (in[tid] < 0) return. */
static void test_flatten_exit_loaded_condition(void **state) {
  (void)state;
  check_exit(&(exit_case){
      "define ptx_kernel void @k(ptr %out, ptr %in) {\n"
      "entry:\n" TID "  %ip = getelementptr i32, ptr %in, i32 %tid\n"
      "  %v = load i32, ptr %ip\n"
      "  %c = icmp slt i32 %v, 0\n"
      "  br i1 %c, label %early, label %sync\n"
      "early:\n"
      "  ret void\n"
      "sync:\n" BAR "  %p = getelementptr i32, ptr %out, i32 %tid\n"
      "  store i32 %v, ptr %p\n"
      "  ret void\n"
      "}\n",
      NULL, "sync", "entry", 2, "sync"});
}

/* if (tid < n) out[tid] = 1; else { __syncthreads(); return; }
 * out[tid+64] = 2: the return after a barrier in the else arm. */
static void test_flatten_exit_after_barrier_in_else(void **state) {
  (void)state;
  check_exit(&(exit_case){"define ptx_kernel void @k(ptr %out, i32 %n) {\n"
                          "entry:\n" TID
                          "  %p = getelementptr i32, ptr %out, i32 %tid\n"
                          "  %c = icmp slt i32 %tid, %n\n"
                          "  br i1 %c, label %then, label %else\n"
                          "then:\n"
                          "  store i32 1, ptr %p\n"
                          "  br label %join\n"
                          "else:\n" BAR "  ret void\n"
                          "join:\n"
                          "  %q = getelementptr i32, ptr %p, i32 64\n"
                          "  store i32 2, ptr %q\n"
                          "  ret void\n"
                          "}\n",
                          NULL, "else", "entry", 2, "else"});
}

/* A uniform early return (if (n < 4) return;) stays a plain jump to the
 * exit: the region starts after it, and no guard tests n < 4. */
static void test_flatten_exit_uniform_return_kept(void **state) {
  (void)state;
  const char *body =
      "define ptx_kernel void @k(ptr %out, i32 %n) {\n"
      "entry:\n" TID "  %u = icmp slt i32 %n, 4\n"
      "  br i1 %u, label %r0, label %go\n"
      "r0:\n"
      "  ret void\n"
      "go:\n"
      "  %c = icmp sge i32 %tid, %n\n"
      "  br i1 %c, label %r1, label %sync\n"
      "r1:\n"
      "  ret void\n"
      "sync:\n" BAR "  %p = getelementptr i32, ptr %out, i32 %tid\n"
      "  store i32 %n, ptr %p\n"
      "  ret void\n"
      "}\n";
  check_exit(&(exit_case){body, NULL, "sync", "go", 3, "sync"});
  char *ir = aucs_xasprintf("%s%s", bar_decl, body);
  LLVMModuleRef m = parse(ir);
  free(ir);
  LLVMValueRef fn = support_fn(m, "k");
  aucs_flatten_unify_exits(fn);
  char *err = NULL;
  aucs_cfg *cfg = aucs_cfg_build(fn);
  aucs_uniformity *u = aucs_uniform_compute(cfg);
  int u1, u2;
  assert_int_equal(aucs_flatten_find_region(
                       cfg, u, support_block_index(fn, "sync"), &u1, &u2),
                   0);
  aucs_uniform_free(u);
  aucs_cfg_free(cfg);
  assert_int_equal(
      aucs_flatten_keep_in(fn, first_insn(fn, "sync"), u1, u2, &err),
      AUCS_FLATTEN_OK);
  /* entry still branches on n < 4, to r0 and on to the exit */
  LLVMValueRef t = LLVMGetBasicBlockTerminator(support_block(fn, "entry"));
  assert_int_equal(LLVMGetNumSuccessors(t), 2);
  assert_ptr_equal(LLVMGetSuccessor(t, 0), support_block(fn, "r0"));
  LLVMValueRef t0 = LLVMGetBasicBlockTerminator(support_block(fn, "r0"));
  assert_ptr_equal(LLVMGetSuccessor(t0, 0), support_block(fn, "exit"));
  support_free(m);
}

/* An early return inside a loop's body: the loop is uniformized (the
 * return clears `active`), then the body flattened through the exit. */
static void test_flatten_exit_in_loop(void **state) {
  (void)state;
  char *ir =
      aucs_xasprintf("%s%s", bar_decl,
                     "define ptx_kernel void @k(ptr %out, i32 %n, i32 %m) {\n"
                     "entry:\n" TID "  br label %head\n"
                     "head:\n"
                     "  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]\n"
                     "  %more = icmp slt i32 %i, %n\n"
                     "  br i1 %more, label %body, label %done\n"
                     "body:\n"
                     "  %x = add i32 %i, %tid\n"
                     "  %c = icmp sge i32 %x, %m\n"
                     "  br i1 %c, label %early, label %work\n"
                     "early:\n"
                     "  ret void\n"
                     "work:\n"
                     "  %row = mul i32 %tid, 5\n"
                     "  %j = lshr i32 %i, 4\n"
                     "  %slot = add i32 %row, %j\n"
                     "  %p = getelementptr i32, ptr %out, i32 %slot\n"
                     "  store i32 %x, ptr %p\n"
                     "  br label %latch\n"
                     "latch:\n"
                     "  %i1 = add i32 %i, 16\n"
                     "  br label %head\n"
                     "done:\n"
                     "  ret void\n"
                     "}\n");
  LLVMModuleRef m = parse(ir), clone = LLVMCloneModule(m);
  free(ir);
  LLVMValueRef fn = support_fn(clone, "k");
  assert_int_equal(aucs_flatten_unify_exits(fn), 2);
  char *err = NULL;
  assert_int_equal(
      aucs_uniformize_loop(fn, support_block_index(fn, "head"), 0, NULL, &err),
      0);
  aucs_cfg *cfg = aucs_cfg_build(fn);
  aucs_uniformity *u = aucs_uniform_compute(cfg);
  int u1, u2;
  assert_int_equal(aucs_flatten_find_region(
                       cfg, u, support_block_index(fn, "work"), &u1, &u2),
                   0);
  aucs_uniform_free(u);
  aucs_cfg_free(cfg);
  assert_int_equal(aucs_flatten_region(fn, u1, u2, NULL, &err), 0);
  assert_false(LLVMVerifyFunction(fn, LLVMReturnStatusAction));
  assert_true(equivalent(support_fn(m, "k"), fn) > RUNS / 2);
  LLVMDisposeModule(clone);
  support_free(m);
}

/* A helper returning a value early (O2 form: the values meet in the
 * merged exit's phi), flattened through its exit; the kernel stores what
 * it returns. */
static void test_flatten_exit_helper_value(void **state) {
  (void)state;
  check_exit(&(exit_case){"define i32 @h(i32 %tid, i32 %n) {\n"
                          "entry:\n"
                          "  %c = icmp sge i32 %tid, %n\n"
                          "  br i1 %c, label %early, label %a\n"
                          "early:\n"
                          "  ret i32 -1\n"
                          "a:\n"
                          "  %odd = and i32 %tid, 1\n"
                          "  %c2 = icmp ne i32 %odd, 0\n"
                          "  br i1 %c2, label %r2, label %b\n"
                          "r2:\n"
                          "  %t3 = mul i32 %tid, 3\n"
                          "  ret i32 %t3\n"
                          "b:\n"
                          "  %sq = mul i32 %tid, %tid\n"
                          "  ret i32 %sq\n"
                          "}\n"
                          "define ptx_kernel void @k(ptr %out, i32 %n) {\n"
                          "entry:\n" TID
                          "  %v = call i32 @h(i32 %tid, i32 %n)\n"
                          "  %p = getelementptr i32, ptr %out, i32 %tid\n"
                          "  store i32 %v, ptr %p\n"
                          "  ret void\n"
                          "}\n",
                          "h", NULL, "entry", 3, NULL});
}

/* The -O0 form: the return value and the locals live in allocas, the early
 * return stores to %retval and jumps to the one `ret` (already merged). */
static void test_flatten_exit_o0_form(void **state) {
  (void)state;
  check_exit(&(exit_case){"define ptx_kernel void @k(ptr %out, i32 %n) {\n"
                          "entry:\n"
                          "  %t.addr = alloca i32\n"
                          "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                          "  store i32 %tid, ptr %t.addr\n"
                          "  %t0 = load i32, ptr %t.addr\n"
                          "  %c = icmp sge i32 %t0, %n\n"
                          "  br i1 %c, label %return, label %if.end\n"
                          "if.end:\n"
                          "  %t1 = load i32, ptr %t.addr\n"
                          "  %p = getelementptr i32, ptr %out, i32 %t1\n"
                          "  store i32 1, ptr %p\n"
                          "  br label %sync\n"
                          "sync:\n" BAR "  %t2 = load i32, ptr %t.addr\n"
                          "  %q = getelementptr i32, ptr %out, i32 %t2\n"
                          "  %q2 = getelementptr i32, ptr %q, i32 64\n"
                          "  store i32 2, ptr %q2\n"
                          "  br label %return\n"
                          "return:\n"
                          "  ret void\n"
                          "}\n",
                          NULL, "sync", "entry", 0, "sync"});
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_flatten_diamond),
      cmocka_unit_test(test_flatten_if_without_else),
      cmocka_unit_test(test_flatten_nested_ifs),
      cmocka_unit_test(test_flatten_multi_exit_dag),
      cmocka_unit_test(test_flatten_switch),
      cmocka_unit_test(test_flatten_value_used_after_join),
      cmocka_unit_test(test_flatten_region_with_loop),
      cmocka_unit_test(test_flatten_gklee),
      cmocka_unit_test(test_flatten_inside_loop),
      cmocka_unit_test(test_flatten_u2_shared),
      cmocka_unit_test(test_flatten_ends_at_back_edge),
      cmocka_unit_test(test_flatten_calls_and_unreachable),
      cmocka_unit_test(test_flatten_irreducible),
      cmocka_unit_test(test_flatten_two_exit_loop),
      cmocka_unit_test(test_flatten_keeps_debug_locations),
      cmocka_unit_test(test_flatten_no_churn),
      cmocka_unit_test(test_flatten_rejects_return_in_region),
      cmocka_unit_test(test_flatten_rejects_side_entry),
      cmocka_unit_test(test_flatten_rejects_loop_header_entry),
      cmocka_unit_test(test_flatten_find_region),
      cmocka_unit_test(test_flatten_exit_before_first_barrier),
      cmocka_unit_test(test_flatten_exit_between_barriers),
      cmocka_unit_test(test_flatten_exit_nested_ifs),
      cmocka_unit_test(test_flatten_exit_multiple_returns),
      cmocka_unit_test(test_flatten_exit_loaded_condition),
      cmocka_unit_test(test_flatten_exit_after_barrier_in_else),
      cmocka_unit_test(test_flatten_exit_uniform_return_kept),
      cmocka_unit_test(test_flatten_exit_in_loop),
      cmocka_unit_test(test_flatten_exit_helper_value),
      cmocka_unit_test(test_flatten_exit_o0_form),
      cmocka_unit_test(test_flatten_unchecked_same_result),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
