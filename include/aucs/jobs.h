/*
 * jobs: independent detect tasks on the process pool (pool.h, `-j N`).
 *
 * Each task runs in a child of the pool, writes its result as bytes
 * (wire.h) and exits; the parent hands every child's bytes to `take`, in
 * whatever order the children finish. The result of a task never depends
 * on which process ran it, so the caller, which stores each result in the
 * task's own slot, produces the same output for every N. A task whose
 * child could not be forked, died, or sent bytes `take` refused runs again
 * in the parent (`local`); with one worker or one task, every task runs
 * in the parent.
 *
 * This layer keeps aucs_wire (a detector header) out of the pool, which
 * deals in raw bytes.
 *
 * Limitation: POSIX only; see pool.h.
 */
#ifndef AUCS_JOBS_H
#define AUCS_JOBS_H

#include "aucs/wire.h"
#include <stddef.h>

typedef struct aucs_jobs_fns {
  /* In a child: do task i, appending its result to out. */
  void (*work)(void *ctx, size_t i, aucs_wire *out);
  /* In the parent: take task i's result; nonzero refuses it. */
  int (*take)(void *ctx, size_t i, const unsigned char *data, size_t len);
  /* In the parent: do task i here (jobs <= 1, or a child failed). */
  void (*local)(void *ctx, size_t i);
} aucs_jobs_fns;

/* Run tasks[0..n) on up to jobs workers at once. */
void aucs_jobs_run(const size_t *tasks, size_t n, unsigned jobs,
                   const aucs_jobs_fns *f, void *ctx);
/* The number of online processors (1 to 64): the default of -j. */
unsigned aucs_jobs_default(void);

#endif
