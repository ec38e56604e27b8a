/*
 * budget: wall-clock deadlines and a resident-memory ceiling (budget.h).
 *
 * The clock (aucs_budget_now) is the monotonic clock less the time this
 * process spent runnable but waiting for a CPU (/proc/self/schedstat's
 * second field): a loaded machine stretches the wall clock, not the budget
 * (as the search's CPU-time budget, search.c); time spent waiting for a
 * child (clang) or for I/O still counts.
 *
 * Steps of aucs_budget_check:
 *   1. A spent budget stays spent; a spent enclosing budget spends it.
 *   2. The clock past the deadline: AUCS_BUDGET_TIME.
 *   3. Every MEMORY_PERIOD seconds at most, the resident size from
 *      /proc/self/statm (getrusage's peak where /proc is missing): above
 *      the ceiling, AUCS_BUDGET_MEMORY.
 *
 * Limitation: see budget.h (memory is the process's). Where schedstat
 * is missing the clock is the wall clock. A forked child's clock counts
 * its own waits only: a deadline set in the parent ends no later in it.
 */
#include "aucs/budget.h"

#include "aucs/util.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

/* Seconds between two reads of the resident size. */
#define MEMORY_PERIOD 0.05
/* aucs_budget_poll checks on one call in POLL_EVERY. */
#define POLL_EVERY 256u

/* Seconds this process has waited on a run queue (schedstat), or -1. */
static double runqueue_wait(void) {
  int fd = open("/proc/self/schedstat", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return -1;
  char text[128];
  ssize_t n = read(fd, text, sizeof text - 1);
  close(fd);
  if (n <= 0)
    return -1;
  text[n] = 0;
  char *end;
  strtoull(text, &end, 10); /* on a CPU */
  if (end == text)
    return -1;
  char *wait = end;
  unsigned long long ns = strtoull(wait, &end, 10);
  return end == wait ? -1 : (double)ns * 1e-9;
}

double aucs_budget_now(void) {
  double wall = aucs_seconds(), wait = runqueue_wait();
  return wait > 0 && wait < wall ? wall - wait : wall;
}

void aucs_budget_init(aucs_budget *b, double seconds, uint64_t memory,
                      aucs_budget *outer) {
  aucs_budget_init_at(b, aucs_budget_now(), seconds, memory, outer);
}

void aucs_budget_init_at(aucs_budget *b, double start, double seconds,
                         uint64_t memory, aucs_budget *outer) {
  *b = (aucs_budget){.outer = outer, .memory = memory};
  if (seconds > 0)
    b->deadline = start + seconds, b->seconds = seconds;
  if (!outer)
    return;
  if (outer->deadline && (!b->deadline || outer->deadline < b->deadline))
    b->deadline = outer->deadline, b->seconds = outer->seconds;
  if (outer->memory && (!b->memory || outer->memory < b->memory))
    b->memory = outer->memory;
}

void aucs_budget_reserve(aucs_budget *b, double share, double max) {
  double r = b->seconds * share;
  if (b->deadline && b->hit == AUCS_BUDGET_OK)
    b->deadline -= r < max ? r : max;
}

uint64_t aucs_budget_rss(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long long size = 0, resident = 0;
  int got = f && fscanf(f, "%llu %llu", &size, &resident) == 2;
  if (f)
    fclose(f);
  if (got)
    return (uint64_t)resident * (uint64_t)sysconf(_SC_PAGESIZE);
  struct rusage u;
  return getrusage(RUSAGE_SELF, &u) ? 0 : (uint64_t)u.ru_maxrss << 10;
}

static int over_memory(aucs_budget *b, double now) {
  if (!b->memory || now < b->next_memory)
    return 0;
  b->next_memory = now + MEMORY_PERIOD;
  return aucs_budget_rss() > b->memory;
}

aucs_budget_hit aucs_budget_check(aucs_budget *b) {
  if (!b || b->hit)
    return b ? b->hit : AUCS_BUDGET_OK;
  if (b->outer && aucs_budget_check(b->outer))
    return b->hit = b->outer->hit;
  if (!b->deadline && !b->memory)
    return AUCS_BUDGET_OK;
  double now = aucs_budget_now();
  if (b->deadline && now >= b->deadline)
    b->hit = AUCS_BUDGET_TIME;
  else if (over_memory(b, now))
    b->hit = AUCS_BUDGET_MEMORY;
  return b->hit;
}

aucs_budget_hit aucs_budget_poll(aucs_budget *b) {
  if (!b)
    return AUCS_BUDGET_OK;
  if (b->hit || ++b->polls % POLL_EVERY)
    return b->hit;
  return aucs_budget_check(b);
}

double aucs_budget_left(const aucs_budget *b) {
  if (!b || !b->deadline)
    return 1e9;
  if (b->hit)
    return 0;
  double left = b->deadline - aucs_budget_now();
  return left > 0 ? left : 0;
}

unsigned aucs_budget_cap_ms(const aucs_budget *b, unsigned ms) {
  double left = aucs_budget_left(b) * 1000.0;
  if (left <= 0)
    return 0;
  if (left < 1)
    return 1;
  return left < (double)ms ? (unsigned)left : ms;
}

char *aucs_budget_why(const aucs_budget *b) {
  if (!b || !b->hit)
    return aucs_xstrdup("");
  unsigned long long m = (unsigned long long)b->memory;
  if (b->hit == AUCS_BUDGET_MEMORY)
    return m % (1u << 20)
               ? aucs_xasprintf("memory limit (%llu bytes) reached", m)
               : aucs_xasprintf("memory limit (%llu MiB) reached", m >> 20);
  return aucs_xasprintf("time budget (%g s) reached", b->seconds);
}
