/*
 * test_detect: option parsing, kernel selection, argument binding, and the
 * orchestration over the interpreter on small inline kernels.
 */
#include "support.h"

#include "aucs/detect.h"
#include "aucs/kernel.h"
#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

static const char *kernels =
    "@s = internal addrspace(3) global [32 x i32] undef\n"
    /* every thread writes s[tid % 32]: a race once the block passes 32 */
    "define ptx_kernel void @racy(ptr %out, i32 %n) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %i = urem i32 %t, 32\n"
    "  %p = getelementptr [32 x i32], ptr addrspace(3) @s, i32 0, i32 %i\n"
    "  store i32 %t, ptr addrspace(3) %p\n"
    "  ret void\n"
    "}\n"
    /* a barrier between two accesses of the thread's own slot: redundant
     * with 32 threads; with more, only the first 32 reach it */
    "define ptx_kernel void @own(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %i = urem i32 %t, 32\n"
    "  %p = getelementptr [32 x i32], ptr addrspace(3) @s, i32 0, i32 %i\n"
    "  %c = icmp ult i32 %t, 32\n"
    "  br i1 %c, label %then, label %done\n"
    "then:\n"
    "  store i32 %t, ptr addrspace(3) %p\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  %v = load i32, ptr addrspace(3) %p\n"
    "  br label %done\n"
    "done:\n"
    "  ret void\n"
    "}\n"
    "define ptx_kernel void @traps(float %x) {\n"
    "entry:\n"
    "  call void @llvm.trap()\n"
    "  unreachable\n"
    "}\n"
    "define ptx_kernel void @asm(ptr %out) {\n"
    "entry:\n"
    "  call void asm sideeffect \"trap;\", \"\"()\n"
    "  ret void\n"
    "}\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n"
    "declare void @llvm.trap()\n";

typedef struct fx {
  LLVMModuleRef m;
  LLVMValueRef *ks;
  size_t n;
} fx;

static int setup(void **state) {
  fx *f = aucs_xcalloc(1, sizeof *f);
  f->m = support_parse(kernels);
  f->n = aucs_kernel_list(f->m, &f->ks);
  *state = f;
  return 0;
}

static int teardown(void **state) {
  fx *f = *state;
  free(f->ks);
  support_free(f->m);
  free(f);
  return 0;
}

static void parse_ok(aucs_detect_options *o, const char *text) {
  char *err = NULL;
  int rc = aucs_detect_options_parse(o, text, &err);
  if (rc)
    print_error("%s: %s\n", text, err);
  assert_int_equal(rc, 0);
}

static char *parse_err(const char *text) {
  aucs_detect_options o = {0};
  char *err = NULL;
  assert_int_not_equal(aucs_detect_options_parse(&o, text, &err), 0);
  aucs_detect_options_free(&o);
  assert_non_null(err);
  return err;
}

/* ---- options ------------------------------------------------------------*/

static void test_detect_options_parse(void **state) {
  (void)state;
  aucs_detect_options o = {0};
  parse_ok(&o, "--grid 2,3 --block=64 --arg n=5 --arg x=0.5 --seed 9 "
               "--warp-lockstep --format=json --stats --kernel k "
               "--step-budget 100 --memory-budget 4096 --population 2 "
               "--generations 3");
  assert_true(o.has_grid && o.has_block && o.has_seed);
  assert_int_equal(o.grid.x, 2);
  assert_int_equal(o.grid.y, 3);
  assert_int_equal(o.grid.z, 1);
  assert_int_equal(o.block.x, 64);
  assert_int_equal(o.nargs, 2);
  assert_int_equal(o.args[0].name_len, 1);
  assert_memory_equal(o.args[0].name, "n", 1);
  assert_string_equal(o.args[1].value, "0.5");
  assert_int_equal(o.seed, 9);
  assert_true(o.warp_lockstep && o.json && o.stats);
  assert_string_equal(o.kernel, "k");
  assert_int_equal(o.step_budget, 100);
  assert_int_equal(o.memory_budget, 4096);
  assert_int_equal(o.population, 2);
  assert_int_equal(o.generations, 3);
  aucs_detect_options_free(&o);
  parse_ok(&o, NULL);
  assert_false(o.has_grid);
  aucs_detect_options_free(&o);
}

static void test_detect_options_bad_values(void **state) {
  (void)state;
  const char *bad[] = {"--grid 0",     "--grid 1,2,3,4", "--block x",
                       "--grid 2,",    "--arg n",        "--arg =3",
                       "--seed -1",    "--format xml",   "--population 0",
                       "--frobnicate", "--grid"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    free(parse_err(bad[i]));
  char *err = parse_err("--block 64,x");
  assert_non_null(strstr(err, "--block: bad value '64,x'"));
  free(err);
}

/* ---- runs ---------------------------------------------------------------*/

static int detect(fx *f, const char *text, aucs_report *r, char **err) {
  aucs_detect_options o = {0};
  parse_ok(&o, text);
  o.input = "k.ll";
  int rc = aucs_detect_run(f->m, f->ks, f->n, &o, r, err);
  aucs_detect_options_free(&o);
  return rc;
}

static const aucs_report_kernel *only(const aucs_report *r) {
  assert_int_equal(r->nkernels, 1);
  return &r->kernels[0];
}

static void test_detect_race_with_fixed_inputs(void **state) {
  fx *f = *state;
  aucs_report r;
  char *err = NULL;
  assert_int_equal(
      detect(f, "--kernel racy --grid 1 --block 64 --arg n=7 --seed 5", &r,
             &err),
      0);
  const aucs_report_kernel *k = only(&r);
  assert_int_equal(k->status, AUCS_KERNEL_CHECKED);
  assert_int_equal(k->runs, 1);
  assert_true(k->findings.n >= 1);
  assert_int_equal(k->findings.v[0].kind, AUCS_FINDING_RACE);
  assert_string_equal(k->findings.v[0].args, "n=7");
  assert_string_equal(k->reproduce[0],
                      "aucs detect k.ll --kernel racy --grid 1,1,1 --block "
                      "64,1,1 --arg n=7 --seed 5");
  assert_int_equal(aucs_detect_exit(&r), 1);
  aucs_detect_report_free(&r);
}

static void test_detect_no_race_in_one_warp(void **state) {
  fx *f = *state;
  aucs_report r;
  char *err = NULL;
  assert_int_equal(detect(f, "--kernel racy --grid 1 --block 32", &r, &err), 0);
  const aucs_report_kernel *k = only(&r);
  assert_int_equal(k->findings.n, 0);
  assert_int_equal(aucs_detect_exit(&r), 0);
  aucs_detect_report_free(&r);
}

static void test_detect_search_is_reproducible(void **state) {
  fx *f = *state;
  aucs_report a, b;
  char *err = NULL;
  assert_int_equal(detect(f, "--kernel racy --seed 3", &a, &err), 0);
  assert_int_equal(detect(f, "--kernel racy --seed 3", &b, &err), 0);
  const aucs_report_kernel *ka = only(&a), *kb = only(&b);
  assert_true(ka->runs > 1);
  assert_int_equal(ka->runs, kb->runs);
  assert_int_equal(ka->findings.n, kb->findings.n);
  assert_true(ka->findings.n >= 1);
  for (size_t i = 0; i < ka->findings.n; i++)
    assert_string_equal(ka->reproduce[i], kb->reproduce[i]);
  /* the reproduce command replays exactly the run that found it */
  const char *cmd = ka->reproduce[0];
  const char *opts = strstr(cmd, " --kernel");
  assert_non_null(opts);
  aucs_report c;
  assert_int_equal(detect(f, opts, &c, &err), 0);
  assert_int_equal(only(&c)->runs, 1);
  assert_true(only(&c)->findings.n >= 1);
  assert_int_equal(only(&c)->findings.v[0].kind, ka->findings.v[0].kind);
  assert_ptr_equal(only(&c)->findings.v[0].a.instr, ka->findings.v[0].a.instr);
  aucs_detect_report_free(&a);
  aucs_detect_report_free(&b);
  aucs_detect_report_free(&c);
}

static void test_detect_redundant_barrier(void **state) {
  fx *f = *state;
  aucs_report r;
  char *err = NULL;
  assert_int_equal(detect(f, "--kernel own --grid 1 --block 32", &r, &err), 0);
  const aucs_report_kernel *k = only(&r);
  assert_int_equal(k->findings.n, 1);
  assert_int_equal(k->findings.v[0].kind, AUCS_FINDING_REDUNDANT_BARRIER);
  assert_non_null(strstr(k->findings.v[0].message, "dynamic evidence"));
  assert_non_null(k->reproduce[0]);
  aucs_detect_report_free(&r);
}

static void test_detect_divergent_barrier_is_not_redundant(void **state) {
  fx *f = *state;
  aucs_report r;
  char *err = NULL;
  assert_int_equal(detect(f, "--kernel own --grid 1 --block 64", &r, &err), 0);
  const aucs_report_kernel *k = only(&r);
  assert_int_equal(k->findings.n, 1);
  assert_int_equal(k->findings.v[0].kind, AUCS_FINDING_BARRIER_DIVERGENCE);
  aucs_detect_report_free(&r);
}

static void test_detect_trap_is_error(void **state) {
  fx *f = *state;
  aucs_report r;
  char *err = NULL;
  assert_int_equal(detect(f, "--kernel traps --seed 2", &r, &err), 0);
  const aucs_report_kernel *k = only(&r);
  assert_int_equal(k->status, AUCS_KERNEL_ERROR);
  assert_int_equal(k->runs, 1); /* a failed run ends the search */
  assert_non_null(strstr(k->reason, "kernel 'traps'"));
  assert_non_null(strstr(k->reason, "reproduce with: aucs detect k.ll"));
  assert_int_equal(aucs_detect_exit(&r), 2);
  aucs_detect_report_free(&r);
}

static void test_detect_unsupported_kernel(void **state) {
  fx *f = *state;
  aucs_report r;
  char *err = NULL;
  assert_int_equal(detect(f, "--kernel asm", &r, &err), 0);
  const aucs_report_kernel *k = only(&r);
  assert_int_equal(k->status, AUCS_KERNEL_UNSUPPORTED);
  assert_non_null(strstr(k->reason, "kernel 'asm' is not supported: @asm"));
  assert_int_equal(k->runs, 0);
  assert_int_equal(aucs_detect_exit(&r), 2);
  aucs_detect_report_free(&r);
}

static void test_detect_every_kernel_despite_failures(void **state) {
  fx *f = *state;
  aucs_report r;
  char *err = NULL;
  assert_int_equal(
      detect(f, "--grid 1 --block 64 --arg n=1 --arg x=1.5", &r, &err), 0);
  assert_int_equal(r.nkernels, 4);
  assert_int_equal(r.kernels[0].status, AUCS_KERNEL_CHECKED);
  assert_int_equal(r.kernels[1].status, AUCS_KERNEL_CHECKED);
  assert_int_equal(r.kernels[2].status, AUCS_KERNEL_ERROR);
  assert_string_equal(r.kernels[2].args, "x=1.5");
  assert_int_equal(r.kernels[3].status, AUCS_KERNEL_UNSUPPORTED);
  assert_int_equal(aucs_detect_exit(&r), 1);
  aucs_detect_report_free(&r);
}

static void test_detect_usage_errors(void **state) {
  fx *f = *state;
  aucs_report r;
  char *err = NULL;
  assert_int_not_equal(detect(f, "--kernel nope", &r, &err), 0);
  assert_non_null(strstr(err, "no kernel named 'nope' (kernels: racy, own"));
  free(err);
  assert_int_not_equal(detect(f, "--kernel racy --arg m=3", &r, &err), 0);
  assert_string_equal(err, "--arg: no parameter named 'm'; kernel 'racy' "
                           "has: out (a pointer), n (an integer)");
  free(err);
  assert_int_not_equal(detect(f, "--kernel racy --arg out=3", &r, &err), 0);
  assert_non_null(strstr(err, "a pointer: its memory is modelled"));
  free(err);
  assert_int_not_equal(detect(f, "--kernel racy --arg n=1.5", &r, &err), 0);
  free(err);
  assert_int_not_equal(detect(f, "--kernel racy --arg n=99999999999", &r, &err),
                       0);
  free(err);
  assert_int_not_equal(detect(f, "--block 2048", &r, &err), 0);
  free(err);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_detect_options_parse),
      cmocka_unit_test(test_detect_options_bad_values),
      cmocka_unit_test(test_detect_race_with_fixed_inputs),
      cmocka_unit_test(test_detect_no_race_in_one_warp),
      cmocka_unit_test(test_detect_search_is_reproducible),
      cmocka_unit_test(test_detect_redundant_barrier),
      cmocka_unit_test(test_detect_divergent_barrier_is_not_redundant),
      cmocka_unit_test(test_detect_trap_is_error),
      cmocka_unit_test(test_detect_unsupported_kernel),
      cmocka_unit_test(test_detect_every_kernel_despite_failures),
      cmocka_unit_test(test_detect_usage_errors),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
