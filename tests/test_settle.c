/*
 * test_settle: a taint replay stops once what it was run for is settled
 * (interp.h, cfg.taint_until; datadep.h): a race on an address read from a
 * filled buffer, followed by a long loop, is settled as soon as it is found
 * (AUCS_RUN_SETTLED, a fraction of the full run, the same data_dependent
 * answer); a finding the run never makes keeps the run going to its end, and
 * so does a list of more than 32 findings (the check stays cheap).
 */
#include "support.h"

#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

/* Every thread writes out[idx[0]] (a race whose address comes from filled
 * data), then, past a barrier, counts to n. */
static const char *racy_then_long =
    "define ptx_kernel void @k(ptr %idx, ptr %out, i64 %n) {\n"
    "entry:\n"
    "  %v = load i32, ptr %idx\n"
    "  %w = zext i32 %v to i64\n"
    "  %p = getelementptr i32, ptr %out, i64 %w\n"
    "  store i32 1, ptr %p\n"
    "  call void @llvm.nvvm.barrier0()\n"
    "  br label %loop\n"
    "loop:\n"
    "  %i = phi i64 [ 0, %entry ], [ %j, %loop ]\n"
    "  %j = add i64 %i, 1\n"
    "  %c = icmp ult i64 %j, %n\n"
    "  br i1 %c, label %loop, label %done\n"
    "done:\n"
    "  ret void\n"
    "}\n"
    "declare void @llvm.nvvm.barrier0()\n";

typedef struct fixture {
  LLVMModuleRef m;
  aucs_prog *p;
  uint64_t args[3];
} fixture;

static void fixture_open(fixture *f) {
  f->m = support_parse(racy_then_long);
  f->p = support_lower(support_fn(f->m, "k"));
  f->args[0] = f->args[1] = 0; /* pointers: buffers of their own */
  f->args[2] = 2000000;
}

static void fixture_close(fixture *f) {
  aucs_prog_free(f->p);
  support_free(f->m);
}

static aucs_run_status run(fixture *f, const aucs_findings *until,
                           aucs_run_result *res) {
  aucs_run_config cfg = {.launch = {{1, 1, 1}, {2, 1, 1}},
                         .args = f->args,
                         .fill = AUCS_FILL_ZERO,
                         .taint = 1,
                         .taint_until = until,
                         .step_budget = 100000000};
  return aucs_interp_run(f->p, &cfg, res);
}

static const aucs_finding *race_of(const aucs_run_result *res) {
  for (size_t i = 0; i < res->findings.n; i++)
    if (res->findings.v[i].kind == AUCS_FINDING_RACE)
      return &res->findings.v[i];
  return NULL;
}

static void test_settle_stops_once_the_race_depends_on_data(void **state) {
  (void)state;
  fixture f;
  fixture_open(&f);
  aucs_run_result full, part;
  assert_int_equal(run(&f, NULL, &full), AUCS_RUN_OK);
  const aucs_finding *race = race_of(&full);
  assert_non_null(race);
  assert_non_null(race->data_dependent);
  assert_non_null(strstr(race->data_dependent, "idx"));
  aucs_findings until = {.v = (aucs_finding *)race, .n = 1, .cap = 1};
  assert_int_equal(run(&f, &until, &part), AUCS_RUN_SETTLED);
  const aucs_finding *again = race_of(&part);
  assert_non_null(again);
  assert_true(aucs_finding_same(again, race));
  assert_string_equal(again->data_dependent, race->data_dependent);
  assert_string_equal(again->data_loads, race->data_loads);
  assert_true(part.thread_instructions * 10 < full.thread_instructions);
  aucs_run_result_free(&part);
  aucs_run_result_free(&full);
  fixture_close(&f);
}

static void test_settle_runs_on_for_a_finding_not_made(void **state) {
  (void)state;
  fixture f;
  fixture_open(&f);
  aucs_run_result full, part;
  assert_int_equal(run(&f, NULL, &full), AUCS_RUN_OK);
  const aucs_finding *race = race_of(&full);
  assert_non_null(race);
  aucs_finding other = *race;
  other.kind = AUCS_FINDING_OUT_OF_BOUNDS; /* never made by this run */
  aucs_findings until = {.v = &other, .n = 1, .cap = 1};
  assert_int_equal(run(&f, &until, &part), AUCS_RUN_OK);
  assert_true(part.thread_instructions == full.thread_instructions);
  aucs_run_result_free(&part);
  aucs_run_result_free(&full);
  fixture_close(&f);
}

static void test_settle_runs_on_for_a_long_list(void **state) {
  (void)state;
  fixture f;
  fixture_open(&f);
  aucs_run_result full, part;
  assert_int_equal(run(&f, NULL, &full), AUCS_RUN_OK);
  const aucs_finding *race = race_of(&full);
  assert_non_null(race);
  aucs_finding many[33];
  for (size_t i = 0; i < 33; i++)
    many[i] = *race;
  aucs_findings until = {.v = many, .n = 33, .cap = 33};
  assert_int_equal(run(&f, &until, &part), AUCS_RUN_OK);
  assert_true(part.thread_instructions == full.thread_instructions);
  until.n = 32;
  aucs_run_result_free(&part);
  assert_int_equal(run(&f, &until, &part), AUCS_RUN_SETTLED);
  aucs_run_result_free(&part);
  aucs_run_result_free(&full);
  fixture_close(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_settle_stops_once_the_race_depends_on_data),
      cmocka_unit_test(test_settle_runs_on_for_a_finding_not_made),
      cmocka_unit_test(test_settle_runs_on_for_a_long_list),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
