/*
 * test_qcache: canonical keys (one formula, two contexts with different
 * fresh names: one key; another formula: another key), the table's hits
 * and misses, and the static checker answering a second analysis of a
 * kernel from a shared cache with the same verdicts.
 */
#include "support.h"

#include "aucs/qcache.h"
#include "aucs/smt.h"
#include "aucs/static.h"
#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

/* fresh + 4 == tid!1 (bound) in a context where skip fresh constants were
 * made first, so the fresh name's number differs. */
static char *key_in(Z3_context z, unsigned skip, unsigned k) {
  Z3_sort s = Z3_mk_bv_sort(z, 32);
  for (unsigned i = 0; i < skip; i++)
    Z3_mk_fresh_const(z, "v1", s);
  Z3_ast f = Z3_mk_fresh_const(z, "v1", s);
  Z3_ast t = Z3_mk_const(z, Z3_mk_string_symbol(z, "tid.x!1"), s);
  Z3_ast as[2] = {
      Z3_mk_eq(z, Z3_mk_bvadd(z, f, Z3_mk_unsigned_int(z, k, s)), t),
      Z3_mk_bvult(z, t, Z3_mk_unsigned_int(z, 1024, s))};
  return aucs_qcache_key(z, as, 2);
}

static Z3_context context(void) {
  Z3_config cfg = Z3_mk_config();
  Z3_context z = Z3_mk_context(cfg);
  Z3_del_config(cfg);
  return z;
}

static void test_qcache_key_renames_fresh_constants(void **state) {
  (void)state;
  Z3_context a = context(), b = context();
  char *ka = key_in(a, 0, 4), *kb = key_in(b, 7, 4), *kc = key_in(b, 0, 5);
  assert_string_equal(ka, kb);
  assert_string_not_equal(ka, kc);
  assert_null(strstr(ka, "v1!")); /* renamed */
  free(ka);
  free(kb);
  free(kc);
  Z3_del_context(a);
  Z3_del_context(b);
}

static void test_qcache_hits_and_misses(void **state) {
  (void)state;
  aucs_qcache *c = aucs_qcache_new();
  char key[32];
  assert_false(aucs_qcache_unsat(c, "q0"));
  for (int i = 0; i < 200; i++) { /* through a few doublings */
    snprintf(key, sizeof key, "q%d", i);
    aucs_qcache_put_unsat(c, key);
  }
  aucs_qcache_put_unsat(c, "q7"); /* once only */
  assert_true(aucs_qcache_unsat(c, "q0"));
  assert_true(aucs_qcache_unsat(c, "q199"));
  assert_false(aucs_qcache_unsat(c, "q200"));
  aucs_qcache_stats st = aucs_qcache_stats_of(c);
  assert_int_equal(st.hits, 2);
  assert_int_equal(st.misses, 2);
  assert_int_equal(st.entries, 200);
  aucs_qcache_free(c);
}

/* (x + y < 5) and (y > 1), with x, y fresh: the conjuncts, and the
 * arguments of +, in one order or the other, the constants made in one
 * order or the other (Z3's term ids differ). */
static char *commuted_key(Z3_context z, int swap) {
  Z3_sort s = Z3_mk_bv_sort(z, 32);
  Z3_ast a = Z3_mk_fresh_const(z, swap ? "y" : "x", s);
  Z3_ast b = Z3_mk_fresh_const(z, swap ? "x" : "y", s);
  Z3_ast x = swap ? b : a, y = swap ? a : b;
  Z3_ast sum = swap ? Z3_mk_bvadd(z, y, x) : Z3_mk_bvadd(z, x, y);
  Z3_ast lt = Z3_mk_bvult(z, sum, Z3_mk_unsigned_int(z, 5, s));
  Z3_ast gt = Z3_mk_bvugt(z, y, Z3_mk_unsigned_int(z, 1, s));
  Z3_ast as[2] = {swap ? gt : lt, swap ? lt : gt};
  return aucs_qcache_key(z, as, 2);
}

static void test_qcache_key_ignores_commuted_order(void **state) {
  (void)state;
  Z3_context a = context(), b = context();
  char *ka = commuted_key(a, 0), *kb = commuted_key(b, 1);
  assert_string_equal(ka, kb);
  free(ka);
  free(kb);
  Z3_del_context(a);
  Z3_del_context(b);
}

/* The key spells every operator's parameters: extract 7..0 and 15..8 of
 * one term (same sorts) are two queries. */
static void test_qcache_key_keeps_parameters(void **state) {
  (void)state;
  Z3_context z = context();
  Z3_sort s = Z3_mk_bv_sort(z, 32), s8 = Z3_mk_bv_sort(z, 8);
  Z3_ast x = Z3_mk_fresh_const(z, "x", s), zero = Z3_mk_int(z, 0, s8);
  Z3_ast lo = Z3_mk_eq(z, Z3_mk_extract(z, 7, 0, x), zero);
  Z3_ast hi = Z3_mk_eq(z, Z3_mk_extract(z, 15, 8, x), zero);
  char *kl = aucs_qcache_key(z, &lo, 1), *kh = aucs_qcache_key(z, &hi, 1);
  assert_string_not_equal(kl, kh);
  free(kl);
  free(kh);
  Z3_del_context(z);
}

/* An UNKNOWN is kept as "tried within this limit and mode", by a cache
 * that keeps SAT answers: a lookup within no more units in that mode finds
 * it; more units, another mode, or a plain get do not; an answer replaces
 * it. */
static void test_qcache_unknown_within_limit(void **state) {
  (void)state;
  aucs_qcache *c = aucs_qcache_new();
  aucs_qcache_put_unknown(c, "q", 1000, 0); /* not kept yet */
  assert_int_equal(aucs_qcache_lookup(c, "q", NULL, 0, 1000, 0), 0);
  aucs_qcache_keep_sat(c);
  aucs_qcache_put_unknown(c, "q", 1000, 0);
  assert_int_equal(aucs_qcache_lookup(c, "q", NULL, 0, 1000, 0), 3);
  assert_int_equal(aucs_qcache_lookup(c, "q", NULL, 0, 500, 0), 3);
  assert_int_equal(aucs_qcache_lookup(c, "q", NULL, 0, 2000, 0), 0);
  assert_int_equal(aucs_qcache_lookup(c, "q", NULL, 0, 1000, 1), 0);
  assert_int_equal(aucs_qcache_get(c, "q", NULL, 0), 0);
  assert_false(aucs_qcache_unsat(c, "q"));
  aucs_qcache_put_unknown(c, "q", 4000, 0);
  assert_int_equal(aucs_qcache_lookup(c, "q", NULL, 0, 2000, 0), 3);
  aucs_qcache_put_unsat(c, "q");
  assert_int_equal(aucs_qcache_lookup(c, "q", NULL, 0, 8000, 1), 1);
  aucs_qcache_put_unknown(c, "q", 9000, 0); /* the answer stays */
  assert_true(aucs_qcache_unsat(c, "q"));
  assert_int_equal(aucs_qcache_stats_of(c).entries, 1);
  aucs_qcache_free(c);
}

/* A scope (a kernel family in detect) keeps SAT and UNKNOWN answers found
 * only under that scope; UNSAT answers are found under any; an answer of
 * another scope is replaced by this one's; keep_sat finds every answer. */
static void test_qcache_scope(void **state) {
  (void)state;
  aucs_qcache *c = aucs_qcache_new();
  uint64_t v[1] = {42}, got[1] = {0};
  aucs_qcache_put_sat(c, "s", v, 1); /* no scope: not kept */
  assert_int_equal(aucs_qcache_lookup(c, "s", got, 1, 1000, 0), 0);
  aucs_qcache_scope(c, 1);
  aucs_qcache_put_sat(c, "s", v, 1);
  aucs_qcache_put_unknown(c, "u", 1000, 0);
  aucs_qcache_put_unsat(c, "x");
  assert_int_equal(aucs_qcache_lookup(c, "s", got, 1, 1000, 0), 2);
  assert_int_equal(got[0], 42);
  assert_int_equal(aucs_qcache_lookup(c, "u", NULL, 0, 1000, 0), 3);
  aucs_qcache_scope(c, 2); /* another family */
  assert_int_equal(aucs_qcache_lookup(c, "s", got, 1, 1000, 0), 0);
  assert_int_equal(aucs_qcache_lookup(c, "u", NULL, 0, 1000, 0), 0);
  assert_true(aucs_qcache_unsat(c, "x"));
  v[0] = 7;
  aucs_qcache_put_sat(c, "s", v, 1); /* replaces family 1's */
  assert_int_equal(aucs_qcache_lookup(c, "s", got, 1, 1000, 0), 2);
  assert_int_equal(got[0], 7);
  aucs_qcache_scope(c, 0); /* out of every family */
  assert_int_equal(aucs_qcache_lookup(c, "s", got, 1, 1000, 0), 0);
  assert_true(aucs_qcache_unsat(c, "x"));
  aucs_qcache_keep_sat(c);
  assert_int_equal(aucs_qcache_lookup(c, "s", got, 1, 1000, 0), 2);
  assert_int_equal(aucs_qcache_lookup(c, "u", NULL, 0, 1000, 0), 3);
  assert_int_equal(aucs_qcache_stats_of(c).entries, 3);
  aucs_qcache_free(c);
}

/* s[t | 1024] written, s[t] read: UNSAT only through the solver (no cheap
 * rule reads an or). */
static const char *kernel_ir =
    "@s = internal addrspace(3) global [2048 x i32] undef\n"
    "define ptx_kernel void @k() {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %i = or i32 %t, 1024\n"
    "  %p = getelementptr [2048 x i32], ptr addrspace(3) @s, i32 0, i32 %i\n"
    "  store i32 1, ptr addrspace(3) %p\n"
    "  %q = getelementptr [2048 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
    "  %v = load i32, ptr addrspace(3) %q\n"
    "  ret void\n"
    "}\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n";

static void test_qcache_shared_by_two_analyses(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(kernel_ir);
  aucs_qcache *c = aucs_qcache_new();
  aucs_static_options o = {.timeout_ms = 600000, .budget_ms = 3600000,
                           .cache = c};
  aucs_static *first = aucs_static_analyze(support_fn(m, "k"), &o);
  aucs_static *second = aucs_static_analyze(support_fn(m, "k"), &o);
  const aucs_smt_stats *s1 = aucs_static_stats(first);
  const aucs_smt_stats *s2 = aucs_static_stats(second);
  assert_int_equal(aucs_static_proof_of(first), AUCS_PROOF_RACE_FREE);
  assert_int_equal(aucs_static_proof_of(second), AUCS_PROOF_RACE_FREE);
  uint64_t solved = s1->unsat - s1->cheap - s1->cached;
  assert_true(solved > 0);
  assert_int_equal(s2->cached, solved + s1->cached);
  assert_int_equal(s2->unsat, s1->unsat);
  assert_int_equal(s2->unsat, s2->cheap + s2->cached); /* no solver */
  aucs_static_free(first);
  aucs_static_free(second);
  aucs_qcache_free(c);
  support_free(m);
}

static void test_qcache_sat_keeps_model_values(void **state) {
  (void)state;
  aucs_qcache *c = aucs_qcache_new();
  uint64_t v[3] = {7, 8, 9}, got[3] = {0};
  aucs_qcache_put_sat(c, "s", v, 3); /* not kept yet */
  assert_int_equal(aucs_qcache_get(c, "s", got, 3), 0);
  aucs_qcache_keep_sat(c);
  aucs_qcache_put_sat(c, "s", v, 3);
  aucs_qcache_put_unsat(c, "u");
  assert_int_equal(aucs_qcache_get(c, "s", got, 3), 2);
  assert_memory_equal(got, v, sizeof v);
  assert_int_equal(aucs_qcache_get(c, "u", got, 3), 1);
  assert_int_equal(aucs_qcache_get(c, "s", got, 2), 0); /* other terms */
  assert_int_equal(aucs_qcache_get(c, "x", got, 3), 0);
  assert_false(aucs_qcache_unsat(c, "s")); /* SAT is no UNSAT hit */
  aucs_qcache_free(c);
}

/* The terms a SAT answer's values belong to are part of its key. */
static void test_qcache_key_names_terms(void **state) {
  (void)state;
  Z3_context z = context();
  Z3_sort s = Z3_mk_bv_sort(z, 32);
  Z3_ast t = Z3_mk_const(z, Z3_mk_string_symbol(z, "tid.x!1"), s);
  Z3_ast u = Z3_mk_const(z, Z3_mk_string_symbol(z, "tid.y!1"), s);
  Z3_ast as[1] = {Z3_mk_bvult(z, t, u)};
  char *kt = aucs_qcache_key_terms(z, as, 1, &t, 1);
  char *ku = aucs_qcache_key_terms(z, as, 1, &u, 1);
  char *k0 = aucs_qcache_key(z, as, 1);
  assert_string_not_equal(kt, ku);
  assert_string_not_equal(kt, k0);
  free(kt);
  free(ku);
  free(k0);
  Z3_del_context(z);
}

/* s[t + 1] written, s[t] read: a race, SAT with a witness. */
static const char *racy_ir =
    "@s = internal addrspace(3) global [2048 x i32] undef\n"
    "define ptx_kernel void @k() {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %i = add i32 %t, 1\n"
    "  %p = getelementptr [2048 x i32], ptr addrspace(3) @s, i32 0, i32 %i\n"
    "  store i32 1, ptr addrspace(3) %p\n"
    "  %q = getelementptr [2048 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
    "  %v = load i32, ptr addrspace(3) %q\n"
    "  ret void\n"
    "}\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n";

/* A second analysis of an unedited kernel (a repair's final check) takes
 * its SAT answers from the cache too, with the same witness. */
static void test_qcache_sat_shared_by_two_analyses(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(racy_ir);
  aucs_qcache *c = aucs_qcache_new();
  aucs_qcache_keep_sat(c);
  aucs_static_options o = {.timeout_ms = 600000, .budget_ms = 3600000,
                           .cache = c};
  aucs_static *first = aucs_static_analyze(support_fn(m, "k"), &o);
  aucs_static *second = aucs_static_analyze(support_fn(m, "k"), &o);
  const aucs_smt_stats *s1 = aucs_static_stats(first);
  const aucs_smt_stats *s2 = aucs_static_stats(second);
  assert_true(s1->sat > 0);
  assert_int_equal(s2->sat, s1->sat);
  assert_int_equal(s2->cached, s2->sat + s2->unsat - s2->cheap);
  assert_int_equal(aucs_static_npairs(second), aucs_static_npairs(first));
  size_t sat = 0;
  for (size_t i = 0; i < aucs_static_npairs(first); i++) {
    const aucs_static_pair *p1 = aucs_static_pair_at(first, i);
    const aucs_static_pair *p2 = aucs_static_pair_at(second, i);
    assert_int_equal(p1->verdict, p2->verdict);
    if (p1->verdict != AUCS_STATIC_SAT)
      continue;
    sat++;
    assert_memory_equal(&p1->witness.launch, &p2->witness.launch,
                        sizeof p1->witness.launch);
    assert_memory_equal(p1->witness.thread, p2->witness.thread,
                        sizeof p1->witness.thread);
    assert_int_equal(p1->witness.offset, p2->witness.offset);
  }
  assert_true(sat > 0);
  aucs_static_free(first);
  aucs_static_free(second);
  aucs_qcache_free(c);
  support_free(m);
}

/* sq[t * t * 3] written by every thread: UNSAT, but only through a
 * nonlinear proof the solver does not finish within 4000 resource units
 * (timeout 1 ms): UNKNOWN. @edited is @k with a barrier after the store
 * and a store of its own after that: the repair's final check of a kernel
 * whose edit left that pair's query as it was. */
static const char *square_ir =
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "declare void @llvm.nvvm.barrier0()\n"
    "define ptx_kernel void @k(ptr addrspace(1) %sq) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %tt = mul i32 %t, %t\n"
    "  %i = mul i32 %tt, 3\n"
    "  %p = getelementptr i32, ptr addrspace(1) %sq, i32 %i\n"
    "  store i32 1, ptr addrspace(1) %p\n"
    "  ret void\n"
    "}\n"
    "define ptx_kernel void @edited(ptr addrspace(1) %sq) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %tt = mul i32 %t, %t\n"
    "  %i = mul i32 %tt, 3\n"
    "  %p = getelementptr i32, ptr addrspace(1) %sq, i32 %i\n"
    "  store i32 1, ptr addrspace(1) %p\n"
    "  call void @llvm.nvvm.barrier0()\n"
    "  %q = getelementptr i32, ptr addrspace(1) %sq, i32 %t\n"
    "  store i32 2, ptr addrspace(1) %q\n"
    "  ret void\n"
    "}\n";

/* A repair's cache (it keeps SAT and UNKNOWN answers) and Z3 context: the
 * analysis of the edited kernel gets the UNKNOWN of the pair the edit did
 * not change from the cache, within the same limit, and asks the solver
 * only what is new; with a larger limit it asks again. */
static void test_qcache_unknown_shared_with_edited_kernel(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(square_ir);
  aucs_qcache *c = aucs_qcache_new();
  aucs_qcache_keep_sat(c);
  aucs_smt *z = aucs_smt_new(0);
  aucs_static_options o = {
      .timeout_ms = 1, .budget_ms = 3600000, .cache = c, .smt = z};
  aucs_static *first = aucs_static_analyze(support_fn(m, "k"), &o);
  uint64_t unknown1 = aucs_static_stats(first)->unknown;
  assert_true(unknown1 > 0);
  assert_int_equal(aucs_static_stats(first)->cached, 0);
  aucs_static *second = aucs_static_analyze(support_fn(m, "edited"), &o);
  const aucs_smt_stats *s2 = aucs_static_stats(second);
  assert_true(s2->unknown >= unknown1);
  assert_true(s2->cached >= unknown1); /* the untouched pair's UNKNOWN */
  aucs_static_free(second);
  o.timeout_ms = 2; /* more units than were tried: asked again */
  aucs_static *third = aucs_static_analyze(support_fn(m, "k"), &o);
  assert_int_equal(aucs_static_stats(third)->cached, 0);
  aucs_static_free(first);
  aucs_static_free(third);
  aucs_smt_free(z);
  aucs_qcache_free(c);
  support_free(m);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_qcache_key_renames_fresh_constants),
      cmocka_unit_test(test_qcache_key_ignores_commuted_order),
      cmocka_unit_test(test_qcache_key_keeps_parameters),
      cmocka_unit_test(test_qcache_unknown_within_limit),
      cmocka_unit_test(test_qcache_scope),
      cmocka_unit_test(test_qcache_hits_and_misses),
      cmocka_unit_test(test_qcache_shared_by_two_analyses),
      cmocka_unit_test(test_qcache_sat_keeps_model_values),
      cmocka_unit_test(test_qcache_key_names_terms),
      cmocka_unit_test(test_qcache_sat_shared_by_two_analyses),
      cmocka_unit_test(test_qcache_unknown_shared_with_edited_kernel),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
