/*
 * test_interp_limits: warp collectives, the interpreter's limits (step and
 * memory budgets, bad launches, bounds, sampled grids), buffer fills,
 * helpers, assumptions, indirect calls and grid sync. Expected values are
 * worked out by hand in the comments.
 */
#include "interp_fx.h"

#include "aucs/options.h"

/* ---- warp collectives ---- */

static const char *shfl_ir =
    "define void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  br label %loop\n"
    "loop:\n"
    "  %v = phi i32 [ %t, %entry ], [ %v1, %loop ]\n"
    "  %off = phi i32 [ 16, %entry ], [ %off1, %loop ]\n"
    "  %o = call i32 @llvm.nvvm.shfl.sync.down.i32(i32 -1, i32 %v, i32 %off, "
    "i32 31)\n"
    "  %v1 = add i32 %v, %o\n"
    "  %off1 = lshr i32 %off, 1\n"
    "  %more = icmp ne i32 %off1, 0\n"
    "  br i1 %more, label %loop, label %done\n"
    "done:\n"
    "  %ball = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %more)\n"
    "  %odd = trunc i32 %t to i1\n"
    "  %b2 = call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %odd)\n"
    "  %p = getelementptr i32, ptr %out, i32 %t\n"
    "  store i32 %v1, ptr %p\n"
    "  %is0 = icmp eq i32 %t, 0\n"
    "  br i1 %is0, label %w, label %e\n"
    "w:\n"
    "  %q = getelementptr i32, ptr %out, i32 40\n"
    "  store i32 %b2, ptr %q\n"
    "  br label %e\n"
    "e:\n"
    "  ret void\n"
    "}\n"
    "declare i32 @llvm.nvvm.shfl.sync.down.i32(i32, i32, i32, i32)\n"
    "declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)\n" SREG_DECLS;

static void test_interp_shuffle_reduction_and_ballot(void **state) {
  (void)state;
  fx f;
  load_fx(&f, shfl_ir, "k");
  aucs_run_config c = config(1, 32);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  uint32_t v[41];
  aucs_run_read(&f.res, 0, 0, v, sizeof v);
  assert_int_equal(v[0], 496);          /* 0 + 1 + ... + 31 */
  assert_int_equal(v[40], 0xAAAAAAAAu); /* odd lanes */
  assert_int_equal(f.res.findings.n, 0);
  free_fx(&f);
}

/* lane writes s[lane]; [__syncwarp;] reads s[lane ^ 1] */
#define SYNCWARP_IR(SYNC)                                                      \
  "@s = internal addrspace(3) global [32 x i32] undef\n"                       \
  "define void @k(ptr %out) {\n"                                               \
  "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"                         \
  "  %p = getelementptr [32 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"      \
  "  store i32 %t, ptr addrspace(3) %p\n" SYNC "  %n = xor i32 %t, 1\n"        \
  "  %q = getelementptr [32 x i32], ptr addrspace(3) @s, i32 0, i32 %n\n"      \
  "  %v = load i32, ptr addrspace(3) %q\n"                                     \
  "  %o = getelementptr i32, ptr %out, i32 %t\n"                               \
  "  store i32 %v, ptr %o\n"                                                   \
  "  ret void\n"                                                               \
  "}\n"                                                                        \
  "declare void @llvm.nvvm.bar.warp.sync(i32)\n" SREG_DECLS

static void test_interp_syncwarp_orders_a_warp(void **state) {
  (void)state;
  fx f;
  load_fx(&f, SYNCWARP_IR(""), "k");
  aucs_run_config c = config(1, 32);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(count(&f, AUCS_FINDING_RACE), 1);
  free_fx(&f);
  load_fx(&f, SYNCWARP_IR("  call void @llvm.nvvm.bar.warp.sync(i32 -1)\n"),
          "k");
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(f.res.findings.n, 0);
  uint32_t v[2];
  aucs_run_read(&f.res, 0, 0, v, 8);
  assert_int_equal(v[0], 1);
  assert_int_equal(v[1], 0);
  /* one __syncwarp() per thread, no block barrier */
  assert_int_equal(f.res.threads_run, 32);
  assert_int_equal(f.res.warp_syncs, 32);
  assert_int_equal(f.res.barriers_passed, 0);
  free_fx(&f);
}

static const char *count_ir =
    "define void @k(ptr %out) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %c = icmp ult i32 %t, 10\n"
    "  %n = call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 0, i1 "
    "%c)\n"
    "  %a = call i1 @llvm.nvvm.barrier.cta.red.or.aligned.all(i32 0, i1 %c)\n"
    "  %p = getelementptr i32, ptr %out, i32 %t\n"
    "  %a1 = zext i1 %a to i32\n"
    "  %s = add i32 %n, %a1\n"
    "  store i32 %s, ptr %p\n"
    "  ret void\n"
    "}\n"
    "declare i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32, i1)\n"
    "declare i1 @llvm.nvvm.barrier.cta.red.or.aligned.all(i32, "
    "i1)\n" SREG_DECLS;

static void test_interp_barrier_reductions(void **state) {
  (void)state;
  fx f;
  load_fx(&f, count_ir, "k");
  aucs_run_config c = config(1, 64);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  uint32_t v[64];
  aucs_run_read(&f.res, 0, 0, v, sizeof v);
  assert_int_equal(v[0], 11); /* 10 threads have tid < 10; or gives 1 */
  assert_int_equal(v[63], 11);
  assert_int_equal(aucs_prog_nbarriers(f.p), 2);
  /* each thread passes both: the _popc and _or forms count as barriers */
  assert_int_equal(f.res.threads_run, 64);
  assert_int_equal(f.res.barriers_passed, 128);
  assert_int_equal(f.res.warp_syncs, 0);
  free_fx(&f);
  /* two blocks: every thread of each counts */
  load_fx(&f, count_ir, "k");
  c = config(2, 64);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(f.res.threads_run, 128);
  assert_int_equal(f.res.barriers_passed, 256);
  free_fx(&f);
}

/* ---- limits ---- */

static const char *spin_ir = "define void @k(ptr %out) {\n"
                             "entry:\n"
                             "  br label %loop\n"
                             "loop:\n"
                             "  br label %loop\n"
                             "}\n";

static void test_interp_step_budget_stops_infinite_loop(void **state) {
  (void)state;
  fx f;
  load_fx(&f, spin_ir, "k");
  aucs_run_config c = config(1, 32);
  c.step_budget = 10000;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_STEP_BUDGET);
  assert_non_null(strstr(f.res.error, "kernel 'k'"));
  assert_non_null(strstr(f.res.error, "step budget"));
  assert_true(f.res.thread_instructions <= 10000);
  free_fx(&f);
}

static void test_interp_bad_launch(void **state) {
  (void)state;
  fx f;
  load_fx(&f, spin_ir, "k");
  aucs_run_config c = config(1, 2048);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_BAD_LAUNCH);
  c = config(1, 1);
  c.launch.block.z = 65;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_BAD_LAUNCH);
  c = config(1, 1);
  c.launch.grid.y = 65536;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_BAD_LAUNCH);
  free_fx(&f);
}

static const char *oob_ir =
    "@s = internal addrspace(3) global [4 x i32] undef\n"
    "define void @k(ptr %out, i32 %i) {\n"
    "  %p = getelementptr [4 x i32], ptr addrspace(3) @s, i32 0, i32 %i\n"
    "  store i32 1, ptr addrspace(3) %p\n"
    "  ret void\n"
    "}\n";

static void test_interp_out_of_bounds_shared(void **state) {
  (void)state;
  fx f;
  load_fx(&f, oob_ir, "k");
  uint64_t args[] = {0, 4};
  aucs_run_config c = config(1, 1);
  c.args = args;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  const aucs_finding *o = first(&f, AUCS_FINDING_OUT_OF_BOUNDS);
  assert_int_equal(o->offset, 16);
  assert_string_equal(o->object, "s");
  assert_ptr_equal(o->a.instr, nth(&f, "k", LLVMStore, 0));
  assert_non_null(strstr(o->args, "i=4"));
  args[1] = 3;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(f.res.findings.n, 0);
  free_fx(&f);
}

/* s[i] for i of either sign: the argument buffer %out comes before @s, so
 * a pointer moved before s[0] must not slide into it. */
static const char *before_ir =
    "@s = internal addrspace(3) global [8 x i32] undef\n"
    "define void @k(ptr %out, i64 %i) {\n"
    "  %p = getelementptr i32, ptr addrspace(3) @s, i64 %i\n"
    "  %v = load i32, ptr addrspace(3) %p\n"
    "  store i32 %v, ptr %out\n"
    "  ret void\n"
    "}\n";

static void test_interp_negative_offset_is_out_of_bounds(void **state) {
  (void)state;
  fx f;
  load_fx(&f, before_ir, "k");
  int64_t idx[] = {-1, -(INT64_C(1) << 30), INT64_C(1) << 36};
  for (size_t i = 0; i < 3; i++) {
    uint64_t args[] = {0, (uint64_t)idx[i]};
    aucs_run_config c = config(1, 1);
    c.args = args;
    assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
    const aucs_finding *o = first(&f, AUCS_FINDING_OUT_OF_BOUNDS);
    assert_string_equal(o->object, "s");
    assert_int_equal((int64_t)o->offset, 4 * idx[i]);
    assert_ptr_equal(o->a.instr, nth(&f, "k", LLVMLoad, 0));
  }
  const aucs_finding *o = first(&f, AUCS_FINDING_OUT_OF_BOUNDS);
  assert_non_null(strstr(o->message, "at byte 274877906944 of shared 's'"));
  uint64_t args[] = {0, (uint64_t)-1};
  aucs_run_config c = config(1, 1);
  c.args = args;
  run_fx(&f, &c);
  o = first(&f, AUCS_FINDING_OUT_OF_BOUNDS);
  assert_non_null(strstr(o->message, "read of 4 bytes at byte -4 of shared"));
  assert_int_equal(out64(&f, 0) & 0xffffffff, 0); /* the read gave zeros */
  free_fx(&f);
}

/* An argument may point into the middle of its allocation: in[-1] is
 * memory like in[0], and out of no bounds. */
static const char *arg_before_ir = "define void @k(ptr %out, ptr %in) {\n"
                                   "  %p = getelementptr i32, ptr %in, i64 -1\n"
                                   "  %v = load i32, ptr %p\n"
                                   "  %w = add i32 %v, 1\n"
                                   "  store i32 %w, ptr %p\n"
                                   "  store i32 %v, ptr %out\n"
                                   "  ret void\n"
                                   "}\n";

static void test_interp_argument_buffer_extends_both_ways(void **state) {
  (void)state;
  fx f;
  load_fx(&f, arg_before_ir, "k");
  aucs_run_config c = config(1, 1);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(f.res.findings.n, 0);
  uint32_t before, after;
  assert_int_equal(aucs_run_read(&f.res, 0, 0, &before, 4), 0);
  assert_int_equal(aucs_run_read(&f.res, 1, (uint64_t)-4, &after, 4), 0);
  assert_int_equal(after, before + 1);
  free_fx(&f);
}

static const char *null_ir = "define void @k(ptr %out) {\n"
                             "  store i32 1, ptr null\n"
                             "  ret void\n"
                             "}\n";

static void test_interp_null_store_traps(void **state) {
  (void)state;
  fx f;
  load_fx(&f, null_ir, "k");
  aucs_run_config c = config(1, 4);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_TRAP);
  assert_non_null(strstr(f.res.error, "null pointer"));
  assert_int_equal(count(&f, AUCS_FINDING_OUT_OF_BOUNDS), 1);
  free_fx(&f);
}

static const char *uninit_ir = "define void @k(ptr %out, ptr %in) {\n"
                               "  %v = load i64, ptr %in\n"
                               "  store i64 %v, ptr %out\n"
                               "  ret void\n"
                               "}\n";

static void test_interp_uninitialised_memory_follows_the_seed(void **state) {
  (void)state;
  fx f;
  load_fx(&f, uninit_ir, "k");
  aucs_run_config c = config(1, 1);
  c.seed = 7;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  uint64_t a = out64(&f, 0), in;
  assert_int_equal(aucs_run_read(&f.res, 1, 0, &in, 8), 0);
  assert_int_equal(a, in);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(out64(&f, 0), a);
  c.seed = 8;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_not_equal(out64(&f, 0), a);
  free_fx(&f);
}

/* out[t] = in[t] for 16 threads: the words the fill left in %in. */
static const char *copy_ir =
    "define void @k(ptr %out, ptr %in) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr i32, ptr %in, i32 %t\n"
    "  %v = load i32, ptr %p\n"
    "  %q = getelementptr i32, ptr %out, i32 %t\n"
    "  store i32 %v, ptr %q\n"
    "  ret void\n"
    "}\n" SREG_DECLS;

/* The 16 words a run with fill and seed copies; how many are < 16. */
static int copied(fx *f, aucs_fill fill, uint64_t seed, uint32_t *w) {
  aucs_run_config c = config(1, 16);
  c.fill = fill;
  c.seed = seed;
  assert_int_equal(run_fx(f, &c), AUCS_RUN_OK);
  assert_int_equal(aucs_run_read(&f->res, 0, 0, w, 64), 0);
  int small = 0;
  for (int i = 0; i < 16; i++)
    small += w[i] < 16;
  return small;
}

static void test_interp_fill_modes_follow_the_seed(void **state) {
  (void)state;
  fx f;
  load_fx(&f, copy_ir, "k");
  uint32_t a[16], b[16], z[16];
  assert_int_equal(copied(&f, AUCS_FILL_SMALL, 3, a), 16);
  int distinct = 0;
  for (int i = 1; i < 16; i++)
    distinct += a[i] != a[0];
  assert_true(distinct > 0); /* small, not constant */
  copied(&f, AUCS_FILL_SMALL, 3, b);
  assert_memory_equal(a, b, sizeof a);
  copied(&f, AUCS_FILL_SMALL, 4, b);
  assert_memory_not_equal(a, b, sizeof a);
  assert_true(copied(&f, AUCS_FILL_RANDOM, 3, b) < 4);
  assert_int_equal(copied(&f, AUCS_FILL_ZERO, 3, z), 16);
  for (int i = 0; i < 16; i++)
    assert_int_equal(z[i], 0);
  /* bytes the run never touched read back as the same fill */
  uint32_t far;
  assert_int_equal(aucs_run_read(&f.res, 1, 4096, &far, 4), 0);
  assert_int_equal(far, 0);
  free_fx(&f);
}

static void test_interp_fill_names(void **state) {
  (void)state;
  /* every fill's name is what --fill takes (options.c) */
  for (unsigned i = 0; i < AUCS_FILL_NMODES; i++) {
    char text[64], *err = NULL;
    aucs_detect_options o = {0};
    snprintf(text, sizeof text, "--fill %s", aucs_interp_fill_name(i));
    assert_int_equal(aucs_options_parse(&o, text, &err), 0);
    assert_int_equal(o.has_fill, 1);
    assert_int_equal(o.fill, i);
    aucs_options_free(&o);
  }
  assert_string_equal(aucs_interp_fill_name(AUCS_FILL_SMALL), "small");
  aucs_detect_options o = {0};
  char *err = NULL;
  assert_int_not_equal(aucs_options_parse(&o, "--fill ones", &err), 0);
  assert_non_null(strstr(err, "random, small or zero"));
  free(err);
  aucs_options_free(&o);
}

static const char *helper_barrier_ir =
    "@s = internal addrspace(3) global [32 x i32] undef\n"
    "define internal void @sync() {\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  ret void\n"
    "}\n"
    "define void @k(ptr %out) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr [32 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
    "  store i32 %t, ptr addrspace(3) %p\n"
    "  call void @sync()\n"
    "  %n = xor i32 %t, 1\n"
    "  %q = getelementptr [32 x i32], ptr addrspace(3) @s, i32 0, i32 %n\n"
    "  %v = load i32, ptr addrspace(3) %q\n"
    "  %o = getelementptr i32, ptr %out, i32 %t\n"
    "  store i32 %v, ptr %o\n"
    "  ret void\n"
    "}\n" SREG_DECLS;

static void test_interp_barrier_inside_a_helper(void **state) {
  (void)state;
  fx f;
  load_fx(&f, helper_barrier_ir, "k");
  aucs_run_config c = config(1, 32);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(f.res.findings.n, 0);
  assert_ptr_equal(aucs_prog_barrier(f.p, 0), nth(&f, "sync", LLVMCall, 0));
  assert_int_equal(f.res.barrier_ordered[0], 1);
  uint32_t v[2];
  aucs_run_read(&f.res, 0, 0, v, 8);
  assert_int_equal(v[0], 1);
  assert_int_equal(v[1], 0);
  free_fx(&f);
}

static const char *spread_ir = "define void @k(ptr %out) {\n"
                               "entry:\n"
                               "  br label %loop\n"
                               "loop:\n"
                               "  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]\n"
                               "  %off = mul i64 %i, 4096\n"
                               "  %p = getelementptr i8, ptr %out, i64 %off\n"
                               "  store i8 1, ptr %p\n"
                               "  %i1 = add i64 %i, 1\n"
                               "  br label %loop\n"
                               "}\n";

static void test_interp_memory_budget_stops_the_run(void **state) {
  (void)state;
  fx f;
  load_fx(&f, spread_ir, "k");
  aucs_run_config c = config(1, 1);
  c.memory_budget = 4 << 20;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_MEMORY_BUDGET);
  assert_non_null(strstr(f.res.error, "memory"));
  assert_non_null(strstr(f.res.error, "kernel 'k'"));
  free_fx(&f);
}

/* llvm.assume with a false condition ends the run: the input is outside
 * the kernel's precondition (n % 64 == 0 here). */
static const char *assume_ir =
    "define ptx_kernel void @k(ptr %out, i32 %n) {\n"
    "entry:\n"
    "  %r = urem i32 %n, 64\n"
    "  %ok = icmp eq i32 %r, 0\n"
    "  call void @llvm.assume(i1 %ok)\n"
    "  store i64 1, ptr %out\n"
    "  ret void\n"
    "}\n"
    "declare void @llvm.assume(i1)\n";

static void test_interp_false_assume_ends_the_run(void **state) {
  (void)state;
  fx f;
  load_fx(&f, assume_ir, "k");
  aucs_run_config c = config(1, 1);
  uint64_t args[2] = {0, 3};
  c.args = args;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_ASSUME);
  assert_ptr_equal(f.res.assumption, nth(&f, "k", LLVMCall, 0));
  assert_non_null(strstr(f.res.error, "llvm.assume"));
  assert_int_not_equal(out64(&f, 0), 1); /* the store never ran */
  args[1] = 128;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_null(f.res.assumption);
  assert_int_equal(out64(&f, 0), 1);
  free_fx(&f);
}

/* Indirect calls: @k stores through @pick(i)(x); a table of function
 * pointers in a global; a call through a pointer that is no function's
 * address traps. */
static const char *indirect_ir =
    "@table = addrspace(1) global [2 x ptr] [ptr @inc, ptr @dbl]\n"
    "define i64 @inc(i64 %x) {\n"
    "  %r = add i64 %x, 1\n"
    "  ret i64 %r\n"
    "}\n"
    "define i64 @dbl(i64 %x) {\n"
    "  %r = mul i64 %x, 2\n"
    "  ret i64 %r\n"
    "}\n"
    "define ptx_kernel void @k(ptr %out, i32 %i) {\n"
    "  %slot = getelementptr [2 x ptr], ptr addrspace(1) @table, i32 0, i32 %i\n"
    "  %f = load ptr, ptr addrspace(1) %slot\n"
    "  %v = call i64 %f(i64 20)\n"
    "  store i64 %v, ptr %out\n"
    "  %g = select i1 true, ptr @dbl, ptr @inc\n"
    "  %w = call i64 %g(i64 %v)\n"
    "  %q = getelementptr i64, ptr %out, i32 1\n"
    "  store i64 %w, ptr %q\n"
    "  ret void\n"
    "}\n"
    "define ptx_kernel void @wild(ptr %out) {\n"
    "  %v = call i64 %out(i64 1)\n"
    "  ret void\n"
    "}\n";

static void test_interp_indirect_calls_reach_module_functions(void **state) {
  (void)state;
  fx f;
  load_fx(&f, indirect_ir, "k");
  aucs_run_config c = config(1, 1);
  uint64_t args[2] = {0, 1};
  c.args = args;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(out64(&f, 0), 40); /* dbl(20) */
  assert_int_equal(out64(&f, 1), 80); /* dbl(40) */
  args[1] = 0;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(out64(&f, 0), 21); /* inc(20) */
  assert_int_equal(out64(&f, 1), 42);
  free_fx(&f);
  load_fx(&f, indirect_ir, "wild");
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_TRAP);
  assert_non_null(strstr(f.res.error, "not the address of a function"));
  free_fx(&f);
}

/* A pointer to a function the module only declares: no body to run. */
static void test_interp_pointer_to_declared_function_unsupported(void **st) {
  (void)st;
  LLVMModuleRef m =
      support_parse("declare i64 @ext(i64)\n"
                    "define ptx_kernel void @k(ptr %out) {\n"
                    "  %g = select i1 true, ptr @ext, ptr null\n"
                    "  %v = call i64 %g(i64 1)\n"
                    "  ret void\n"
                    "}\n");
  aucs_prog *p = NULL;
  aucs_findings d = {0};
  assert_int_not_equal(aucs_interp_lower(support_fn(m, "k"), &p, &d), 0);
  assert_null(p);
  assert_int_equal(d.n, 1);
  assert_non_null(strstr(d.v[0].message, "a pointer to 'ext', a function "
                                         "only declared in the module"));
  aucs_findings_free(&d);
  support_free(m);
}

/* Cooperative groups' grid sync (the PTX of cooperative_groups' sync.h):
 * every thread writes a[i], the grid syncs, then reads a[i + 1 mod n],
 * which the next block wrote for the block's last thread. DEAD: block 1
 * skips the grid sync. */
static char *grid_ir(int dead) {
  return aucs_xasprintf(
      "define ptx_kernel void @k(ptr %%a, ptr %%b) {\n"
      "entry:\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %%c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
      "  %%nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
      "  %%nc = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()\n"
      "  %%base = mul i32 %%c, %%nt\n"
      "  %%i = add i32 %%base, %%t\n"
      "  %%pa = getelementptr i32, ptr %%a, i32 %%i\n"
      "  store i32 %%i, ptr %%pa\n"
      "  %%hi = call i32 asm \"mov.u32 $0, %%envreg1;\", \"=r\"()\n"
      "  %%lo = call i32 asm \"mov.u32 $0, %%envreg2;\", \"=r\"()\n"
      "  %%hi64 = zext i32 %%hi to i64\n"
      "  %%lo64 = zext i32 %%lo to i64\n"
      "  %%sh = shl i64 %%hi64, 32\n"
      "  %%w = or i64 %%sh, %%lo64\n"
      "  %%ws = inttoptr i64 %%w to ptr\n"
      "  %%word = getelementptr i8, ptr %%ws, i64 4\n"
      "  %%skip = icmp eq i32 %%c, %d\n"
      "  br i1 %%skip, label %%after, label %%sync\n"
      "sync:\n"
      "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
      "  %%master = icmp eq i32 %%t, 0\n"
      "  br i1 %%master, label %%arrive, label %%wait\n"
      "arrive:\n"
      "  %%old = call i32 asm sideeffect \"atom.add.release.gpu.u32 "
      "$0,[$1],$2;\", \"=r,l,r,~{memory}\"(ptr %%word, i32 1)\n"
      "  br label %%poll\n"
      "poll:\n"
      "  %%cur = call i32 asm sideeffect \"ld.acquire.gpu.u32 $0,[$1];\", "
      "\"=r,l,~{memory}\"(ptr %%word)\n"
      "  %%x = xor i32 %%old, %%cur\n"
      "  %%top = and i32 %%x, -2147483648\n"
      "  %%flipped = icmp ne i32 %%top, 0\n"
      "  br i1 %%flipped, label %%wait, label %%poll\n"
      "wait:\n"
      "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
      "  br label %%after\n"
      "after:\n"
      "  %%n = mul i32 %%nc, %%nt\n"
      "  %%j1 = add i32 %%i, 1\n"
      "  %%j = urem i32 %%j1, %%n\n"
      "  %%pj = getelementptr i32, ptr %%a, i32 %%j\n"
      "  %%v = load i32, ptr %%pj\n"
      "  %%pb = getelementptr i32, ptr %%b, i32 %%i\n"
      "  store i32 %%v, ptr %%pb\n"
      "  ret void\n"
      "}\n" SREG_DECLS
      "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
      "declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()\n",
      dead ? 1 : -1);
}

static void test_interp_grid_sync_orders_blocks(void **state) {
  (void)state;
  char *ir = grid_ir(0);
  fx f;
  load_fx(&f, ir, "k");
  aucs_run_config c = config(4, 32);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_true(aucs_prog_grid_sync(f.p));
  assert_int_equal(count(&f, AUCS_FINDING_INTER_BLOCK_RACE), 0);
  assert_int_equal(count(&f, AUCS_FINDING_BARRIER_DIVERGENCE), 0);
  assert_int_equal(f.res.blocks_run, 4);
  /* every block read what the next one wrote before the sync */
  uint32_t v = 0;
  assert_int_equal(aucs_run_read(&f.res, 1, 31 * 4, &v, 4), 0);
  assert_int_equal(v, 32);
  assert_int_equal(aucs_run_read(&f.res, 1, 127 * 4, &v, 4), 0);
  assert_int_equal(v, 0);
  free_fx(&f);
  free(ir);
  /* block 1 never arrives: the others wait for ever */
  ir = grid_ir(1);
  load_fx(&f, ir, "k");
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_TRAP);
  assert_non_null(strstr(f.res.error, "block (1,0,0) ended without reaching"));
  assert_non_null(strstr(f.res.error, "deadlocks"));
  free_fx(&f);
  free(ir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_interp_indirect_calls_reach_module_functions),
      cmocka_unit_test(test_interp_grid_sync_orders_blocks),
      cmocka_unit_test(test_interp_pointer_to_declared_function_unsupported),
      cmocka_unit_test(test_interp_false_assume_ends_the_run),
      cmocka_unit_test(test_interp_shuffle_reduction_and_ballot),
      cmocka_unit_test(test_interp_syncwarp_orders_a_warp),
      cmocka_unit_test(test_interp_barrier_reductions),
      cmocka_unit_test(test_interp_step_budget_stops_infinite_loop),
      cmocka_unit_test(test_interp_bad_launch),
      cmocka_unit_test(test_interp_out_of_bounds_shared),
      cmocka_unit_test(test_interp_negative_offset_is_out_of_bounds),
      cmocka_unit_test(test_interp_argument_buffer_extends_both_ways),
      cmocka_unit_test(test_interp_null_store_traps),
      cmocka_unit_test(test_interp_uninitialised_memory_follows_the_seed),
      cmocka_unit_test(test_interp_fill_modes_follow_the_seed),
      cmocka_unit_test(test_interp_fill_names),
      cmocka_unit_test(test_interp_barrier_inside_a_helper),
      cmocka_unit_test(test_interp_memory_budget_stops_the_run),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
