/*
 * minimize: a kernel's whole repair, made smaller once it re-validated
 * (issue 29): an edit whose removal still re-validates is dropped.
 *
 * Steps:
 *   0. A barrier the log inserted and a later edit of it deleted (a round
 *      found it redundant once a later barrier ordered its races): both
 *      edits leave the log, the module is the same without either; no
 *      check is needed.
 *   1. Candidates: the barriers and __syncwarp() calls the log inserted
 *      into a kernel itself (not a helper other kernels may call) that has
 *      two edits or more and no finding left; their removal is exact
 *      (erase the call with the edit's repair id), which a flattening, a
 *      loop rewrite or a deletion's is not.
 *   2. From the last edit to the first, cheapest check first: on a clone
 *      of the module with the drops so far, erase the call and replay the
 *      kernel's recorded runs plus a search of one candidate and its
 *      children (a trial's detection, no static checker), stopped at the
 *      first finding that counts; clean, the drop is kept for the next.
 *   3. Per kernel with drops, the full fresh-seed check of the final
 *      check (same seed) on the clone; clean (no finding, and no possible
 *      race: a static witness no run confirmed, which a dropped
 *      __syncwarp() may leave, the runs missing it), the drops are made on the
 *      module and their edits leave the log, each told in r->dropped
 *      ("edit dropped (...): not needed once edits 1, 2 were made");
 *      otherwise the kernel keeps every edit.
 *
 * Cost: one trial detection per candidate and one full detection per
 * kernel with drops, only while the repair as a whole stays under 1.9
 * times its first detection's time (fix within 2x detect) and the fix
 * budget lasts.
 *
 * Limitation: deletions, restructuring edits and edits in helpers are
 * kept as made; a drop that is only safe together with another's undoing
 * is not looked for (one edit at a time).
 */
#include "repair_impl.h"

#include "aucs/editlog.h"

/* A drop: the edit's log index, its kernel, and whether step 3 took it. */
typedef struct drop {
  size_t edit;
  const char *kernel;
  int taken;
} drop;

static const char *kernel_of(const aucs_repair_result *r, const aucs_edit *e) {
  int f = e->finding_index;
  return f >= 0 && (size_t)f < r->nitems ? r->items[f].kernel : NULL;
}

/* Findings of kernel left in the current detection (redundant barriers
 * aside: warnings or deleted on a proof already). */
static size_t left_in(const state *s, const char *kernel) {
  for (size_t k = 0; k < s->cur.nkernels; k++) {
    if (strcmp(s->cur.kernels[k].name, kernel))
      continue;
    size_t n = 0;
    for (size_t i = 0; i < s->cur.kernels[k].findings.n; i++)
      n += s->cur.kernels[k].findings.v[i].kind !=
           AUCS_FINDING_REDUNDANT_BARRIER;
    return n;
  }
  return 0;
}

static size_t edits_in(const aucs_repair_result *r, const char *kernel) {
  size_t n = 0;
  for (size_t i = 0; i < r->log.n; i++) {
    const char *k = kernel_of(r, &r->log.v[i]);
    n += k && !strcmp(k, kernel);
  }
  return n;
}

/* Step 1: edit i is a candidate; its kernel in *kernel. */
static int candidate(const state *s, size_t i, const char **kernel) {
  const aucs_repair_result *r = s->r;
  const aucs_edit *e = &r->log.v[i];
  *kernel = kernel_of(r, e);
  return (e->kind == AUCS_EDIT_INSERT_BARRIER ||
          e->kind == AUCS_EDIT_INSERT_WARP_SYNC) &&
         e->id && *kernel && e->function && !strcmp(e->function, *kernel) &&
         edits_in(r, *kernel) >= 2 && !left_in(s, *kernel);
}

/* The call edit e inserted in m, or NULL (gone, copied, or used). */
static LLVMValueRef inserted(LLVMModuleRef m, const aucs_edit *e) {
  LLVMValueRef fn = LLVMGetNamedFunction(m, e->function);
  LLVMValueRef I = fn ? rp_unique_id(fn, e->id) : NULL;
  return I && LLVMIsACallInst(I) && !LLVMGetFirstUse(I) ? I : NULL;
}

static int counts(const aucs_finding *f, int strict) {
  return f->kind != AUCS_FINDING_REDUNDANT_BARRIER &&
         aucs_finding_counts(f, strict);
}

static int stop_any(void *ctx, const char *kernel, const aucs_finding *f) {
  (void)kernel;
  return counts(f, *(const int *)ctx);
}

/* rep's one kernel was checked in full and has no finding that counts,
 * nor a possible race (a static witness no run confirmed: the runs may
 * miss a race of lanes the dropped call ordered, which the solver sees). */
static int clean(const aucs_report *rep, int strict) {
  if (rep->nkernels != 1)
    return 0;
  const aucs_report_kernel *k = &rep->kernels[0];
  if (k->status != AUCS_KERNEL_CHECKED || k->budget || k->st.possible.n)
    return 0;
  for (size_t i = 0; i < k->findings.n; i++)
    if (counts(&k->findings.v[i], strict))
      return 0;
  return 1;
}

/* Detect kernel of m with o (one kernel, in this process): clean. */
static int check(state *s, LLVMModuleRef m, aucs_detect_options *o,
                 const char *kernel) {
  o->kernel = kernel;
  o->record = NULL;
  o->jobs = 1;
  LLVMValueRef *ks;
  size_t n = aucs_kernel_list(m, &ks);
  aucs_report rep;
  char *err = NULL;
  int rc = aucs_detect_run(m, ks, n, o, &rep, &err);
  int ok = !rc && clean(&rep, s->detect.strict);
  if (!rc)
    aucs_detect_report_free(&rep);
  free(err);
  free(ks);
  return ok;
}

/* Step 2's check: a trial's detection of kernel in m. */
static int trial_clean(state *s, LLVMModuleRef m, const char *kernel) {
  int strict = s->detect.strict;
  aucs_detect_trial tr = {.kernels = (const char *const *)s->run_kernel,
                          .runs = s->runs,
                          .nargs = s->run_nargs,
                          .n = s->nruns,
                          .stop = stop_any,
                          .stop_ctx = &strict};
  aucs_detect_options o = s->detect;
  o.trial = &tr;
  o.no_static = 1;
  s->r->stats.detections++;
  double t0 = aucs_seconds();
  int ok = check(s, m, &o, kernel);
  s->r->stats.trial_seconds += aucs_seconds() - t0;
  return ok;
}

/* Step 3's check: the final check's full detection of kernel in m. */
static int full_clean(state *s, LLVMModuleRef m, const char *kernel) {
  aucs_detect_options o = s->detect;
  o.seed = (o.has_seed ? o.seed : AUCS_SEARCH_SEED) + 1;
  o.has_seed = 1;
  o.no_barrier_proofs = 1;
  double t0 = aucs_seconds();
  int ok = check(s, m, &o, kernel);
  s->r->stats.final_seconds += aucs_seconds() - t0;
  return ok;
}

/* Room for one more trial detection and a full one, within 1.9 times the
 * first detection and the fix budget. */
static int room(state *s, double t0) {
  const aucs_repair_stats *st = &s->r->stats;
  double trial = st->detections ? st->trial_seconds / st->detections
                                 : st->first_seconds;
  double full = st->final_seconds > 0 ? st->final_seconds : st->first_seconds;
  double spent = aucs_seconds() - t0;
  return !aucs_budget_check(&s->budget) &&
         spent + trial + full <= 1.9 * st->first_seconds;
}

/* "edit dropped (insert-barrier in @k ..., for ...): not needed once edits
 * 1, 2 were made", numbered as the log is after the drops. */
static char *telling(const aucs_repair_result *r, const aucs_edit *e,
                     const char *kernel) {
  aucs_buf list = {0}, b = {0};
  size_t n = 0;
  for (size_t i = 0; i < r->log.n; i++) {
    const char *k = kernel_of(r, &r->log.v[i]);
    if (k && !strcmp(k, kernel))
      aucs_buf_printf(&list, "%s%zu", n++ ? ", " : "", i + 1);
  }
  aucs_buf_printf(&b, "edit dropped (%s in @%s %s%s%s, for %s): not needed",
                  aucs_editlog_kind_name(e->kind), e->function,
                  e->where ? e->where : "", e->source ? " at " : "",
                  e->source ? e->source : "", e->finding ? e->finding : "?");
  if (n)
    aucs_buf_printf(&b, " once edit%s %s %s made", n == 1 ? "" : "s",
                    list.data, n == 1 ? "was" : "were");
  aucs_buf_puts(&b, ": the kernel re-validated without it");
  aucs_buf_free(&list);
  return aucs_buf_take(&b);
}

/* Take edit i out of the log; its text goes to *out (free the edit's). */
static void take_out(aucs_editlog *log, size_t i, aucs_edit *out) {
  *out = log->v[i];
  memmove(&log->v[i], &log->v[i + 1], (log->n - i - 1) * sizeof *log->v);
  log->n--;
}

static void tell(aucs_repair_result *r, char *sentence) {
  r->dropped = aucs_xrealloc(r->dropped, (r->ndropped + 1) * sizeof *r->dropped);
  r->dropped[r->ndropped++] = sentence;
}

/* Erase I from the module: the findings of the current detection that name
 * it (a redundant barrier's, left by an edit) are gone with it, their keys
 * no item's. */
static void erase(state *s, LLVMValueRef I) {
  for (size_t k = 0; k < s->cur.nkernels; k++)
    for (size_t i = 0; i < s->cur.kernels[k].findings.n; i++) {
      aucs_finding *f = &s->cur.kernels[k].findings.v[i];
      if (f->a.instr == I || f->b.instr == I)
        f->a.instr = f->b.instr = NULL;
    }
  LLVMInstructionEraseFromParent(I);
  rp_cur_changed(s);
}

/* Step 3: per kernel with drops, its full check; the drops of the
 * kernels that pass are made on the module and leave the log (ds is in
 * descending edit order, so each index holds until its own turn). */
static void settle_drops(state *s, LLVMModuleRef work, drop *ds, size_t n) {
  aucs_repair_result *r = s->r;
  for (size_t j = 0; j < n; j++) {
    size_t first = 0;
    while (strcmp(ds[first].kernel, ds[j].kernel))
      first++;
    ds[j].taken = first < j ? ds[first].taken
                            : full_clean(s, work, ds[j].kernel);
  }
  aucs_edit *gone = aucs_xcalloc(n + 1, sizeof *gone);
  char **kernels = aucs_xcalloc(n + 1, sizeof *kernels);
  size_t g = 0;
  for (size_t j = 0; j < n; j++) {
    LLVMValueRef I = inserted(s->user, &r->log.v[ds[j].edit]);
    if (!ds[j].taken || !I)
      continue;
    kernels[g] = aucs_xstrdup(ds[j].kernel); /* the items' may move */
    erase(s, I);
    take_out(&r->log, ds[j].edit, &gone[g++]);
  }
  for (size_t j = g; j-- > 0;) { /* in log order */
    tell(r, telling(r, &gone[j], kernels[j]));
    aucs_edit_free(&gone[j]);
    free(kernels[j]);
  }
  free(gone);
  free(kernels);
}

/* The insert-barrier edit before edit i (a delete-barrier) that made the
 * barrier it deletes, or -1. */
static long inserted_by(const aucs_editlog *log, size_t i) {
  const aucs_edit *d = &log->v[i];
  if (d->kind != AUCS_EDIT_DELETE_BARRIER || !d->id || !d->function)
    return -1;
  for (size_t j = 0; j < i; j++)
    if (log->v[j].kind == AUCS_EDIT_INSERT_BARRIER && log->v[j].id == d->id &&
        log->v[j].function && !strcmp(log->v[j].function, d->function))
      return (long)j;
  return -1;
}

/* Some instruction of function fn of m has repair id `id`. */
static int has_id(LLVMModuleRef m, const char *fn, unsigned id) {
  LLVMValueRef f = LLVMGetNamedFunction(m, fn);
  for (LLVMBasicBlockRef bb = f ? LLVMGetFirstBasicBlock(f) : NULL; bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I))
      if (aucs_repair_id(I) == id)
        return 1;
  return 0;
}

/* Step 0 (no copy of the barrier is left in the module: the delete did
 * not take a copy of it only). */
static void drop_pairs(state *s) {
  aucs_repair_result *r = s->r;
  for (size_t i = r->log.n; i-- > 0;) {
    long j = inserted_by(&r->log, i);
    if (j < 0 || has_id(s->user, r->log.v[i].function, r->log.v[i].id))
      continue;
    aucs_edit del, ins;
    take_out(&r->log, i, &del);
    take_out(&r->log, (size_t)j, &ins);
    tell(r, aucs_xasprintf(
                "edits dropped (insert-barrier in @%s %s, for %s; and the "
                "delete-barrier of the same barrier, for %s): a later edit "
                "deleted the barrier an earlier one inserted, the module is "
                "the same without both",
                ins.function, ins.where ? ins.where : "",
                ins.finding ? ins.finding : "?",
                del.finding ? del.finding : "?"));
    aucs_edit_free(&del);
    aucs_edit_free(&ins);
    i = (size_t)j; /* the indexes below j are as they were */
  }
}

void rp_minimize(state *s, double t0) {
  aucs_repair_result *r = s->r;
  drop_pairs(s);
  if (r->incomplete || r->log.n < 2 || !room(s, t0))
    return;
  LLVMModuleRef work = LLVMCloneModule(s->user);
  drop *ds = aucs_xcalloc(r->log.n + 1, sizeof *ds);
  size_t n = 0;
  for (size_t i = r->log.n; i-- > 0 && room(s, t0);) {
    const char *kernel;
    if (!candidate(s, i, &kernel) || !inserted(s->user, &r->log.v[i]))
      continue;
    LLVMModuleRef c = LLVMCloneModule(work);
    LLVMInstructionEraseFromParent(inserted(c, &r->log.v[i]));
    int ok = trial_clean(s, c, kernel);
    if (rp_tracing())
      fprintf(stderr, "aucs: repair: minimize: edit %zu %s\n", i + 1,
              ok ? "not needed" : "needed");
    if (!ok) {
      LLVMDisposeModule(c);
      continue;
    }
    LLVMDisposeModule(work);
    work = c;
    ds[n++] = (drop){i, kernel, 0};
  }
  settle_drops(s, work, ds, n);
  free(ds);
  LLVMDisposeModule(work);
}
