/*
 * precond: the kernel's preconditions solved for inputs that satisfy them
 * (what and why: precond.h; the encoding is static_encode.c's).
 *
 *   1. Set up the static checker's symbols and frames (st_setup) for the
 *      query's fixed launch; fixed inputs are equalities.
 *   2. Collect the conditions in program order (the branch DAG's
 *      topological order, then instruction order): assumptions and
 *      never-entered blocks (musts), early exits (wants).
 *   3. Encode each over two threads: side 0 the grid's first thread
 *      (tid = ctaid = 0), side 1 its last (tid = ntid - 1, ctaid =
 *      nctaid - 1). A must holds on both sides (`EC(b) -> c`, `!EC(b)`), a
 *      want on side 0 (`!(EC(p) && cond(p -> exit))`).
 *   4. Ask tier 0 with the wants, tier 0, tier 1, then tier 2: the first
 *      SAT tier below 2 gives the inputs, each next one asked to differ
 *      from the earlier.
 *   5. Tier 2 UNSAT: grow the musts one by one in program order until
 *      UNSAT; the last one added is the culprit.
 *   6. Constants: the integer constants of the conditions' computations
 *      (through instructions of the kernel, a few levels deep).
 *
 * Limitation: see precond.h.
 */
#include "aucs/precond.h"

#include "static_impl.h"

enum { MUST_ASSUME, MUST_AVOID, WANT_PASS };
enum { NTIERS = 3, SLICE_DEPTH = 6, LAUNCH_TERMS = 6 };

typedef struct cond {
  int kind;
  LLVMValueRef at; /* the assume, the trap call or `unreachable`; the
                      exit branch */
  int block, from; /* the block (never entered: AVOID; the exit: WANT) and
                      the exit branch's block */
  Z3_ast term;     /* both sides; NULL when it cannot be encoded */
} cond;

typedef struct solver {
  aucs_static *S;
  const aucs_precond_query *q;
  aucs_precond_result *out;
  cond *c;
  size_t nc;
  Z3_ast *terms; /* ntid.xyz, nctaid.xyz, then one per leaf */
  size_t nterms;
  Z3_ast *base; /* launch bounds, the two threads, fixed inputs, side
                   constraints of the encoding */
  size_t nbase;
  unsigned char *chosen; /* per term: a condition mentions it, not fixed */
} solver;

/* ---- step 2: the conditions ---------------------------------------------*/

static int once_per_thread(const aucs_cfg *cfg, int b) {
  if (!cfg->reachable[b] || cfg->loop_of[b] >= 0)
    return 0;
  for (int c = 0; c < cfg->ncycles; c++)
    for (int i = 0; i < cfg->cycles[c].nblocks; i++)
      if (cfg->cycles[c].blocks[i] == b)
        return 0;
  return 1;
}

static int is_trap(LLVMValueRef I) {
  static const char *const traps[] = {"llvm.trap", "llvm.debugtrap",
                                      "llvm.ubsantrap", "__assertfail"};
  const char *name = LLVMIsACallInst(I) ? st_callee_name(I) : NULL;
  for (size_t i = 0; name && i < sizeof traps / sizeof *traps; i++)
    if (!strcmp(name, traps[i]))
      return 1;
  return 0;
}

static int is_assume(const aucs_static *S, LLVMValueRef I) {
  for (size_t i = 0; i < S->nassume; i++)
    if (S->assumes[i] == I)
      return 1;
  return 0;
}

/* What a thread that does nothing does not do: touch memory, wait, call. */
static int work(LLVMValueRef I) {
  if (LLVMIsALoadInst(I) || LLVMIsAStoreInst(I) || LLVMIsAAtomicRMWInst(I) ||
      LLVMIsAAtomicCmpXchgInst(I) || LLVMIsAFenceInst(I))
    return 1;
  if (!LLVMIsACallInst(I))
    return 0;
  const char *name = st_callee_name(I);
  return !name || !st_starts_with(name, "llvm.") ||
         st_starts_with(name, "llvm.mem") ||
         st_starts_with(name, "llvm.nvvm.barrier") ||
         st_starts_with(name, "llvm.nvvm.bar.") ||
         st_starts_with(name, "llvm.nvvm.atomic");
}

/* Per block: some work is reachable from it (a fixpoint over the CFG). */
static unsigned char *reaches_work(const aucs_cfg *cfg) {
  unsigned char *w = aucs_xcalloc((size_t)cfg->nblocks + 1, 1);
  for (int b = 0; b < cfg->nblocks; b++)
    for (LLVMValueRef I = LLVMGetFirstInstruction(cfg->blocks[b]); I && !w[b];
         I = LLVMGetNextInstruction(I))
      w[b] = (unsigned char)work(I);
  for (int changed = 1; changed;) {
    changed = 0;
    for (int b = 0; b < cfg->nblocks; b++)
      for (int i = 0; !w[b] && i < cfg->nsucc[b]; i++)
        if (w[cfg->succ[b][i]])
          w[b] = 1, changed = 1;
  }
  return w;
}

static void add_cond(solver *v, cond c) {
  v->c = aucs_xrealloc(v->c, (v->nc + 1) * sizeof *v->c);
  v->c[v->nc++] = c;
}

/* The musts of block b, in instruction order: its assumptions, then
 * whether it is never entered (a trap call, or `unreachable`). */
static void block_musts(solver *v, int b) {
  LLVMBasicBlockRef bb = v->S->cfg->blocks[b];
  for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
       I = LLVMGetNextInstruction(I)) {
    if (is_assume(v->S, I))
      add_cond(v, (cond){.kind = MUST_ASSUME, .at = I, .block = b});
    else if (is_trap(I) || LLVMIsAUnreachableInst(I)) {
      add_cond(v, (cond){.kind = MUST_AVOID, .at = I, .block = b});
      return;
    }
  }
}

/* Block b's branch to a side that reaches no work while the other does. */
static void block_wants(solver *v, int b, const unsigned char *w) {
  const aucs_cfg *cfg = v->S->cfg;
  LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->blocks[b]);
  if (!t || !LLVMIsABranchInst(t) || !LLVMIsConditional(t) ||
      cfg->nsucc[b] != 2)
    return;
  int s0 = cfg->succ[b][0], s1 = cfg->succ[b][1];
  if (w[s0] == w[s1])
    return;
  add_cond(
      v,
      (cond){.kind = WANT_PASS, .at = t, .block = w[s0] ? s1 : s0, .from = b});
}

static void collect(solver *v) {
  const aucs_cfg *cfg = v->S->cfg;
  unsigned char *w = reaches_work(cfg);
  for (int i = 0; i < cfg->ntopo; i++) {
    int b = cfg->topo[i];
    if (!once_per_thread(cfg, b))
      continue;
    block_musts(v, b);
    block_wants(v, b, w);
  }
  free(w);
}

/* ---- step 1 and 3: symbols and terms ------------------------------------*/

static Z3_ast leaf_symbol(aucs_static *S, const aucs_precond_leaf *l) {
  if (l->field)
    return st_field_symbol(S, l->param, l->offset, l->bits);
  return l->param < S->nparams ? S->params[l->param] : NULL;
}

static Z3_ast constant_of(Z3_context z, Z3_ast sym, uint64_t v) {
  if (st_is_bool(z, sym))
    return v & 1 ? Z3_mk_true(z) : Z3_mk_false(z);
  unsigned w = Z3_get_bv_sort_size(z, Z3_get_sort(z, sym));
  return st_bv(z, w < 64 ? v & ((UINT64_C(1) << w) - 1) : v, w);
}

static void make_terms(solver *v) {
  aucs_static *S = v->S;
  const aucs_precond_query *q = v->q;
  v->nterms = LAUNCH_TERMS + q->nleaves;
  v->terms = aucs_xcalloc(v->nterms + 1, sizeof *v->terms);
  v->chosen = aucs_xcalloc(v->nterms + 1, 1);
  for (int d = 0; d < 3; d++) {
    v->terms[d] = S->ntid[d];
    v->terms[3 + d] = S->nctaid[d];
  }
  for (size_t i = 0; i < q->nleaves; i++) {
    Z3_ast t = leaf_symbol(S, &q->leaves[i]);
    v->terms[LAUNCH_TERMS + i] = t;
    if (t && q->leaves[i].fixed)
      st_push_ast(&v->base, &v->nbase,
                  Z3_mk_eq(S->z, t, constant_of(S->z, t, q->leaves[i].value)));
  }
}

/* Side 0 is the grid's first thread, side 1 its last. */
static void two_threads(solver *v) {
  aucs_static *S = v->S;
  Z3_context z = S->z;
  for (size_t i = 0; i < S->nlaunch; i++)
    st_push_ast(&v->base, &v->nbase, S->launch[i]);
  for (int d = 0; d < 3; d++) {
    Z3_ast one = st_bv(z, 1, 32), zero = st_bv(z, 0, 32);
    st_push_ast(&v->base, &v->nbase, Z3_mk_eq(z, S->tid[0][d], zero));
    st_push_ast(&v->base, &v->nbase, Z3_mk_eq(z, S->ctaid[0][d], zero));
    st_push_ast(&v->base, &v->nbase,
                Z3_mk_eq(z, S->tid[1][d], Z3_mk_bvsub(z, S->ntid[d], one)));
    st_push_ast(&v->base, &v->nbase,
                Z3_mk_eq(z, S->ctaid[1][d], Z3_mk_bvsub(z, S->nctaid[d], one)));
  }
}

/* Condition c seen by one side (NULL: it says nothing there). */
static Z3_ast side_term(enc *e, const cond *c) {
  frame *f = e->S->frames[0];
  Z3_context z = e->z;
  if (c->kind == WANT_PASS)
    return e->side
               ? NULL
               : Z3_mk_not(z, st_and2(z, st_entry_cond(e, f, c->from),
                                      st_edge_cond(e, f, c->from, c->block)));
  Z3_ast in = st_entry_cond(e, f, c->block);
  if (c->kind == MUST_AVOID)
    return Z3_mk_not(z, in);
  Z3_ast x = st_val(e, f, LLVMGetOperand(c->at, 0));
  return x && st_is_bool(z, x) ? Z3_mk_implies(z, in, x) : NULL;
}

static void encode(solver *v) {
  aucs_static *S = v->S;
  int nf = S->nframes;
  aucs_ptrmap *maps = aucs_xcalloc((size_t)nf * 4 + 1, sizeof *maps);
  aucs_ptrmap shared = {0};
  unsigned char *modes = aucs_xcalloc((size_t)S->cfg->nloops + 1, 1);
  multiples mults[2] = {{0}};
  Z3_ast *t = aucs_xcalloc(2 * v->nc + 1, sizeof *t);
  for (int side = 0; side < 2; side++) {
    enc e = {.S = S,
             .z = S->z,
             .side = side,
             .block = side,
             .modes = modes,
             .memo = maps + (size_t)nf * (size_t)(2 * side),
             .ecmemo = maps + (size_t)nf * (size_t)(2 * side + 1),
             .shared = &shared,
             .cons = &v->base,
             .ncons = &v->nbase,
             .mults = &mults[side]};
    for (size_t i = 0; i < v->nc; i++)
      t[2 * i + (size_t)side] = side_term(&e, &v->c[i]);
  }
  for (size_t i = 0; i < v->nc; i++) {
    Z3_ast a = t[2 * i], b = t[2 * i + 1];
    v->c[i].term = a && b ? st_and2(S->z, a, b) : a ? a : b;
  }
  free(t);
  free(mults[0].m);
  free(mults[1].m);
  free(modes);
  for (int i = 0; i < nf * 4; i++)
    aucs_ptrmap_free(&maps[i]);
  free(maps);
  aucs_ptrmap_free(&shared);
}

/* ---- which inputs the conditions mention --------------------------------*/

/* Mark in `seen` every constant (a symbol) of t. */
static void symbols(Z3_context z, Z3_ast t, aucs_ptrmap *seen,
                    aucs_ptrmap *visited) {
  intptr_t got;
  if (!t || Z3_get_ast_kind(z, t) != Z3_APP_AST ||
      aucs_ptrmap_get(visited, t, &got))
    return;
  aucs_ptrmap_put(visited, t, 1);
  Z3_app a = Z3_to_app(z, t);
  unsigned n = Z3_get_app_num_args(z, a);
  if (!n)
    aucs_ptrmap_put(seen, t, 1);
  for (unsigned i = 0; i < n; i++)
    symbols(z, Z3_get_app_arg(z, a, i), seen, visited);
}

static int mentioned(const aucs_ptrmap *seen, Z3_ast t) {
  intptr_t got;
  return t && aucs_ptrmap_get(seen, t, &got);
}

/* A launch term is chosen when a condition reads it, or the first or
 * last thread's index along it. */
static void mark_chosen(solver *v) {
  aucs_static *S = v->S;
  aucs_ptrmap seen = {0}, visited = {0};
  for (size_t i = 0; i < v->nc; i++)
    symbols(S->z, v->c[i].term, &seen, &visited);
  const aucs_precond_query *q = v->q;
  for (int d = 0; d < 3; d++) {
    v->chosen[d] = !q->fixed_block && (mentioned(&seen, S->ntid[d]) ||
                                       mentioned(&seen, S->tid[1][d]));
    v->chosen[3 + d] = !q->fixed_grid && (mentioned(&seen, S->nctaid[d]) ||
                                          mentioned(&seen, S->ctaid[1][d]));
  }
  for (size_t i = 0; i < q->nleaves; i++)
    v->chosen[LAUNCH_TERMS + i] =
        !q->leaves[i].fixed && mentioned(&seen, v->terms[LAUNCH_TERMS + i]);
  aucs_ptrmap_free(&seen);
  aucs_ptrmap_free(&visited);
}

/* ---- step 4: tiers and inputs -------------------------------------------*/

static void at_most(solver *v, Z3_ast **a, size_t *n, Z3_ast t, uint64_t hi,
                    uint64_t lo) {
  Z3_context z = v->S->z;
  if (!t || st_is_bool(z, t))
    return;
  unsigned w = Z3_get_bv_sort_size(z, Z3_get_sort(z, t));
  uint64_t top = w >= 64 ? INT64_MAX : (UINT64_C(1) << (w - 1)) - 1;
  if (w < 2)
    return;
  st_push_ast(a, n, Z3_mk_bvule(z, t, st_bv(z, hi < top ? hi : top, w)));
  if (lo)
    st_push_ast(a, n, Z3_mk_bvuge(z, t, st_bv(z, lo, w)));
}

/* Tier t's bounds on the inputs the query leaves free (tier 0: blocks of
 * 32 to 256 threads along x, as the search's). */
static void tier(solver *v, int t, Z3_ast **a, size_t *n) {
  static const uint64_t grid_max[2] = {4, 64}, block_x_max[2] = {256, 1024};
  static const uint64_t int_lo[2] = {1, 0}, int_hi[2] = {4096, 65536};
  aucs_static *S = v->S;
  if (t >= 2)
    return;
  for (int d = 0; d < 3 && !v->q->fixed_grid; d++)
    st_push_ast(a, n,
                Z3_mk_bvule(S->z, S->nctaid[d], st_bv(S->z, grid_max[t], 32)));
  if (!v->q->fixed_grid && t == 1)
    st_push_ast(a, n,
                Z3_mk_bvule(S->z, st_product(S->z, S->nctaid),
                            st_bv(S->z, grid_max[1], 32)));
  if (!v->q->fixed_block && t == 0)
    st_push_ast(a, n, Z3_mk_bvuge(S->z, S->ntid[0], st_bv(S->z, 32, 32)));
  if (!v->q->fixed_block)
    st_push_ast(a, n,
                Z3_mk_bvule(S->z, S->ntid[0], st_bv(S->z, block_x_max[t], 32)));
  for (size_t i = 0; i < v->q->nleaves; i++)
    if (!v->q->leaves[i].fixed)
      at_most(v, a, n, v->terms[LAUNCH_TERMS + i], int_hi[t], int_lo[t]);
}

/* The asserts of a query: the base, the musts (the first `upto`), the
 * wants when asked, tier t's bounds. Free with free(). */
static Z3_ast *asserts(solver *v, size_t upto, int wants, int t, size_t *n) {
  Z3_ast *a = NULL;
  *n = 0;
  for (size_t i = 0; i < v->nbase; i++)
    st_push_ast(&a, n, v->base[i]);
  for (size_t i = 0, musts = 0; i < v->nc; i++) {
    int must = v->c[i].kind != WANT_PASS;
    if (!v->c[i].term || (must && musts++ >= upto) || (!must && !wants))
      continue;
    st_push_ast(&a, n, v->c[i].term);
  }
  tier(v, t, &a, n);
  return a;
}

static aucs_smt_result ask(solver *v, Z3_ast *a, size_t n, uint64_t *vals) {
  v->out->queries++;
  return aucs_smt_check(v->S->smt, a, n, v->terms, vals, v->nterms);
}

static void keep(solver *v, const uint64_t *vals) {
  aucs_precond_result *r = v->out;
  r->launch = aucs_xrealloc(r->launch, (r->n + 1) * sizeof *r->launch);
  r->vals = aucs_xrealloc(r->vals, (r->n + 1) * sizeof *r->vals);
  r->launch[r->n] = (aucs_launch){
      .grid = {(uint32_t)vals[3], (uint32_t)vals[4], (uint32_t)vals[5]},
      .block = {(uint32_t)vals[0], (uint32_t)vals[1], (uint32_t)vals[2]}};
  r->vals[r->n] = aucs_xcalloc(v->q->nleaves + 1, sizeof **r->vals);
  memcpy(r->vals[r->n], vals + LAUNCH_TERMS, v->q->nleaves * sizeof **r->vals);
  r->n++;
}

/* Differ from every earlier input: in each chosen term (every), or in one. */
static Z3_ast differ(solver *v, const uint64_t *const *seen, size_t nseen,
                     int every) {
  Z3_context z = v->S->z;
  Z3_ast all = Z3_mk_true(z);
  for (size_t k = 0; k < nseen; k++) {
    Z3_ast one = every ? Z3_mk_true(z) : Z3_mk_false(z);
    for (size_t i = 0; i < v->nterms; i++) {
      if (!v->chosen[i] || !v->terms[i])
        continue;
      Z3_ast ne = Z3_mk_not(
          z, Z3_mk_eq(z, v->terms[i], constant_of(z, v->terms[i], seen[k][i])));
      one = every ? st_and2(z, one, ne) : st_or2(z, one, ne);
    }
    all = st_and2(z, all, one);
  }
  return all;
}

/* More inputs under the asserts a[0..n) that gave the model vals. */
static void diverse(solver *v, Z3_ast *a, size_t n, uint64_t *vals) {
  unsigned want = v->q->want ? v->q->want : 1;
  uint64_t **seen = aucs_xcalloc(want + 1, sizeof *seen);
  size_t nseen = 0;
  seen[nseen++] = aucs_xcalloc(v->nterms + 1, sizeof **seen);
  memcpy(seen[0], vals, v->nterms * sizeof *vals);
  keep(v, vals);
  int any = 0;
  for (size_t i = 0; i < v->nterms; i++)
    any |= v->chosen[i];
  while (any && nseen < want) {
    aucs_smt_result r = AUCS_SMT_UNKNOWN;
    for (int every = 1; every >= 0 && r != AUCS_SMT_SAT; every--) {
      a[n] = differ(v, (const uint64_t *const *)seen, nseen, every);
      r = ask(v, a, n + 1, vals);
    }
    if (r != AUCS_SMT_SAT)
      break;
    seen[nseen] = aucs_xcalloc(v->nterms + 1, sizeof **seen);
    memcpy(seen[nseen++], vals, v->nterms * sizeof *vals);
    keep(v, vals);
  }
  for (size_t i = 0; i < nseen; i++)
    free(seen[i]);
  free(seen);
}

/* Step 5: the first must with which the earlier ones are UNSAT. */
static void culprit(solver *v, uint64_t *vals) {
  size_t musts = 0;
  for (size_t i = 0; i < v->nc; i++) {
    if (v->c[i].kind == WANT_PASS || !v->c[i].term)
      continue;
    size_t n;
    Z3_ast *a = asserts(v, ++musts, 0, 2, &n);
    aucs_smt_result r = ask(v, a, n, vals);
    free(a);
    if (r == AUCS_SMT_UNSAT) {
      v->out->culprit = v->c[i].at;
      v->out->before = musts - 1;
      return;
    }
  }
}

static void solve(solver *v) {
  static const struct {
    int tier, wants;
  } tries[] = {{0, 1}, {0, 0}, {1, 0}, {2, 0}};
  int has_wants = 0;
  for (size_t i = 0; i < v->nc; i++)
    has_wants |= v->c[i].kind == WANT_PASS && v->c[i].term;
  uint64_t *vals = aucs_xcalloc(v->nterms + 1, sizeof *vals);
  aucs_smt_result r = AUCS_SMT_UNKNOWN;
  for (size_t k = 0; k < sizeof tries / sizeof *tries; k++) {
    if (tries[k].wants && !has_wants)
      continue;
    size_t n;
    Z3_ast *a = asserts(v, SIZE_MAX, tries[k].wants, tries[k].tier, &n);
    a = aucs_xrealloc(a, (n + 1) * sizeof *a); /* room for differ() */
    r = ask(v, a, n, vals);
    if (r == AUCS_SMT_SAT && tries[k].tier < 2)
      diverse(v, a, n, vals);
    free(a);
    if (r == AUCS_SMT_SAT)
      break;
  }
  v->out->verdict = r == AUCS_SMT_SAT     ? AUCS_PRECOND_SAT
                    : r == AUCS_SMT_UNSAT ? AUCS_PRECOND_UNSAT
                                          : AUCS_PRECOND_UNKNOWN;
  if (r == AUCS_SMT_UNSAT)
    culprit(v, vals);
  free(vals);
}

/* ---- step 6: constants --------------------------------------------------*/

static void add_constant(aucs_precond_result *r, uint64_t c) {
  if (c < 2 || c > INT32_MAX || r->nconstants >= AUCS_PRECOND_MAX_CONSTANTS)
    return;
  for (size_t i = 0; i < r->nconstants; i++)
    if (r->constants[i] == c)
      return;
  r->constants =
      aucs_xrealloc(r->constants, (r->nconstants + 1) * sizeof *r->constants);
  r->constants[r->nconstants++] = c;
}

static void slice(aucs_precond_result *r, LLVMValueRef fn, LLVMValueRef x,
                  int depth) {
  if (LLVMIsAConstantInt(x) && LLVMGetIntTypeWidth(LLVMTypeOf(x)) <= 64) {
    add_constant(r, LLVMConstIntGetZExtValue(x));
    return;
  }
  if (!LLVMIsAInstruction(x) || depth >= SLICE_DEPTH ||
      LLVMGetBasicBlockParent(LLVMGetInstructionParent(x)) != fn)
    return;
  int mask = LLVMGetInstructionOpcode(x) == LLVMAnd;
  int n = LLVMIsACallInst(x) ? 0 : LLVMGetNumOperands(x);
  for (int i = 0; i < n; i++) {
    LLVMValueRef o = LLVMGetOperand(x, (unsigned)i);
    if (mask && LLVMIsAConstantInt(o) &&
        LLVMGetIntTypeWidth(LLVMTypeOf(o)) <= 64)
      add_constant(r, LLVMConstIntGetZExtValue(o) + 1);
    else
      slice(r, fn, o, depth + 1);
  }
}

static void terminator_constants(solver *v, int b) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(v->S->cfg->blocks[b]);
  if (t && LLVMIsABranchInst(t) && LLVMIsConditional(t))
    slice(v->out, v->S->fn, LLVMGetCondition(t), 0);
  else if (t && LLVMIsASwitchInst(t))
    slice(v->out, v->S->fn, t, 0);
}

static void constants(solver *v) {
  const aucs_cfg *cfg = v->S->cfg;
  for (size_t i = 0; i < v->nc; i++) {
    const cond *c = &v->c[i];
    if (c->kind == MUST_ASSUME)
      slice(v->out, v->S->fn, LLVMGetOperand(c->at, 0), 0);
    else if (c->kind == WANT_PASS)
      terminator_constants(v, c->from);
    else
      for (int p = 0; p < cfg->npred[c->block]; p++)
        terminator_constants(v, cfg->pred[c->block][p]);
  }
}

/* ---- the interface ------------------------------------------------------*/

void aucs_precond_solve(LLVMValueRef kernel, const aucs_precond_query *q,
                        aucs_precond_result *out) {
  *out = (aucs_precond_result){.verdict = AUCS_PRECOND_NONE};
  out->leaf = aucs_xcalloc(q->nleaves + 1, 1);
  aucs_static_options o = {.fixed_grid = q->fixed_grid,
                           .fixed_block = q->fixed_block,
                           .launch = q->launch,
                           .skip_barriers = 1};
  solver v = {.S = st_setup(kernel, &o), .q = q, .out = out};
  aucs_smt_set_timeout(v.S->smt,
                       q->timeout_ms ? q->timeout_ms : AUCS_PRECOND_TIMEOUT_MS);
  collect(&v);
  out->conditions = v.nc;
  if (v.nc) {
    make_terms(&v);
    two_threads(&v);
    encode(&v);
    mark_chosen(&v);
    for (int d = 0; d < 3; d++) {
      out->block[d] = v.chosen[d];
      out->grid[d] = v.chosen[3 + d];
    }
    memcpy(out->leaf, v.chosen + LAUNCH_TERMS, q->nleaves);
    solve(&v);
    constants(&v);
  }
  free(v.c);
  free(v.terms);
  free(v.base);
  free(v.chosen);
  aucs_static_free(v.S);
}

void aucs_precond_result_free(aucs_precond_result *r) {
  for (size_t i = 0; i < r->n; i++)
    free(r->vals[i]);
  free(r->vals);
  free(r->launch);
  free(r->leaf);
  free(r->constants);
  *r = (aucs_precond_result){0};
}

char *aucs_precond_describe(LLVMValueRef culprit) {
  if (!culprit) /* no prefix was UNSAT within its limit */
    return aucs_xstrdup("the kernel's assumptions");
  if (!LLVMIsACallInst(culprit) || is_trap(culprit)) {
    const char *name =
        LLVMIsAUnreachableInst(culprit) ? "__builtin_unreachable()"
        : !strcmp(st_callee_name(culprit), "__assertfail") ? "assert"
                                                           : "__trap()";
    char *loc = aucs_srcloc_format(culprit);
    char *d = aucs_xasprintf("%s (the guard of `%s`)", loc, name);
    free(loc);
    return d;
  }
  return aucs_assume_describe(culprit);
}
