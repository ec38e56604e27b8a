/*
 * test_smt: the Z3 module's answers, models, reasons and counts.
 */
#include "support.h"

#include "aucs/smt.h"
#include <string.h>

static Z3_ast bv32(Z3_context z, const char *name) {
  return Z3_mk_const(z, Z3_mk_string_symbol(z, name), Z3_mk_bv_sort(z, 32));
}

static Z3_ast num(Z3_context z, unsigned v) {
  return Z3_mk_unsigned_int(z, v, Z3_mk_bv_sort(z, 32));
}

/* x * 3 == 21 over 32 bits (x = 7 is the only answer below 2^30). */
static void test_smt_sat_reads_the_model(void **state) {
  (void)state;
  aucs_smt *s = aucs_smt_new(2000);
  Z3_context z = aucs_smt_context(s);
  Z3_ast x = bv32(z, "x");
  Z3_ast as[2] = {Z3_mk_eq(z, Z3_mk_bvmul(z, x, num(z, 3)), num(z, 21)),
                  Z3_mk_bvult(z, x, num(z, 1u << 30))};
  uint64_t v = 0;
  assert_int_equal(aucs_smt_check(s, as, 2, &x, &v, 1), AUCS_SMT_SAT);
  assert_int_equal(v, 7);
  const aucs_smt_stats *st = aucs_smt_stats_of(s);
  assert_int_equal(st->queries, 1);
  assert_int_equal(st->sat, 1);
  aucs_smt_free(s);
}

/* Two distinct threads t1 != t2 with 2*t1 == 2*t2 under t < 1024: the
 * product cannot wrap, so no model. */
static void test_smt_unsat(void **state) {
  (void)state;
  aucs_smt *s = aucs_smt_new(2000);
  Z3_context z = aucs_smt_context(s);
  Z3_ast a = bv32(z, "t1"), b = bv32(z, "t2");
  Z3_ast as[4] = {Z3_mk_not(z, Z3_mk_eq(z, a, b)),
                  Z3_mk_bvult(z, a, num(z, 1024)),
                  Z3_mk_bvult(z, b, num(z, 1024)),
                  Z3_mk_eq(z, Z3_mk_bvmul(z, a, num(z, 2)),
                           Z3_mk_bvmul(z, b, num(z, 2)))};
  assert_int_equal(aucs_smt_check(s, as, 4, NULL, NULL, 0), AUCS_SMT_UNSAT);
  assert_int_equal(aucs_smt_stats_of(s)->unsat, 1);
  aucs_smt_free(s);
}

/* A NULL assertion (a term that could not be built) decides nothing. */
static void test_smt_null_term_is_unknown(void **state) {
  (void)state;
  aucs_smt *s = aucs_smt_new(2000);
  Z3_ast as[2] = {Z3_mk_true(aucs_smt_context(s)), NULL};
  assert_int_equal(aucs_smt_check(s, as, 2, NULL, NULL, 0),
                   AUCS_SMT_UNKNOWN);
  assert_string_equal(aucs_smt_reason(s), "a term could not be built");
  assert_int_equal(aucs_smt_stats_of(s)->unknown, 1);
  aucs_smt_free(s);
}

/* A sort error inside Z3 is an UNKNOWN with Z3's message, not an exit. */
static void test_smt_z3_error_is_unknown(void **state) {
  (void)state;
  aucs_smt *s = aucs_smt_new(2000);
  Z3_context z = aucs_smt_context(s);
  Z3_ast bad = Z3_mk_bvadd(z, bv32(z, "x"), Z3_mk_true(z));
  Z3_ast as[1] = {bad ? Z3_mk_eq(z, bad, bad) : NULL};
  assert_int_equal(aucs_smt_check(s, as, 1, NULL, NULL, 0),
                   AUCS_SMT_UNKNOWN);
  assert_true(strlen(aucs_smt_reason(s)) > 0);
  aucs_smt_free(s);
}

static Z3_ast bv64(Z3_context z, const char *name) {
  return Z3_mk_const(z, Z3_mk_string_symbol(z, name), Z3_mk_bv_sort(z, 64));
}

/* k1 * d + s1 == k2 * d + s2 for 0 <= s < d and distinct (k, s) pairs,
 * over 64 bits with no wrap (all below 2^31): no model, but bit-blasting
 * two 64-bit multipliers does not show it in the core's time. With the
 * ordering of the multiples asserted (what static.c adds), the linear try
 * proves it, and tried first it proves it before the core spends its share
 * (2M units at this timeout). */
static void test_smt_linear_try_proves_with_ordered_products(void **state) {
  (void)state;
  aucs_smt *s = aucs_smt_new(4000);
  Z3_context z = aucs_smt_context(s);
  Z3_ast k1 = bv64(z, "k1"), k2 = bv64(z, "k2"), d = bv64(z, "d");
  Z3_ast s1 = bv64(z, "s1"), s2 = bv64(z, "s2");
  Z3_ast lim = Z3_mk_unsigned_int64(z, 1ull << 31, Z3_mk_bv_sort(z, 64));
  Z3_ast v1 = Z3_mk_bvadd(z, Z3_mk_bvmul(z, k1, d), s1);
  Z3_ast v2 = Z3_mk_bvadd(z, Z3_mk_bvmul(z, d, k2), s2);
  Z3_ast distinct[2] = {Z3_mk_not(z, Z3_mk_eq(z, k1, k2)),
                        Z3_mk_not(z, Z3_mk_eq(z, s1, s2))};
  Z3_ast as[] = {
      Z3_mk_bvult(z, k1, lim),
      Z3_mk_bvult(z, k2, lim),
      Z3_mk_bvult(z, d, lim),
      Z3_mk_bvult(z, s1, d),
      Z3_mk_bvult(z, s2, d),
      Z3_mk_eq(z, v1, v2),
      Z3_mk_or(z, 2, distinct),
      Z3_mk_implies(z, Z3_mk_bvult(z, k1, k2), Z3_mk_bvult(z, v1, v2)),
      Z3_mk_implies(z, Z3_mk_bvult(z, k2, k1), Z3_mk_bvult(z, v2, v1)),
      Z3_mk_implies(
          z, Z3_mk_eq(z, k1, k2),
          Z3_mk_eq(z, Z3_mk_bvsub(z, v1, s1), Z3_mk_bvsub(z, v2, s2)))};
  size_t n = sizeof as / sizeof as[0];
  aucs_smt_set_linear(s, 1);
  assert_int_equal(aucs_smt_check(s, as, n, NULL, NULL, 0), AUCS_SMT_UNSAT);
  assert_int_equal(aucs_smt_stats_of(s)->linear, 1);
  assert_true(aucs_smt_stats_of(s)->units < 500u * AUCS_SMT_UNITS_PER_MS);
  aucs_smt_free(s);
}

/* The linear try's models are not answers: with it on, a satisfiable
 * query with products still reads its model from a solver that
 * multiplies. */
static void test_smt_linear_try_keeps_models_exact(void **state) {
  (void)state;
  aucs_smt *s = aucs_smt_new(2000);
  Z3_context z = aucs_smt_context(s);
  Z3_ast x = bv32(z, "x"), y = bv32(z, "y");
  Z3_ast as[3] = {Z3_mk_eq(z, Z3_mk_bvmul(z, x, y), num(z, 91)),
                  Z3_mk_bvugt(z, x, num(z, 1)), Z3_mk_bvult(z, x, y)};
  Z3_ast terms[2] = {x, y};
  uint64_t v[2] = {0, 0};
  aucs_smt_set_linear(s, 1);
  assert_int_equal(aucs_smt_check(s, as, 3, terms, v, 2), AUCS_SMT_SAT);
  assert_int_equal((uint32_t)(v[0] * v[1]), 91);
  assert_int_equal(aucs_smt_stats_of(s)->linear, 0);
  aucs_smt_free(s);
}

/* Factor a 64-bit product of two 32-bit primes: far more work than one
 * nominal millisecond. */
static aucs_smt_result factor(aucs_smt *s, uint64_t *units) {
  Z3_context z = aucs_smt_context(s);
  Z3_ast x = bv64(z, "x"), y = bv64(z, "y");
  Z3_ast one = Z3_mk_unsigned_int64(z, 1, Z3_mk_bv_sort(z, 64));
  Z3_ast lim = Z3_mk_unsigned_int64(z, 1ull << 32, Z3_mk_bv_sort(z, 64));
  Z3_ast as[5] = {
      Z3_mk_eq(z, Z3_mk_bvmul(z, x, y),
               Z3_mk_unsigned_int64(z, 4294967291ull * 4294967279ull,
                                    Z3_mk_bv_sort(z, 64))),
      Z3_mk_bvugt(z, x, one), Z3_mk_bvugt(z, y, one), Z3_mk_bvult(z, x, lim),
      Z3_mk_bvult(z, y, lim)};
  aucs_smt_result r = aucs_smt_check(s, as, 5, NULL, NULL, 0);
  *units = aucs_smt_stats_of(s)->units;
  return r;
}

/* The limit is Z3's resource units, not time: a query over its limit ends
 * UNKNOWN at the limit, having spent the same units on every run. */
static void test_smt_resource_limit_is_deterministic(void **state) {
  (void)state;
  uint64_t units[2];
  for (int run = 0; run < 2; run++) {
    aucs_smt *s = aucs_smt_new(1);
    assert_int_equal(factor(s, &units[run]), AUCS_SMT_UNKNOWN);
    assert_string_equal(aucs_smt_reason(s), "resource limit");
    assert_int_equal(aucs_smt_stats_of(s)->wall_stops, 0);
    aucs_smt_free(s);
  }
  assert_true(units[0] >= AUCS_SMT_UNITS_PER_MS);
  assert_int_equal(units[0], units[1]);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_smt_sat_reads_the_model),
      cmocka_unit_test(test_smt_unsat),
      cmocka_unit_test(test_smt_null_term_is_unknown),
      cmocka_unit_test(test_smt_z3_error_is_unknown),
      cmocka_unit_test(test_smt_linear_try_proves_with_ordered_products),
      cmocka_unit_test(test_smt_linear_try_keeps_models_exact),
      cmocka_unit_test(test_smt_resource_limit_is_deterministic),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
