/*
 * test_vectors: vector values and multi-leaf values across calls in the
 * interpreter: one slot per lane, lane-wise arithmetic, extract / insert /
 * shuffle, bitcasts that regroup bits, vector loads and stores as one
 * access of their full width (lane i at byte i * its size), reductions,
 * calls passing and returning aggregates, byval helper arguments, and the
 * clean errors of what stays unsupported.
 */
#include "support.h"

#include "aucs/interp.h"
#include <llvm-c/Core.h>
#include <string.h>

typedef struct fx {
  LLVMModuleRef m;
  aucs_prog *p;
  aucs_run_result res;
} fx;

#define TID_DECL "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"

static void load_fx(fx *f, const char *ir) {
  memset(f, 0, sizeof *f);
  f->m = support_parse(ir);
  aucs_findings d = {0};
  int rc = aucs_interp_lower(support_fn(f->m, "k"), &f->p, &d);
  if (rc)
    print_error("lowering failed: %s\n", d.n ? d.v[0].message : "?");
  assert_int_equal(rc, 0);
  aucs_findings_free(&d);
}

/* Run @k with block threads of one block and args (may be NULL). */
static void run_fx(fx *f, unsigned block, const uint64_t *args) {
  aucs_run_config c = {0};
  c.launch.grid = (aucs_dim3){1, 1, 1};
  c.launch.block = (aucs_dim3){block, 1, 1};
  c.seed = 1;
  c.keep_memory = 1;
  c.args = args;
  aucs_run_status st = aucs_interp_run(f->p, &c, &f->res);
  if (st != AUCS_RUN_OK && f->res.error)
    print_message("run: %s\n", f->res.error);
  assert_int_equal(st, AUCS_RUN_OK);
}

static void free_fx(fx *f) {
  aucs_run_result_free(&f->res);
  aucs_prog_free(f->p);
  support_free(f->m);
}

static uint32_t out32(fx *f, size_t i) {
  uint32_t v = 0;
  assert_int_equal(aucs_run_read(&f->res, 0, i * 4, &v, 4), 0);
  return v;
}

static float outf(fx *f, size_t i) {
  float v = 0;
  assert_int_equal(aucs_run_read(&f->res, 0, i * 4, &v, 4), 0);
  return v;
}

static size_t count(const fx *f, aucs_finding_kind k) {
  size_t n = 0;
  for (size_t i = 0; i < f->res.findings.n; i++)
    n += f->res.findings.v[i].kind == k;
  return n;
}

/* Lowering @k of ir fails; the message holds want. */
static void unsupported(const char *ir, const char *want) {
  LLVMModuleRef m = support_parse(ir);
  aucs_findings d = {0};
  aucs_prog *p = NULL;
  assert_int_not_equal(aucs_interp_lower(support_fn(m, "k"), &p, &d), 0);
  assert_int_equal(d.n, 1);
  if (!strstr(d.v[0].message, want))
    fail_msg("message '%s' lacks '%s'", d.v[0].message, want);
  aucs_findings_free(&d);
  support_free(m);
}

/* ---- memory layout ---- */

static void test_vectors_store_load_lane_layout(void **state) {
  (void)state;
  fx f;
  load_fx(&f, "define void @k(ptr %out) {\n"
              "  %p = getelementptr i8, ptr %out, i64 16\n"
              "  store <4 x float> <float 1.0, float 2.0, float 3.0, "
              "float 4.0>, ptr %out, align 16\n"
              "  %v = load <4 x float>, ptr %out, align 16\n"
              "  %w = fadd <4 x float> %v, %v\n"
              "  store <4 x float> %w, ptr %p, align 16\n"
              "  %q = getelementptr i8, ptr %out, i64 32\n"
              "  store <2 x i16> <i16 258, i16 772>, ptr %q\n"
              "  ret void\n"
              "}\n");
  run_fx(&f, 1, NULL);
  for (int i = 0; i < 4; i++) {
    assert_true(outf(&f, i) == (float)(i + 1));
    assert_true(outf(&f, 4 + i) == (float)(2 * (i + 1)));
  }
  unsigned char b[4];
  assert_int_equal(aucs_run_read(&f.res, 0, 32, b, 4), 0);
  assert_int_equal(b[0], 2); /* lane 0 = 0x0102, little-endian */
  assert_int_equal(b[1], 1);
  assert_int_equal(b[2], 4);
  assert_int_equal(b[3], 3);
  free_fx(&f);
}

/* Thread 0 stores a float4 at s[0..3]; thread 1 reads s[arg]. */
static const char *float4_race_ir =
    "@s = internal addrspace(3) global [8 x float] undef, align 16\n"
    "define void @k(ptr %out, i32 %i) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %z = icmp eq i32 %t, 0\n"
    "  br i1 %z, label %w, label %r\n"
    "w:\n"
    "  store <4 x float> zeroinitializer, ptr addrspace(3) @s, align 16\n"
    "  ret void\n"
    "r:\n"
    "  %q = getelementptr float, ptr addrspace(3) @s, i32 %i\n"
    "  %v = load float, ptr addrspace(3) %q\n"
    "  store float %v, ptr %out\n"
    "  ret void\n"
    "}\n" TID_DECL;

static void test_vectors_store_races_with_its_third_lane(void **state) {
  (void)state;
  fx f;
  load_fx(&f, float4_race_ir);
  uint64_t args[] = {0, 2};
  run_fx(&f, 2, args);
  assert_int_equal(count(&f, AUCS_FINDING_RACE), 1);
  const aucs_finding *r = &f.res.findings.v[0];
  assert_int_equal(r->offset, 8);
  assert_int_equal(r->a.size + r->b.size, 20); /* the store is 16 bytes */
  free_fx(&f);
}

static void test_vectors_store_spares_the_next_16_bytes(void **state) {
  (void)state;
  fx f;
  load_fx(&f, float4_race_ir);
  uint64_t args[] = {0, 4};
  run_fx(&f, 2, args);
  assert_int_equal(count(&f, AUCS_FINDING_RACE), 0);
  free_fx(&f);
}

/* ---- lanes in registers ---- */

static void test_vectors_extract_insert_any_index(void **state) {
  (void)state;
  fx f;
  load_fx(&f,
          "define void @k(ptr %out, i32 %i, i64 %j) {\n"
          "  %v = insertelement <4 x i32> <i32 10, i32 11, i32 12, i32 13>, "
          "i32 99, i32 %i\n"
          "  %a = extractelement <4 x i32> %v, i64 %j\n"
          "  %b = extractelement <4 x i32> %v, i32 3\n"
          "  %c = extractelement <4 x i32> %v, i32 7\n"
          "  %w = insertelement <4 x i32> %v, i32 5, i32 0\n"
          "  %d = extractelement <4 x i32> %w, i32 0\n"
          "  %e = extractelement <4 x i32> %w, i32 %i\n"
          "  store i32 %a, ptr %out\n"
          "  %p1 = getelementptr i32, ptr %out, i32 1\n"
          "  store i32 %b, ptr %p1\n"
          "  %p2 = getelementptr i32, ptr %out, i32 2\n"
          "  store i32 %c, ptr %p2\n"
          "  %p3 = getelementptr i32, ptr %out, i32 3\n"
          "  store i32 %d, ptr %p3\n"
          "  %p4 = getelementptr i32, ptr %out, i32 4\n"
          "  store i32 %e, ptr %p4\n"
          "  ret void\n"
          "}\n");
  uint64_t args[] = {0, 2, 2};
  run_fx(&f, 1, args);
  assert_int_equal(out32(&f, 0), 99); /* lane 2 replaced, read back */
  assert_int_equal(out32(&f, 1), 13);
  assert_int_equal(out32(&f, 2), 0); /* out of range: poison, read as 0 */
  assert_int_equal(out32(&f, 3), 5);
  assert_int_equal(out32(&f, 4), 99);
  uint64_t past[] = {0, 9, 1};
  aucs_run_result_free(&f.res);
  run_fx(&f, 1, past);
  assert_int_equal(out32(&f, 0), 11); /* an insert past the end: no-op */
  free_fx(&f);
}

static void test_vectors_shuffle_constant_mask(void **state) {
  (void)state;
  fx f;
  load_fx(&f, "define void @k(ptr %out) {\n"
              "  %s = shufflevector <2 x i32> <i32 1, i32 2>, <2 x i32> "
              "<i32 3, i32 4>, <4 x i32> <i32 3, i32 0, i32 poison, i32 2>\n"
              "  store <4 x i32> %s, ptr %out\n"
              "  ret void\n"
              "}\n");
  run_fx(&f, 1, NULL);
  assert_int_equal(out32(&f, 0), 4);
  assert_int_equal(out32(&f, 1), 1);
  assert_int_equal(out32(&f, 2), 0);
  assert_int_equal(out32(&f, 3), 3);
  free_fx(&f);
}

static void test_vectors_arith_compare_select(void **state) {
  (void)state;
  fx f;
  load_fx(&f,
          "define void @k(ptr %out) {\n"
          "  %a = add <4 x i32> <i32 1, i32 2, i32 3, i32 4>, "
          "<i32 10, i32 10, i32 10, i32 10>\n"
          "  %m = mul <4 x i32> %a, splat (i32 2)\n"
          "  %c = icmp ult <4 x i32> %m, <i32 25, i32 25, i32 25, i32 25>\n"
          "  %s = select <4 x i1> %c, <4 x i32> %m, <4 x i32> zeroinitializer\n"
          "  store <4 x i32> %s, ptr %out\n"
          "  %f = sitofp <4 x i32> %s to <4 x float>\n"
          "  %g = fneg <4 x float> %f\n"
          "  %p = getelementptr i8, ptr %out, i64 16\n"
          "  store <4 x float> %g, ptr %p\n"
          "  %x = call <4 x i32> @llvm.smax.v4i32(<4 x i32> %s, "
          "<4 x i32> splat (i32 23))\n"
          "  %q = getelementptr i8, ptr %out, i64 32\n"
          "  store <4 x i32> %x, ptr %q\n"
          "  ret void\n"
          "}\n"
          "declare <4 x i32> @llvm.smax.v4i32(<4 x i32>, <4 x i32>)\n");
  run_fx(&f, 1, NULL);
  uint32_t want[] = {22, 24, 0, 0};
  for (int i = 0; i < 4; i++) {
    assert_int_equal(out32(&f, i), want[i]);
    assert_true(outf(&f, 4 + i) == -(float)want[i]);
    assert_int_equal(out32(&f, 8 + i), want[i] > 23 ? want[i] : 23);
  }
  free_fx(&f);
}

static void test_vectors_phi_in_a_loop(void **state) {
  (void)state;
  fx f;
  load_fx(&f, "define void @k(ptr %out) {\n"
              "entry:\n"
              "  br label %loop\n"
              "loop:\n"
              "  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]\n"
              "  %v = phi <2 x i32> [ <i32 1, i32 0>, %entry ], [ %w, %loop ]\n"
              "  %s = shufflevector <2 x i32> %v, <2 x i32> poison, "
              "<2 x i32> <i32 1, i32 0>\n"
              "  %w = add <2 x i32> %v, %s\n"
              "  %i1 = add i32 %i, 1\n"
              "  %d = icmp eq i32 %i1, 5\n"
              "  br i1 %d, label %end, label %loop\n"
              "end:\n"
              "  store <2 x i32> %w, ptr %out\n"
              "  ret void\n"
              "}\n");
  run_fx(&f, 1, NULL);
  /* (a, b) -> (a + b, b + a) each step: 1, 2, 4, 8, 16 */
  assert_int_equal(out32(&f, 0), 16);
  assert_int_equal(out32(&f, 1), 16);
  free_fx(&f);
}

static void test_vectors_bitcasts_regroup_bits(void **state) {
  (void)state;
  fx f;
  load_fx(&f, "define void @k(ptr %out, i64 %x) {\n"
              "  %v = bitcast i64 %x to <2 x i32>\n"
              "  %hi = extractelement <2 x i32> %v, i32 1\n"
              "  store i32 %hi, ptr %out\n"
              "  %w = insertelement <2 x i32> %v, i32 7, i32 0\n"
              "  %y = bitcast <2 x i32> %w to i64\n"
              "  %p = getelementptr i8, ptr %out, i64 8\n"
              "  store i64 %y, ptr %p\n"
              "  %b = bitcast i32 %hi to <4 x i8>\n"
              "  %b0 = extractelement <4 x i8> %b, i32 0\n"
              "  %q = getelementptr i8, ptr %out, i64 16\n"
              "  store i8 %b0, ptr %q\n"
              "  %m = bitcast i8 %b0 to <8 x i1>\n"
              "  %m2 = extractelement <8 x i1> %m, i32 2\n"
              "  %r = getelementptr i8, ptr %out, i64 17\n"
              "  store i1 %m2, ptr %r\n"
              "  ret void\n"
              "}\n");
  uint64_t args[] = {0, 0x1122334455667788ull};
  run_fx(&f, 1, args);
  assert_int_equal(out32(&f, 0), 0x11223344);
  uint64_t y = 0;
  aucs_run_read(&f.res, 0, 8, &y, 8);
  assert_int_equal(y, 0x1122334400000007ull);
  unsigned char b[2];
  aucs_run_read(&f.res, 0, 16, b, 2);
  assert_int_equal(b[0], 0x44);
  assert_int_equal(b[1], 1); /* 0x44: bit 2 set */
  free_fx(&f);
}

static void test_vectors_reductions(void **state) {
  (void)state;
  fx f;
  load_fx(&f, "define void @k(ptr %out) {\n"
              "  %a = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> "
              "<i32 1, i32 2, i32 3, i32 4>)\n"
              "  store i32 %a, ptr %out\n"
              "  %s = call float @llvm.vector.reduce.fadd.v2f32(float 0.5, "
              "<2 x float> <float 1.0, float 2.0>)\n"
              "  %p = getelementptr i32, ptr %out, i32 1\n"
              "  store float %s, ptr %p\n"
              "  %m = call i32 @llvm.vector.reduce.umax.v4i32(<4 x i32> "
              "<i32 1, i32 9, i32 3, i32 4>)\n"
              "  %q = getelementptr i32, ptr %out, i32 2\n"
              "  store i32 %m, ptr %q\n"
              "  ret void\n"
              "}\n"
              "declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)\n"
              "declare i32 @llvm.vector.reduce.umax.v4i32(<4 x i32>)\n"
              "declare float @llvm.vector.reduce.fadd.v2f32(float, "
              "<2 x float>)\n");
  run_fx(&f, 1, NULL);
  assert_int_equal(out32(&f, 0), 10);
  assert_true(outf(&f, 1) == 3.5f);
  assert_int_equal(out32(&f, 2), 9);
  free_fx(&f);
}

/* ---- aggregates across calls ---- */

static void test_vectors_calls_pass_and_return_aggregates(void **state) {
  (void)state;
  fx f;
  load_fx(&f, "%P = type { i32, float }\n"
              "define %P @make(i32 %a, <2 x i32> %v) {\n"
              "  %b = extractelement <2 x i32> %v, i32 1\n"
              "  %s = add i32 %a, %b\n"
              "  %f = sitofp i32 %s to float\n"
              "  %r0 = insertvalue %P poison, i32 %s, 0\n"
              "  %r1 = insertvalue %P %r0, float %f, 1\n"
              "  ret %P %r1\n"
              "}\n"
              "define i32 @first(%P %p, i32 %k) {\n"
              "  %x = extractvalue %P %p, 0\n"
              "  %y = add i32 %x, %k\n"
              "  ret i32 %y\n"
              "}\n"
              "define void @k(ptr %out) {\n"
              "  %p = call %P @make(i32 3, <2 x i32> <i32 0, i32 4>)\n"
              "  %f = extractvalue %P %p, 1\n"
              "  store float %f, ptr %out\n"
              "  %y = call i32 @first(%P %p, i32 100)\n"
              "  %q = getelementptr i32, ptr %out, i32 1\n"
              "  store i32 %y, ptr %q\n"
              "  store %P %p, ptr %out\n"
              "  %l = load { i8, i64 }, ptr %out\n"
              "  %l1 = extractvalue { i8, i64 } %l, 1\n"
              "  %r = getelementptr i8, ptr %out, i64 16\n"
              "  store i64 %l1, ptr %r\n"
              "  ret void\n"
              "}\n");
  run_fx(&f, 1, NULL);
  assert_int_equal(out32(&f, 0), 7); /* the aggregate store: i32 7 */
  assert_true(outf(&f, 1) == 7.0f);
  /* { i8, i64 } reads the i64 at byte 8 (after padding) */
  uint64_t l1 = 0;
  aucs_run_read(&f.res, 0, 16, &l1, 8);
  uint64_t at8 = 0;
  aucs_run_read(&f.res, 0, 8, &at8, 8);
  assert_int_equal(l1, at8);
  free_fx(&f);
}

static void test_vectors_first_call_result_before_store(void **state) {
  (void)state;
  fx f;
  load_fx(&f, "%P = type { i32, float }\n"
              "define %P @make(i32 %a) {\n"
              "  %f = sitofp i32 %a to float\n"
              "  %r0 = insertvalue %P poison, i32 %a, 0\n"
              "  %r1 = insertvalue %P %r0, float %f, 1\n"
              "  ret %P %r1\n"
              "}\n"
              "define i32 @first(%P %p, i32 %k) {\n"
              "  %x = extractvalue %P %p, 0\n"
              "  %y = add i32 %x, %k\n"
              "  ret i32 %y\n"
              "}\n"
              "define void @k(ptr %out) {\n"
              "  %p = call %P @make(i32 7)\n"
              "  %y = call i32 @first(%P %p, i32 100)\n"
              "  store i32 %y, ptr %out\n"
              "  ret void\n"
              "}\n");
  run_fx(&f, 1, NULL);
  assert_int_equal(out32(&f, 0), 107);
  free_fx(&f);
}

static void test_vectors_byval_helper_gets_a_copy(void **state) {
  (void)state;
  fx f;
  load_fx(&f, "%S = type { i32, i32 }\n"
              "define i32 @bump(ptr byval(%S) align 4 %s) {\n"
              "  %p = getelementptr %S, ptr %s, i32 0, i32 1\n"
              "  %v = load i32, ptr %p\n"
              "  %w = add i32 %v, 1\n"
              "  store i32 %w, ptr %p\n"
              "  %x = load i32, ptr %p\n"
              "  ret i32 %x\n"
              "}\n"
              "define void @k(ptr %out) {\n"
              "  %a = alloca %S\n"
              "  %p = getelementptr %S, ptr %a, i32 0, i32 1\n"
              "  store i32 41, ptr %p\n"
              "  %r = call i32 @bump(ptr byval(%S) align 4 %a)\n"
              "  store i32 %r, ptr %out\n"
              "  %after = load i32, ptr %p\n"
              "  %q = getelementptr i32, ptr %out, i32 1\n"
              "  store i32 %after, ptr %q\n"
              "  ret void\n"
              "}\n");
  run_fx(&f, 1, NULL);
  assert_int_equal(out32(&f, 0), 42); /* the helper saw 41, wrote 42 */
  assert_int_equal(out32(&f, 1), 41); /* into its own copy */
  free_fx(&f);
}

/* ---- what stays unsupported ---- */

static void test_vectors_limits_have_clean_errors(void **state) {
  (void)state;
  unsupported("define void @k(ptr %p) {\n"
              "  %q = getelementptr i32, ptr %p, <2 x i64> <i64 0, i64 1>\n"
              "  ret void\n"
              "}\n",
              "GEPs over vectors of pointers");
  unsupported("define void @k(ptr %p) {\n"
              "  store <4 x i1> zeroinitializer, ptr %p\n"
              "  ret void\n"
              "}\n",
              "vectors of i1 in memory");
  unsupported("define void @k(ptr %p) {\n"
              "  %v = call <4 x float> @llvm.masked.load.v4f32.p0(ptr %p, "
              "i32 4, <4 x i1> zeroinitializer, <4 x float> poison)\n"
              "  ret void\n"
              "}\n"
              "declare <4 x float> @llvm.masked.load.v4f32.p0(ptr, i32, "
              "<4 x i1>, <4 x float>)\n",
              "'llvm.masked.load.v4f32.p0'");
  unsupported("define void @k(ptr %p) {\n"
              "  %v = load <4 x half>, ptr %p\n"
              "  ret void\n"
              "}\n",
              "half-precision");
  unsupported("define void @k(ptr %p) {\n"
              "  %v = load <vscale x 4 x i32>, ptr %p\n"
              "  ret void\n"
              "}\n",
              "scalable vectors");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_vectors_store_load_lane_layout),
      cmocka_unit_test(test_vectors_store_races_with_its_third_lane),
      cmocka_unit_test(test_vectors_store_spares_the_next_16_bytes),
      cmocka_unit_test(test_vectors_extract_insert_any_index),
      cmocka_unit_test(test_vectors_shuffle_constant_mask),
      cmocka_unit_test(test_vectors_arith_compare_select),
      cmocka_unit_test(test_vectors_phi_in_a_loop),
      cmocka_unit_test(test_vectors_bitcasts_regroup_bits),
      cmocka_unit_test(test_vectors_reductions),
      cmocka_unit_test(test_vectors_calls_pass_and_return_aggregates),
      cmocka_unit_test(test_vectors_first_call_result_before_store),
      cmocka_unit_test(test_vectors_byval_helper_gets_a_copy),
      cmocka_unit_test(test_vectors_limits_have_clean_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
