/*
 * test_static_readonly: the Z3 checker's loads of objects the kernel never
 * writes (static_readonly.c): such a load is one function of its address
 * for both threads, so an offset read from a table the kernel only reads
 * is one value for the threads of a block; an object the kernel writes
 * anywhere, or that may overlap a written one (--may-alias), and every
 * object of a kernel with a call step 1 does not follow, keeps its loads
 * fresh values per thread.
 */
#include "support.h"

#include "aucs/static.h"
#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

#define DECLS                                                                  \
  "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"                             \
  "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"

static const aucs_static_options patient = {.timeout_ms = 600000u,
                                            .budget_ms = 3600000u};

/* out[tab[ctaid] + tid] = 0, then "@X@" (which may write tab, or call
 * @rec, a recursive helper); "@A@" the attributes of %tab. */
static const char *table_ir =
    "define ptx_kernel void @k(ptr addrspace(1) @A@ %tab, "
    "ptr addrspace(1) %out) {\n"
    "entry:\n"
    "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
    "  %bx = zext i32 %b to i64\n"
    "  %tp = getelementptr i32, ptr addrspace(1) %tab, i64 %bx\n"
    "  %first = load i32, ptr addrspace(1) %tp\n"
    "  %i = add i32 %first, %tid\n"
    "  %x = sext i32 %i to i64\n"
    "  %a = getelementptr float, ptr addrspace(1) %out, i64 %x\n"
    "  store float 0.0, ptr addrspace(1) %a\n"
    "@X@"
    "  ret void\n"
    "}\n"
    "@g = internal addrspace(1) global i32 0\n"
    "define internal void @rec(i32 %n) {\n"
    "entry:\n"
    "  store i32 %n, ptr addrspace(1) @g\n"
    "  %c = icmp eq i32 %n, 0\n"
    "  br i1 %c, label %done, label %more\n"
    "more:\n"
    "  %m = sub i32 %n, 1\n"
    "  call void @rec(i32 %m)\n"
    "  br label %done\n"
    "done:\n"
    "  ret void\n"
    "}\n" DECLS;

/* The kernel's pairs within one block: how many, how many SAT. */
typedef struct outcome {
  size_t pairs, sat;
} outcome;

static outcome analyze(const char *attrs, const char *tail,
                       const aucs_static_options *o) {
  char *a = aucs_xasprintf("%s", table_ir);
  const char *at = strstr(a, "@A@");
  char *b = aucs_xasprintf("%.*s%s%s", (int)(at - a), a, attrs, at + 3);
  at = strstr(b, "@X@");
  char *ir = aucs_xasprintf("%.*s%s%s", (int)(at - b), b, tail, at + 3);
  LLVMModuleRef m = support_parse(ir);
  aucs_static *s = aucs_static_analyze(support_fn(m, "k"), o);
  outcome r = {0, 0};
  for (size_t i = 0; i < aucs_static_npairs(s); i++) {
    const aucs_static_pair *p = aucs_static_pair_at(s, i);
    if (p->inter_block)
      continue;
    r.pairs++;
    r.sat += p->verdict == AUCS_STATIC_SAT;
  }
  aucs_static_free(s);
  support_free(m);
  free(ir);
  free(b);
  free(a);
  return r;
}

/* every thread stores first + 1 back to tab[ctaid]: the object is
 * written */
#define WRITES_TAB                                                             \
  "  %one = add i32 %first, 1\n"                                               \
  "  store i32 %one, ptr addrspace(1) %tp\n"

static void test_static_readonly_table_is_one_value(void **state) {
  (void)state;
  /* tab is only read: both threads of a block read one first, so
   * out[first + tid] is a different element per thread (a fresh first
   * per thread made the store's pair with itself SAT) */
  outcome r = analyze("", "", &patient);
  assert_int_equal(r.pairs, 1);
  assert_int_equal(r.sat, 0);
}

static void test_static_readonly_written_table_stays_fresh(void **state) {
  (void)state;
  /* the kernel writes tab: its load is a fresh value per thread, and the
   * store to out is no longer proven (nor is the table's own pair) */
  outcome r = analyze("", WRITES_TAB, &patient);
  assert_true(r.pairs >= 2);
  assert_true(r.sat >= 2);
}

static void test_static_readonly_may_alias(void **state) {
  (void)state;
  aucs_static_options alias = patient;
  alias.may_alias = 1;
  /* with --may-alias the store to out may write tab */
  outcome r = analyze("", "", &alias);
  assert_true(r.sat >= 1);
  /* unless tab is __restrict__ (noalias): then it stays read only */
  r = analyze("noalias", "", &alias);
  assert_int_equal(r.sat, 0);
}

static void test_static_readonly_unfollowed_call(void **state) {
  (void)state;
  /* step 1 follows @rec once, not its recursive call, which could write
   * any global without an access of its own: no object is read only */
  outcome r = analyze("", "  call void @rec(i32 3)\n", &patient);
  assert_true(r.sat >= 1);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_static_readonly_table_is_one_value),
      cmocka_unit_test(test_static_readonly_written_table_stays_fresh),
      cmocka_unit_test(test_static_readonly_may_alias),
      cmocka_unit_test(test_static_readonly_unfollowed_call),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
