/*
 * test_detect: option parsing, kernel selection, argument binding, and the
 * orchestration over the interpreter on small inline kernels.
 */
#include "support.h"

#include "aucs/detect.h"
#include "aucs/kernel.h"
#include "aucs/search.h"
#include "aucs/util.h"
#include <llvm-c/Core.h>
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
  int rc = aucs_options_parse(o, text, &err);
  if (rc)
    print_error("%s: %s\n", text ? text : "", err ? err : "");
  assert_int_equal(rc, 0);
}

static char *parse_err(const char *text) {
  aucs_detect_options o = {0};
  char *err = NULL;
  assert_int_not_equal(aucs_options_parse(&o, text, &err), 0);
  aucs_options_free(&o);
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
               "--generations 3 --fill small");
  assert_true(o.has_grid && o.has_block && o.has_seed && o.has_fill);
  assert_int_equal(o.fill, AUCS_FILL_SMALL);
  assert_int_equal(o.grid.x, 2);
  assert_int_equal(o.grid.y, 3);
  assert_int_equal(o.grid.z, 1);
  assert_int_equal(o.block.x, 64);
  assert_int_equal(o.user.nargs, 2);
  assert_string_equal(o.user.args[0].name, "n");
  assert_string_equal(o.user.args[1].value, "0.5");
  assert_int_equal(o.seed, 9);
  assert_true(o.warp_lockstep && o.json && o.stats);
  assert_string_equal(o.kernel, "k");
  assert_int_equal(o.step_budget, 100);
  assert_int_equal(o.memory_budget, 4096);
  assert_int_equal(o.population, 2);
  assert_int_equal(o.generations, 3);
  aucs_options_free(&o);
  parse_ok(&o, NULL);
  assert_false(o.has_grid);
  aucs_options_free(&o);
}

static void test_detect_options_bad_values(void **state) {
  (void)state;
  const char *bad[] = {"--grid 0",     "--grid 1,2,3,4", "--block x",
                       "--grid 2,",    "--arg n",        "--arg =3",
                       "--seed -1",    "--format xml",   "--population 0",
                       "--frobnicate", "--grid",         "--fill ones"};
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
  aucs_options_free(&o);
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
      detect(f,
             "--kernel racy --grid 1 --block 64 --arg n=7 --seed 5 --fill "
             "zero",
             &r, &err),
      0);
  const aucs_report_kernel *k = only(&r);
  assert_int_equal(k->status, AUCS_KERNEL_CHECKED);
  assert_int_equal(k->runs, 1);
  assert_true(k->findings.n >= 1);
  assert_int_equal(k->findings.v[0].kind, AUCS_FINDING_RACE);
  assert_string_equal(k->findings.v[0].args, "n=7");
  assert_string_equal(k->reproduce[0],
                      "aucs detect k.ll --kernel racy --grid 1,1,1 --block "
                      "64,1,1 --arg n=7 --seed 5 --fill zero");
  assert_int_equal(aucs_detect_exit(&r), 1);
  aucs_detect_report_free(&r);
}

/* The repair's hooks: record hands over the run of each new finding, and a
 * trial replays such runs before a search of one candidate and its
 * children instead of the whole search. */
typedef struct recorded {
  size_t calls, nargs;
  aucs_candidate c;
  uint64_t args[4];
} recorded;

static void record(void *ctx, const char *kernel, const aucs_candidate *c,
                   size_t nargs, const aucs_run_result *res) {
  recorded *r = ctx;
  assert_non_null(res);
  assert_string_equal(kernel, "racy");
  if (r->calls++)
    return;
  r->c = *c;
  r->nargs = nargs;
  assert_true(nargs <= 4);
  memcpy(r->args, c->args, nargs * sizeof *c->args);
  r->c.args = r->args;
}

/* aucs_detect_trial.stop: stop at the first finding, counting calls. */
static int stop_yes(void *ctx, const char *kernel, const aucs_finding *f) {
  (void)f;
  assert_string_equal(kernel, "racy");
  ++*(int *)ctx;
  return 1;
}

static void test_detect_trial_replays_recorded_runs(void **state) {
  fx *f = *state;
  recorded rec = {0};
  aucs_detect_options o = {0};
  parse_ok(&o, "--kernel racy --grid 1 --block 64 --arg n=7 --seed 5 --fill "
               "zero --no-static");
  o.input = "k.ll";
  o.record = record;
  o.record_ctx = &rec;
  aucs_report r;
  char *err = NULL;
  assert_int_equal(aucs_detect_run(f->m, f->ks, f->n, &o, &r, &err), 0);
  assert_int_equal(rec.calls, 1);
  assert_int_equal(rec.nargs, 2);
  assert_int_equal(rec.c.launch.block.x, 64);
  assert_int_equal(rec.c.seed, 5);
  aucs_detect_report_free(&r);
  aucs_options_free(&o);

  /* searched, the trial replays the recorded run first: its finding keeps
   * that run, and at most three fresh runs follow; racy never reads n, so
   * the reproduce line leaves it out (and says --replay) */
  const char *name = "racy";
  size_t nargs = rec.nargs;
  aucs_detect_trial tr = {
      .kernels = &name, .runs = &rec.c, .nargs = &nargs, .n = 1};
  aucs_detect_options t = {0};
  parse_ok(&t, "--kernel racy --no-static");
  t.input = "k.ll";
  t.trial = &tr;
  assert_int_equal(aucs_detect_run(f->m, f->ks, f->n, &t, &r, &err), 0);
  const aucs_report_kernel *k = only(&r);
  assert_true(k->runs >= 1 && k->runs <= 4);
  assert_true(k->findings.n >= 1);
  assert_non_null(strstr(k->reproduce[0], "--block 64,1,1 --replay --seed 5 "
                                          "--fill zero"));
  aucs_detect_report_free(&r);
  aucs_options_free(&t);

  /* a stop that answers yes ends the trial after the run that found it:
   * one run, no fresh search, and the finding is in the report */
  int stops = 0;
  tr.stop = stop_yes;
  tr.stop_ctx = &stops;
  aucs_detect_options w = {0};
  parse_ok(&w, "--kernel racy --no-static");
  w.input = "k.ll";
  w.trial = &tr;
  assert_int_equal(aucs_detect_run(f->m, f->ks, f->n, &w, &r, &err), 0);
  assert_int_equal(only(&r)->runs, 1);
  assert_true(only(&r)->findings.n >= 1);
  assert_int_equal(stops, 1);
  aucs_detect_report_free(&r);
  aucs_options_free(&w);

  /* without the trial, the search makes many more runs */
  aucs_detect_options u = {0};
  parse_ok(&u, "--kernel racy --no-static");
  assert_int_equal(aucs_detect_run(f->m, f->ks, f->n, &u, &r, &err), 0);
  assert_true(only(&r)->runs > 4);
  aucs_detect_report_free(&r);
  aucs_options_free(&u);
}

static size_t count_kind(const aucs_report_kernel *k, aucs_finding_kind kind) {
  size_t n = 0;
  for (size_t i = 0; i < k->findings.n; i++)
    n += k->findings.v[i].kind == kind;
  return n;
}

/* A race between threads 0 and 1 at the start, then a long loop and a
 * barrier that orders nothing (redundant in a full run). */
static const char *late_ir =
    "@s = internal addrspace(3) global [32 x i32] undef\n"
    "define ptx_kernel void @late(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %i = lshr i32 %t, 1\n"
    "  %p = getelementptr [32 x i32], ptr addrspace(3) @s, i32 0, i32 %i\n"
    "  store i32 %t, ptr addrspace(3) %p\n"
    "  br label %loop\n"
    "loop:\n"
    "  %k = phi i32 [ 0, %entry ], [ %k1, %loop ]\n"
    "  %k1 = add i32 %k, 1\n"
    "  %c = icmp ult i32 %k1, 20000\n"
    "  br i1 %c, label %loop, label %done\n"
    "done:\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  ret void\n"
    "}\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n";

static void record_any(void *ctx, const char *kernel, const aucs_candidate *c,
                       size_t nargs, const aucs_run_result *res) {
  recorded *r = ctx;
  (void)kernel;
  (void)res;
  if (r->calls++)
    return;
  r->c = *c;
  r->nargs = nargs;
  assert_true(nargs <= 4);
  memcpy(r->args, c->args, nargs * sizeof *c->args);
  r->c.args = r->args;
}

static int stop_race(void *ctx, const char *kernel, const aucs_finding *f) {
  (void)ctx;
  (void)kernel;
  return f->kind == AUCS_FINDING_RACE;
}

/* A trial's stop ends the replayed run at the finding, not at the run's
 * end: far fewer thread instructions than the full run, the race kept, and
 * no redundant barrier claimed from the partial run. */
/* Two structs by value of which the kernel reads one field each, and a
 * scalar it reads only past 100000 threads: the reproduce line and the
 * launch note list the two fields alone (and --replay, so the rest is not
 * searched), the JSON's args every input; the line replays that very run. */
static const char *two_structs =
    "%struct.P = type { i32, [4 x i32], i32 }\n"
    "@s2 = internal addrspace(3) global [32 x i32] undef\n"
    "define ptx_kernel void @two(ptr byval(%struct.P) align 4 %a, "
    "ptr byval(%struct.P) align 4 %b, i32 %m, ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %n = load i32, ptr %a\n"
    "  %pk = getelementptr %struct.P, ptr %b, i32 0, i32 1, i32 1\n"
    "  %k = load i32, ptr %pk\n"
    "  %v = add i32 %n, %k\n"
    "  %i = urem i32 %t, 32\n"
    "  %p = getelementptr [32 x i32], ptr addrspace(3) @s2, i32 0, i32 %i\n"
    "  store i32 %v, ptr addrspace(3) %p\n"
    "  %big = icmp uge i32 %t, 100000\n"
    "  br i1 %big, label %then, label %done\n"
    "then:\n"
    "  store i32 %m, ptr %out\n"
    "  br label %done\n"
    "done:\n"
    "  ret void\n"
    "}\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n";

static void test_detect_reproduce_lists_inputs_read(void **state) {
  (void)state;
  fx g = {.m = support_parse(two_structs)};
  g.n = aucs_kernel_list(g.m, &g.ks);
  aucs_report r, again;
  char *err = NULL;
  assert_int_equal(detect(&g, "--grid 1 --block 64 --no-static", &r, &err), 0);
  const aucs_report_kernel *k = only(&r);
  assert_true(k->findings.n >= 1);
  const aucs_finding *f = &k->findings.v[0];
  const char *cmd = k->reproduce[0];
  assert_non_null(strstr(cmd, " --arg a.f0="));
  assert_non_null(strstr(cmd, " --arg b.f1[1]="));
  assert_non_null(strstr(cmd, " --replay --seed "));
  assert_null(strstr(cmd, "a.f1"));
  assert_null(strstr(cmd, "a.f2"));
  assert_null(strstr(cmd, "b.f0"));
  assert_null(strstr(cmd, " --arg m="));
  assert_non_null(strstr(f->args, "m=")); /* JSON: every input */
  assert_non_null(strstr(f->args, "a.f1[3]="));
  assert_non_null(f->shown_args);
  assert_null(strstr(f->shown_args, "m="));
  assert_null(strstr(f->shown_args, "a.f2"));
  /* the line replays the run: one run, the same finding, the same line */
  const char *opts = strstr(cmd, " --kernel");
  assert_non_null(opts);
  assert_int_equal(detect(&g, opts, &again, &err), 0);
  assert_int_equal(only(&again)->runs, 1);
  assert_true(only(&again)->findings.n >= 1);
  assert_int_equal(only(&again)->findings.v[0].kind, f->kind);
  assert_ptr_equal(only(&again)->findings.v[0].a.instr, f->a.instr);
  assert_string_equal(only(&again)->reproduce[0], cmd);
  aucs_detect_report_free(&again);
  aucs_detect_report_free(&r);
  free(g.ks);
  support_free(g.m);
}

/* --replay: an input not given is 0, not searched (one run). */
static void test_detect_replay_searches_no_input(void **state) {
  fx *f = *state;
  aucs_report r;
  char *err = NULL;
  assert_int_equal(detect(f,
                          "--kernel racy --grid 1 --block 64 --fill zero "
                          "--replay --no-static",
                          &r, &err),
                   0);
  assert_int_equal(only(&r)->runs, 1);
  assert_string_equal(only(&r)->args, "n=0");
  aucs_detect_report_free(&r);
}

static void test_detect_trial_stop_ends_the_run(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(late_ir);
  LLVMValueRef *ks;
  size_t n = aucs_kernel_list(m, &ks);
  recorded rec = {0};
  aucs_detect_options o = {0};
  parse_ok(&o, "--grid 1 --block 64 --seed 5 --fill zero --no-static");
  o.input = "k.ll";
  o.record = record_any;
  o.record_ctx = &rec;
  aucs_report r;
  char *err = NULL;
  assert_int_equal(aucs_detect_run(m, ks, n, &o, &r, &err), 0);
  uint64_t full = only(&r)->thread_instructions;
  assert_true(full >= 64 * 20000);
  assert_int_equal(count_kind(only(&r), AUCS_FINDING_REDUNDANT_BARRIER), 1);
  assert_int_equal(rec.calls, 1);
  aucs_detect_report_free(&r);
  aucs_options_free(&o);

  const char *name = "late";
  size_t nargs = rec.nargs;
  aucs_detect_trial tr = {.kernels = &name,
                          .runs = &rec.c,
                          .nargs = &nargs,
                          .n = 1,
                          .stop = stop_race};
  aucs_detect_options t = {0};
  parse_ok(&t, "--no-static");
  t.input = "k.ll";
  t.trial = &tr;
  assert_int_equal(aucs_detect_run(m, ks, n, &t, &r, &err), 0);
  const aucs_report_kernel *k = only(&r);
  assert_int_equal(k->runs, 1);
  assert_true(k->thread_instructions < full / 8);
  assert_int_equal(count_kind(k, AUCS_FINDING_RACE), 1);
  assert_int_equal(count_kind(k, AUCS_FINDING_REDUNDANT_BARRIER), 0);
  aucs_detect_report_free(&r);
  aucs_options_free(&t);
  free(ks);
  support_free(m);
}

/* A trial's search starts from the usual first candidate; when the trial
 * just replayed that very run, its verdict and fitness answer the search
 * (replay.h: aucs_replay_memo): the replay takes the run's place instead
 * of adding one. */
static void test_detect_trial_search_skips_replayed_run(void **state) {
  fx *f = *state;
  recorded rec = {0};
  const char *name = "racy";
  size_t nargs = 0;
  aucs_detect_trial none = {.kernels = &name, .nargs = &nargs, .n = 0};
  aucs_detect_options o = {0};
  parse_ok(&o, "--kernel racy --grid 1 --block 64 --no-static");
  o.record = record;
  o.record_ctx = &rec;
  o.trial = &none;
  aucs_report r;
  char *err = NULL;
  assert_int_equal(aucs_detect_run(f->m, f->ks, f->n, &o, &r, &err), 0);
  uint64_t searched = only(&r)->runs;
  size_t found = only(&r)->findings.n;
  assert_int_equal(rec.calls, 1); /* the search's first run found it */
  assert_true(searched >= 1);
  aucs_detect_report_free(&r);
  aucs_options_free(&o);

  nargs = rec.nargs;
  aucs_detect_trial tr = {
      .kernels = &name, .runs = &rec.c, .nargs = &nargs, .n = 1};
  aucs_detect_options t = {0};
  parse_ok(&t, "--kernel racy --grid 1 --block 64 --no-static");
  t.trial = &tr;
  assert_int_equal(aucs_detect_run(f->m, f->ks, f->n, &t, &r, &err), 0);
  assert_int_equal(only(&r)->runs, searched); /* not searched + 1 */
  assert_int_equal(only(&r)->findings.n, found);
  aucs_detect_report_free(&r);
  aucs_options_free(&t);
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
  /* no initial candidate finished, so no parent is left to search on */
  assert_int_equal(k->runs, AUCS_SEARCH_POPULATION);
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

/* ---- inputs that live in memory ----------------------------------------*/

static const char *data_kernels =
    /* __syncthreads_count whose result is stored: it communicates, so it is
     * never redundant; the plain barrier and the count nobody reads after
     * it order nothing (each thread touches its own elements only) */
    "define ptx_kernel void @vote(ptr %out, ptr %in) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr i32, ptr %in, i32 %t\n"
    "  %f = load i32, ptr %p\n"
    "  %c = icmp ne i32 %f, 0\n"
    "  %n = call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 "
    "%c)\n"
    "  %q = getelementptr i32, ptr %out, i32 %t\n"
    "  store i32 %n, ptr %q\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  %m = call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 "
    "%c)\n"
    "  ret void\n"
    "}\n"
    /* threads whose in[t] is 7 all store out[0]: random bits never hold 7 */
    "define ptx_kernel void @key(ptr %out, ptr %in) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr i32, ptr %in, i32 %t\n"
    "  %v = load i32, ptr %p\n"
    "  %hit = icmp eq i32 %v, 7\n"
    "  br i1 %hit, label %w, label %e\n"
    "w:\n"
    "  store i32 %t, ptr %out\n"
    "  br label %e\n"
    "e:\n"
    "  ret void\n"
    "}\n"
    /* each thread stores out[0..cnt[t]): random counts run for ever */
    "define ptx_kernel void @count(ptr %out, ptr %cnt) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr i32, ptr %cnt, i32 %t\n"
    "  %c = load i32, ptr %p\n"
    "  br label %loop\n"
    "loop:\n"
    "  %j = phi i32 [ 0, %entry ], [ %j1, %body ]\n"
    "  %more = icmp slt i32 %j, %c\n"
    "  br i1 %more, label %body, label %done\n"
    "body:\n"
    "  %q = getelementptr i32, ptr %out, i32 %j\n"
    "  store i32 %j, ptr %q\n"
    "  %j1 = add i32 %j, 1\n"
    "  br label %loop\n"
    "done:\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  ret void\n"
    "}\n"
    /* every thread writes out[0] (a race), then assumes n % 64 == 0 */
    "define ptx_kernel void @assumes(ptr %out, i32 %n) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  store i32 %t, ptr %out\n"
    "  %r = urem i32 %n, 64\n"
    "  %ok = icmp eq i32 %r, 0\n"
    "  call void @llvm.assume(i1 %ok)\n"
    "  ret void\n"
    "}\n"
    /* assumes n == 777 and 96 threads a block; exits unless m == 5; then
     * every thread writes out[0] */
    "define ptx_kernel void @solved(ptr %out, i32 %n, i32 %m) {\n"
    "entry:\n"
    "  %a = icmp eq i32 %n, 777\n"
    "  call void @llvm.assume(i1 %a)\n"
    "  %b = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
    "  %c = icmp eq i32 %b, 96\n"
    "  call void @llvm.assume(i1 %c)\n"
    "  %x = icmp ne i32 %m, 5\n"
    "  br i1 %x, label %done, label %work\n"
    "work:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  store i32 %t, ptr %out\n"
    "  br label %done\n"
    "done:\n"
    "  ret void\n"
    "}\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
    "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n"
    "declare i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32, i1)\n"
    "declare void @llvm.assume(i1)\n";

/* detect() on data_kernels, the dynamic detector only (the runs counted
 * are the search's); free with data_free. */
static fx *data_detect(const char *text, aucs_report *r) {
  fx *f = aucs_xcalloc(1, sizeof *f);
  f->m = support_parse(data_kernels);
  f->n = aucs_kernel_list(f->m, &f->ks);
  char *err = NULL, *opts = aucs_xasprintf("%s --no-static", text);
  assert_int_equal(detect(f, opts, r, &err), 0);
  free(opts);
  return f;
}

static void data_free(fx *f, aucs_report *r) {
  aucs_detect_report_free(r);
  teardown((void **)&f);
}

static void test_detect_used_reduction_is_never_redundant(void **state) {
  (void)state;
  aucs_report r;
  fx *f = data_detect("--kernel vote --grid 1 --block 64", &r);
  const aucs_report_kernel *k = only(&r);
  assert_int_equal(k->status, AUCS_KERNEL_CHECKED);
  assert_int_equal(k->findings.n, 2);
  LLVMValueRef fn = k->fn;
  LLVMValueRef used = NULL;
  for (LLVMValueRef I = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn));
       I && !used; I = LLVMGetNextInstruction(I))
    if (LLVMIsACallInst(I) && LLVMGetFirstUse(I) &&
        LLVMGetTypeKind(LLVMTypeOf(I)) == LLVMIntegerTypeKind &&
        LLVMGetNumArgOperands(I) == 2)
      used = I;
  assert_non_null(used);
  for (size_t i = 0; i < k->findings.n; i++) {
    assert_int_equal(k->findings.v[i].kind, AUCS_FINDING_REDUNDANT_BARRIER);
    assert_ptr_not_equal(k->findings.v[i].a.instr, used);
  }
  data_free(f, &r);
}

static void test_detect_fill_reaches_data_dependent_race(void **state) {
  (void)state;
  aucs_report r;
  fx *f = data_detect("--kernel key --grid 1 --block 64", &r);
  const aucs_report_kernel *k = only(&r);
  assert_int_equal(k->runs, AUCS_FILL_NMODES);
  assert_int_equal(count_kind(k, AUCS_FINDING_RACE), 1);
  const char *cmd = k->reproduce[0];
  assert_non_null(strstr(cmd, " --fill small"));
  char *opts = aucs_xstrdup(strstr(cmd, " --kernel"));
  data_free(f, &r);
  /* the reproduce command replays that one run, race included */
  f = data_detect(opts, &r);
  free(opts);
  assert_int_equal(only(&r)->runs, 1);
  assert_int_equal(count_kind(only(&r), AUCS_FINDING_RACE), 1);
  data_free(f, &r);
  /* random bits alone never hold the key */
  f = data_detect("--kernel key --grid 1 --block 64 --fill random", &r);
  assert_int_equal(only(&r)->runs, 1);
  assert_int_equal(only(&r)->findings.n, 0);
  data_free(f, &r);
}

static void test_detect_failed_run_does_not_end_the_search(void **state) {
  (void)state;
  aucs_report r;
  fx *f = data_detect(
      "--kernel count --grid 1 --block 32 --step-budget 2000 --seed 4", &r);
  const aucs_report_kernel *k = only(&r);
  assert_int_equal(k->status, AUCS_KERNEL_CHECKED);
  assert_int_equal(k->runs, AUCS_FILL_NMODES);
  assert_non_null(strstr(k->reason, "1 of 3 runs did not finish"));
  assert_non_null(strstr(k->reason, "step budget"));
  assert_non_null(strstr(k->reason, "--seed 4 --fill random"));
  assert_true(count_kind(k, AUCS_FINDING_RACE) >= 1);
  /* evidence is missing from the failed run: no barrier is redundant */
  assert_int_equal(count_kind(k, AUCS_FINDING_REDUNDANT_BARRIER), 0);
  /* how far each thread stores depends on the filled counts: a warning */
  for (size_t i = 0; i < k->findings.n; i++)
    if (k->findings.v[i].kind == AUCS_FINDING_RACE)
      assert_string_equal(k->findings.v[i].data_dependent, "cnt");
  assert_int_equal(aucs_detect_exit(&r), 0);
  data_free(f, &r);
  f = data_detect("--kernel count --grid 1 --block 32 --step-budget 2000 "
                  "--fill random",
                  &r);
  assert_int_equal(only(&r)->status, AUCS_KERNEL_ERROR);
  assert_int_equal(only(&r)->runs, 1);
  assert_int_equal(aucs_detect_exit(&r), 2);
  data_free(f, &r);
}

/* An input violating llvm.assume is not a run: nothing it found is
 * reported (the race comes before the assume), and when no input can
 * satisfy it the kernel says which assumption the solver proved
 * unsatisfiable, for which launch (the search stops at the proof; with
 * the fill fixed too, the one run is all). */
static void test_detect_assume_discards_inputs(void **state) {
  (void)state;
  aucs_report r;
  static const char *const fixed[] = {
      "--kernel assumes --grid 1 --block 32 --arg n=3",
      "--kernel assumes --grid 1 --block 32 --arg n=3 --fill zero"};
  for (int i = 0; i < 2; i++) {
    fx *f = data_detect(fixed[i], &r);
    const aucs_report_kernel *k = only(&r);
    assert_int_equal(k->status, AUCS_KERNEL_ERROR);
    assert_int_equal(k->runs, 0);
    assert_int_equal(k->discarded, 1);
    assert_int_equal(k->solved, 0);
    assert_int_equal(k->findings.n, 0);
    assert_non_null(strstr(k->reason, "the solver proved @assumes"));
    assert_non_null(strstr(k->reason, "unsatisfiable for this launch (grid "
                                      "(1,1,1), block (32,1,1); given n=3)"));
    assert_null(strstr(k->reason, "every input tried"));
    assert_non_null(strstr(k->assumption, "@assumes"));
    data_free(f, &r);
  }
  fx *f;
  const aucs_report_kernel *k;
  f = data_detect("--kernel assumes --grid 1 --block 32 --arg n=128", &r);
  k = only(&r);
  assert_int_equal(k->status, AUCS_KERNEL_CHECKED);
  assert_int_equal(k->discarded, 0);
  assert_true(count_kind(k, AUCS_FINDING_RACE) >= 1);
  data_free(f, &r);
  /* searched: discarded inputs are replaced, the race is found */
  f = data_detect("--kernel assumes --grid 1 --block 32 --seed 3", &r);
  k = only(&r);
  assert_int_equal(k->status, AUCS_KERNEL_CHECKED);
  assert_true(k->discarded > 0);
  assert_true(k->runs > 0);
  assert_true(count_kind(k, AUCS_FINDING_RACE) >= 1);
  data_free(f, &r);
}

/* n == 777 and blockDim.x == 96: no searched input meets them; inputs
 * solved from them (precond.h) run, and the race's reproduce line carries
 * the solved values. An early exit unless m == 5 makes every searched run
 * idle: the solve gives m too. */
static void test_detect_solved_inputs(void **state) {
  (void)state;
  aucs_report r;
  fx *f = data_detect("--kernel solved --seed 2", &r);
  const aucs_report_kernel *k = only(&r);
  assert_int_equal(k->status, AUCS_KERNEL_CHECKED);
  assert_true(k->solved >= 1);
  assert_true(k->runs > 0);
  assert_true(count_kind(k, AUCS_FINDING_RACE) >= 1);
  for (size_t i = 0; i < k->findings.n; i++) {
    assert_non_null(strstr(k->reproduce[i], "--block 96,1,1"));
    assert_non_null(strstr(k->reproduce[i], "--arg n=777"));
    assert_non_null(strstr(k->reproduce[i], "--arg m=5"));
    assert_int_equal(k->findings.v[i].severity, AUCS_SEVERITY_ERROR);
  }
  data_free(f, &r);
}

/* ---- adaptive search ----------------------------------------------------*/

/* s[tid] = tid; barrier; read s[tid ^ 1]: race-free, the barrier needed;
 * the same under tid < 16, where the barrier may diverge. */
static const char *adaptive_kernels =
    "@s = internal addrspace(3) global [1024 x i32] undef\n"
    "define ptx_kernel void @swap(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr [1024 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
    "  store i32 %t, ptr addrspace(3) %p\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  %u = xor i32 %t, 1\n"
    "  %q = getelementptr [1024 x i32], ptr addrspace(3) @s, i32 0, i32 %u\n"
    "  %v = load i32, ptr addrspace(3) %q\n"
    "  ret void\n"
    "}\n"
    "define ptx_kernel void @guarded(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %c = icmp ult i32 %t, 16\n"
    "  br i1 %c, label %then, label %done\n"
    "then:\n"
    "  %p = getelementptr [1024 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
    "  store i32 %t, ptr addrspace(3) %p\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  %u = xor i32 %t, 1\n"
    "  %q = getelementptr [1024 x i32], ptr addrspace(3) @s, i32 0, i32 %u\n"
    "  %v = load i32, ptr addrspace(3) %q\n"
    "  br label %done\n"
    "done:\n"
    "  ret void\n"
    "}\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n";

static void adaptive_detect(const char *text, aucs_report *r, fx *f) {
  f->m = support_parse(adaptive_kernels);
  f->n = aucs_kernel_list(f->m, &f->ks);
  char *err = NULL;
  assert_int_equal(detect(f, text, r, &err), 0);
}

static void adaptive_free(fx *f, aucs_report *r) {
  aucs_detect_report_free(r);
  free(f->ks);
  support_free(f->m);
}

static void test_detect_proven_kernel_stops_after_one_run(void **state) {
  (void)state;
  fx f = {0};
  aucs_report r;
  adaptive_detect("--kernel swap", &r, &f);
  const aucs_report_kernel *k = only(&r);
  assert_int_equal(k->findings.n, 0);
  assert_int_equal(k->runs, 1);
  assert_string_equal(k->search_end,
                      aucs_search_end_name(AUCS_SEARCH_END_STOPPED));
  assert_int_equal(k->runs_saved,
                   AUCS_SEARCH_POPULATION * (1 + 2 * AUCS_SEARCH_GENERATIONS) -
                       1);
  adaptive_free(&f, &r);
  /* the fixed schedule of old */
  adaptive_detect("--kernel swap --exhaustive-search", &r, &f);
  assert_true(only(&r)->runs > 3 * AUCS_SEARCH_POPULATION);
  assert_int_equal(only(&r)->findings.n, 0);
  adaptive_free(&f, &r);
}

static void test_detect_divergent_barrier_keeps_searching(void **state) {
  (void)state;
  fx f = {0};
  aucs_report r;
  adaptive_detect("--kernel guarded", &r, &f);
  const aucs_report_kernel *k = only(&r);
  assert_true(k->runs > 1);
  assert_int_equal(count_kind(k, AUCS_FINDING_BARRIER_DIVERGENCE), 1);
  assert_string_not_equal(k->search_end,
                          aucs_search_end_name(AUCS_SEARCH_END_STOPPED));
  adaptive_free(&f, &r);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_detect_options_parse),
      cmocka_unit_test(test_detect_options_bad_values),
      cmocka_unit_test(test_detect_race_with_fixed_inputs),
      cmocka_unit_test(test_detect_no_race_in_one_warp),
      cmocka_unit_test(test_detect_trial_replays_recorded_runs),
      cmocka_unit_test(test_detect_search_is_reproducible),
      cmocka_unit_test(test_detect_redundant_barrier),
      cmocka_unit_test(test_detect_divergent_barrier_is_not_redundant),
      cmocka_unit_test(test_detect_trap_is_error),
      cmocka_unit_test(test_detect_unsupported_kernel),
      cmocka_unit_test(test_detect_every_kernel_despite_failures),
      cmocka_unit_test(test_detect_usage_errors),
      cmocka_unit_test(test_detect_used_reduction_is_never_redundant),
      cmocka_unit_test(test_detect_fill_reaches_data_dependent_race),
      cmocka_unit_test(test_detect_failed_run_does_not_end_the_search),
      cmocka_unit_test(test_detect_assume_discards_inputs),
      cmocka_unit_test(test_detect_solved_inputs),
      cmocka_unit_test(test_detect_proven_kernel_stops_after_one_run),
      cmocka_unit_test(test_detect_divergent_barrier_keeps_searching),
      cmocka_unit_test(test_detect_trial_search_skips_replayed_run),
      cmocka_unit_test(test_detect_trial_stop_ends_the_run),
      cmocka_unit_test(test_detect_reproduce_lists_inputs_read),
      cmocka_unit_test(test_detect_replay_searches_no_input),
  };
  return cmocka_run_group_tests(tests, setup, teardown);
}
