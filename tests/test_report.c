/*
 * test_report: object names, and the text and JSON reports
 * on findings built by hand (no interpreter involved).
 */
#include "support.h"

#include "aucs/detect.h"
#include "aucs/report.h"
#include "aucs/util.h"
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static const char *fixture =
    "@s_tile = internal addrspace(3) global [16 x float] undef\n"
    "@m = internal addrspace(3) global [4 x [8 x i32]] undef\n"
    "define ptx_kernel void @_Z4tilePfi(ptr %in, i32 %n) !dbg !4 {\n"
    "entry:\n"
    "  %p = getelementptr float, ptr %in, i32 %n\n"
    "  %v = load float, ptr %p, !dbg !10\n"
    "  store float %v, ptr addrspace(3) @s_tile, !dbg !11\n"
    "  %w = load float, ptr addrspace(3) @s_tile, !dbg !12\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0), !dbg !13\n"
    "  store i32 0, ptr addrspace(3) @m\n"
    "  ret void\n"
    "}\n"
    "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n"
    "!llvm.dbg.cu = !{!0}\n"
    "!llvm.module.flags = !{!3}\n"
    "!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus, file: !1, "
    "emissionKind: LineTablesOnly)\n"
    "!1 = !DIFile(filename: \"k.cu\", directory: \"/src\")\n"
    "!3 = !{i32 2, !\"Debug Info Version\", i32 3}\n"
    "!4 = distinct !DISubprogram(name: \"tile\", scope: !1, file: !1, line: "
    "1, type: !5, unit: !0, spFlags: DISPFlagDefinition)\n"
    "!5 = !DISubroutineType(types: !{})\n"
    "!10 = !DILocation(line: 3, column: 9, scope: !4)\n"
    "!11 = !DILocation(line: 12, column: 5, scope: !4)\n"
    "!12 = !DILocation(line: 14, column: 9, scope: !4)\n"
    "!13 = !DILocation(line: 15, column: 3, scope: !4)\n";

typedef struct fx {
  LLVMModuleRef m;
  LLVMValueRef fn, load_in, store_tile, load_tile, barrier, store_m;
} fx;

static LLVMValueRef nth(LLVMValueRef fn, int n) {
  LLVMValueRef I = LLVMGetFirstInstruction(LLVMGetFirstBasicBlock(fn));
  while (n-- > 0)
    I = LLVMGetNextInstruction(I);
  return I;
}

static int setup(void **state) {
  fx *f = aucs_xcalloc(1, sizeof *f);
  f->m = support_parse(fixture);
  f->fn = support_fn(f->m, "_Z4tilePfi");
  f->load_in = nth(f->fn, 1);
  f->store_tile = nth(f->fn, 2);
  f->load_tile = nth(f->fn, 3);
  f->barrier = nth(f->fn, 4);
  f->store_m = nth(f->fn, 5);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fx *f = *state;
  support_free(f->m);
  free(f);
  return 0;
}

/* ---- objects and headlines ----------------------------------------------*/

static aucs_finding race(fx *f, const char *object, uint64_t offset) {
  return (aucs_finding){
      .kind = AUCS_FINDING_RACE,
      .memory = AUCS_MEM_SHARED,
      .object = (char *)object,
      .offset = offset,
      .a = {f->store_tile, {3, 0, 0}, {0, 0, 0}, AUCS_OP_WRITE, 4},
      .b = {f->load_tile, {4, 0, 0}, {0, 0, 0}, AUCS_OP_READ, 4},
      .epoch = 2,
      .launch = {{1, 1, 1}, {64, 1, 1}},
      .args = (char *)"n=100",
  };
}

static void expect_object(const aucs_finding *f, const char *want) {
  char *got = aucs_report_object(f);
  assert_string_equal(got, want);
  free(got);
}

static void test_report_object_elements(void **state) {
  fx *f = *state;
  aucs_finding r = race(f, "s_tile", 12);
  expect_object(&r, "s_tile[3]");
  r = race(f, "m", 4 * (8 * 1 + 2));
  expect_object(&r, "m[1][2]");
  r = race(f, "m", 4 * 3 + 2);
  expect_object(&r, "m[0][3]+2");
  r = race(f, "in", 8); /* a buffer: typed by the access (a load of float) */
  r.a.instr = f->load_in;
  expect_object(&r, "in[2]");
  r.offset = 6;
  expect_object(&r, "in+6");
  r = race(f, "_ZZ9block_sumPKfPfiE4smem", 0);
  expect_object(&r, "smem[0]"); /* typed by the access */
  r = race(f, "_ZZ9block_sumILi128EEvPfPKfE4smem_0", 0);
  expect_object(&r, "smem[0]"); /* a template's local static */
  r = race(f, "_ZN4cuda5tableE", 0);
  expect_object(&r, "cuda::table[0]");
  r.object = NULL;
  expect_object(&r, "memory[0]");
}

static void test_report_headlines(void **state) {
  fx *f = *state;
  aucs_finding r = race(f, "s_tile", 12);
  char *h = aucs_report_headline(&r);
  assert_string_equal(h, "data race on 's_tile[3]' (shared)");
  free(h);
  r.kind = AUCS_FINDING_INTER_BLOCK_RACE;
  r.memory = AUCS_MEM_GLOBAL;
  h = aucs_report_headline(&r);
  assert_string_equal(h, "inter-block data race on 's_tile[3]' (global)");
  free(h);
  r.kind = AUCS_FINDING_OUT_OF_BOUNDS;
  h = aucs_report_headline(&r);
  assert_string_equal(h, "out-of-bounds write of 's_tile[3]' (global)");
  free(h);
}

/* ---- text ---------------------------------------------------------------*/

static aucs_report_kernel kernel(fx *f) {
  aucs_report_kernel k = {
      .fn = f->fn,
      .name = aucs_xstrdup("_Z4tilePfi"),
      .demangled = aucs_xstrdup("tile(float*, int)"),
      .launch = {{1, 1, 1}, {64, 1, 1}},
      .args = aucs_xstrdup("n=100"),
      .runs = 3,
      .thread_instructions = 1234,
      .seconds = 0.5,
  };
  return k;
}

static void add(aucs_report_kernel *k, aucs_finding f, const char *repro) {
  f.object = f.object ? aucs_xstrdup(f.object) : NULL;
  f.args = f.args ? aucs_xstrdup(f.args) : NULL;
  f.message = f.message ? aucs_xstrdup(f.message) : NULL;
  aucs_findings_push(&k->findings, &f);
  k->reproduce =
      aucs_xrealloc(k->reproduce, k->findings.n * sizeof(*k->reproduce));
  k->reproduce[k->findings.n - 1] = repro ? aucs_xstrdup(repro) : NULL;
}

static const char *repro = "aucs detect k.ll --kernel _Z4tilePfi --grid "
                           "1,1,1 --block 64,1,1 --arg n=100 --seed 7";

static void test_report_text_race(void **state) {
  fx *f = *state;
  aucs_report_kernel k = kernel(f);
  add(&k, race(f, "s_tile", 12), repro);
  aucs_report r = {
      .input = "k.ll", .version = "0.1.0", .kernels = &k, .nkernels = 1};
  aucs_buf out = {0};
  aucs_report_text(&r, &out);
  const char *want =
      "k.cu:12:5: error: data race on 's_tile[3]' (shared)\n"
      "k.cu:12:5: note: write by thread (3,0,0) block (0,0,0)\n"
      "k.cu:14:9: note: conflicts with read by thread (4,0,0) block (0,0,0) "
      "in the same barrier interval (epoch 2)\n"
      "note: launch: grid (1,1,1) block (64,1,1) n=100\n"
      "note: reproduce with: aucs detect k.ll --kernel _Z4tilePfi --grid "
      "1,1,1 --block 64,1,1 --arg n=100 --seed 7\n"
      "aucs: 1 finding in 1 kernel (1 checked)\n";
  assert_string_equal(out.data, want);
  aucs_buf_free(&out);
  aucs_report_kernel_free(&k);
}

static json_t *parse(const char *text);

/* A race across releases of threads that wait at different barriers:
 * the accesses may lie in different epochs, and the text says why no
 * barrier orders them. */
static void test_report_text_race_across_divergence(void **state) {
  fx *f = *state;
  aucs_report_kernel k = kernel(f);
  aucs_finding x = race(f, "s_tile", 12);
  x.apart = 1;
  add(&k, x, repro);
  aucs_report r = {
      .input = "k.ll", .version = "0.1.0", .kernels = &k, .nkernels = 1};
  aucs_buf out = {0};
  aucs_report_text(&r, &out);
  assert_non_null(strstr(out.data,
                         "k.cu:14:9: note: conflicts with read by thread "
                         "(4,0,0) block (0,0,0) with no barrier between them "
                         "that both threads passed together (epochs 1-2, "
                         "where a release of threads waiting at different "
                         "barriers orders nothing)\n"));
  assert_null(strstr(out.data, "same barrier interval"));
  aucs_buf_free(&out);
  aucs_report_json(&r, &out);
  json_t *j = parse(out.data);
  json_t *fd = json_array_get(
      json_object_get(json_array_get(json_object_get(j, "kernels"), 0),
                      "findings"),
      0);
  assert_int_equal(json_integer_value(json_object_get(fd, "epoch")), 2);
  assert_int_equal(json_integer_value(json_object_get(fd, "epoch_from")), 1);
  json_decref(j);
  aucs_buf_free(&out);
  aucs_report_kernel_free(&k);
}

static void test_report_text_barriers_and_status(void **state) {
  fx *f = *state;
  aucs_report_kernel k = kernel(f);
  aucs_finding d = {
      .kind = AUCS_FINDING_BARRIER_DIVERGENCE,
      .a = {f->barrier, {0, 0, 0}, {1, 0, 0}, AUCS_OP_READ, 0},
      .b = {NULL, {32, 0, 0}, {1, 0, 0}, AUCS_OP_READ, 0},
      .epoch = 1,
  };
  add(&k, d, NULL);
  aucs_finding red = {.kind = AUCS_FINDING_REDUNDANT_BARRIER,
                      .a = {.instr = f->barrier},
                      .message = (char *)"it never ordered anything"};
  add(&k, red, repro);
  k.status = AUCS_KERNEL_ERROR;
  k.reason = aucs_xstrdup("kernel 'tile(float*, int)': step budget exceeded");
  aucs_report r = {.kernels = &k, .nkernels = 1, .stats = 1};
  aucs_buf out = {0};
  aucs_report_text(&r, &out);
  assert_non_null(strstr(out.data,
                         "k.cu:15:3: error: barrier divergence in block "
                         "(1,0,0): some threads exited while others wait at "
                         "this barrier\n"
                         "k.cu:15:3: note: thread (0,0,0) block (1,0,0) waits "
                         "here (epoch 1)\n"
                         "aucs: note: while thread (32,0,0) block (1,0,0) has "
                         "exited\n"));
  /* dynamic evidence only: a warning apart, not a finding */
  assert_non_null(strstr(out.data, "k.cu:15:3: warning: redundant barrier: "
                                   "it never ordered anything\n"
                                   "note: not proven redundant by the static "
                                   "checker: a warning, kept by fix (--strict "
                                   "counts it)\n"));
  assert_non_null(strstr(out.data, "aucs: error: kernel 'tile(float*, int)': "
                                   "step budget exceeded\n"));
  assert_non_null(strstr(out.data, "aucs: stats: kernel 'tile(float*, int)': "
                                   "3 runs, 1234 thread instructions, "
                                   "0.500 s\n"));
  assert_non_null(strstr(out.data,
                         "aucs: 1 finding in 1 kernel (0 checked, 1 with "
                         "errors); 1 warning (redundant barriers with dynamic "
                         "evidence only; --strict counts them)\n"));
  aucs_buf_free(&out);
  aucs_report_kernel_free(&k);
}

/* ---- JSON ---------------------------------------------------------------*/

static json_t *parse(const char *text) {
  json_error_t e;
  json_t *j = json_loads(text, 0, &e);
  if (!j)
    print_error("bad JSON: %s\n%s\n", e.text, text);
  assert_non_null(j);
  return j;
}

static void test_report_json_schema(void **state) {
  fx *f = *state;
  aucs_report_kernel k[2] = {kernel(f), kernel(f)};
  add(&k[0], race(f, "s_tile", 12), repro);
  k[1].status = AUCS_KERNEL_UNSUPPORTED;
  k[1].reason = aucs_xstrdup("k.cu:3:9: unsupported");
  aucs_report r = {.input = "k.ll",
                   .version = "0.1.0",
                   .kernels = k,
                   .nkernels = 2,
                   .stats = 1};
  aucs_buf out = {0};
  aucs_report_json(&r, &out);
  json_t *j = parse(out.data);
  assert_string_equal(json_string_value(json_object_get(j, "tool")), "aucs");
  assert_string_equal(json_string_value(json_object_get(j, "input")), "k.ll");
  json_t *ks = json_object_get(j, "kernels"), *k0 = json_array_get(ks, 0);
  assert_int_equal(json_array_size(ks), 2);
  assert_string_equal(json_string_value(json_object_get(k0, "status")),
                      "checked");
  assert_true(json_is_null(json_object_get(k0, "reason")));
  json_t *launch = json_object_get(k0, "launch");
  assert_int_equal(
      json_integer_value(json_array_get(json_object_get(launch, "block"), 0)),
      64);
  assert_int_equal(
      json_integer_value(json_object_get(json_object_get(launch, "args"), "n")),
      100);
  json_t *stats = json_object_get(k0, "stats");
  assert_int_equal(
      json_integer_value(json_object_get(stats, "thread_instructions")), 1234);
  json_t *fd = json_array_get(json_object_get(k0, "findings"), 0);
  assert_string_equal(json_string_value(json_object_get(fd, "kind")), "race");
  assert_string_equal(json_string_value(json_object_get(fd, "memory")),
                      "shared");
  assert_string_equal(json_string_value(json_object_get(fd, "object")),
                      "s_tile");
  assert_int_equal(json_integer_value(json_object_get(fd, "offset")), 12);
  assert_string_equal(json_string_value(json_object_get(fd, "reproduce")),
                      repro);
  json_t *a0 = json_array_get(json_object_get(fd, "accesses"), 0);
  assert_string_equal(json_string_value(json_object_get(a0, "file")), "k.cu");
  assert_int_equal(json_integer_value(json_object_get(a0, "line")), 12);
  assert_int_equal(json_integer_value(json_object_get(a0, "column")), 5);
  assert_string_equal(json_string_value(json_object_get(a0, "op")), "write");
  assert_string_equal(json_string_value(json_object_get(a0, "instruction")),
                      "store float %v, ptr addrspace(3) @s_tile, align 4");
  assert_int_equal(
      json_integer_value(json_array_get(json_object_get(a0, "thread"), 0)), 3);
  json_t *k1 = json_array_get(ks, 1);
  assert_string_equal(json_string_value(json_object_get(k1, "status")),
                      "unsupported");
  assert_string_equal(json_string_value(json_object_get(k1, "reason")),
                      "k.cu:3:9: unsupported");
  json_decref(j);
  aucs_buf_free(&out);
  aucs_report_kernel_free(&k[0]);
  aucs_report_kernel_free(&k[1]);
}

static void test_report_json_float_args(void **state) {
  fx *f = *state;
  aucs_report_kernel k = kernel(f);
  free(k.args);
  k.args = aucs_xstrdup("x=1.0 y=-2 z=inf");
  aucs_report r = {.kernels = &k, .nkernels = 1};
  aucs_buf out = {0};
  aucs_report_json(&r, &out);
  json_t *j = parse(out.data);
  json_t *args = json_object_get(
      json_object_get(json_array_get(json_object_get(j, "kernels"), 0),
                      "launch"),
      "args");
  assert_true(json_is_real(json_object_get(args, "x")));
  assert_int_equal(json_integer_value(json_object_get(args, "y")), -2);
  assert_string_equal(json_string_value(json_object_get(args, "z")), "inf");
  assert_true(json_is_null(json_object_get(j, "input")));
  json_decref(j);
  aucs_buf_free(&out);
  aucs_report_kernel_free(&k);
}

/* One meaning of "finding": `findings` and the summary's count hold what
 * the exit code counts (an error, a redundant barrier); a race of searched
 * inputs or of filled data is a warning, apart in `warnings` and after the
 * count, unless --strict. */
static aucs_report_kernel with_warnings(fx *f, int barrier) {
  aucs_report_kernel k = kernel(f);
  add(&k, race(f, "s_tile", 0), repro);
  add(&k, race(f, "s_tile", 4), repro);
  aucs_finding *w = &k.findings.v[1];
  w->severity = AUCS_SEVERITY_WARNING;
  w->searched = aucs_xstrdup("n=3");
  w->natural = aucs_xstrdup("n=64");
  add(&k, race(f, "s_tile", 8), repro);
  w = &k.findings.v[2];
  w->severity = AUCS_SEVERITY_WARNING;
  w->data_dependent = aucs_xstrdup("in");
  w->data_loads = aucs_xstrdup("k.cu:3:9");
  if (barrier)
    add(&k,
        (aucs_finding){.kind = AUCS_FINDING_REDUNDANT_BARRIER,
                       .a = {.instr = f->barrier},
                       .proven = 1,
                       .message = (char *)"it never ordered anything"},
        NULL);
  return k;
}

static json_t *kernel_json(const aucs_report *r, aucs_buf *out) {
  aucs_report_json(r, out);
  json_t *j = parse(out->data);
  json_t *k0 = json_array_get(json_object_get(j, "kernels"), 0);
  json_incref(k0);
  json_decref(j);
  return k0;
}

static const char *severity_at(json_t *k0, const char *array, size_t i) {
  json_t *fd = json_array_get(json_object_get(k0, array), i);
  return json_string_value(json_object_get(fd, "severity"));
}

static void test_report_warnings_apart(void **state) {
  aucs_report_kernel k = with_warnings(*state, 1);
  aucs_report r = {.kernels = &k, .nkernels = 1};
  aucs_buf text = {0}, js = {0};
  aucs_report_text(&r, &text);
  assert_non_null(strstr(text.data,
                         "aucs: 2 findings in 1 kernel (1 checked); 2 "
                         "warnings (found only with searched inputs or filled "
                         "data; --strict counts them)\n"));
  json_t *k0 = kernel_json(&r, &js);
  json_t *fs = json_object_get(k0, "findings");
  json_t *ws = json_object_get(k0, "warnings");
  assert_int_equal(json_array_size(fs), 2);
  assert_string_equal(severity_at(k0, "findings", 0), "error");
  assert_string_equal(
      json_string_value(json_object_get(json_array_get(fs, 1), "kind")),
      "redundant-barrier");
  assert_int_equal(json_array_size(ws), 2);
  assert_string_equal(severity_at(k0, "warnings", 0), "warning");
  json_t *w0 = json_array_get(ws, 0), *w1 = json_array_get(ws, 1);
  assert_int_equal(
      json_integer_value(json_object_get(json_object_get(w0, "searched"), "n")),
      3);
  assert_int_equal(json_integer_value(json_object_get(w0, "offset")), 4);
  assert_string_equal(json_string_value(json_array_get(
                          json_object_get(w1, "data_dependent"), 0)),
                      "in");
  assert_string_equal(json_string_value(json_object_get(w1, "reproduce")),
                      repro);
  assert_int_equal(aucs_detect_exit(&r), 1); /* the redundant barrier */
  json_decref(k0);
  aucs_buf_free(&text);
  aucs_buf_free(&js);
  aucs_report_kernel_free(&k);
}

/* fix keeps the findings that count, in order, each with its own
 * reproduce line (one pass; it was one memmove per finding dropped). */
static void test_report_keep_counted(void **state) {
  aucs_report_kernel k = with_warnings(*state, 1);
  add(&k, race(*state, "s_tile", 12), repro);
  k.findings.v[4].severity = AUCS_SEVERITY_WARNING;
  k.findings.v[4].searched = aucs_xstrdup("n=5");
  add(&k, race(*state, "s_tile", 16), NULL);
  aucs_report r = {.kernels = &k, .nkernels = 1};
  aucs_report_keep_counted(&r, 0);
  assert_int_equal(k.findings.n, 3);
  assert_int_equal(k.findings.v[0].offset, 0);
  assert_string_equal(k.reproduce[0], repro);
  assert_int_equal(k.findings.v[1].kind, AUCS_FINDING_REDUNDANT_BARRIER);
  assert_null(k.reproduce[1]);
  assert_int_equal(k.findings.v[2].offset, 16);
  assert_null(k.reproduce[2]);
  aucs_report_kernel_free(&k);

  k = with_warnings(*state, 0);
  r = (aucs_report){.kernels = &k, .nkernels = 1, .strict = 1};
  aucs_report_keep_counted(&r, 0);
  assert_int_equal(k.findings.n, 3);
  assert_int_equal(k.findings.v[2].offset, 8);
  assert_string_equal(k.findings.v[2].data_dependent, "in");
  aucs_report_kernel_free(&k);
}

static void test_report_warnings_strict(void **state) {
  aucs_report_kernel k = with_warnings(*state, 1);
  aucs_report r = {.kernels = &k, .nkernels = 1, .strict = 1};
  aucs_buf text = {0}, js = {0};
  aucs_report_text(&r, &text);
  assert_non_null(strstr(text.data, "aucs: 4 findings (1 error, 3 warnings) "
                                    "in 1 kernel (1 checked)\n"));
  json_t *k0 = kernel_json(&r, &js);
  assert_int_equal(json_array_size(json_object_get(k0, "findings")), 4);
  assert_string_equal(severity_at(k0, "findings", 1), "warning");
  assert_int_equal(json_array_size(json_object_get(k0, "warnings")), 0);
  json_decref(k0);
  aucs_buf_free(&text);
  aucs_buf_free(&js);
  aucs_report_kernel_free(&k);
}

/* Warnings alone: the exit code is 0 and the count is 0; --strict: 1. */
static void test_report_warnings_exit(void **state) {
  aucs_report_kernel k = with_warnings(*state, 0);
  k.findings.v[0].severity = AUCS_SEVERITY_WARNING;
  k.findings.v[0].natural = aucs_xstrdup("n=64");
  k.findings.v[0].searched = aucs_xstrdup("n=1");
  aucs_report r = {.kernels = &k, .nkernels = 1};
  aucs_buf text = {0};
  aucs_report_text(&r, &text);
  assert_non_null(strstr(text.data, "aucs: 0 findings in 1 kernel (1 "
                                    "checked); 3 warnings ("));
  assert_int_equal(aucs_detect_exit(&r), 0);
  r.strict = 1;
  assert_int_equal(aucs_detect_exit(&r), 1);
  aucs_buf_free(&text);
  aucs_report_kernel_free(&k);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_report_object_elements),
      cmocka_unit_test(test_report_headlines),
      cmocka_unit_test(test_report_text_race),
      cmocka_unit_test(test_report_text_race_across_divergence),
      cmocka_unit_test(test_report_text_barriers_and_status),
      cmocka_unit_test(test_report_json_schema),
      cmocka_unit_test(test_report_json_float_args),
      cmocka_unit_test(test_report_warnings_apart),
      cmocka_unit_test(test_report_warnings_strict),
      cmocka_unit_test(test_report_keep_counted),
      cmocka_unit_test(test_report_warnings_exit),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
