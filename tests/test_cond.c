/*
 * test_cond: exact entry conditions over the branch DAG, their
 * simplification, printing and materialisation.
 */
#include "support.h"

#include "aucs/cfg.h"
#include "aucs/cond.h"
#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <stdlib.h>
#include <string.h>

static const char *decls = "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                           "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n";

typedef struct fx {
  LLVMModuleRef m;
  LLVMValueRef fn;
  aucs_cfg *cfg;
  aucs_conds *conds;
} fx;

static void load(fx *f, const char *body, const char *fn, const char *root) {
  char *ir = aucs_xasprintf("%s%s", decls, body);
  f->m = support_parse(ir);
  free(ir);
  f->fn = support_fn(f->m, fn);
  f->cfg = aucs_cfg_build(f->fn);
  int r = root ? aucs_cfg_index(f->cfg, support_block(f->fn, root)) : 0;
  f->conds = aucs_cond_compute(f->cfg, r);
}

static void unload(fx *f) {
  aucs_cond_free(f->conds);
  aucs_cfg_free(f->cfg);
  support_free(f->m);
}

static int idx(fx *f, const char *block) {
  return aucs_cfg_index(f->cfg, support_block(f->fn, block));
}

static void expect(fx *f, const char *block, const char *want) {
  char *got = aucs_cond_format(f->conds, idx(f, block));
  if (strcmp(got, want))
    print_error("EC(%%%s): got '%s', want '%s'\n", block, got, want);
  assert_string_equal(got, want);
  free(got);
}

/* ---- shapes ---- */

static const char *diamond =
    "define void @k(ptr %p, i32 %n) {\n"
    "entry:\n"
    "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %cmp = icmp slt i32 %tid, %n\n"
    "  br i1 %cmp, label %then, label %else\n"
    "then:\n"
    "  br label %join\n"
    "else:\n"
    "  br label %join\n"
    "join:\n"
    "  ret void\n"
    "}\n";

static void test_cond_diamond(void **state) {
  (void)state;
  fx f;
  load(&f, diamond, "k", NULL);
  expect(&f, "entry", "true");
  expect(&f, "then", "tid.x < n");
  expect(&f, "else", "!(tid.x < n)");
  expect(&f, "join", "true");
  assert_true(aucs_cond_is_true(f.conds, idx(&f, "join")));
  unload(&f);
}

static void test_cond_if_without_else(void **state) {
  (void)state;
  fx f;
  load(&f,
       "define void @k(i32 %n) {\n"
       "entry:\n"
       "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
       "  %cmp = icmp uge i32 %tid, %n\n"
       "  br i1 %cmp, label %then, label %join\n"
       "then:\n"
       "  br label %join\n"
       "join:\n"
       "  ret void\n"
       "}\n",
       "k", NULL);
  expect(&f, "then", "tid.x >= n");
  expect(&f, "join", "true");
  unload(&f);
}

/* The example of the task: else-branch of an if nested in an if. */
static void test_cond_nested_ifs(void **state) {
  (void)state;
  fx f;
  load(&f,
       "define void @k(i32 %n) {\n"
       "entry:\n"
       "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
       "  %c1 = icmp slt i32 %tid, %n\n"
       "  br i1 %c1, label %outer, label %join\n"
       "outer:\n"
       "  %r = srem i32 %tid, 2\n"
       "  %c2 = icmp eq i32 %r, 1\n"
       "  br i1 %c2, label %odd, label %even\n"
       "odd:\n"
       "  br label %inner.end\n"
       "even:\n"
       "  br label %inner.end\n"
       "inner.end:\n"
       "  br label %join\n"
       "join:\n"
       "  ret void\n"
       "}\n",
       "k", NULL);
  expect(&f, "outer", "tid.x < n");
  expect(&f, "odd", "tid.x < n && tid.x % 2 == 1");
  expect(&f, "even", "tid.x < n && !(tid.x % 2 == 1)");
  expect(&f, "inner.end", "tid.x < n");
  expect(&f, "join", "true");
  unload(&f);
}

/* Not a diamond: C is reached from A and from B, each under its own
 * condition. The AuCS paper intersects the predecessors' condition sets
 * ({a, b} and {!a, c}: empty, so "true"), which is wrong; the disjunction
 * is exact. */
static const char *non_diamond = "define void @k(i1 %a, i1 %b, i1 %c) {\n"
                                 "entry:\n"
                                 "  br i1 %a, label %A, label %B\n"
                                 "A:\n"
                                 "  br i1 %b, label %C, label %J\n"
                                 "B:\n"
                                 "  br i1 %c, label %C, label %J\n"
                                 "C:\n"
                                 "  br label %J\n"
                                 "J:\n"
                                 "  ret void\n"
                                 "}\n";

static void test_cond_non_diamond_join(void **state) {
  (void)state;
  fx f;
  load(&f, non_diamond, "k", NULL);
  expect(&f, "A", "a");
  expect(&f, "B", "!a");
  expect(&f, "C", "(a && b) || (!a && c)");
  assert_false(aucs_cond_is_true(f.conds, idx(&f, "C")));
  expect(&f, "J", "true");
  unload(&f);
}

static void test_cond_switch(void **state) {
  (void)state;
  fx f;
  load(&f,
       "define void @k() {\n"
       "entry:\n"
       "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
       "  %lane = urem i32 %tid, 4\n"
       "  switch i32 %lane, label %other [ i32 0, label %low\n"
       "                                   i32 1, label %low\n"
       "                                   i32 2, label %two ]\n"
       "low:\n"
       "  br label %join\n"
       "two:\n"
       "  br label %join\n"
       "other:\n"
       "  br label %join\n"
       "join:\n"
       "  ret void\n"
       "}\n",
       "k", NULL);
  expect(&f, "low", "tid.x % 4 == 0 || tid.x % 4 == 1");
  expect(&f, "two", "tid.x % 4 == 2");
  expect(&f, "other",
         "!(tid.x % 4 == 0) && !(tid.x % 4 == 1) && !(tid.x % 4 == 2)");
  expect(&f, "join", "true");
  unload(&f);
}

/* A switch whose default shares a target with a case. */
static void test_cond_switch_default_shared(void **state) {
  (void)state;
  fx f;
  load(&f,
       "define void @k(i32 %x) {\n"
       "entry:\n"
       "  switch i32 %x, label %a [ i32 7, label %a\n"
       "                            i32 9, label %b ]\n"
       "a:\n"
       "  ret void\n"
       "b:\n"
       "  ret void\n"
       "}\n",
       "k", NULL);
  expect(&f, "a", "!(x == 9)");
  expect(&f, "b", "x == 9");
  unload(&f);
}

static void test_cond_early_return(void **state) {
  (void)state;
  fx f;
  load(&f,
       "define void @k(ptr %p, i32 %n) {\n"
       "entry:\n"
       "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
       "  %out = icmp sge i32 %tid, %n\n"
       "  br i1 %out, label %early, label %work\n"
       "early:\n"
       "  ret void\n"
       "work:\n"
       "  %z = icmp eq i32 %tid, 0\n"
       "  br i1 %z, label %first, label %done\n"
       "first:\n"
       "  store i32 1, ptr %p\n"
       "  br label %done\n"
       "done:\n"
       "  ret void\n"
       "}\n",
       "k", NULL);
  expect(&f, "early", "tid.x >= n");
  expect(&f, "work", "!(tid.x >= n)");
  expect(&f, "first", "!(tid.x >= n) && tid.x == 0");
  expect(&f, "done", "!(tid.x >= n)");
  unload(&f);
}

static const char *loop = "define void @k(ptr %p, i32 %n) {\n"
                          "entry:\n"
                          "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                          "  br label %header\n"
                          "header:\n"
                          "  %i = phi i32 [ 0, %entry ], [ %i.next, %latch ]\n"
                          "  %more = icmp slt i32 %i, %n\n"
                          "  br i1 %more, label %body, label %exit\n"
                          "body:\n"
                          "  %mine = icmp eq i32 %i, %tid\n"
                          "  br i1 %mine, label %then, label %latch\n"
                          "then:\n"
                          "  store i32 %i, ptr %p\n"
                          "  br label %latch\n"
                          "latch:\n"
                          "  %i.next = add i32 %i, 1\n"
                          "  br label %header\n"
                          "exit:\n"
                          "  ret void\n"
                          "}\n";

/* Loop edges are excluded: the header is entered under EC(entry), the
 * body's conditions are those of one iteration, and the loop is one node
 * of the outer DAG, so its exit inherits EC(header). */
static void test_cond_loop_body(void **state) {
  (void)state;
  fx f;
  load(&f, loop, "k", NULL);
  expect(&f, "header", "true");
  expect(&f, "body", "%i < n");
  expect(&f, "then", "%i < n && %i == tid.x");
  expect(&f, "latch", "%i < n");
  expect(&f, "exit", "true");
  unload(&f);
}

static void test_cond_unreachable(void **state) {
  (void)state;
  fx f;
  load(&f,
       "define void @k(i1 %c) {\n"
       "entry:\n"
       "  br i1 %c, label %a, label %b\n"
       "a:\n"
       "  ret void\n"
       "b:\n"
       "  ret void\n"
       "dead:\n"
       "  br label %dead2\n"
       "dead2:\n"
       "  br i1 %c, label %a, label %dead\n"
       "}\n",
       "k", NULL);
  expect(&f, "dead", "false");
  expect(&f, "dead2", "false");
  assert_true(aucs_cond_is_false(f.conds, idx(&f, "dead")));
  /* the unreachable edge dead2 -> a adds nothing */
  expect(&f, "a", "c");
  unload(&f);
}

/* Relative to another root: EC(root) = true, blocks before it false. */
static void test_cond_relative_root(void **state) {
  (void)state;
  fx f;
  load(&f, non_diamond, "k", "A");
  expect(&f, "entry", "false");
  expect(&f, "A", "true");
  expect(&f, "B", "false");
  expect(&f, "C", "b");
  expect(&f, "J", "true");
  unload(&f);
}

/* Hash-consing: equal conditions are one node; x && !x is false. */
static void test_cond_contradiction(void **state) {
  (void)state;
  fx f;
  load(&f,
       "define void @k(i1 %c, i1 %d) {\n"
       "entry:\n"
       "  br i1 %c, label %a, label %j\n"
       "a:\n"
       "  br i1 %c, label %j, label %never\n"
       "never:\n"
       "  br label %j\n"
       "j:\n"
       "  br i1 %d, label %x, label %y\n"
       "x:\n"
       "  ret void\n"
       "y:\n"
       "  ret void\n"
       "}\n",
       "k", NULL);
  expect(&f, "never", "false");
  expect(&f, "j", "true");
  expect(&f, "x", "d");
  unload(&f);
}

/* Arithmetic, casts, unsigned compares, constants on the left, other
 * values by name. */
static void test_cond_printing(void **state) {
  (void)state;
  fx f;
  load(&f,
       "define void @k(ptr %p, i32 %n) {\n"
       "entry:\n"
       "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
       "  %ntid = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
       "  %half = lshr i32 %ntid, 1\n"
       "  %s = sub i32 %half, %tid\n"
       "  %w = zext i32 %s to i64\n"
       "  %c = icmp ugt i64 %w, 3\n"
       "  br i1 %c, label %a, label %b\n"
       "a:\n"
       "  %v = load i32, ptr %p\n"
       "  %m = mul i32 %v, %tid\n"
       "  %d = add i32 %m, 1\n"
       "  %e = icmp ne i32 %d, -1\n"
       "  br i1 %e, label %x, label %b\n"
       "x:\n"
       "  ret void\n"
       "b:\n"
       "  ret void\n"
       "}\n",
       "k", NULL);
  expect(&f, "a", "(ntid.x >> 1) - tid.x > 3");
  expect(&f, "x", "(ntid.x >> 1) - tid.x > 3 && %v * tid.x + 1 != -1");
  unload(&f);
}

/* Materialisation: atoms as they are, negation and junctions built once
 * and reused until reset. */
static void test_cond_emit(void **state) {
  (void)state;
  fx f;
  load(&f, non_diamond, "k", NULL);
  LLVMBasicBlockRef entry = support_block(f.fn, "entry");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(f.m));
  LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(entry));
  LLVMValueRef a = LLVMGetParam(f.fn, 0);
  assert_ptr_equal(aucs_cond_emit(f.conds, idx(&f, "A"), b), a);
  LLVMValueRef nb = aucs_cond_emit(f.conds, idx(&f, "B"), b);
  assert_int_equal(LLVMGetInstructionOpcode(nb), LLVMXor);
  assert_string_equal(LLVMGetValueName(nb), "ec.B");
  LLVMValueRef c = aucs_cond_emit(f.conds, idx(&f, "C"), b);
  assert_int_equal(LLVMGetInstructionOpcode(c), LLVMOr);
  assert_ptr_equal(aucs_cond_emit(f.conds, idx(&f, "B"), b), nb);
  LLVMValueRef t = aucs_cond_emit(f.conds, idx(&f, "J"), b);
  assert_true(LLVMIsAConstantInt(t) && LLVMConstIntGetZExtValue(t) == 1);
  aucs_cond_emit_reset(f.conds);
  assert_ptr_not_equal(aucs_cond_emit(f.conds, idx(&f, "B"), b), nb);
  LLVMDisposeBuilder(b);
  assert_false(LLVMVerifyFunction(f.fn, LLVMReturnStatusAction));
  unload(&f);
}

/* A switch atom becomes `icmp eq`. */
static void test_cond_emit_switch(void **state) {
  (void)state;
  fx f;
  load(&f,
       "define void @k(i32 %x) {\n"
       "entry:\n"
       "  switch i32 %x, label %a [ i32 9, label %b ]\n"
       "a:\n"
       "  ret void\n"
       "b:\n"
       "  ret void\n"
       "}\n",
       "k", NULL);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(f.m));
  LLVMPositionBuilderBefore(
      b, LLVMGetBasicBlockTerminator(support_block(f.fn, "entry")));
  LLVMValueRef v = aucs_cond_emit(f.conds, idx(&f, "b"), b);
  assert_int_equal(LLVMGetInstructionOpcode(v), LLVMICmp);
  assert_int_equal(LLVMGetICmpPredicate(v), LLVMIntEQ);
  assert_ptr_equal(LLVMGetOperand(v, 0), LLVMGetParam(f.fn, 0));
  LLVMDisposeBuilder(b);
  unload(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cond_diamond),
      cmocka_unit_test(test_cond_if_without_else),
      cmocka_unit_test(test_cond_nested_ifs),
      cmocka_unit_test(test_cond_non_diamond_join),
      cmocka_unit_test(test_cond_switch),
      cmocka_unit_test(test_cond_switch_default_shared),
      cmocka_unit_test(test_cond_early_return),
      cmocka_unit_test(test_cond_loop_body),
      cmocka_unit_test(test_cond_unreachable),
      cmocka_unit_test(test_cond_relative_root),
      cmocka_unit_test(test_cond_contradiction),
      cmocka_unit_test(test_cond_printing),
      cmocka_unit_test(test_cond_emit),
      cmocka_unit_test(test_cond_emit_switch),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
