/*
 * repair_cost: the barriers a kernel executes per thread before and after
 * its repair, on the checked inputs (issue 29: what the GPU pays).
 *
 * Steps:
 *   1. During the first detection, each run that showed a finding is
 *      recorded for the trials (repair.c record_run); rp_cost_note keeps
 *      what that run executed on the original module: threads, block
 *      barriers passed (__syncthreads and its _count/_and/_or forms) and
 *      __syncwarp() calls (interp.h). No run is added for "before".
 *   2. After the repair, per kernel the log edits (through the findings its
 *      edits answer), one detection of the repaired module replays that
 *      kernel's recorded runs of step 1 and nothing else (no search, no
 *      static checker): the same inputs, counted the same way ("after").
 *   3. A kernel is reported when the replay ran every one of those runs
 *      on as many threads as before (a run cut short by a budget is no
 *      comparison): the sums go to s->r->per_thread.
 *
 * Limitation: kernels with no recorded run of the first detection (an edit
 * for a finding only a later detection saw) get no count; the replay is
 * skipped once the fix budget is spent.
 */
#include "repair_impl.h"

void rp_cost_note(state *s, size_t i, const aucs_run_result *res) {
  if (s->first_done || !res)
    return;
  s->run_tally = aucs_xrealloc(s->run_tally, (i + 1) * sizeof *s->run_tally);
  s->run_tally[i][0] = res->threads_run;
  s->run_tally[i][1] = res->barriers_passed;
  s->run_tally[i][2] = res->warp_syncs;
  s->first_runs = i + 1;
}

void rp_cost_free(state *s) {
  free(s->run_tally);
  s->run_tally = NULL;
  s->first_runs = 0;
}

/* The kernel of edit i (of the finding it answers), or NULL. */
static const char *edit_kernel(const aucs_repair_result *r, size_t i) {
  int f = r->log.v[i].finding_index;
  return f >= 0 && (size_t)f < r->nitems ? r->items[f].kernel : NULL;
}

/* An edit before edit i is in the same kernel (measured then, or not). */
static int seen(const aucs_repair_result *r, size_t i, const char *kernel) {
  for (size_t j = 0; j < i; j++) {
    const char *k = edit_kernel(r, j);
    if (k && !strcmp(k, kernel))
      return 1;
  }
  return 0;
}

/* The first detection's runs of kernel, in trial form; how many. */
static size_t runs_of(const state *s, const char *kernel,
                      aucs_detect_trial *t, aucs_repair_per_thread *pt) {
  size_t n = 0;
  for (size_t i = 0; i < s->first_runs && i < s->nruns; i++) {
    if (strcmp(s->run_kernel[i], kernel))
      continue;
    ((const char **)t->kernels)[n] = s->run_kernel[i];
    ((aucs_candidate *)t->runs)[n] = s->runs[i];
    ((size_t *)t->nargs)[n] = s->run_nargs[i];
    pt->threads += s->run_tally[i][0];
    pt->barriers_before += s->run_tally[i][1];
    pt->warp_before += s->run_tally[i][2];
    n++;
  }
  t->n = n;
  return pt->runs = n;
}

/* Step 2 for one kernel: 0 with pt's "after" filled. */
static int replay(state *s, const char *kernel, aucs_repair_per_thread *pt) {
  const char **names = aucs_xcalloc(s->nruns + 1, sizeof *names);
  aucs_candidate *runs = aucs_xcalloc(s->nruns + 1, sizeof *runs);
  size_t *nargs = aucs_xcalloc(s->nruns + 1, sizeof *nargs);
  aucs_detect_trial t = {.kernels = names,
                         .runs = runs,
                         .nargs = nargs,
                         .replay_only = 1};
  int bad = !runs_of(s, kernel, &t, pt);
  aucs_detect_options o = s->detect;
  o.trial = &t;
  o.kernel = kernel;
  o.record = NULL;
  o.jobs = 1;
  o.no_static = 1;
  LLVMValueRef *ks;
  size_t nk = aucs_kernel_list(s->user, &ks);
  aucs_report rep;
  char *err = NULL;
  if (!bad && !aucs_detect_run(s->user, ks, nk, &o, &rep, &err)) {
    const aucs_report_kernel *k = rep.nkernels == 1 ? &rep.kernels[0] : NULL;
    bad = !k || k->status != AUCS_KERNEL_CHECKED || k->budget ||
          k->runs != pt->runs || k->threads_run != pt->threads;
    if (!bad) {
      pt->barriers_after = k->barriers_passed;
      pt->warp_after = k->warp_syncs;
    }
    aucs_detect_report_free(&rep);
  } else
    bad = 1;
  free(err);
  free(ks);
  free(names);
  free(runs);
  free(nargs);
  return bad;
}

void rp_cost_measure(state *s) {
  aucs_repair_result *r = s->r;
  for (size_t i = 0; i < r->log.n && s->first_runs; i++) {
    const char *kernel = edit_kernel(r, i);
    if (!kernel || seen(r, i, kernel) || aucs_budget_check(&s->budget))
      continue;
    aucs_repair_per_thread pt = {0};
    double t0 = aucs_seconds();
    int bad = replay(s, kernel, &pt);
    if (rp_tracing())
      fprintf(stderr, "aucs: repair: barriers per thread of %s: %s (%.3f s)\n",
              kernel, bad ? "not measured" : "measured", aucs_seconds() - t0);
    if (bad)
      continue;
    pt.kernel = aucs_xstrdup(kernel);
    r->per_thread = aucs_xrealloc(r->per_thread,
                                  (r->nper_thread + 1) * sizeof *r->per_thread);
    r->per_thread[r->nper_thread++] = pt;
  }
}
