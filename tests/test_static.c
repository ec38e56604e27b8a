/*
 * test_static: the Z3 checker on small inline kernels: affine indices,
 * guards, loops, 2-D indexing, access widths, data-dependent indices (never
 * proven), barrier redundancy, witnesses that replay as races, one
 * blockIdx for two threads of one block, %laneid, __syncwarp, rotated loops,
 * toggled phis, phis with an undef or poison incoming, __device__ helpers (results, a barrier at their end) and
 * the threads' paths from an interval's start, and llvm.assume
 * preconditions.
 */
#include "support.h"

#include "aucs/detect.h"
#include "aucs/kernel.h"
#include "aucs/static.h"
#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

#define DECLS                                                                  \
  "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"                             \
  "declare i32 @llvm.nvvm.read.ptx.sreg.tid.y()\n"                             \
  "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"                            \
  "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"                           \
  "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n"

/* Limits far above what any query here needs: the tests assert what the
 * solver decides, not how fast (under valgrind it runs ~50 times slower). */
#define PATIENT_TIMEOUT_MS 600000u
#define PATIENT_BUDGET_MS 3600000u
static const aucs_static_options patient = {.timeout_ms = PATIENT_TIMEOUT_MS,
                                            .budget_ms = PATIENT_BUDGET_MS};

/* @k writes s[INDEX] (i32) and reads s[tid] in one barrier interval. */
static char *indexed(const char *index_ir) {
  return aucs_xasprintf(
      "@s = internal addrspace(3) global [2048 x i32] undef\n"
      "define ptx_kernel void @k(ptr %%out) {\n"
      "entry:\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %%n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
      "%s"
      "  %%p = getelementptr [2048 x i32], ptr addrspace(3) @s, i32 0, i32 %%i\n"
      "  store i32 1, ptr addrspace(3) %%p\n"
      "  %%q = getelementptr [2048 x i32], ptr addrspace(3) @s, i32 0, i32 %%t\n"
      "  %%v = load i32, ptr addrspace(3) %%q\n"
      "  ret void\n"
      "}\n" DECLS,
      index_ir);
}

static aucs_static_proof proof_with(const char *ir, const char *fn,
                                    aucs_static_counts *c,
                                    const aucs_static_options *o) {
  LLVMModuleRef m = support_parse(ir);
  aucs_static *s = aucs_static_analyze(support_fn(m, fn), o);
  aucs_static_proof p = aucs_static_proof_of(s);
  if (c)
    *c = aucs_static_counts_of(s);
  aucs_static_free(s);
  support_free(m);
  return p;
}

static aucs_static_proof proof_of_ir(const char *ir, const char *fn,
                                     aucs_static_counts *c) {
  return proof_with(ir, fn, c, &patient);
}

static aucs_static_proof proof_of_index(const char *index_ir) {
  char *ir = indexed(index_ir);
  aucs_static_proof p = proof_of_ir(ir, "k", NULL);
  free(ir);
  return p;
}

static void test_static_affine_indices(void **state) {
  (void)state;
  /* s[tid]: each thread its own slot; read s[tid] too */
  assert_int_equal(proof_of_index("  %i = add i32 %t, 0\n"),
                   AUCS_PROOF_RACE_FREE);
  /* s[tid + 1] written, s[tid] read: thread t+1 reads what t writes */
  assert_int_equal(proof_of_index("  %i = add i32 %t, 1\n"),
                   AUCS_PROOF_PARTIAL);
  /* s[tid ^ 1]: neighbours swap */
  assert_int_equal(proof_of_index("  %i = xor i32 %t, 1\n"),
                   AUCS_PROOF_PARTIAL);
  /* s[tid + blockDim * 1]: beyond every thread's read */
  assert_int_equal(proof_of_index("  %i = add nuw i32 %t, %n\n"),
                   AUCS_PROOF_RACE_FREE);
}

static void test_static_two_tid_is_race_free_but_reads_race(void **state) {
  (void)state;
  /* s[2 tid] written by each thread once: no write/write race, but thread
   * 2t reads it */
  aucs_static_counts c;
  char *ir = indexed("  %i = mul nuw i32 %t, 2\n");
  assert_int_equal(proof_of_ir(ir, "k", &c), AUCS_PROOF_PARTIAL);
  assert_int_equal(c.total, 2); /* write/write, write/read */
  assert_int_equal(c.unsat, 1);
  assert_int_equal(c.sat, 1);
  free(ir);
}

static const char *guarded =
    "@s = internal addrspace(3) global [64 x i32] undef\n"
    "define ptx_kernel void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %c = icmp eq i32 %t, 0\n"
    "  br i1 %c, label %then, label %done\n"
    "then:\n"
    "  store i32 1, ptr addrspace(3) @s\n"
    "  br label %done\n"
    "done:\n"
    "  ret void\n"
    "}\n" DECLS;

static void test_static_guarded_access(void **state) {
  (void)state;
  /* only thread 0 writes s[0] */
  assert_int_equal(proof_of_ir(guarded, "k", NULL), AUCS_PROOF_RACE_FREE);
}

/* A strided loop over out: i = tid + k * 1024, i < n (1024 threads at
 * most). A stride of blockDim is non-linear for the solver: it answers
 * unknown within the default timeout (the dynamic result stands). */
static const char *stride =
    "define ptx_kernel void @k(ptr %out, i32 %n) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
    "  br label %head\n"
    "head:\n"
    "  %i = phi i32 [ %t, %entry ], [ %next, %body ]\n"
    "  %c = icmp slt i32 %i, %n\n"
    "  br i1 %c, label %body, label %done\n"
    "body:\n"
    "  %x = sext i32 %i to i64\n"
    "  %p = getelementptr i32, ptr %out, i64 %x\n"
    "  store i32 0, ptr %p\n"
    "  %next = add nsw i32 %i, 1024\n"
    "  br label %head\n"
    "done:\n"
    "  ret void\n"
    "}\n" DECLS;

static void test_static_loop_with_affine_induction(void **state) {
  (void)state;
  aucs_static_counts c;
  LLVMModuleRef m = support_parse(stride);
  aucs_static *s = aucs_static_analyze(support_fn(m, "k"), &patient);
  c = aucs_static_counts_of(s);
  assert_int_equal(c.total, 2);
  for (size_t i = 0; i < c.total; i++) {
    const aucs_static_pair *p = aucs_static_pair_at(s, i);
    /* threads of one block never meet; two blocks run the same loop */
    assert_int_equal(p->verdict,
                     p->inter_block ? AUCS_STATIC_SAT : AUCS_STATIC_UNSAT);
  }
  aucs_static_free(s);
  support_free(m);
}

/* A grid-stride loop y[i] += 1 from START by STEP (-O2's shape: the test
 * rotated to the latch), with the global index %g = blockIdx.x * blockDim.x
 * + threadIdx.x and the grid's size %grid = blockDim.x * gridDim.x. */
static char *grid_loop_with(const char *start, const char *step,
                            const char *entry) {
  return aucs_xasprintf(
      "@s = internal addrspace(3) global [2048 x i32] undef\n"
      "define ptx_kernel void @k(ptr %%y, i32 %%n) {\n"
      "entry:\n"
      "  %%nt = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
      "  %%nc = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()\n"
      "  %%grid = mul i32 %%nt, %%nc\n"
      "  %%c = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
      "  %%b = mul i32 %%c, %%nt\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %%g = add i32 %%b, %%t\n"
      "%s"
      "  %%go = icmp slt i32 %%%s, %%n\n"
      "  br i1 %%go, label %%body, label %%done\n"
      "body:\n"
      "  %%i = phi i32 [ %%%s, %%entry ], [ %%next, %%body ]\n"
      "  %%x = sext i32 %%i to i64\n"
      "  %%p = getelementptr inbounds float, ptr %%y, i64 %%x\n"
      "  %%v = load float, ptr %%p\n"
      "  %%w = fadd float %%v, 1.0\n"
      "  store float %%w, ptr %%p\n"
      "  %%next = add nsw i32 %%i, %%%s\n"
      "  %%more = icmp slt i32 %%next, %%n\n"
      "  br i1 %%more, label %%body, label %%done\n"
      "done:\n"
      "  ret void\n"
      "}\n"
      "declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()\n" DECLS,
      entry, start, start, step);
}

static char *grid_loop(const char *start, const char *step) {
  return grid_loop_with(start, step, "");
}

/* From the global index by the grid's size, every thread has elements of
 * its own: proved for any launch (the solver orders the two threads' i by
 * their iteration, then by their global index, never multiplying). */
static void test_static_grid_stride_loop(void **state) {
  (void)state;
  aucs_static_counts c;
  char *ir = grid_loop("g", "grid");
  assert_int_equal(proof_of_ir(ir, "k", &c), AUCS_PROOF_RACE_FREE);
  assert_int_equal(c.total, 4); /* read/write, write/write; one or two blocks */
  assert_int_equal(c.unsat, c.total);
  free(ir);
}

/* By blockDim alone, or from threadIdx.x alone, two blocks meet: those
 * pairs are never UNSAT, whatever the lemmas on multiples add. (Their
 * products defeat the solver's search for a model too, so with short limits
 * they end SAT or unknown; pairs within one block are race-free.) */
static void test_static_grid_stride_races_are_not_proven(void **state) {
  (void)state;
  static const char *const variants[][2] = {{"g", "nt"}, {"t", "grid"}};
  aucs_static_options o = {.timeout_ms = 400, .budget_ms = 4000};
  for (int v = 0; v < 2; v++) {
    char *ir = grid_loop(variants[v][0], variants[v][1]);
    LLVMModuleRef m = support_parse(ir);
    aucs_static *s = aucs_static_analyze(support_fn(m, "k"), &o);
    size_t inter = 0, total = aucs_static_counts_of(s).total;
    for (size_t i = 0; i < total; i++) {
      const aucs_static_pair *p = aucs_static_pair_at(s, i);
      inter += p->inter_block;
      if (p->inter_block)
        assert_int_not_equal(p->verdict, AUCS_STATIC_UNSAT);
    }
    assert_int_equal(inter, 2);
    assert_int_not_equal(aucs_static_proof_of(s), AUCS_PROOF_RACE_FREE);
    aucs_static_free(s);
    support_free(m);
    free(ir);
  }
}

/* The limits are Z3 resource units, not time: a shared-memory pair the
 * solver decides at once (SAT: s[t] / s[t + 1]) and a grid-stride loop's
 * pairs, analysed with a timeout too small for their proofs (the products
 * need millions of units) and a kernel budget that runs out at the third
 * of them, get the same verdict, pair by pair, and spend the same units
 * on every run, however loaded the machine. */
static void test_static_small_limits_are_deterministic(void **state) {
  (void)state;
  aucs_static_options o = {.timeout_ms = 10, .budget_ms = 25};
  char *ir = grid_loop_with(
      "g", "grid",
      "  %sp = getelementptr [2048 x i32], ptr addrspace(3) @s, i32 0, "
      "i32 %t\n"
      "  store i32 1, ptr addrspace(3) %sp\n"
      "  %t1 = add i32 %t, 1\n"
      "  %sq = getelementptr [2048 x i32], ptr addrspace(3) @s, i32 0, "
      "i32 %t1\n"
      "  %sv = load i32, ptr addrspace(3) %sq\n");
  LLVMModuleRef m = support_parse(ir);
  aucs_static *s[2];
  for (int run = 0; run < 2; run++)
    s[run] = aucs_static_analyze(support_fn(m, "k"), &o);
  aucs_static_counts c = aucs_static_counts_of(s[0]);
  assert_int_equal(c.total, 6);
  assert_int_equal(c.unsat, 1); /* s[t] / s[t] */
  assert_int_equal(c.sat, 1);
  assert_int_equal(c.unknown, 4);
  assert_int_equal(aucs_static_npairs(s[1]), c.total);
  for (size_t i = 0; i < c.total; i++)
    assert_int_equal(aucs_static_pair_at(s[0], i)->verdict,
                     aucs_static_pair_at(s[1], i)->verdict);
  assert_int_equal(aucs_static_stats(s[0])->units,
                   aucs_static_stats(s[1])->units);
  assert_int_equal(aucs_static_stats(s[0])->wall_stops, 0);
  for (int run = 0; run < 2; run++)
    aucs_static_free(s[run]);
  support_free(m);
  free(ir);
}

/* as[ty][tx] of a 16 x 16 tile, with the block fixed to 16 x 16. */
static const char *tile =
    "@as = internal addrspace(3) global [16 x [16 x float]] undef\n"
    "define ptx_kernel void @k(ptr %out) {\n"
    "entry:\n"
    "  %x = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %y = call i32 @llvm.nvvm.read.ptx.sreg.tid.y()\n"
    "  %p = getelementptr [16 x [16 x float]], ptr addrspace(3) @as, i32 0, "
    "i32 %y, i32 %x\n"
    "  store float 1.0, ptr addrspace(3) %p\n"
    "  ret void\n"
    "}\n" DECLS;

static void test_static_2d_indexing(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(tile);
  aucs_static_options o = {.timeout_ms = PATIENT_TIMEOUT_MS,
                           .budget_ms = PATIENT_BUDGET_MS,
                           .fixed_block = 1,
                           .launch = {.grid = {1, 1, 1}, .block = {16, 16, 1}}};
  aucs_static *s = aucs_static_analyze(support_fn(m, "k"), &o);
  assert_int_equal(aucs_static_proof_of(s), AUCS_PROOF_RACE_FREE);
  aucs_static_free(s);
  /* a 32-wide block overflows a row into the next: (16,0) meets (0,1) */
  o.launch.block = (aucs_dim3){32, 16, 1};
  s = aucs_static_analyze(support_fn(m, "k"), &o);
  assert_int_equal(aucs_static_proof_of(s), AUCS_PROOF_NONE);
  aucs_static_free(s);
  support_free(m);
}

/* An i32 store to word tid and a byte load from byte 4 tid + OFF. */
static char *widths(int off) {
  return aucs_xasprintf(
      "@s = internal addrspace(3) global [1024 x i32] undef\n"
      "define ptx_kernel void @k(ptr %%out) {\n"
      "entry:\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %%p = getelementptr [1024 x i32], ptr addrspace(3) @s, i32 0, i32 "
      "%%t\n"
      "  store i32 1, ptr addrspace(3) %%p\n"
      "  %%q = getelementptr i8, ptr addrspace(3) %%p, i32 %d\n"
      "  %%v = load i8, ptr addrspace(3) %%q\n"
      "  ret void\n"
      "}\n" DECLS,
      off);
}

static void test_static_overlapping_widths(void **state) {
  (void)state;
  char *own = widths(3), *next = widths(4);
  /* byte 3 of its own word: no other thread's bytes */
  assert_int_equal(proof_of_ir(own, "k", NULL), AUCS_PROOF_RACE_FREE);
  /* byte 0 of the next thread's word */
  assert_int_equal(proof_of_ir(next, "k", NULL), AUCS_PROOF_PARTIAL);
  free(own);
  free(next);
}

/* A <4 x float> store to slot tid (16 bytes) and a float load at byte
 * 16 tid + OFF. */
static char *vector_widths(int off) {
  return aucs_xasprintf(
      "@s = internal addrspace(3) global [256 x <4 x float>] undef\n"
      "define ptx_kernel void @k(ptr %%out) {\n"
      "entry:\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %%p = getelementptr [256 x <4 x float>], ptr addrspace(3) @s, i32 0, "
      "i32 %%t\n"
      "  store <4 x float> zeroinitializer, ptr addrspace(3) %%p, align 16\n"
      "  %%q = getelementptr i8, ptr addrspace(3) %%p, i32 %d\n"
      "  %%v = load float, ptr addrspace(3) %%q\n"
      "  ret void\n"
      "}\n" DECLS,
      off);
}

static void test_static_vector_access_is_its_full_width(void **state) {
  (void)state;
  char *own = vector_widths(12), *next = vector_widths(16);
  /* the fourth lane of its own slot */
  assert_int_equal(proof_of_ir(own, "k", NULL), AUCS_PROOF_RACE_FREE);
  /* the first lane of the next thread's slot */
  assert_int_equal(proof_of_ir(next, "k", NULL), AUCS_PROOF_PARTIAL);
  free(own);
  free(next);
}

static void test_static_extracted_lane_follows_its_insert(void **state) {
  (void)state;
  /* lane 1 of <n, t> is t: a distinct word per thread */
  assert_int_equal(
      proof_of_index("  %v0 = insertelement <2 x i32> poison, i32 %n, i32 0\n"
                     "  %v1 = insertelement <2 x i32> %v0, i32 %t, i32 1\n"
                     "  %w = shufflevector <2 x i32> %v1, <2 x i32> poison, "
                     "<2 x i32> <i32 1, i32 0>\n"
                     "  %i = extractelement <2 x i32> %w, i32 0\n"),
      AUCS_PROOF_RACE_FREE);
  /* lane 0 is n, the same word for every thread */
  assert_int_equal(
      proof_of_index("  %v0 = insertelement <2 x i32> poison, i32 %n, i32 0\n"
                     "  %v1 = insertelement <2 x i32> %v0, i32 %t, i32 1\n"
                     "  %i = extractelement <2 x i32> %v1, i32 0\n"),
      AUCS_PROOF_PARTIAL);
}

static void test_static_data_dependent_index_never_proven(void **state) {
  (void)state;
  const char *ir =
      "@s = internal addrspace(3) global [64 x i32] undef\n"
      "define ptx_kernel void @k(ptr noalias %idx) {\n"
      "entry:\n"
      "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %a = getelementptr i32, ptr %idx, i32 %t\n"
      "  %j = load i32, ptr %a\n"
      "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %j\n"
      "  store i32 1, ptr addrspace(3) %p\n"
      "  ret void\n"
      "}\n" DECLS;
  assert_int_not_equal(proof_of_ir(ir, "k", NULL), AUCS_PROOF_RACE_FREE);
}

static void test_static_distinct_arguments_overlap_only_if_asked(void **state) {
  (void)state;
  const char *ir = "define ptx_kernel void @k(ptr %a, ptr %b) {\n"
                   "entry:\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  %p = getelementptr i32, ptr %a, i32 %t\n"
                   "  store i32 1, ptr %p\n"
                   "  %q = getelementptr i32, ptr %b, i32 %t\n"
                   "  %v = load i32, ptr %q\n"
                   "  ret void\n"
                   "}\n" DECLS;
  aucs_static_options may_alias = patient;
  may_alias.may_alias = 1;
  assert_int_not_equal(proof_with(ir, "k", NULL, &may_alias),
                       AUCS_PROOF_RACE_FREE);
  const char *noalias = "define ptx_kernel void @k(ptr noalias %a, ptr %b) {\n"
                        "entry:\n"
                        "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                        "  %p = getelementptr i32, ptr %a, i32 %t\n"
                        "  store i32 1, ptr %p\n"
                        "  %q = getelementptr i32, ptr %b, i32 %t\n"
                        "  %v = load i32, ptr %q\n"
                        "  ret void\n"
                        "}\n" DECLS;
  aucs_static_counts with, without, distinct;
  proof_with(ir, "k", &with, &may_alias);
  proof_with(noalias, "k", &without, &may_alias);
  proof_of_ir(ir, "k", &distinct);
  /* under may_alias the store through a and the load through b pair only
   * without noalias (what remains is a[t] written by every block: an
   * inter-block race); by default distinct arguments never pair */
  assert_int_equal(with.total, without.total + 2);
  assert_int_equal(without.sat, 1);
  assert_int_equal(distinct.total, without.total);
  assert_int_equal(distinct.sat, 1);
}

/* A rotated loop (test at the latch, as clang -O2 leaves loops) in which
 * thread t writes s[4 t + i]: race-free exactly when i stays in [0, 3].
 * START, NEXT (defines %next), TEST (defines %c) and the latch's branch
 * targets (EXIT_ON_TRUE: br %c to %done, else to %body) vary. */
static aucs_static_proof rotated(const char *start, const char *next,
                                 const char *test, int exit_on_true) {
  char *ir = aucs_xasprintf(
      "@s = internal addrspace(3) global [8192 x i32] undef\n"
      "define ptx_kernel void @k(ptr %%out) {\n"
      "entry:\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %%b = mul nuw i32 %%t, 4\n"
      "  br label %%body\n"
      "body:\n"
      "  %%i = phi i32 [ %s, %%entry ], [ %%next, %%body ]\n"
      "  %%a = add nuw i32 %%b, %%i\n"
      "  %%p = getelementptr [8192 x i32], ptr addrspace(3) @s, i32 0, i32 %%a\n"
      "  store i32 1, ptr addrspace(3) %%p\n"
      "  %s\n"
      "  %s\n"
      "  br i1 %%c, label %s, label %s\n"
      "done:\n"
      "  ret void\n"
      "}\n" DECLS,
      start, next, test, exit_on_true ? "%done" : "%body",
      exit_on_true ? "%body" : "%done");
  aucs_static_proof p = proof_of_ir(ir, "k", NULL);
  free(ir);
  return p;
}

static void test_static_rotated_loop_bounds(void **state) {
  (void)state;
  const char *inc = "%next = add nuw nsw i32 %i, 1";
  /* leave when i + 1 == 4: every earlier test saw i + 1 != 4, so i < 4 */
  assert_int_equal(rotated("0", inc, "%c = icmp eq i32 %next, 4", 1),
                   AUCS_PROOF_RACE_FREE);
  assert_int_equal(rotated("0", inc, "%c = icmp eq i32 4, %next", 1),
                   AUCS_PROOF_RACE_FREE);
  /* without nuw/nsw i + 1 may wrap past 4: only the last test is known */
  assert_int_equal(rotated("0", "%next = add i32 %i, 1",
                           "%c = icmp eq i32 %next, 4", 1),
                   AUCS_PROOF_NONE);
  /* go on while i + 1 < 4 */
  assert_int_equal(rotated("0", inc, "%c = icmp ult i32 %next, 4", 0),
                   AUCS_PROOF_RACE_FREE);
  /* go on while i < 3: the test on the phi itself bounds the next value */
  assert_int_equal(rotated("0", inc, "%c = icmp ult i32 %i, 3", 0),
                   AUCS_PROOF_RACE_FREE);
  /* counting down from 3, leave after i == 0 */
  assert_int_equal(rotated("3", "%next = add nsw i32 %i, -1",
                           "%c = icmp eq i32 %i, 0", 1),
                   AUCS_PROOF_RACE_FREE);
  /* go on while i + 1 < 5: i reaches 4, thread t meets thread t + 1 */
  assert_int_equal(rotated("0", inc, "%c = icmp ult i32 %next, 5", 0),
                   AUCS_PROOF_NONE);
}

/* Thread 0 writes s[cur] in every round of a loop that updates cur with
 * UPDATE (defines %nc); every other thread reads s[2] after it. Race-free
 * exactly when cur never reaches 2. */
static aucs_static_proof toggled(const char *update) {
  char *ir = aucs_xasprintf(
      "@s = internal addrspace(3) global [4 x i32] undef\n"
      "define ptx_kernel void @k(ptr %%out) {\n"
      "entry:\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %%z = icmp eq i32 %%t, 0\n"
      "  br label %%loop\n"
      "loop:\n"
      "  %%cur = phi i32 [ 0, %%entry ], [ %%nc, %%latch ]\n"
      "  %%i = phi i32 [ 0, %%entry ], [ %%ni, %%latch ]\n"
      "  br i1 %%z, label %%w, label %%latch\n"
      "w:\n"
      "  %%p = getelementptr [4 x i32], ptr addrspace(3) @s, i32 0, i32 %%cur\n"
      "  store i32 1, ptr addrspace(3) %%p\n"
      "  br label %%latch\n"
      "latch:\n"
      "  %s\n"
      "  %%ni = add nuw nsw i32 %%i, 1\n"
      "  %%c = icmp ult i32 %%ni, 8\n"
      "  br i1 %%c, label %%loop, label %%done\n"
      "done:\n"
      "  %%q = getelementptr [4 x i32], ptr addrspace(3) @s, i32 0, i32 2\n"
      "  %%v = load i32, ptr addrspace(3) %%q\n"
      "  ret void\n"
      "}\n" DECLS,
      update);
  aucs_static_proof p = proof_of_ir(ir, "k", NULL);
  free(ir);
  return p;
}

static void test_static_toggled_phi(void **state) {
  (void)state;
  /* cur = 1 - cur, cur ^= 1: cur is 0 or 1 (double buffering) */
  assert_int_equal(toggled("%nc = sub i32 1, %cur"), AUCS_PROOF_RACE_FREE);
  assert_int_equal(toggled("%nc = xor i32 %cur, 1"), AUCS_PROOF_RACE_FREE);
  /* cur = 3 - cur: 0 or 3, never 2 */
  assert_int_equal(toggled("%nc = sub i32 3, %cur"), AUCS_PROOF_RACE_FREE);
  /* cur = 2 - cur: 0 or 2 */
  assert_int_not_equal(toggled("%nc = sub i32 2, %cur"),
                       AUCS_PROOF_RACE_FREE);
  /* cur + 1 reaches 2 */
  assert_int_not_equal(toggled("%nc = add nuw i32 %cur, 1"),
                       AUCS_PROOF_RACE_FREE);
}

/* @k writes s[h(tid)] through helper @h, defined by BODY. */
static aucs_static_proof via_helper(const char *body) {
  char *ir = aucs_xasprintf(
      "@s = internal addrspace(3) global [4096 x i32] undef\n"
      "define i32 @h(i32 %%x) {\n"
      "%s"
      "}\n"
      "define ptx_kernel void @k(ptr %%out) {\n"
      "entry:\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %%i = call i32 @h(i32 %%t)\n"
      "  %%p = getelementptr [4096 x i32], ptr addrspace(3) @s, i32 0, i32 %%i\n"
      "  store i32 1, ptr addrspace(3) %%p\n"
      "  ret void\n"
      "}\n" DECLS,
      body);
  aucs_static_proof p = proof_of_ir(ir, "k", NULL);
  free(ir);
  return p;
}

static void test_static_helper_results(void **state) {
  (void)state;
  /* h(x) = 2x: one slot a thread */
  assert_int_equal(via_helper("entry:\n"
                              "  %y = mul nuw i32 %x, 2\n"
                              "  ret i32 %y\n"),
                   AUCS_PROOF_RACE_FREE);
  /* h(x) = x / 2: two threads a slot */
  assert_int_not_equal(via_helper("entry:\n"
                                  "  %y = udiv i32 %x, 2\n"
                                  "  ret i32 %y\n"),
                       AUCS_PROOF_RACE_FREE);
  /* two returns: the result is not followed (a fresh value), never proven */
  assert_int_not_equal(via_helper("entry:\n"
                                  "  %c = icmp ult i32 %x, 5\n"
                                  "  br i1 %c, label %a, label %b\n"
                                  "a:\n"
                                  "  ret i32 %x\n"
                                  "b:\n"
                                  "  ret i32 %x\n"),
                       AUCS_PROOF_RACE_FREE);
}

/* @k calls @fill (BODY: stores s[t]) from every thread, then reads
 * s[tid + 1]. */
static aucs_static_proof after_fill(const char *body) {
  char *ir = aucs_xasprintf(
      "@s = internal addrspace(3) global [1025 x i32] undef\n"
      "define void @fill(i32 %%t) {\n"
      "entry:\n"
      "  %%p = getelementptr [1025 x i32], ptr addrspace(3) @s, i32 0, i32 %%t\n"
      "%s"
      "  ret void\n"
      "}\n"
      "define ptx_kernel void @k(ptr %%out) {\n"
      "entry:\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  call void @fill(i32 %%t)\n"
      "  %%u = add nuw i32 %%t, 1\n"
      "  %%q = getelementptr [1025 x i32], ptr addrspace(3) @s, i32 0, i32 %%u\n"
      "  %%v = load i32, ptr addrspace(3) %%q\n"
      "  ret void\n"
      "}\n" DECLS,
      body);
  aucs_static_proof p = proof_of_ir(ir, "k", NULL);
  free(ir);
  return p;
}

static void test_static_helper_ending_in_barrier(void **state) {
  (void)state;
  /* the helper's barrier follows its store: the read is ordered */
  assert_int_equal(
      after_fill("  store i32 1, ptr addrspace(3) %p\n"
                 "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"),
      AUCS_PROOF_RACE_FREE);
  /* the barrier comes first: store and read share an interval */
  assert_int_not_equal(
      after_fill("  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
                 "  store i32 1, ptr addrspace(3) %p\n"),
      AUCS_PROOF_RACE_FREE);
}

/* @k(n): under COND (defines %c) it stores s[tid] and waits at a barrier;
 * every thread then reads s[tid + 1]. A thread that skips the branch
 * reads in the interval of the stores only if another took it. */
static aucs_static_proof skip_barrier(const char *cond) {
  char *ir = aucs_xasprintf(
      "@s = internal addrspace(3) global [1025 x i32] undef\n"
      "define ptx_kernel void @k(ptr %%out, i32 %%n) {\n"
      "entry:\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %s\n"
      "  br i1 %%c, label %%body, label %%join\n"
      "body:\n"
      "  %%p = getelementptr [1025 x i32], ptr addrspace(3) @s, i32 0, i32 %%t\n"
      "  store i32 1, ptr addrspace(3) %%p\n"
      "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
      "  br label %%join\n"
      "join:\n"
      "  %%u = add nuw i32 %%t, 1\n"
      "  %%q = getelementptr [1025 x i32], ptr addrspace(3) @s, i32 0, i32 %%u\n"
      "  %%v = load i32, ptr addrspace(3) %%q\n"
      "  ret void\n"
      "}\n" DECLS,
      cond);
  aucs_static_proof p = proof_of_ir(ir, "k", NULL);
  free(ir);
  return p;
}

static void test_static_paths_from_the_interval_start(void **state) {
  (void)state;
  /* n > 0 is one value for the block: a thread that stored also waited
   * before any thread read */
  assert_int_equal(skip_barrier("%c = icmp sgt i32 %n, 0"),
                   AUCS_PROOF_RACE_FREE);
  /* blockDim.x > 127: the same for every thread of the block */
  assert_int_equal(skip_barrier("%d = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
                                "  %c = icmp ugt i32 %d, 127"),
                   AUCS_PROOF_RACE_FREE);
  /* tid > 5 differs between threads: thread 6 stores while thread 5,
   * having skipped the barrier, reads s[6] */
  assert_int_not_equal(skip_barrier("%c = icmp ugt i32 %t, 5"),
                       AUCS_PROOF_RACE_FREE);
}

/* s[tid] = ..; barrier; .. = s[tid + 1]; barrier (orders nothing). */
static const char *barriers =
    "@s = internal addrspace(3) global [1025 x i32] undef\n"
    "define ptx_kernel void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr [1025 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
    "  store i32 1, ptr addrspace(3) %p\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  %u = add i32 %t, 1\n"
    "  %q = getelementptr [1025 x i32], ptr addrspace(3) @s, i32 0, i32 %u\n"
    "  %v = load i32, ptr addrspace(3) %q\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  ret void\n"
    "}\n" DECLS;

static void test_static_barrier_redundancy(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(barriers);
  aucs_static *s = aucs_static_analyze(support_fn(m, "k"), &patient);
  assert_int_equal(aucs_static_nbarriers(s), 2);
  assert_int_equal(aucs_static_proof_of(s), AUCS_PROOF_RACE_FREE);
  /* the first orders s[t] before s[t + 1]; the second orders nothing */
  assert_false(aucs_static_barrier_redundant(s, aucs_static_barrier(s, 0)));
  assert_true(aucs_static_barrier_redundant(s, aucs_static_barrier(s, 1)));
  assert_true(aucs_static_prove_redundant(support_fn(m, "k"),
                                          aucs_static_barrier(s, 1), &patient));
  aucs_static_free(s);
  support_free(m);
}

/* A repair's proof (only_barrier) asks only the queries the barrier
 * separates: no pair of the kernel is solved, the other barrier is left
 * alone, and the verdicts are those of the full analysis. */
static void test_static_only_barrier_asks_its_own_queries(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(barriers);
  LLVMValueRef k = support_fn(m, "k");
  aucs_static *all = aucs_static_analyze(k, &patient);
  size_t asked_all = 0, asked = 0;
  aucs_static_stopped(all, &asked_all, NULL);
  for (size_t b = 0; b < 2; b++) {
    aucs_static_options o = patient;
    o.only_barrier = aucs_static_barrier(all, b);
    aucs_static *s = aucs_static_analyze(k, &o);
    aucs_static_stopped(s, &asked, NULL);
    assert_int_equal(aucs_static_npairs(s), 0);
    assert_true(asked < asked_all);
    assert_int_equal(aucs_static_barrier_redundant(s, o.only_barrier), b == 1);
    assert_false(aucs_static_barrier_redundant(s, aucs_static_barrier(s, !b)));
    aucs_static_free(s);
  }
  aucs_static_free(all);
  support_free(m);
}

/* A borrowed Z3 context (a repair's, aucs_static_options.smt) serves one
 * analysis after another: each gets the verdicts of an analysis with its
 * own context and counts its own queries, not the ones before it. */
static void test_static_shared_context_counts_each_analysis(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(barriers);
  LLVMValueRef k = support_fn(m, "k");
  aucs_static *own = aucs_static_analyze(k, &patient);
  aucs_static_options o = patient;
  o.smt = aucs_smt_new(0);
  for (int round = 0; round < 2; round++) {
    aucs_static *s = aucs_static_analyze(k, &o);
    assert_int_equal(aucs_static_stats(s)->queries,
                     aucs_static_stats(own)->queries);
    assert_int_equal(aucs_static_npairs(s), aucs_static_npairs(own));
    for (size_t b = 0; b < 2; b++)
      assert_int_equal(
          aucs_static_barrier_redundant(s, aucs_static_barrier(s, b)),
          aucs_static_barrier_redundant(own, aucs_static_barrier(own, b)));
    aucs_static_free(s);
  }
  aucs_smt_free(o.smt);
  aucs_static_free(own);
  support_free(m);
}

/* Thread-private memory makes no pair: a helper's byval copy, an alloca
 * passed to a helper, the kernel's byval struct (a struct parameter at
 * -O0). Followed to the call site, they were unknown pointers that could
 * be anything, so every write through one paired with every access. */
static const char *private_memory =
    "%struct.V = type { float, float }\n"
    "define void @h(ptr byval(%struct.V) align 4 %v) {\n"
    "entry:\n"
    "  store float 1.0, ptr %v\n"
    "  ret void\n"
    "}\n"
    "define void @g(ptr %q) {\n"
    "entry:\n"
    "  store float 2.0, ptr %q\n"
    "  ret void\n"
    "}\n"
    "define ptx_kernel void @k(ptr byval(%struct.V) align 4 %p) {\n"
    "entry:\n"
    "  %a = alloca %struct.V\n"
    "  call void @h(ptr byval(%struct.V) align 4 %a)\n"
    "  call void @g(ptr %a)\n"
    "  store float 3.0, ptr %p\n"
    "  %y = load float, ptr %p\n"
    "  ret void\n"
    "}\n" DECLS;

static void test_static_private_memory_makes_no_pair(void **state) {
  (void)state;
  LLVMModuleRef m = support_parse(private_memory);
  aucs_static *s = aucs_static_analyze(support_fn(m, "k"), &patient);
  assert_int_equal(aucs_static_npairs(s), 0);
  aucs_static_free(s);
  support_free(m);
}

static void test_static_witness_replays_as_confirmed_race(void **state) {
  (void)state;
  char *ir = indexed("  %i = add i32 %t, 1\n");
  LLVMModuleRef m = support_parse(ir);
  LLVMValueRef k = support_fn(m, "k");
  aucs_detect_options o = {.static_only = 1,
                           .smt_timeout = PATIENT_TIMEOUT_MS,
                           .static_budget = PATIENT_BUDGET_MS};
  aucs_report r;
  char *err = NULL;
  assert_int_equal(aucs_detect_run(m, &k, 1, &o, &r, &err), 0);
  const aucs_report_kernel *rk = &r.kernels[0];
  assert_true(rk->st.ran);
  assert_string_equal(rk->st.proof, "partial");
  assert_int_equal(rk->findings.n, 1);
  assert_int_equal(rk->findings.v[0].kind, AUCS_FINDING_RACE);
  assert_non_null(rk->st.witness[0]); /* confirmed by its witness */
  assert_int_equal(rk->st.possible.n, 0);
  assert_true(rk->runs >= 1);
  aucs_detect_report_free(&r);
  support_free(m);
  free(ir);
}

static void test_static_unconfirmed_witness_is_possible(void **state) {
  (void)state;
  /* under --may-alias a and b overlap when the host passes overlapping
   * buffers: the interpreter gives each its own, so the witness cannot
   * replay */
  const char *ir = "define ptx_kernel void @k(ptr %a, ptr %b) {\n"
                   "entry:\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  %p = getelementptr i32, ptr %a, i32 %t\n"
                   "  store i32 1, ptr %p\n"
                   "  %q = getelementptr i32, ptr %b, i32 %t\n"
                   "  %v = load i32, ptr %q\n"
                   "  ret void\n"
                   "}\n" DECLS;
  LLVMModuleRef m = support_parse(ir);
  LLVMValueRef k = support_fn(m, "k");
  aucs_detect_options o = {.static_only = 1,
                           .smt_timeout = PATIENT_TIMEOUT_MS,
                           .static_budget = PATIENT_BUDGET_MS,
                           .may_alias = 1};
  aucs_report r;
  char *err = NULL;
  assert_int_equal(aucs_detect_run(m, &k, 1, &o, &r, &err), 0);
  /* a[t] written by every block replays; the aliasing pair cannot */
  for (size_t i = 0; i < r.kernels[0].findings.n; i++)
    assert_int_equal(r.kernels[0].findings.v[i].kind,
                     AUCS_FINDING_INTER_BLOCK_RACE);
  assert_true(r.kernels[0].st.possible.n > 0);
  assert_int_equal(r.kernels[0].st.possible.v[0].kind, AUCS_FINDING_RACE);
  aucs_detect_report_free(&r);
  support_free(m);
}

/* @k writes s[blockIdx.x * blockDim.x + INDEX] (shared, i32: no pairs of
 * two blocks). */
static char *block_indexed(const char *index_ir) {
  return aucs_xasprintf(
      "@s = internal addrspace(3) global [4096 x i32] undef\n"
      "define ptx_kernel void @k() {\n"
      "entry:\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %%n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
      "  %%b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
      "  %%base = mul i32 %%b, %%n\n"
      "%s"
      "  %%g = add i32 %%base, %%i\n"
      "  %%p = getelementptr i32, ptr addrspace(3) @s, i32 %%g\n"
      "  store i32 1, ptr addrspace(3) %%p\n"
      "  ret void\n"
      "}\n" DECLS,
      index_ir);
}

/* The verdict of k's one pair within a block; its witness in *w. */
static aucs_static_verdict intra_block(const char *index_ir,
                                       aucs_static_witness *w) {
  char *ir = block_indexed(index_ir);
  LLVMModuleRef m = support_parse(ir);
  aucs_static *s = aucs_static_analyze(support_fn(m, "k"), &patient);
  aucs_static_verdict v = AUCS_STATIC_UNKNOWN;
  for (size_t i = 0; i < aucs_static_npairs(s); i++) {
    const aucs_static_pair *p = aucs_static_pair_at(s, i);
    if (!p->inter_block) {
      v = p->verdict;
      *w = p->witness;
      w->args = NULL;
    }
  }
  aucs_static_free(s);
  support_free(m);
  free(ir);
  return v;
}

static void test_static_one_block_shares_block_index(void **state) {
  (void)state;
  aucs_static_witness w;
  /* blockIdx.x * blockDim.x is one term for two threads of one block */
  assert_int_equal(intra_block("  %i = add i32 %t, 0\n", &w),
                   AUCS_STATIC_UNSAT);
  /* tid / 2: threads 2k and 2k + 1 write one element, in one block */
  assert_int_equal(intra_block("  %i = udiv i32 %t, 2\n", &w), AUCS_STATIC_SAT);
  assert_memory_equal(&w.block[0], &w.block[1], sizeof w.block[0]);
  assert_int_equal(w.thread[0].x / 2, w.thread[1].x / 2);
  assert_int_not_equal(w.thread[0].x, w.thread[1].x);
}

static void test_static_lane_id_is_linear_tid_mod_32(void **state) {
  (void)state;
  /* lane 5 writes s[0]: one thread in a block of one warp, two in a block
   * of two warps (threads 5 and 37) */
  const char *ir =
      "@s = internal addrspace(3) global [1 x i32] undef\n"
      "define ptx_kernel void @k() {\n"
      "entry:\n"
      "  %l = call i32 @llvm.nvvm.read.ptx.sreg.laneid()\n"
      "  %c = icmp eq i32 %l, 5\n"
      "  br i1 %c, label %w, label %x\n"
      "w:\n"
      "  store i32 1, ptr addrspace(3) @s\n"
      "  br label %x\n"
      "x:\n"
      "  ret void\n"
      "}\n"
      "declare i32 @llvm.nvvm.read.ptx.sreg.laneid()\n" DECLS;
  LLVMModuleRef m = support_parse(ir);
  aucs_static_options o = {.timeout_ms = PATIENT_TIMEOUT_MS,
                           .budget_ms = PATIENT_BUDGET_MS,
                           .fixed_block = 1,
                           .launch = {.grid = {1, 1, 1}, .block = {32, 1, 1}}};
  aucs_static *one = aucs_static_analyze(support_fn(m, "k"), &o);
  assert_int_equal(aucs_static_proof_of(one), AUCS_PROOF_RACE_FREE);
  aucs_static_free(one);
  o.launch.block.x = 64;
  aucs_static *two = aucs_static_analyze(support_fn(m, "k"), &o);
  assert_int_equal(aucs_static_proof_of(two), AUCS_PROOF_NONE);
  assert_int_equal(aucs_static_pair_at(two, 0)->witness.thread[0].x % 32, 5);
  assert_int_equal(aucs_static_pair_at(two, 0)->witness.thread[1].x % 32, 5);
  aucs_static_free(two);
  support_free(m);
}

/* @k writes s[tid], runs SYNC, then reads s[INDEX] (i32); @sw is the CUDA
 * SDK's __syncwarp at -O0, a helper around the intrinsic. */
static char *exchange(const char *sync_ir, const char *index_ir) {
  return aucs_xasprintf(
      "@s = internal addrspace(3) global [2048 x i32] undef\n"
      "define ptx_kernel void @k(i32 %%m) {\n"
      "entry:\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %%p = getelementptr [2048 x i32], ptr addrspace(3) @s, i32 0, i32 %%t\n"
      "  store i32 1, ptr addrspace(3) %%p\n"
      "%s%s"
      "  %%q = getelementptr [2048 x i32], ptr addrspace(3) @s, i32 0, i32 %%i\n"
      "  %%v = load i32, ptr addrspace(3) %%q\n"
      "  ret void\n"
      "}\n"
      "define internal void @sw(i32 %%mask) {\n"
      "entry:\n"
      "  call void @llvm.nvvm.bar.warp.sync(i32 %%mask)\n"
      "  ret void\n"
      "}\n"
      "declare void @llvm.nvvm.bar.warp.sync(i32)\n" DECLS,
      sync_ir, index_ir);
}

static aucs_static_proof proof_of_exchange(const char *sync_ir,
                                           const char *index_ir) {
  char *ir = exchange(sync_ir, index_ir);
  aucs_static_proof p = proof_of_ir(ir, "k", NULL);
  free(ir);
  return p;
}

#define SYNCWARP "  call void @llvm.nvvm.bar.warp.sync(i32 -1)\n"
/* s[(tid & ~31) + ((tid + 1) & 31)]: the next lane's slot, in one warp */
#define NEXT_LANE                                                              \
  "  %b = and i32 %t, -32\n"                                                   \
  "  %u = add i32 %t, 1\n"                                                     \
  "  %l = and i32 %u, 31\n"                                                    \
  "  %i = or i32 %b, %l\n"

static void test_static_syncwarp_orders_one_warp(void **state) {
  (void)state;
  assert_int_equal(proof_of_exchange("", NEXT_LANE), AUCS_PROOF_PARTIAL);
  assert_int_equal(proof_of_exchange(SYNCWARP, NEXT_LANE),
                   AUCS_PROOF_RACE_FREE);
  assert_int_equal(proof_of_exchange("  call void @sw(i32 -1)\n", NEXT_LANE),
                   AUCS_PROOF_RACE_FREE);
}

static void test_static_syncwarp_leaves_two_warps_unordered(void **state) {
  (void)state;
  /* s[tid ^ 32]: the same lane of the neighbouring warp */
  char *ir = exchange(SYNCWARP, "  %i = xor i32 %t, 32\n");
  LLVMModuleRef m = support_parse(ir);
  aucs_static *s = aucs_static_analyze(support_fn(m, "k"), &patient);
  assert_int_equal(aucs_static_proof_of(s), AUCS_PROOF_PARTIAL);
  for (size_t i = 0; i < aucs_static_npairs(s); i++) {
    const aucs_static_pair *p = aucs_static_pair_at(s, i);
    if (p->verdict == AUCS_STATIC_SAT)
      assert_int_not_equal(p->witness.thread[0].x / 32,
                           p->witness.thread[1].x / 32);
  }
  aucs_static_free(s);
  support_free(m);
  free(ir);
}

static void test_static_partial_syncwarp_separates_nothing(void **state) {
  (void)state;
  /* a mask the solver cannot see, half a warp, the helper with either */
  const char *syncs[] = {
      "  call void @llvm.nvvm.bar.warp.sync(i32 %m)\n",
      "  call void @llvm.nvvm.bar.warp.sync(i32 65535)\n",
      "  call void @sw(i32 %m)\n",
      "  call void @sw(i32 65535)\n",
  };
  for (size_t i = 0; i < sizeof syncs / sizeof *syncs; i++)
    assert_int_equal(proof_of_exchange(syncs[i], NEXT_LANE),
                     AUCS_PROOF_PARTIAL);
}

static void test_static_divergent_syncwarp_separates_nothing(void **state) {
  (void)state;
  assert_int_equal(proof_of_exchange("  %c = icmp ult i32 %t, 5\n"
                                     "  br i1 %c, label %w, label %x\n"
                                     "w:\n" SYNCWARP "  br label %x\n"
                                     "x:\n",
                                     NEXT_LANE),
                   AUCS_PROOF_PARTIAL);
}

/* In each iteration of a uniform loop, after a __syncwarp: s[tid] written,
 * s[tid ^ 1] read. The warp's interval (from the __syncwarp, one iteration
 * for both threads) differs in its loop modes from the block's (from the
 * entry, any iterations): it is asked too, for one warp. */
static const char *syncwarp_loop =
    "@s = internal addrspace(3) global [2048 x i32] undef\n"
    "define ptx_kernel void @k() {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %x = xor i32 %t, 1\n"
    "  br label %head\n"
    "head:\n"
    "  %i = phi i32 [ 0, %entry ], [ %next, %body ]\n"
    "  %c = icmp ult i32 %i, 4\n"
    "  br i1 %c, label %body, label %done\n"
    "body:\n" SYNCWARP
    "  %p = getelementptr [2048 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
    "  store i32 %i, ptr addrspace(3) %p\n"
    "  %q = getelementptr [2048 x i32], ptr addrspace(3) @s, i32 0, i32 %x\n"
    "  %v = load i32, ptr addrspace(3) %q\n"
    "  %next = add i32 %i, 1\n"
    "  br label %head\n"
    "done:\n"
    "  ret void\n"
    "}\n"
    "declare void @llvm.nvvm.bar.warp.sync(i32)\n" DECLS;

static void test_static_syncwarp_race_within_an_iteration(void **state) {
  (void)state;
  assert_int_equal(proof_of_ir(syncwarp_loop, "k", NULL), AUCS_PROOF_PARTIAL);
}

static void test_static_syncwarp_makes_barrier_redundant(void **state) {
  (void)state;
  /* after a __syncwarp, a barrier before the lane exchange orders only what
   * the __syncwarp does; before a read across warps it is needed */
  const char *index[] = {NEXT_LANE, "  %i = xor i32 %t, 32\n"};
  for (int k = 0; k < 2; k++) {
    char *ir = exchange(SYNCWARP "  call void "
                                 "@llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n",
                        index[k]);
    LLVMModuleRef m = support_parse(ir);
    aucs_static *s = aucs_static_analyze(support_fn(m, "k"), &patient);
    assert_int_equal(aucs_static_nbarriers(s), 1);
    assert_int_equal(aucs_static_proof_of(s), AUCS_PROOF_RACE_FREE);
    assert_int_equal(aucs_static_barrier_redundant(s, aucs_static_barrier(s, 0)),
                     k == 0);
    aucs_static_free(s);
    support_free(m);
    free(ir);
  }
}

/* Thread 0 writes s[n % 64], every thread s[t]: a race unless n % 64 is
 * 0, which the kernel assumes (ASSUME_AT: "entry" before the accesses,
 * "exit" after them, where it constrains nothing). */
static char *assuming(const char *at) {
  const char *call = "  call void @llvm.assume(i1 %ok)\n";
  int entry = !strcmp(at, "entry");
  return aucs_xasprintf(
      "@s = internal addrspace(3) global [2048 x i32] undef\n"
      "define ptx_kernel void @k(i32 %%n) {\n"
      "entry:\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %%r = urem i32 %%n, 64\n"
      "  %%ok = icmp eq i32 %%r, 0\n"
      "%s"
      "  %%p = getelementptr [2048 x i32], ptr addrspace(3) @s, i32 0, i32 %%t\n"
      "  store i32 1, ptr addrspace(3) %%p\n"
      "  %%z = icmp eq i32 %%t, 0\n"
      "  br i1 %%z, label %%first, label %%exit\n"
      "first:\n"
      "  %%q = getelementptr [2048 x i32], ptr addrspace(3) @s, i32 0, i32 %%r\n"
      "  store i32 2, ptr addrspace(3) %%q\n"
      "  br label %%exit\n"
      "exit:\n"
      "%s"
      "  ret void\n"
      "}\n"
      "declare void @llvm.assume(i1)\n" DECLS,
      entry ? call : "", entry ? "" : call);
}

static void test_static_assume_is_an_assumption(void **state) {
  (void)state;
  char *ir = assuming("entry");
  LLVMModuleRef m = support_parse(ir);
  aucs_static *s = aucs_static_analyze(support_fn(m, "k"), &patient);
  assert_int_equal(aucs_static_proof_of(s), AUCS_PROOF_RACE_FREE);
  assert_int_equal(aucs_static_nassumptions(s), 1);
  assert_true(LLVMIsACallInst(aucs_static_assumption(s, 0)));
  assert_null(aucs_static_assumption(s, 1));
  aucs_static_free(s);
  support_free(m);
  free(ir);
  /* after the accesses it holds at none of them */
  ir = assuming("exit");
  m = support_parse(ir);
  s = aucs_static_analyze(support_fn(m, "k"), &patient);
  assert_int_not_equal(aucs_static_proof_of(s), AUCS_PROOF_RACE_FREE);
  assert_int_equal(aucs_static_nassumptions(s), 0);
  aucs_static_free(s);
  support_free(m);
  free(ir);
}

/* @k: threads below 32 take %then, the others skip it; all write s[%a],
 * %a = phi [%u, %then], [OTHER, %entry], %u = tid. */
static aucs_static_proof joined(const char *other) {
  char *ir = aucs_xasprintf(
      "@s = internal addrspace(3) global [2048 x i32] undef\n"
      "define ptx_kernel void @k(ptr %%out) {\n"
      "entry:\n"
      "  %%t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  %%c = icmp ult i32 %%t, 32\n"
      "  br i1 %%c, label %%then, label %%join\n"
      "then:\n"
      "  %%u = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
      "  br label %%join\n"
      "join:\n"
      "  %%a = phi i32 [ %%u, %%then ], [ %s, %%entry ]\n"
      "  %%p = getelementptr [2048 x i32], ptr addrspace(3) @s, i32 0, i32 %%a\n"
      "  store i32 1, ptr addrspace(3) %%p\n"
      "  ret void\n"
      "}\n" DECLS,
      other);
  aucs_static_proof p = proof_of_ir(ir, "k", NULL);
  free(ir);
  return p;
}

static void test_static_undefined_phi_incoming(void **state) {
  (void)state;
  /* poison or undef may be any value: the phi is taken to be %u (a
   * flattened region's value reaching a later guard) */
  assert_int_equal(joined("poison"), AUCS_PROOF_RACE_FREE);
  assert_int_equal(joined("undef"), AUCS_PROOF_RACE_FREE);
  /* a defined value on the other edge is that edge's: every thread from 32
   * up writes s[0] */
  assert_int_not_equal(joined("0"), AUCS_PROOF_RACE_FREE);
  /* both edges give tid */
  assert_int_equal(joined("%t"), AUCS_PROOF_RACE_FREE);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_static_affine_indices),
      cmocka_unit_test(test_static_two_tid_is_race_free_but_reads_race),
      cmocka_unit_test(test_static_guarded_access),
      cmocka_unit_test(test_static_loop_with_affine_induction),
      cmocka_unit_test(test_static_grid_stride_loop),
      cmocka_unit_test(test_static_grid_stride_races_are_not_proven),
      cmocka_unit_test(test_static_small_limits_are_deterministic),
      cmocka_unit_test(test_static_2d_indexing),
      cmocka_unit_test(test_static_overlapping_widths),
      cmocka_unit_test(test_static_vector_access_is_its_full_width),
      cmocka_unit_test(test_static_extracted_lane_follows_its_insert),
      cmocka_unit_test(test_static_data_dependent_index_never_proven),
      cmocka_unit_test(test_static_distinct_arguments_overlap_only_if_asked),
      cmocka_unit_test(test_static_barrier_redundancy),
      cmocka_unit_test(test_static_only_barrier_asks_its_own_queries),
      cmocka_unit_test(test_static_shared_context_counts_each_analysis),
      cmocka_unit_test(test_static_private_memory_makes_no_pair),
      cmocka_unit_test(test_static_witness_replays_as_confirmed_race),
      cmocka_unit_test(test_static_unconfirmed_witness_is_possible),
      cmocka_unit_test(test_static_one_block_shares_block_index),
      cmocka_unit_test(test_static_lane_id_is_linear_tid_mod_32),
      cmocka_unit_test(test_static_rotated_loop_bounds),
      cmocka_unit_test(test_static_toggled_phi),
      cmocka_unit_test(test_static_helper_results),
      cmocka_unit_test(test_static_helper_ending_in_barrier),
      cmocka_unit_test(test_static_paths_from_the_interval_start),
      cmocka_unit_test(test_static_syncwarp_orders_one_warp),
      cmocka_unit_test(test_static_syncwarp_leaves_two_warps_unordered),
      cmocka_unit_test(test_static_partial_syncwarp_separates_nothing),
      cmocka_unit_test(test_static_divergent_syncwarp_separates_nothing),
      cmocka_unit_test(test_static_syncwarp_race_within_an_iteration),
      cmocka_unit_test(test_static_syncwarp_makes_barrier_redundant),
      cmocka_unit_test(test_static_assume_is_an_assumption),
      cmocka_unit_test(test_static_undefined_phi_incoming),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
