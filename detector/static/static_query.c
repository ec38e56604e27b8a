/*
 * static: step 3 - asking Z3 (cheap layer, cache, tries), paths
 * from the interval start, and witnesses the interpreter can replay
 * (the algorithm is in static.c, the shared types in static_impl.h).
 */
#include "static_impl.h"

/* ---- step 3: asking Z3 --------------------------------------------------*/

typedef struct qbuild {
  Z3_ast *v;
  size_t n;
  size_t lemmas; /* pairs of multiples ordered (multiple_lemmas) */
  Z3_ast offset; /* access a's offset in its object, or NULL */
  /* for cheap.h: the overlap asked and the multiples of each side */
  Z3_ast addr[2], len[2];
  int equal;
  multiples mults[2];
  /* with values: the values the two stores write (st_same_value), loads
   * of memory no thread writes in their interval as one function of the
   * address for both threads (static_values.c) */
  int values;
  Z3_ast stored[2];
} qbuild;

static void qbuild_free(qbuild *b) {
  free(b->v);
  free(b->mults[0].m);
  free(b->mults[1].m);
}

static Z3_ast distinct3(Z3_context z, Z3_ast *x, Z3_ast *y) {
  Z3_ast d[3];
  for (int i = 0; i < 3; i++)
    d[i] = Z3_mk_not(z, Z3_mk_eq(z, x[i], y[i]));
  return Z3_mk_or(z, 3, d);
}

/* Overlap of [pa, pa + na) and [pb, pb + nb), wrap-safe. */
static Z3_ast overlap(Z3_context z, Z3_ast pa, Z3_ast na, Z3_ast pb,
                      Z3_ast nb) {
  return st_or2(z, Z3_mk_bvult(z, Z3_mk_bvsub(z, pb, pa), na),
                Z3_mk_bvult(z, Z3_mk_bvsub(z, pa, pb), nb));
}

/* The size of a's load, store or atomic when its address is a multiple of
 * it (the instruction's alignment: an access off it is undefined
 * behaviour), else 0. Two such accesses of one size overlap only when
 * their addresses are equal, which the solver sees far sooner than the
 * overlap of two ranges. */
static uint64_t aligned_size(const acc *a) {
  LLVMValueRef I = a->instr;
  if (a->len || a->opaque || !a->size || (a->size & (a->size - 1)) ||
      !(LLVMIsALoadInst(I) || LLVMIsAStoreInst(I) || LLVMIsAAtomicRMWInst(I) ||
        LLVMIsAAtomicCmpXchgInst(I)))
    return 0;
  return LLVMGetAlignment(I) >= a->size ? a->size : 0;
}

/* The two threads (of one block) are in one warp, or in two. */
static Z3_ast warp_constraint(const aucs_static *S, int same) {
  Z3_context z = S->z;
  Z3_ast w[2];
  for (int side = 0; side < 2; side++)
    w[side] = Z3_mk_bvlshr(z, st_linear_tid(S, side), st_bv(z, 5, 32));
  Z3_ast eq = Z3_mk_eq(z, w[0], w[1]);
  return same ? eq : Z3_mk_not(z, eq);
}

/* The condition under which a thread goes from region r's start to block
 * v without crossing a separator: over the region's edges into v, the
 * source's condition and the edge's branch. Both threads of a query start
 * at one instance of r's start, and each block of r runs at most once in
 * the interval, so a uniform branch is one term for both. memo: per block,
 * NULL when not yet built. */
static Z3_ast path_cond(enc *e, const region *r, int v, Z3_ast *memo) {
  Z3_context z = e->z;
  if (v == r->block)
    return Z3_mk_true(z);
  if (memo[v])
    return memo[v];
  Z3_ast t = NULL;
  for (size_t k = 0; k < r->nedges; k++) {
    if (r->edges[2 * k + 1] != v)
      continue;
    int u = r->edges[2 * k];
    Z3_ast via = st_and2(z, path_cond(e, r, u, memo),
                         st_edge_cond(e, e->S->frames[0], u, v));
    t = t ? st_or2(z, t, via) : via;
  }
  return memo[v] = t ? t : Z3_mk_true(z); /* not in r: no condition */
}

/* The conditions of the kernel's llvm.assume calls a thread passed on its
 * way to the access anchored at `at` hold for that thread. */
static void assumptions(enc *e, LLVMValueRef at) {
  aucs_static *S = e->S;
  for (size_t i = 0; i < S->nassume; i++) {
    if (!aucs_assume_precedes(S->cfg, S->assumes[i], at))
      continue;
    Z3_ast c = st_val(e, S->frames[0], LLVMGetOperand(S->assumes[i], 0));
    if (!c || !st_is_bool(e->z, c))
      continue;
    st_push_ast(e->cons, e->ncons, c);
    S->assume_used[i] = 1;
  }
}

/* The query's constraints; with paths, also each thread's path from the
 * start of q's region to its access. */
static void encode(aucs_static *S, const query *q, int paths, qbuild *out) {
  Z3_context z = S->z;
  int nf = S->nframes;
  aucs_ptrmap *maps = aucs_xcalloc((size_t)nf * 4 + 1, sizeof *maps);
  aucs_ptrmap shared = {0};
  Z3_ast *p = out->addr, *n = out->len;
  multiples *mults = out->mults;
  for (size_t i = 0; i < S->nlaunch; i++)
    st_push_ast(&out->v, &out->n, S->launch[i]);
  Z3_ast *pcs = aucs_xcalloc((size_t)S->cfg->nblocks + 1, sizeof *pcs);
  for (int side = 0; side < 2; side++) {
    const acc *a = &S->accs[side ? q->b : q->a];
    enc e = {.S = S,
             .z = z,
             .side = side,
             .block = q->inter ? side : 0,
             .modes = q->modes + (side ? S->cfg->nloops : 0),
             .memo = maps + (size_t)nf * (size_t)(2 * side),
             .ecmemo = maps + (size_t)nf * (size_t)(2 * side + 1),
             .shared = &shared,
             .cons = &out->v,
             .ncons = &out->n,
             .mults = &mults[side],
             .stable = out->values};
    st_push_ast(&out->v, &out->n, st_guard(&e, a));
    assumptions(&e, a->anchor);
    if (paths && q->region >= 0) {
      memset(pcs, 0, (size_t)S->cfg->nblocks * sizeof *pcs);
      st_push_ast(&out->v, &out->n,
                  path_cond(&e, &S->regions[q->region],
                            st_block_of(S->cfg, a->anchor), pcs));
    }
    p[side] = st_address(&e, a);
    n[side] = st_extent(&e, a);
    if (out->values && LLVMIsAStoreInst(a->instr))
      out->stored[side] = st_val(&e, a->f, LLVMGetOperand(a->instr, 0));
    if (side == 0 && a->root)
      out->offset = Z3_mk_bvsub(z, p[0], st_root_base(&e, a->root));
  }
  free(pcs);
  out->lemmas = st_multiple_lemmas(z, &mults[0], &mults[1], &out->v, &out->n);
  uint64_t sa = aligned_size(&S->accs[q->a]);
  out->equal = sa && sa == aligned_size(&S->accs[q->b]);
  st_push_ast(&out->v, &out->n,
              out->equal ? Z3_mk_eq(z, p[0], p[1])
                         : overlap(z, p[0], n[0], p[1], n[1]));
  if (q->inter)
    st_push_ast(&out->v, &out->n, distinct3(z, S->ctaid[0], S->ctaid[1]));
  else {
    for (int d = 0; d < 3; d++)
      st_push_ast(&out->v, &out->n,
                  Z3_mk_eq(z, S->ctaid[0][d], S->ctaid[1][d]));
    st_push_ast(&out->v, &out->n, distinct3(z, S->tid[0], S->tid[1]));
  }
  if (q->warp != WARP_ANY)
    st_push_ast(&out->v, &out->n, warp_constraint(S, q->warp == WARP_SAME));
  for (int i = 0; i < nf * 4; i++)
    aucs_ptrmap_free(&maps[i]);
  free(maps);
  aucs_ptrmap_free(&shared);
}

/* Limits on a witness, tightest first: a witness within the first runs
 * in a moment (few blocks, short loops); the second is what the
 * interpreter can run at all. Both keep the two accesses in one object. */
typedef struct tier {
  uint32_t blocks; /* of the grid, in all */
  uint32_t arg;    /* integer arguments of 18 bits or more in [-arg, arg] */
} tier;
static const tier tiers[] = {{4, 1024}, {64, 65536}};
enum { NTIERS = sizeof tiers / sizeof tiers[0] };

/* The width of parameter i when it is an integer of 18 bits or more (the
 * ones a tier bounds), else 0. */
static unsigned bounded_width(const aucs_static *S, unsigned i) {
  LLVMTypeRef ty = LLVMTypeOf(LLVMGetParam(S->fn, i));
  if (LLVMGetTypeKind(ty) != LLVMIntegerTypeKind)
    return 0;
  unsigned w = LLVMGetIntTypeWidth(ty);
  return w >= 18 ? w : 0;
}

/* Add tier t's limits to b. 0 when they cannot hold. */
static int replay_limits(aucs_static *S, const query *q, const tier *t,
                         qbuild *b) {
  Z3_context z = S->z;
  const acc *x = &S->accs[q->a], *y = &S->accs[q->b];
  if (x->root != y->root)
    return 0;
  for (int d = 0; d < 3; d++)
    st_push_ast(&b->v, &b->n,
                Z3_mk_bvule(z, S->nctaid[d], st_bv(z, t->blocks, 32)));
  st_push_ast(
      &b->v, &b->n,
      Z3_mk_bvule(z, st_product(z, S->nctaid), st_bv(z, t->blocks, 32)));
  for (unsigned i = 0; i < S->nparams; i++) {
    Z3_ast a = S->params[i];
    unsigned w = bounded_width(S, i);
    if (!a || !w)
      continue;
    st_push_ast(&b->v, &b->n,
                Z3_mk_bvule(z, Z3_mk_bvadd(z, a, st_bv(z, t->arg, w)),
                            st_bv(z, 2ull * t->arg, w)));
  }
  return 1;
}

/* Whether the witness already keeps to tier t. */
static int fits(const aucs_static *S, const query *q, const tier *t) {
  const aucs_static_witness *w = &q->w;
  uint64_t blocks =
      (uint64_t)w->launch.grid.x * w->launch.grid.y * w->launch.grid.z;
  if (S->accs[q->a].root != S->accs[q->b].root || blocks > t->blocks)
    return 0;
  for (unsigned i = 0; i < S->nparams; i++) {
    unsigned w_ = bounded_width(S, i);
    if (!w_ || w_ > 64)
      continue;
    uint64_t mask = w_ == 64 ? ~0ull : (1ull << w_) - 1;
    if (((w->args[i] + t->arg) & mask) > 2ull * t->arg)
      return 0;
  }
  return 1;
}

static void witness_terms(const aucs_static *S, Z3_ast *t) {
  for (int d = 0; d < 3; d++) {
    t[d] = S->nctaid[d];
    t[3 + d] = S->ntid[d];
    t[6 + d] = S->tid[0][d];
    t[9 + d] = S->tid[1][d];
    t[12 + d] = S->ctaid[0][d];
    t[15 + d] = S->ctaid[1][d];
  }
}

static aucs_dim3 dim(const uint64_t *v) {
  return (aucs_dim3){(uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]};
}

static void read_witness(const aucs_static *S, const uint64_t *v,
                         aucs_static_witness *w) {
  w->launch = (aucs_launch){dim(v), dim(v + 3)};
  w->thread[0] = dim(v + 6);
  w->thread[1] = dim(v + 9);
  w->block[0] = dim(v + 12);
  w->block[1] = dim(v + 15);
  free(w->args);
  w->args = aucs_xcalloc(S->nparams + 1, sizeof *w->args);
  for (unsigned i = 0; i < S->nparams; i++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(S->fn, i));
    if (S->params[i] && LLVMGetTypeKind(t) == LLVMIntegerTypeKind)
      w->args[i] = v[NWIT + i];
  }
  w->offset = v[NWIT + S->nparams];
}

/* What is left of the kernel's budget, in nominal ms (0: spent): the
 * resource units spent decide (smt.h), the wall clock is a safety net. */
static unsigned budget_left(const aucs_static *S) {
  const aucs_smt_stats *st = aucs_smt_stats_of(S->smt);
  uint64_t units = (uint64_t)S->o.budget_ms * AUCS_SMT_UNITS_PER_MS;
  double net = (double)S->o.budget_ms * AUCS_SMT_WALL_FACTOR;
  net = net < AUCS_SMT_WALL_MIN_MS ? AUCS_SMT_WALL_MIN_MS : net;
  if (st->units >= units || st->seconds * 1000.0 >= net)
    return 0;
  return (unsigned)((units - st->units) / AUCS_SMT_UNITS_PER_MS);
}

/* Whether cheap.h proves b UNSAT (S->decided names the rule). */
static int cheap_unsat(aucs_static *S, const qbuild *b, int inter) {
  aucs_cheap_query c = {.z = S->z,
                        .facts = b->v,
                        .nfacts = b->n,
                        .addr = {b->addr[0], b->addr[1]},
                        .size = {b->len[0], b->len[1]},
                        .equal = b->equal,
                        .two_blocks = inter};
  memcpy(c.tid, S->tid, sizeof c.tid);
  memcpy(c.ctaid, S->ctaid, sizeof c.ctaid);
  if (!inter) /* one block: both sides read ctaid[0] */
    memcpy(c.ctaid[1], S->ctaid[0], sizeof c.ctaid[1]);
  for (int side = 0; side < 2; side++)
    c.mult[side] = b->mults[side].m, c.nmult[side] = b->mults[side].n;
  return aucs_cheap_decide(&c, &S->decided) == AUCS_CHEAP_UNSAT;
}

/* One query: cheap.h's rules, then the cache, then the solver within
 * min(timeout_ms, what is left of the budget). */
static aucs_smt_result ask(aucs_static *S, qbuild *b, Z3_ast *terms,
                           uint64_t *vals, size_t nvals, unsigned timeout_ms,
                           int inter) {
  S->decided = NULL;
  if (cheap_unsat(S, b, inter)) {
    aucs_smt_count_decided(S->smt, 0);
    return AUCS_SMT_UNSAT;
  }
  S->decided = NULL;
  unsigned left = aucs_budget_cap_ms(S->o.budget, budget_left(S));
  if (!left)
    return AUCS_SMT_UNKNOWN;
  char *key = aucs_qcache_key_terms(S->z, b->v, b->n, terms, nvals);
  aucs_smt_set_timeout(S->smt, left < timeout_ms ? left : timeout_ms);
  aucs_smt_set_linear(S->smt, b->lemmas > 0);
  uint64_t limit = aucs_smt_limit(S->smt);
  unsigned mode = aucs_smt_mode(S->smt);
  aucs_smt_result r = AUCS_SMT_UNSAT;
  int hit = aucs_qcache_lookup(S->cache, key, vals, nvals, limit, mode);
  if (hit) {
    r = hit == 1 ? AUCS_SMT_UNSAT : hit == 2 ? AUCS_SMT_SAT : AUCS_SMT_UNKNOWN;
    S->decided = "cached";
    aucs_smt_count_cached(S->smt, r);
  } else {
    r = aucs_smt_check(S->smt, b->v, b->n, terms, vals, nvals);
    if (r == AUCS_SMT_UNSAT)
      aucs_qcache_put_unsat(S->cache, key);
    else if (r == AUCS_SMT_SAT)
      aucs_qcache_put_sat(S->cache, key, vals, nvals);
    else if (aucs_smt_repeatable(S->smt))
      aucs_qcache_put_unknown(S->cache, key, limit, mode);
  }
  free(key);
  return r;
}

/* linear: the products-as-unknowns try decided (smt.h). */
static void trace_query(const aucs_static *S, const query *q, double secs,
                        uint64_t units, int linear, const char *decided) {
  static const char *const names[] = {"unsat", "sat", "unknown"};
  static const char *const warp[] = {"", " (two warps)", " (one warp)"};
  char *la = aucs_srcloc_format(S->accs[q->a].instr);
  char *lb = aucs_srcloc_format(S->accs[q->b].instr);
  fprintf(stderr,
          "aucs: static: %s %s / %s %s%s%s: %s%s%s%s%s%s (%.3f s, "
          "%llu units)\n",
          aucs_op_name(S->accs[q->a].op), la, aucs_op_name(S->accs[q->b].op),
          lb, q->inter ? " (two blocks)" : "", warp[q->warp], names[q->verdict],
          q->verdict == AUCS_STATIC_UNKNOWN ? " " : "",
          q->verdict == AUCS_STATIC_UNKNOWN ? aucs_smt_reason(S->smt)
          : linear                          ? " (products as unknowns)"
                                            : "",
          !decided                    ? ""
          : strcmp(decided, "cached") ? " (cheap: "
                                      : " (",
          decided ? decided : "", decided ? ")" : "", secs,
          (unsigned long long)units);
  free(la);
  free(lb);
}

/* A SAT query asked again with the threads' paths from its start (they
 * make most queries slower, so only a witness is checked against them):
 * UNSAT decides; SAT replaces b and vals by the refined query and its
 * model; unknown keeps the first answer. */
static aucs_smt_result with_paths(aucs_static *S, const query *q, qbuild *b,
                                  Z3_ast *terms, uint64_t *vals, size_t nt,
                                  unsigned limit) {
  qbuild p = {0};
  uint64_t *pv = aucs_xcalloc(nt, sizeof *pv);
  Z3_ast offset = terms[nt - 1];
  encode(S, q, 1, &p);
  terms[nt - 1] = p.offset;
  aucs_smt_result r = ask(S, &p, terms, pv, nt, limit, q->inter);
  if (r == AUCS_SMT_SAT) {
    qbuild_free(b);
    *b = p;
    memcpy(vals, pv, nt * sizeof *vals);
  } else {
    qbuild_free(&p);
    terms[nt - 1] = offset;
  }
  free(pv);
  return r == AUCS_SMT_UNKNOWN ? AUCS_SMT_SAT : r;
}

/* Make q's witness one within the tightest tier it can keep to, asking
 * again (with a share of the timeout) when the model found is outside. */
static void replayable_witness(aucs_static *S, query *q, qbuild *b,
                               Z3_ast *terms, uint64_t *vals, size_t nt,
                               unsigned limit) {
  size_t keep = b->n;
  for (int t = 0; t < NTIERS && !q->w.replayable; t++) {
    q->w.replayable = fits(S, q, &tiers[t]);
    if (q->w.replayable || !replay_limits(S, q, &tiers[t], b))
      continue;
    unsigned share = limit / WITNESS_SHARE ? limit / WITNESS_SHARE : 1;
    if (ask(S, b, terms, vals, nt, share, q->inter) == AUCS_SMT_SAT) {
      read_witness(S, vals, &q->w);
      q->w.replayable = 1;
    }
    b->n = keep;
  }
}

/* The limit of the next query, nominal ms: the whole timeout, until a
 * query of the kernel has run out of the whole timeout without an answer
 * (S->hard). From then on, under a clock budget, so that a few such
 * queries cannot spend the budget of all the others (issue 33): an equal
 * share of the budget's clock left, for this query and each one still to
 * reach the solver (the queries not asked yet, times the share of the
 * asked ones the solver answered), at the rate the queries have run so
 * far (nominal ms of units per ms of that clock, at most 1), less a tenth
 * for the rest of the check; each share also pays the quick try (smt.c,
 * an eighth of it). Never under 1/FAIR_FLOOR of the timeout, nor over it.
 * A kernel with no hard query keeps the limits it always had, which only
 * the units decide (smt.h). */
static unsigned query_limit(const aucs_static *S) {
  unsigned full = S->o.timeout_ms;
  double clock = aucs_budget_left(S->o.budget);
  if (!S->hard || clock >= 1e8) /* aucs_budget_left: no deadline */
    return full;
  double rate = 1.0;
  if (S->clock > 0.05)
    rate = (double)S->clock_units / AUCS_SMT_UNITS_PER_MS / (S->clock * 1000.0);
  double left = clock * 1000.0 * (rate < 1 ? rate : 1) * 0.9;
  double solver = (double)(S->solved + 1) / (double)(S->asked + 1);
  double share = left / (((double)S->pending * solver + 1.0) * (1.0 + 1.0 / 8));
  double floor = (double)full / FAIR_FLOOR;
  floor = floor < 1 ? 1 : floor;
  return share >= full    ? full
         : share <= floor ? (unsigned)floor
                          : (unsigned)share;
}

static void solve(aucs_static *S, query *q) {
  double t0 = aucs_static_stats(S)->seconds;
  uint64_t u0 = aucs_static_stats(S)->units;
  uint64_t linear0 = aucs_static_stats(S)->linear;
  qbuild b = {0};
  size_t nt = NWIT + S->nparams + 1;
  Z3_ast *terms = aucs_xcalloc(nt, sizeof *terms);
  uint64_t *vals = aucs_xcalloc(nt, sizeof *vals);
  unsigned limit = query_limit(S);
  double c0 = aucs_budget_now();
  encode(S, q, 0, &b);
  witness_terms(S, terms);
  for (unsigned i = 0; i < S->nparams; i++)
    terms[NWIT + i] = S->params[i];
  terms[nt - 1] = b.offset;
  aucs_smt_result r = ask(S, &b, terms, vals, nt, limit, q->inter);
  const char *decided = S->decided;
  S->solved += !decided;
  S->hard |= r == AUCS_SMT_UNKNOWN && !decided &&
             aucs_static_stats(S)->units - u0 >=
                 (uint64_t)S->o.timeout_ms * AUCS_SMT_UNITS_PER_MS;
  if (r == AUCS_SMT_SAT && q->region >= 0)
    r = with_paths(S, q, &b, terms, vals, nt, limit);
  q->verdict = r == AUCS_SMT_UNSAT ? AUCS_STATIC_UNSAT
               : r == AUCS_SMT_SAT ? AUCS_STATIC_SAT
                                   : AUCS_STATIC_UNKNOWN;
  if (r == AUCS_SMT_SAT) {
    read_witness(S, vals, &q->w);
    replayable_witness(S, q, &b, terms, vals, nt, limit);
  }
  S->clock += aucs_budget_now() - c0;
  S->clock_units += aucs_static_stats(S)->units - u0;
  if (S->trace)
    trace_query(S, q, aucs_static_stats(S)->seconds - t0,
                aucs_static_stats(S)->units - u0,
                aucs_static_stats(S)->linear > linear0, decided);
  if (S->trace && limit < S->o.timeout_ms)
    fprintf(stderr, "aucs: static: (within a fair limit of %u ms)\n", limit);
  qbuild_free(&b);
  free(terms);
  free(vals);
}

/* Query q with the two stores' values different (static_values.c): UNSAT
 * proves that whenever q's two threads write one place, they write the
 * same value. With the threads' paths from the interval's start, which
 * only add facts. */
aucs_smt_result st_ask_values(aucs_static *S, const query *q) {
  qbuild b = {.values = 1};
  encode(S, q, q->region >= 0, &b);
  aucs_smt_result r = AUCS_SMT_UNKNOWN;
  Z3_ast *v = b.stored;
  if (b.equal && v[0] && v[1] &&
      Z3_get_sort(S->z, v[0]) == Z3_get_sort(S->z, v[1])) {
    st_push_ast(&b.v, &b.n, Z3_mk_not(S->z, Z3_mk_eq(S->z, v[0], v[1])));
    Z3_ast none[1] = {NULL};
    uint64_t unused[1];
    r = ask(S, &b, none, unused, 0, S->o.timeout_ms, 0);
  }
  if (S->trace)
    fprintf(stderr, "aucs: static: values of %s: %s\n", q->key,
            r == AUCS_SMT_UNSAT ? "equal (unsat)"
            : r == AUCS_SMT_SAT ? "may differ (sat)"
                                : "unknown");
  qbuild_free(&b);
  return r;
}

/* Whether q's pair (its two instructions, one block or two) has a SAT
 * query among the first n of qs. */
static int pair_sat(const aucs_static *S, const qset *qs, size_t n,
                    const query *q) {
  LLVMValueRef a = S->accs[q->a].instr, b = S->accs[q->b].instr;
  for (size_t i = 0; i < n; i++) {
    const query *p = &S->qs[qs->v[i]];
    LLVMValueRef x = S->accs[p->a].instr, y = S->accs[p->b].instr;
    if (p->verdict == AUCS_STATIC_SAT && p->inter == q->inter &&
        ((x == a && y == b) || (x == b && y == a)))
      return 1;
  }
  return 0;
}

/* Ask every query of qs not asked yet, until the budget is spent. While
 * pairs are decided (phase 2), a query of a pair that is SAT already is
 * not asked: a pair's verdict and witness are its first SAT query's
 * (static.c's make_pairs), so the answer would change nothing. */
void st_solve_all(aucs_static *S, const qset *qs) {
  S->pending = 0;
  for (size_t i = 0; i < qs->n; i++)
    S->pending += !S->qs[qs->v[i]].asked;
  for (size_t i = 0; i < qs->n && !S->cut; i++) {
    query *q = &S->qs[qs->v[i]];
    if (q->asked)
      continue;
    S->pending--;
    if (S->phase == 2 && pair_sat(S, qs, i, q)) {
      q->asked = 1;
      q->verdict = AUCS_STATIC_SAT;
      continue;
    }
    if (aucs_budget_check(S->o.budget)) {
      S->cut = S->phase;
      break;
    }
    q->asked = 1;
    S->asked++;
    solve(S, q);
  }
}
