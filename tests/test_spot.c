/*
 * test_spot: the spot a programmer would put a barrier at (repair/spot.c),
 * on small kernels with line locations.
 */
#include "support.h"

#include "aucs/cfg.h"
#include "aucs/place.h"
#include "aucs/spot.h"
#include "aucs/uniform.h"

#include <stdlib.h>

#define HEAD                                                                   \
  "target datalayout = \"e-p:64:64:64-i64:64-v16:16-v32:32-n16:32:64\"\n"      \
  "target triple = \"nvptx64-nvidia-cuda\"\n"                                  \
  "@s = internal addrspace(3) global [64 x i32] undef\n"                       \
  "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"                             \
  "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n"

#define DBG(lines)                                                             \
  "!llvm.dbg.cu = !{!0}\n"                                                     \
  "!llvm.module.flags = !{!2}\n"                                               \
  "!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, "     \
  "emissionKind: LineTablesOnly)\n"                                            \
  "!1 = !DIFile(filename: \"k.cu\", directory: \"/\")\n"                       \
  "!2 = !{i32 2, !\"Debug Info Version\", i32 3}\n"                            \
  "!3 = distinct !DISubprogram(name: \"k\", scope: !1, file: !1, line: 1, "    \
  "spFlags: DISPFlagDefinition, unit: !0)\n" lines

/* s[t] is filled under `if (t < n)` (line 3), then two statements (lines
 * 5, 6), then a loop (line 7) whose body reads a neighbour's slot under an
 * `if` (line 8) and ends in a barrier (line 9): the fill's barrier is
 * missing. */
static const char fill_ir[] =
    HEAD "define ptx_kernel void @k(ptr %out, i32 %n) !dbg !3 {\n"
         "entry:\n"
         "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !12\n"
         "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 "
         "%t, !dbg !13\n"
         "  %in = icmp ult i32 %t, %n, !dbg !13\n"
         "  br i1 %in, label %fill, label %join, !dbg !13\n"
         "fill:\n"
         "  store i32 %t, ptr addrspace(3) %p, !dbg !14\n"
         "  br label %join, !dbg !14\n"
         "join:\n"
         "  %u = add i32 %t, 1, !dbg !15\n"
         "  %w = and i32 %u, 63, !dbg !16\n"
         "  br label %head, !dbg !17\n"
         "head:\n"
         "  %i = phi i32 [ 0, %join ], [ %i1, %latch ], !dbg !17\n"
         "  %go = icmp ult i32 %i, 4, !dbg !17\n"
         "  br i1 %go, label %body, label %done, !dbg !17\n"
         "body:\n"
         "  %odd = and i32 %t, 1, !dbg !18\n"
         "  %c = icmp eq i32 %odd, 0, !dbg !18\n"
         "  br i1 %c, label %read, label %latch, !dbg !18\n"
         "read:\n"
         "  %q = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 "
         "%w, !dbg !19\n"
         "  %v = load i32, ptr addrspace(3) %q, !dbg !19\n"
         "  %o = getelementptr i32, ptr %out, i32 %t, !dbg !19\n"
         "  store i32 %v, ptr %o, !dbg !19\n"
         "  br label %latch, !dbg !19\n"
         "latch:\n"
         "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg "
         "!20\n"
         "  %i1 = add i32 %i, 1, !dbg !17\n"
         "  br label %head, !dbg !17\n"
         "done:\n"
         "  ret void, !dbg !21\n"
         "}\n" DBG("!12 = !DILocation(line: 2, scope: !3)\n"
                   "!13 = !DILocation(line: 3, scope: !3)\n"
                   "!14 = !DILocation(line: 4, scope: !3)\n"
                   "!15 = !DILocation(line: 5, scope: !3)\n"
                   "!16 = !DILocation(line: 6, scope: !3)\n"
                   "!17 = !DILocation(line: 7, scope: !3)\n"
                   "!18 = !DILocation(line: 8, scope: !3)\n"
                   "!19 = !DILocation(line: 9, scope: !3)\n"
                   "!20 = !DILocation(line: 10, scope: !3)\n"
                   "!21 = !DILocation(line: 11, scope: !3)\n");

/* A loop (line 3) whose body computes an index (line 4), reads a slot and
 * writes its own (line 5, one statement), with no barrier: each round's
 * write races with the next round's reads of other threads. */
static const char rounds_ir[] =
    HEAD "define ptx_kernel void @k() !dbg !3 {\n"
         "entry:\n"
         "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !12\n"
         "  br label %head, !dbg !13\n"
         "head:\n"
         "  %i = phi i32 [ 0, %entry ], [ %i1, %body ], !dbg !13\n"
         "  %go = icmp ult i32 %i, 4, !dbg !13\n"
         "  br i1 %go, label %body, label %done, !dbg !13\n"
         "body:\n"
         "  %u = add i32 %t, %i, !dbg !14\n"
         "  %w = and i32 %u, 63, !dbg !14\n"
         "  %q = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 "
         "%w, !dbg !15\n"
         "  %v = load i32, ptr addrspace(3) %q, !dbg !15\n"
         "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 "
         "%t, !dbg !15\n"
         "  store i32 %v, ptr addrspace(3) %p, !dbg !15\n"
         "  %i1 = add i32 %i, 1, !dbg !13\n"
         "  br label %head, !dbg !13\n"
         "done:\n"
         "  ret void, !dbg !16\n"
         "}\n" DBG("!12 = !DILocation(line: 2, scope: !3)\n"
                   "!13 = !DILocation(line: 3, scope: !3)\n"
                   "!14 = !DILocation(line: 4, scope: !3)\n"
                   "!15 = !DILocation(line: 5, scope: !3)\n"
                   "!16 = !DILocation(line: 6, scope: !3)\n");

/* A fill loop (line 3, body line 4) whose exit branches straight to a
 * second loop's header (line 5), whose body reads a neighbour's slot (line
 * 6). The barrier belongs between the loops, on the edge: no statement
 * boundary is there, and one inside either loop would run on every round
 * of a loop that holds only one of the accesses. */
static const char two_loops_ir[] =
    HEAD "define ptx_kernel void @k(ptr %out) !dbg !3 {\n"
         "entry:\n"
         "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !12\n"
         "  br label %fh, !dbg !13\n"
         "fh:\n"
         "  %i = phi i32 [ 0, %entry ], [ %i1, %fb ], !dbg !13\n"
         "  %go = icmp ult i32 %i, 4, !dbg !13\n"
         "  br i1 %go, label %fb, label %rh, !dbg !13\n"
         "fb:\n"
         "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 "
         "%t, !dbg !14\n"
         "  store i32 %i, ptr addrspace(3) %p, !dbg !14\n"
         "  %i1 = add i32 %i, 1, !dbg !13\n"
         "  br label %fh, !dbg !13\n"
         "rh:\n"
         "  %j = phi i32 [ 0, %fh ], [ %j1, %rb ], !dbg !15\n"
         "  %go2 = icmp ult i32 %j, 4, !dbg !15\n"
         "  br i1 %go2, label %rb, label %done, !dbg !15\n"
         "rb:\n"
         "  %u = xor i32 %t, 1, !dbg !16\n"
         "  %q = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 "
         "%u, !dbg !16\n"
         "  %v = load i32, ptr addrspace(3) %q, !dbg !16\n"
         "  %o = getelementptr i32, ptr %out, i32 %t, !dbg !16\n"
         "  store i32 %v, ptr %o, !dbg !16\n"
         "  %j1 = add i32 %j, 1, !dbg !15\n"
         "  br label %rh, !dbg !15\n"
         "done:\n"
         "  ret void, !dbg !17\n"
         "}\n" DBG("!12 = !DILocation(line: 2, scope: !3)\n"
                   "!13 = !DILocation(line: 3, scope: !3)\n"
                   "!14 = !DILocation(line: 4, scope: !3)\n"
                   "!15 = !DILocation(line: 5, scope: !3)\n"
                   "!16 = !DILocation(line: 6, scope: !3)\n"
                   "!17 = !DILocation(line: 7, scope: !3)\n");

/* s[t] is filled (line 3) before a loop (line 4) whose body computes an
 * index (line 5), then reads a neighbour's slot and writes its own (line
 * 6, one statement), with no barrier: the fill races with the first
 * round's read, and each round's write with the next round's read (a
 * sorting network's inner loop after its first compare). */
static const char sweep_ir[] =
    HEAD "define ptx_kernel void @k() !dbg !3 {\n"
         "entry:\n"
         "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x(), !dbg !12\n"
         "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 "
         "%t, !dbg !13\n"
         "  store i32 %t, ptr addrspace(3) %p, !dbg !13\n"
         "  br label %head, !dbg !14\n"
         "head:\n"
         "  %i = phi i32 [ 0, %entry ], [ %i1, %body ], !dbg !14\n"
         "  %go = icmp ult i32 %i, 4, !dbg !14\n"
         "  br i1 %go, label %body, label %done, !dbg !14\n"
         "body:\n"
         "  %u = add i32 %t, %i, !dbg !15\n"
         "  %w = and i32 %u, 63, !dbg !15\n"
         "  %q = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 "
         "%w, !dbg !16\n"
         "  %v = load i32, ptr addrspace(3) %q, !dbg !16\n"
         "  store i32 %v, ptr addrspace(3) %p, !dbg !16\n"
         "  %i1 = add i32 %i, 1, !dbg !14\n"
         "  br label %head, !dbg !14\n"
         "done:\n"
         "  ret void, !dbg !17\n"
         "}\n" DBG("!12 = !DILocation(line: 2, scope: !3)\n"
                   "!13 = !DILocation(line: 3, scope: !3)\n"
                   "!14 = !DILocation(line: 4, scope: !3)\n"
                   "!15 = !DILocation(line: 5, scope: !3)\n"
                   "!16 = !DILocation(line: 6, scope: !3)\n"
                   "!17 = !DILocation(line: 7, scope: !3)\n");

static LLVMValueRef find(LLVMValueRef fn, LLVMOpcode op, int nth) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I))
      if (LLVMGetInstructionOpcode(I) == op && nth-- == 0)
        return I;
  return NULL;
}

/* The spot for the race a/b among fn's racing pairs[0..n), or NULL. */
static LLVMValueRef spot_among(LLVMValueRef fn, LLVMValueRef a, LLVMValueRef b,
                               LLVMValueRef (*pairs)[2], size_t n,
                               LLVMValueRef *first) {
  aucs_cfg *g = aucs_cfg_build(fn);
  aucs_uniformity *u = aucs_uniform_compute(g);
  LLVMValueRef second;
  LLVMValueRef at = aucs_spot_find(g, u, a, b, pairs, n, first, &second);
  aucs_uniform_free(u);
  aucs_cfg_free(g);
  return at;
}

/* The spot for the race a/b of fn's only pair, or NULL. */
static LLVMValueRef spot(LLVMValueRef fn, LLVMValueRef a, LLVMValueRef b,
                         LLVMValueRef *first) {
  LLVMValueRef pairs[1][2] = {{a, b}};
  return spot_among(fn, a, b, pairs, 1, first);
}

static void test_spot_after_a_guarded_fill(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(fill_ir);
  LLVMValueRef k = support_fn(m, "k"), first;
  LLVMValueRef st = find(k, LLVMStore, 0), ld = find(k, LLVMLoad, 0);
  /* Right after the `if`, before line 5: not in the loop (before its
   * read, or at the loop's line), not inside the `if`. */
  LLVMValueRef at = spot(k, ld, st, &first);
  assert_ptr_equal(first, st);
  assert_ptr_equal(LLVMGetInstructionParent(at), support_block(k, "join"));
  assert_ptr_equal(at, LLVMGetFirstInstruction(support_block(k, "join")));
  assert_int_equal(aucs_place_line_of(at), 5);
  support_free(m);
}

static void test_spot_top_of_the_body_across_rounds(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(rounds_ir);
  LLVMValueRef k = support_fn(m, "k"), first;
  LLVMValueRef st = find(k, LLVMStore, 0), ld = find(k, LLVMLoad, 0);
  /* The store reaches the load only round the loop: the top of the body
   * (before line 4), never between the load and the store of line 5 nor in
   * the header before the loop's condition. */
  LLVMValueRef at = spot(k, st, ld, &first);
  assert_ptr_equal(first, st);
  assert_ptr_equal(at, LLVMGetFirstInstruction(support_block(k, "body")));
  assert_int_equal(aucs_place_line_of(at), 4);
  support_free(m);
}

static void test_spot_not_in_a_loop_of_one_access(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(two_loops_ir);
  LLVMValueRef k = support_fn(m, "k"), first;
  /* Neither the end of the fill loop's body nor the top of the reading
   * loop's body: no spot (the candidates of place.h split the edge). */
  assert_null(spot(k, find(k, LLVMStore, 0), find(k, LLVMLoad, 0), &first));
  support_free(m);
}

static void test_spot_top_of_a_racing_loop_after_an_access(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(sweep_ir);
  LLVMValueRef k = support_fn(m, "k"), first;
  LLVMValueRef fill = find(k, LLVMStore, 0), ld = find(k, LLVMLoad, 0),
               st = find(k, LLVMStore, 1);
  LLVMValueRef pairs[2][2] = {{fill, ld}, {st, ld}};
  /* The loop holds only the read of the fill's race, but also a race of
   * its own across rounds: one barrier at the top of its body (before
   * line 5) orders both, not one before the loop and another inside. */
  LLVMValueRef at = spot_among(k, fill, ld, pairs, 2, &first);
  assert_ptr_equal(first, fill);
  assert_ptr_equal(at, LLVMGetFirstInstruction(support_block(k, "body")));
  assert_int_equal(aucs_place_line_of(at), 5);
  support_free(m);
}

static void test_spot_not_in_a_loop_without_its_own_race(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(sweep_ir);
  LLVMValueRef k = support_fn(m, "k"), first;
  LLVMValueRef fill = find(k, LLVMStore, 0), ld = find(k, LLVMLoad, 0);
  /* With no race of the loop's own among the pairs, a barrier inside it
   * would run on every round for nothing: the spot is before the loop
   * (before its line 4 in the entry block). */
  LLVMValueRef at = spot(k, fill, ld, &first);
  assert_ptr_equal(first, fill);
  assert_ptr_equal(LLVMGetInstructionParent(at), support_block(k, "entry"));
  assert_int_equal(aucs_place_line_of(at), 4);
  support_free(m);
}

static void test_spot_needs_locations(void **state) {
  (void)state;
  /* Without !dbg no statement boundary is known: no spot (the repair
   * falls back to place.h's candidates). */
  LLVMModuleRef m = support_parse(
      HEAD "define ptx_kernel void @k() {\n"
           "entry:\n"
           "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
           "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 "
           "%t\n"
           "  store i32 %t, ptr addrspace(3) %p\n"
           "  %u = xor i32 %t, 1\n"
           "  %q = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 "
           "%u\n"
           "  %v = load i32, ptr addrspace(3) %q\n"
           "  ret void\n"
           "}\n");
  LLVMValueRef k = support_fn(m, "k"), first;
  assert_null(spot(k, find(k, LLVMStore, 0), find(k, LLVMLoad, 0), &first));
  support_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_spot_after_a_guarded_fill),
      cmocka_unit_test(test_spot_top_of_the_body_across_rounds),
      cmocka_unit_test(test_spot_not_in_a_loop_of_one_access),
      cmocka_unit_test(test_spot_top_of_a_racing_loop_after_an_access),
      cmocka_unit_test(test_spot_not_in_a_loop_without_its_own_race),
      cmocka_unit_test(test_spot_needs_locations),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
