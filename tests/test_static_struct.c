/*
 * test_static_struct: the Z3 checker on kernels that take their tensors as
 * structs passed by value (static_fields.c): a field is one symbol for
 * both threads (sizes, strides, offsets), a pointer field is an object of
 * its own (distinct from other fields and arguments unless may_alias), a
 * struct the kernel writes keeps its loads fresh, a helper that reads the
 * struct through a pointer is followed, the user's field values fix the
 * symbols, and barriers of such kernels are proven redundant or not.
 */
#include "support.h"

#include "aucs/static.h"
#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

/* Tensor: { float *ptr; int n, stride; } */
#define TENSOR "%T = type { ptr, i32, i32 }\n"
#define DECLS                                                                  \
  "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"                             \
  "declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"                           \
  "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n"

/* ir with its one "@X@" replaced by x. Free with free(). */
static char *with(const char *ir, const char *x) {
  const char *at = strstr(ir, "@X@");
  assert_non_null(at);
  return aucs_xasprintf("%.*s%s%s", (int)(at - ir), ir, x, at + 3);
}

static const aucs_static_options patient = {.timeout_ms = 600000u,
                                            .budget_ms = 3600000u};

typedef struct outcome {
  aucs_static_proof proof;
  size_t pairs, sat;
  int redundant; /* the kernel's first barrier is proven redundant */
} outcome;

static outcome analyze(const char *ir, const aucs_static_options *o) {
  LLVMModuleRef m = support_parse(ir);
  aucs_static *s = aucs_static_analyze(support_fn(m, "k"), o);
  aucs_static_counts c = aucs_static_counts_of(s);
  outcome r = {aucs_static_proof_of(s), c.total, c.sat, 0};
  if (aucs_static_nbarriers(s))
    r.redundant = aucs_static_barrier_redundant(s, aucs_static_barrier(s, 0));
  aucs_static_free(s);
  support_free(m);
  return r;
}

/* t.ptr[ctaid * t.stride + tid] written: one row per block. */
static const char *row_ir =
    TENSOR "define ptx_kernel void @k(ptr byval(%T) align 8 %t) {\n"
           "entry:\n"
           "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
           "  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
           "  %p = load ptr, ptr %t\n"
           "  %sp = getelementptr inbounds %T, ptr %t, i32 0, i32 2\n"
           "  %stride = load i32, ptr %sp\n"
           "  %row = mul i32 %b, %stride\n"
           "  %i = add i32 %row, %tid\n"
           "  %x = zext i32 %i to i64\n"
           "  %a = getelementptr float, ptr %p, i64 %x\n"
           "  store float 0.0, ptr %a\n"
           "  ret void\n"
           "}\n" DECLS;

static void test_static_struct_fields_are_one_value(void **state) {
  (void)state;
  /* within a block t.ptr and t.stride are the same for both threads, so
   * two threads write different elements (each thread's loads used to be
   * fresh values, and the pair SAT) */
  outcome r = analyze(row_ir, &patient);
  assert_int_equal(r.pairs, 2); /* one block, two blocks */
  /* two blocks meet when t.stride is below the block's threads */
  assert_int_equal(r.sat, 1);
  assert_int_equal(r.proof, AUCS_PROOF_PARTIAL);
}

/* dst[tid] = src[tid + 1], with src and dst pointer fields: "@X@" is
 * "%in, %out" (fields of two struct parameters), "%pp, %pp1" (two fields
 * of one) or "%pp, %pp" (one field). */
static const char *copy_ir = TENSOR
    "%P = type { ptr, ptr }\n"
    "define ptx_kernel void @k(ptr byval(%T) align 8 %out, ptr byval(%T) "
    "align 8 %in, ptr byval(%P) align 8 %pp) {\n"
    "entry:\n"
    "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %x = zext i32 %tid to i64\n"
    "  %x1 = add i64 %x, 1\n"
    "  %pp1 = getelementptr inbounds %P, ptr %pp, i32 0, i32 1\n"
    "  call void @copy(@X@, i64 %x, i64 %x1)\n"
    "  ret void\n"
    "}\n"
    "define internal void @copy(ptr %s, ptr %d, i64 %x, i64 %x1) "
    "alwaysinline {\n"
    "  %src = load ptr, ptr %s\n"
    "  %r = getelementptr float, ptr %src, i64 %x1\n"
    "  %v = load float, ptr %r\n"
    "  %dst = load ptr, ptr %d\n"
    "  %w = getelementptr float, ptr %dst, i64 %x\n"
    "  store float %v, ptr %w\n"
    "  ret void\n"
    "}\n" DECLS;

static outcome copy(const char *args, const aucs_static_options *o) {
  char *ir = with(copy_ir, args);
  outcome r = analyze(ir, o);
  free(ir);
  return r;
}

static void test_static_struct_pointer_fields_are_distinct(void **state) {
  (void)state;
  aucs_static_options alias = patient;
  alias.may_alias = 1;
  /* in.ptr and out.ptr: distinct buffers, the read pairs with nothing
   * (the store with itself: in one block, and in two) */
  assert_int_equal(copy("ptr %in, ptr %out", &patient).pairs, 2);
  /* two pointer fields of one struct: distinct too */
  assert_int_equal(copy("ptr %pp, ptr %pp1", &patient).pairs, 2);
  /* unless they may overlap: the shifted read pairs with the write */
  outcome r = copy("ptr %in, ptr %out", &alias);
  assert_int_equal(r.pairs, 4);
  assert_int_equal(r.sat, 3);
  /* one field, read and written: the race is found */
  r = copy("ptr %pp, ptr %pp", &patient);
  assert_int_equal(r.pairs, 4);
  assert_int_equal(r.sat, 3);
}

/* s[tid * t.n] written (t.n: the field at offset 8); "@X@" may write
 * the kernel's copy of t first. */
static const char *scaled_ir = TENSOR
    "@s = internal addrspace(3) global [4096 x i32] undef\n"
    "define ptx_kernel void @k(ptr byval(%T) align 8 %t) {\n"
    "entry:\n"
    "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %np = getelementptr inbounds %T, ptr %t, i32 0, i32 1\n"
    "@X@"
    "  %n = load i32, ptr %np\n"
    "  %i = mul nuw i32 %tid, %n\n"
    "  %p = getelementptr [4096 x i32], ptr addrspace(3) @s, i32 0, i32 %i\n"
    "  store i32 1, ptr addrspace(3) %p\n"
    "  ret void\n"
    "}\n" DECLS;

static void test_static_struct_user_field_values(void **state) {
  (void)state;
  char *ir = with(scaled_ir, "");
  /* t.n free: with t.n = 0 every thread writes s[0] */
  assert_int_equal(analyze(ir, &patient).proof, AUCS_PROOF_NONE);
  /* --arg t.n=2: each thread its own slot, for that value */
  aucs_static_field n = {.param = 0, .offset = 8, .bits = 32, .value = 2};
  aucs_static_options o = patient;
  o.fields = &n;
  o.nfields = 1;
  assert_int_equal(analyze(ir, &o).proof, AUCS_PROOF_RACE_FREE);
  free(ir);
  /* a kernel that writes its copy of t: its fields are fresh per thread
   * (the store gives each thread its own t.n) */
  ir = with(scaled_ir, "  store i32 %tid, ptr %np\n");
  assert_int_equal(analyze(ir, &o).proof, AUCS_PROOF_NONE);
  free(ir);
}

/* A helper reads t.n through a pointer to the kernel's copy (a `const T
 * &` parameter at -O0). */
static const char *helper_ir = TENSOR
    "@s = internal addrspace(3) global [4096 x i32] undef\n"
    "define i32 @get_n(ptr %q) {\n"
    "  %np = getelementptr inbounds %T, ptr %q, i32 0, i32 1\n"
    "  %n = load i32, ptr %np\n"
    "  ret i32 %n\n"
    "}\n"
    "define ptx_kernel void @k(ptr byval(%T) align 8 %t) {\n"
    "entry:\n"
    "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %n = call i32 @get_n(ptr %t)\n"
    "  %i = mul nuw i32 %tid, %n\n"
    "  %p = getelementptr [4096 x i32], ptr addrspace(3) @s, i32 0, i32 %i\n"
    "  store i32 1, ptr addrspace(3) %p\n"
    "  ret void\n"
    "}\n" DECLS;

static void test_static_struct_read_by_helper(void **state) {
  (void)state;
  aucs_static_field n = {.param = 0, .offset = 8, .bits = 32, .value = 2};
  aucs_static_options o = patient;
  o.fields = &n;
  o.nfields = 1;
  assert_int_equal(analyze(helper_ir, &o).proof, AUCS_PROOF_RACE_FREE);
}

/* tile[tid] = in.ptr[g]; barrier; out.ptr[g] = tile[j], g the global
 * index by in.stride; "@X@" computes j. */
static const char *tile_ir = TENSOR
    "@tile = internal addrspace(3) global [1024 x float] undef\n"
    "define ptx_kernel void @k(ptr byval(%T) align 8 %out, ptr byval(%T) "
    "align 8 %in) {\n"
    "entry:\n"
    "  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
    "  %sp = getelementptr inbounds %T, ptr %in, i32 0, i32 2\n"
    "  %stride = load i32, ptr %sp\n"
    "  %row = mul i32 %b, %stride\n"
    "  %g = add i32 %row, %tid\n"
    "  %gx = zext i32 %g to i64\n"
    "  %src = load ptr, ptr %in\n"
    "  %r = getelementptr float, ptr %src, i64 %gx\n"
    "  %v = load float, ptr %r\n"
    "  %tp = getelementptr [1024 x float], ptr addrspace(3) @tile, i32 0, "
    "i32 %tid\n"
    "  store float %v, ptr addrspace(3) %tp\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "@X@"
    "  %rp = getelementptr [1024 x float], ptr addrspace(3) @tile, i32 0, "
    "i32 %j\n"
    "  %u = load float, ptr addrspace(3) %rp\n"
    "  %dst = load ptr, ptr %out\n"
    "  %w = getelementptr float, ptr %dst, i64 %gx\n"
    "  store float %u, ptr %w\n"
    "  ret void\n"
    "}\n" DECLS;

static void test_static_struct_barrier_redundancy(void **state) {
  (void)state;
  /* each thread reads back its own tile slot: the barrier orders nothing,
   * and the proof goes through the structs' pointers and stride */
  char *ir = with(tile_ir, "  %j = add i32 %tid, 0\n");
  assert_true(analyze(ir, &patient).redundant);
  free(ir);
  /* a neighbour's slot: the barrier is needed */
  ir = with(tile_ir, "  %j = xor i32 %tid, 1\n");
  assert_false(analyze(ir, &patient).redundant);
  free(ir);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_static_struct_fields_are_one_value),
      cmocka_unit_test(test_static_struct_pointer_fields_are_distinct),
      cmocka_unit_test(test_static_struct_user_field_values),
      cmocka_unit_test(test_static_struct_read_by_helper),
      cmocka_unit_test(test_static_struct_barrier_redundancy),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
