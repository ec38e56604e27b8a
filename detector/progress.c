/*
 * progress: a kernel's budgets and what they left unchecked (progress.h).
 *
 * The text names each phase of detect.c in order: the static checker
 * (complete, stopped while building its queries, or after asking some),
 * the witness replays, the search (runs made of the most it would make),
 * and, since a cut search proves nothing about barriers, that no barrier is
 * reported redundant.
 *
 * Limitation: the planned number of search runs is an upper bound (the
 * search skips candidates it ran already).
 */
#include "aucs/progress.h"

#include "aucs/util.h"

void aucs_progress_begin(aucs_progress *p, const aucs_detect_options *o,
                         double start) {
  *p = (aucs_progress){.no_static = o->no_static, .search = !o->static_only};
  double secs = o->time_budget ? o->time_budget : AUCS_BUDGET_DETECT_SECONDS;
  uint64_t mem = o->memory_limit ? o->memory_limit : AUCS_BUDGET_MEMORY_BYTES;
  if (start <= 0)
    start = aucs_budget_now();
  aucs_budget_init_at(&p->kernel, start, secs, mem, o->within);
  if (!o->within) /* fix's budget keeps its own reserve */
    aucs_budget_reserve(&p->kernel, AUCS_BUDGET_RESERVE_DETECT, 1.0);
  double left = aucs_budget_left(&p->kernel);
  double share = o->static_only || o->no_static ? left : left / 2.0;
  aucs_budget_init(&p->stat, share, mem, &p->kernel);
}

int aucs_progress_cut(const aucs_progress *p) {
  return p->kernel.hit || p->stat.hit;
}

char *aucs_progress_reached(const aucs_progress *p) {
  if (p->kernel.hit || p->stat.hit != AUCS_BUDGET_TIME)
    return aucs_budget_why(p->kernel.hit ? &p->kernel : &p->stat);
  return aucs_xasprintf("the static checker's share (%.3g s) of the time "
                        "budget (%.3g s) ran out",
                        p->stat.seconds, p->kernel.seconds);
}

static void static_part(const aucs_progress *p, aucs_buf *b) {
  size_t asked, built;
  if (p->no_static)
    return;
  if (!p->st) {
    aucs_buf_puts(b, "static checker: not run");
    return;
  }
  switch (aucs_static_stopped(p->st, &asked, &built)) {
  case 0:
    aucs_buf_puts(b, "static checker: complete");
    break;
  case 1:
    aucs_buf_printf(b,
                    "static checker: stopped while building its queries "
                    "(%zu built, none asked)",
                    built);
    break;
  case 2:
    aucs_buf_printf(b, "static checker: asked %zu of %zu queries", asked,
                    built);
    break;
  default:
    aucs_buf_puts(b, "static checker: every pair decided, no barrier "
                     "proven redundant");
  }
}

static void search_part(const aucs_progress *p, aucs_buf *b) {
  const char *sep = b->len ? "; " : "";
  if (p->replays || p->replays_cut)
    aucs_buf_printf(
        b, "%switness replays: %llu%s%s", sep, (unsigned long long)p->replays,
        p->run_cut && !p->search_started ? " (the last stopped in flight)" : "",
        p->replays_cut ? ", the rest not run" : "");
  sep = b->len ? "; " : "";
  if (!p->search)
    return;
  if (!p->search_started)
    aucs_buf_printf(b, "%ssearch: not started", sep);
  else
    aucs_buf_printf(b, "%ssearch: %llu of up to %llu runs%s", sep,
                    (unsigned long long)p->searched,
                    (unsigned long long)p->planned,
                    p->run_cut ? " (the last stopped in flight)" : "");
}

char *aucs_progress_checked(const aucs_progress *p) {
  aucs_buf b = {0};
  static_part(p, &b);
  search_part(p, &b);
  if (p->kernel.hit)
    aucs_buf_printf(&b, "%sno barrier reported redundant", b.len ? "; " : "");
  return aucs_buf_take(&b);
}
