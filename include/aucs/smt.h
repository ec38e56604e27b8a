/*
 * smt: the one module that owns Z3 (DESIGN.md section 5.3, STYLE.md "Z3's
 * test_capi.c"). It creates the context and installs its error handler,
 * owns the solvers, the limits and every reference-counted Z3 object; each
 * query runs on solvers of its own (Z3's SMT core for a quarter of the
 * limit, then Z3's default solver for the rest), released before
 * aucs_smt_check returns (so no scope is ever pushed).
 *
 * Limits are deterministic: a timeout of T ms is T * AUCS_SMT_UNITS_PER_MS
 * Z3 resource units ("rlimit"), which Z3 counts the same on every run, so
 * the same query gets the same answer on a loaded machine. A wall-clock
 * timeout of AUCS_SMT_WALL_FACTOR * T ms (at least AUCS_SMT_WALL_MIN_MS)
 * only ends pathological queries
 * (stats.wall_stops counts them; each breaks determinism).
 *
 * The context is Z3_mk_context's: terms need no reference counts and stay
 * valid for the life of the aucs_smt (no solver scope is ever popped, which
 * is what would reclaim them). Callers build terms
 * with the Z3 API on aucs_smt_context and never create solvers, models or
 * parameter sets themselves.
 *
 * Errors: the handler records nothing and never exits; a query during which
 * Z3 reports an error, or whose assertions include a NULL term (a failed
 * construction), answers UNKNOWN with the reason in aucs_smt_reason.
 */
#ifndef AUCS_SMT_H
#define AUCS_SMT_H

#include <stddef.h>
#include <stdint.h>
#include <z3.h>

typedef struct aucs_smt aucs_smt;

/* Z3 resource units per nominal millisecond: measured on the corpus's
 * queries with Z3 4.8.12 on an unloaded machine (docs/decisions.md). */
#define AUCS_SMT_UNITS_PER_MS 4000u
/* The wall-clock safety net: AUCS_SMT_WALL_FACTOR times the nominal time,
 * and never under AUCS_SMT_WALL_MIN_MS (short limits stay deterministic on
 * a slow or loaded machine too). */
#define AUCS_SMT_WALL_FACTOR 32u
#define AUCS_SMT_WALL_MIN_MS 10000u

typedef enum aucs_smt_result {
  AUCS_SMT_UNSAT,
  AUCS_SMT_SAT,
  AUCS_SMT_UNKNOWN, /* timeout, incompleteness or a Z3 error */
} aucs_smt_result;

typedef struct aucs_smt_stats {
  uint64_t queries, sat, unsat, unknown;
  uint64_t linear; /* of the UNSAT answers, the linear try's */
  double seconds; /* wall-clock time inside the solver */
  uint64_t units; /* Z3 resource units spent (deterministic) */
  uint64_t wall_stops; /* tries the wall-clock safety net ended */
  /* Answers decided before the solver: UNSAT by cheap.h's rules (cheap),
   * UNSAT or SAT found in a qcache.h (cached; no time in the solver). */
  uint64_t cheap, cached;
} aucs_smt_stats;

/* A context whose queries stop after timeout_ms nominal milliseconds
 * (0: none), that is timeout_ms * AUCS_SMT_UNITS_PER_MS resource units.
 * Free with aucs_smt_free. */
aucs_smt *aucs_smt_new(unsigned timeout_ms);
void aucs_smt_free(aucs_smt *s);
Z3_context aucs_smt_context(const aucs_smt *s);
/* The timeout of the following queries, nominal ms (0: none). */
void aucs_smt_set_timeout(aucs_smt *s, unsigned timeout_ms);
/* Whether the following queries, when the SMT core gives up, are next
 * tried with every product of two or more non-constant bit-vectors made an
 * unknown of its own (a*b and b*a one unknown). That only drops facts, so
 * its UNSAT holds of the query as given: a proof for the price of linear
 * arithmetic when the asserts say what the proof needs of the products
 * (static.c's lemmas on multiples); its other answers are dropped. */
void aucs_smt_set_linear(aucs_smt *s, int on);

/* a * b with the factors in one order (by Z3's term id), so that a*b and
 * b*a are one term: the form the linear try keys products by. */
Z3_ast aucs_smt_mul(Z3_context z, Z3_ast a, Z3_ast b);

/* Is the conjunction of asserts[0..n) satisfiable? On SAT, vals[i] gets the
 * model's value of terms[i] (a bit-vector of at most 64 bits, or a Boolean
 * as 0/1; 0 when the model leaves it free). One fresh solver per call. */
aucs_smt_result aucs_smt_check(aucs_smt *s, const Z3_ast *asserts, size_t n,
                               const Z3_ast *terms, uint64_t *vals,
                               size_t nvals);
/* Count an UNSAT answer the caller decided without the solver: cached (1)
 * or by a cheap rule (0). */
void aucs_smt_count_decided(aucs_smt *s, int cached);
/* Count a query the query cache answered, with its answer (SAT too). */
void aucs_smt_count_cached(aucs_smt *s, aucs_smt_result r);
/* Why the last query answered UNKNOWN ("resource limit", "timeout
 * (wall-clock safety net)", Z3's message), or "". The
 * string lives until the next query. */
const char *aucs_smt_reason(const aucs_smt *s);
/* 1 when the last aucs_smt_check's answer depended on its query, limit and
 * mode alone (no wall-clock stop, no Z3 error, every term built): Z3 counts
 * resource units the same on every run, so that query within that limit
 * and mode answers the same again (qcache.h keeps such an UNKNOWN). */
int aucs_smt_repeatable(const aucs_smt *s);
/* The following queries' limit in resource units (no limit: UINT64_MAX)
 * and mode (what else decides their tries: 1 when the linear try is on). */
uint64_t aucs_smt_limit(const aucs_smt *s);
unsigned aucs_smt_mode(const aucs_smt *s);
const aucs_smt_stats *aucs_smt_stats_of(const aucs_smt *s);
/* Zero the counts, so that one context serves analyses one after another
 * (a repair's) with each one's own stats and budget. */
void aucs_smt_stats_reset(aucs_smt *s);

#endif
