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

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_smt_sat_reads_the_model),
      cmocka_unit_test(test_smt_unsat),
      cmocka_unit_test(test_smt_null_term_is_unknown),
      cmocka_unit_test(test_smt_z3_error_is_unknown),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
