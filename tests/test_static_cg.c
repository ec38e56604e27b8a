/*
 * test_static_cg: the Z3 checker on the shapes cooperative groups leave in
 * -O0 (+sroa) bitcode: a thread's own allocas written through helpers (the
 * dim3 constructor), cg::sync as a one-call helper around the barrier, an
 * extern __shared__ array reached through a helper's result
 * (SharedMemory<T>), thread_rank() under a launch the user fixed, and the
 * dim3 that `operator dim3()` of threadIdx returns.
 */
#include "support.h"

#include "aucs/static.h"
#include "aucs/util.h"
#include <stdlib.h>

#define DECLS                                                                  \
  "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"                             \
  "declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()\n"                             \
  "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"                            \
  "declare void @llvm.nvvm.barrier.cta.sync.all(i32)\n"

/* Limits far above what any query here needs: the tests assert what is
 * decided, not how fast. */
static const aucs_static_options patient = {.timeout_ms = 600000u,
                                            .budget_ms = 3600000u};

typedef struct outcome {
  aucs_static_proof proof;
  size_t pairs;
  uint64_t cheap; /* queries decided by cheap.h's rules */
} outcome;

static outcome analyze(const char *ir, const aucs_static_options *o) {
  LLVMModuleRef m = support_parse(ir);
  aucs_static *s = aucs_static_analyze(support_fn(m, "k"), o);
  outcome r = {aucs_static_proof_of(s), aucs_static_npairs(s),
               aucs_static_stats(s)->cheap};
  aucs_static_free(s);
  support_free(m);
  return r;
}

static void test_static_cg_thread_alloca_is_not_shared(void **state) {
  (void)state;
  /* a local kept in memory, written by the kernel and through a helper's
   * argument (dim3's constructor): each thread has its own */
  outcome r = analyze("define void @set(ptr %p, i32 %v) {\n"
                      "  store i32 %v, ptr %p\n"
                      "  ret void\n"
                      "}\n"
                      "define ptx_kernel void @k(ptr %out) {\n"
                      "entry:\n"
                      "  %x = alloca i32\n"
                      "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                      "  store i32 0, ptr %x\n"
                      "  call void @set(ptr %x, i32 %t)\n"
                      "  %v = load i32, ptr %x\n"
                      "  ret void\n"
                      "}\n" DECLS,
                      &patient);
  assert_int_equal(r.pairs, 0);
  assert_int_equal(r.proof, AUCS_PROOF_RACE_FREE);
}

/* @k stores s[tid], calls @sync (cg::sync(cta) at -O0: a helper that is
 * only the barrier) and reads s[tid + 1]. */
static const char barrier_wrapper[] =
    "@s = internal addrspace(3) global [1025 x i32] undef\n"
    "define void @sync(i32 %id) {\n"
    "  call void @llvm.nvvm.barrier.cta.sync.all(i32 %id)\n"
    "  ret void\n"
    "}\n"
    "define ptx_kernel void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr [1025 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
    "  store i32 1, ptr addrspace(3) %p\n"
    "  call void @sync(i32 0)\n"
    "  %u = add nuw i32 %t, 1\n"
    "  %q = getelementptr [1025 x i32], ptr addrspace(3) @s, i32 0, i32 %u\n"
    "  %v = load i32, ptr addrspace(3) %q\n"
    "  ret void\n"
    "}\n" DECLS;

static void test_static_cg_barrier_helper_without_accesses(void **state) {
  (void)state;
  outcome r = analyze(barrier_wrapper, &patient);
  assert_int_equal(r.proof, AUCS_PROOF_RACE_FREE);
}

static void test_static_cg_shared_array_through_a_helper(void **state) {
  (void)state;
  /* SharedMemory<T>(): the helper's result is the extern __shared__ array,
   * so its store never meets the read of the global argument */
  outcome r = analyze(
      "@sm = external addrspace(3) global [0 x i32]\n"
      "define ptr @smem() {\n"
      "  ret ptr addrspacecast (ptr addrspace(3) @sm to ptr)\n"
      "}\n"
      "define ptx_kernel void @k(ptr %in) {\n"
      "entry:\n"
      "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %u = add nuw i32 %t, 1\n"
      "  %g = getelementptr i32, ptr %in, i32 %u\n"
      "  %v = load i32, ptr %g\n"
      "  %s = call ptr @smem()\n"
      "  %p = getelementptr i32, ptr %s, i32 %t\n"
      "  store i32 %v, ptr %p\n"
      "  ret void\n"
      "}\n" DECLS,
      &patient);
  assert_int_equal(r.pairs, 1); /* the store with itself */
  assert_int_equal(r.proof, AUCS_PROOF_RACE_FREE);
}

/* s[tid.x + tid.y * ROW] (thread_rank() of a 2-D block when ROW is
 * ntid.x) written by every thread. */
static char *rank_store(const char *row) {
  return aucs_xasprintf(
      "@s = internal addrspace(3) global [1024 x i32] undef\n"
      "define ptx_kernel void @k(ptr %%out) {\n"
      "entry:\n"
      "  %%x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %%y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()\n"
      "  %%n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
      "  %%yn = mul i32 %%y, %s\n"
      "  %%r = add i32 %%x, %%yn\n"
      "  %%p = getelementptr [1024 x i32], ptr addrspace(3) @s, i32 0, "
      "i32 %%r\n"
      "  store i32 1, ptr addrspace(3) %%p\n"
      "  ret void\n"
      "}\n" DECLS,
      row);
}

static outcome rank_outcome(const char *row, const aucs_static_options *o) {
  char *ir = rank_store(row);
  outcome r = analyze(ir, o);
  free(ir);
  return r;
}

static void test_static_cg_fixed_block_makes_rank_linear(void **state) {
  (void)state;
  /* any launch: the product is the solver's */
  outcome any = rank_outcome("%n", &patient);
  assert_int_equal(any.proof, AUCS_PROOF_RACE_FREE);
  assert_int_equal(any.cheap, 0);
  /* --block 32,4,1: blockDim is a constant, the rank affine, and the pair
   * is decided before the solver (the proof holds for that launch) */
  aucs_static_options o = patient;
  o.fixed_block = 1;
  o.launch.block = (aucs_dim3){32, 4, 1};
  outcome fixed = rank_outcome("%n", &o);
  assert_int_equal(fixed.proof, AUCS_PROOF_RACE_FREE);
  assert_int_equal(fixed.cheap, 1);
  /* rows of 16 under 32 threads a row overlap: (16,0) and (0,1) meet */
  outcome overlap = rank_outcome("16", &o);
  assert_int_not_equal(overlap.proof, AUCS_PROOF_RACE_FREE);
  assert_int_equal(overlap.cheap, 0);
}

static void test_static_cg_builtin_dim3_is_the_register(void **state) {
  (void)state;
  /* dim3(threadIdx).x, as thread_rank() reads it at -O0: tid.x, so
   * s[threadIdx.x] is each thread's own (a 1-D block: y is never read) */
  outcome r = analyze(
      "%dim3 = type { i32, i32, i32 }\n"
      "%tidt = type { i8 }\n"
      "@threadIdx = external addrspace(1) global %tidt\n"
      "@s = internal addrspace(3) global [1024 x i32] undef\n"
      "define %dim3 @_ZNK26__cuda_builtin_threadIdx_tcv4dim3Ev(ptr %this) {\n"
      "  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %a = insertvalue %dim3 poison, i32 %x, 0\n"
      "  %b = insertvalue %dim3 %a, i32 0, 1\n"
      "  %c = insertvalue %dim3 %b, i32 0, 2\n"
      "  ret %dim3 %c\n"
      "}\n"
      "define ptx_kernel void @k(ptr %out) {\n"
      "entry:\n"
      "  %d = call %dim3 @_ZNK26__cuda_builtin_threadIdx_tcv4dim3Ev(ptr "
      "addrspacecast (ptr addrspace(1) @threadIdx to ptr))\n"
      "  %t = extractvalue %dim3 %d, 0\n"
      "  %p = getelementptr [1024 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
      "  store i32 1, ptr addrspace(3) %p\n"
      "  ret void\n"
      "}\n" DECLS,
      &patient);
  assert_int_equal(r.proof, AUCS_PROOF_RACE_FREE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_static_cg_thread_alloca_is_not_shared),
      cmocka_unit_test(test_static_cg_barrier_helper_without_accesses),
      cmocka_unit_test(test_static_cg_shared_array_through_a_helper),
      cmocka_unit_test(test_static_cg_fixed_block_makes_rank_linear),
      cmocka_unit_test(test_static_cg_builtin_dim3_is_the_register),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
