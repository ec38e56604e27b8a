/*
 * test_budget: the time and memory budget (budget.h) on its own (deadline,
 * expiry, an enclosing budget, the memory ceiling, polling), and as the
 * phases honour it: an interpreter run of a loop far longer than the
 * deadline stops with AUCS_RUN_BUDGET, the static checker given a spent
 * budget stops building its queries and proves nothing, and a detection
 * with a spent budget says what it did not check.
 */
#include "support.h"

#include "aucs/budget.h"
#include "aucs/detect.h"
#include "aucs/static.h"
#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void wait_past(double deadline) {
  while (aucs_budget_now() < deadline)
    ;
}

static void test_budget_deadline(void **state) {
  (void)state;
  aucs_budget b;
  aucs_budget_init(&b, 1000, 0, NULL);
  assert_int_equal(aucs_budget_check(&b), AUCS_BUDGET_OK);
  assert_true(aucs_budget_left(&b) > 900);
  assert_int_equal(aucs_budget_cap_ms(&b, 500), 500);
  char *why = aucs_budget_why(&b);
  assert_string_equal(why, "");
  free(why);
  /* no budget at all: never spent */
  assert_int_equal(aucs_budget_check(NULL), AUCS_BUDGET_OK);
  aucs_budget none;
  aucs_budget_init(&none, 0, 0, NULL);
  assert_int_equal(aucs_budget_check(&none), AUCS_BUDGET_OK);
}

static void test_budget_expires_and_stays_spent(void **state) {
  (void)state;
  aucs_budget b;
  aucs_budget_init(&b, 0.01, 0, NULL);
  wait_past(b.deadline);
  assert_int_equal(aucs_budget_check(&b), AUCS_BUDGET_TIME);
  assert_int_equal(aucs_budget_check(&b), AUCS_BUDGET_TIME);
  assert_true(aucs_budget_left(&b) == 0);
  assert_int_equal(aucs_budget_cap_ms(&b, 500), 0);
  char *why = aucs_budget_why(&b);
  assert_string_equal(why, "time budget (0.01 s) reached");
  free(why);
}

static void test_budget_within_an_outer_one(void **state) {
  (void)state;
  aucs_budget outer, inner;
  aucs_budget_init(&outer, 0.01, 0, NULL);
  aucs_budget_init(&inner, 1000, 0, &outer);
  assert_true(inner.deadline == outer.deadline);
  wait_past(outer.deadline);
  assert_int_equal(aucs_budget_check(&inner), AUCS_BUDGET_TIME);
  assert_int_equal(outer.hit, AUCS_BUDGET_TIME);
  char *why = aucs_budget_why(&inner);
  assert_string_equal(why, "time budget (0.01 s) reached"); /* the outer's */
  free(why);
}

/* A budget counted from an earlier start (the command's) is spent by the
 * time that has passed since; the reserve moves the deadline, not the
 * message. */
static void test_budget_from_the_command_start(void **state) {
  (void)state;
  aucs_budget b, r;
  double start = aucs_budget_now() - 5;
  aucs_budget_init_at(&b, start, 4, 0, NULL);
  assert_int_equal(aucs_budget_check(&b), AUCS_BUDGET_TIME);
  aucs_budget_init_at(&b, start, 100, 0, NULL);
  assert_int_equal(aucs_budget_check(&b), AUCS_BUDGET_OK);
  assert_true(b.deadline == start + 100);
  aucs_budget_init_at(&r, start, 100, 0, NULL);
  aucs_budget_reserve(&r, 0.10, 2.0); /* 10 s, at most 2 */
  assert_true(r.deadline > start + 97.999 && r.deadline < start + 98.001);
  aucs_budget_init_at(&r, start, 10, 0, NULL);
  aucs_budget_reserve(&r, 0.10, 2.0);
  assert_true(r.deadline > start + 8.999 && r.deadline < start + 9.001);
  aucs_budget_init_at(&r, start, 5.5, 0, NULL);
  aucs_budget_reserve(&r, 0.10, 2.0);
  assert_int_equal(aucs_budget_check(&r), AUCS_BUDGET_TIME);
  char *why = aucs_budget_why(&r);
  assert_string_equal(why, "time budget (5.5 s) reached");
  free(why);
}

/* The budget's clock never runs ahead of the wall clock, and time spent
 * asleep (as waiting for a child) counts: only waiting for a CPU does not. */
static void test_budget_clock_counts_sleep_not_load(void **state) {
  (void)state;
  double w0 = aucs_seconds(), b0 = aucs_budget_now();
  assert_true(b0 <= w0);
  struct timespec nap = {0, 100 * 1000 * 1000};
  nanosleep(&nap, NULL);
  double w1 = aucs_seconds(), b1 = aucs_budget_now();
  assert_true(b1 <= w1);
  assert_true(b1 - b0 >= 0.099);
  assert_true(b1 - b0 <= (w1 - b0) + 1e-6);
}

static void test_budget_memory(void **state) {
  (void)state;
  assert_true(aucs_budget_rss() > 0);
  aucs_budget b;
  aucs_budget_init(&b, 0, 1, NULL); /* one byte: already over */
  assert_int_equal(aucs_budget_check(&b), AUCS_BUDGET_MEMORY);
  char *why = aucs_budget_why(&b);
  assert_string_equal(why, "memory limit (1 bytes) reached");
  free(why);
  aucs_budget big;
  aucs_budget_init(&big, 0, 1ull << 50, NULL);
  assert_int_equal(aucs_budget_check(&big), AUCS_BUDGET_OK);
}

static void test_budget_poll_checks_now_and_then(void **state) {
  (void)state;
  aucs_budget b;
  aucs_budget_init(&b, 0, 1, NULL);
  unsigned calls = 1;
  while (aucs_budget_poll(&b) == AUCS_BUDGET_OK)
    calls++;
  assert_int_equal(calls, 256);
  assert_int_equal(aucs_budget_poll(&b), AUCS_BUDGET_MEMORY);
}

/* A thread that counts to n (a data-dependent trip count). */
static const char *counter = "define ptx_kernel void @k(ptr %out, i64 %n) {\n"
                             "entry:\n"
                             "  br label %loop\n"
                             "loop:\n"
                             "  %i = phi i64 [ 0, %entry ], [ %j, %loop ]\n"
                             "  %j = add i64 %i, 1\n"
                             "  %c = icmp ult i64 %j, %n\n"
                             "  br i1 %c, label %loop, label %done\n"
                             "done:\n"
                             "  store i64 %j, ptr %out\n"
                             "  ret void\n"
                             "}\n";

static void test_budget_stops_an_interpreter_run(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(counter);
  aucs_prog *p = support_lower(support_fn(m, "k"));
  aucs_budget b;
  aucs_budget_init(&b, 0.2, 0, NULL);
  uint64_t args[2] = {0, UINT64_MAX};
  /* a step budget the run would take many seconds to reach */
  aucs_run_config cfg = {.launch = {{1, 1, 1}, {1, 1, 1}},
                         .args = args,
                         .step_budget = 20000000000ull,
                         .budget = &b};
  aucs_run_result res;
  assert_int_equal(aucs_interp_run(p, &cfg, &res), AUCS_RUN_BUDGET);
  assert_non_null(strstr(res.error, "time budget (0.2 s) reached"));
  assert_true(res.thread_instructions > 0);
  aucs_run_result_free(&res);
  aucs_prog_free(p);
  support_free(m);
}

/* Every thread writes its own slot: race-free, which Z3 proves. */
static const char *own_slot =
    "@s = internal addrspace(3) global [1024 x i32] undef\n"
    "define ptx_kernel void @k() {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr [1024 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
    "  store i32 1, ptr addrspace(3) %p\n"
    "  ret void\n"
    "}\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n";

static void test_budget_stops_the_static_checker(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(own_slot);
  aucs_static *s = aucs_static_analyze(support_fn(m, "k"), NULL);
  assert_int_equal(aucs_static_stopped(s, NULL, NULL), 0);
  assert_int_equal(aucs_static_proof_of(s), AUCS_PROOF_RACE_FREE);
  aucs_static_free(s);
  aucs_budget b;
  aucs_budget_init(&b, 0.001, 0, NULL);
  wait_past(b.deadline);
  aucs_static_options o = {.budget = &b};
  s = aucs_static_analyze(support_fn(m, "k"), &o);
  size_t asked = 7;
  assert_int_equal(aucs_static_stopped(s, &asked, NULL), 1);
  assert_int_equal(asked, 0);
  assert_int_not_equal(aucs_static_proof_of(s), AUCS_PROOF_RACE_FREE);
  aucs_static_free(s);
  support_free(m);
}

static void test_budget_spent_detection_says_so(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(own_slot);
  LLVMValueRef k = support_fn(m, "k");
  aucs_budget b;
  aucs_budget_init(&b, 0.001, 0, NULL);
  wait_past(b.deadline);
  aucs_detect_options o = {.within = &b};
  aucs_report r;
  char *err = NULL;
  assert_int_equal(aucs_detect_run(m, &k, 1, &o, &r, &err), 0);
  assert_int_equal(r.kernels[0].status, AUCS_KERNEL_ERROR);
  assert_string_equal(r.kernels[0].budget, "time budget (0.001 s) reached");
  assert_non_null(strstr(r.kernels[0].budget_checked,
                         "static checker: stopped while building"));
  assert_non_null(strstr(r.kernels[0].budget_checked, "search: not started"));
  assert_non_null(strstr(r.kernels[0].reason, "before anything was checked"));
  assert_int_equal(aucs_detect_exit(&r), 2);
  aucs_detect_report_free(&r);
  support_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_budget_deadline),
      cmocka_unit_test(test_budget_expires_and_stays_spent),
      cmocka_unit_test(test_budget_within_an_outer_one),
      cmocka_unit_test(test_budget_from_the_command_start),
      cmocka_unit_test(test_budget_clock_counts_sleep_not_load),
      cmocka_unit_test(test_budget_memory),
      cmocka_unit_test(test_budget_poll_checks_now_and_then),
      cmocka_unit_test(test_budget_stops_an_interpreter_run),
      cmocka_unit_test(test_budget_stops_the_static_checker),
      cmocka_unit_test(test_budget_spent_detection_says_so),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
