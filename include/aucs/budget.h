/*
 * budget: one bound on the work of a phase (DESIGN.md section 8): a
 * deadline on the budget's clock (aucs_budget_now: the monotonic clock less
 * the time the process waited for a CPU, so that other load on the machine
 * does not spend it) and a ceiling on the process's resident memory. The front end creates one per command (`fix`) or per
 * kernel (`detect`) and passes it down; every phase asks it, cheaply, before
 * starting more work, and a phase that was stopped says how far it got.
 *
 *   1. aucs_budget_init sets the deadline to now + seconds, or to the
 *      enclosing budget's deadline when that comes first (a kernel's budget
 *      inside `fix` ends with fix's), and the memory ceiling likewise.
 *   2. aucs_budget_check reads the clock (a vDSO call, tens of ns) and, at
 *      most every MEMORY_PERIOD seconds, the resident set size
 *      (/proc/self/statm). aucs_budget_poll does so on every 256th call
 *      only, for loops whose iterations cost less than a clock read.
 *   3. Once spent, a budget stays spent (hit says why), and so does every
 *      budget whose check finds its enclosing one spent.
 *
 * Limitation: memory is the whole process's, so a kernel that leaves the
 * allocator holding freed memory can make a later kernel stop early; the
 * interpreter's own per-run memory budget (interp.h) is exact.
 */
#ifndef AUCS_BUDGET_H
#define AUCS_BUDGET_H

#include <stdint.h>

/* Defaults of the front ends (docs/ci.md, "Budgets"). */
#define AUCS_BUDGET_DETECT_SECONDS 30.0       /* per kernel, `detect` */
#define AUCS_BUDGET_FIX_SECONDS 120.0         /* the whole repair, `fix` */
#define AUCS_BUDGET_MEMORY_BYTES (4ull << 30) /* resident bytes */
/* The share of a budget kept for the report (aucs_budget_reserve). */
#define AUCS_BUDGET_RESERVE_DETECT 0.05 /* at most 1 s */
#define AUCS_BUDGET_RESERVE_FIX 0.15    /* at most 3 s */

typedef enum aucs_budget_hit {
  AUCS_BUDGET_OK,
  AUCS_BUDGET_TIME,   /* the deadline passed */
  AUCS_BUDGET_MEMORY, /* the process's resident memory passed the ceiling */
} aucs_budget_hit;

/* Zero-initialised: no limit. Plain data: no free. */
typedef struct aucs_budget {
  double deadline;     /* on aucs_budget_now()'s clock; 0: none */
  double seconds;      /* the limit the deadline came from, for messages */
  uint64_t memory;     /* bytes; 0: none */
  double next_memory;  /* when to read the resident size again */
  unsigned polls;      /* aucs_budget_poll's call count */
  aucs_budget_hit hit; /* sticky */
  struct aucs_budget *outer; /* the enclosing budget, or NULL */
} aucs_budget;

/* A budget of seconds (<= 0: none) and memory bytes (0: none) within
 * outer (may be NULL). */
void aucs_budget_init(aucs_budget *b, double seconds, uint64_t memory,
                      aucs_budget *outer);
/* The same with the clock started at start (aucs_seconds() or
 * aucs_budget_now(), e.g. when the command started) instead of now: a
 * start on aucs_seconds()'s clock, which runs ahead of the budget's,
 * leaves the time the process waited for a CPU since out of the budget. */
void aucs_budget_init_at(aucs_budget *b, double start, double seconds,
                         uint64_t memory, aucs_budget *outer);
/* Keep the last share of b's time, at most max seconds, for what follows
 * the phases b bounds (the report, freeing the findings): b's deadline
 * comes that much earlier; its messages still name the whole budget. */
void aucs_budget_reserve(aucs_budget *b, double share, double max);
/* Why b is spent, or AUCS_BUDGET_OK. b may be NULL (never spent). */
aucs_budget_hit aucs_budget_check(aucs_budget *b);
/* aucs_budget_check on one call in 256; b->hit on the others. */
aucs_budget_hit aucs_budget_poll(aucs_budget *b);
/* Seconds left before the deadline (0 when passed; a large number when b
 * is NULL or has none). */
double aucs_budget_left(const aucs_budget *b);
/* min(ms, the milliseconds left), at least 1 unless the deadline passed. */
unsigned aucs_budget_cap_ms(const aucs_budget *b, unsigned ms);
/* "time budget (30 s) reached" / "memory limit (4096 MiB) reached", or ""
 * while b is not spent. Free with free(). */
char *aucs_budget_why(const aucs_budget *b);
/* The budget's clock in seconds: aucs_seconds() less the time this
 * process has spent runnable but waiting for a CPU (the wall clock where
 * the kernel does not say). Never ahead of aucs_seconds(). */
double aucs_budget_now(void);
/* The resident set size of this process in bytes (0 when unknown). */
uint64_t aucs_budget_rss(void);

#endif
