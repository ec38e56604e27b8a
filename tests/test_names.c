/*
 * test_names: slot numbers and quoting match what llvm-dis-22 prints.
 * The fixture's expected names were read off `llvm-dis-22` output; the
 * cross-check compares against LLVM's AsmWriter (the printer llvm-dis uses)
 * for every instruction and block.
 */
#include "support.h"

#include "aucs/names.h"
#include "aucs/util.h"

#include <stdlib.h>
#include <string.h>

static const char *fixture =
    "@gv = global i32 0\n"
    "@0 = global i32 1\n"
    "declare void @g()\n"
    "declare i32 @h()\n"
    "define void @f(i32 %n, i32 %0, ptr %p, i32 %1) {\n"
    "  %3 = add i32 %0, %1\n"
    "  store i32 %3, ptr %p\n"
    "  %x = mul i32 %3, %n\n"
    "  call void @g()\n"
    "  %4 = call i32 @h()\n"
    "  br label %loop\n"
    "loop:\n"
    "  %i = phi i32 [ 0, %2 ], [ %6, %5 ]\n"
    "  %c = icmp slt i32 %i, %4\n"
    "  br i1 %c, label %5, label %\"exit block\"\n"
    "5:\n"
    "  %6 = add i32 %i, 1\n"
    "  br label %loop\n"
    "\"exit block\":\n"
    "  %\"a b\" = add i32 %x, 1\n"
    "  %7 = add i32 %\"a b\", 2\n"
    "  store i32 %7, ptr @0\n"
    "  ret void\n"
    "}\n"
    "define i32 @second(i32) {\n"
    "  %2 = add i32 %0, 1\n"
    "  ret i32 %2\n"
    "}\n";

static LLVMValueRef nth_instruction(LLVMBasicBlockRef bb, int n) {
  LLVMValueRef I = LLVMGetFirstInstruction(bb);
  while (n-- > 0)
    I = LLVMGetNextInstruction(I);
  return I;
}

static LLVMValueRef nth_param(LLVMValueRef fn, unsigned n) {
  return LLVMGetParam(fn, n);
}

static void test_names_arguments_blocks_and_instructions(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(fixture);
  LLVMValueRef f = support_fn(m, "f");
  aucs_names *n = aucs_names_build(f);
  assert_string_equal(aucs_names_value(n, nth_param(f, 0)), "%n");
  assert_string_equal(aucs_names_value(n, nth_param(f, 1)), "%0");
  assert_string_equal(aucs_names_value(n, nth_param(f, 2)), "%p");
  assert_string_equal(aucs_names_value(n, nth_param(f, 3)), "%1");
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(f);
  assert_string_equal(aucs_names_block(n, entry), "%2");
  assert_string_equal(aucs_names_value(n, nth_instruction(entry, 0)), "%3");
  assert_string_equal(aucs_names_value(n, nth_instruction(entry, 2)), "%x");
  assert_string_equal(aucs_names_value(n, nth_instruction(entry, 4)), "%4");
  LLVMBasicBlockRef body = LLVMGetNextBasicBlock(support_block(f, "loop"));
  assert_string_equal(aucs_names_block(n, support_block(f, "loop")), "%loop");
  assert_string_equal(aucs_names_block(n, body), "%5");
  assert_string_equal(aucs_names_value(n, nth_instruction(body, 0)), "%6");
  LLVMBasicBlockRef exit = support_block(f, "exit block");
  assert_string_equal(aucs_names_block(n, exit), "%\"exit block\"");
  assert_string_equal(aucs_names_value(n, nth_instruction(exit, 0)),
                      "%\"a b\"");
  assert_string_equal(aucs_names_value(n, nth_instruction(exit, 1)), "%7");
  aucs_names_free(n);
  support_free(m);
}

static void test_names_globals_and_constants(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(fixture);
  LLVMValueRef f = support_fn(m, "f");
  aucs_names *n = aucs_names_build(f);
  assert_string_equal(aucs_names_value(n, f), "@f");
  assert_string_equal(aucs_names_value(n, LLVMGetNamedGlobal(m, "gv")), "@gv");
  assert_string_equal(aucs_names_value(n, LLVMGetLastGlobal(m)), "@0");
  LLVMValueRef five =
      LLVMConstInt(LLVMInt32TypeInContext(LLVMGetModuleContext(m)), 5, 0);
  assert_string_equal(aucs_names_value(n, five), "i32 5");
  aucs_names_free(n);
  support_free(m);
}

static void test_names_quotes_like_the_asm_writer(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(
      "define void @\"odd fn\"(i32 %\"a$b\", i32 %\"1x\", i32 %\"q\\22\",\n"
      "                        i32 %x-y.z_, i32 %\"\\C3\\A9\") {\n"
      "  ret void\n"
      "}\n");
  LLVMValueRef f = support_fn(m, "odd fn");
  aucs_names *n = aucs_names_build(f);
  assert_string_equal(aucs_names_value(n, f), "@\"odd fn\"");
  assert_string_equal(aucs_names_value(n, LLVMGetParam(f, 0)), "%\"a$b\"");
  assert_string_equal(aucs_names_value(n, LLVMGetParam(f, 1)), "%\"1x\"");
  assert_string_equal(aucs_names_value(n, LLVMGetParam(f, 2)), "%\"q\\22\"");
  assert_string_equal(aucs_names_value(n, LLVMGetParam(f, 3)), "%x-y.z_");
  assert_string_equal(aucs_names_value(n, LLVMGetParam(f, 4)), "%\"\\C3\\A9\"");
  aucs_names_free(n);
  support_free(m);
}

static void test_names_each_function_counts_from_zero(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(fixture);
  LLVMValueRef f = support_fn(m, "second");
  aucs_names *n = aucs_names_build(f);
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(f);
  assert_string_equal(aucs_names_value(n, LLVMGetParam(f, 0)), "%0");
  assert_string_equal(aucs_names_block(n, entry), "%1");
  assert_string_equal(aucs_names_value(n, nth_instruction(entry, 0)), "%2");
  aucs_names_free(n);
  support_free(m);
}

static void test_names_strings_are_stable(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(fixture);
  LLVMValueRef f = support_fn(m, "f");
  aucs_names *n = aucs_names_build(f);
  const char *first = aucs_names_value(n, LLVMGetParam(f, 1));
  aucs_names_value(n, LLVMGetParam(f, 3));
  assert_ptr_equal(aucs_names_value(n, LLVMGetParam(f, 1)), first);
  assert_string_equal(first, "%0");
  aucs_names_free(n);
  support_free(m);
}

/* "%7" for an instruction printed as "  %7 = add ...", else NULL. */
static char *asm_writer_name(LLVMValueRef I) {
  char *text = LLVMPrintValueToString(I);
  const char *s = text + strspn(text, " ");
  const char *eq = strstr(s, " = ");
  char *name = eq ? aucs_xasprintf("%.*s", (int)(eq - s), s) : NULL;
  LLVMDisposeMessage(text);
  return name;
}

static void check_block_label(aucs_names *n, LLVMBasicBlockRef bb,
                              const char *module_text) {
  const char *name = aucs_names_block(n, bb);
  char *label = aucs_xasprintf("\n%s:", name + 1);
  if (bb != LLVMGetEntryBasicBlock(LLVMGetBasicBlockParent(bb)))
    assert_non_null(strstr(module_text, label));
  free(label);
}

static void test_names_match_the_asm_writer_everywhere(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(fixture);
  char *text = LLVMPrintModuleToString(m);
  int checked = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
       f = LLVMGetNextFunction(f)) {
    aucs_names *n = aucs_names_build(f);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
         bb = LLVMGetNextBasicBlock(bb)) {
      check_block_label(n, bb, text);
      for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
           I = LLVMGetNextInstruction(I)) {
        char *want = asm_writer_name(I);
        if (!want)
          continue;
        assert_string_equal(aucs_names_value(n, I), want);
        free(want);
        checked++;
      }
    }
    aucs_names_free(n);
  }
  assert_int_equal(checked, 9);
  LLVMDisposeMessage(text);
  support_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_names_arguments_blocks_and_instructions),
      cmocka_unit_test(test_names_globals_and_constants),
      cmocka_unit_test(test_names_quotes_like_the_asm_writer),
      cmocka_unit_test(test_names_each_function_counts_from_zero),
      cmocka_unit_test(test_names_strings_are_stable),
      cmocka_unit_test(test_names_match_the_asm_writer_everywhere),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
