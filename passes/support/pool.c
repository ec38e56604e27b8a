/*
 * pool: the process pool, one task per fork()ed child (pool.h).
 *
 * Steps of aucs_pool_run:
 *   1. Keep up to `jobs` children alive: fork one per task, in task order,
 *      with a pipe; the child runs `work`, writes its bytes and _exits. A
 *      task whose pipe or fork failed is `done` at once, not started.
 *   2. poll() the pipes (for at most tick_ms when a tick is asked for);
 *      append what arrives to the task's buffer; at end of file reap the
 *      child and hand its bytes and wait status to `done`.
 *   3. After each wait, `tick`; refill the free places; repeat until every
 *      task is done.
 *
 * Limitation: see pool.h. A poll() that fails other than by EINTR reads
 * the first live child to its end before looking at the others.
 */
#include "aucs/pool.h"

#include "aucs/util.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum { EXIT_WRITE = 3 }; /* a child that could not send its bytes */

typedef struct slot {
  pid_t pid;
  int fd;
  size_t task;
  double start;
  unsigned char *got;
  size_t len, cap;
} slot;

unsigned aucs_pool_cores(void) {
  long n = sysconf(_SC_NPROCESSORS_ONLN);
  return n < 1 ? 1 : (unsigned)n;
}

static void write_all(int fd, const unsigned char *p, size_t n) {
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      _exit(EXIT_WRITE);
    p += k, n -= (size_t)k;
  }
}

static void child(const aucs_pool *p, int fd, size_t task) {
  unsigned char *data = NULL;
  size_t len = 0;
  int rc = p->work(p->ctx, task, &data, &len);
  write_all(fd, data, len);
  _exit(rc);
}

/* Fork task's child into s: 0, or an errno when it could not be started. */
static int spawn(const aucs_pool *p, slot *s, size_t task) {
  int fd[2];
  if (pipe(fd))
    return errno;
  /* a program the child runs (clang) must not hold the pipe open */
  fcntl(fd[0], F_SETFD, FD_CLOEXEC);
  fcntl(fd[1], F_SETFD, FD_CLOEXEC);
  fflush(NULL); /* nothing buffered is written twice */
  pid_t pid = fork();
  if (pid < 0) {
    int e = errno;
    close(fd[0]);
    close(fd[1]);
    return e;
  }
  if (pid == 0) {
    close(fd[0]);
    child(p, fd[1], task);
  }
  close(fd[1]);
  s->pid = pid, s->fd = fd[0], s->task = task;
  return 0;
}

/* Start task in s: 1 when its child runs, else 0 (and the task is done). */
static int start(const aucs_pool *p, slot *s, size_t task) {
  *s = (slot){.start = aucs_seconds()};
  int e = spawn(p, s, task);
  if (!e)
    return 1;
  aucs_pool_end end = {.error = e, .seconds = aucs_seconds() - s->start};
  p->done(p->ctx, task, &end);
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
  if (s->len + (size_t)k > s->cap) {
    s->cap = 2 * (s->len + (size_t)k);
    s->got = aucs_xrealloc(s->got, s->cap);
  }
  memcpy(s->got + s->len, buf, (size_t)k);
  s->len += (size_t)k;
  return 0;
}

/* The child of s is done: reap it and hand its task over. */
static void finish(const aucs_pool *p, slot *s) {
  int status = 0;
  close(s->fd);
  while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
    ;
  aucs_pool_end end = {.started = 1,
                       .status = status,
                       .data = s->got,
                       .len = s->len,
                       .seconds = aucs_seconds() - s->start};
  p->done(p->ctx, s->task, &end);
  free(s->got);
}

/* Drain the slots poll() marked: the first one at its end, else n. */
static size_t at_end(const struct pollfd *fds, slot *live, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (fds[i].revents && drain(&live[i]))
      return i;
  return n;
}

/* Wait for one of the n live slots to finish: its index, or n when
 * tick_ms (unless -1) passed first. */
static size_t wait_one(slot *live, size_t n, int tick_ms) {
  struct pollfd *fds = aucs_xcalloc(n, sizeof *fds);
  size_t i;
  for (;;) {
    for (i = 0; i < n; i++)
      fds[i] = (struct pollfd){.fd = live[i].fd, .events = POLLIN};
    int r = poll(fds, (nfds_t)n, tick_ms);
    if (r == 0) {
      i = n;
      break;
    }
    if (r < 0 && errno != EINTR) { /* cannot wait: read the first to its end */
      for (i = 0; !drain(&live[0]);)
        ;
      break;
    }
    if ((i = at_end(fds, live, n)) < n)
      break;
  }
  free(fds);
  return i;
}

void aucs_pool_run(const aucs_pool *p, size_t n) {
  size_t cap = p->jobs > 1 ? p->jobs : 1;
  cap = cap < n ? cap : n;
  slot *live = aucs_xcalloc(cap ? cap : 1, sizeof *live);
  size_t nlive = 0, next = 0;
  while (next < n || nlive) {
    while (nlive < cap && next < n) {
      nlive += (size_t)start(p, &live[nlive], next);
      next++;
    }
    if (nlive) {
      size_t i = wait_one(live, nlive, p->tick_ms);
      if (i < nlive) {
        finish(p, &live[i]);
        live[i] = live[--nlive];
      }
    }
    if (p->tick)
      p->tick(p->ctx);
  }
  free(live);
}
