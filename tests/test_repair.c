/*
 * test_repair: the placement rules (place.h), the edits, the stable ids and
 * the detect-repair loop (repair.h), on inline .ll kernels run with a
 * fixed launch of one block of 64 threads.
 */
#include "support.h"

#include "aucs/cfg.h"
#include "aucs/editlog.h"
#include "aucs/place.h"
#include "aucs/repair.h"
#include "aucs/uniform.h"

#include <llvm-c/Analysis.h>
#include <string.h>

#define HEAD                                                                   \
  "@s = internal addrspace(3) global [64 x i32] undef\n"                       \
  "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"                             \
  "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n"

/* s[t] = t; out[t] = s[63 - t]: a race, one block, no barrier. */
static const char race_ir[] =
    HEAD "define ptx_kernel void @k(ptr %out) {\n"
         "entry:\n"
         "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
         "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
         "  store i32 %t, ptr addrspace(3) %p\n"
         "  %u = sub i32 63, %t\n"
         "  %q = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %u\n"
         "  %v = load i32, ptr addrspace(3) %q\n"
         "  %o = getelementptr i32, ptr %out, i32 %t\n"
         "  store i32 %v, ptr %o\n"
         "  ret void\n"
         "}\n";

/* The same with the barrier: race-free. */
static const char clean_ir[] =
    HEAD "define ptx_kernel void @k(ptr %out) {\n"
         "entry:\n"
         "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
         "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
         "  store i32 %t, ptr addrspace(3) %p\n"
         "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
         "  %u = sub i32 63, %t\n"
         "  %q = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %u\n"
         "  %v = load i32, ptr addrspace(3) %q\n"
         "  %o = getelementptr i32, ptr %out, i32 %t\n"
         "  store i32 %v, ptr %o\n"
         "  ret void\n"
         "}\n";

/* Odd threads read s[t-1], even ones s[t+1], in the two arms of one if,
 * each writing s[t]: the GKLEE example. */
static const char arms_ir[] = HEAD
    "define ptx_kernel void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %odd = and i32 %t, 1\n"
    "  %c = icmp ne i32 %odd, 0\n"
    "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
    "  br i1 %c, label %then, label %else\n"
    "then:\n"
    "  %tm = sub i32 %t, 1\n"
    "  %pm = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %tm\n"
    "  %a = load i32, ptr addrspace(3) %pm\n"
    "  store i32 %a, ptr addrspace(3) %p\n"
    "  br label %join\n"
    "else:\n"
    "  %tp = add i32 %t, 1\n"
    "  %pp = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %tp\n"
    "  %b = load i32, ptr addrspace(3) %pp\n"
    "  store i32 %b, ptr addrspace(3) %p\n"
    "  br label %join\n"
    "join:\n"
    "  ret void\n"
    "}\n";

/* A read-modify-write of the thread's slot: the store's address is
 * computed right above it; in @k2 the same address is read first. */
static const char rmw_ir[] = HEAD
    "define ptx_kernel void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %tp = add i32 %t, 1\n"
    "  %pp = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %tp\n"
    "  %a = load i32, ptr addrspace(3) %pp\n"
    "  %v = add i32 %a, 1\n"
    "  %i = zext i32 %t to i64\n"
    "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i64 0, i64 %i\n"
    "  store i32 %v, ptr addrspace(3) %p\n"
    "  ret void\n"
    "}\n"
    "define ptx_kernel void @k2(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
    "  %a = load i32, ptr addrspace(3) %p\n"
    "  %v = add i32 %a, 1\n"
    "  store i32 %v, ptr addrspace(3) %p\n"
    "  ret void\n"
    "}\n";

/* A race inside a loop whose trip count is the thread id. */
static const char loop_ir[] =
    HEAD "define ptx_kernel void @k(ptr %out) {\n"
         "entry:\n"
         "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
         "  br label %head\n"
         "head:\n"
         "  %i = phi i32 [ 0, %entry ], [ %n, %body ]\n"
         "  %go = icmp ult i32 %i, %t\n"
         "  br i1 %go, label %body, label %done\n"
         "body:\n"
         "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
         "  store i32 %i, ptr addrspace(3) %p\n"
         "  %u = and i32 %i, 63\n"
         "  %q = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %u\n"
         "  %v = load i32, ptr addrspace(3) %q\n"
         "  %o = getelementptr i32, ptr %out, i32 %t\n"
         "  store i32 %v, ptr %o\n"
         "  %n = add i32 %i, 1\n"
         "  br label %head\n"
         "done:\n"
         "  ret void\n"
         "}\n";

/* A helper holding the store, called twice; only the kernel's call to it
 * is to be inlined. */
static const char calls_ir[] =
    HEAD "define void @put(ptr addrspace(3) %p, i32 %v) noinline {\n"
         "entry:\n"
         "  store i32 %v, ptr addrspace(3) %p\n"
         "  ret void\n"
         "}\n"
         "define void @other(ptr addrspace(3) %p) {\n"
         "entry:\n"
         "  call void @put(ptr addrspace(3) %p, i32 1)\n"
         "  ret void\n"
         "}\n"
         "define ptx_kernel void @k(ptr %out) {\n"
         "entry:\n"
         "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
         "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
         "  call void @put(ptr addrspace(3) %p, i32 %t)\n"
         "  ret void\n"
         "}\n";

static aucs_detect_options one_block(void) {
  aucs_detect_options o = {0};
  o.has_grid = o.has_block = o.has_seed = 1;
  o.grid = (aucs_dim3){1, 1, 1};
  o.block = (aucs_dim3){64, 1, 1};
  o.seed = 3;
  return o;
}

static LLVMValueRef find(LLVMValueRef fn, LLVMOpcode op, int nth) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I))
      if (LLVMGetInstructionOpcode(I) == op && nth-- == 0)
        return I;
  return NULL;
}

static int barriers(LLVMValueRef fn) {
  int n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I))
      n += aucs_place_is_barrier_call(I);
  return n;
}

static void repair(LLVMModuleRef m, aucs_repair_result *r) {
  aucs_detect_options d = one_block();
  aucs_repair_options o = {.detect = &d};
  char *err = NULL;
  assert_int_equal(aucs_repair_run(m, &o, r, &err), 0);
  aucs_repair_ids_strip(m);
  assert_false(LLVMVerifyModule(m, LLVMReturnStatusAction, NULL));
}

static void test_repair_race_free_gets_no_edit(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(clean_ir);
  aucs_repair_result r;
  repair(m, &r);
  assert_int_equal(r.nitems, 0);
  assert_int_equal(r.log.n, 0);
  assert_int_equal(barriers(support_fn(m, "k")), 1);
  aucs_repair_result_free(&r);
  support_free(m);
}

static void test_repair_race_gets_one_barrier(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(race_ir);
  aucs_repair_result r;
  repair(m, &r);
  assert_int_equal(r.nitems, 1);
  assert_int_equal(r.fixed, 1);
  assert_int_equal(r.log.n, 1);
  assert_int_equal(r.log.v[0].kind, AUCS_EDIT_INSERT_BARRIER);
  assert_int_equal(r.items[0].outcome, AUCS_OUTCOME_FIXED);
  LLVMValueRef k = support_fn(m, "k");
  assert_int_equal(barriers(k), 1);
  /* The declaration the module had is reused: no second one. */
  assert_non_null(
      LLVMGetNamedFunction(m, "llvm.nvvm.barrier.cta.sync.aligned.all"));
  /* The barrier sits between the store and the load. */
  LLVMValueRef st = find(k, LLVMStore, 0), ld = find(k, LLVMLoad, 0);
  int seen = 0;
  for (LLVMValueRef I = st; I && I != ld; I = LLVMGetNextInstruction(I))
    seen += aucs_place_is_barrier_call(I);
  assert_int_equal(seen, 1);
  aucs_repair_result_free(&r);
  support_free(m);
}

static void test_repair_ids_are_stable_and_stripped(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(race_ir);
  aucs_repair_ids_assign(m);
  LLVMValueRef st = find(support_fn(m, "k"), LLVMStore, 0);
  unsigned id = aucs_repair_id(st);
  assert_true(id > 0);
  aucs_repair_ids_assign(m);
  assert_int_equal(aucs_repair_id(st), id);
  LLVMModuleRef c = LLVMCloneModule(m);
  assert_int_equal(aucs_repair_id(find(support_fn(c, "k"), LLVMStore, 0)), id);
  LLVMDisposeModule(c);
  aucs_repair_ids_strip(m);
  assert_int_equal(aucs_repair_id(st), 0);
  support_free(m);
}

static void test_place_same_block_is_step_1(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(race_ir);
  LLVMValueRef k = support_fn(m, "k");
  aucs_cfg *g = aucs_cfg_build(k);
  aucs_uniformity *u = aucs_uniform_compute(g);
  LLVMValueRef st = find(k, LLVMStore, 0), ld = find(k, LLVMLoad, 0);
  aucs_place p;
  assert_int_equal(aucs_place_find(g, u, st, ld, &p), AUCS_PLACE_FOUND);
  assert_int_equal(p.step, 1);
  /* Without !dbg there is no statement to move up to: right before B. */
  assert_ptr_equal(p.before, ld);
  assert_true(aucs_place_reaches(g, st, ld));
  assert_false(aucs_place_reaches(g, ld, st));
  aucs_uniform_free(u);
  aucs_cfg_free(g);
  support_free(m);
}

static void test_place_exclusive_arms_need_flattening(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(arms_ir);
  LLVMValueRef k = support_fn(m, "k");
  aucs_cfg *g = aucs_cfg_build(k);
  aucs_uniformity *u = aucs_uniform_compute(g);
  LLVMValueRef a = find(k, LLVMLoad, 0), b = find(k, LLVMStore, 1);
  aucs_place p;
  assert_int_equal(aucs_place_find(g, u, a, b, &p), AUCS_PLACE_FLATTEN);
  assert_int_equal(p.step, 3);
  assert_int_equal(p.entry, 0);
  aucs_uniform_free(u);
  aucs_cfg_free(g);
  support_free(m);
}

static void test_repair_flattens_exclusive_arms(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(arms_ir);
  aucs_repair_result r;
  repair(m, &r);
  assert_true(r.nitems >= 1);
  assert_int_equal(r.fixed, r.nitems);
  int flattened = 0;
  for (size_t i = 0; i < r.log.n; i++)
    flattened += r.log.v[i].kind == AUCS_EDIT_FLATTEN_REGION;
  assert_int_equal(flattened, 1);
  assert_int_equal(barriers(support_fn(m, "k")), 1);
  aucs_repair_result_free(&r);
  support_free(m);
}

/* A race in a loop whose trip count varies by thread: the loop is
 * uniformized (step 4), then the barrier goes inside it. */
static void test_repair_divergent_loop_uniformized(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(loop_ir);
  aucs_repair_result r;
  repair(m, &r);
  assert_true(r.nitems >= 1);
  for (size_t i = 0; i < r.nitems; i++)
    if (!r.items[i].introduced)
      assert_int_equal(r.items[i].outcome, AUCS_OUTCOME_FIXED);
  int uniformized = 0;
  for (size_t i = 0; i < r.log.n; i++)
    uniformized += r.log.v[i].kind == AUCS_EDIT_UNIFORMIZE_LOOP;
  assert_true(uniformized >= 1);
  aucs_repair_result_free(&r);
  support_free(m);
}

/* The same loop calling a helper that executes a barrier cannot be
 * uniformized (guarding the call would make its barrier divergent): the
 * race remains, with that reason. */
static const char loop_helper_ir[] =
    HEAD "define void @sync() noinline {\n"
         "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
         "  ret void\n"
         "}\n"
         "define ptx_kernel void @k(ptr %out) {\n"
         "entry:\n"
         "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
         "  br label %head\n"
         "head:\n"
         "  %i = phi i32 [ 0, %entry ], [ %n, %body ], [ %n, %call ]\n"
         "  %go = icmp ult i32 %i, %t\n"
         "  br i1 %go, label %body, label %done\n"
         "body:\n"
         "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
         "  store i32 %i, ptr addrspace(3) %p\n"
         "  %u = and i32 %i, 63\n"
         "  %q = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %u\n"
         "  %v = load i32, ptr addrspace(3) %q\n"
         "  %o = getelementptr i32, ptr %out, i32 %t\n"
         "  store i32 %v, ptr %o\n"
         "  %n = add i32 %i, 1\n"
         "  %w = icmp eq i32 %i, 1000\n"
         "  br i1 %w, label %call, label %head\n"
         "call:\n"
         "  call void @sync()\n"
         "  br label %head\n"
         "done:\n"
         "  ret void\n"
         "}\n";

/* Limitation: a loop that cannot be uniformized safely is reported with
 * the reason. */
static void test_repair_loop_not_uniformizable(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(loop_helper_ir);
  aucs_repair_result r;
  repair(m, &r);
  int said = 0;
  for (size_t i = 0; i < r.nitems; i++)
    said += r.items[i].outcome != AUCS_OUTCOME_FIXED && r.items[i].how &&
            strstr(r.items[i].how, "cannot be uniformized");
  if (!said)
    for (size_t i = 0; i < r.nitems; i++)
      print_message("item %zu: %s\n", i, r.items[i].how ? r.items[i].how : "");
  assert_true(said >= 1);
  aucs_repair_result_free(&r);
  support_free(m);
}

static void test_place_unfixable_kinds(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(race_ir);
  LLVMValueRef st = find(support_fn(m, "k"), LLVMStore, 0);
  const char *sugg = NULL;
  aucs_finding f = {.kind = AUCS_FINDING_INTER_BLOCK_RACE};
  assert_non_null(aucs_place_unfixable(&f, &sugg));
  assert_non_null(strstr(sugg, "grid"));
  f = (aucs_finding){
      .kind = AUCS_FINDING_RACE, .a = {.instr = st}, .b = {.instr = st}};
  assert_non_null(strstr(aucs_place_unfixable(&f, &sugg), "with itself"));
  assert_non_null(strstr(sugg, "atomic"));
  f.b.instr = find(support_fn(m, "k"), LLVMLoad, 0);
  assert_null(aucs_place_unfixable(&f, &sugg));
  support_free(m);
}

static void test_place_inline_touches_one_call_site(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(calls_ir);
  LLVMValueRef k = support_fn(m, "k"), other = support_fn(m, "other");
  char *err = NULL;
  assert_int_equal(aucs_place_inline(find(k, LLVMCall, 1), &err), 0);
  assert_null(find(k, LLVMCall, 1));
  assert_non_null(find(k, LLVMStore, 0));
  assert_non_null(find(other, LLVMCall, 0));
  assert_non_null(find(support_fn(m, "put"), LLVMStore, 0));
  assert_false(LLVMVerifyModule(m, LLVMReturnStatusAction, NULL));
  support_free(m);
}

static void test_place_split_keeps_the_tail(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(arms_ir);
  LLVMValueRef k = support_fn(m, "k");
  LLVMValueRef st = find(k, LLVMStore, 0);
  LLVMBasicBlockRef then = LLVMGetInstructionParent(st);
  LLVMBasicBlockRef head = aucs_place_split(st);
  assert_ptr_equal(LLVMGetFirstInstruction(then), st);
  assert_ptr_equal(LLVMGetSuccessor(LLVMGetBasicBlockTerminator(head), 0),
                   then);
  assert_false(LLVMVerifyModule(m, LLVMReturnStatusAction, NULL));
  LLVMValueRef bar = aucs_place_insert_barrier(st);
  assert_true(aucs_place_is_barrier_call(bar));
  assert_false(LLVMVerifyModule(m, LLVMReturnStatusAction, NULL));
  support_free(m);
}

/* The arithmetic that only computes the store's address stays with it
 * (the value's add and the load's address do not); an address read above
 * the store moves with the read. */
static void test_place_split_keeps_the_address(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(rmw_ir);
  LLVMValueRef k = support_fn(m, "k"), st = find(k, LLVMStore, 0);
  LLVMBasicBlockRef tail = LLVMGetInstructionParent(st);
  LLVMBasicBlockRef head = aucs_place_split(st);
  LLVMValueRef first = LLVMGetFirstInstruction(tail);
  assert_int_equal(LLVMGetInstructionOpcode(first), LLVMZExt);
  assert_int_equal(LLVMGetInstructionOpcode(LLVMGetNextInstruction(first)),
                   LLVMGetElementPtr);
  assert_ptr_equal(LLVMGetNextInstruction(LLVMGetNextInstruction(first)), st);
  assert_ptr_equal(LLVMGetInstructionParent(find(k, LLVMAdd, 1)), head);
  assert_ptr_equal(LLVMGetInstructionParent(find(k, LLVMLoad, 0)), head);
  LLVMValueRef k2 = support_fn(m, "k2"), st2 = find(k2, LLVMStore, 0);
  LLVMBasicBlockRef tail2 = LLVMGetInstructionParent(st2);
  aucs_place_split(st2);
  assert_ptr_equal(LLVMGetFirstInstruction(tail2), st2);
  assert_false(LLVMVerifyModule(m, LLVMReturnStatusAction, NULL));
  support_free(m);
}

static void test_editlog_prints_every_edit(void **state) {
  (void)state;
  aucs_editlog l = {0};
  aucs_edit e = {.kind = AUCS_EDIT_DELETE_BARRIER,
                 .function = aucs_xstrdup("k"),
                 .where = aucs_xstrdup("in %entry"),
                 .finding = aucs_xstrdup("k.cu:3:1: redundant barrier"),
                 .why = aucs_xstrdup("static proof")};
  aucs_editlog_push(&l, &e);
  aucs_buf b = {0};
  aucs_editlog_print(&l, &b);
  assert_string_equal(b.data, "edit 1: delete-barrier in @k in %entry\n"
                              "  answers: k.cu:3:1: redundant barrier\n"
                              "  why: static proof\n");
  aucs_buf_free(&b);
  aucs_editlog_free(&l);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_repair_race_free_gets_no_edit),
      cmocka_unit_test(test_repair_race_gets_one_barrier),
      cmocka_unit_test(test_repair_ids_are_stable_and_stripped),
      cmocka_unit_test(test_place_same_block_is_step_1),
      cmocka_unit_test(test_place_exclusive_arms_need_flattening),
      cmocka_unit_test(test_repair_flattens_exclusive_arms),
      cmocka_unit_test(test_repair_divergent_loop_uniformized),
      cmocka_unit_test(test_repair_loop_not_uniformizable),
      cmocka_unit_test(test_place_unfixable_kinds),
      cmocka_unit_test(test_place_inline_touches_one_call_site),
      cmocka_unit_test(test_place_split_keeps_the_tail),
      cmocka_unit_test(test_place_split_keeps_the_address),
      cmocka_unit_test(test_editlog_prints_every_edit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
