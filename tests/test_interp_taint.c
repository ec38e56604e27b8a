/*
 * test_interp_taint: the interpreter's track of values computed from
 * filled buffer contents (interp_taint.c, cfg.taint) and given buffer
 * contents (cfg.buffer_data). Every run uses the zero fill, so every
 * thread reads the same value from an unwritten buffer.
 */
#include "support.h"

#include "aucs/inputs.h"
#include "aucs/interp.h"
#include <llvm-c/Core.h>
#include <stdlib.h>
#include <string.h>

typedef struct fx {
  LLVMModuleRef m;
  aucs_prog *p;
  aucs_run_result res;
} fx;

static const char *ir =
    /* out[in[t]] = t: the address comes from in */
    "define ptx_kernel void @scatter(ptr %out, ptr %in) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr i32, ptr %in, i32 %t\n"
    "  %j = load i32, ptr %p\n"
    "  %q = getelementptr i32, ptr %out, i32 %j\n"
    "  store i32 %t, ptr %q\n"
    "  ret void\n"
    "}\n"
    /* out[0] = in[t]: a filled value, a constant address */
    "define ptx_kernel void @copy(ptr %out, ptr %in) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr i32, ptr %in, i32 %t\n"
    "  %v = load i32, ptr %p\n"
    "  store i32 %v, ptr %out\n"
    "  ret void\n"
    "}\n"
    /* if (in[t] == 0) out[0] = t: which threads write is the data's */
    "define ptx_kernel void @claim(ptr %out, ptr %in) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr i32, ptr %in, i32 %t\n"
    "  %v = load i32, ptr %p\n"
    "  %z = icmp eq i32 %v, 0\n"
    "  br i1 %z, label %w, label %e\n"
    "w:\n"
    "  store i32 %t, ptr %out\n"
    "  br label %e\n"
    "e:\n"
    "  ret void\n"
    "}\n"
    /* if (in[0] == 0) out[0] = t: every thread takes the branch alike */
    "define ptx_kernel void @uniform(ptr %out, ptr %in) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %v = load i32, ptr %in\n"
    "  %z = icmp eq i32 %v, 0\n"
    "  br i1 %z, label %w, label %e\n"
    "w:\n"
    "  store i32 %t, ptr %out\n"
    "  br label %e\n"
    "e:\n"
    "  ret void\n"
    "}\n"
    /* tmp[t] = in[t]; out[tmp[t]] = t: the taint travels through memory */
    "define ptx_kernel void @through(ptr %out, ptr %in, ptr %tmp) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr i32, ptr %in, i32 %t\n"
    "  %v = load i32, ptr %p\n"
    "  %s = getelementptr i32, ptr %tmp, i32 %t\n"
    "  store i32 %v, ptr %s\n"
    "  %j = load i32, ptr %s\n"
    "  %q = getelementptr i32, ptr %out, i32 %j\n"
    "  store i32 %t, ptr %q\n"
    "  ret void\n"
    "}\n"
    /* in[t] = 0; out[in[t]] = t: the kernel wrote what it reads */
    "define ptx_kernel void @written(ptr %out, ptr %in) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr i32, ptr %in, i32 %t\n"
    "  store i32 0, ptr %p\n"
    "  %j = load i32, ptr %p\n"
    "  %q = getelementptr i32, ptr %out, i32 %j\n"
    "  store i32 %t, ptr %q\n"
    "  ret void\n"
    "}\n"
    /* if (in[t] == 0) tmp[t] = 1; then out[0] = t after the paths join:
     * every thread writes out[0] whatever in holds */
    "define ptx_kernel void @joined(ptr %out, ptr %in, ptr %tmp) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr i32, ptr %in, i32 %t\n"
    "  %v = load i32, ptr %p\n"
    "  %z = icmp eq i32 %v, 0\n"
    "  br i1 %z, label %w, label %e\n"
    "w:\n"
    "  %s = getelementptr i32, ptr %tmp, i32 %t\n"
    "  store i32 1, ptr %s\n"
    "  br label %e\n"
    "e:\n"
    "  store i32 %t, ptr %out\n"
    "  ret void\n"
    "}\n"
    /* out[in[t]] = 1; out[t] = 0 (a histogram's count and clear): the
     * clear is every thread's own, whatever in holds */
    "define ptx_kernel void @onesided(ptr %out, ptr %in) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr i32, ptr %in, i32 %t\n"
    "  %j = load i32, ptr %p\n"
    "  %q = getelementptr i32, ptr %out, i32 %j\n"
    "  store i32 1, ptr %q\n"
    "  %o = getelementptr i32, ptr %out, i32 %t\n"
    "  store i32 0, ptr %o\n"
    "  ret void\n"
    "}\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n";

/* Run kernel fn on 1 x 4 threads with the taint track; data: in's given
 * contents (NULL: none). */
static void run_kernel(fx *f, const char *fn, const unsigned char *data,
                       uint64_t n) {
  memset(f, 0, sizeof *f);
  f->m = support_parse(ir);
  aucs_findings d = {0};
  assert_int_equal(aucs_interp_lower(support_fn(f->m, fn), &f->p, &d), 0);
  aucs_findings_free(&d);
  size_t nl = aucs_prog_inputs(f->p)->n;
  const unsigned char **given = calloc(nl, sizeof *given);
  uint64_t *bytes = calloc(nl, sizeof *bytes);
  given[1] = data; /* in */
  bytes[1] = n;
  aucs_run_config c = {.launch = {{1, 1, 1}, {4, 1, 1}},
                       .seed = 1,
                       .fill = AUCS_FILL_ZERO,
                       .taint = 1,
                       .buffer_data = data ? given : NULL,
                       .buffer_data_bytes = bytes};
  aucs_interp_run(f->p, &c, &f->res);
  free(given);
  free(bytes);
}

static void free_fx(fx *f) {
  aucs_run_result_free(&f->res);
  aucs_prog_free(f->p);
  support_free(f->m);
}

/* The race's data_dependent ("" when it has none); fails without a race. */
static const char *race_data(const fx *f) {
  for (size_t i = 0; i < f->res.findings.n; i++)
    if (f->res.findings.v[i].kind == AUCS_FINDING_RACE)
      return f->res.findings.v[i].data_dependent
                 ? f->res.findings.v[i].data_dependent
                 : "";
  fail_msg("no race");
  return NULL;
}

static void test_interp_taint_address_from_filled_buffer(void **state) {
  (void)state;
  fx f;
  run_kernel(&f, "scatter", NULL, 0);
  assert_string_equal(race_data(&f), "in");
  free_fx(&f);
}

static void test_interp_taint_value_alone_is_not_the_address(void **state) {
  (void)state;
  fx f;
  run_kernel(&f, "copy", NULL, 0);
  assert_string_equal(race_data(&f), "");
  free_fx(&f);
}

static void test_interp_taint_divergent_branch_on_data(void **state) {
  (void)state;
  fx f;
  run_kernel(&f, "claim", NULL, 0);
  assert_string_equal(race_data(&f), "in");
  free_fx(&f);
}

static void test_interp_taint_uniform_branch_on_data(void **state) {
  (void)state;
  fx f;
  run_kernel(&f, "uniform", NULL, 0);
  assert_string_equal(race_data(&f), "");
  free_fx(&f);
}

static void test_interp_taint_branch_ends_where_paths_join(void **state) {
  (void)state;
  fx f;
  run_kernel(&f, "joined", NULL, 0);
  assert_string_equal(race_data(&f), "");
  free_fx(&f);
}

/* A race with one side free of filled data is real: an error (thread 1's
 * count against thread 0's clear of out[0]); two counts that meet are the
 * data's (thread 2's against thread 1's). */
static void test_interp_taint_one_side_free_of_data(void **state) {
  (void)state;
  fx f;
  run_kernel(&f, "onesided", NULL, 0);
  size_t free_side = 0, both = 0;
  for (size_t i = 0; i < f.res.findings.n; i++) {
    const aucs_finding *x = &f.res.findings.v[i];
    assert_int_equal(x->kind, AUCS_FINDING_RACE);
    if (x->a.instr == x->b.instr)
      both += x->data_dependent && !strcmp(x->data_dependent, "in");
    else
      free_side += x->data_dependent == NULL;
  }
  assert_int_equal(free_side, 1);
  assert_int_equal(both, 1);
  free_fx(&f);
}

static void test_interp_taint_travels_through_memory(void **state) {
  (void)state;
  fx f;
  run_kernel(&f, "through", NULL, 0);
  assert_string_equal(race_data(&f), "in");
  free_fx(&f);
}

static void test_interp_taint_written_bytes_are_not_filled(void **state) {
  (void)state;
  fx f;
  run_kernel(&f, "written", NULL, 0);
  assert_string_equal(race_data(&f), "");
  free_fx(&f);
}

/* Given contents are the user's (no taint) and are what the run reads:
 * in = {1, 1, 2, 3} makes threads 0 and 1 race on out[1]. */
static void test_interp_taint_given_contents(void **state) {
  (void)state;
  fx f;
  const uint32_t in[4] = {1, 1, 2, 3};
  run_kernel(&f, "scatter", (const unsigned char *)in, sizeof in);
  assert_string_equal(race_data(&f), "");
  assert_int_equal(f.res.findings.v[0].offset, 4);
  free_fx(&f);
  const uint32_t distinct[4] = {0, 1, 2, 3};
  run_kernel(&f, "scatter", (const unsigned char *)distinct, sizeof distinct);
  assert_int_equal(f.res.findings.n, 0);
  free_fx(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_interp_taint_address_from_filled_buffer),
      cmocka_unit_test(test_interp_taint_value_alone_is_not_the_address),
      cmocka_unit_test(test_interp_taint_divergent_branch_on_data),
      cmocka_unit_test(test_interp_taint_uniform_branch_on_data),
      cmocka_unit_test(test_interp_taint_branch_ends_where_paths_join),
      cmocka_unit_test(test_interp_taint_one_side_free_of_data),
      cmocka_unit_test(test_interp_taint_travels_through_memory),
      cmocka_unit_test(test_interp_taint_written_bytes_are_not_filled),
      cmocka_unit_test(test_interp_taint_given_contents),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
