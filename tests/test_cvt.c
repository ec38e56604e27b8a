/*
 * test_cvt: PTX's cvt (detector/interp/cvt.c), the conversions the inline
 * PTX of cuda_fp16.h and cuda_bf16.h makes. Every expected value is worked
 * out by hand in its comment: f16 is 1 sign, 5 exponent (bias 15), 10
 * fraction bits, so [1, 2) has a step of 2^-10 and subnormals a step of
 * 2^-24; bf16 is f32's top 16 bits (8 exponent, 7 fraction bits).
 */
#include "support.h"

#include "aucs/cvt.h"

enum { RN = AUCS_CVT_RN, RZ = AUCS_CVT_RZ, RM = AUCS_CVT_RM, RP = AUCS_CVT_RP };
enum {
  F16 = AUCS_CVT_F16,
  BF16 = AUCS_CVT_BF16,
  F32 = AUCS_CVT_F32,
  F64 = AUCS_CVT_F64,
  S8 = AUCS_CVT_S8,
  S16 = AUCS_CVT_S16,
  S32 = AUCS_CVT_S32,
  S64 = AUCS_CVT_S64,
  U8 = AUCS_CVT_U8,
  U16 = AUCS_CVT_U16,
  U32 = AUCS_CVT_U32,
  U64 = AUCS_CVT_U64
};

static uint64_t cv(int dst, int src, int mode, uint64_t v) {
  return aucs_cvt(AUCS_CVT_FORM(dst, src, mode), v);
}

/* cvt.rXi: round to an integer by mode. */
static uint64_t cvi(int dst, int src, int mode, uint64_t v) {
  return aucs_cvt(AUCS_CVT_FORM(dst, src, mode) | AUCS_CVT_INTEGRAL, v);
}

static void test_cvt_f32_to_f16_nearest_even(void **state) {
  (void)state;
  assert_int_equal(cv(F16, F32, RN, 0x3f800000), 0x3c00); /* 1.0 */
  assert_int_equal(cv(F16, F32, RN, 0xbf800000), 0xbc00); /* -1.0 */
  /* 1 + 2^-11: halfway between 1.0 (0x3c00) and 1 + 2^-10 (0x3c01): even */
  assert_int_equal(cv(F16, F32, RN, 0x3f801000), 0x3c00);
  /* 1 + 3 * 2^-11: halfway between 0x3c01 and 0x3c02: even is 0x3c02 */
  assert_int_equal(cv(F16, F32, RN, 0x3f803000), 0x3c02);
  /* 1 + 2^-11 + 2^-20: just past halfway: up */
  assert_int_equal(cv(F16, F32, RN, 0x3f801008), 0x3c01);
  /* 65504 = 0x477fe000 is the largest f16, 0x7bff */
  assert_int_equal(cv(F16, F32, RN, 0x477fe000), 0x7bff);
  /* 65519 (0x477fef00) is below the midpoint 65520: stays 0x7bff */
  assert_int_equal(cv(F16, F32, RN, 0x477fef00), 0x7bff);
  /* 65520 (0x477ff000) is the midpoint to 2^16, the next step: 0x7bff is
   * odd, so it rounds up, past the largest finite: infinity */
  assert_int_equal(cv(F16, F32, RN, 0x477ff000), 0x7c00);
  assert_int_equal(cv(F16, F32, RN, 0x501502f9), 0x7c00); /* 1e10 */
}

static void test_cvt_f32_to_f16_directed(void **state) {
  (void)state;
  /* 1 + 3 * 2^-11 lies between 0x3c01 and 0x3c02 */
  assert_int_equal(cv(F16, F32, RZ, 0x3f803000), 0x3c01);
  assert_int_equal(cv(F16, F32, RM, 0x3f803000), 0x3c01);
  assert_int_equal(cv(F16, F32, RP, 0x3f803000), 0x3c02);
  /* -(1 + 2^-11): down is away from zero, up toward it */
  assert_int_equal(cv(F16, F32, RM, 0xbf801000), 0xbc01);
  assert_int_equal(cv(F16, F32, RP, 0xbf801000), 0xbc00);
  assert_int_equal(cv(F16, F32, RZ, 0xbf801000), 0xbc00);
  /* past the largest finite: infinity only when rounding away from zero */
  assert_int_equal(cv(F16, F32, RZ, 0x501502f9), 0x7bff);  /* 1e10 */
  assert_int_equal(cv(F16, F32, RM, 0x501502f9), 0x7bff);
  assert_int_equal(cv(F16, F32, RP, 0x501502f9), 0x7c00);
  assert_int_equal(cv(F16, F32, RM, 0xd01502f9), 0xfc00);  /* -1e10 */
  assert_int_equal(cv(F16, F32, RP, 0xd01502f9), 0xfbff);
  /* exact values do not move */
  assert_int_equal(cv(F16, F32, RP, 0x3f800000), 0x3c00);
}

static void test_cvt_f16_subnormals(void **state) {
  (void)state;
  /* 2^-24 (0x33800000) is the smallest subnormal, 0x0001 */
  assert_int_equal(cv(F16, F32, RN, 0x33800000), 0x0001);
  /* 2^-25 is halfway between 0 and 2^-24: even is 0 */
  assert_int_equal(cv(F16, F32, RN, 0x33000000), 0x0000);
  assert_int_equal(cv(F16, F32, RP, 0x33000000), 0x0001);
  /* 0.75 * 2^-24 (1.5 * 2^-25 = 0x33400000): past halfway: 0x0001 */
  assert_int_equal(cv(F16, F32, RN, 0x33400000), 0x0001);
  /* 2^-14 (0x38800000) is the smallest normal, 0x0400 */
  assert_int_equal(cv(F16, F32, RN, 0x38800000), 0x0400);
  /* 2047 * 2^-25 = 1023.5 steps of 2^-24: halfway between the largest
   * subnormal 0x03ff and 0x0400; even carries into the normals */
  assert_int_equal(cv(F16, F32, RN, 0x387fe000), 0x0400);
  assert_int_equal(cv(F16, F32, RZ, 0x387fe000), 0x03ff);
  /* and back: 0x0001 is 2^-24, 0x03ff is 1023 * 2^-24 = 0x387fc000 */
  assert_int_equal(cv(F32, F16, RN, 0x0001), 0x33800000);
  assert_int_equal(cv(F32, F16, RN, 0x03ff), 0x387fc000);
  /* the f32 subnormal 2^-149 is far below half of 2^-24 */
  assert_int_equal(cv(F16, F32, RN, 0x00000001), 0x0000);
  assert_int_equal(cv(F16, F32, RP, 0x00000001), 0x0001);
  assert_int_equal(cv(F16, F32, RM, 0x80000001), 0x8001);
}

static void test_cvt_f16_specials(void **state) {
  (void)state;
  assert_int_equal(cv(F16, F32, RN, 0x80000000), 0x8000); /* -0 */
  assert_int_equal(cv(F16, F32, RN, 0x7f800000), 0x7c00); /* inf */
  assert_int_equal(cv(F16, F32, RN, 0xff800000), 0xfc00); /* -inf */
  assert_int_equal(cv(F16, F32, RN, 0x7fc00000), 0x7fff); /* NaN */
  assert_int_equal(cv(F16, F32, RN, 0xffc00001), 0x7fff);
  assert_int_equal(cv(F32, F16, RN, 0x3c00), 0x3f800000);
  assert_int_equal(cv(F32, F16, RN, 0x8000), 0x80000000);
  assert_int_equal(cv(F32, F16, RN, 0x7c00), 0x7f800000);
  assert_int_equal(cv(F32, F16, RN, 0xfc00), 0xff800000);
  assert_int_equal(cv(F32, F16, RN, 0x7e00), 0x7fffffff);
  assert_int_equal(cv(F64, F16, RN, 0x3555), 0x3fd5540000000000); /* 1/3 */
}

static void test_cvt_f64_rounds_once(void **state) {
  (void)state;
  /* 1 + 2^-11 + 2^-40: past the f16 midpoint by 2^-40. Through f32 (23
   * fraction bits) it would land on the midpoint and round to even
   * (0x3c00); rounding once gives 0x3c01 */
  assert_int_equal(cv(F16, F64, RN, 0x3ff0020000001000), 0x3c01);
  /* f64 to f32: 1 + 2^-24 is a tie (even: 1.0); 1 + 2^-24 + 2^-50 is not */
  assert_int_equal(cv(F32, F64, RN, 0x3ff0000010000000), 0x3f800000);
  assert_int_equal(cv(F32, F64, RN, 0x3ff0000010000004), 0x3f800001);
  /* 1 + 2^-30 up and toward zero */
  assert_int_equal(cv(F32, F64, RP, 0x3ff0000000400000), 0x3f800001);
  assert_int_equal(cv(F32, F64, RZ, 0x3ff0000000400000), 0x3f800000);
  /* 2^-149 is the f32 subnormal 1; 2^-150 a tie with 0 */
  assert_int_equal(cv(F32, F64, RN, 0x36a0000000000000), 0x00000001);
  assert_int_equal(cv(F32, F64, RN, 0x3690000000000000), 0x00000000);
  assert_int_equal(cv(F64, F32, RN, 0x3f800000), 0x3ff0000000000000);
}

static void test_cvt_bf16(void **state) {
  (void)state;
  assert_int_equal(cv(BF16, F32, RN, 0x3f800000), 0x3f80);
  /* 0x3f808000 = 1 + 2^-8: halfway between 0x3f80 and 0x3f81: even */
  assert_int_equal(cv(BF16, F32, RN, 0x3f808000), 0x3f80);
  /* 0x3f818000: halfway between 0x3f81 and 0x3f82: even is 0x3f82 */
  assert_int_equal(cv(BF16, F32, RN, 0x3f818000), 0x3f82);
  assert_int_equal(cv(BF16, F32, RN, 0x3f808001), 0x3f81);
  assert_int_equal(cv(BF16, F32, RZ, 0x3f80ffff), 0x3f80);
  /* the largest f32 is past bf16's largest (0x7f7f) by more than half a
   * step: infinity, or 0x7f7f toward zero */
  assert_int_equal(cv(BF16, F32, RN, 0x7f7fffff), 0x7f80);
  assert_int_equal(cv(BF16, F32, RZ, 0x7f7fffff), 0x7f7f);
  /* bf16 keeps f32's exponents: 2^-133 is its smallest subnormal, so the
   * f32 subnormal 2^-149 rounds to 0, or up to 0x0001 */
  assert_int_equal(cv(BF16, F32, RN, 0x00000001), 0x0000);
  assert_int_equal(cv(BF16, F32, RP, 0x00000001), 0x0001);
  assert_int_equal(cv(BF16, F32, RN, 0x7fc00001), 0x7fff); /* NaN */
  assert_int_equal(cv(F32, BF16, RN, 0x3f80), 0x3f800000);
  assert_int_equal(cv(F32, BF16, RN, 0x0001), 0x00010000);
  assert_int_equal(cv(F32, BF16, RN, 0xff80), 0xff800000);
}

static void test_cvt_integers_to_half(void **state) {
  (void)state;
  /* [2048, 4096) has a step of 2: 2049 is a tie (even: 2048 = 0x6800),
   * 2051 a tie between 2050 (0x6801) and 2052 (0x6802) */
  assert_int_equal(cv(F16, S32, RN, 2049), 0x6800);
  assert_int_equal(cv(F16, S32, RN, 2051), 0x6802);
  assert_int_equal(cv(F16, S32, RP, 2049), 0x6801);
  assert_int_equal(cv(F16, S32, RN, 0xffffffff), 0xbc00); /* -1 */
  assert_int_equal(cv(F16, U32, RN, 0xffffffff), 0x7c00); /* 2^32 - 1 */
  assert_int_equal(cv(F16, U32, RZ, 70000), 0x7bff);
  /* -2^63: past f16's range; exactly representable in bf16 (exponent
   * 63 + 127 = 0xbe): 1 10111110 0000000 = 0xdf00 */
  assert_int_equal(cv(F16, S64, RN, 0x8000000000000000), 0xfc00);
  assert_int_equal(cv(BF16, S64, RN, 0x8000000000000000), 0xdf00);
  /* 2^64 - 1 rounds to 2^64 (0x5f80), or toward zero to
   * (2 - 2^-7) * 2^63 (0x5f7f): no detour through a double */
  assert_int_equal(cv(BF16, U64, RN, UINT64_MAX), 0x5f80);
  assert_int_equal(cv(BF16, U64, RZ, UINT64_MAX), 0x5f7f);
  assert_int_equal(cv(F16, S16, RN, 0xfffe), 0xc000); /* -2 */
  assert_int_equal(cv(F16, U8, RN, 0xff), 0x5bf8);     /* 255 */
}

static void test_cvt_half_to_integers(void **state) {
  (void)state;
  /* 1.5 (0x3e00) and 2.5 (0x4100): nearest even, toward zero, down, up */
  assert_int_equal(cv(S32, F16, RN, 0x3e00), 2);
  assert_int_equal(cv(S32, F16, RN, 0x4100), 2);
  assert_int_equal(cv(S32, F16, RZ, 0x3e00), 1);
  assert_int_equal(cv(S32, F16, RM, 0x3e00), 1);
  assert_int_equal(cv(S32, F16, RP, 0x3e00), 2);
  /* -1.5 (0xbe00) */
  assert_int_equal(cv(S32, F16, RN, 0xbe00), 0xfffffffe);
  assert_int_equal(cv(S32, F16, RZ, 0xbe00), 0xffffffff);
  assert_int_equal(cv(S32, F16, RM, 0xbe00), 0xfffffffe);
  assert_int_equal(cv(U32, F16, RZ, 0xbe00), 0); /* saturates at 0 */
  /* infinities and NaN saturate; NaN is 0 */
  assert_int_equal(cv(S32, F16, RZ, 0x7c00), 0x7fffffff);
  assert_int_equal(cv(S32, F16, RZ, 0xfc00), 0x80000000);
  assert_int_equal(cv(S16, F16, RZ, 0x7c00), 0x7fff);
  assert_int_equal(cv(U8, F16, RZ, 0x7c00), 0xff);
  assert_int_equal(cv(S32, F16, RZ, 0x7e00), 0);
  /* 65504 (0x7bff) past s16 saturates; fits u16 (0xffe0) */
  assert_int_equal(cv(S16, F16, RZ, 0x7bff), 0x7fff);
  assert_int_equal(cv(U16, F16, RZ, 0x7bff), 0xffe0);
  assert_int_equal(cv(S64, BF16, RZ, 0xdf00), 0x8000000000000000);
  /* 3e9 (0x4f32d05e, exact in f32) past s32; u32 holds 0xb2d05e00 */
  assert_int_equal(cv(S32, F32, RZ, 0x4f32d05e), 0x7fffffff);
  assert_int_equal(cv(U32, F32, RZ, 0x4f32d05e), 0xb2d05e00);
}

static void test_cvt_integral_and_sat(void **state) {
  (void)state;
  /* cvt.rni.f16.f16 and friends: 1.5 -> 2.0 (0x4000), 1.0 (0x3c00) */
  assert_int_equal(cvi(F16, F16, RN, 0x3e00), 0x4000);
  assert_int_equal(cvi(F16, F16, RZ, 0x3e00), 0x3c00);
  /* 0.5 (0x3800): even is +0; -0.5 keeps its sign; down from -0.5 is -1 */
  assert_int_equal(cvi(F16, F16, RN, 0x3800), 0x0000);
  assert_int_equal(cvi(F16, F16, RN, 0xb800), 0x8000);
  assert_int_equal(cvi(F16, F16, RP, 0x3800), 0x3c00);
  assert_int_equal(cvi(F16, F16, RM, 0xb800), 0xbc00);
  assert_int_equal(cvi(F32, F32, RP, 0x3fc00000), 0x40000000); /* 1.5 */
  /* .sat clamps to [0, 1]; NaN is 0 */
  unsigned sat = AUCS_CVT_SAT;
  assert_int_equal(aucs_cvt(AUCS_CVT_FORM(F16, F32, RN) | sat, 0x40000000),
                   0x3c00);
  assert_int_equal(aucs_cvt(AUCS_CVT_FORM(F16, F32, RN) | sat, 0xc0400000),
                   0x0000);
  assert_int_equal(aucs_cvt(AUCS_CVT_FORM(F16, F32, RN) | sat, 0x7fc00000),
                   0x0000);
  assert_int_equal(aucs_cvt(AUCS_CVT_FORM(F16, F32, RN) | sat, 0x3f000000),
                   0x3800);
  /* between integers: sign-extend or zero-extend, then truncate; .sat
   * clamps instead */
  assert_int_equal(cv(S32, S8, RN, 0x80), 0xffffff80);
  assert_int_equal(cv(U8, U32, RN, 0x1ff), 0xff);
  assert_int_equal(aucs_cvt(AUCS_CVT_FORM(U8, S32, RN) | sat, 300), 255);
  assert_int_equal(aucs_cvt(AUCS_CVT_FORM(U8, S32, RN) | sat, 0xfffffffb), 0);
  assert_int_equal(aucs_cvt(AUCS_CVT_FORM(S8, S32, RN) | sat, 0xffffff38),
                   0x80); /* -200 */
}

static void test_cvt_type_names(void **state) {
  (void)state;
  assert_int_equal(aucs_cvt_type_of("f16", 3), F16);
  assert_int_equal(aucs_cvt_type_of("bf16", 4), BF16);
  assert_int_equal(aucs_cvt_type_of("b32", 3), U32);
  assert_int_equal(aucs_cvt_type_of("s64", 3), S64);
  assert_int_equal(aucs_cvt_type_of("f16x2", 5), -1);
  assert_int_equal(aucs_cvt_type_of("pred", 4), -1);
  assert_int_equal(aucs_cvt_bits(AUCS_CVT_BF16), 16);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cvt_f32_to_f16_nearest_even),
      cmocka_unit_test(test_cvt_f32_to_f16_directed),
      cmocka_unit_test(test_cvt_f16_subnormals),
      cmocka_unit_test(test_cvt_f16_specials),
      cmocka_unit_test(test_cvt_f64_rounds_once),
      cmocka_unit_test(test_cvt_bf16),
      cmocka_unit_test(test_cvt_integers_to_half),
      cmocka_unit_test(test_cvt_half_to_integers),
      cmocka_unit_test(test_cvt_integral_and_sat),
      cmocka_unit_test(test_cvt_type_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
