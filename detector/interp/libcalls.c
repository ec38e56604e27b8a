/*
 * libcalls: host implementations of the library functions in libcalls.def
 * (the interface is aucs/libcalls.h).
 *
 * Every implementation is `uint64_t lc_<name>(const uint64_t *a)`: the
 * arguments as the interpreter's raw register bits, the result the same way
 * (integers zero-extended to their width, floats as their IEEE bits). They
 * are written one line each with DEF(name, result kind, expression), where
 * the expression reads arguments through F(i) (float), D(i) (double), I(i)
 * / U(i) (32-bit signed / unsigned), L(i) / UL(i) (64-bit); MATH1/2/3 give
 * the float and double pair of a libm function at once.
 *
 * Conversions to integers follow PTX's cvt: saturate at the type's bounds,
 * NaN gives 0.
 *
 * Limitation: host libm, round to nearest (see libcalls.h).
 */
#define _GNU_SOURCE /* exp10, exp10f, sincos */
#include "aucs/libcalls.h"

#include <llvm-c/Core.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static float f32(uint64_t v) {
  uint32_t b = (uint32_t)v;
  float f;
  memcpy(&f, &b, 4);
  return f;
}

static double f64(uint64_t v) {
  double d;
  memcpy(&d, &v, 8);
  return d;
}

static uint64_t bf32(float f) {
  uint32_t b;
  memcpy(&b, &f, 4);
  return b;
}

static uint64_t bf64(double d) {
  uint64_t b;
  memcpy(&b, &d, 8);
  return b;
}

#define F(i) f32(a[i])
#define D(i) f64(a[i])
#define I(i) ((int32_t)(uint32_t)a[i])
#define U(i) ((uint32_t)a[i])
#define L(i) ((int64_t)a[i])
#define UL(i) (a[i])
#define RF(e) bf32((float)(e))
#define RD(e) bf64((double)(e))
#define RI(e) ((uint64_t)(uint32_t)(e))
#define RL(e) ((uint64_t)(e))

#define DEF(n, R, e)                                                           \
  static uint64_t lc_##n(const uint64_t *a) {                                  \
    (void)a;                                                                   \
    return R(e);                                                               \
  }
#define MATH1(n) DEF(n##f, RF, n##f(F(0))) DEF(n, RD, n(D(0)))
#define MATH2(n) DEF(n##f, RF, n##f(F(0), F(1))) DEF(n, RD, n(D(0), D(1)))
#define MATH3(n)                                                               \
  DEF(n##f, RF, n##f(F(0), F(1), F(2))) DEF(n, RD, n(D(0), D(1), D(2)))

/* ---- helpers ---- */

static const double PI = 3.14159265358979323846;

/* x rounded to an integral value: 0 nearest even, 1 zero, 2 down, 3 up. */
static double rnd(double x, int mode) {
  return mode == 0   ? nearbyint(x)
         : mode == 1 ? trunc(x)
         : mode == 2 ? floor(x)
                     : ceil(x);
}

static int64_t sat_s(double x, double lo, double hi) {
  return isnan(x)  ? 0
         : x <= lo ? (int64_t)lo
         : x >= hi ? INT64_MAX
                   : (int64_t)x;
}

static int32_t sat_i32(double x) {
  return isnan(x)             ? 0
         : x <= -2147483648.0 ? INT32_MIN
         : x >= 2147483647.0  ? INT32_MAX
                              : (int32_t)x;
}

static uint32_t sat_u32(double x) {
  return isnan(x) || x <= 0 ? 0 : x >= 4294967295.0 ? UINT32_MAX : (uint32_t)x;
}

static int64_t sat_i64(double x) {
  return sat_s(x, -9223372036854775808.0, 9223372036854775808.0);
}

static uint64_t sat_u64(double x) {
  return isnan(x) || x <= 0            ? 0
         : x >= 18446744073709551616.0 ? UINT64_MAX
                                       : (uint64_t)x;
}

static float saturate(float x) {
  return isnan(x) ? 0.0f : x < 0.0f ? 0.0f : x > 1.0f ? 1.0f : x;
}

static uint32_t brev32(uint32_t x) {
  uint32_t r = 0;
  for (int i = 0; i < 32; i++, x >>= 1)
    r = (r << 1) | (x & 1);
  return r;
}

static uint64_t brev64(uint64_t x) {
  return (uint64_t)brev32((uint32_t)x) << 32 | brev32((uint32_t)(x >> 32));
}

/* Byte n of the result is byte (s >> 4n) & 7 of the eight bytes {y, x}. */
static uint32_t byte_perm(uint32_t x, uint32_t y, uint32_t s) {
  uint64_t bytes = (uint64_t)y << 32 | x;
  uint32_t r = 0;
  for (int n = 0; n < 4; n++)
    r |= (uint32_t)((bytes >> (8 * ((s >> (4 * n)) & 7))) & 0xff) << (8 * n);
  return r;
}

static int32_t sext24(uint32_t x) { return (int32_t)(x << 8) >> 8; }

static uint64_t frexp_exp_of(double x) {
  int e = 0;
  (void)frexp(x, &e);
  return (uint32_t)e;
}

static double modf_int_of(double x) {
  double i;
  (void)modf(x, &i);
  return i;
}

static uint64_t remquo_quo_of(double x, double y) {
  int q = 0;
  (void)remquo(x, y, &q);
  return (uint32_t)q;
}

/* ---- the C math library ---- */

MATH1(sqrt)
MATH1(cbrt)
MATH1(exp)
MATH1(exp2)
MATH1(exp10)
MATH1(expm1)
MATH1(log)
MATH1(log2)
MATH1(log10)
MATH1(log1p)
MATH1(logb)
MATH1(sin)
MATH1(cos)
MATH1(tan)
MATH1(asin)
MATH1(acos)
MATH1(atan)
MATH1(sinh)
MATH1(cosh)
MATH1(tanh)
MATH1(asinh)
MATH1(acosh)
MATH1(atanh)
MATH1(fabs)
MATH1(floor)
MATH1(ceil)
MATH1(trunc)
MATH1(round)
MATH1(rint)
MATH1(nearbyint)
MATH1(erf)
MATH1(erfc)
MATH1(lgamma)
MATH1(tgamma)
MATH1(j0)
MATH1(j1)
MATH1(y0)
MATH1(y1)
MATH2(pow)
MATH2(atan2)
MATH2(fmod)
MATH2(remainder)
MATH2(hypot)
MATH2(fmin)
MATH2(fmax)
MATH2(fdim)
MATH2(copysign)
MATH2(nextafter)
MATH3(fma)
DEF(rsqrtf, RF, 1.0f / sqrtf(F(0)))
DEF(rsqrt, RD, 1.0 / sqrt(D(0)))
DEF(rcbrtf, RF, 1.0f / cbrtf(F(0)))
DEF(rcbrt, RD, 1.0 / cbrt(D(0)))
DEF(sinpif, RF, sin(PI *(double)F(0)))
DEF(sinpi, RD, sin(PI *D(0)))
DEF(cospif, RF, cos(PI *(double)F(0)))
DEF(cospi, RD, cos(PI *D(0)))
DEF(erfcxf, RF, exp((double)F(0) * F(0)) * erfc(F(0)))
DEF(erfcx, RD, exp(D(0) * D(0)) * erfc(D(0)))
DEF(normcdff, RF, 0.5 * erfc(-(double)F(0) / sqrt(2.0)))
DEF(normcdf, RD, 0.5 * erfc(-D(0) / sqrt(2.0)))
DEF(ilogbf, RI, ilogbf(F(0)))
DEF(ilogb, RI, ilogb(D(0)))
DEF(llrintf, RL, llrintf(F(0)))
DEF(llrint, RL, llrint(D(0)))
DEF(llroundf, RL, llroundf(F(0)))
DEF(llround, RL, llround(D(0)))
DEF(powif, RF, powf(F(0), (float)I(1)))
DEF(powi, RD, pow(D(0), (double)I(1)))
DEF(rhypotf, RF, 1.0f / hypotf(F(0), F(1)))
DEF(rhypot, RD, 1.0 / hypot(D(0), D(1)))
DEF(ldexpf, RF, ldexpf(F(0), I(1)))
DEF(ldexp, RD, ldexp(D(0), I(1)))
DEF(scalbnf, RF, scalbnf(F(0), I(1)))
DEF(scalbn, RD, scalbn(D(0), I(1)))
DEF(jnf, RF, jnf(I(0), F(1)))
DEF(jn, RD, jn(I(0), D(1)))
DEF(ynf, RF, ynf(I(0), F(1)))
DEF(yn, RD, yn(I(0), D(1)))
DEF(norm3df, RF,
    sqrt((double)F(0) * F(0) + (double)F(1) * F(1) + (double)F(2) * F(2)))
DEF(norm3d, RD, sqrt(D(0) * D(0) + D(1) * D(1) + D(2) * D(2)))
DEF(rnorm3df, RF,
    1.0 / sqrt((double)F(0) * F(0) + (double)F(1) * F(1) + (double)F(2) * F(2)))
DEF(rnorm3d, RD, 1.0 / sqrt(D(0) * D(0) + D(1) * D(1) + D(2) * D(2)))
DEF(norm4df, RF,
    sqrt((double)F(0) * F(0) + (double)F(1) * F(1) + (double)F(2) * F(2) +
         (double)F(3) * F(3)))
DEF(norm4d, RD, sqrt(D(0) * D(0) + D(1) * D(1) + D(2) * D(2) + D(3) * D(3)))
DEF(rnorm4df, RF,
    1.0 / sqrt((double)F(0) * F(0) + (double)F(1) * F(1) + (double)F(2) * F(2) +
               (double)F(3) * F(3)))
DEF(rnorm4d, RD,
    1.0 / sqrt(D(0) * D(0) + D(1) * D(1) + D(2) * D(2) + D(3) * D(3)))
DEF(isnanf, RI, isnan(F(0)) != 0)
DEF(isnand, RI, isnan(D(0)) != 0)
DEF(isinff, RI, isinf(F(0)) != 0)
DEF(isinfd, RI, isinf(D(0)) != 0)
DEF(finitef, RI, isfinite(F(0)) != 0)
DEF(finited, RI, isfinite(D(0)) != 0)
DEF(signbitf, RI, signbit(F(0)) != 0)
DEF(signbitd, RI, signbit(D(0)) != 0)
DEF(saturatef, RF, saturate(F(0)))
DEF(frexpf, RF, frexpf(F(0), &(int){0}))
DEF(frexp, RD, frexp(D(0), &(int){0}))
DEF(frexpf_exp, RL, frexp_exp_of(F(0)))
DEF(frexp_exp, RL, frexp_exp_of(D(0)))
DEF(modff, RF, modff(F(0), &(float){0}))
DEF(modf, RD, modf(D(0), &(double){0}))
DEF(modff_int, RF, modf_int_of(F(0)))
DEF(modf_int, RD, modf_int_of(D(0)))
DEF(remquof_quo, RL, remquo_quo_of(F(0), F(1)))
DEF(remquo_quo, RL, remquo_quo_of(D(0), D(1)))

/* ---- arithmetic ---- */

DEF(fadd, RF, F(0) + F(1))
DEF(fsub, RF, F(0) - F(1))
DEF(fmul, RF, F(0) * F(1))
DEF(fdiv, RF, F(0) / F(1))
DEF(frcp, RF, 1.0f / F(0))
DEF(dadd, RD, D(0) + D(1))
DEF(dsub, RD, D(0) - D(1))
DEF(dmul, RD, D(0) * D(1))
DEF(ddiv, RD, D(0) / D(1))
DEF(drcp, RD, 1.0 / D(0))

/* ---- bit casts ---- */

DEF(bits, RL, UL(0))
DEF(hiword, RL, UL(0) >> 32)
DEF(loword, RL, UL(0) & 0xffffffffu)
DEF(hilo, RL, (uint64_t)U(0) << 32 | U(1))
DEF(lohi, RL, (uint64_t)U(1) << 32 | U(0))

/* ---- conversions ---- */

#define CVT(n, R, sat, src)                                                    \
  DEF(n##_rn, R, sat(rnd(src(0), 0)))                                          \
  DEF(n##_rz, R, sat(rnd(src(0), 1)))                                          \
  DEF(n##_rd, R, sat(rnd(src(0), 2)))                                          \
  DEF(n##_ru, R, sat(rnd(src(0), 3)))
CVT(f2i, RI, sat_i32, F)
CVT(f2ui, RI, sat_u32, F)
CVT(f2ll, RL, sat_i64, F)
CVT(f2ull, RL, sat_u64, F)
CVT(d2i, RI, sat_i32, D)
CVT(d2ui, RI, sat_u32, D)
CVT(d2ll, RL, sat_i64, D)
CVT(d2ull, RL, sat_u64, D)
DEF(d2f, RF, D(0))
DEF(i2f, RF, I(0))
DEF(ui2f, RF, U(0))
DEF(ll2f, RF, L(0))
DEF(ull2f, RF, UL(0))
DEF(i2d, RD, I(0))
DEF(ui2d, RD, U(0))
DEF(ll2d, RD, L(0))
DEF(ull2d, RD, UL(0))

/* ---- integers ---- */

DEF(brev, RI, brev32(U(0)))
DEF(brevll, RL, brev64(UL(0)))
DEF(popc, RI, __builtin_popcount(U(0)))
DEF(popcll, RI, __builtin_popcountll(UL(0)))
DEF(clz, RI, U(0) ? __builtin_clz(U(0)) : 32)
DEF(clzll, RI, UL(0) ? __builtin_clzll(UL(0)) : 64)
DEF(ffs, RI, __builtin_ffs(I(0)))
DEF(ffsll, RI, __builtin_ffsll(L(0)))
DEF(byte_perm, RI, byte_perm(U(0), U(1), U(2)))
DEF(mul24, RI, (int64_t)sext24(U(0)) * sext24(U(1)))
DEF(umul24, RI, (uint64_t)(U(0) & 0xffffff) * (U(1) & 0xffffff))
DEF(mulhi, RI, ((int64_t)I(0) * I(1)) >> 32)
DEF(umulhi, RI, ((uint64_t)U(0) * U(1)) >> 32)
DEF(mul64hi, RL, ((__int128)L(0) * L(1)) >> 64)
DEF(umul64hi, RL, ((unsigned __int128)UL(0) * UL(1)) >> 64)
DEF(sad, RI, (I(0) > I(1) ? (int64_t)I(0) - I(1) : (int64_t)I(1) - I(0)) + U(2))
DEF(usad, RI, (U(0) > U(1) ? U(0) - U(1) : U(1) - U(0)) + U(2))
DEF(hadd, RI, ((int64_t)I(0) + I(1)) >> 1)
DEF(rhadd, RI, ((int64_t)I(0) + I(1) + 1) >> 1)
DEF(uhadd, RI, ((uint64_t)U(0) + U(1)) >> 1)
DEF(urhadd, RI, ((uint64_t)U(0) + U(1) + 1) >> 1)
DEF(min, RI, I(0) < I(1) ? I(0) : I(1))
DEF(max, RI, I(0) > I(1) ? I(0) : I(1))
DEF(umin, RI, U(0) < U(1) ? U(0) : U(1))
DEF(umax, RI, U(0) > U(1) ? U(0) : U(1))
DEF(llmin, RL, L(0) < L(1) ? L(0) : L(1))
DEF(llmax, RL, L(0) > L(1) ? L(0) : L(1))
DEF(ullmin, RL, UL(0) < UL(1) ? UL(0) : UL(1))
DEF(ullmax, RL, UL(0) > UL(1) ? UL(0) : UL(1))
DEF(abs, RI, I(0) < 0 ? 0u - U(0) : U(0))
DEF(llabs, RL, L(0) < 0 ? 0u - UL(0) : UL(0))

/* ---- the table ---- */

#define lc_none NULL
#define NO_OUTS                                                                \
  {                                                                            \
    {-1, NULL, 0}, { -1, NULL, 0 }                                             \
  }

static const aucs_libcall rows[] = {
#define AUCS_LIBCALL(name, arity, impl) {name, arity, lc_##impl, 1, NO_OUTS},
#define AUCS_LIBM(arity, base)                                                 \
  {"__nv_" #base "f", arity, lc_##base##f, 1, NO_OUTS},                        \
      {#base "f", arity, lc_##base##f, 1, NO_OUTS},                            \
      {"__nv_" #base, arity, lc_##base, 1, NO_OUTS},                           \
      {#base, arity, lc_##base, 1, NO_OUTS},
#define AUCS_LIBCALL_OUT(name, arity, impl, a1, i1, b1, a2, i2, b2)            \
  {name, arity, lc_##impl, 0, {{a1, lc_##i1, b1}, {a2, lc_##i2, b2}}},
#include "libcalls.def"
};

const aucs_libcall *aucs_libcalls_find(const char *name) {
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
    if (strcmp(rows[i].name, name) == 0)
      return &rows[i];
  return NULL;
}

int aucs_libcalls_overrides_body(const char *name) {
  return strncmp(name, "__nv_", 5) == 0 || strncmp(name, "llvm.", 5) == 0;
}

/* A declared C++ function `_Z[L]<n><base><params>` whose parameters are
 * builtin types only: the row of base in the float or double spelling its
 * first floating parameter picks (round(float) is roundf), with as many
 * parameters. */
static const aucs_libcall *mangled(const char *name) {
  if (strncmp(name, "_Z", 2))
    return NULL;
  const char *p = name + 2 + (name[2] == 'L');
  char *end;
  unsigned long n = strtoul(p, &end, 10);
  if (end == p || n == 0 || n > 32 || strlen(end) < n)
    return NULL;
  const char *params = end + n;
  char fp = 0;
  for (const char *c = params; *c; c++) {
    if (!strchr("fdijlmxy", *c))
      return NULL;
    if (!fp && (*c == 'f' || *c == 'd'))
      fp = *c;
  }
  char base[40];
  snprintf(base, sizeof base, "%.*s%s", (int)n, end, fp == 'f' ? "f" : "");
  const aucs_libcall *lc = aucs_libcalls_find(base);
  if (!lc && fp == 'f') /* the base is already the float name */
    lc = aucs_libcalls_find((base[n] = 0, base));
  return lc && lc->arity == strlen(params) && strncmp(lc->name, "__nv_", 5) &&
                 strncmp(lc->name, "llvm.", 5)
             ? lc
             : NULL;
}

const aucs_libcall *aucs_libcalls_of(LLVMValueRef callee) {
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  const aucs_libcall *lc = aucs_libcalls_find(name);
  int declared = LLVMIsDeclaration(callee);
  if (lc && (declared || aucs_libcalls_overrides_body(name)))
    return lc;
  return declared ? mangled(name) : NULL;
}
