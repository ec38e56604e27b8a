/*
 * jobs: a pool of fork()ed workers, one task per child.
 *
 * Steps:
 *   1. With one worker or one task, run every task in this process.
 *   2. Otherwise keep up to `jobs` children alive: fork one per task, with
 *      a pipe; the child runs the task, writes its result, and _exits.
 *   3. poll() the pipes; append what arrives to the task's buffer; at end
 *      of file reap the child, and when it exited 0, hand the bytes over.
 *   4. A task whose fork failed, whose child died or whose bytes were
 *      refused runs in the parent.
 *
 * Limitation: see jobs.h.
 */
#include "aucs/jobs.h"

#include "aucs/util.h"
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct slot {
  pid_t pid;
  int fd;
  size_t task;
  aucs_wire got;
} slot;

unsigned aucs_jobs_default(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : n > 64 ? 64 : (unsigned)n;
}

static void write_all(int fd, const unsigned char *p, size_t n) {
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      _exit(3);
    p += k, n -= (size_t)k;
  }
}

static void child(int fd, size_t task, const aucs_jobs_fns *f, void *ctx) {
  aucs_wire w = {0};
  f->work(ctx, task, &w);
  write_all(fd, w.data, w.len);
  _exit(0);
}

/* Fork task's child into s: 0, or -1 when it could not be started. */
static int spawn(slot *s, size_t task, const aucs_jobs_fns *f, void *ctx) {
  int p[2];
  if (pipe(p))
    return -1;
  fflush(NULL); /* nothing buffered is written twice */
  pid_t pid = fork();
  if (pid < 0) {
    close(p[0]);
    close(p[1]);
    return -1;
  }
  if (pid == 0) {
    close(p[0]);
    child(p[1], task, f, ctx);
  }
  close(p[1]);
  *s = (slot){.pid = pid, .fd = p[0], .task = task};
  return 0;
}

/* Read what s's pipe has: 1 at end of file, else 0. */
static int drain(slot *s) {
  unsigned char buf[65536];
  ssize_t k = read(s->fd, buf, sizeof buf);
  if (k < 0)
    return errno == EINTR || errno == EAGAIN ? 0 : 1;
  if (k == 0)
    return 1;
  if (s->got.len + (size_t)k > s->got.cap) {
    s->got.cap = 2 * (s->got.len + (size_t)k);
    s->got.data = aucs_xrealloc(s->got.data, s->got.cap);
  }
  memcpy(s->got.data + s->got.len, buf, (size_t)k);
  s->got.len += (size_t)k;
  return 0;
}

/* The child of s is done: reap it and hand over (or redo) its task. */
static void finish(slot *s, const aucs_jobs_fns *f, void *ctx) {
  int status = 0;
  close(s->fd);
  while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
    ;
  int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 &&
           f->take(ctx, s->task, s->got.data, s->got.len) == 0;
  if (!ok)
    f->local(ctx, s->task);
  free(s->got.data);
  s->got = (aucs_wire){0};
}

/* Wait for one of the n live slots to finish; returns its index. */
static size_t wait_one(slot *live, size_t n) {
  struct pollfd *fds = aucs_xcalloc(n, sizeof *fds);
  for (;;) {
    for (size_t i = 0; i < n; i++)
      fds[i] = (struct pollfd){.fd = live[i].fd, .events = POLLIN};
    if (poll(fds, (nfds_t)n, -1) < 0 && errno != EINTR)
      break; /* cannot wait: read the first slot to its end */
    for (size_t i = 0; i < n; i++)
      if (fds[i].revents && drain(&live[i])) {
        free(fds);
        return i;
      }
  }
  free(fds);
  while (!drain(&live[0]))
    ;
  return 0;
}

void aucs_jobs_run(const size_t *tasks, size_t n, unsigned jobs,
                   const aucs_jobs_fns *f, void *ctx) {
  if (jobs <= 1 || n <= 1) {
    for (size_t i = 0; i < n; i++)
      f->local(ctx, tasks[i]);
    return;
  }
  slot *live = aucs_xcalloc(jobs, sizeof *live);
  size_t nlive = 0, next = 0;
  while (next < n || nlive) {
    while (nlive < jobs && next < n) {
      if (spawn(&live[nlive], tasks[next], f, ctx))
        f->local(ctx, tasks[next]);
      else
        nlive++;
      next++;
    }
    if (!nlive)
      continue;
    size_t i = wait_one(live, nlive);
    finish(&live[i], f, ctx);
    live[i] = live[--nlive];
  }
  free(live);
}
