/*
 * jobs: detect's tasks on the process pool (pool.h), results as aucs_wire.
 *
 * Steps:
 *   1. With one worker or one task, run every task in this process.
 *   2. Otherwise hand the tasks to aucs_pool_run: each child runs `work`
 *      and sends the bytes it appended to its aucs_wire.
 *   3. A child that exited 0 has its bytes handed to `take`; a task whose
 *      child could not be started, died, or sent bytes `take` refused runs
 *      in the parent (`local`).
 *
 * Limitation: see jobs.h.
 */
#include "aucs/jobs.h"

#include "aucs/pool.h"
#include <sys/wait.h>

typedef struct run {
  const size_t *tasks;
  const aucs_jobs_fns *f;
  void *ctx;
} run;

unsigned aucs_jobs_default(void) {
  unsigned n = aucs_pool_cores();
  return n > 64 ? 64 : n;
}

static int work(void *ctx, size_t i, unsigned char **data, size_t *len) {
  const run *r = ctx;
  aucs_wire w = {0};
  r->f->work(r->ctx, r->tasks[i], &w);
  *data = w.data, *len = w.len;
  return 0;
}

static void done(void *ctx, size_t i, const aucs_pool_end *e) {
  const run *r = ctx;
  int ok = e->started && WIFEXITED(e->status) && WEXITSTATUS(e->status) == 0 &&
           r->f->take(r->ctx, r->tasks[i], e->data, e->len) == 0;
  if (!ok)
    r->f->local(r->ctx, r->tasks[i]);
}

void aucs_jobs_run(const size_t *tasks, size_t n, unsigned jobs,
                   const aucs_jobs_fns *f, void *ctx) {
  if (jobs <= 1 || n <= 1) {
    for (size_t i = 0; i < n; i++)
      f->local(ctx, tasks[i]);
    return;
  }
  run r = {tasks, f, ctx};
  aucs_pool p = {
      .jobs = jobs, .tick_ms = -1, .ctx = &r, .work = work, .done = done};
  aucs_pool_run(&p, n);
}
