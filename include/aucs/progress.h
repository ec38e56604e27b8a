/*
 * progress: how far the check of one kernel got within its budget
 * (budget.h), and the report's words for what a spent budget left
 * unchecked (detect.h "Budgets").
 *
 *   1. aucs_progress_begin makes the kernel's budget (--time-budget,
 *      --memory-limit, within the options' enclosing budget) and the static
 *      checker's share of it: half the time when the search runs after it,
 *      so that a static phase cut short still leaves the search its time.
 *   2. The detector records each phase as it goes (the static analysis,
 *      witness replays, search runs, a run stopped in flight).
 *   3. When either budget was spent, aucs_progress_reached says what ran
 *      out and aucs_progress_checked what was and was not checked, e.g.
 *      "static checker: asked 120 of 400 queries; search: 12 of up to 52
 *      runs".
 */
#ifndef AUCS_PROGRESS_H
#define AUCS_PROGRESS_H

#include "aucs/budget.h"
#include "aucs/detect.h"
#include "aucs/static.h"
#include <stdint.h>

typedef struct aucs_progress {
  aucs_budget kernel;    /* the kernel's budget */
  aucs_budget stat;      /* the static checker's share of it */
  int no_static, search; /* the static checker is off; the search is on */
  const aucs_static *st; /* its analysis once it ran, else NULL */
  uint64_t replays;      /* witness replays run */
  int replays_cut;       /* the budget left some unreplayed */
  int search_started;
  uint64_t searched, planned; /* search runs run; at most planned */
  int run_cut;                /* a run was stopped in flight */
} aucs_progress;

/* Start the kernel's budgets, counted from start (aucs_seconds()'s clock;
 * <= 0: now). Plain data: no free. */
void aucs_progress_begin(aucs_progress *p, const aucs_detect_options *o,
                         double start);
/* The kernel's budget, or the static checker's share, was spent. */
int aucs_progress_cut(const aucs_progress *p);
/* What ran out ("time budget (30 s) reached"); what was and was not
 * checked. Free both with free(); call only when aucs_progress_cut. */
char *aucs_progress_reached(const aucs_progress *p);
char *aucs_progress_checked(const aucs_progress *p);

#endif
