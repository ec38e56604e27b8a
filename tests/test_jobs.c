/*
 * test_jobs: the fork()ed worker pool (jobs.h) and the kernel report's
 * bytes between a worker and its parent (wire.h).
 */
#include "support.h"

#include "aucs/detect.h"
#include "aucs/jobs.h"
#include "aucs/kernel.h"
#include "aucs/util.h"
#include "aucs/wire.h"
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* ---- the pool -----------------------------------------------------------*/

typedef struct squares {
  long result[8];
  pid_t pid[8];
  int taken[8], local[8];
  size_t refuse, die; /* task to refuse in take / to die in; 8: none */
} squares;

typedef struct answer {
  long square;
  pid_t pid;
} answer;

static void sq_work(void *ctx, size_t i, aucs_wire *out) {
  squares *q = ctx;
  if (i == q->die)
    _exit(7);
  answer a = {(long)(i * i), getpid()};
  out->data = aucs_xmalloc(sizeof a);
  memcpy(out->data, &a, sizeof a);
  out->len = out->cap = sizeof a;
}

static int sq_take(void *ctx, size_t i, const unsigned char *d, size_t n) {
  squares *q = ctx;
  if (i == q->refuse || n != sizeof(answer))
    return -1;
  answer a;
  memcpy(&a, d, sizeof a);
  q->result[i] = a.square, q->pid[i] = a.pid, q->taken[i]++;
  return 0;
}

static void sq_local(void *ctx, size_t i) {
  squares *q = ctx;
  q->result[i] = (long)(i * i), q->pid[i] = getpid(), q->local[i]++;
}

static const aucs_jobs_fns sq = {sq_work, sq_take, sq_local};
static const size_t tasks[8] = {0, 1, 2, 3, 4, 5, 6, 7};

static void test_jobs_results_come_from_children(void **state) {
  (void)state;
  squares q = {.refuse = 8, .die = 8};
  aucs_jobs_run(tasks, 8, 3, &sq, &q);
  for (size_t i = 0; i < 8; i++) {
    assert_int_equal(q.result[i], (long)(i * i));
    assert_int_equal(q.taken[i], 1);
    assert_int_equal(q.local[i], 0);
    assert_int_not_equal(q.pid[i], getpid());
  }
}

static void test_jobs_one_worker_runs_here(void **state) {
  (void)state;
  squares q = {.refuse = 8, .die = 8};
  aucs_jobs_run(tasks, 8, 1, &sq, &q);
  for (size_t i = 0; i < 8; i++) {
    assert_int_equal(q.local[i], 1);
    assert_int_equal(q.taken[i], 0);
  }
}

static void test_jobs_failed_child_runs_here(void **state) {
  (void)state;
  squares q = {.refuse = 2, .die = 5};
  aucs_jobs_run(tasks, 8, 2, &sq, &q);
  for (size_t i = 0; i < 8; i++) {
    assert_int_equal(q.result[i], (long)(i * i));
    assert_int_equal(q.local[i], i == 2 || i == 5);
    assert_int_equal(q.taken[i], i != 2 && i != 5);
  }
}

/* ---- a kernel report through the wire -----------------------------------*/

static const char *ir =
    "@s = internal addrspace(3) global [64 x i32] undef\n"
    "define ptx_kernel void @shift(ptr %out, i32 %n) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %c = icmp ult i32 %t, 63\n"
    "  call void @llvm.assume(i1 %c)\n"
    "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
    "  store i32 %n, ptr addrspace(3) %p\n"
    "  %u = add i32 %t, 1\n"
    "  %q = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %u\n"
    "  %v = load i32, ptr addrspace(3) %q\n"
    "  %o = getelementptr i32, ptr %out, i32 %t\n"
    "  store i32 %v, ptr %o\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  ret void\n"
    "}\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "declare void @llvm.assume(i1)\n"
    "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n";

static void reports(const aucs_report *r, aucs_buf *text, aucs_buf *json) {
  aucs_report_text(r, text);
  aucs_report_json(r, json);
}

static void test_wire_kernel_round_trip(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(ir);
  LLVMValueRef *ks;
  size_t n = aucs_kernel_list(m, &ks);
  aucs_detect_options o = {.input = "k.ll", .jobs = 1, .possible = 1};
  aucs_report r;
  char *err = NULL;
  assert_int_equal(aucs_detect_run(m, ks, n, &o, &r, &err), 0);
  assert_true(r.kernels[0].findings.n > 0);
  aucs_buf t1 = {0}, j1 = {0}, t2 = {0}, j2 = {0};
  reports(&r, &t1, &j1);
  aucs_wire w = {0};
  aucs_wire_put_kernel(&w, &r.kernels[0]);
  aucs_report_kernel k;
  assert_int_equal(aucs_wire_get_kernel(w.data, w.len, &k), 0);
  aucs_report_kernel_free(&r.kernels[0]);
  r.kernels[0] = k;
  reports(&r, &t2, &j2);
  assert_string_equal(t1.data, t2.data);
  assert_string_equal(j1.data, j2.data);
  /* short or overlong bytes are refused, leaving nothing to free */
  for (size_t cut = 0; cut < w.len; cut += 7) {
    assert_int_not_equal(aucs_wire_get_kernel(w.data, cut, &k), 0);
    assert_null(k.name);
  }
  free(w.data);
  aucs_buf_free(&t1), aucs_buf_free(&j1), aucs_buf_free(&t2);
  aucs_buf_free(&j2);
  aucs_detect_report_free(&r);
  free(ks);
  support_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_jobs_results_come_from_children),
      cmocka_unit_test(test_jobs_one_worker_runs_here),
      cmocka_unit_test(test_jobs_failed_child_runs_here),
      cmocka_unit_test(test_wire_kernel_round_trip),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
