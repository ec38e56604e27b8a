/*
 * test_sarif: the SARIF log of reports built by hand (no interpreter):
 * one result per finding with rule, level, locations and related
 * locations; URIs relative to the working directory or absolute file://
 * URIs; possible races left out; unchecked kernels and inputs as
 * notifications.
 */
#include "support.h"

#include "aucs/sarif.h"
#include "aucs/util.h"
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* k.cu lies in <cwd>/sub; the load is code from a header elsewhere (its
 * name with a blank) included into the kernel; the last store has no
 * !dbg. */
static const char *fixture_fmt =
    "@s = internal addrspace(3) global [16 x i32] undef\n"
    "define ptx_kernel void @_Z1kv() !dbg !4 {\n"
    "entry:\n"
    "  store i32 1, ptr addrspace(3) @s, !dbg !10\n"
    "  %%v = load i32, ptr addrspace(3) @s, !dbg !11\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !12\n"
    "  store i32 %%v, ptr addrspace(3) @s\n"
    "  ret void\n"
    "}\n"
    "define ptx_kernel void @_Z1uv() {\n"
    "  ret void\n"
    "}\n"
    "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n"
    "!llvm.dbg.cu = !{!0}\n"
    "!llvm.module.flags = !{!3}\n"
    "!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, "
    "emissionKind: LineTablesOnly)\n"
    "!1 = !DIFile(filename: \"k.cu\", directory: \"%s/sub\")\n"
    "!2 = !DIFile(filename: \"/elsewhere/h x.cuh\", directory: \"/src\")\n"
    "!3 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
    "!4 = distinct !DISubprogram(name: \"k\", scope: !1, file: !1, line: "
    "1, type: !5, unit: !0, spFlags: DISPFlagDefinition)\n"
    "!5 = !DISubroutineType(types: !{})\n"
    "!6 = !DILexicalBlockFile(scope: !4, file: !2, discriminator: 0)\n"
    "!10 = !DILocation(line: 12, column: 5, scope: !4)\n"
    "!11 = !DILocation(line: 8, column: 3, scope: !6)\n"
    "!12 = !DILocation(line: 15, column: 3, scope: !4)\n";

typedef struct fx {
  LLVMModuleRef m;
  LLVMValueRef k, u, store, load, barrier, nodbg;
} fx;

static LLVMValueRef nth(LLVMValueRef fn, int n) {
  LLVMValueRef I = LLVMGetFirstInstruction(LLVMGetFirstBasicBlock(fn));
  while (n-- > 0)
    I = LLVMGetNextInstruction(I);
  return I;
}

static int setup(void **state) {
  char cwd[4096];
  assert_non_null(getcwd(cwd, sizeof cwd));
  char *ir = aucs_xasprintf(fixture_fmt, cwd);
  fx *f = aucs_xcalloc(1, sizeof *f);
  f->m = support_parse(ir);
  free(ir);
  f->k = support_fn(f->m, "_Z1kv");
  f->u = support_fn(f->m, "_Z1uv");
  f->store = nth(f->k, 0);
  f->load = nth(f->k, 1);
  f->barrier = nth(f->k, 2);
  f->nodbg = nth(f->k, 3);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fx *f = *state;
  support_free(f->m);
  free(f);
  return 0;
}

static aucs_finding finding(aucs_finding_kind kind, LLVMValueRef a,
                            LLVMValueRef b) {
  return (aucs_finding){
      .kind = kind,
      .memory = AUCS_MEM_SHARED,
      .object = aucs_xstrdup("s"),
      .a = {.instr = a, .thread = {1, 0, 0}, .op = AUCS_OP_WRITE},
      .b = {.instr = b, .thread = {2, 0, 0}, .op = AUCS_OP_READ},
      .launch = {{1, 1, 1}, {32, 1, 1}},
      .message = aucs_xstrdup("detail"),
  };
}

/* Kernel k: a race (store, load), a redundant barrier, a race whose first
 * access has no !dbg, and a possible race; kernel u: status. */
static void make_report(fx *f, aucs_report *r, aucs_kernel_status u_status) {
  aucs_report_kernel *ks = aucs_xcalloc(2, sizeof(*ks));
  ks[0] = (aucs_report_kernel){.fn = f->k,
                               .name = aucs_xstrdup("_Z1kv"),
                               .demangled = aucs_xstrdup("k()")};
  aucs_finding fs[3] = {
      finding(AUCS_FINDING_RACE, f->store, f->load),
      finding(AUCS_FINDING_REDUNDANT_BARRIER, f->barrier, NULL),
      finding(AUCS_FINDING_RACE, f->nodbg, f->store)};
  for (size_t i = 0; i < 3; i++)
    aucs_findings_push(&ks[0].findings, &fs[i]);
  ks[0].reproduce = aucs_xcalloc(3, sizeof(char *));
  ks[0].reproduce[0] = aucs_xstrdup("aucs detect k.cu --seed 7");
  aucs_finding possible = finding(AUCS_FINDING_RACE, f->load, f->store);
  aucs_findings_push(&ks[0].st.possible, &possible);
  ks[0].st.possible_witness = aucs_xcalloc(1, sizeof(aucs_report_witness));
  ks[1] = (aucs_report_kernel){.fn = f->u,
                               .name = aucs_xstrdup("_Z1uv"),
                               .demangled = aucs_xstrdup("u()"),
                               .status = u_status,
                               .reason = aucs_xstrdup("inline assembly")};
  *r = (aucs_report){
      .input = "k.cu", .version = "1.2.3", .kernels = ks, .nkernels = 2};
}

static void free_report(aucs_report *r) {
  for (size_t i = 0; i < r->nkernels; i++)
    aucs_report_kernel_free(&r->kernels[i]);
  free(r->kernels);
}

static json_t *sarif_of(fx *f, aucs_kernel_status u_status) {
  aucs_report r;
  make_report(f, &r, u_status);
  aucs_buf out = {0};
  aucs_sarif_report(&r, &out);
  json_error_t e;
  json_t *log = json_loads(out.data, 0, &e);
  assert_non_null(log);
  aucs_buf_free(&out);
  free_report(&r);
  return log;
}

/* The value at a path of keys and array indices ("runs/0/tool"), or NULL. */
static json_t *at(json_t *root, const char *path) {
  char *copy = aucs_xstrdup(path), *save = NULL;
  json_t *v = root;
  for (char *k = strtok_r(copy, "/", &save); v && k;
       k = strtok_r(NULL, "/", &save))
    v = json_is_array(v) ? json_array_get(v, (size_t)atoi(k))
                         : json_object_get(v, k);
  free(copy);
  return v;
}

static const char *str(json_t *root, const char *path) {
  return json_string_value(at(root, path));
}

static json_int_t num(json_t *root, const char *path) {
  return json_integer_value(at(root, path));
}

static void test_sarif_log_and_rules(void **state) {
  json_t *log = sarif_of(*state, AUCS_KERNEL_CHECKED);
  assert_string_equal(str(log, "version"), "2.1.0");
  assert_string_equal(str(log, "$schema"),
                      "https://json.schemastore.org/sarif-2.1.0.json");
  assert_int_equal(json_array_size(at(log, "runs")), 1);
  assert_string_equal(str(log, "runs/0/tool/driver/name"), "aucs");
  assert_string_equal(str(log, "runs/0/tool/driver/version"), "1.2.3");
  /* one rule per kind, in finding.def's order: ruleIndex is the kind */
  const char *ids[] = {"race",          "inter-block-race",
                       "barrier-divergence", "redundant-barrier",
                       "out-of-bounds", "unsupported",
                       "scope-race",    "missing-fence",
                       "texture-incoherent"};
  json_t *rules = at(log, "runs/0/tool/driver/rules");
  assert_int_equal(json_array_size(rules), 9);
  for (size_t i = 0; i < 9; i++) {
    assert_string_equal(str(json_array_get(rules, i), "id"), ids[i]);
    assert_non_null(str(json_array_get(rules, i), "shortDescription/text"));
  }
  assert_true(
      json_is_true(at(log, "runs/0/invocations/0/executionSuccessful")));
  json_decref(log);
}

static void test_sarif_result_per_finding(void **state) {
  json_t *log = sarif_of(*state, AUCS_KERNEL_CHECKED);
  json_t *res = at(log, "runs/0/results");
  assert_int_equal(json_array_size(res), 3); /* not the possible race */
  json_t *race = json_array_get(res, 0);
  assert_string_equal(str(race, "ruleId"), "race");
  assert_int_equal(num(race, "ruleIndex"), 0);
  assert_string_equal(str(race, "level"), "error");
  assert_non_null(strstr(str(race, "message/text"), "data race on 's[0]'"));
  assert_string_equal(str(race, "properties/reproduce"),
                      "aucs detect k.cu --seed 7");
  json_t *loc = at(race, "locations/0/physicalLocation");
  assert_string_equal(str(loc, "artifactLocation/uri"), "sub/k.cu");
  assert_string_equal(str(loc, "artifactLocation/uriBaseId"), "%SRCROOT%");
  assert_int_equal(num(loc, "region/startLine"), 12);
  assert_int_equal(num(loc, "region/startColumn"), 5);
  assert_string_equal(str(race, "locations/0/logicalLocations/0/"
                                "fullyQualifiedName"),
                      "k()");
  json_t *rel = at(race, "relatedLocations");
  assert_int_equal(json_array_size(rel), 2);
  assert_int_equal(num(rel, "0/id"), 1);
  assert_string_equal(str(rel, "0/message/text"),
                      "write by thread (1,0,0) block (0,0,0)");
  assert_int_equal(num(rel, "1/id"), 2);
  assert_string_equal(str(rel, "1/physicalLocation/artifactLocation/uri"),
                      "file:///elsewhere/h%20x.cuh");
  assert_null(at(rel, "1/physicalLocation/artifactLocation/uriBaseId"));
  assert_int_equal(num(rel, "1/physicalLocation/region/startLine"), 8);
  json_t *barrier = json_array_get(res, 1);
  assert_string_equal(str(barrier, "ruleId"), "redundant-barrier");
  assert_int_equal(num(barrier, "ruleIndex"), 3);
  assert_string_equal(str(barrier, "level"), "warning");
  assert_int_equal(json_array_size(at(barrier, "relatedLocations")), 1);
  json_decref(log);
}

static void test_sarif_no_dbg_is_a_logical_location(void **state) {
  json_t *log = sarif_of(*state, AUCS_KERNEL_CHECKED);
  json_t *loc = at(log, "runs/0/results/2/locations/0");
  assert_null(at(loc, "physicalLocation"));
  assert_string_equal(str(loc, "logicalLocations/0/fullyQualifiedName"), "k()");
  assert_non_null(strstr(str(loc, "message/text"), "@_Z1kv"));
  json_decref(log);
}

static void test_sarif_unchecked_kernels_are_notifications(void **state) {
  json_t *log = sarif_of(*state, AUCS_KERNEL_UNSUPPORTED);
  json_t *n = at(log, "runs/0/invocations/0/toolExecutionNotifications/0");
  assert_string_equal(str(n, "descriptor/id"), "unsupported");
  assert_string_equal(str(n, "level"), "warning");
  assert_string_equal(str(n, "message/text"),
                      "kernel 'u()' not checked: inline assembly");
  assert_true(
      json_is_true(at(log, "runs/0/invocations/0/executionSuccessful")));
  json_decref(log);
  log = sarif_of(*state, AUCS_KERNEL_ERROR);
  n = at(log, "runs/0/invocations/0/toolExecutionNotifications/0");
  assert_string_equal(str(n, "descriptor/id"), "kernel-error");
  assert_string_equal(str(n, "level"), "error");
  assert_true(
      json_is_false(at(log, "runs/0/invocations/0/executionSuccessful")));
  json_decref(log);
}

/* `aucs check`: fragments of several files and an input error, one run. */
static void test_sarif_partials_merge_into_one_run(void **state) {
  aucs_report r;
  make_report(*state, &r, AUCS_KERNEL_CHECKED);
  aucs_sarif part, all;
  aucs_sarif_begin(&part);
  aucs_sarif_add_report(&part, &r);
  json_t *frag = aucs_sarif_partial(&part);
  aucs_sarif_begin(&all);
  aucs_sarif_add_partial(&all, frag);
  aucs_sarif_add_input_error(&all, "bad dir/x.cu", "x.cu: does not compile");
  aucs_sarif_add_partial(&all, frag);
  aucs_buf out = {0};
  aucs_sarif_end(&all, "1.2.3", &out);
  json_t *log = json_loads(out.data, 0, NULL);
  assert_int_equal(json_array_size(at(log, "runs")), 1);
  assert_int_equal(json_array_size(at(log, "runs/0/results")), 6);
  json_t *n = at(log, "runs/0/invocations/0/toolExecutionNotifications/0");
  assert_string_equal(str(n, "descriptor/id"), "input-error");
  assert_string_equal(
      str(n, "locations/0/physicalLocation/artifactLocation/uri"),
      "bad%20dir/x.cu");
  assert_true(
      json_is_false(at(log, "runs/0/invocations/0/executionSuccessful")));
  json_decref(log);
  json_decref(frag);
  aucs_buf_free(&out);
  free_report(&r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test_setup_teardown(test_sarif_log_and_rules, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_sarif_result_per_finding, setup,
                                      teardown),
      cmocka_unit_test_setup_teardown(test_sarif_no_dbg_is_a_logical_location,
                                      setup, teardown),
      cmocka_unit_test_setup_teardown(
          test_sarif_unchecked_kernels_are_notifications, setup, teardown),
      cmocka_unit_test_setup_teardown(test_sarif_partials_merge_into_one_run,
                                      setup, teardown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
