/*
 * static: access summaries, barrier intervals and Z3 verdicts for one kernel
 * (DESIGN.md section 5.3; the interface and its bounds are in static.h).
 *
 * Steps:
 *   1. Collect the accesses of the kernel and, at each call of a defined
 *      helper, of the helper in a frame of its own (depth <= 4, no
 *      recursion): object (global / kernel argument / unknown) and space.
 *      An access is anchored at its kernel-level instruction (the call for
 *      a helper's access).
 *   2. Interval starts: the entry and every barrier of the kernel in a
 *      uniform block. From each start, a search over the CFG (back edges
 *      included) marks the anchors reached before any such barrier; every
 *      two conflicting accesses reached from one start form a query. A
 *      second search per loop L tracks the iteration of L each access is
 *      reached in (the start's own iteration, the next one, the first one
 *      of a fresh entry, ...): when both accesses agree, a uniform phi of
 *      L's header is one term for both threads; in the first iteration of a
 *      fresh entry a header phi is its start value.
 *      __syncwarp: when the kernel calls llvm.nvvm.bar.warp.sync with the
 *      constant all-ones mask in a uniform block, or with the block shape
 *      given in a warp-uniform one (aucs/warpuni.h: `if (tid < 32)`)
 *      (directly or through a helper that is only that call), step 2 runs
 *      twice: with the block
 *      barriers (set A) and with those calls as starts and ends of
 *      intervals too (set W, where two threads of one warp meet). A query
 *      in both is asked as it is; one only in A for two threads of
 *      different warps (linear tid / 32 differ); one only in W (its loop
 *      modes differ) for two threads of one warp.
 *      Each query also names its start's region (the barrier-free edges
 *      from the start) when that is acyclic with no loop edge: there both
 *      threads start at one instance of the start and run each block at
 *      most once, so a uniform branch is one term for both.
 *   3. Encode each query over two symbolic threads (step 4) and ask Z3
 *      (smt.h) within the per-query timeout and the kernel's budget. A SAT
 *      query with a region is asked again with each thread's path from the
 *      start to its access (an OR over the region's edges of branch
 *      conditions): UNSAT there decides (a path that skips a barrier only
 *      under a uniform condition the other thread's path contradicts). A SAT
 *      query is asked again under the interpreter's limits (small grid,
 *      arguments in range, one object) for a witness it can replay, with
 *      a quarter of the timeout. Two threads of one block read one set of
 *      ctaid symbols, so blockIdx * blockDim is one term for both.
 *   4. Values: integers and pointers as bit-vectors (pointers 64-bit: an
 *      object's base symbol plus the GEP offset), i1 as Booleans; the
 *      thread's special registers as symbols bounded by the launch; a
 *      join's phi as an if-then-else over its incoming edges' conditions; a
 *      loop header's affine phi as start + k * step (with `nsw`/`nuw`, k is
 *      exact: computed wide and bounded), and for k >= 1 the latch's test
 *      held when the back edge was taken (what bounds a rotated loop's
 *      variable); a toggle (c - i, i ^ m) as its start or the start's
 *      image; floats as bit-vectors of their IEEE bits; a pure library
 *      call, float operation or intrinsic as an uninterpreted function of
 *      its operands (uf.h); a field of a read-only byval parameter one
 *      symbol per kernel (static_fields.c); a load of an object no access
 *      of the kernel writes one function of its address for both threads
 *      (static_readonly.c); anything else a fresh symbol per thread. A
 *      block's guard is its entry condition on the branch DAG. A global index
 *      (blockIdx * blockDim + threadIdx) and a non-wrapping affine phi are
 *      multiples: v = s + k * d exactly; two threads' multiples of one d
 *      get the facts that order them (multiple_lemmas), and such a query
 *      is also tried with its products as unknowns (smt.h), which proves
 *      grid-stride loops.
 *   5. Redundancy of a barrier B: repeat step 2 (both sets) without B;
 *      every query whose group (pair, warps, loop modes; any region)
 *      appears only then is a pair B separates; B is redundant when each
 *      is UNSAT.
 *
 * Files: step 1 is static_access.c, step 2 static_intervals.c, step 3
 * static_query.c, step 4 static_encode.c; their shared types are in
 * static_impl.h; this file is the interface (pairs, barriers, redundancy).
 *
 * Limitation: see static.h. Moreover, a loop variable is shared between
 * the two threads when uniform.c deems it uniform, which like uniform.c
 * assumes loads through thread-independent addresses are not racy (a race
 * on such a load is a pair of its own).
 */
#include "static_impl.h"

/* ---- pairs, barriers and the interface ---------------------------------*/

static int pair_of(aucs_static *S, const query *q) {
  const acc *a = &S->accs[q->a], *b = &S->accs[q->b];
  for (size_t i = 0; i < S->npairs; i++) {
    const aucs_static_pair *p = &S->pairs[i];
    if (p->inter_block == q->inter &&
        ((p->a.instr == a->instr && p->b.instr == b->instr) ||
         (p->a.instr == b->instr && p->b.instr == a->instr)))
      return (int)i;
  }
  S->pairs = aucs_xrealloc(S->pairs, (S->npairs + 1) * sizeof *S->pairs);
  aucs_static_pair *p = &S->pairs[S->npairs];
  int sp = a->space & b->space;
  size_t len;
  *p = (aucs_static_pair){
      .a = {.instr = a->instr, .op = a->op, .size = (unsigned)a->size},
      .b = {.instr = b->instr, .op = b->op, .size = (unsigned)b->size},
      .memory = sp == SP_SHARED   ? AUCS_MEM_SHARED
                : sp == SP_GLOBAL ? AUCS_MEM_GLOBAL
                                  : AUCS_MEM_NONE,
      .object = a->root ? LLVMGetValueName2(a->root, &len) : NULL,
      .inter_block = q->inter,
      .verdict = AUCS_STATIC_UNSAT,
  };
  return (int)S->npairs++;
}

/* A pair is SAT when one of its queries is, else UNKNOWN when one is. */
static void merge(aucs_static_pair *p, const query *q) {
  if (p->verdict == AUCS_STATIC_SAT || q->verdict == AUCS_STATIC_UNSAT)
    return;
  p->verdict = q->verdict;
}

static void copy_witness(const aucs_static *S, aucs_static_pair *p,
                         const query *q) {
  p->witness = q->w;
  p->witness.args = aucs_xcalloc(S->nparams + 1, sizeof *p->witness.args);
  if (q->w.args)
    memcpy(p->witness.args, q->w.args, S->nparams * sizeof *q->w.args);
}

static void make_pairs(aucs_static *S, const qset *qs) {
  for (size_t i = 0; i < qs->n; i++) {
    const query *q = &S->qs[qs->v[i]];
    if (S->cut && !q->asked)
      continue; /* the budget stopped the analysis first */
    if (st_budget_spent(S))
      break;
    int k = pair_of(S, q);
    aucs_static_pair *p = &S->pairs[k];
    int was_sat = p->verdict == AUCS_STATIC_SAT;
    merge(p, q);
    if (!was_sat && p->verdict == AUCS_STATIC_SAT)
      copy_witness(S, p, q);
  }
}

/* A repair's proof (only_barrier) is decided by its first query that is
 * not UNSAT: the rest need not be asked. */
static void solve_until_sat(aucs_static *S, const qset *qs) {
  for (size_t k = 0; k < qs->n && !S->cut; k++) {
    qset one = {qs->v + k, 1};
    st_solve_all(S, &one);
    if (S->qs[qs->v[k]].asked && S->qs[qs->v[k]].verdict != AUCS_STATIC_UNSAT)
      return;
  }
}

/* Barrier i is redundant when every query that appears without it is
 * UNSAT. */
static void barrier_redundancy(aucs_static *S, size_t i, const qset *base) {
  qset without = {0}, extra = {0};
  st_interval_queries(S, S->bars[i], &without);
  for (size_t k = 0; k < without.n; k++)
    if (!st_in_group(S, base, without.v[k]))
      st_qset_add(&extra, without.v[k]);
  if (S->o.only_barrier)
    solve_until_sat(S, &extra);
  else
    st_solve_all(S, &extra);
  int proven = !S->cut;
  for (size_t k = 0; k < extra.n; k++)
    proven &= S->qs[extra.v[k]].verdict == AUCS_STATIC_UNSAT;
  S->bar_red[i] = (unsigned char)proven;
  free(without.v);
  free(extra.v);
}

static void options(aucs_static *S, const aucs_static_options *o) {
  if (o)
    S->o = *o;
  if (!S->o.timeout_ms)
    S->o.timeout_ms = AUCS_STATIC_TIMEOUT_MS;
  if (!S->o.budget_ms)
    S->o.budget_ms = AUCS_STATIC_BUDGET_MS;
  const char *dbg = getenv("AUCS_DEBUG");
  S->trace = dbg && strstr(dbg, "static");
}

/* Steps 1 and the symbols of step 4: what an analysis and precond.c's
 * solve share. Free with aucs_static_free. */
aucs_static *st_setup(LLVMValueRef kernel, const aucs_static_options *o) {
  aucs_static *S = aucs_xcalloc(1, sizeof *S);
  options(S, o);
  S->fn = kernel;
  S->td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(kernel));
  S->cfg = aucs_cfg_build(kernel);
  S->u = aucs_uniform_compute(S->cfg);
  S->smt = S->o.smt ? S->o.smt : (S->own_smt = aucs_smt_new(0));
  aucs_smt_stats_reset(S->smt);
  aucs_smt_set_timeout(S->smt, S->o.timeout_ms);
  S->cache = S->o.cache ? S->o.cache : (S->own_cache = aucs_qcache_new());
  S->z = aucs_smt_context(S->smt);
  st_make_symbols(S);
  st_unread_dims(S);
  st_fix_inputs(S);
  st_fix_fields(S);
  S->o.fields = NULL, S->o.nfields = 0; /* borrowed for the call only */
  S->o.ranged_arg = NULL, S->o.arg_lo = S->o.arg_hi = NULL; /* the same */
  st_collect_barriers(S);
  st_collect_fn(S, st_new_frame(S, kernel, NULL, NULL), NULL);
  S->nassume = aucs_assume_collect(S->cfg, &S->assumes);
  S->assume_used = aucs_xcalloc(S->nassume + 1, 1);
  return S;
}

aucs_static *aucs_static_analyze(LLVMValueRef kernel,
                                 const aucs_static_options *o) {
  aucs_static *S = st_setup(kernel, o);
  S->phase = 1;
  st_interval_queries(S, NULL, &S->base);
  st_inter_queries(S, &S->base);
  S->phase = 2;
  if (!S->o.only_barrier) {
    st_solve_all(S, &S->base);
    make_pairs(S, &S->base);
  }
  S->phase = 3;
  for (size_t i = 0; !S->o.skip_barriers && !S->cut && i < S->nbar; i++)
    if (S->bar_sep[i] &&
        (!S->o.only_barrier || S->bars[i] == S->o.only_barrier))
      barrier_redundancy(S, i, &S->base);
  return S;
}

void aucs_static_free(aucs_static *S) {
  if (!S)
    return;
  for (size_t i = 0; i < S->nq; i++) {
    free(S->qs[i].key);
    free(S->qs[i].modes);
    free(S->qs[i].w.args);
  }
  for (size_t i = 0; i < S->npairs; i++)
    free(S->pairs[i].witness.args);
  for (int i = 1; i < S->nframes; i++)
    aucs_cfg_free(S->frames[i]->cfg);
  for (int i = 0; i < S->nframes; i++)
    free(S->frames[i]);
  free(S->frames);
  free(S->qs);
  free(S->qnext);
  aucs_ptrmap_free(&S->qindex);
  free(S->pairs);
  free(S->accs);
  free(S->bars);
  free(S->bar_sep);
  free(S->bar_red);
  free(S->warps);
  free(S->tails);
  for (size_t i = 0; i < S->nregions; i++)
    free(S->regions[i].edges);
  free(S->regions);
  free(S->params);
  free(S->launch);
  free(S->assumes);
  free(S->assume_used);
  aucs_ptrmap_free(&S->anchors);
  aucs_ptrmap_free(&S->barmap);
  aucs_ptrmap_free(&S->warpmap);
  aucs_ptrmap_free(&S->tailmap);
  aucs_ptrmap_free(&S->gbase);
  free(S->fields);
  aucs_ptrmap_free(&S->fieldmemo);
  aucs_ptrmap_free(&S->readonly);
  free(S->base.v);
  free(S->stable);
  aucs_ptrmap_free(&S->opaque);
  aucs_ptrmap_free(&S->products);
  aucs_smt_free(S->own_smt);
  aucs_qcache_free(S->own_cache);
  aucs_uniform_free(S->u);
  aucs_cfg_free(S->cfg);
  free(S);
}

size_t aucs_static_npairs(const aucs_static *s) { return s->npairs; }

const aucs_static_pair *aucs_static_pair_at(const aucs_static *s, size_t i) {
  return i < s->npairs ? &s->pairs[i] : NULL;
}

aucs_static_counts aucs_static_counts_of(const aucs_static *s) {
  aucs_static_counts c = {.total = s->npairs};
  for (size_t i = 0; i < s->npairs; i++) {
    aucs_static_verdict v = s->pairs[i].verdict;
    c.unsat += v == AUCS_STATIC_UNSAT;
    c.sat += v == AUCS_STATIC_SAT;
    c.unknown += v == AUCS_STATIC_UNKNOWN;
  }
  return c;
}

int aucs_static_stopped(const aucs_static *s, size_t *asked, size_t *built) {
  if (asked)
    *asked = s->asked;
  if (built)
    *built = s->nq;
  return s->cut;
}

aucs_static_proof aucs_static_proof_of(const aucs_static *s) {
  aucs_static_counts c = aucs_static_counts_of(s);
  return c.unsat == c.total && (!s->cut || s->cut == 3) ? AUCS_PROOF_RACE_FREE
         : c.unsat                                      ? AUCS_PROOF_PARTIAL
                                                        : AUCS_PROOF_NONE;
}

const char *aucs_static_proof_name(aucs_static_proof p) {
  static const char *const names[] = {"none", "partial", "race-free"};
  return names[p];
}

const aucs_smt_stats *aucs_static_stats(const aucs_static *s) {
  return aucs_smt_stats_of(s->smt);
}

size_t aucs_static_nassumptions(const aucs_static *s) {
  size_t n = 0;
  for (size_t i = 0; i < s->nassume; i++)
    n += s->assume_used[i];
  return n;
}

LLVMValueRef aucs_static_assumption(const aucs_static *s, size_t i) {
  for (size_t k = 0; k < s->nassume; k++)
    if (s->assume_used[k] && i-- == 0)
      return s->assumes[k];
  return NULL;
}

size_t aucs_static_nbarriers(const aucs_static *s) { return s->nbar; }

LLVMValueRef aucs_static_barrier(const aucs_static *s, size_t i) {
  return i < s->nbar ? s->bars[i] : NULL;
}

int aucs_static_barrier_redundant(const aucs_static *s, LLVMValueRef barrier) {
  intptr_t i;
  return aucs_ptrmap_get(&s->barmap, barrier, &i) && s->bar_red[i - 1];
}

int aucs_static_prove_redundant(LLVMValueRef kernel, LLVMValueRef barrier,
                                const aucs_static_options *o) {
  aucs_static_options only = {0};
  if (o)
    only = *o;
  only.only_barrier = barrier;
  aucs_static *s = aucs_static_analyze(kernel, &only);
  int proven = aucs_static_barrier_redundant(s, barrier);
  aucs_static_free(s);
  return proven;
}
