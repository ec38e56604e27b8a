/*
 * repair: the detect -> plan -> apply -> verify -> detect loop.
 *
 * Steps:
 *   1. Give instructions stable ids (!aucs.id); detect; every finding is an
 *      item of the result.
 *   2. Each round, for each finding of the round's detection still present
 *      and not known unfixable, one trial:
 *        a. clone the module; find the finding's instructions in the clone
 *           by position (function, block, instruction index);
 *        b. inline into the kernel every call leading to a helper that holds
 *           one of them, and find them there by their ids (detect the
 *           clone again when an id has several copies there, once per
 *           finding and module state: prep_memo);
 *        c. plan and make the edits on the clone (place.h; a loop in the way
 *           is uniformized first, uniformize.h; a barrier that threads
 *           which exited never reach is kept, the threads kept in by
 *           flattening through the exit, flatten.h), recording each
 *           as an op with positions, and as an edit of the log;
 *        d. verify the clone and detect it: keep the trial when the finding
 *           is gone and no new one came (redundant barriers aside; races
 *           left by a deleted divergent barrier are repaired in the trial);
 *        e. keep = replay the ops on the module itself, take the clone's
 *           detection (its instructions mapped back by position) as the
 *           current one, and move the trial's edits to the log.
 *   3. Stop when no finding is left, a round keeps nothing, or after
 *      max_rounds; each item is then fixed, unfixable or remains.
 *   4. The rounds edit a clone: fold the inlining back (repair_fold.c) and check
 *      and write that, or else replay the ops on the caller's module and
 *      check it in full (fresh seed); new findings make more rounds.
 * Replaying ops by position is exact: the clone and the module are the same
 * IR up to the trial, and every op is deterministic. Step 2b's plans, one
 * per kind of finding, are in repair_plan.c, the inlining that makes a
 * helper's finding its kernel's in repair_inline.c; the shared state in
 * repair_impl.h.
 *
 * A trial's detection replays the runs that showed findings and searches
 * one candidate and its children (none after a proven-redundant barrier's
 * deletion); a finding in a helper is found in the inlined kernel by its
 * instructions' ids. The final check skips only the static redundancy
 * proofs. One Z3 context and one query cache serve every detection.
 *
 * A trial's search skips a run its replay just made, and a warning seen
 * again does not stop its replay (note_warnings). A redundancy proof has a
 * budget of half the first detection's Z3 work (repair_plan.c).
 *
 * Limitation: one trial costs one detection (two with helpers to inline
 * when an id has several copies there); the final fresh-seed check costs
 * about one first detection, more when edits changed the static queries
 * (an edit changes every query whose interval it touches: no cache hit).
 */
#include "aucs/atomic_rmw.h"
#include "aucs/demangle.h"
#include "aucs/syncfix.h"
#include "repair_impl.h"

/* AUCS_DEBUG=repair: each trial's outcome, and its IR, on stderr. */
int rp_tracing(void) {
  const char *d = getenv("AUCS_DEBUG");
  return d && strstr(d, "repair");
}

/* ---- stable ids ---------------------------------------------------------*/

static unsigned id_kind(LLVMContextRef cx) {
  return LLVMGetMDKindIDInContext(cx, "aucs.id", 7);
}

static LLVMContextRef cx_of(LLVMValueRef I) {
  return LLVMGetTypeContext(LLVMTypeOf(I));
}

unsigned aucs_repair_id(LLVMValueRef I) {
  if (!I || !LLVMIsAInstruction(I) || !LLVMHasMetadata(I))
    return 0;
  LLVMValueRef md = LLVMGetMetadata(I, id_kind(cx_of(I)));
  if (!md || LLVMGetMDNodeNumOperands(md) != 1)
    return 0;
  LLVMValueRef v = NULL;
  LLVMGetMDNodeOperands(md, &v);
  return v && LLVMIsAConstantInt(v) ? (unsigned)LLVMConstIntGetZExtValue(v) : 0;
}

static void set_id(LLVMValueRef I, unsigned id) {
  LLVMContextRef cx = cx_of(I);
  LLVMMetadataRef c =
      LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(cx), id, 0));
  LLVMSetMetadata(I, id_kind(cx),
                  LLVMMetadataAsValue(cx, LLVMMDNodeInContext2(cx, &c, 1)));
}

void rp_set_id(LLVMValueRef I, unsigned id) { set_id(I, id); }

static int wants_id(LLVMValueRef I) {
  return LLVMIsALoadInst(I) || LLVMIsAStoreInst(I) || LLVMIsACallInst(I) ||
         LLVMIsAAtomicRMWInst(I) || LLVMIsAAtomicCmpXchgInst(I) ||
         LLVMIsATerminatorInst(I);
}

static void each_inst(LLVMModuleRef m, inst_fn f, void *ctx) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn;
       fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
           I = LLVMGetNextInstruction(I))
        f(I, ctx);
}

static void max_id(LLVMValueRef I, void *ctx) {
  unsigned id = aucs_repair_id(I), *top = ctx;
  if (id > *top)
    *top = id;
}

static void give_id(LLVMValueRef I, void *ctx) {
  unsigned *next = ctx;
  if (wants_id(I) && !aucs_repair_id(I))
    set_id(I, ++*next);
}

static unsigned top_id(LLVMModuleRef m) {
  unsigned top = 0;
  each_inst(m, max_id, &top);
  return top;
}

void aucs_repair_ids_assign(LLVMModuleRef m) {
  unsigned next = top_id(m);
  each_inst(m, give_id, &next);
}

static void drop_id(LLVMValueRef I, void *ctx) {
  if (LLVMHasMetadata(I))
    LLVMSetMetadata(I, *(unsigned *)ctx, NULL);
}

void aucs_repair_ids_strip(LLVMModuleRef m) {
  unsigned kind = id_kind(LLVMGetModuleContext(m));
  each_inst(m, drop_id, &kind);
}

/* ---- positions: the same instruction in a module and its clone ----------*/

LLVMValueRef rp_fn_of(LLVMValueRef I) {
  return LLVMGetBasicBlockParent(LLVMGetInstructionParent(I));
}

pos rp_pos_of(LLVMValueRef I) {
  pos p = {0, 0, 0};
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(I);
  LLVMValueRef fn = LLVMGetBasicBlockParent(bb);
  for (LLVMValueRef f = LLVMGetPreviousFunction(fn); f;
       f = LLVMGetPreviousFunction(f))
    p.fn++;
  for (LLVMBasicBlockRef b = LLVMGetPreviousBasicBlock(bb); b;
       b = LLVMGetPreviousBasicBlock(b))
    p.bb++;
  for (LLVMValueRef x = LLVMGetPreviousInstruction(I); x;
       x = LLVMGetPreviousInstruction(x))
    p.ins++;
  return p;
}

static LLVMValueRef at_pos(LLVMModuleRef m, pos p) {
  LLVMValueRef fn = LLVMGetFirstFunction(m);
  for (int i = 0; fn && i < p.fn; i++)
    fn = LLVMGetNextFunction(fn);
  LLVMBasicBlockRef bb = fn ? LLVMGetFirstBasicBlock(fn) : NULL;
  for (int i = 0; bb && i < p.bb; i++)
    bb = LLVMGetNextBasicBlock(bb);
  LLVMValueRef I = bb ? LLVMGetFirstInstruction(bb) : NULL;
  for (int i = 0; I && i < p.ins; i++)
    I = LLVMGetNextInstruction(I);
  AUCS_ASSERT(I);
  return I;
}

LLVMValueRef rp_at_pos(LLVMModuleRef m, pos p) { return at_pos(m, p); }

static LLVMValueRef same_in(LLVMModuleRef m, LLVMValueRef I) {
  return I ? at_pos(m, rp_pos_of(I)) : NULL;
}

/* ---- ops: edits replayable on a module and its clone --------------------*/

static int node_index(const aucs_flatten_result *r, LLVMBasicBlockRef bb) {
  for (int i = 0; i < r->n; i++)
    if (r->nodes[i] == bb)
      return i;
  return -1;
}

/* Flatten o's region; the terminator of the guard before the later of the
 * blocks of o->at and o->at2. */
static LLVMValueRef flatten_op(LLVMModuleRef m, const op *o, char **err) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(at_pos(m, o->at));
  LLVMBasicBlockRef b2 = LLVMGetInstructionParent(at_pos(m, o->at2));
  aucs_flatten_result res = {0};
  if (aucs_flatten_region_unchecked(LLVMGetBasicBlockParent(bb), o->u1, o->u2,
                                    &res, err))
    return NULL;
  if (node_index(&res, b2) > node_index(&res, bb))
    bb = b2;
  LLVMBasicBlockRef guard = aucs_flatten_guard_of(&res, bb);
  aucs_flatten_result_free(&res);
  if (!guard)
    *err = aucs_xstrdup("the access's block is inside a loop kept whole by "
                        "the flattening: no guard precedes it");
  return guard ? LLVMGetBasicBlockTerminator(guard) : NULL;
}

/* Uniformize the loop whose header ends in o->at (with absorb, flatten the
 * region holding the loop as one node first); the or-barrier. */
static LLVMValueRef uniformize_op(LLVMModuleRef m, const op *o, char **err) {
  LLVMBasicBlockRef H = LLVMGetInstructionParent(at_pos(m, o->at));
  LLVMValueRef fn = LLVMGetBasicBlockParent(H);
  if (o->u1) {
    aucs_cfg *g = aucs_cfg_build(fn);
    aucs_uniformity *u = aucs_uniform_compute(g);
    int u1, u2,
        bad = aucs_flatten_find_region(g, u, aucs_cfg_index(g, H), &u1, &u2);
    aucs_uniform_free(u);
    aucs_cfg_free(g);
    if (bad) {
      *err = aucs_xstrdup("the loop sits in a divergent region that cannot "
                          "be flattened with the loop as one node");
      return NULL;
    }
    if (aucs_flatten_region_unchecked(fn, u1, u2, NULL, err))
      return NULL;
  }
  aucs_cfg *g = aucs_cfg_build(fn);
  int h = aucs_cfg_index(g, H);
  aucs_cfg_free(g);
  aucs_uniformize_result r;
  if (aucs_uniformize_loop_unchecked(fn, h, o->u1, &r, err))
    return NULL;
  set_id(r.any, o->id);
  return r.any;
}

/* Make o on m; the new barrier for OP_INSERT, NULL on failure. */
static LLVMValueRef apply_op(LLVMModuleRef m, const op *o, char **err) {
  LLVMValueRef I = at_pos(m, o->at), bar;
  switch (o->kind) {
  case OP_INSERT:
    bar = aucs_place_insert_barrier(I);
    set_id(bar, o->id);
    return bar;
  case OP_DELETE:
    if (LLVMGetFirstUse(I)) { /* erasing it would leave dangling uses */
      *err = aucs_xstrdup("the barrier's result is used");
      return NULL;
    }
    LLVMInstructionEraseFromParent(I);
    return I;
  case OP_SPLIT:
    aucs_place_split(I);
    return I;
  case OP_INLINE:
    return aucs_place_inline(I, err) ? NULL : I;
  case OP_FLATTEN:
    return flatten_op(m, o, err);
  case OP_UNIFORMIZE:
    return uniformize_op(m, o, err);
  case OP_UNIFY_EXITS:
    aucs_flatten_unify_exits(rp_fn_of(I));
    return I;
  case OP_KEEP_IN:
    return aucs_flatten_keep_in_unchecked(rp_fn_of(I), I, o->u1, o->u2, err)
               ? NULL
               : I;
  case OP_WIDEN:
    return aucs_syncfix_widen(I, err);
  case OP_FENCE:
    bar = aucs_syncfix_fence(I);
    set_id(bar, o->id);
    return bar;
  case OP_ATOMIC:
    return aucs_atomic_rmw_apply(I, err);
  case OP_WARPSYNC:
    bar = rp_warpsync_insert(I, o->u1);
    set_id(bar, o->id);
    return bar;
  }
  return NULL;
}

LLVMValueRef rp_apply_op(LLVMModuleRef m, const op *o, char **err) {
  return apply_op(m, o, err);
}

/* ---- state and items ----------------------------------------------------*/

/* kernel's name as kept by s (s->names owns it), for the warning index. */
static const char *intern(state *s, const char *kernel) {
  for (size_t i = 0; i < s->nnames; i++)
    if (!strcmp(s->names[i], kernel))
      return s->names[i];
  s->names = aucs_xrealloc(s->names, (s->nnames + 1) * sizeof *s->names);
  return s->names[s->nnames++] = aucs_xstrdup(kernel);
}

/* The keys of the warnings (findings that do not count) of a detection: a
 * trial's replay that sees one again has no reason to stop early, since
 * its full detection would leave it out again. */
static void note_warnings(state *s, const aucs_report *rep) {
  for (size_t k = 0; k < rep->nkernels; k++)
    for (size_t i = 0; i < rep->kernels[k].findings.n; i++) {
      const aucs_finding *f = &rep->kernels[k].findings.v[i];
      if (!aucs_finding_counts(f, rep->strict))
        rp_index_add(&s->warn_index, intern(s, rep->kernels[k].name),
                     (int)f->kind, aucs_repair_id(f->a.instr),
                     aucs_repair_id(f->b.instr), 0, 0);
    }
}

static int warned(const state *s, const char *kernel, const aucs_finding *f) {
  size_t a, b;
  return rp_index_find(&s->warn_index, kernel, (int)f->kind,
                       aucs_repair_id(f->a.instr), aucs_repair_id(f->b.instr),
                       &a, &b);
}

/* A trial's detection runs without the static checker, whose proof a
 * benign race needs (benign.h): a race that stored one value in every run
 * and was a warning before is one again (the final check, with the
 * checker, classifies it afresh). */
static void benign_again(state *s, aucs_report *rep) {
  for (size_t k = 0; k < rep->nkernels; k++)
    for (size_t i = 0; i < rep->kernels[k].findings.n; i++) {
      aucs_finding *f = &rep->kernels[k].findings.v[i];
      if (f->kind != AUCS_FINDING_RACE || f->values != AUCS_VALUES_EQUAL ||
          f->severity != AUCS_SEVERITY_ERROR || f->benign ||
          !warned(s, rep->kernels[k].name, f))
        continue;
      f->severity = AUCS_SEVERITY_WARNING;
      f->benign = aucs_xstrdup("a warning of an earlier detection, whose "
                               "static checker proved the values equal");
    }
}

static void warn_index_free(state *s) {
  for (size_t i = 0; i < s->nnames; i++)
    free(s->names[i]);
  free(s->names);
  rp_index_free(&s->warn_index);
}

static int detect_with(state *s, LLVMModuleRef m, const aucs_detect_options *o,
                       aucs_report *rep) {
  LLVMValueRef *ks;
  size_t n = aucs_kernel_list(m, &ks);
  char *err = NULL;
  memset(rep, 0, sizeof(*rep));
  double t0 = aucs_seconds();
  int rc = aucs_detect_run(m, ks, n, o, rep, &err);
  if (rp_tracing())
    fprintf(stderr, "aucs: repair: detection (%s): %.3f s\n",
            o->kernel ? o->kernel : "module", aucs_seconds() - t0);
  for (size_t k = 0; !rc && rp_tracing() && k < rep->nkernels; k++)
    fprintf(stderr,
            "aucs: repair:   %s: %llu runs, %llu thread instructions, %llu "
            "static queries (%llu cached)\n",
            rep->kernels[k].name, (unsigned long long)rep->kernels[k].runs,
            (unsigned long long)rep->kernels[k].thread_instructions,
            (unsigned long long)rep->kernels[k].st.queries,
            (unsigned long long)rep->kernels[k].st.q_cached);
  free(ks);
  if (!rc) { /* warnings: only with --strict; barriers all: a proof may
              * come after inlining (add_item) */
    if (!s->first_done && s->o->first)
      s->o->first(s->o->first_ctx, rep);
    if (o->trial)
      benign_again(s, rep);
    note_warnings(s, rep);
    aucs_report_keep_counted(rep, 1);
  }
  if (rc) {
    free(s->err);
    s->err = err;
  }
  return rc;
}

/* A kernel's check in rep was cut short by a budget. */
int rp_cut_short(const aucs_report *rep) {
  for (size_t i = 0; i < rep->nkernels; i++)
    if (rep->kernels[i].budget)
      return 1;
  return 0;
}

static int detect(state *s, LLVMModuleRef m, aucs_report *rep) {
  return detect_with(s, m, &s->detect, rep);
}

enum { MAX_RUNS = 16 }; /* runs a trial replays, per repair */

static int same_run(const aucs_candidate *a, const aucs_candidate *b,
                    size_t nargs) {
  return a->seed == b->seed && a->fill == b->fill &&
         !memcmp(&a->launch, &b->launch, sizeof a->launch) &&
         (!nargs || !memcmp(a->args, b->args, nargs * sizeof *a->args));
}

/* aucs_detect_options.record: keep the run of a finding for the trials. */
static void record_run(void *ctx, const char *kernel, const aucs_candidate *c,
                       size_t nargs, const aucs_run_result *res) {
  state *s = ctx;
  for (size_t i = 0; i < s->nruns; i++)
    if (!strcmp(s->run_kernel[i], kernel) && s->run_nargs[i] == nargs &&
        same_run(&s->runs[i], c, nargs))
      return;
  if (s->nruns == MAX_RUNS)
    return;
  size_t n = s->nruns++;
  s->run_kernel = aucs_xrealloc(s->run_kernel, s->nruns * sizeof(char *));
  s->runs = aucs_xrealloc(s->runs, s->nruns * sizeof *s->runs);
  s->run_nargs = aucs_xrealloc(s->run_nargs, s->nruns * sizeof(size_t));
  s->run_kernel[n] = aucs_xstrdup(kernel);
  s->runs[n] = *c;
  s->runs[n].args = aucs_xcalloc(nargs + 1, sizeof *c->args);
  if (nargs)
    memcpy(s->runs[n].args, c->args, nargs * sizeof *c->args);
  s->run_nargs[n] = nargs;
  rp_cost_note(s, n, res);
}

static void runs_free(state *s) {
  for (size_t i = 0; i < s->nruns; i++) {
    free(s->run_kernel[i]);
    free(s->runs[i].args);
  }
  free(s->run_kernel);
  free(s->runs);
  free(s->run_nargs);
}

/* A trial's detection (issue 14): a trial edits one kernel (its helpers
 * inlined into it), so only that kernel is detected again; the others keep
 * their findings in s->cur (merge_into). The whole module when the user
 * chose a kernel anyway, or when the one-kernel detection is refused (an
 * --arg only another kernel has). */
typedef struct stop_ctx {
  state *s;
  trial *t;
} stop_ctx;

static int same_key(const aucs_repair_item *it, const char *kernel,
                    const aucs_finding *f);
static int planned(const trial *t, const aucs_finding *f);

/* aucs_detect_trial.stop: a finding that rejects the trial (the item's
 * again, or a new one) ends its replay early; a locating detection ends at
 * the item's finding in a copy not planned for. */
static int stop_at(void *ctx, const char *kernel, const aucs_finding *f) {
  stop_ctx *c = ctx;
  if (c->t->locating)
    return c->t->stopped = same_key(&c->s->r->items[c->t->item], kernel, f) &&
                           !planned(c->t, f);
  if (f->kind == AUCS_FINDING_REDUNDANT_BARRIER || warned(c->s, kernel, f))
    return 0;
  if (!same_key(&c->s->r->items[c->t->item], kernel, f) &&
      !rp_new_key(c->s, kernel, f))
    return 0;
  return c->t->stopped = 1;
}

int rp_detect_trial(state *s, trial *t, aucs_report *rep) {
  stop_ctx sc = {s, t};
  aucs_detect_trial tr = {.kernels = (const char *const *)s->run_kernel,
                          .runs = s->runs,
                          .nargs = s->run_nargs,
                          .n = s->nruns,
                          .replay_only = t->replay_only,
                          .locate = t->locating,
                          .stop = t->may_stop || t->locating ? stop_at : NULL,
                          .stop_ctx = &sc};
  t->stopped = 0;
  aucs_detect_options o = s->detect;
  o.trial = &tr;
  /* The runs decide a trial; the static checker's witnesses (and proofs)
   * come back in the full fresh-seed check before success (revalidate). */
  o.no_static = 1;
  double t0 = aucs_seconds();
  int rc = 1;
  s->r->stats.detections++;
  if (!s->detect.kernel && s->cur.nkernels > 1) {
    o.kernel = s->r->items[t->item].kernel;
    rc = detect_with(s, t->c, &o, rep);
    o.kernel = NULL;
  }
  if (rc)
    rc = detect_with(s, t->c, &o, rep);
  s->r->stats.trial_seconds += aucs_seconds() - t0;
  return rc;
}

/* Replace cur's kernels by those of part (moved out of part). */
static void merge_into(aucs_report *cur, aucs_report *part) {
  for (size_t i = 0; i < part->nkernels; i++)
    for (size_t k = 0; k < cur->nkernels; k++)
      if (!strcmp(cur->kernels[k].name, part->kernels[i].name)) {
        aucs_report_kernel_free(&cur->kernels[k]);
        cur->kernels[k] = part->kernels[i];
        part->kernels[i] = (aucs_report_kernel){0};
        break;
      }
  aucs_detect_report_free(part);
}

static const char *kernel_name(LLVMValueRef fn) {
  size_t len;
  return LLVMGetValueName2(fn, &len);
}

static int same_key(const aucs_repair_item *it, const char *kernel,
                    const aucs_finding *f) {
  unsigned a = aucs_repair_id(f->a.instr), b = aucs_repair_id(f->b.instr);
  return it->kind == f->kind && !strcmp(it->kernel, kernel) &&
         ((it->ida == a && it->idb == b) || (it->ida == b && it->idb == a));
}

int rp_find_item(const state *s, const char *kernel, const aucs_finding *f) {
  size_t i, unused;
  return rp_index_find(&s->item_index, kernel, (int)f->kind,
                       aucs_repair_id(f->a.instr), aucs_repair_id(f->b.instr),
                       &i, &unused)
             ? (int)i
             : -1;
}

static int add_item(state *s, const char *kernel, const aucs_finding *f,
                    int introduced) {
  int i = rp_find_item(s, kernel, f);
  if (i >= 0)
    return i;
  aucs_repair_result *r = s->r;
  r->items = aucs_xrealloc(r->items, (r->nitems + 1) * sizeof(*r->items));
  aucs_repair_item *it = &r->items[r->nitems];
  memset(it, 0, sizeof(*it));
  it->kind = f->kind;
  it->kernel = aucs_xstrdup(kernel);
  /* past the listed ones, once the budget is spent, only counted: the
   * words of a hundred thousand findings would outlast the budget */
  int unlisted = r->max_listed && r->nitems >= r->max_listed &&
                 aucs_budget_check(&s->budget);
  it->location =
      f->a.instr && !unlisted ? aucs_srcloc_format(f->a.instr) : NULL;
  it->headline = unlisted ? NULL : aucs_report_headline(f);
  it->outcome = AUCS_OUTCOME_REMAINS;
  it->introduced = introduced;
  it->warning = f->kind == AUCS_FINDING_REDUNDANT_BARRIER &&
                !aucs_finding_counts(f, s->detect.strict) &&
                !s->o->trust_dynamic;
  it->ida = aucs_repair_id(f->a.instr);
  it->idb = aucs_repair_id(f->b.instr);
  rp_index_add(&s->item_index, it->kernel, (int)it->kind, it->ida, it->idb,
               r->nitems, 0);
  return (int)r->nitems++;
}

static void add_items(state *s, const aucs_report *rep, int introduced) {
  for (size_t k = 0; k < rep->nkernels; k++)
    for (size_t i = 0; i < rep->kernels[k].findings.n; i++)
      add_item(s, rep->kernels[k].name, &rep->kernels[k].findings.v[i],
               introduced);
}

static void set_how(aucs_repair_item *it, char *how) {
  free(it->how);
  it->how = how;
}

/* The finding of rep with item's key, and its kernel; NULL if none. */
const aucs_finding *rp_lookup(const aucs_report *rep,
                              const aucs_repair_item *it,
                              LLVMValueRef *kernel) {
  for (size_t k = 0; k < rep->nkernels; k++)
    for (size_t i = 0; i < rep->kernels[k].findings.n; i++)
      if (same_key(it, rep->kernels[k].name, &rep->kernels[k].findings.v[i])) {
        *kernel = rep->kernels[k].fn;
        return &rep->kernels[k].findings.v[i];
      }
  return NULL;
}

/* ---- the edits of a trial -----------------------------------------------*/

/* One line of IR for an edit's "where", without metadata. */
static char *ir_line(LLVMValueRef I) {
  char *text = LLVMPrintValueToString(I);
  char *s = text;
  while (*s == ' ')
    s++;
  char *cut = strstr(s, ", !");
  if (cut)
    *cut = '\0';
  char *out = aucs_xasprintf("`%.80s`", s);
  LLVMDisposeMessage(text);
  return out;
}

char *rp_where(LLVMValueRef I, const char *rel) {
  aucs_names *n = aucs_names_build(rp_fn_of(I));
  char *line = ir_line(I);
  char *w = aucs_xasprintf("in %s%s %s",
                           aucs_names_block(n, LLVMGetInstructionParent(I)),
                           rel, line);
  free(line);
  aucs_names_free(n);
  return w;
}

static char *answers(state *s, int item) {
  const aucs_repair_item *it = &s->r->items[item];
  return aucs_xasprintf("%s: %s", it->location ? it->location : "?",
                        it->headline);
}

LLVMValueRef rp_trial_op(trial *t, op o) {
  t->ops = aucs_xrealloc(t->ops, (t->nops + 1) * sizeof(op));
  t->ops[t->nops++] = o;
  char *err = NULL;
  LLVMValueRef r = apply_op(t->c, &o, &err);
  if (!r) {
    free(t->why);
    t->why = aucs_xasprintf("%s", err ? err : "the edit failed");
  }
  free(err);
  return r;
}

void rp_log_edit(state *s, trial *t, aucs_edit e, LLVMValueRef fn) {
  e.function = aucs_xstrdup(kernel_name(fn));
  e.finding = answers(s, t->item);
  e.finding_index = t->item;
  aucs_editlog_push(&t->edits, &e);
}

LLVMValueRef rp_insert(state *s, trial *t, LLVMValueRef before,
                       const char *why) {
  LLVMValueRef fn = rp_fn_of(before);
  aucs_edit e = {.kind = AUCS_EDIT_INSERT_BARRIER};
  e.where = rp_where(before, ", before");
  LLVMValueRef bar = rp_trial_op(
      t, (op){OP_INSERT, rp_pos_of(before), ++t->next_id, 0, 0, {0, 0, 0}});
  e.id = t->next_id;
  e.source = aucs_srcloc_format(bar);
  e.source_edit = aucs_place_source_edit(bar, &e.why);
  if (why) {
    free(e.why);
    e.why = aucs_xstrdup(why);
  }
  rp_log_edit(s, t, e, fn);
  return bar;
}

char *rp_delete_source_edit(LLVMValueRef bar) {
  char *at = rp_file_line(bar);
  char *edit =
      at ? aucs_xasprintf("delete the __syncthreads(); at %s", at) : NULL;
  free(at);
  return edit;
}

void rp_delete(state *s, trial *t, LLVMValueRef bar, const char *why) {
  LLVMValueRef fn = rp_fn_of(bar);
  aucs_edit e = {.kind = AUCS_EDIT_DELETE_BARRIER, .id = aucs_repair_id(bar)};
  e.where = rp_where(bar, ":");
  e.source = aucs_srcloc_format(bar);
  e.source_edit = rp_delete_source_edit(bar);
  e.why = aucs_xstrdup(why);
  rp_log_edit(s, t, e, fn);
  rp_trial_op(t, (op){OP_DELETE, rp_pos_of(bar), 0, 0, 0, {0, 0, 0}});
}

/* ---- one trial ----------------------------------------------------------*/

/* Plan the edits for *fp; *fp is then the finding as planned for (its
 * instructions in the kernel, helpers inlined). */
static int plan(state *s, trial *t, LLVMValueRef kernel,
                const aucs_finding **fp, int variant) {
  if (rp_prepare(s, t, &kernel, fp))
    return 1;
  const aucs_finding *f = *fp;
  if (variant == RP_ATOMIC)
    return rp_plan_atomic(s, t, kernel, f);
  if (variant == RP_WARP)
    return rp_plan_warp(s, t, kernel, f);
  switch (f->kind) {
  case AUCS_FINDING_RACE:
    return rp_place_race(s, t, f->a.instr, f->b.instr, variant);
  case AUCS_FINDING_BARRIER_DIVERGENCE:
    return rp_divergence_variant(s, t, kernel, f, variant);
  case AUCS_FINDING_REDUNDANT_BARRIER:
    return rp_plan_redundant(s, t, kernel, f);
  case AUCS_FINDING_SCOPE_RACE:
    return rp_plan_scope(s, t, kernel, f, variant);
  case AUCS_FINDING_MISSING_FENCE:
    return rp_plan_fence(s, t, kernel, f, variant);
  default:
    t->why = aucs_xstrdup("no edit answers this kind of finding");
    return 1;
  }
}

static int verified(trial *t) {
  char *msg = NULL;
  int bad = LLVMVerifyModule(t->c, LLVMReturnStatusAction, &msg);
  if (bad) {
    free(t->why);
    t->why = aucs_xasprintf("the edited IR does not verify: %s", msg);
  }
  LLVMDisposeMessage(msg);
  return !bad;
}

/* The trial's detection answers the item without a new finding. */
static int accepted(state *s, trial *t, const aucs_report *after) {
  LLVMValueRef k;
  if (rp_cut_short(after)) {
    t->why = aucs_xstrdup("the check of the edit was cut short by the time "
                          "or memory budget");
    return 0;
  }
  if (rp_lookup(after, &s->r->items[t->item], &k)) {
    t->why = aucs_xstrdup("the finding was still there after the edit");
    return 0;
  }
  for (size_t i = 0; i < after->nkernels; i++)
    for (size_t j = 0; j < after->kernels[i].findings.n; j++) {
      const aucs_finding *f = &after->kernels[i].findings.v[j];
      /* a warning (a benign race, say) is no new finding but with --strict */
      if (f->kind == AUCS_FINDING_REDUNDANT_BARRIER ||
          !aucs_finding_counts(f, s->detect.strict) ||
          !rp_new_key(s, after->kernels[i].name, f))
        continue;
      char *h = aucs_report_headline(f), *l = aucs_srcloc_format(f->a.instr);
      t->why =
          aucs_xasprintf("the edit made a new finding appear (%s: %s)", l, h);
      free(h);
      free(l);
      return 0;
    }
  return 1;
}

/* Point the report's instructions and kernels at m instead of the clone. */
static void remap(aucs_report *rep, LLVMModuleRef m) {
  for (size_t k = 0; k < rep->nkernels; k++) {
    aucs_report_kernel *K = &rep->kernels[k];
    K->fn = LLVMGetNamedFunction(m, K->name);
    for (size_t i = 0; i < K->findings.n; i++) {
      K->findings.v[i].a.instr = same_in(m, K->findings.v[i].a.instr);
      K->findings.v[i].b.instr = same_in(m, K->findings.v[i].b.instr);
    }
  }
}

/* AUCS_DEBUG=swapcheck: a kept trial's clone is compared with its ops
 * made again on the module (commit takes the clone for it). */
static void swap_check(const state *s, const trial *t) {
  const char *d = getenv("AUCS_DEBUG");
  if (!d || !strstr(d, "swapcheck"))
    return;
  LLVMModuleRef again = LLVMCloneModule(s->m);
  for (size_t i = 0; i < t->nops; i++) {
    char *err = NULL;
    AUCS_ASSERT(apply_op(again, &t->ops[i], &err));
  }
  char *x = LLVMPrintModuleToString(again), *y = LLVMPrintModuleToString(t->c);
  AUCS_ASSERT(!strcmp(x, y));
  LLVMDisposeMessage(x);
  LLVMDisposeMessage(y);
  LLVMDisposeModule(again);
}

/* Keep the trial. In the rounds, the trial's clone, which is m with the
 * trial's ops made, becomes m (the ops are not made again; the caller's
 * module, m before the first, stays as it was). Once the loop edits the
 * caller's module in place (after unfold), the ops are made on it. */
static void commit(state *s, trial *t, aucs_report *after) {
  int swap = !s->in_place;
  if (swap)
    swap_check(s, t); /* after points into t->c already */
  else {
    for (size_t i = 0; i < t->nops; i++) {
      char *err = NULL;
      AUCS_ASSERT(apply_op(s->m, &t->ops[i], &err));
    }
    remap(after, s->m);
  }
  s->ops = aucs_xrealloc(s->ops, (s->nops + t->nops) * sizeof(op));
  memcpy(s->ops + s->nops, t->ops, t->nops * sizeof(op));
  s->nops += t->nops;
  for (size_t i = 0; i < t->edits.n; i++)
    aucs_editlog_push(&s->r->log, &t->edits.v[i]);
  t->edits.n = 0;
  add_items(s, after, 1);
  merge_into(&s->cur, after);
  if (swap) { /* the other kernels' findings: at the same places in t->c */
    remap(&s->cur, t->c);
    if (s->m != s->user)
      LLVMDisposeModule(s->m);
    s->m = t->c;
    t->c = NULL;
  }
  rp_cur_changed(s);
  s->next_id = t->next_id;
  s->version++;
}

static void trial_free(trial *t) {
  aucs_editlog_free(&t->edits);
  free(t->ops);
  free(t->why);
  if (t->has_prep)
    aucs_detect_report_free(&t->prep);
  if (t->c)
    LLVMDisposeModule(t->c);
}

enum { MAX_COPIES = 8 }; /* instances of one finding a trial repairs */

/* A finding of rep with the item's key whose pair of instructions is none
 * of the n pairs in done (another inlined copy of the same helper code, the
 * same ids on other instructions), or NULL. */
static const aucs_finding *other_copy(const aucs_report *rep,
                                      const aucs_repair_item *it,
                                      LLVMValueRef done[][2], size_t n) {
  for (size_t k = 0; k < rep->nkernels; k++)
    for (size_t i = 0; i < rep->kernels[k].findings.n; i++) {
      const aucs_finding *f = &rep->kernels[k].findings.v[i];
      if (!same_key(it, rep->kernels[k].name, f))
        continue;
      size_t j = 0;
      while (j < n && !(done[j][0] == f->a.instr && done[j][1] == f->b.instr))
        j++;
      if (j == n)
        return f;
    }
  return NULL;
}

/* f's pair of instructions is one of those t's plans were made for. */
static int planned(const trial *t, const aucs_finding *f) {
  for (size_t j = 0; j < t->ndone; j++)
    if (t->done[j][0] == f->a.instr && t->done[j][1] == f->b.instr)
      return 1;
  return 0;
}

/* The item's ids each name one instruction of kernel: the finding has no
 * other copy there. */
static int unique_key(LLVMValueRef kernel, const aucs_repair_item *it) {
  return rp_unique_id(kernel, it->ida) &&
         (!it->idb || rp_unique_id(kernel, it->idb));
}

/* The trial's detection when the item's instructions have copies in the
 * kernel: it stops at the item's finding in a copy no plan was made for
 * (plan_copies plans for it next: the trial is rejected whatever the rest
 * of the runs would find). Not stopped, it is the full detection. */
static int detect_copies(state *s, trial *t, aucs_report *after,
                         LLVMValueRef done[][2], size_t n) {
  t->locating = 1;
  t->done = done;
  t->ndone = n;
  int rc = rp_detect_trial(s, t, after);
  t->locating = 0;
  t->done = NULL;
  t->ndone = 0;
  if (rp_tracing() && !rc && t->stopped)
    fprintf(stderr,
            "aucs: repair: item %d: detection stopped at another copy\n",
            t->item);
  return rc;
}

/* The trial's detection, stopped at the first finding that rejects the
 * trial. A stopped detection that would accept it (the finding turned out a
 * warning) is done again in full, so the verdict is the full detection's.
 * When the item's instructions have copies in the kernel, detect_copies. */
static int detect_plan(state *s, trial *t, LLVMValueRef kernel,
                       aucs_report *after, LLVMValueRef done[][2], size_t n) {
  if (!unique_key(kernel, &s->r->items[t->item]))
    return detect_copies(s, t, after, done, n);
  t->may_stop = 1;
  int rc = rp_detect_trial(s, t, after);
  t->may_stop = 0;
  if (rc || !t->stopped)
    return rc;
  int settled = !accepted(s, t, after);
  if (rp_tracing())
    fprintf(stderr, "aucs: repair: item %d: detection stopped early: %s\n",
            t->item,
            settled ? "rejected" : "detected in full (it would accept)");
  free(t->why);
  t->why = NULL;
  if (settled)
    return 0;
  aucs_detect_report_free(after);
  return rp_detect_trial(s, t, after);
}

/* Plan, verify and detect the trial; while the item's finding is still
 * there on instructions no plan of the trial has seen (a helper called
 * twice and inlined twice: the race is in each copy), plan again for that
 * copy. 1 when the last detection accepts the trial. */
static int plan_copies(state *s, trial *t, LLVMValueRef kc,
                       const aucs_finding *fc, int variant,
                       aucs_report *after) {
  LLVMValueRef done[MAX_COPIES][2];
  size_t n = 0;
  aucs_finding cur = *fc;
  for (;;) {
    const aucs_finding *planned = &cur;
    if (plan(s, t, kc, &planned, variant) || !verified(t) ||
        rp_splits_rmw(s, t, kc, s->next_id))
      return 0;
    done[n][0] = planned->a.instr;
    done[n][1] = planned->b.instr;
    n++;
    if (detect_plan(s, t, kc, after, done, n))
      return 0;
    if (accepted(s, t, after))
      return 1;
    const aucs_finding *again =
        n < MAX_COPIES ? other_copy(after, &s->r->items[t->item], done, n)
                       : NULL;
    if (!again || aucs_budget_check(&s->budget))
      return 0;
    cur = (aucs_finding){.kind = again->kind,
                         .a = {.instr = again->a.instr},
                         .b = {.instr = again->b.instr},
                         .message = fc->message};
    if (rp_tracing())
      fprintf(stderr,
              "aucs: repair: item %d: the finding is also in "
              "another copy of the code; repairing it too\n",
              t->item);
    aucs_detect_report_free(after);
    free(t->why);
    t->why = NULL;
  }
}

/* One trial of variant for the item; 1 when it was kept. */
static int try_once(state *s, int item, LLVMValueRef kernel,
                    const aucs_finding *f, int variant) {
  trial t = {.c = LLVMCloneModule(s->m), .next_id = s->next_id, .item = item};
  s->r->items[item].attempted = 1;
  s->r->stats.trials++;
  const aucs_finding fc = {.kind = f->kind,
                           .a = {.instr = same_in(t.c, f->a.instr)},
                           .b = {.instr = same_in(t.c, f->b.instr)},
                           .message = f->message};
  LLVMValueRef kc = LLVMGetNamedFunction(t.c, kernel_name(kernel));
  aucs_report after = {0};
  int kept = plan_copies(s, &t, kc, &fc, variant, &after);
  if (rp_tracing()) {
    char *ir = LLVMPrintModuleToString(t.c);
    fprintf(stderr, "aucs: repair: item %d variant %d: %s\n%s\n", item, variant,
            kept    ? "kept"
            : t.why ? t.why
                    : "rejected",
            ir);
    LLVMDisposeMessage(ir);
  }
  if (kept) {
    rp_tried_explain(s, &t);
    rp_tried_reset(s);
    commit(s, &t, &after);
  } else {
    rp_tried_note(s, &t);
    aucs_detect_report_free(&after);
    if (t.why)
      set_how(&s->r->items[item], aucs_xstrdup(t.why));
  }
  trial_free(&t);
  return kept;
}

/* Mark the item unfixable when no barrier edit can fix it: 1 when it is
 * (or is gone), 0 when a trial may fix it (*f, *kernel set). */
static int unfixable(state *s, int item, const aucs_finding **f,
                     LLVMValueRef *kernel) {
  aucs_repair_item *it = &s->r->items[item];
  *f = rp_lookup_cur(s, it, kernel);
  if (!*f || it->outcome == AUCS_OUTCOME_UNFIXABLE)
    return 1;
  const char *suggestion = NULL, *why = aucs_place_unfixable(*f, &suggestion);
  if (!why)
    return 0;
  it->outcome = AUCS_OUTCOME_UNFIXABLE;
  set_how(it, aucs_xstrdup(why));
  free(it->suggestion);
  it->suggestion = aucs_xstrdup(suggestion);
  return 1;
}

/* A race on one read-modify-write statement: first the atomic (a barrier
 * cannot order two threads at one statement); 1 when kept. */
/* The item is a store racing with itself in a read-modify-write (h[b]++)
 * and the kernel has no other race: no barrier trial comes first. With
 * other races (the statement's load against its store, or a reduction
 * whose missing barrier lets threads of two rounds meet at one slot), the
 * barrier variants go first and the atomic after them (atomic_last). */
static int atomic_first(state *s, int item) {
  aucs_repair_item *it = &s->r->items[item];
  LLVMValueRef kernel;
  aucs_atomic_rmw r;
  const aucs_finding *f = rp_lookup_cur(s, it, &kernel);
  if (!f || it->outcome == AUCS_OUTCOME_UNFIXABLE ||
      f->kind != AUCS_FINDING_RACE || f->a.instr != f->b.instr ||
      !aucs_atomic_rmw_match(f->a.instr, f->b.instr, &r))
    return 0;
  for (size_t k = 0; k < s->cur.nkernels; k++)
    for (size_t i = 0; i < s->cur.kernels[k].findings.n; i++) {
      const aucs_finding *g = &s->cur.kernels[k].findings.v[i];
      if (g->kind == AUCS_FINDING_RACE && g->a.instr != g->b.instr &&
          rp_fn_of(g->a.instr) == kernel)
        return 0;
    }
  return try_once(s, item, kernel, f, RP_ATOMIC);
}

/* After the barrier variants: the race is one read-modify-write. */
static int atomic_last(state *s, int item, LLVMValueRef kernel,
                       const aucs_finding *f) {
  aucs_atomic_rmw r;
  if (f->kind != AUCS_FINDING_RACE ||
      !aucs_atomic_rmw_match(f->a.instr, f->b.instr, &r) ||
      aucs_budget_check(&s->budget))
    return 0;
  return try_once(s, item, kernel, f, RP_ATOMIC);
}

static int attempt(state *s, int item) {
  LLVMValueRef kernel;
  const aucs_finding *f;
  if (atomic_first(s, item))
    return 1;
  if (unfixable(s, item, &f, &kernel))
    return 0;
  if (!aucs_budget_check(&s->budget) && rp_warp_candidate(f) &&
      try_once(s, item, kernel, f, RP_WARP))
    return 1;
  int variants = f->kind == AUCS_FINDING_BARRIER_DIVERGENCE ? 4
                 : f->kind == AUCS_FINDING_RACE             ? 5
                 : f->kind == AUCS_FINDING_SCOPE_RACE       ? 3
                 : f->kind == AUCS_FINDING_MISSING_FENCE    ? 3
                                                            : 1;
  for (int v = 0; v < variants && !aucs_budget_check(&s->budget); v++) {
    s->swept = 0;
    if (try_once(s, item, kernel, f, v))
      return 1;
    if (s->swept && !aucs_budget_check(&s->budget)) { /* again, unswept */
      s->no_sweep = 1;
      int kept = try_once(s, item, kernel, f, v);
      s->no_sweep = 0;
      if (kept)
        return 1;
    }
  }
  return atomic_last(s, item, kernel, f);
}

/* ---- the loop -----------------------------------------------------------*/

static size_t nfindings(const aucs_report *r) {
  size_t n = 0;
  for (size_t k = 0; k < r->nkernels; k++)
    n += r->kernels[k].findings.n;
  return n;
}

static char *fixed_how(const aucs_repair_result *r, size_t item) {
  aucs_buf b = {0};
  for (size_t i = 0; i < r->log.n; i++)
    if (r->log.v[i].finding_index == (int)item)
      aucs_buf_printf(&b, "%sedit %zu (%s)", b.len ? ", " : "", i + 1,
                      aucs_editlog_kind_name(r->log.v[i].kind));
  if (!b.len)
    aucs_buf_puts(&b, "gone after the edits for other findings");
  return aucs_buf_take(&b);
}

static void settle(state *s) {
  aucs_repair_result *r = s->r;
  for (size_t i = 0; i < r->nitems; i++) {
    aucs_repair_item *it = &r->items[i];
    LLVMValueRef k;
    if (!rp_lookup_cur(s, it, &k)) {
      it->outcome = AUCS_OUTCOME_FIXED;
      set_how(it, fixed_how(r, i));
    } else if (it->outcome != AUCS_OUTCOME_UNFIXABLE && r->budget &&
               !it->attempted) {
      if (!r->max_listed || i < r->max_listed) /* the rest are not listed */
        set_how(it, aucs_xasprintf("not attempted: %s", r->budget));
      r->unattempted++;
    } else if (it->outcome != AUCS_OUTCOME_UNFIXABLE && !it->how)
      set_how(it, aucs_xstrdup("the round limit came first"));
    r->fixed += it->outcome == AUCS_OUTCOME_FIXED;
    if (it->warning && it->outcome != AUCS_OUTCOME_FIXED) {
      r->kept++;
      continue;
    }
    r->unfixable += it->outcome == AUCS_OUTCOME_UNFIXABLE;
    r->remaining += it->outcome == AUCS_OUTCOME_REMAINS;
  }
}

static char *warnings(const aucs_report *rep) {
  aucs_buf b = {0};
  for (size_t k = 0; k < rep->nkernels; k++) {
    const aucs_report_kernel *K = &rep->kernels[k];
    if (K->status != AUCS_KERNEL_CHECKED)
      aucs_buf_printf(&b, "aucs: warning: %s (not repaired)\n",
                      K->reason ? K->reason : K->name);
    else if (K->budget) /* checked, but not all of it: say so (exit 2) */
      aucs_buf_printf(&b,
                      "aucs: warning: fix: the first detection was cut short, "
                      "so a finding may be missing: %s\n",
                      K->reason ? K->reason : K->budget);
  }
  return aucs_buf_take(&b);
}

static int incomplete(const aucs_report *rep, int *none_checked) {
  size_t checked = 0, failed = 0;
  for (size_t k = 0; k < rep->nkernels; k++) {
    checked += rep->kernels[k].status == AUCS_KERNEL_CHECKED;
    failed += rep->kernels[k].status == AUCS_KERNEL_ERROR;
  }
  *none_checked = !checked;
  return failed || !checked || rp_cut_short(rep);
}

/* The repair's budget, and its detections' options: within that budget
 * (the kernel's own time budget is detect's default), with one query cache
 * for every trial. */
static void setup(state *s, const aucs_repair_options *o,
                  aucs_repair_options *ro) {
  static const aucs_detect_options defaults;
  aucs_detect_options *d = &s->detect;
  *ro = *o;
  *d = o->detect ? *o->detect : defaults;
  if (!d->cache)
    d->cache = aucs_qcache_new();
  if (!d->smt) /* one Z3 context for every analysis of the repair */
    d->smt = s->own_smt = aucs_smt_new(0);
  aucs_qcache_keep_sat(d->cache);
  double secs = o->time_budget ? o->time_budget : AUCS_BUDGET_FIX_SECONDS;
  uint64_t mem = o->memory_limit ? o->memory_limit : AUCS_BUDGET_MEMORY_BYTES;
  /* from the command's start when known: loading is inside fix's budget */
  aucs_budget_init_at(&s->budget, d->started > 0 ? d->started : aucs_seconds(),
                      secs, mem, d->within);
  aucs_budget_reserve(&s->budget, AUCS_BUDGET_RESERVE_FIX, 3.0);
  d->within = &s->budget;
  d->time_budget = 0;
  d->started = 0;
  ro->detect = d;
  s->o = ro;
}

/* Rounds r->rounds + 1 .. max of trials over every item. */
static void rounds(state *s, unsigned max) {
  for (unsigned round = s->r->rounds + 1;
       round <= max && nfindings(&s->cur) && !aucs_budget_check(&s->budget);
       round++) {
    s->r->rounds = round;
    size_t n = s->r->nitems;
    int kept = 0;
    for (size_t i = 0; i < n; i++)
      kept += attempt(s, (int)i);
    if (!kept)
      break;
  }
}

/* m detected in full, every kernel, with a fresh seed (the trials saw only
 * the edited kernel and the usual seed). */
int rp_final_check(state *s, LLVMModuleRef m, aucs_report *full) {
  aucs_detect_options o = s->detect;
  o.seed = (o.has_seed ? o.seed : AUCS_SEARCH_SEED) + 1;
  o.has_seed = 1;
  o.no_barrier_proofs = 1; /* redundant barriers are not fresh findings */
  double t0 = aucs_seconds();
  int rc = detect_with(s, m, &o, full);
  s->r->stats.final_seconds += aucs_seconds() - t0;
  if (rc)
    return -1;
  for (size_t k = 0; k < full->nkernels; k++) {
    s->r->stats.final_queries += full->kernels[k].st.queries;
    s->r->stats.final_cached += full->kernels[k].st.q_cached;
  }
  int fresh = 0;
  for (size_t k = 0; k < full->nkernels; k++)
    for (size_t i = 0; i < full->kernels[k].findings.n; i++) {
      const aucs_finding *f = &full->kernels[k].findings.v[i];
      fresh |= f->kind != AUCS_FINDING_REDUNDANT_BARRIER &&
               rp_new_key(s, full->kernels[k].name, f);
    }
  if (!fresh)
    aucs_detect_report_free(full);
  return fresh;
}

/* The edited module's final check. When it finds something the loop's
 * report lacks, that report is replaced and the new findings become items
 * (introduced): 1, and the loop goes on. */
static int revalidate(state *s) {
  aucs_report full;
  if (rp_final_check(s, s->m, &full) <= 0)
    return 0;
  add_items(s, &full, 1);
  aucs_detect_report_free(&s->cur);
  s->cur = full;
  rp_cur_changed(s);
  return 1;
}

/* The rounds edited a clone of the caller's module: replay their ops on the
 * caller's module, which the loop edits directly from now on. */
static void unfold(state *s) {
  s->in_place = 1;
  if (s->m == s->user)
    return;
  for (size_t i = 0; i < s->nops; i++) {
    char *err = NULL;
    AUCS_ASSERT(apply_op(s->user, &s->ops[i], &err));
  }
  remap(&s->cur, s->user);
  rp_cur_changed(s);
  LLVMDisposeModule(s->m);
  s->m = s->user;
}

static void state_free(state *s, aucs_qcache *own) {
  rp_index_free(&s->item_index);
  runs_free(s);
  rp_cost_free(s);
  warn_index_free(s);
  aucs_qcache_free(own);
  aucs_smt_free(s->own_smt);
  free(s->memo);
  free(s->ops);
  if (s->m != s->user)
    LLVMDisposeModule(s->m);
}

int aucs_repair_run(LLVMModuleRef m, const aucs_repair_options *o,
                    aucs_repair_result *r, char **err) {
  static const aucs_repair_options none = {0};
  aucs_repair_options ro;
  state s = {.m = m, .user = m, .r = r};
  setup(&s, o ? o : &none, &ro);
  s.detect.record = record_run;
  s.detect.record_ctx = &s;
  memset(r, 0, sizeof(*r));
  r->max_listed = aucs_report_max_listed(s.detect.max_findings);
  double t0 = aucs_seconds();
  aucs_repair_ids_assign(m);
  s.next_id = top_id(m);
  aucs_qcache *own = o && o->detect && o->detect->cache ? NULL : s.detect.cache;
  int failed = detect(&s, s.m, &s.cur);
  r->stats.first_seconds = aucs_seconds() - t0;
  s.first_done = 1;
  if (failed) {
    *err = s.err;
    state_free(&s, own);
    return 1;
  }
  add_items(&s, &s.cur, 0);
  for (size_t k = 0; k < s.cur.nkernels; k++)
    s.first_units += s.cur.kernels[k].st.units;
  rp_proofs_seed(&s, &s.cur);
  r->warnings = warnings(&s.cur);
  r->incomplete = incomplete(&s.cur, &r->none_checked);
  unsigned max = s.o->max_rounds ? s.o->max_rounds : AUCS_REPAIR_ROUNDS;
  rounds(&s, max);
  int folded = r->log.n && !aucs_budget_check(&s.budget) && rp_fold_run(&s);
  if (!folded) {
    unfold(&s);
    if (r->log.n && !aucs_budget_check(&s.budget) && revalidate(&s))
      rounds(&s, max);
  }
  rp_minimize(&s, t0);
  rp_cost_measure(&s);
  if (aucs_budget_check(&s.budget))
    r->budget = aucs_budget_why(&s.budget);
  for (size_t i = 0; r->budget && i < r->nitems; i++) {
    LLVMValueRef k;
    const aucs_finding *f;
    unfixable(&s, (int)i, &f, &k); /* no trial needed to tell */
  }
  settle(&s);
  r->stats.seconds = aucs_seconds() - t0;
  aucs_detect_report_free(&s.cur);
  rp_cur_changed(&s);
  free(s.err);
  rp_proofs_free(&s);
  rp_tried_reset(&s);
  state_free(&s, own);
  return 0;
}

void aucs_repair_result_free(aucs_repair_result *r) {
  aucs_editlog_free(&r->log);
  for (size_t i = 0; i < r->nitems; i++) {
    free(r->items[i].kernel);
    free(r->items[i].location);
    free(r->items[i].headline);
    free(r->items[i].how);
    free(r->items[i].suggestion);
  }
  free(r->items);
  for (size_t i = 0; i < r->nper_thread; i++)
    free(r->per_thread[i].kernel);
  for (size_t i = 0; i < r->ndropped; i++)
    free(r->dropped[i]);
  free(r->dropped);
  free(r->per_thread);
  free(r->warnings);
  free(r->budget);
  memset(r, 0, sizeof(*r));
}
