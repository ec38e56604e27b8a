/*
 * test_kernel: kernel discovery by calling convention and by
 * !nvvm.annotations, declarations excluded, module order, no duplicates.
 */
#include "support.h"

#include "aucs/kernel.h"

#include <stdlib.h>
#include <string.h>

/* LLVM 22's IR reader turns "kernel" annotations into ptx_kernel, so the
 * annotation fixtures add their nodes through the C API after parsing. */
static void annotate(LLVMModuleRef m, const char *fn, const char *key,
                     unsigned value) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMMetadataRef ops[] = {
      LLVMValueAsMetadata(support_fn(m, fn)),
      LLVMMDStringInContext2(ctx, "maxntidx", 8),
      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), 64, 0)),
      LLVMMDStringInContext2(ctx, key, strlen(key)),
      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), value, 0)),
  };
  LLVMMetadataRef node = LLVMMDNodeInContext2(ctx, ops, 5);
  LLVMAddNamedMetadataOperand(m, "nvvm.annotations",
                              LLVMMetadataAsValue(ctx, node));
}

/* The kernel list as "a,b,c". */
static void assert_kernels(LLVMModuleRef m, const char *want) {
  LLVMValueRef *ks = NULL;
  size_t n = aucs_kernel_list(m, &ks);
  char got[256] = "";
  for (size_t i = 0; i < n; i++) {
    size_t len;
    const char *name = LLVMGetValueName2(ks[i], &len);
    strcat(got, i ? "," : "");
    strncat(got, name, len);
  }
  assert_string_equal(got, want);
  if (n == 0)
    assert_null(ks);
  free(ks);
}

static void test_kernel_calling_convention(void **state) {
  (void)state;
  LLVMModuleRef m =
      support_parse("define void @helper() { ret void }\n"
                    "define ptx_kernel void @k1() { ret void }\n"
                    "define ptx_kernel void @k2() { ret void }\n");
  assert_true(aucs_kernel_is(support_fn(m, "k1")));
  assert_false(aucs_kernel_is(support_fn(m, "helper")));
  assert_kernels(m, "k1,k2");
  support_free(m);
}

static void test_kernel_annotations(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse("define void @a() { ret void }\n"
                                  "define void @b() { ret void }\n"
                                  "define void @off() { ret void }\n"
                                  "define void @other() { ret void }\n");
  annotate(m, "a", "kernel", 1);
  annotate(m, "b", "kernel", 1);
  annotate(m, "off", "kernel", 0);
  annotate(m, "other", "maxntidy", 1);
  assert_true(aucs_kernel_is(support_fn(m, "a")));
  assert_false(aucs_kernel_is(support_fn(m, "off")));
  assert_false(aucs_kernel_is(support_fn(m, "other")));
  assert_kernels(m, "a,b");
  support_free(m);
}

static void test_kernel_annotations_in_ir_count(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse("define void @a() { ret void }\n"
                                  "define void @b() { ret void }\n"
                                  "!nvvm.annotations = !{!0}\n"
                                  "!0 = !{ptr @b, !\"kernel\", i32 1}\n");
  assert_kernels(m, "b");
  support_free(m);
}

static void test_kernel_declarations_excluded(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse("declare ptx_kernel void @ext()\n"
                                  "declare void @ext2()\n"
                                  "define ptx_kernel void @k() {\n"
                                  "  call void @ext2()\n"
                                  "  ret void\n"
                                  "}\n");
  annotate(m, "ext2", "kernel", 1);
  assert_true(aucs_kernel_is(support_fn(m, "ext")));
  assert_true(aucs_kernel_is(support_fn(m, "ext2")));
  assert_kernels(m, "k");
  support_free(m);
}

static void test_kernel_mixed_module_in_order_without_duplicates(void **s) {
  (void)s;
  LLVMModuleRef m =
      support_parse("define void @z_annotated() { ret void }\n"
                    "define void @helper() { ret void }\n"
                    "define ptx_kernel void @a_cc() { ret void }\n"
                    "define ptx_kernel void @both() { ret void }\n");
  annotate(m, "z_annotated", "kernel", 1);
  annotate(m, "z_annotated", "kernel", 1);
  annotate(m, "both", "kernel", 1);
  assert_kernels(m, "z_annotated,a_cc,both");
  support_free(m);
}

static void test_kernel_none(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse("@g = global i32 0\n"
                                  "define void @f() { ret void }\n");
  assert_kernels(m, "");
  assert_false(aucs_kernel_is(LLVMGetNamedGlobal(m, "g")));
  assert_false(aucs_kernel_is(NULL));
  support_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_kernel_calling_convention),
      cmocka_unit_test(test_kernel_annotations),
      cmocka_unit_test(test_kernel_annotations_in_ir_count),
      cmocka_unit_test(test_kernel_declarations_excluded),
      cmocka_unit_test(test_kernel_mixed_module_in_order_without_duplicates),
      cmocka_unit_test(test_kernel_none),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
