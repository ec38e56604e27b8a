/*
 * test_srcloc: locations from !dbg, and the `@kernel %block #n` fallback.
 */
#include "support.h"

#include "aucs/srcloc.h"

#include <stdlib.h>
#include <string.h>

static const char *fixture =
    "define ptx_kernel void @k(ptr %p, i1 %c) !dbg !4 {\n"
    "entry:\n"
    "  %v = load i32, ptr %p, !dbg !10\n"
    "  %w = add i32 %v, 1\n"
    "  store i32 %w, ptr %p, !dbg !11\n"
    "  br i1 %c, label %0, label %done, !dbg !12\n"
    "0:\n"
    "  store i32 0, ptr %p\n"
    "  br label %done\n"
    "done:\n"
    "  ret void, !dbg !13\n"
    "}\n"
    "!llvm.dbg.cu = !{!0}\n"
    "!llvm.module.flags = !{!2}\n"
    "!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: "
    "!1, emissionKind: FullDebug)\n"
    "!1 = !DIFile(filename: \"k.cu\", directory: \"/src\")\n"
    "!2 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
    "!3 = !DISubroutineType(types: !{})\n"
    "!4 = distinct !DISubprogram(name: \"k\", scope: !1, file: !1, line: 10, "
    "type: !3, unit: !0, spFlags: DISPFlagDefinition)\n"
    "!10 = !DILocation(line: 12, column: 5, scope: !4)\n"
    "!11 = !DILocation(line: 11, column: 0, scope: !4)\n"
    "!12 = !DILocation(line: 14, column: 3, scope: !4)\n"
    "!13 = !DILocation(line: 0, scope: !4)\n";

static LLVMValueRef nth_instruction(LLVMBasicBlockRef bb, int n) {
  LLVMValueRef I = LLVMGetFirstInstruction(bb);
  while (n-- > 0)
    I = LLVMGetNextInstruction(I);
  return I;
}

static void assert_format(LLVMValueRef I, const char *want) {
  char *got = aucs_srcloc_format(I);
  assert_string_equal(got, want);
  free(got);
}

static void test_srcloc_of_reads_dbg(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(fixture);
  LLVMBasicBlockRef entry = support_block(support_fn(m, "k"), "entry");
  aucs_srcloc loc = aucs_srcloc_of(nth_instruction(entry, 0));
  assert_non_null(loc.file);
  assert_int_equal(loc.file_len, 4);
  assert_memory_equal(loc.file, "k.cu", 4);
  assert_int_equal(loc.line, 12);
  assert_int_equal(loc.col, 5);
  support_free(m);
}

static void test_srcloc_of_without_dbg(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(fixture);
  LLVMValueRef k = support_fn(m, "k");
  aucs_srcloc loc =
      aucs_srcloc_of(nth_instruction(support_block(k, "entry"), 1));
  assert_null(loc.file);
  assert_int_equal(loc.line, 0);
  loc = aucs_srcloc_of(LLVMGetParam(k, 0));
  assert_null(loc.file);
  assert_int_equal(loc.line, 0);
  support_free(m);
}

static void test_srcloc_format_file_line_col(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(fixture);
  LLVMBasicBlockRef entry = support_block(support_fn(m, "k"), "entry");
  assert_format(nth_instruction(entry, 0), "k.cu:12:5");
  assert_format(nth_instruction(entry, 3), "k.cu:14:3");
  assert_format(nth_instruction(entry, 2), "k.cu:11"); /* no column */
  support_free(m);
}

static void test_srcloc_format_falls_back_to_block(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(fixture);
  LLVMValueRef k = support_fn(m, "k");
  assert_format(nth_instruction(support_block(k, "entry"), 1), "@k %entry #0");
  LLVMBasicBlockRef second = LLVMGetNextBasicBlock(support_block(k, "entry"));
  assert_format(LLVMGetFirstInstruction(second), "@k %0 #1");
  /* line 0 is LLVM's "no particular line" */
  assert_format(LLVMGetFirstInstruction(support_block(k, "done")),
                "@k %done #2");
  support_free(m);
}

static void test_srcloc_block_lines(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(fixture);
  LLVMValueRef k = support_fn(m, "k");
  unsigned first = 99, last = 99;
  aucs_srcloc_block_lines(support_block(k, "entry"), &first, &last);
  assert_int_equal(first, 11);
  assert_int_equal(last, 14); /* the terminator's line counts */
  aucs_srcloc_block_lines(LLVMGetNextBasicBlock(support_block(k, "entry")),
                          &first, &last);
  assert_int_equal(first, 0);
  assert_int_equal(last, 0);
  support_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_srcloc_of_reads_dbg),
      cmocka_unit_test(test_srcloc_of_without_dbg),
      cmocka_unit_test(test_srcloc_format_file_line_col),
      cmocka_unit_test(test_srcloc_format_falls_back_to_block),
      cmocka_unit_test(test_srcloc_block_lines),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
