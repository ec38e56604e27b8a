/*
 * test_interp: instruction semantics, the SIMT schedule, and the race and
 * divergence checks of the interpreter (warp collectives, limits, bounds and
 * fills are in test_interp_limits.c). Expected values are worked out by
 * hand in the comments.
 */
#include "interp_fx.h"

#include "aucs/inputs.h"

/* ---- instruction semantics ---- */

static const char *ints_ir =
    "define void @k(ptr %out, i8 %a, i8 %b, i16 %c, i32 %d, i64 %e) {\n"
    "  %add8 = add i8 %a, %b\n"
    "  %z0 = zext i8 %add8 to i64\n"
    "  store i64 %z0, ptr %out\n"
    "  %mul16 = mul i16 %c, %c\n"
    "  %z1 = zext i16 %mul16 to i64\n"
    "  %p1 = getelementptr i64, ptr %out, i64 1\n"
    "  store i64 %z1, ptr %p1\n"
    "  %sub32 = sub i32 0, %d\n"
    "  %z2 = zext i32 %sub32 to i64\n"
    "  %p2 = getelementptr i64, ptr %out, i64 2\n"
    "  store i64 %z2, ptr %p2\n"
    "  %add64 = add i64 %e, 1\n"
    "  %p3 = getelementptr i64, ptr %out, i64 3\n"
    "  store i64 %add64, ptr %p3\n"
    "  %t = icmp ult i8 %a, %b\n"
    "  %x1 = xor i1 %t, true\n"
    "  %z4 = zext i1 %x1 to i64\n"
    "  %p4 = getelementptr i64, ptr %out, i64 4\n"
    "  store i64 %z4, ptr %p4\n"
    "  ret void\n"
    "}\n";

static void test_interp_integer_wraparound_at_each_width(void **state) {
  (void)state;
  fx f;
  load_fx(&f, ints_ir, "k");
  /* a=200 b=100 c=300 d=1 e=INT64_MAX */
  uint64_t args[] = {0, 200, 100, 300, 1, 0x7fffffffffffffffull};
  aucs_run_config c = config(1, 1);
  c.args = args;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(out64(&f, 0), 44);          /* 300 mod 256 */
  assert_int_equal(out64(&f, 1), 24464);       /* 90000 mod 65536 */
  assert_int_equal(out64(&f, 2), 0xffffffffu); /* 0 - 1 at 32 bits */
  assert_int_equal(out64(&f, 3), 0x8000000000000000ull);
  assert_int_equal(out64(&f, 4), 1); /* 200 <u 100 is false; xor true */
  free_fx(&f);
}

static const char *div_ir =
    "define void @k(ptr %out, i32 %m7, i32 %p7, i32 %m2, i32 %p2, i8 %u) {\n"
    "  %q0 = sdiv i32 %m7, %p2\n"
    "  %r0 = srem i32 %m7, %p2\n"
    "  %q1 = sdiv i32 %p7, %m2\n"
    "  %r1 = srem i32 %p7, %m2\n"
    "  %q2 = udiv i8 %u, 3\n"
    "  %r2 = urem i8 %u, 3\n"
    "  %s0 = sext i32 %q0 to i64\n"
    "  %s1 = sext i32 %r0 to i64\n"
    "  %s2 = sext i32 %q1 to i64\n"
    "  %s3 = sext i32 %r1 to i64\n"
    "  %s4 = zext i8 %q2 to i64\n"
    "  %s5 = zext i8 %r2 to i64\n"
    "  store i64 %s0, ptr %out\n"
    "  %o1 = getelementptr i64, ptr %out, i64 1\n"
    "  store i64 %s1, ptr %o1\n"
    "  %o2 = getelementptr i64, ptr %out, i64 2\n"
    "  store i64 %s2, ptr %o2\n"
    "  %o3 = getelementptr i64, ptr %out, i64 3\n"
    "  store i64 %s3, ptr %o3\n"
    "  %o4 = getelementptr i64, ptr %out, i64 4\n"
    "  store i64 %s4, ptr %o4\n"
    "  %o5 = getelementptr i64, ptr %out, i64 5\n"
    "  store i64 %s5, ptr %o5\n"
    "  ret void\n"
    "}\n";

static void test_interp_sdiv_srem_follow_the_dividend_sign(void **state) {
  (void)state;
  fx f;
  load_fx(&f, div_ir, "k");
  uint64_t args[] = {0, (uint32_t)-7, 7, (uint32_t)-2, 2, 200};
  aucs_run_config c = config(1, 1);
  c.args = args;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal((int64_t)out64(&f, 0), -3); /* -7 / 2 */
  assert_int_equal((int64_t)out64(&f, 1), -1); /* -7 % 2 */
  assert_int_equal((int64_t)out64(&f, 2), -3); /* 7 / -2 */
  assert_int_equal((int64_t)out64(&f, 3), 1);  /* 7 % -2 */
  assert_int_equal(out64(&f, 4), 66);          /* 200 / 3 */
  assert_int_equal(out64(&f, 5), 2);           /* 200 % 3 */
  free_fx(&f);
}

static void test_interp_division_by_zero_traps(void **state) {
  (void)state;
  fx f;
  load_fx(&f, div_ir, "k");
  uint64_t args[] = {0, 7, 7, 1, 0, 1}; /* %p2 = 0 */
  aucs_run_config c = config(1, 1);
  c.args = args;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_TRAP);
  assert_non_null(strstr(f.res.error, "division by zero"));
  free_fx(&f);
}

static const char *shift_ir = "define void @k(ptr %out, i8 %a, i8 %s) {\n"
                              "  %x = ashr i8 %a, %s\n"
                              "  %y = lshr i8 %a, %s\n"
                              "  %z = shl i8 %a, 1\n"
                              "  %x1 = zext i8 %x to i64\n"
                              "  %y1 = zext i8 %y to i64\n"
                              "  %z1 = zext i8 %z to i64\n"
                              "  store i64 %x1, ptr %out\n"
                              "  %o1 = getelementptr i64, ptr %out, i64 1\n"
                              "  store i64 %y1, ptr %o1\n"
                              "  %o2 = getelementptr i64, ptr %out, i64 2\n"
                              "  store i64 %z1, ptr %o2\n"
                              "  ret void\n"
                              "}\n";

static void test_interp_shifts_respect_width_and_sign(void **state) {
  (void)state;
  fx f;
  load_fx(&f, shift_ir, "k");
  uint64_t args[] = {0, 0x81, 3};
  aucs_run_config c = config(1, 1);
  c.args = args;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(out64(&f, 0), 0xF0); /* 0x81 = -127; -127 >> 3 = -16 */
  assert_int_equal(out64(&f, 1), 0x10); /* 129 >> 3 = 16 */
  assert_int_equal(out64(&f, 2), 0x02); /* 0x102 truncated */
  free_fx(&f);
}

static const char *float_ir =
    "define void @k(ptr %out, float %a, float %b, double %c) {\n"
    "  %s = fadd float %a, %b\n"
    "  store float %s, ptr %out\n"
    "  %d = fdiv double 1.0, %c\n"
    "  %o1 = getelementptr double, ptr %out, i64 1\n"
    "  store double %d, ptr %o1\n"
    "  %nan = fdiv float 0.0, 0.0\n"
    "  %lt = fcmp olt float %nan, %a\n"
    "  %un = fcmp uno float %nan, %a\n"
    "  %oge = fcmp oge double %c, 4.0\n"
    "  %b0 = zext i1 %lt to i64\n"
    "  %b1 = zext i1 %un to i64\n"
    "  %b2 = zext i1 %oge to i64\n"
    "  %o2 = getelementptr i64, ptr %out, i64 2\n"
    "  store i64 %b0, ptr %o2\n"
    "  %o3 = getelementptr i64, ptr %out, i64 3\n"
    "  store i64 %b1, ptr %o3\n"
    "  %o4 = getelementptr i64, ptr %out, i64 4\n"
    "  store i64 %b2, ptr %o4\n"
    "  %n = fneg float %a\n"
    "  %sq = call float @llvm.sqrt.f32(float %b)\n"
    "  %e = call float @__nv_expf(float 0.0)\n"
    "  %o5 = getelementptr float, ptr %out, i64 10\n"
    "  store float %n, ptr %o5\n"
    "  %o6 = getelementptr float, ptr %out, i64 11\n"
    "  store float %sq, ptr %o6\n"
    "  %o7 = getelementptr float, ptr %out, i64 12\n"
    "  store float %e, ptr %o7\n"
    "  ret void\n"
    "}\n"
    "declare float @llvm.sqrt.f32(float)\n"
    "declare float @__nv_expf(float)\n";

static uint64_t fbits(float x) {
  uint32_t u;
  memcpy(&u, &x, 4);
  return u;
}

static void test_interp_float_arithmetic_and_predicates(void **state) {
  (void)state;
  fx f;
  load_fx(&f, float_ir, "k");
  double four = 4.0;
  uint64_t dbits;
  memcpy(&dbits, &four, 8);
  uint64_t args[] = {0, fbits(1.5f), fbits(2.25f), dbits};
  aucs_run_config c = config(1, 1);
  c.args = args;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  float s;
  double d;
  assert_int_equal(aucs_run_read(&f.res, 0, 0, &s, 4), 0);
  assert_true(s == 3.75f);
  aucs_run_read(&f.res, 0, 8, &d, 8);
  assert_true(d == 0.25);
  assert_int_equal(out64(&f, 2), 0); /* olt with NaN */
  assert_int_equal(out64(&f, 3), 1); /* uno with NaN */
  assert_int_equal(out64(&f, 4), 1); /* 4.0 oge 4.0 */
  float n, sq, e;
  aucs_run_read(&f.res, 0, 40, &n, 4);
  aucs_run_read(&f.res, 0, 44, &sq, 4);
  aucs_run_read(&f.res, 0, 48, &e, 4);
  assert_true(n == -1.5f);
  assert_true(sq == 1.5f);
  assert_true(e == 1.0f);
  free_fx(&f);
}

static const char *cast_ir =
    "define void @k(ptr %out, float %f, i8 %b, i32 %w) {\n"
    "  %a = fptosi float %f to i32\n"
    "  %a1 = zext i32 %a to i64\n"
    "  store i64 %a1, ptr %out\n"
    "  %s = sitofp i8 %b to float\n"
    "  %o1 = getelementptr i64, ptr %out, i64 1\n"
    "  store float %s, ptr %o1\n"
    "  %t = trunc i32 %w to i8\n"
    "  %t1 = zext i8 %t to i64\n"
    "  %o2 = getelementptr i64, ptr %out, i64 2\n"
    "  store i64 %t1, ptr %o2\n"
    "  %z = zext i8 %b to i32\n"
    "  %z1 = zext i32 %z to i64\n"
    "  %o3 = getelementptr i64, ptr %out, i64 3\n"
    "  store i64 %z1, ptr %o3\n"
    "  %x = sext i8 %b to i32\n"
    "  %x1 = zext i32 %x to i64\n"
    "  %o4 = getelementptr i64, ptr %out, i64 4\n"
    "  store i64 %x1, ptr %o4\n"
    "  %e = fpext float %f to double\n"
    "  %r = fptrunc double %e to float\n"
    "  %o5 = getelementptr i64, ptr %out, i64 5\n"
    "  store float %r, ptr %o5\n"
    "  %u = uitofp i8 %b to double\n"
    "  %o6 = getelementptr i64, ptr %out, i64 6\n"
    "  store double %u, ptr %o6\n"
    "  %fu = fptoui float 3.5e0 to i8\n"
    "  %fu1 = zext i8 %fu to i64\n"
    "  %o7 = getelementptr i64, ptr %out, i64 7\n"
    "  store i64 %fu1, ptr %o7\n"
    "  ret void\n"
    "}\n";

static void test_interp_casts(void **state) {
  (void)state;
  fx f;
  load_fx(&f, cast_ir, "k");
  uint64_t args[] = {0, fbits(-3.7f), 0xFE, 0x1234};
  aucs_run_config c = config(1, 1);
  c.args = args;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(out64(&f, 0), 0xFFFFFFFDu); /* -3 at 32 bits */
  float s, r;
  double u;
  aucs_run_read(&f.res, 0, 8, &s, 4);
  assert_true(s == -2.0f); /* 0xFE as i8 */
  assert_int_equal(out64(&f, 2), 0x34);
  assert_int_equal(out64(&f, 3), 254);
  assert_int_equal(out64(&f, 4), 0xFFFFFFFEu);
  aucs_run_read(&f.res, 0, 40, &r, 4);
  assert_true(r == -3.7f);
  aucs_run_read(&f.res, 0, 48, &u, 8);
  assert_true(u == 254.0);
  assert_int_equal(out64(&f, 7), 3);
  free_fx(&f);
}

static const char *icmp_ir = "define void @k(ptr %out, i8 %a, i8 %b) {\n"
                             "  %c0 = icmp slt i8 %a, %b\n"
                             "  %c1 = icmp ult i8 %a, %b\n"
                             "  %c2 = icmp sgt i8 %a, %b\n"
                             "  %c3 = icmp ugt i8 %a, %b\n"
                             "  %c4 = icmp eq i8 %a, %b\n"
                             "  %c5 = icmp ne i8 %a, %b\n"
                             "  %c6 = icmp sle i8 %a, %a\n"
                             "  %c7 = icmp uge i8 %b, %a\n"
                             "  %v0 = zext i1 %c0 to i8\n"
                             "  %v1 = zext i1 %c1 to i8\n"
                             "  %v2 = zext i1 %c2 to i8\n"
                             "  %v3 = zext i1 %c3 to i8\n"
                             "  %v4 = zext i1 %c4 to i8\n"
                             "  %v5 = zext i1 %c5 to i8\n"
                             "  %v6 = zext i1 %c6 to i8\n"
                             "  %v7 = zext i1 %c7 to i8\n"
                             "  store i8 %v0, ptr %out\n"
                             "  %o1 = getelementptr i8, ptr %out, i64 1\n"
                             "  store i8 %v1, ptr %o1\n"
                             "  %o2 = getelementptr i8, ptr %out, i64 2\n"
                             "  store i8 %v2, ptr %o2\n"
                             "  %o3 = getelementptr i8, ptr %out, i64 3\n"
                             "  store i8 %v3, ptr %o3\n"
                             "  %o4 = getelementptr i8, ptr %out, i64 4\n"
                             "  store i8 %v4, ptr %o4\n"
                             "  %o5 = getelementptr i8, ptr %out, i64 5\n"
                             "  store i8 %v5, ptr %o5\n"
                             "  %o6 = getelementptr i8, ptr %out, i64 6\n"
                             "  store i8 %v6, ptr %o6\n"
                             "  %o7 = getelementptr i8, ptr %out, i64 7\n"
                             "  store i8 %v7, ptr %o7\n"
                             "  ret void\n"
                             "}\n";

static void test_interp_icmp_signed_and_unsigned(void **state) {
  (void)state;
  fx f;
  load_fx(&f, icmp_ir, "k");
  uint64_t args[] = {0, 0xFF, 1}; /* a = -1 (255 unsigned), b = 1 */
  aucs_run_config c = config(1, 1);
  c.args = args;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  unsigned char v[8];
  aucs_run_read(&f.res, 0, 0, v, 8);
  unsigned char want[8] = {1, 0, 0, 1, 0, 1, 1, 0};
  assert_memory_equal(v, want, 8);
  free_fx(&f);
}

static const char *phi_ir = "define void @k(ptr %out, i32 %n) {\n"
                            "entry:\n"
                            "  br label %loop\n"
                            "loop:\n"
                            "  %a = phi i32 [ 1, %entry ], [ %b, %loop ]\n"
                            "  %b = phi i32 [ 2, %entry ], [ %a, %loop ]\n"
                            "  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]\n"
                            "  %i1 = add i32 %i, 1\n"
                            "  %c = icmp slt i32 %i1, %n\n"
                            "  br i1 %c, label %loop, label %done\n"
                            "done:\n"
                            "  %big = icmp sgt i32 %a, %b\n"
                            "  %s = select i1 %big, i32 100, i32 200\n"
                            "  store i32 %a, ptr %out\n"
                            "  %o1 = getelementptr i32, ptr %out, i64 1\n"
                            "  store i32 %b, ptr %o1\n"
                            "  %o2 = getelementptr i32, ptr %out, i64 2\n"
                            "  store i32 %s, ptr %o2\n"
                            "  ret void\n"
                            "}\n";

static void test_interp_phi_swap_is_a_parallel_copy(void **state) {
  (void)state;
  fx f;
  load_fx(&f, phi_ir, "k");
  uint64_t args[] = {0, 4};
  aucs_run_config c = config(1, 1);
  c.args = args;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  uint32_t v[3];
  aucs_run_read(&f.res, 0, 0, v, 12);
  /* 4 iterations, 3 swaps taken back: (1,2) -> (2,1) -> (1,2) -> (2,1) */
  assert_int_equal(v[0], 2);
  assert_int_equal(v[1], 1);
  assert_int_equal(v[2], 100);
  free_fx(&f);
}

static const char *switch_ir =
    "define void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  switch i32 %t, label %other [ i32 0, label %zero\n"
    "                                i32 2, label %two ]\n"
    "zero:\n"
    "  br label %join\n"
    "two:\n"
    "  br label %join\n"
    "other:\n"
    "  br label %join\n"
    "join:\n"
    "  %v = phi i32 [ 10, %zero ], [ 20, %two ], [ 30, %other ]\n"
    "  %p = getelementptr i32, ptr %out, i32 %t\n"
    "  store i32 %v, ptr %p\n"
    "  ret void\n"
    "}\n" SREG_DECLS;

static void test_interp_switch_picks_case_or_default(void **state) {
  (void)state;
  fx f;
  load_fx(&f, switch_ir, "k");
  aucs_run_config c = config(1, 4);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  uint32_t v[4];
  aucs_run_read(&f.res, 0, 0, v, 16);
  assert_int_equal(v[0], 10);
  assert_int_equal(v[1], 30);
  assert_int_equal(v[2], 20);
  assert_int_equal(v[3], 30);
  free_fx(&f);
}

static const char *gep_ir =
    "%S = type { i8, i32, [4 x i16] }\n"
    "define void @k(ptr %out, i64 %i) {\n"
    "  %p = getelementptr %S, ptr %out, i64 1, i32 2, i64 %i\n"
    "  store i16 -16657, ptr %p\n" /* 0xBEEF */
    "  %q = getelementptr inbounds [2 x %S], ptr %out, i64 0, i64 1, i32 1\n"
    "  store i32 7, ptr %q\n"
    "  ret void\n"
    "}\n";

static void test_interp_gep_through_structs_and_arrays(void **state) {
  (void)state;
  fx f;
  load_fx(&f, gep_ir, "k");
  uint64_t args[] = {0, 3};
  aucs_run_config c = config(1, 1);
  c.args = args;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  /* sizeof(S) = 16; field 2 at 8; element 3 at +6: byte 30 */
  unsigned char b[2];
  aucs_run_read(&f.res, 0, 30, b, 2);
  assert_int_equal(b[0], 0xEF);
  assert_int_equal(b[1], 0xBE);
  /* element 1 of the array, field 1: 16 + 4 = 20 */
  uint32_t w;
  aucs_run_read(&f.res, 0, 20, &w, 4);
  assert_int_equal(w, 7);
  free_fx(&f);
}

static const char *call_ir =
    "define internal i32 @add1(i32 %x) {\n"
    "  %y = add i32 %x, 1\n"
    "  ret i32 %y\n"
    "}\n"
    "define internal i32 @sq(i32 %x) {\n"
    "  %slot = alloca i32\n"
    "  %a = call i32 @add1(i32 %x)\n"
    "  %m = mul i32 %a, %a\n"
    "  store i32 %m, ptr %slot\n"
    "  %r = load i32, ptr %slot\n"
    "  ret i32 %r\n"
    "}\n"
    "define void @k(ptr %out) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %v = call i32 @sq(i32 %t)\n"
    "  %w = call i32 @sq(i32 %v)\n"
    "  %p = getelementptr i32, ptr %out, i32 %t\n"
    "  store i32 %w, ptr %p\n"
    "  ret void\n"
    "}\n" SREG_DECLS;

static void test_interp_calls_use_a_stack(void **state) {
  (void)state;
  fx f;
  load_fx(&f, call_ir, "k");
  aucs_run_config c = config(1, 3);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  uint32_t v[3];
  aucs_run_read(&f.res, 0, 0, v, 12);
  /* t=0: sq(0)=1, sq(1)=4; t=1: sq(1)=4, sq(4)=25; t=2: 9, 100 */
  assert_int_equal(v[0], 4);
  assert_int_equal(v[1], 25);
  assert_int_equal(v[2], 100);
  free_fx(&f);
}

static const char *mem_ir =
    "@tab = addrspace(4) constant [4 x i8] c\"\\01\\02\\03\\04\"\n"
    "define void @k(ptr %out) {\n"
    "  call void @llvm.memset.p0.i64(ptr %out, i8 -85, i64 8, i1 false)\n"
    "  %d = getelementptr i8, ptr %out, i64 8\n"
    "  %src = addrspacecast ptr addrspace(4) @tab to ptr\n"
    "  call void @llvm.memcpy.p0.p0.i64(ptr %d, ptr %src, i64 4, i1 false)\n"
    "  %m = getelementptr i8, ptr %out, i64 9\n"
    "  call void @llvm.memmove.p0.p0.i64(ptr %m, ptr %d, i64 3, i1 false)\n"
    "  ret void\n"
    "}\n"
    "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)\n"
    "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)\n"
    "declare void @llvm.memmove.p0.p0.i64(ptr, ptr, i64, i1)\n";

static void test_interp_memset_memcpy_memmove(void **state) {
  (void)state;
  fx f;
  load_fx(&f, mem_ir, "k");
  aucs_run_config c = config(1, 1);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  unsigned char b[13];
  aucs_run_read(&f.res, 0, 0, b, 13);
  unsigned char want[13] = {0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB, 0xAB,
                            0xAB, 1,    1,    2,    3,    0};
  /* memmove of 1 2 3 one byte up: 1 1 2 3; byte 12 was never written */
  assert_memory_equal(b, want, 12);
  free_fx(&f);
}

/* ---- atomics, races, barriers ---- */

static const char *atomic_ir =
    "@acc = addrspace(3) global i32 0\n"
    "define void @k(ptr %out) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %v = add i32 %t, 1\n"
    "  %old = atomicrmw add ptr addrspace(3) @acc, i32 %v monotonic\n"
    "  %x = cmpxchg ptr addrspace(3) @acc, i32 -1, i32 0 monotonic "
    "monotonic\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  %is0 = icmp eq i32 %t, 0\n"
    "  br i1 %is0, label %w, label %e\n"
    "w:\n"
    "  %s = load i32, ptr addrspace(3) @acc\n"
    "  store i32 %s, ptr %out\n"
    "  br label %e\n"
    "e:\n"
    "  ret void\n"
    "}\n" SREG_DECLS;

static void test_interp_atomic_add_sums_exactly_without_race(void **state) {
  (void)state;
  fx f;
  load_fx(&f, atomic_ir, "k");
  aucs_run_config c = config(1, 64);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  uint32_t s;
  aucs_run_read(&f.res, 0, 0, &s, 4);
  assert_int_equal(s, 64 * 65 / 2);
  assert_int_equal(f.res.findings.n, 0);
  assert_int_equal(f.res.barrier_passes[0], 64);
  /* atomics before, a plain load after: the barrier ordered them */
  assert_int_equal(f.res.barrier_ordered[0], 1);
  free_fx(&f);
}

/* s[t] = t; [barrier;] out[t] = s[t + 1] (the last thread reads s[0]) */
#define NEIGHBOUR_IR(BARRIER)                                                  \
  "@s = internal addrspace(3) global [64 x i32] undef\n"                       \
  "define void @k(ptr %out) {\n"                                               \
  "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"                         \
  "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"      \
  "  store i32 %t, ptr addrspace(3) %p\n" BARRIER "  %t1 = add i32 %t, 1\n"    \
  "  %n = and i32 %t1, 31\n"                                                   \
  "  %q = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %n\n"      \
  "  %v = load i32, ptr addrspace(3) %q\n"                                     \
  "  %o = getelementptr i32, ptr %out, i32 %t\n"                               \
  "  store i32 %v, ptr %o\n"                                                   \
  "  ret void\n"                                                               \
  "}\n" SREG_DECLS

static void test_interp_shared_race_names_both_accesses(void **state) {
  (void)state;
  fx f;
  load_fx(&f, NEIGHBOUR_IR(""), "k");
  aucs_run_config c = config(1, 32);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(count(&f, AUCS_FINDING_RACE), 1);
  const aucs_finding *r = first(&f, AUCS_FINDING_RACE);
  LLVMValueRef st = nth(&f, "k", LLVMStore, 0), ld = nth(&f, "k", LLVMLoad, 0);
  /* thread 0 reads s[1] before thread 1 writes it */
  assert_ptr_equal(r->a.instr, ld);
  assert_ptr_equal(r->b.instr, st);
  assert_int_equal(r->a.thread.x, 0);
  assert_int_equal(r->b.thread.x, 1);
  assert_int_equal(r->a.op, AUCS_OP_READ);
  assert_int_equal(r->b.op, AUCS_OP_WRITE);
  assert_int_equal(r->memory, AUCS_MEM_SHARED);
  assert_string_equal(r->object, "s");
  assert_int_equal(r->offset, 4);
  assert_int_equal(r->a.size, 4);
  free_fx(&f);
}

static void test_interp_barrier_removes_race_and_is_needed(void **state) {
  (void)state;
  fx f;
  load_fx(&f,
          NEIGHBOUR_IR(
              "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"),
          "k");
  aucs_run_config c = config(1, 32);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(f.res.findings.n, 0);
  assert_int_equal(aucs_prog_nbarriers(f.p), 1);
  assert_int_equal(f.res.barrier_passes[0], 32);
  assert_int_equal(f.res.barrier_ordered[0], 1);
  uint32_t v[32];
  aucs_run_read(&f.res, 0, 0, v, sizeof v);
  assert_int_equal(v[0], 1);
  assert_int_equal(v[31], 0);
  free_fx(&f);
}

static const char *own_slot_ir =
    "@s = internal addrspace(3) global [64 x i32] undef\n"
    "define void @k(ptr %out) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 %t\n"
    "  store i32 %t, ptr addrspace(3) %p\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  %v = load i32, ptr addrspace(3) %p\n"
    "  %o = getelementptr i32, ptr %out, i32 %t\n"
    "  store i32 %v, ptr %o\n"
    "  ret void\n"
    "}\n" SREG_DECLS;

static void test_interp_redundant_barrier_orders_nothing(void **state) {
  (void)state;
  fx f;
  load_fx(&f, own_slot_ir, "k");
  aucs_run_config c = config(1, 64);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(f.res.findings.n, 0);
  assert_int_equal(f.res.barrier_passes[0], 64);
  assert_int_equal(f.res.barrier_ordered[0], 0);
  free_fx(&f);
}

static const char *diverge_ir =
    "define void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %c = icmp ult i32 %t, 16\n"
    "  br i1 %c, label %then, label %end\n"
    "then:\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  br label %end\n"
    "end:\n"
    "  ret void\n"
    "}\n" SREG_DECLS;

static void test_interp_barrier_in_divergent_branch(void **state) {
  (void)state;
  fx f;
  load_fx(&f, diverge_ir, "k");
  aucs_run_config c = config(1, 32);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(count(&f, AUCS_FINDING_BARRIER_DIVERGENCE), 1);
  const aucs_finding *d = first(&f, AUCS_FINDING_BARRIER_DIVERGENCE);
  assert_ptr_equal(d->a.instr, nth(&f, "k", LLVMCall, 1));
  assert_ptr_equal(d->b.instr, nth(&f, "k", LLVMRet, 0));
  assert_int_equal(d->a.thread.x, 0);
  assert_int_equal(d->b.thread.x, 16);
  /* released anyway: the waiting threads finish */
  assert_int_equal(f.res.barrier_passes[0], 16);
  free_fx(&f);
}

static const char *exit_ir =
    "@s = internal addrspace(3) global [64 x i32] undef\n"
    "define void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %c = icmp eq i32 %t, 0\n"
    "  br i1 %c, label %early, label %body\n"
    "early:\n"
    "  ret void\n"
    "body:\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  ret void\n"
    "}\n" SREG_DECLS;

static void test_interp_exited_thread_diverges(void **state) {
  (void)state;
  fx f;
  load_fx(&f, exit_ir, "k");
  aucs_run_config c = config(1, 8);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  const aucs_finding *d = first(&f, AUCS_FINDING_BARRIER_DIVERGENCE);
  assert_ptr_equal(d->a.instr, nth(&f, "k", LLVMCall, 1));
  assert_int_equal(d->a.thread.x, 1);
  assert_ptr_equal(d->b.instr, nth(&f, "k", LLVMRet, 0));
  assert_int_equal(d->b.thread.x, 0);
  free_fx(&f);
}

static const char *two_barriers_ir =
    "define void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %c = icmp ult i32 %t, 4\n"
    "  br i1 %c, label %a, label %b\n"
    "a:\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  br label %end\n"
    "b:\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  br label %end\n"
    "end:\n"
    "  ret void\n"
    "}\n" SREG_DECLS;

static void test_interp_different_barriers_diverge(void **state) {
  (void)state;
  fx f;
  load_fx(&f, two_barriers_ir, "k");
  aucs_run_config c = config(1, 8);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(count(&f, AUCS_FINDING_BARRIER_DIVERGENCE), 1);
  const aucs_finding *d = first(&f, AUCS_FINDING_BARRIER_DIVERGENCE);
  assert_ptr_equal(d->a.instr, nth(&f, "k", LLVMCall, 1));
  assert_ptr_equal(d->b.instr, nth(&f, "k", LLVMCall, 2));
  assert_int_equal(d->a.thread.x, 0);
  assert_int_equal(d->b.thread.x, 4);
  free_fx(&f);
}

static const char *three_barriers_ir =
    "define void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  switch i32 %t, label %c [ i32 0, label %a\n"
    "                            i32 1, label %b ]\n"
    "a:\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  br label %end\n"
    "b:\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  br label %end\n"
    "c:\n"
    "  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)\n"
    "  br label %end\n"
    "end:\n"
    "  ret void\n"
    "}\n" SREG_DECLS;

/* Threads at three barriers: each of them is part of a finding. */
static void test_interp_every_divergent_barrier_is_named(void **state) {
  (void)state;
  fx f;
  load_fx(&f, three_barriers_ir, "k");
  aucs_run_config c = config(1, 8);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(count(&f, AUCS_FINDING_BARRIER_DIVERGENCE), 2);
  int named[3] = {0};
  for (size_t i = 0; i < f.res.findings.n; i++)
    for (int k = 0; k < 3; k++) {
      LLVMValueRef bar = nth(&f, "k", LLVMCall, k + 1);
      named[k] |= f.res.findings.v[i].a.instr == bar ||
                  f.res.findings.v[i].b.instr == bar;
    }
  assert_true(named[0] && named[1] && named[2]);
  free_fx(&f);
}

static const char *blocks_ir =
    "define void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()\n"
    "  %c = icmp eq i32 %t, 0\n"
    "  br i1 %c, label %w, label %e\n"
    "w:\n"
    "  store i32 %b, ptr %out\n"
    "  br label %e\n"
    "e:\n"
    "  ret void\n"
    "}\n" SREG_DECLS;

static void test_interp_inter_block_race(void **state) {
  (void)state;
  fx f;
  load_fx(&f, blocks_ir, "k");
  aucs_run_config c = config(3, 32);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(count(&f, AUCS_FINDING_RACE), 0);
  assert_int_equal(count(&f, AUCS_FINDING_INTER_BLOCK_RACE), 1);
  const aucs_finding *r = first(&f, AUCS_FINDING_INTER_BLOCK_RACE);
  assert_int_equal(r->a.block.x, 0);
  assert_int_equal(r->b.block.x, 1);
  assert_int_equal(r->memory, AUCS_MEM_GLOBAL);
  assert_string_equal(r->object, "out");
  uint32_t v;
  aucs_run_read(&f.res, 0, 0, &v, 4);
  assert_int_equal(v, 2); /* blocks run in order */
  free_fx(&f);
}

static const char *self_ir =
    "@s = internal addrspace(3) global i32 undef\n"
    "define void @k(ptr %out) {\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  store i32 %t, ptr addrspace(3) @s\n"
    "  ret void\n"
    "}\n" SREG_DECLS;

static void test_interp_store_races_with_itself(void **state) {
  (void)state;
  fx f;
  load_fx(&f, self_ir, "k");
  aucs_run_config c = config(1, 32);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(f.res.findings.n, 1);
  const aucs_finding *r = first(&f, AUCS_FINDING_RACE);
  assert_ptr_equal(r->a.instr, r->b.instr);
  assert_int_equal(r->a.thread.x, 0);
  assert_int_equal(r->b.thread.x, 1);
  free_fx(&f);
}

static const char *widths_ir =
    "@s = internal addrspace(3) global [2 x i32] undef\n"
    "define void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %c = icmp eq i32 %t, 0\n"
    "  br i1 %c, label %w, label %r\n"
    "w:\n"
    "  store i32 -1, ptr addrspace(3) @s\n"
    "  br label %e\n"
    "r:\n"
    "  %p = getelementptr i8, ptr addrspace(3) @s, i32 2\n"
    "  %v = load i8, ptr addrspace(3) %p\n"
    "  %q = getelementptr i8, ptr addrspace(3) @s, i32 4\n"
    "  %u = load i8, ptr addrspace(3) %q\n"
    "  br label %e\n"
    "e:\n"
    "  ret void\n"
    "}\n" SREG_DECLS;

static void test_interp_overlapping_widths_race(void **state) {
  (void)state;
  fx f;
  load_fx(&f, widths_ir, "k");
  aucs_run_config c = config(1, 2);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  /* the i8 load of byte 2 overlaps the i32 store; byte 4 does not */
  assert_int_equal(count(&f, AUCS_FINDING_RACE), 1);
  const aucs_finding *r = first(&f, AUCS_FINDING_RACE);
  assert_ptr_equal(r->a.instr, nth(&f, "k", LLVMStore, 0));
  assert_ptr_equal(r->b.instr, nth(&f, "k", LLVMLoad, 0));
  assert_int_equal(r->offset, 2);
  assert_int_equal(r->a.size, 4);
  assert_int_equal(r->b.size, 1);
  free_fx(&f);
}

/* Threads 0, 1 and 32 write s. */
static const char *warp_ir =
    "@s = internal addrspace(3) global i32 undef\n"
    "define void @k(ptr %out) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %c = icmp ult i32 %t, 2\n"
    "  br i1 %c, label %w, label %x\n"
    "w:\n"
    "  store i32 %t, ptr addrspace(3) @s\n"
    "  br label %x\n"
    "x:\n"
    "  %d = icmp eq i32 %t, 32\n"
    "  br i1 %d, label %w2, label %e\n"
    "w2:\n"
    "  store i32 %t, ptr addrspace(3) @s\n"
    "  br label %e\n"
    "e:\n"
    "  ret void\n"
    "}\n" SREG_DECLS;

static void test_interp_warp_lockstep_excuses_only_intra_warp(void **state) {
  (void)state;
  fx f;
  load_fx(&f, warp_ir, "k");
  aucs_run_config c = config(1, 64);
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(count(&f, AUCS_FINDING_RACE), 2);
  const aucs_finding *r = first(&f, AUCS_FINDING_RACE);
  assert_int_equal(r->a.thread.x, 0);
  assert_int_equal(r->b.thread.x, 1);
  c.warp_lockstep = 1;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(count(&f, AUCS_FINDING_RACE), 1);
  r = first(&f, AUCS_FINDING_RACE);
  assert_int_equal(r->b.thread.x, 32);
  assert_ptr_equal(r->b.instr, nth(&f, "k", LLVMStore, 1));
  free_fx(&f);
}

/* Which inputs a run read (aucs_run_result.leaf_read): a byval struct's
 * field by its bytes loaded, a scalar by an executed use (a loop's bound
 * in its header, a phi's incoming value on the edge taken); not a field
 * never loaded, nor a scalar used only on a path no thread takes. */
static const char *reads_ir =
    "%struct.P = type { i32, i32 }\n"
    "define ptx_kernel void @k(ptr %out, ptr byval(%struct.P) align 4 %s, "
    "i32 %n, i32 %m, i32 %q) {\n"
    "entry:\n"
    "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
    "  %p1 = getelementptr %struct.P, ptr %s, i32 0, i32 1\n"
    "  %b = load i32, ptr %p1\n"
    "  br label %loop\n"
    "loop:\n"
    "  %i = phi i32 [ 0, %entry ], [ %i2, %loop ]\n"
    "  %i2 = add i32 %i, 1\n"
    "  %c = icmp ult i32 %i2, %n\n"
    "  br i1 %c, label %loop, label %after\n"
    "after:\n"
    "  %big = icmp uge i32 %t, 100000\n"
    "  br i1 %big, label %never, label %done\n"
    "never:\n"
    "  store i32 %m, ptr %out\n"
    "  br label %done\n"
    "done:\n"
    "  %v = phi i32 [ %q, %after ], [ %b, %never ]\n"
    "  %o = getelementptr i32, ptr %out, i32 %t\n"
    "  store i32 %v, ptr %o\n"
    "  ret void\n"
    "}\n"
    "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n";

static void test_interp_leaf_read(void **state) {
  (void)state;
  fx f;
  load_fx(&f, reads_ir, "k");
  uint64_t args[5] = {0, 0, 3, 7, 9};
  aucs_run_config c = config(1, 32);
  c.args = args;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  const unsigned char *rd = f.res.leaf_read;
  assert_non_null(rd);
  assert_int_equal(aucs_prog_inputs(f.p)->n, 6);
  static const unsigned char want[6] = {0, 0, 1, 1, 0, 1};
  for (size_t i = 0; i < 6; i++)
    assert_int_equal(rd[i], want[i]); /* out s.f0 s.f1 n m q */
  free_fx(&f);
}

static void test_interp_large_grid_is_sampled(void **state) {
  (void)state;
  fx f;
  load_fx(&f, own_slot_ir, "k");
  aucs_run_config c = config(1000, 128);
  c.max_threads = 1024;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(f.res.blocks_run, 8); /* blocks 0..6 and 999 */
  assert_int_equal(f.res.barrier_passes[0], 8 * 128);
  free_fx(&f);
}

/* A run past its sample_steps leaves out the blocks it has not run, all
 * but the last, and says after how many; a grid of three blocks or a run
 * under the limit runs every block. */
static void test_interp_long_run_is_sampled(void **state) {
  (void)state;
  fx f;
  load_fx(&f, own_slot_ir, "k");
  aucs_run_config c = config(10, 128);
  c.sample_steps = 1;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(f.res.blocks_run, 3); /* blocks 0, 1 and 9 */
  assert_int_equal(f.res.sampled_after, 2);
  assert_int_equal(f.res.barrier_passes[0], 3 * 128);
  c.sample_steps = UINT64_MAX;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(f.res.blocks_run, 10);
  assert_int_equal(f.res.sampled_after, 0);
  c = config(3, 128);
  c.sample_steps = 1;
  assert_int_equal(run_fx(&f, &c), AUCS_RUN_OK);
  assert_int_equal(f.res.blocks_run, 3);
  assert_int_equal(f.res.sampled_after, 0);
  free_fx(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_interp_integer_wraparound_at_each_width),
      cmocka_unit_test(test_interp_sdiv_srem_follow_the_dividend_sign),
      cmocka_unit_test(test_interp_division_by_zero_traps),
      cmocka_unit_test(test_interp_shifts_respect_width_and_sign),
      cmocka_unit_test(test_interp_float_arithmetic_and_predicates),
      cmocka_unit_test(test_interp_casts),
      cmocka_unit_test(test_interp_icmp_signed_and_unsigned),
      cmocka_unit_test(test_interp_phi_swap_is_a_parallel_copy),
      cmocka_unit_test(test_interp_switch_picks_case_or_default),
      cmocka_unit_test(test_interp_gep_through_structs_and_arrays),
      cmocka_unit_test(test_interp_calls_use_a_stack),
      cmocka_unit_test(test_interp_memset_memcpy_memmove),
      cmocka_unit_test(test_interp_atomic_add_sums_exactly_without_race),
      cmocka_unit_test(test_interp_shared_race_names_both_accesses),
      cmocka_unit_test(test_interp_barrier_removes_race_and_is_needed),
      cmocka_unit_test(test_interp_redundant_barrier_orders_nothing),
      cmocka_unit_test(test_interp_barrier_in_divergent_branch),
      cmocka_unit_test(test_interp_exited_thread_diverges),
      cmocka_unit_test(test_interp_different_barriers_diverge),
      cmocka_unit_test(test_interp_every_divergent_barrier_is_named),
      cmocka_unit_test(test_interp_inter_block_race),
      cmocka_unit_test(test_interp_store_races_with_itself),
      cmocka_unit_test(test_interp_overlapping_widths_race),
      cmocka_unit_test(test_interp_warp_lockstep_excuses_only_intra_warp),
      cmocka_unit_test(test_interp_large_grid_is_sampled),
      cmocka_unit_test(test_interp_long_run_is_sampled),
      cmocka_unit_test(test_interp_leaf_read),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
