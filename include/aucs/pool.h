/*
 * pool: independent tasks on fork()ed children, at most `jobs` at once.
 *
 * The one process pool of aucs: `aucs check` runs one file per child,
 * detect's `-j N` one kernel per child (jobs.h). Each task runs in a child
 * forked from the caller, which sends its result back as bytes through a
 * pipe and _exits; the parent collects each child's bytes and its wait
 * status and hands them to `done`, in the order the children finish. What
 * a result means, and what to do with a task whose child could not be
 * started or died, is the caller's: the pool only reports it.
 *
 * Why processes, not threads: LLVM-C on one context, Z3's error handlers
 * and the interpreter's scratch state are not shared-safe, and a crash
 * must stay one task's; a fork gives each task a private copy of it all.
 *
 * Limitation: POSIX only; a child must not touch shared files (it never
 * flushes the parent's stdio buffers: it leaves with _exit).
 */
#ifndef AUCS_POOL_H
#define AUCS_POOL_H

#include <stddef.h>

/* How one task ended, for `done`. */
typedef struct aucs_pool_end {
  int started; /* 0: no child could be started (pipe or fork failed) */
  int error;   /* when not started: the errno */
  int status;  /* when started: the child's wait status */
  const unsigned char *data; /* the bytes the child sent (owned by the pool) */
  size_t len;
  double seconds; /* wall time from the start of the task to its end */
} aucs_pool_end;

typedef struct aucs_pool {
  unsigned jobs; /* children alive at once (0 counts as 1: always forks) */
  int tick_ms;   /* wake to tick after this long with no end; -1: never */
  void *ctx;     /* passed to each callback */
  /* In a child: do task; set *data (malloc'd) and *len to the bytes to
   * send back (or leave them NULL, 0). Returns the child's exit code. */
  int (*work)(void *ctx, size_t task, unsigned char **data, size_t *len);
  /* In the parent: task is over (or never started). */
  void (*done)(void *ctx, size_t task, const aucs_pool_end *end);
  /* In the parent, may be NULL: after each wait for the children. */
  void (*tick)(void *ctx);
} aucs_pool;

/* Run tasks [0, n) on up to p->jobs children at once; returns when `done`
 * has been called for each. */
void aucs_pool_run(const aucs_pool *p, size_t n);
/* The number of online processors (at least 1). */
unsigned aucs_pool_cores(void);

#endif
