/*
 * test_uniform_bytes: byte-precise private memory in the uniformity
 * analysis (uniform.c step 2, uniform_bytes.c): a struct in an alloca whose
 * uniform fields sit next to thread-varying ones, as a cooperative group
 * object does (type and size next to the thread's rank and mask).
 */
#include "support.h"

#include "aucs/uniform.h"
#include <string.h>

typedef struct fixture {
  LLVMModuleRef m;
  LLVMValueRef fn;
  aucs_cfg *cfg;
  aucs_uniformity *u;
} fixture;

static const char decls[] =
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
    "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\n"
    "declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)\n";

static fixture load(const char *body) {
  fixture f;
  char *ir = test_malloc(strlen(decls) + strlen(body) + 1);
  strcpy(ir, decls);
  strcat(ir, body);
  f.m = support_parse(ir);
  test_free(ir);
  f.fn = support_fn(f.m, "k");
  f.cfg = aucs_cfg_build(f.fn);
  f.u = aucs_uniform_compute(f.cfg);
  return f;
}

static void unload(fixture *f) {
  aucs_uniform_free(f->u);
  aucs_cfg_free(f->cfg);
  support_free(f->m);
}

static int uniform_block(const fixture *f, const char *name) {
  return aucs_uniform_block(f->u,
                            aucs_cfg_index(f->cfg, support_block(f->fn, name)));
}

static LLVMValueRef V(const fixture *f, const char *name) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f->fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i)) {
      size_t len;
      if (strcmp(LLVMGetValueName2(i, &len), name) == 0)
        return i;
    }
  print_error("no value %%%s in fixture\n", name);
  fail();
  return NULL;
}

static int varies(const fixture *f, const char *name) {
  return aucs_uniform_varying(f->u, V(f, name));
}

/* A group {i32 size, i32 rank} in an alloca: size = blockDim.x, rank =
 * threadIdx.x; a loop runs `size` times with a barrier inside. STORE2 is
 * an extra store into the object, at the end of the entry block. */
#define GROUP_LOOP(STORE2)                                                     \
  "define ptx_kernel void @k(ptr %out) {\n"                                    \
  "entry:\n"                                                                   \
  "  %g = alloca { i32, i32 }, align 4\n"                                      \
  "  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"                        \
  "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"                         \
  "  store i32 %n, ptr %g\n"                                                   \
  "  %rank.p = getelementptr inbounds { i32, i32 }, ptr %g, i32 0, i32 1\n"    \
  "  store i32 %t, ptr %rank.p\n" STORE2 "  br label %head\n"                  \
  "head:\n"                                                                    \
  "  %i = phi i32 [ 0, %entry ], [ %i1, %body ]\n"                             \
  "  %size = load i32, ptr %g\n"                                               \
  "  %c = icmp ult i32 %i, %size\n"                                            \
  "  br i1 %c, label %body, label %exit\n"                                     \
  "body:\n"                                                                    \
  "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"               \
  "  %i1 = add i32 %i, 1\n"                                                    \
  "  br label %head\n"                                                         \
  "exit:\n"                                                                    \
  "  %rank = load i32, ptr %rank.p\n"                                          \
  "  store i32 %rank, ptr %out\n"                                              \
  "  ret void\n"                                                               \
  "}\n"

/* The uniform field of a struct with a varying one stays uniform: the
 * loop over group.size() is uniform, its barrier safe. */
static void test_uniform_bytes_uniform_field_beside_varying(void **state) {
  (void)state;
  fixture f = load(GROUP_LOOP(""));
  assert_false(varies(&f, "size"));
  assert_true(uniform_block(&f, "body"));
  assert_true(varies(&f, "rank"));
  assert_string_equal(aucs_uniform_origin(f.u, V(&f, "rank")), "tid.x");
  unload(&f);
}

/* A thread-dependent store to the field makes it vary (no matter that
 * another store wrote a uniform value there): the loop diverges. */
static void test_uniform_bytes_varying_store_to_field(void **state) {
  (void)state;
  fixture f = load(GROUP_LOOP("  store i32 %t, ptr %g\n"));
  assert_true(varies(&f, "size"));
  assert_false(uniform_block(&f, "body"));
  unload(&f);
}

/* A varying store that overlaps the field by one byte taints it. */
static void test_uniform_bytes_overlapping_store(void **state) {
  (void)state;
  fixture f = load(GROUP_LOOP("  %b3 = getelementptr inbounds i8, ptr %g, "
                              "i64 3\n"
                              "  %t8 = trunc i32 %t to i8\n"
                              "  store i8 %t8, ptr %b3\n"));
  assert_true(varies(&f, "size"));
  unload(&f);
}

/* One 64-bit word packs a uniform low half (the size) and a varying high
 * half (the rank, shifted in): a load of the low half is uniform, of the
 * high half varying; a bit the constant mask keeps varying counts. */
static void test_uniform_bytes_packed_word(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %out) {\n"
                   "entry:\n"
                   "  %w = alloca i64, align 8\n"
                   "  %v = alloca i64, align 8\n"
                   "  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  %n64 = zext i32 %n to i64\n"
                   "  %t64 = zext i32 %t to i64\n"
                   "  %hi = shl i64 %t64, 32\n"
                   "  %word = or i64 %hi, %n64\n"
                   "  %p = inttoptr i64 %word to ptr\n"
                   "  store ptr %p, ptr %w\n"
                   "  %lo = load i32, ptr %w\n"
                   "  %w4 = getelementptr inbounds i8, ptr %w, i64 4\n"
                   "  %up = load i32, ptr %w4\n"
                   "  %leak = and i64 %word, 4294967296\n"
                   "  %keep = or i64 %leak, %n64\n"
                   "  store i64 %keep, ptr %v\n"
                   "  %vlo = load i32, ptr %v\n"
                   "  %v4 = getelementptr inbounds i8, ptr %v, i64 4\n"
                   "  %vup = load i8, ptr %v4\n"
                   "  %v5 = getelementptr inbounds i8, ptr %v, i64 5\n"
                   "  %vtop = load i8, ptr %v5\n"
                   "  %s = add i32 %lo, %up\n"
                   "  store i32 %s, ptr %out\n"
                   "  ret void\n"
                   "}\n");
  assert_false(varies(&f, "lo"));
  assert_true(varies(&f, "up"));
  assert_false(varies(&f, "vlo"));
  assert_true(varies(&f, "vup"));
  assert_false(varies(&f, "vtop"));
  unload(&f);
}

/* A struct built with insertvalue (SROA's first-class aggregates) and
 * taken apart with extractvalue before the store: the member's bits are
 * followed to the value inserted there. */
static void test_uniform_bytes_aggregate_members(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %out) {\n"
                   "entry:\n"
                   "  %g = alloca { i32, i32 }, align 4\n"
                   "  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  %a0 = insertvalue { i32, i32 } poison, i32 %n, 0\n"
                   "  %a1 = insertvalue { i32, i32 } %a0, i32 %t, 1\n"
                   "  %e0 = extractvalue { i32, i32 } %a1, 0\n"
                   "  %e1 = extractvalue { i32, i32 } %a1, 1\n"
                   "  store i32 %e0, ptr %g\n"
                   "  %g1 = getelementptr inbounds i8, ptr %g, i64 4\n"
                   "  store i32 %e1, ptr %g1\n"
                   "  %size = load i32, ptr %g\n"
                   "  %rank = load i32, ptr %g1\n"
                   "  %s = add i32 %size, %rank\n"
                   "  store i32 %s, ptr %out\n"
                   "  ret void\n"
                   "}\n");
  assert_false(varies(&f, "size"));
  assert_true(varies(&f, "rank"));
  unload(&f);
}

/* A byval copy (memcpy) of a group object keeps each byte's taint: the
 * copy's size is uniform, its rank varying; a copy of a wholly varying
 * object varies everywhere. */
static void test_uniform_bytes_memcpy_copies_taint(void **state) {
  (void)state;
  fixture f = load("declare void @ext(ptr)\n"
                   "define ptx_kernel void @k(ptr %out) {\n"
                   "entry:\n"
                   "  %g = alloca { i32, i32 }, align 4\n"
                   "  %c = alloca { i32, i32 }, align 4\n"
                   "  %e = alloca { i32, i32 }, align 4\n"
                   "  %d = alloca { i32, i32 }, align 4\n"
                   "  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  store i32 %n, ptr %g\n"
                   "  %g1 = getelementptr inbounds i8, ptr %g, i64 4\n"
                   "  store i32 %t, ptr %g1\n"
                   "  call void @llvm.memcpy.p0.p0.i64(ptr %c, ptr %g, i64 8, "
                   "i1 false)\n"
                   "  %size = load i32, ptr %c\n"
                   "  %c1 = getelementptr inbounds i8, ptr %c, i64 4\n"
                   "  %rank = load i32, ptr %c1\n"
                   "  store i32 %n, ptr %e\n"
                   "  call void @ext(ptr %e)\n"
                   "  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %e, i64 8, "
                   "i1 false)\n"
                   "  %dsize = load i32, ptr %d\n"
                   "  %s = add i32 %size, %rank\n"
                   "  %s2 = add i32 %s, %dsize\n"
                   "  store i32 %s2, ptr %out\n"
                   "  ret void\n"
                   "}\n");
  assert_false(varies(&f, "size"));
  assert_true(varies(&f, "rank"));
  assert_true(varies(&f, "dsize"));
  unload(&f);
}

/* A uniform value stored to the field in a divergent branch, or in a loop
 * whose exit diverges, makes the field vary: threads hold different
 * values after it. */
static void test_uniform_bytes_divergent_stores(void **state) {
  (void)state;
  fixture f =
      load("define ptx_kernel void @k(ptr %out) {\n"
           "entry:\n"
           "  %g = alloca { i32, i32 }, align 4\n"
           "  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
           "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
           "  store i32 %n, ptr %g\n"
           "  %g1 = getelementptr inbounds i8, ptr %g, i64 4\n"
           "  store i32 %n, ptr %g1\n"
           "  %c = icmp ult i32 %t, 4\n"
           "  br i1 %c, label %then, label %loop\n"
           "then:\n"
           "  store i32 7, ptr %g\n"
           "  br label %loop\n"
           "loop:\n"
           "  %i = phi i32 [ 0, %entry ], [ 0, %then ], [ %i1, %loop ]\n"
           "  store i32 %i, ptr %g1\n"
           "  %i1 = add i32 %i, 1\n"
           "  %more = icmp ult i32 %i1, %t\n"
           "  br i1 %more, label %loop, label %exit\n"
           "exit:\n"
           "  %size = load i32, ptr %g\n"
           "  %other = load i32, ptr %g1\n"
           "  %s = add i32 %size, %other\n"
           "  store i32 %s, ptr %out\n"
           "  ret void\n"
           "}\n");
  assert_true(varies(&f, "size"));
  assert_true(varies(&f, "other"));
  unload(&f);
}

/* The varying part of a stored word is found late (through a loop's back
 * edge): the store is looked at again and taints the high half too. */
static void test_uniform_bytes_late_varying_bits(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %out) {\n"
                   "entry:\n"
                   "  %w = alloca i64, align 8\n"
                   "  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  br label %head\n"
                   "head:\n"
                   "  %x = phi i32 [ %n, %entry ], [ %x1, %latch ]\n"
                   "  %i = phi i32 [ 0, %entry ], [ %i1, %latch ]\n"
                   "  %t64 = zext i32 %t to i64\n"
                   "  %x64 = zext i32 %x to i64\n"
                   "  %hi = shl i64 %x64, 32\n"
                   "  %word = or i64 %hi, %t64\n"
                   "  store i64 %word, ptr %w\n"
                   "  %c = icmp ult i32 %i, 4\n"
                   "  br i1 %c, label %latch, label %exit\n"
                   "latch:\n"
                   "  %x1 = add i32 %x, %t\n"
                   "  %i1 = add i32 %i, 1\n"
                   "  br label %head\n"
                   "exit:\n"
                   "  %w4 = getelementptr inbounds i8, ptr %w, i64 4\n"
                   "  %up = load i32, ptr %w4\n"
                   "  store i32 %up, ptr %out\n"
                   "  ret void\n"
                   "}\n");
  assert_true(varies(&f, "x"));
  assert_true(varies(&f, "up"));
  unload(&f);
}

/* The same in SSA form (the group object promoted out of memory): the
 * size bits taken out of the packed word are uniform, so the loop is;
 * the rank bits vary, and so does a field whose bits a varying value
 * reaches through a shift. */
static void test_uniform_bytes_ssa_bit_fields(void **state) {
  (void)state;
  fixture f =
      load("define ptx_kernel void @k(ptr %out) {\n"
           "entry:\n"
           "  %n = call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()\n"
           "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
           "  %n64 = zext i32 %n to i64\n"
           "  %t64 = zext i32 %t to i64\n"
           "  %hi = shl i64 %t64, 32\n"
           "  %word = or i64 %hi, %n64\n"
           "  %sizew = and i64 %word, 4294967295\n"
           "  %size = trunc i64 %sizew to i32\n"
           "  %rankw = lshr i64 %word, 32\n"
           "  %rank = trunc i64 %rankw to i32\n"
           "  %mixw = lshr i64 %word, 31\n"
           "  %mix = trunc i64 %mixw to i32\n"
           "  br label %head\n"
           "head:\n"
           "  %i = phi i32 [ 0, %entry ], [ %i1, %body ]\n"
           "  %c = icmp ult i32 %i, %size\n"
           "  br i1 %c, label %body, label %exit\n"
           "body:\n"
           "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
           "  %i1 = add i32 %i, 1\n"
           "  br label %head\n"
           "exit:\n"
           "  %s = add i32 %rank, %mix\n"
           "  store i32 %s, ptr %out\n"
           "  ret void\n"
           "}\n");
  assert_true(varies(&f, "word"));
  assert_false(varies(&f, "sizew"));
  assert_false(varies(&f, "size"));
  assert_true(uniform_block(&f, "body"));
  assert_true(varies(&f, "rank"));
  assert_true(varies(&f, "mix"));
  unload(&f);
}

/* A bit-field computed from uniform values inside a loop whose exit
 * diverges: threads leave after different iterations, so the value they
 * take out of the loop varies in every bit, through a narrowing trunc and
 * through memory; so does a word whose other bits varied already (the
 * iteration count shifted out of it varies too). */
static void test_uniform_bytes_loop_exit_value(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %out) {\n"
                   "entry:\n"
                   "  %w = alloca i32, align 4\n"
                   "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
                   "  br label %loop\n"
                   "loop:\n"
                   "  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]\n"
                   "  %field = and i32 %i, 255\n"
                   "  %tl = and i32 %t, 255\n"
                   "  %ih = shl i32 %i, 8\n"
                   "  %packed = or i32 %ih, %tl\n"
                   "  %i1 = add i32 %i, 1\n"
                   "  %more = icmp ult i32 %i1, %t\n"
                   "  br i1 %more, label %loop, label %exit\n"
                   "exit:\n"
                   "  %low = trunc i32 %field to i8\n"
                   "  %count = lshr i32 %packed, 8\n"
                   "  store i32 %field, ptr %w\n"
                   "  %back = load i32, ptr %w\n"
                   "  %l32 = zext i8 %low to i32\n"
                   "  %s0 = add i32 %back, %l32\n"
                   "  %s = add i32 %s0, %count\n"
                   "  store i32 %s, ptr %out\n"
                   "  ret void\n"
                   "}\n");
  assert_false(varies(&f, "i"));
  assert_true(varies(&f, "field"));
  assert_true(varies(&f, "low"));
  assert_true(varies(&f, "back"));
  assert_true(varies(&f, "count"));
  unload(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_uniform_bytes_uniform_field_beside_varying),
      cmocka_unit_test(test_uniform_bytes_varying_store_to_field),
      cmocka_unit_test(test_uniform_bytes_overlapping_store),
      cmocka_unit_test(test_uniform_bytes_packed_word),
      cmocka_unit_test(test_uniform_bytes_aggregate_members),
      cmocka_unit_test(test_uniform_bytes_memcpy_copies_taint),
      cmocka_unit_test(test_uniform_bytes_divergent_stores),
      cmocka_unit_test(test_uniform_bytes_late_varying_bits),
      cmocka_unit_test(test_uniform_bytes_ssa_bit_fields),
      cmocka_unit_test(test_uniform_bytes_loop_exit_value),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
