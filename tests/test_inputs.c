/*
 * test_inputs: parameters flattened into leaves (names from debug info or
 * positions), the user's settings bound to them, --inputs files, and runs
 * whose pointer fields point to buffers of their own.
 */
#include "support.h"

#include "aucs/inputs.h"
#include "aucs/interp.h"
#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

/* struct In { int n; float *q; };
 * struct T { float *ptr; int dims[2]; float scale; struct In in; };
 * __global__ void k(T t, int n), as clang -g emits it without value names.
 */
static const char *const types =
    "%struct.T = type { ptr, [2 x i32], float, %struct.In }\n"
    "%struct.In = type { i32, ptr }\n";

static const char *const debug_ir =
    "define ptx_kernel void @k(ptr byval(%struct.T) align 8 %0, i32 %1) "
    "!dbg !8 {\n"
    "    #dbg_declare(ptr %0, !28, !DIExpression(), !29)\n"
    "    #dbg_value(i32 %1, !30, !DIExpression(), !29)\n"
    "  ret void, !dbg !29\n"
    "}\n"
    "!llvm.dbg.cu = !{!0}\n"
    "!llvm.module.flags = !{!3}\n"
    "!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: "
    "!1, emissionKind: FullDebug)\n"
    "!1 = !DIFile(filename: \"u.cu\", directory: \"/tmp\")\n"
    "!3 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
    "!8 = distinct !DISubprogram(name: \"k\", scope: !1, file: !1, line: 3, "
    "type: !9, spFlags: DISPFlagDefinition, unit: !0, retainedNodes: !27)\n"
    "!9 = !DISubroutineType(types: !10)\n"
    "!10 = !{null, !11, !18}\n"
    "!11 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "
    "\"T\", file: !1, line: 2, size: 320, elements: !12)\n"
    "!12 = !{!13, !16, !21, !22}\n"
    "!13 = !DIDerivedType(tag: DW_TAG_member, name: \"ptr\", scope: !11, "
    "file: !1, line: 2, baseType: !14, size: 64)\n"
    "!14 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !15, size: "
    "64)\n"
    "!15 = !DIBasicType(name: \"float\", size: 32, encoding: "
    "DW_ATE_float)\n"
    "!16 = !DIDerivedType(tag: DW_TAG_member, name: \"dims\", scope: !11, "
    "file: !1, line: 2, baseType: !17, size: 64, offset: 64)\n"
    "!17 = !DICompositeType(tag: DW_TAG_array_type, baseType: !18, size: "
    "64, elements: !19)\n"
    "!18 = !DIBasicType(name: \"int\", size: 32, encoding: "
    "DW_ATE_signed)\n"
    "!19 = !{!20}\n"
    "!20 = !DISubrange(count: 2)\n"
    "!21 = !DIDerivedType(tag: DW_TAG_member, name: \"scale\", scope: !11, "
    "file: !1, line: 2, baseType: !15, size: 32, offset: 128)\n"
    "!22 = !DIDerivedType(tag: DW_TAG_member, name: \"in\", scope: !11, "
    "file: !1, line: 2, baseType: !23, size: 128, offset: 192)\n"
    "!23 = distinct !DICompositeType(tag: DW_TAG_structure_type, name: "
    "\"In\", file: !1, line: 1, size: 128, elements: !24)\n"
    "!24 = !{!25, !26}\n"
    "!25 = !DIDerivedType(tag: DW_TAG_member, name: \"n\", scope: !23, "
    "file: !1, line: 1, baseType: !18, size: 32)\n"
    "!26 = !DIDerivedType(tag: DW_TAG_member, name: \"q\", scope: !23, "
    "file: !1, line: 1, baseType: !14, size: 64, offset: 64)\n"
    "!27 = !{}\n"
    "!28 = !DILocalVariable(name: \"t\", arg: 1, scope: !8, file: !1, line: "
    "3, type: !11)\n"
    "!29 = !DILocation(line: 3, column: 21, scope: !8)\n"
    "!30 = !DILocalVariable(name: \"n\", arg: 2, scope: !8, file: !1, line: "
    "3, type: !18)\n";

static aucs_inputs *describe(const char *body, LLVMModuleRef *m) {
  char *ir = aucs_xasprintf("%s%s", types, body);
  *m = support_parse(ir);
  free(ir);
  return aucs_inputs_describe(support_fn(*m, "k"));
}

static void leaf_is(const aucs_inputs *in, size_t i, const char *name,
                    aucs_param_kind k, int field, uint64_t off, uint64_t elem) {
  assert_true(i < in->n);
  assert_string_equal(in->v[i].p.name, name);
  assert_int_equal(in->v[i].p.kind, k);
  assert_int_equal(in->v[i].field, field);
  assert_int_equal(in->v[i].offset, off);
  assert_int_equal(in->v[i].elem_bytes, elem);
}

static void test_inputs_names_from_debug_info(void **state) {
  (void)state;
  LLVMModuleRef m;
  aucs_inputs *in = describe(debug_ir, &m);
  assert_int_equal(in->nparams, 2);
  assert_string_equal(in->param_names[0], "t");
  assert_string_equal(in->param_names[1], "n");
  assert_int_equal(in->n, 7);
  leaf_is(in, 0, "t.ptr", AUCS_PARAM_POINTER, 1, 0, 4);
  leaf_is(in, 1, "t.dims[0]", AUCS_PARAM_INT, 1, 8, 0);
  leaf_is(in, 2, "t.dims[1]", AUCS_PARAM_INT, 1, 12, 0);
  leaf_is(in, 3, "t.scale", AUCS_PARAM_FLOAT, 1, 16, 0);
  leaf_is(in, 4, "t.in.n", AUCS_PARAM_INT, 1, 24, 0);
  leaf_is(in, 5, "t.in.q", AUCS_PARAM_POINTER, 1, 32, 4);
  leaf_is(in, 6, "n", AUCS_PARAM_INT, 0, 0, 0);
  assert_int_equal(in->v[6].param, 1);
  assert_int_equal(aucs_inputs_find(in, "t.in.n", 6), 4);
  assert_int_equal(aucs_inputs_find(in, "t.in", 4), -1);
  aucs_inputs_free(in);
  support_free(m);
}

static void test_inputs_positional_names(void **state) {
  (void)state;
  LLVMModuleRef m;
  aucs_inputs *in = describe(
      "define ptx_kernel void @k(ptr byval(%struct.T) %0, i32 %1, ptr %2) {\n"
      "  ret void\n"
      "}\n",
      &m);
  assert_int_equal(in->n, 8);
  leaf_is(in, 0, "arg0.f0", AUCS_PARAM_POINTER, 1, 0, 0);
  leaf_is(in, 1, "arg0.f1[0]", AUCS_PARAM_INT, 1, 8, 0);
  leaf_is(in, 5, "arg0.f3.f1", AUCS_PARAM_POINTER, 1, 32, 0);
  leaf_is(in, 6, "arg1", AUCS_PARAM_INT, 0, 0, 0);
  leaf_is(in, 7, "arg2", AUCS_PARAM_POINTER, 0, 0, 0);
  aucs_inputs_free(in);
  support_free(m);
}

static int bind(const aucs_inputs *in, aucs_inputs_values *v, const char *opts,
                char **err) {
  aucs_inputs_user u = {0};
  char *copy = aucs_xstrdup(opts), *save = NULL;
  char *argv[16];
  int argc = 0;
  for (char *w = strtok_r(copy, " ", &save); w && argc < 16;
       w = strtok_r(NULL, " ", &save))
    argv[argc++] = w;
  for (int i = 0; i < argc; i++)
    assert_int_equal(aucs_inputs_option(&u, argc, argv, &i, err), 1);
  const char *name = "k(T, int)";
  aucs_inputs_values_init(v, in);
  int rc = aucs_inputs_bind(&in, &name, v, 1, &u, err);
  aucs_inputs_user_free(&u);
  free(copy);
  return rc;
}

static void test_inputs_bind_fields_and_buffers(void **state) {
  (void)state;
  LLVMModuleRef m;
  aucs_inputs *in = describe(debug_ir, &m);
  aucs_inputs_values v;
  char *err = NULL;
  assert_int_equal(bind(in, &v,
                        "--arg t.dims[1]=-3 --arg t.scale=0.5 --arg n=7 "
                        "--buffer t.ptr=10 --buffer t.in.q=3",
                        &err),
                   0);
  assert_true(v.fixed[2] && v.fixed[3] && v.fixed[6] && !v.fixed[1]);
  assert_int_equal(v.vals[2], 0xfffffffdu);
  assert_int_equal(v.bytes[0], 40); /* 10 floats */
  assert_int_equal(v.bytes[5], 12);
  v.vals[1] = 4;
  char *cmd = aucs_inputs_command(in, &v, v.vals, NULL, NULL);
  assert_string_equal(cmd, " --arg t.dims[0]=4 --arg t.dims[1]=-3 --arg "
                           "t.scale=0.5 --arg t.in.n=0 --arg n=7 --buffer "
                           "t.ptr=10 --buffer t.in.q=3");
  free(cmd);
  aucs_inputs_values_free(&v);
  aucs_inputs_free(in);
  support_free(m);
}

static void test_inputs_bad_names_list_fields(void **state) {
  (void)state;
  LLVMModuleRef m;
  aucs_inputs *in = describe(debug_ir, &m);
  aucs_inputs_values v;
  char *err = NULL;
  assert_int_equal(bind(in, &v, "--arg t.dims=4", &err), -1);
  assert_non_null(strstr(err, "no input 't.dims'"));
  assert_non_null(strstr(err, "t.dims[0] (an integer field)"));
  assert_non_null(strstr(err, "t.in.q (a pointer field)"));
  free(err);
  aucs_inputs_values_free(&v);
  assert_int_equal(bind(in, &v, "--arg t.ptr=4", &err), -1);
  assert_non_null(strstr(err, "--buffer"));
  free(err);
  aucs_inputs_values_free(&v);
  assert_int_equal(bind(in, &v, "--buffer t=4", &err), -1); /* 2 pointers */
  free(err);
  aucs_inputs_values_free(&v);
  assert_int_equal(bind(in, &v, "--arg x=1", &err), -1);
  assert_non_null(strstr(err, "no parameter named 'x'"));
  free(err);
  aucs_inputs_values_free(&v);
  aucs_inputs_free(in);
  support_free(m);
}

/* clang's default -g for a struct whose constructor the module never emits
 * (a class template with a host constructor): only a declaration. Its
 * fields are positional, and the list of the parameter's inputs says how to
 * get names. */
static const char *const declared_ir =
    "define ptx_kernel void @k(ptr byval(%struct.T) align 8 %0, i32 %1) "
    "!dbg !8 {\n"
    "    #dbg_declare(ptr %0, !28, !DIExpression(), !29)\n"
    "  ret void, !dbg !29\n"
    "}\n"
    "!llvm.dbg.cu = !{!0}\n"
    "!llvm.module.flags = !{!3}\n"
    "!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: "
    "!1, emissionKind: FullDebug)\n"
    "!1 = !DIFile(filename: \"u.cu\", directory: \"/tmp\")\n"
    "!3 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
    "!8 = distinct !DISubprogram(name: \"k\", scope: !1, file: !1, line: 3, "
    "type: !9, spFlags: DISPFlagDefinition, unit: !0)\n"
    "!9 = !DISubroutineType(types: !10)\n"
    "!10 = !{null, !11}\n"
    "!11 = !DICompositeType(tag: DW_TAG_structure_type, name: "
    "\"CParam<float>\", file: !1, line: 2, flags: DIFlagFwdDecl)\n"
    "!28 = !DILocalVariable(name: \"in\", arg: 1, scope: !8, file: !1, "
    "line: 3, type: !11)\n"
    "!29 = !DILocation(line: 3, column: 21, scope: !8)\n";

static void test_inputs_declared_struct_hints(void **state) {
  (void)state;
  LLVMModuleRef m;
  aucs_inputs *in = describe(declared_ir, &m);
  assert_string_equal(in->param_names[0], "in");
  assert_string_equal(in->declared_only[0], "CParam<float>");
  assert_null(in->declared_only[1]);
  leaf_is(in, 1, "in.f1[0]", AUCS_PARAM_INT, 1, 8, 0);
  aucs_inputs_values v;
  char *err = NULL;
  assert_int_equal(bind(in, &v, "--arg in.dims[0]=1", &err), -1);
  assert_non_null(strstr(err, "parameter 'in' has: in.f0 (a pointer field)"));
  assert_non_null(strstr(err, "(the debug info only declares "
                              "'CParam<float>', so the fields of 'in' are "
                              "named by position; compile with "
                              "-fstandalone-debug for their names)"));
  free(err);
  aucs_inputs_values_free(&v);
  assert_int_equal(bind(in, &v, "--arg in.f1[0]=1", &err), 0);
  aucs_inputs_values_free(&v);
  aucs_inputs_free(in);
  support_free(m);
}

static void test_inputs_json_file(void **state) {
  (void)state;
  const char *text = "{\"grid\": [2, 3], \"block\": 64, \"args\": {\"n\": 5, "
                     "\"t.scale\": 1.5}, \"buffers\": {\"t.ptr\": 1024}, "
                     "\"dynamic_shared\": 4096}";
  char *path = support_write_file("inputs.json", text, strlen(text));
  aucs_inputs_user u = {0};
  char *err = NULL;
  assert_int_equal(aucs_inputs_read_json(&u, path, &err), 0);
  assert_true(u.has_grid && u.has_block && u.has_dynamic_shared);
  assert_int_equal(u.grid.y, 3);
  assert_int_equal(u.block.x, 64);
  assert_int_equal(u.dynamic_shared, 4096);
  assert_int_equal(u.nargs, 2);
  assert_string_equal(u.args[0].name, "n");
  assert_string_equal(u.args[1].value, "1.5");
  assert_string_equal(u.buffers[0].value, "1024");
  aucs_inputs_user_free(&u);
  free(path);
  text = "{\"grid\": 2, \"argz\": {}}";
  path = support_write_file("bad.json", text, strlen(text));
  assert_int_equal(aucs_inputs_read_json(&u, path, &err), -1);
  assert_non_null(strstr(err, "unknown key \"argz\""));
  free(err);
  aucs_inputs_user_free(&u);
  free(path);
}

/* t.ptr[t.dims[0]] = 1.0: the pointer field points to its own buffer, the
 * field's value comes from the run, the buffer's size bounds it. */
static void test_inputs_run_pointer_field(void **state) {
  (void)state;
  char *ir = aucs_xasprintf(
      "%s%s", types,
      "define ptx_kernel void @k(ptr byval(%struct.T) align 8 %t) {\n"
      "  %p = load ptr, ptr %t\n"
      "  %d = getelementptr i8, ptr %t, i64 8\n"
      "  %i = load i32, ptr %d\n"
      "  %e = sext i32 %i to i64\n"
      "  %a = getelementptr float, ptr %p, i64 %e\n"
      "  store float 1.0, ptr %a\n"
      "  ret void\n"
      "}\n");
  LLVMModuleRef m = support_parse(ir);
  free(ir);
  aucs_prog *p = support_lower(support_fn(m, "k"));
  uint64_t fields[8] = {0, 5}, bytes[8] = {16};
  unsigned char set[8] = {0, 1, 1};
  aucs_run_config c = {.launch = {{1, 1, 1}, {1, 1, 1}},
                       .fields = fields,
                       .fields_set = set,
                       .buffer_bytes = bytes};
  aucs_run_result r = {0};
  assert_int_equal(aucs_interp_run(p, &c, &r), AUCS_RUN_OK);
  assert_int_equal(r.findings.n, 1);
  assert_int_equal(r.findings.v[0].kind, AUCS_FINDING_OUT_OF_BOUNDS);
  aucs_run_result_free(&r);
  fields[1] = 3;
  assert_int_equal(aucs_interp_run(p, &c, &r), AUCS_RUN_OK);
  assert_int_equal(r.findings.n, 0);
  aucs_run_result_free(&r);
  aucs_prog_free(p);
  support_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_inputs_names_from_debug_info),
      cmocka_unit_test(test_inputs_positional_names),
      cmocka_unit_test(test_inputs_bind_fields_and_buffers),
      cmocka_unit_test(test_inputs_bad_names_list_fields),
      cmocka_unit_test(test_inputs_declared_struct_hints),
      cmocka_unit_test(test_inputs_json_file),
      cmocka_unit_test(test_inputs_run_pointer_field),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
