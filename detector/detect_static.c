/*
 * detect_static: the static checker's part of one kernel's detection
 * (detect.c's steps with the static checker, static.h): analyse the kernel,
 * replay the SAT pairs' witnesses as runs, then mark the barriers Z3
 * proves redundant and attach witnesses, possible races and assumptions to
 * the report.
 */
#include "detect_impl.h"

#include <string.h>

/* ---- the static checker (static.h) --------------------------------------*/

/* The fields of struct parameters the user (or the host launch) fixed, as
 * the static checker takes them (*n of them; free with free()). */
static aucs_static_field *fixed_fields(const kstate *s, size_t *n) {
  aucs_static_field *v = aucs_xcalloc(s->nl + 1, sizeof *v);
  *n = 0;
  for (size_t j = 0; j < s->nl; j++) {
    const aucs_input *x = &s->in->v[j];
    if (x->field && s->iv.fixed[j] && dt_scalar(&x->p) && x->p.bits <= 64)
      v[(*n)++] = (aucs_static_field){.param = x->param,
                                      .offset = x->offset,
                                      .bits = x->p.bits,
                                      .value = s->iv.vals[j]};
  }
  return v;
}

static void static_analyze(kstate *s) {
  const aucs_detect_options *o = s->o;
  size_t nfields;
  aucs_static_field *fields = fixed_fields(s, &nfields);
  uint64_t *lo = aucs_xcalloc(s->np + 1, sizeof *lo),
           *hi = aucs_xcalloc(s->np + 1, sizeof *hi);
  unsigned char *ranged = aucs_xcalloc(s->np + 1, 1);
  for (size_t i = 0; i < s->np; i++)
    ranged[i] = (unsigned char)aucs_launchplan_range(&s->lp, i, &lo[i], &hi[i]);
  aucs_static_options so = {
      .timeout_ms = o->smt_timeout,
      .budget_ms = o->static_budget,
      .fixed_grid = s->lp.has_grid,
      .fixed_block = s->lp.has_block,
      .launch = {s->lp.grid, s->lp.block},
      .args = s->vals,
      .fixed_arg = s->fixed,
      .ranged_arg = ranged,
      .arg_lo = lo,
      .arg_hi = hi,
      .fields = fields,
      .nfields = nfields,
      .may_alias = o->may_alias,
      .skip_barriers = o->no_barrier_proofs,
      .cache = s->cache,
      .smt = o->smt,
      .budget = &s->pg.stat,
  };
  s->st = aucs_static_analyze(s->k->fn, &so);
  s->pg.st = s->st;
  free(fields);
  free(lo);
  free(hi);
  free(ranged);
}

static int same_inputs(const aucs_candidate *a, const aucs_candidate *b,
                       size_t np) {
  return !memcmp(&a->launch, &b->launch, sizeof a->launch) &&
         !memcmp(a->args, b->args, np * sizeof *a->args);
}

static int pair_matches(const aucs_static_pair *p, const aucs_finding *f) {
  aucs_finding_kind want =
      p->inter_block ? AUCS_FINDING_INTER_BLOCK_RACE : AUCS_FINDING_RACE;
  return f->kind == want &&
         ((f->a.instr == p->a.instr && f->b.instr == p->b.instr) ||
          (f->a.instr == p->b.instr && f->b.instr == p->a.instr));
}

/* A run has found the race of pair p already. */
static int confirmed(const aucs_report_kernel *k, const aucs_static_pair *p) {
  for (size_t i = 0; i < k->findings.n; i++)
    if (pair_matches(p, &k->findings.v[i]))
      return 1;
  return 0;
}

/* Two pairs of the same source lines (and kind). */
static int same_lines(const aucs_static_pair *p, const aucs_static_pair *q) {
  return p->inter_block == q->inter_block &&
         LLVMGetDebugLocLine(p->a.instr) == LLVMGetDebugLocLine(q->a.instr) &&
         LLVMGetDebugLocLine(p->b.instr) == LLVMGetDebugLocLine(q->b.instr);
}

/* Pair indices: the first of each pair of lines, then the others. */
static size_t *replay_order(const aucs_static *st, size_t n) {
  size_t *order = aucs_xcalloc(n + 1, sizeof *order), m = 0;
  unsigned char *first = aucs_xcalloc(n + 1, 1);
  for (size_t i = 0; i < n; i++) {
    first[i] = 1;
    for (size_t j = 0; j < i && first[i]; j++)
      first[i] =
          !same_lines(aucs_static_pair_at(st, i), aucs_static_pair_at(st, j));
  }
  for (int pass = 1; pass >= 0; pass--)
    for (size_t i = 0; i < n; i++)
      if (first[i] == pass)
        order[m++] = i;
  free(first);
  return order;
}

static unsigned replay_limit(const aucs_detect_options *o) {
  return o->replays ? o->replays : AUCS_DETECT_REPLAYS;
}

/* Per leaf: a witness's value of each scalar parameter the user left free,
 * else the user's value; an integer field the user left free (the solver
 * does not choose fields) is the witness launch's thread count, a size. */
static void witness_args(const kstate *s, const aucs_static_witness *w,
                         uint64_t *out) {
  const aucs_dim3 g = w->launch.grid, b = w->launch.block;
  uint64_t threads = (uint64_t)g.x * g.y * g.z * b.x * b.y * b.z;
  for (size_t j = 0; j < s->nl; j++) {
    const aucs_input *x = &s->in->v[j];
    out[j] = s->iv.vals[j];
    if (s->iv.fixed[j] || !dt_scalar(&x->p))
      continue;
    if (!x->field && x->param < s->np)
      out[j] = w->args[x->param];
    else if (x->p.kind == AUCS_PARAM_INT && x->p.bits > 1)
      out[j] = x->p.bits < 64 && threads >> (x->p.bits - 1)
                   ? (UINT64_C(1) << (x->p.bits - 1)) - 1
                   : threads;
  }
}

/* Replay each SAT pair's witness as one run (once per distinct input, and
 * not when an earlier run found the pair's race), unless the search's
 * single run is that input anyway. At most o->replays runs: a witness can
 * choose long loops, and a kernel can have a hundred SAT pairs (an
 * unrolled loop repeats its accesses); the first pair of each pair of
 * source lines goes first, and the pairs left stay possible races, saying
 * why. */
void dt_static_replay(kstate *s, const aucs_search_space *sp) {
  if (s->o->no_static)
    return;
  static_analyze(s);
  int all_fixed = s->lp.has_grid && s->lp.has_block;
  for (size_t j = 0; j < s->nl; j++)
    all_fixed &= !dt_scalar(&s->leaves[j]) || s->lfixed[j];
  if (all_fixed && !s->o->static_only)
    return; /* the search runs the only launch a witness can have */
  size_t n = aucs_static_npairs(s->st), done = 0;
  size_t limit = replay_limit(s->o);
  aucs_candidate *runs = aucs_xcalloc(n + 1, sizeof *runs);
  s->unreplayed = aucs_xcalloc(n + 1, 1);
  size_t *order = replay_order(s->st, n);
  for (size_t o = 0; o < n; o++) {
    size_t i = order[o];
    const aucs_static_pair *p = aucs_static_pair_at(s->st, i);
    if (p->verdict != AUCS_STATIC_SAT || !p->witness.replayable ||
        confirmed(s->k, p))
      continue;
    aucs_candidate c = {.launch = p->witness.launch,
                        .args = aucs_xcalloc(s->nl + 1, sizeof *c.args),
                        .seed = sp->seed,
                        .fill = sp->fixed_fill ? sp->fill : AUCS_FILL_RANDOM};
    witness_args(s, &p->witness, c.args);
    size_t k = 0;
    while (k < done && !same_inputs(&runs[k], &c, s->nl))
      k++;
    if (k < done || done == limit) {
      s->unreplayed[i] = k == done;
      free(c.args);
      continue;
    }
    aucs_fitness fit;
    runs[done++] = c;
    uint64_t before = s->k->runs;
    aucs_search_verdict v = dt_eval(s, &c, &fit);
    s->pg.replays += s->k->runs - before;
    if (v == AUCS_SEARCH_STOP || s->pg.kernel.hit) {
      s->pg.replays_cut = 1;
      break;
    }
  }
  for (size_t i = 0; i < done; i++)
    free(runs[i].args);
  free(runs);
  free(order);
}

/* The user or the host code fixed part of the launch or arguments: the
 * static checker's proofs then hold for those only. */
static int fixed_inputs(const kstate *s) {
  int fixed = s->lp.has_grid || s->lp.has_block || s->o->user.nargs;
  for (size_t j = 0; j < s->nl && !fixed; j++)
    fixed = s->iv.fixed[j];
  return fixed;
}

/* With --static, the barriers Z3 proves redundant are the findings (a
 * run that saw one order a pair wins); by default the dynamic rule finds
 * them and the proof only annotates. */
void dt_static_proven_barriers(kstate *s) {
  aucs_report_kernel *k = s->k;
  for (size_t i = 0;
       s->st && s->o->static_only && i < aucs_static_nbarriers(s->st); i++) {
    LLVMValueRef bar = aucs_static_barrier(s->st, i);
    int ordered = 0;
    for (size_t j = 0; j < s->nbar; j++)
      ordered |= aucs_prog_barrier(s->prog, j) == bar && s->bar_ordered[j];
    if (!aucs_static_barrier_redundant(s->st, bar) || ordered ||
        dt_in_finding(k, bar) || dt_communicates(bar))
      continue;
    aucs_finding f = {
        .kind = AUCS_FINDING_REDUNDANT_BARRIER,
        .a = {.instr = bar},
        .proven = 1,
        .args = aucs_xstrdup(""), /* no run made it: no launch */
        .message = aucs_xasprintf(
            "it separates no pair of accesses that can conflict (proven by "
            "Z3 for %s)",
            fixed_inputs(s) ? "the given launch and arguments"
                            : "every launch within the stated bounds"),
    };
    aucs_findings_push(&k->findings, &f);
    k->reproduce = aucs_xrealloc(k->reproduce, k->findings.n * sizeof(char *));
    k->reproduce[k->findings.n - 1] = NULL;
  }
}

/* A redundant barrier the runs found and Z3 proves: its message says the
 * proof instead of "dynamic evidence". */
static void proven_text(aucs_finding *f) {
  static const char dyn[] = " (dynamic evidence: no input tried needed it)";
  char *at = f->message ? strstr(f->message, dyn) : NULL;
  if (!at)
    return;
  char *m = aucs_xasprintf("%.*s, and Z3 proves that no pair of accesses it "
                           "separates can conflict",
                           (int)(at - f->message), f->message);
  free(f->message);
  f->message = m;
}

static aucs_report_witness *witness_of(const kstate *s,
                                       const aucs_static_witness *w) {
  aucs_report_witness *r = aucs_xcalloc(1, sizeof *r);
  *r = (aucs_report_witness){.launch = w->launch,
                             .thread = {w->thread[0], w->thread[1]},
                             .block = {w->block[0], w->block[1]}};
  uint64_t *vals = aucs_xcalloc(s->nl + 1, sizeof *vals);
  unsigned char *chosen = aucs_xcalloc(s->nl + 1, 1);
  witness_args(s, w, vals);
  for (size_t j = 0; j < s->nl; j++) /* the solver chooses no field */
    chosen[j] = !s->in->v[j].field;
  r->args = dt_format_args(s, vals, NULL);
  r->shown_args = dt_format_args(s, vals, chosen);
  free(vals);
  free(chosen);
  return r;
}

/* A SAT pair no finding matches: a possible race. */
static void possible(kstate *s, const aucs_static_pair *p, size_t j) {
  aucs_report_static *st = &s->k->st;
  const aucs_static_witness *w = &p->witness;
  aucs_report_witness *rw = witness_of(s, w);
  aucs_finding f = {
      .kind =
          p->inter_block ? AUCS_FINDING_INTER_BLOCK_RACE : AUCS_FINDING_RACE,
      .memory = p->memory,
      .object = p->object ? aucs_xstrdup(p->object) : NULL,
      .offset = w->offset,
      .a = {p->a.instr, w->thread[0], w->block[0], p->a.op, p->a.size},
      .b = {p->b.instr, w->thread[1], w->block[1], p->b.op, p->b.size},
      .launch = w->launch,
      .args = aucs_xstrdup(rw->args),
      .message =
          s->unreplayed && s->unreplayed[j]
              ? aucs_xasprintf("the solver's witness was not replayed: the "
                               "kernel's replays were spent (%u runs)",
                               replay_limit(s->o))
              : aucs_xstrdup(
                    w->replayable
                        ? "the solver's witness did not replay as a race "
                          "(values it chose freely, such as loaded data, "
                          "differ in the run)"
                        : "the solver's witness cannot be run by the "
                          "interpreter (e.g. distinct pointer arguments "
                          "aliasing, or a grid beyond its limits)"),
  };
  aucs_findings_push(&st->possible, &f);
  st->possible_witness = aucs_xrealloc(
      st->possible_witness, st->possible.n * sizeof *st->possible_witness);
  st->possible_witness[st->possible.n - 1] = *rw;
  free(rw);
}

static void static_assumptions(const aucs_static *a, aucs_report_static *st) {
  st->nassumptions = aucs_static_nassumptions(a);
  st->assumptions = aucs_xcalloc(st->nassumptions + 1, sizeof *st->assumptions);
  for (size_t i = 0; i < st->nassumptions; i++) {
    LLVMValueRef call = aucs_static_assumption(a, i);
    st->assumptions[i].location = aucs_srcloc_format(call);
    st->assumptions[i].condition = aucs_assume_text(call);
  }
}

/* What the static checker adds to the kernel's report. */
void dt_static_annotate(kstate *s) {
  if (!s->st)
    return;
  aucs_report_kernel *k = s->k;
  aucs_report_static *st = &k->st;
  aucs_static_counts c = aucs_static_counts_of(s->st);
  const aucs_smt_stats *q = aucs_static_stats(s->st);
  st->ran = 1;
  st->fixed = fixed_inputs(s);
  st->may_alias = s->o->may_alias;
  st->proof = aucs_static_proof_name(aucs_static_proof_of(s->st));
  st->pairs = c.total, st->unsat = c.unsat, st->sat = c.sat;
  st->unknown = c.unknown;
  st->queries = q->queries, st->q_sat = q->sat, st->q_unsat = q->unsat;
  st->q_unknown = q->unknown, st->seconds = q->seconds;
  st->units = q->units;
  st->q_cheap = q->cheap, st->q_cached = q->cached;
  static_assumptions(s->st, st);
  st->witness = aucs_xcalloc(k->findings.n + 1, sizeof *st->witness);
  for (size_t i = 0; i < k->findings.n; i++)
    if (k->findings.v[i].kind == AUCS_FINDING_REDUNDANT_BARRIER &&
        (k->findings.v[i].proven = aucs_static_barrier_redundant(
             s->st, k->findings.v[i].a.instr)))
      proven_text(&k->findings.v[i]);
  for (size_t j = 0; j < aucs_static_npairs(s->st); j++) {
    const aucs_static_pair *p = aucs_static_pair_at(s->st, j);
    int matched = 0, sat = p->verdict == AUCS_STATIC_SAT;
    for (size_t i = 0; p->verdict != AUCS_STATIC_UNSAT && i < k->findings.n;
         i++)
      if (pair_matches(p, &k->findings.v[i])) {
        matched = 1;
        if (sat && !st->witness[i])
          st->witness[i] = witness_of(s, &p->witness);
      }
    if (sat && !matched)
      possible(s, p, j);
    st->confirmed += matched; /* an unknown pair a run showed is decided */
    st->shown += matched && !sat;
  }
}
