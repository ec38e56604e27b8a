/*
 * test_pool: the process pool (pool.h): each task's bytes come from its
 * own child whatever the number of children, no more children than jobs
 * run at once, a child that dies or exits nonzero is reported as such, a
 * task that cannot start is reported at once, a result longer than a pipe
 * holds arrives whole, and ticks come after each wait and while waiting.
 * fork() itself failing is not provoked (RLIMIT_NPROC does not bind root):
 * a pipe() that fails takes the same path.
 */
#include "support.h"

#include "aucs/pool.h"
#include "aucs/util.h"
#include <errno.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { N = 8, BIG = 1 << 20 };

typedef struct seen {
  size_t kill, quit, code; /* the task whose child is killed / exits 7 /
                              returns 4; N: none */
  int big;                 /* task 0 sends BIG bytes */
  unsigned sleep_ms;       /* each child's nap */
  atomic_int *live;        /* shared: [0] children working, [1] the most */
  int calls[N], started[N], status[N], error[N], intact;
  long result[N];
  pid_t pid[N];
  size_t order[N], ndone;
  unsigned ticks;
} seen;

typedef struct answer {
  long square;
  pid_t pid;
} answer;

static void nap(unsigned ms) {
  struct timespec t = {ms / 1000, (long)(ms % 1000) * 1000000L};
  while (nanosleep(&t, &t) && errno == EINTR)
    ;
}

/* Two counters every child of this process sees. */
static atomic_int *shared_counters(void) {
  FILE *f = tmpfile();
  assert_non_null(f);
  assert_int_equal(ftruncate(fileno(f), 2 * sizeof(atomic_int)), 0);
  void *m = mmap(NULL, 2 * sizeof(atomic_int), PROT_READ | PROT_WRITE,
                 MAP_SHARED, fileno(f), 0);
  fclose(f);
  assert_true(m != MAP_FAILED);
  return m;
}

static void enter(atomic_int *live) {
  int now = atomic_fetch_add(&live[0], 1) + 1;
  int most = atomic_load(&live[1]);
  while (now > most && !atomic_compare_exchange_weak(&live[1], &most, now))
    ;
}

static unsigned char *big_bytes(void) {
  unsigned char *b = aucs_xmalloc(BIG);
  for (size_t i = 0; i < BIG; i++)
    b[i] = (unsigned char)(i * 7 + i / 251);
  return b;
}

static int work(void *ctx, size_t i, unsigned char **data, size_t *len) {
  seen *s = ctx;
  if (s->live)
    enter(s->live);
  nap(s->sleep_ms);
  if (s->live)
    atomic_fetch_sub(&s->live[0], 1);
  if (i == s->kill)
    raise(SIGKILL);
  if (i == s->quit)
    _exit(7);
  if (i == 0 && s->big) {
    *data = big_bytes(), *len = BIG;
    return 0;
  }
  answer a = {(long)(i * i), getpid()};
  *data = aucs_xmalloc(sizeof a);
  memcpy(*data, &a, sizeof a);
  *len = sizeof a;
  return i == s->code ? 4 : 0;
}

static void done(void *ctx, size_t i, const aucs_pool_end *e) {
  seen *s = ctx;
  s->calls[i]++, s->started[i] = e->started, s->status[i] = e->status;
  s->error[i] = e->error, s->order[s->ndone++] = i;
  if (e->len == sizeof(answer)) {
    answer a;
    memcpy(&a, e->data, sizeof a);
    s->result[i] = a.square, s->pid[i] = a.pid;
  }
  if (e->len == BIG) {
    unsigned char *b = big_bytes();
    s->intact = !memcmp(b, e->data, BIG);
    free(b);
  }
}

static void tick(void *ctx) { ((seen *)ctx)->ticks++; }

static void run(seen *s, unsigned jobs, int tick_ms, size_t n) {
  aucs_pool p = {.jobs = jobs,
                 .tick_ms = tick_ms,
                 .ctx = s,
                 .work = work,
                 .done = done,
                 .tick = tick};
  aucs_pool_run(&p, n);
}

static int exited(int status, int code) {
  return WIFEXITED(status) && WEXITSTATUS(status) == code;
}

static void test_pool_results_same_for_one_and_three(void **state) {
  (void)state;
  seen one = {.kill = N, .quit = N, .code = N};
  seen three = one;
  run(&one, 1, -1, N);
  run(&three, 3, -1, N);
  for (size_t i = 0; i < N; i++) {
    assert_int_equal(one.order[i], i); /* one child: task order */
    assert_int_equal(one.result[i], (long)(i * i));
    assert_int_equal(three.result[i], one.result[i]);
    assert_int_equal(one.calls[i], 1);
    assert_int_equal(three.calls[i], 1);
    assert_true(one.started[i] && three.started[i]);
    assert_true(exited(one.status[i], 0) && exited(three.status[i], 0));
    assert_int_not_equal(one.pid[i], getpid());
    assert_int_not_equal(three.pid[i], getpid());
  }
  assert_int_equal(one.ndone, N);
  assert_int_equal(three.ndone, N);
}

static void test_pool_no_more_children_than_jobs(void **state) {
  (void)state;
  atomic_int *live = shared_counters();
  seen s = {.kill = N, .quit = N, .code = N, .sleep_ms = 50, .live = live};
  run(&s, 3, -1, N);
  assert_int_equal(s.ndone, N);
  assert_true(atomic_load(&live[1]) >= 1 && atomic_load(&live[1]) <= 3);
  atomic_store(&live[1], 0);
  seen t = {.kill = N, .quit = N, .code = N, .sleep_ms = 10, .live = live};
  run(&t, 0, -1, 4); /* 0 counts as 1 */
  assert_int_equal(atomic_load(&live[1]), 1);
  munmap(live, 2 * sizeof(atomic_int));
}

static void test_pool_dead_child_is_reported(void **state) {
  (void)state;
  seen s = {.kill = 2, .quit = 5, .code = 6};
  run(&s, 2, -1, N);
  for (size_t i = 0; i < N; i++) {
    assert_int_equal(s.calls[i], 1);
    assert_true(s.started[i]);
  }
  assert_true(WIFSIGNALED(s.status[2]));
  assert_int_equal(WTERMSIG(s.status[2]), SIGKILL);
  assert_true(exited(s.status[5], 7));
  assert_true(exited(s.status[6], 4)); /* work's code, its bytes still sent */
  assert_int_equal(s.result[6], 36);
  assert_true(exited(s.status[7], 0));
  assert_int_equal(s.result[7], 49);
}

static void test_pool_task_that_cannot_start(void **state) {
  (void)state;
  struct rlimit old, low;
  assert_int_equal(getrlimit(RLIMIT_NOFILE, &old), 0);
  FILE *f = fopen("/dev/null", "r"); /* takes the lowest free descriptor */
  assert_non_null(f);
  int fd = fileno(f);
  fclose(f);
  low = old;
  low.rlim_cur = (rlim_t)fd; /* no descriptor left for pipe(): EMFILE */
  assert_int_equal(setrlimit(RLIMIT_NOFILE, &low), 0);
  seen s = {.kill = N, .quit = N, .code = N};
  run(&s, 3, -1, 4);
  setrlimit(RLIMIT_NOFILE, &old);
  for (size_t i = 0; i < 4; i++) {
    assert_int_equal(s.order[i], i);
    assert_int_equal(s.calls[i], 1);
    assert_false(s.started[i]);
    assert_int_equal(s.error[i], EMFILE);
  }
  assert_int_equal(s.ndone, 4);
}

static void test_pool_long_result_arrives_whole(void **state) {
  (void)state;
  seen s = {.kill = N, .quit = N, .code = N, .big = 1};
  run(&s, 2, -1, 3);
  assert_true(s.intact);
  assert_int_equal(s.result[2], 4);
}

static void test_pool_ticks(void **state) {
  (void)state;
  seen after = {.kill = N, .quit = N, .code = N};
  run(&after, 3, -1, N);
  assert_int_equal(after.ticks, N); /* once after each child's end */
  seen waiting = {.kill = N, .quit = N, .code = N, .sleep_ms = 300};
  run(&waiting, 1, 10, 1);
  assert_true(waiting.ticks >= 3);
  seen none = {.kill = N, .quit = N, .code = N};
  run(&none, 3, -1, 0);
  assert_int_equal(none.ticks, 0);
  assert_int_equal(none.ndone, 0);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pool_results_same_for_one_and_three),
      cmocka_unit_test(test_pool_no_more_children_than_jobs),
      cmocka_unit_test(test_pool_dead_child_is_reported),
      cmocka_unit_test(test_pool_task_that_cannot_start),
      cmocka_unit_test(test_pool_long_result_arrives_whole),
      cmocka_unit_test(test_pool_ticks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
