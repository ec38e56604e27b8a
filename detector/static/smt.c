/*
 * smt: Z3 behind one door. One context per aucs_smt; every query gets
 * solvers of its own (create, set the limits, assert, check, read the
 * model, release), in up to three tries. A query's limit is a number of
 * Z3 resource units (Z3's "rlimit": deterministic, so one command gives
 * one answer however loaded the machine), AUCS_SMT_UNITS_PER_MS per
 * nominal millisecond of the timeout; each try also gets a wall-clock
 * timeout AUCS_SMT_WALL_FACTOR times its nominal time (at least
 * AUCS_SMT_WALL_MIN_MS), a safety net that an unloaded machine never
 * reaches. The shares below are of the units:
 *   0. with the linear try on (2 below), that try first for 1/QUICK_SHARE
 *      of the timeout, while it pays off within the kernel (quick_first):
 *      on real applications most such queries are UNSAT and it proves
 *      them in a fraction of the core's share (issue 33: 2.4M units a
 *      query became 0.4M); its units do not count against 1-3;
 *   1. Z3's SMT core (a simple solver) for 1/TRY_SHARE of the timeout:
 *      it finds models of products of symbols quickly;
 *   2. when asked for (aucs_smt_set_linear) and the core gave up, the query
 *      with its products of symbols as unknowns, on Z3's bit-vector
 *      pipeline, for another 1/TRY_SHARE: only an UNSAT counts, and it
 *      comes quickly when the assertions order the products themselves;
 *   3. Z3's default solver, which on a fresh solver runs the full
 *      bit-vector pipeline (simplify, bit-blast, SAT), for the units the
 *      first two left (Z3's "rlimit count" says what each spent): it
 *      proves in milliseconds what the core takes seconds on.
 * Neither 1 nor 3 alone did well on the corpus: the core timed out on the
 * proofs of double_buffer, the pipeline spent a second on each satisfiable
 * inter-block query; a grid-stride loop's pairs needed 2 (each unknown in
 * 10 s without it, UNSAT in 0.1-0.4 s with it). Solvers, models and
 * parameter sets are reference-counted and released on every path.
 *
 * Limitation: values are read back as unsigned 64-bit numbers; a wider
 * bit-vector reads as 0 (the static checker never asks for one).
 */
#include "aucs/smt.h"

#include "aucs/util.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TRY_SHARE = 4, CORE_MAX_MS = 500, QUICK_SHARE = 8, QUICK_ODDS = 8 };

/* A try's limits: Z3 resource units (the limit that decides; 0: none) and
 * wall-clock milliseconds (the safety net; UINT_MAX: none). */
typedef struct limit {
  uint64_t units;
  unsigned ms;
} limit;

struct aucs_smt {
  Z3_context ctx;
  unsigned timeout_ms;
  int linear;     /* the products-as-unknowns try is on */
  /* the quick products-as-unknowns try since the last stats reset: the
   * queries it decided and those it did not */
  uint64_t quick_won, quick_lost;
  int repeatable; /* the last check: no wall-clock stop, no error */
  char *reason;
  aucs_smt_stats stats;
};

/* Z3's default handler prints and exits; this one lets the query see the
 * error code instead (aucs_smt_check turns it into UNKNOWN). */
static void on_error(Z3_context ctx, Z3_error_code e) {
  (void)ctx;
  (void)e;
}

aucs_smt *aucs_smt_new(unsigned timeout_ms) {
  aucs_smt *s = aucs_xcalloc(1, sizeof *s);
  Z3_config cfg = Z3_mk_config();
  Z3_set_param_value(cfg, "model", "true");
  s->ctx = Z3_mk_context(cfg);
  Z3_del_config(cfg);
  AUCS_ASSERT(s->ctx);
  Z3_set_error_handler(s->ctx, on_error);
  s->reason = aucs_xstrdup("");
  s->timeout_ms = timeout_ms;
  return s;
}

void aucs_smt_free(aucs_smt *s) {
  if (!s)
    return;
  Z3_del_context(s->ctx);
  free(s->reason);
  free(s);
}

Z3_context aucs_smt_context(const aucs_smt *s) { return s->ctx; }

void aucs_smt_set_timeout(aucs_smt *s, unsigned timeout_ms) {
  s->timeout_ms = timeout_ms;
}

void aucs_smt_set_linear(aucs_smt *s, int on) { s->linear = on; }

/* Z3's solvers: its SMT core, its default solver (the pipeline chosen by
 * probing the assertions), and the bit-vector pipeline itself. */
enum { CORE, DEFAULT, QF_BV };

/* The limits of a try of `units` resource units (0: no limit): the
 * wall-clock net is AUCS_SMT_WALL_FACTOR times their nominal time. */
static limit limit_of(uint64_t units) {
  if (!units)
    return (limit){0, UINT_MAX};
  uint64_t ms = units * AUCS_SMT_WALL_FACTOR / AUCS_SMT_UNITS_PER_MS + 1;
  if (ms < AUCS_SMT_WALL_MIN_MS)
    ms = AUCS_SMT_WALL_MIN_MS;
  return (limit){units, ms < UINT_MAX ? (unsigned)ms : UINT_MAX - 1};
}

static void set_uint(const aucs_smt *s, Z3_params p, const char *name,
                     uint64_t v) {
  Z3_params_set_uint(s->ctx, p, Z3_mk_string_symbol(s->ctx, name),
                     v < UINT_MAX ? (unsigned)v : UINT_MAX);
}

/* Z3's count of resource units spent in the context so far (as 32 bits:
 * callers take differences). */
static unsigned rlimit_count(Z3_context ctx, Z3_solver solver) {
  Z3_stats st = Z3_solver_get_statistics(ctx, solver);
  unsigned v = 0;
  Z3_stats_inc_ref(ctx, st);
  for (unsigned i = 0; i < Z3_stats_size(ctx, st); i++)
    if (!strcmp(Z3_stats_get_key(ctx, st, i), "rlimit count"))
      v = Z3_stats_is_uint(ctx, st, i)
              ? Z3_stats_get_uint_value(ctx, st, i)
              : (unsigned)(uint64_t)Z3_stats_get_double_value(ctx, st, i);
  Z3_stats_dec_ref(ctx, st);
  return v;
}

/* A solver of the given kind within limits l. */
static Z3_solver new_solver(const aucs_smt *s, int kind, limit l) {
  Z3_solver solver = kind == CORE ? Z3_mk_simple_solver(s->ctx)
                     : kind == DEFAULT
                         ? Z3_mk_solver(s->ctx)
                         : Z3_mk_solver_for_logic(
                               s->ctx, Z3_mk_string_symbol(s->ctx, "QF_BV"));
  Z3_solver_inc_ref(s->ctx, solver);
  Z3_params p = Z3_mk_params(s->ctx);
  Z3_params_inc_ref(s->ctx, p);
  if (l.units)
    set_uint(s, p, "rlimit", l.units);
  set_uint(s, p, "timeout", l.ms ? l.ms : 1);
  Z3_solver_set_params(s->ctx, solver, p);
  Z3_params_dec_ref(s->ctx, p);
  return solver;
}

static void set_reason(aucs_smt *s, const char *why) {
  free(s->reason);
  s->reason = aucs_xstrdup(why ? why : "");
}

static uint64_t value_of(Z3_context ctx, Z3_model m, Z3_ast t) {
  Z3_ast v = NULL;
  uint64_t u = 0;
  if (!t || !Z3_model_eval(ctx, m, t, true, &v) || !v)
    return 0;
  if (Z3_get_bool_value(ctx, v) != Z3_L_UNDEF)
    return Z3_get_bool_value(ctx, v) == Z3_L_TRUE;
  if (Z3_get_ast_kind(ctx, v) == Z3_NUMERAL_AST &&
      Z3_get_numeral_uint64(ctx, v, &u))
    return u;
  return 0;
}

static void read_model(aucs_smt *s, Z3_solver solver, const Z3_ast *terms,
                       uint64_t *vals, size_t nvals) {
  Z3_model m = Z3_solver_get_model(s->ctx, solver);
  if (!m) {
    memset(vals, 0, nvals * sizeof *vals);
    return;
  }
  Z3_model_inc_ref(s->ctx, m);
  for (size_t i = 0; i < nvals; i++)
    vals[i] = value_of(s->ctx, m, terms[i]);
  Z3_model_dec_ref(s->ctx, m);
}

static aucs_smt_result count(aucs_smt *s, aucs_smt_result r) {
  s->stats.queries++;
  if (r == AUCS_SMT_SAT)
    s->stats.sat++;
  else if (r == AUCS_SMT_UNSAT)
    s->stats.unsat++;
  else
    s->stats.unknown++;
  return r;
}

/* Why a try within l that spent `used` units in `secs` gave up: the
 * resource limit, the wall-clock net, or Z3's own reason. */
static void set_unknown_reason(aucs_smt *s, Z3_solver solver, limit l,
                               uint64_t used, double secs) {
  if (l.units && used >= l.units)
    set_reason(s, "resource limit");
  else if (secs * 1000.0 >= l.ms) {
    set_reason(s, "timeout (wall-clock safety net)");
    s->stats.wall_stops++;
    s->repeatable = 0;
  } else
    set_reason(s, Z3_solver_get_reason_unknown(s->ctx, solver));
}

/* Assert, check and read the model on one solver within l; *used gets the
 * resource units the check spent. */
static aucs_smt_result run(aucs_smt *s, Z3_solver solver, limit l,
                           const Z3_ast *asserts, size_t n, const Z3_ast *terms,
                           uint64_t *vals, size_t nvals, int *failed,
                           uint64_t *used) {
  for (size_t i = 0; i < n; i++)
    Z3_solver_assert(s->ctx, solver, asserts[i]);
  unsigned before = rlimit_count(s->ctx, solver);
  double start = aucs_seconds();
  Z3_lbool got = Z3_solver_check(s->ctx, solver);
  Z3_error_code e = Z3_get_error_code(s->ctx); /* before the next call */
  double secs = aucs_seconds() - start;
  *used = (unsigned)(rlimit_count(s->ctx, solver) - before);
  s->stats.units += *used;
  aucs_smt_result r = e != Z3_OK            ? AUCS_SMT_UNKNOWN
                      : got == Z3_L_TRUE    ? AUCS_SMT_SAT
                      : got == Z3_L_FALSE   ? AUCS_SMT_UNSAT
                                            : AUCS_SMT_UNKNOWN;
  *failed = e != Z3_OK;
  s->repeatable &= !*failed;
  if (e != Z3_OK)
    set_reason(s, Z3_get_error_msg(s->ctx, e));
  else if (r == AUCS_SMT_UNKNOWN)
    set_unknown_reason(s, solver, l, *used, secs);
  if (r == AUCS_SMT_SAT && nvals)
    read_model(s, solver, terms, vals, nvals);
  return r;
}

Z3_ast aucs_smt_mul(Z3_context z, Z3_ast a, Z3_ast b) {
  return Z3_get_ast_id(z, a) <= Z3_get_ast_id(z, b) ? Z3_mk_bvmul(z, a, b)
                                                    : Z3_mk_bvmul(z, b, a);
}

/* t with every product of two or more non-constant factors replaced by an
 * unknown of its own; a binary product's unknown is keyed by its factors
 * in one order. memo: term -> its image; products: key -> its unknown. */
static Z3_ast unmultiply(Z3_context z, Z3_ast t, aucs_ptrmap *memo,
                         aucs_ptrmap *products) {
  intptr_t got;
  if (Z3_get_ast_kind(z, t) != Z3_APP_AST)
    return t;
  if (aucs_ptrmap_get(memo, t, &got))
    return (Z3_ast)got;
  Z3_app app = Z3_to_app(z, t);
  unsigned n = Z3_get_app_num_args(z, app), vars = 0;
  for (unsigned i = 0; i < n; i++)
    vars += !Z3_is_numeral_ast(z, Z3_get_app_arg(z, app, i));
  Z3_ast image = t;
  if (Z3_get_decl_kind(z, Z3_get_app_decl(z, app)) == Z3_OP_BMUL && vars >= 2) {
    Z3_ast key = n == 2 ? aucs_smt_mul(z, Z3_get_app_arg(z, app, 0),
                                       Z3_get_app_arg(z, app, 1))
                        : t;
    if (!aucs_ptrmap_get(products, key, &got)) {
      got = (intptr_t)Z3_mk_fresh_const(z, "product", Z3_get_sort(z, t));
      aucs_ptrmap_put(products, key, got);
    }
    image = (Z3_ast)got;
  } else if (n) {
    Z3_ast *args = aucs_xcalloc(n, sizeof *args);
    int changed = 0;
    for (unsigned i = 0; i < n; i++) {
      args[i] = unmultiply(z, Z3_get_app_arg(z, app, i), memo, products);
      changed |= args[i] != Z3_get_app_arg(z, app, i);
    }
    if (changed)
      image = Z3_update_term(z, t, n, args);
    free(args);
  }
  aucs_ptrmap_put(memo, t, (intptr_t)image);
  return image;
}

/* One try: a fresh solver of the given kind on asserts within l; *used
 * gets the resource units it spent. */
static aucs_smt_result attempt(aucs_smt *s, int kind, limit l,
                               const Z3_ast *asserts, size_t n,
                               const Z3_ast *terms, uint64_t *vals,
                               size_t nvals, int *failed, uint64_t *used) {
  Z3_solver solver = new_solver(s, kind, l);
  aucs_smt_result r =
      run(s, solver, l, asserts, n, terms, vals, nvals, failed, used);
  Z3_solver_dec_ref(s->ctx, solver);
  return r;
}

/* The second try: asserts with their products as unknowns, on the
 * bit-vector pipeline. Only its UNSAT counts (a model of it may not be one
 * of asserts), so anything else is UNKNOWN. */
static aucs_smt_result linear_try(aucs_smt *s, const Z3_ast *asserts, size_t n,
                                  limit l, uint64_t *used) {
  aucs_ptrmap memo = {0}, products = {0};
  Z3_ast *linear = aucs_xcalloc(n + 1, sizeof *linear);
  for (size_t i = 0; i < n; i++)
    linear[i] = unmultiply(s->ctx, asserts[i], &memo, &products);
  aucs_ptrmap_free(&memo);
  aucs_ptrmap_free(&products);
  int failed = 0;
  aucs_smt_result r =
      attempt(s, QF_BV, l, linear, n, NULL, NULL, 0, &failed, used);
  free(linear);
  return r == AUCS_SMT_UNSAT ? r : AUCS_SMT_UNKNOWN;
}

/* Step 0: the linear try first, while it pays: a win saves the core's
 * share (2M units at the default timeout), a loss costs at most
 * 1/QUICK_SHARE (most losses, SAT queries, far less), so it stays on
 * until its losses pass QUICK_ODDS times its wins (plus one). */
static int quick_first(const aucs_smt *s) {
  return s->linear && s->quick_lost <= QUICK_ODDS * (s->quick_won + 1);
}

aucs_smt_result aucs_smt_check(aucs_smt *s, const Z3_ast *asserts, size_t n,
                               const Z3_ast *terms, uint64_t *vals,
                               size_t nvals) {
  set_reason(s, "");
  s->repeatable = 1;
  for (size_t i = 0; i < n; i++)
    if (!asserts[i]) {
      s->repeatable = 0;
      set_reason(s, "a term could not be built");
      return count(s, AUCS_SMT_UNKNOWN);
    }
  double start = aucs_seconds();
  uint64_t total = (uint64_t)s->timeout_ms * AUCS_SMT_UNITS_PER_MS, core = 0,
           used = 0, spent = 0;
  int failed = 0;
  if (total)
    core = total / TRY_SHARE < (uint64_t)CORE_MAX_MS * AUCS_SMT_UNITS_PER_MS
               ? total / TRY_SHARE
               : (uint64_t)CORE_MAX_MS * AUCS_SMT_UNITS_PER_MS;
  aucs_smt_result r = AUCS_SMT_UNKNOWN;
  if (quick_first(s)) {
    r = linear_try(s, asserts, n, limit_of(total / QUICK_SHARE), &used);
    s->stats.linear += r == AUCS_SMT_UNSAT;
    if (r == AUCS_SMT_UNSAT) {
      s->quick_won++;
      s->stats.seconds += aucs_seconds() - start;
      return count(s, r);
    }
    s->quick_lost++;
  }
  r = attempt(s, CORE, limit_of(core), asserts, n, terms, vals, nvals, &failed,
              &spent);
  if (r == AUCS_SMT_UNKNOWN && !failed && s->linear) {
    r = linear_try(s, asserts, n, limit_of(total / TRY_SHARE), &used);
    spent += used;
    s->stats.linear += r == AUCS_SMT_UNSAT;
  }
  if (r == AUCS_SMT_UNKNOWN && !failed && (!total || spent < total)) {
    limit rest = limit_of(total ? total - spent : 0);
    double wall = (aucs_seconds() - start) * 1000.0;
    double net = (double)s->timeout_ms * AUCS_SMT_WALL_FACTOR;
    net = (net < AUCS_SMT_WALL_MIN_MS ? AUCS_SMT_WALL_MIN_MS : net) - wall;
    if (total)
      rest.ms = net < 1 ? 1 : net < rest.ms ? (unsigned)net : rest.ms;
    r = attempt(s, DEFAULT, rest, asserts, n, terms, vals, nvals, &failed,
                &used);
  }
  s->stats.seconds += aucs_seconds() - start;
  return count(s, r);
}

void aucs_smt_count_decided(aucs_smt *s, int cached) {
  if (cached)
    s->stats.cached++;
  else
    s->stats.cheap++;
  count(s, AUCS_SMT_UNSAT);
}

void aucs_smt_count_cached(aucs_smt *s, aucs_smt_result r) {
  s->stats.cached++;
  if (r == AUCS_SMT_UNKNOWN)
    set_reason(s, "resource limit, tried before");
  count(s, r);
}

const char *aucs_smt_reason(const aucs_smt *s) { return s->reason; }

int aucs_smt_repeatable(const aucs_smt *s) { return s->repeatable; }

uint64_t aucs_smt_limit(const aucs_smt *s) {
  return s->timeout_ms ? (uint64_t)s->timeout_ms * AUCS_SMT_UNITS_PER_MS
                       : UINT64_MAX;
}

unsigned aucs_smt_mode(const aucs_smt *s) { return (unsigned)s->linear; }

const aucs_smt_stats *aucs_smt_stats_of(const aucs_smt *s) {
  return &s->stats;
}

void aucs_smt_stats_reset(aucs_smt *s) {
  memset(&s->stats, 0, sizeof s->stats);
  s->quick_won = s->quick_lost = 0;
}
