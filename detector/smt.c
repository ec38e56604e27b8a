/*
 * smt: Z3 behind one door. One context per aucs_smt; every query gets
 * solvers of its own (create, set the timeout, assert, check, read the
 * model, release), in up to three tries:
 *   1. Z3's SMT core (a simple solver) for 1/TRY_SHARE of the timeout:
 *      it finds models of products of symbols quickly;
 *   2. when asked for (aucs_smt_set_linear) and the core gave up, the query
 *      with its products of symbols as unknowns, on Z3's bit-vector
 *      pipeline, for another 1/TRY_SHARE: only an UNSAT counts, and it
 *      comes quickly when the assertions order the products themselves;
 *   3. Z3's default solver, which on a fresh solver runs the full
 *      bit-vector pipeline (simplify, bit-blast, SAT), for the rest: it
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
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { TRY_SHARE = 4, CORE_MAX_MS = 500 };

struct aucs_smt {
  Z3_context ctx;
  unsigned timeout_ms;
  int linear; /* the products-as-unknowns try is on */
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

/* A solver of the given kind with a timeout of ms. */
static Z3_solver new_solver(const aucs_smt *s, int kind, unsigned ms) {
  Z3_solver solver = kind == CORE ? Z3_mk_simple_solver(s->ctx)
                     : kind == DEFAULT
                         ? Z3_mk_solver(s->ctx)
                         : Z3_mk_solver_for_logic(
                               s->ctx, Z3_mk_string_symbol(s->ctx, "QF_BV"));
  Z3_solver_inc_ref(s->ctx, solver);
  Z3_params p = Z3_mk_params(s->ctx);
  Z3_params_inc_ref(s->ctx, p);
  Z3_params_set_uint(s->ctx, p, Z3_mk_string_symbol(s->ctx, "timeout"), ms);
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

/* Assert, check and read the model on one solver. */
static aucs_smt_result run(aucs_smt *s, Z3_solver solver,
                           const Z3_ast *asserts, size_t n,
                           const Z3_ast *terms, uint64_t *vals, size_t nvals,
                           int *failed) {
  for (size_t i = 0; i < n; i++)
    Z3_solver_assert(s->ctx, solver, asserts[i]);
  Z3_lbool got = Z3_solver_check(s->ctx, solver);
  Z3_error_code e = Z3_get_error_code(s->ctx);
  aucs_smt_result r = e != Z3_OK            ? AUCS_SMT_UNKNOWN
                      : got == Z3_L_TRUE    ? AUCS_SMT_SAT
                      : got == Z3_L_FALSE   ? AUCS_SMT_UNSAT
                                            : AUCS_SMT_UNKNOWN;
  *failed = e != Z3_OK;
  if (e != Z3_OK)
    set_reason(s, Z3_get_error_msg(s->ctx, e));
  else if (r == AUCS_SMT_UNKNOWN)
    set_reason(s, Z3_solver_get_reason_unknown(s->ctx, solver));
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

/* One try: a fresh solver of the given kind on asserts for ms. */
static aucs_smt_result attempt(aucs_smt *s, int kind, const Z3_ast *asserts,
                               size_t n, const Z3_ast *terms, uint64_t *vals,
                               size_t nvals, unsigned ms, int *failed) {
  Z3_solver solver = new_solver(s, kind, ms ? ms : 1);
  aucs_smt_result r = run(s, solver, asserts, n, terms, vals, nvals, failed);
  Z3_solver_dec_ref(s->ctx, solver);
  return r;
}

/* The second try: asserts with their products as unknowns, on the
 * bit-vector pipeline. Only its UNSAT counts (a model of it may not be one
 * of asserts), so anything else is UNKNOWN. */
static aucs_smt_result linear_try(aucs_smt *s, const Z3_ast *asserts, size_t n,
                                  unsigned ms) {
  aucs_ptrmap memo = {0}, products = {0};
  Z3_ast *linear = aucs_xcalloc(n + 1, sizeof *linear);
  for (size_t i = 0; i < n; i++)
    linear[i] = unmultiply(s->ctx, asserts[i], &memo, &products);
  aucs_ptrmap_free(&memo);
  aucs_ptrmap_free(&products);
  int failed = 0;
  aucs_smt_result r = attempt(s, QF_BV, linear, n, NULL, NULL, 0, ms, &failed);
  free(linear);
  return r == AUCS_SMT_UNSAT ? r : AUCS_SMT_UNKNOWN;
}

aucs_smt_result aucs_smt_check(aucs_smt *s, const Z3_ast *asserts, size_t n,
                               const Z3_ast *terms, uint64_t *vals,
                               size_t nvals) {
  set_reason(s, "");
  for (size_t i = 0; i < n; i++)
    if (!asserts[i]) {
      set_reason(s, "a term could not be built");
      return count(s, AUCS_SMT_UNKNOWN);
    }
  double start = aucs_seconds();
  unsigned total = s->timeout_ms ? s->timeout_ms : 4294967295u;
  int failed = 0;
  unsigned core =
      total / TRY_SHARE < CORE_MAX_MS ? total / TRY_SHARE : CORE_MAX_MS;
  aucs_smt_result r =
      attempt(s, CORE, asserts, n, terms, vals, nvals, core, &failed);
  if (r == AUCS_SMT_UNKNOWN && !failed && s->linear &&
      (r = linear_try(s, asserts, n, total / TRY_SHARE)) == AUCS_SMT_UNSAT)
    s->stats.linear++;
  if (r == AUCS_SMT_UNKNOWN && !failed) {
    double spent = (aucs_seconds() - start) * 1000.0;
    unsigned rest = spent < total ? (unsigned)(total - spent) : 0;
    if (rest)
      r = attempt(s, DEFAULT, asserts, n, terms, vals, nvals, rest, &failed);
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

const char *aucs_smt_reason(const aucs_smt *s) { return s->reason; }

const aucs_smt_stats *aucs_smt_stats_of(const aucs_smt *s) {
  return &s->stats;
}
