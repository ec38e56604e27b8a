/*
 * cvt: PTX's conversions between f16, bf16, f32, f64 and the integers,
 * with its rounding modes (aucs/cvt.h has the rules).
 *
 * Steps:
 *   1. Read the source as a number: its class (zero, finite, infinity,
 *      NaN), sign, and a finite value m * 2^e with an integer m (a float's
 *      significand with the hidden bit; an integer's magnitude, e = 0).
 *   2. An integral mode, or an integer destination, rounds m * 2^e to an
 *      integer by the mode (round_shift: the bits shifted out decide).
 *   3. A float destination: the quantum is 2^(max(E, emin) - mbits) for
 *      the value's exponent E; m is rounded to a multiple of it, and the
 *      bits are ((E + bias) << mbits) + n - 2^mbits (n / 2^mbits = 1.f),
 *      or n itself for a subnormal: the encoding is monotonic, so a carry
 *      out of the significand moves to the next exponent, and to infinity.
 *   4. An integer destination saturates; .sat clamps a float to [0, 1].
 */
#include "aucs/cvt.h"

#include <string.h>

enum { ZERO, FINITE, INF, NAN_ };

typedef struct num {
  int cls, sign;
  uint64_t m; /* FINITE: value = m * 2^e, m > 0 */
  int e;
} num;

typedef struct fmt {
  int ebits, mbits;
} fmt;

static const fmt formats[] = {[AUCS_CVT_F16] = {5, 10},
                              [AUCS_CVT_BF16] = {8, 7},
                              [AUCS_CVT_F32] = {8, 23},
                              [AUCS_CVT_F64] = {11, 52}};

static const char *const names[] = {"u8",  "u16", "u32", "u64",  "s8",  "s16",
                                    "s32", "s64", "f16", "bf16", "f32", "f64"};

int aucs_cvt_type_of(const char *token, unsigned n) {
  char t[8];
  if (n == 0 || n >= sizeof t)
    return -1;
  memcpy(t, token, n);
  t[n] = 0;
  if (t[0] == 'b' && t[1] >= '0' && t[1] <= '9')
    t[0] = 'u';
  for (int i = 0; i < AUCS_CVT_NTYPES; i++)
    if (!strcmp(t, names[i]))
      return i;
  return -1;
}

unsigned aucs_cvt_bits(aucs_cvt_type t) {
  static const unsigned bits[] = {8, 16, 32, 64, 8, 16, 32, 64, 16, 16, 32, 64};
  return bits[t];
}

int aucs_cvt_is_float(aucs_cvt_type t) { return t >= AUCS_CVT_F16; }

static int is_signed(aucs_cvt_type t) {
  return t >= AUCS_CVT_S8 && t <= AUCS_CVT_S64;
}

static uint64_t mask(unsigned w) {
  return w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1;
}

/* ---- step 1: the source as a number ---- */

static num from_float(uint64_t v, const fmt *f) {
  int bias = (1 << (f->ebits - 1)) - 1;
  uint64_t emask = mask((unsigned)f->ebits), mmask = mask((unsigned)f->mbits);
  uint64_t exp = v >> f->mbits & emask, mant = v & mmask;
  num x = {.sign = (int)(v >> (f->ebits + f->mbits) & 1)};
  if (exp == emask)
    x.cls = mant ? NAN_ : INF;
  else if (exp == 0 && mant == 0)
    x.cls = ZERO;
  else if (exp == 0) /* subnormal */
    x = (num){FINITE, x.sign, mant, 1 - bias - f->mbits};
  else
    x = (num){FINITE, x.sign, mant | UINT64_C(1) << f->mbits,
              (int)exp - bias - f->mbits};
  return x;
}

static num from_int(uint64_t v, aucs_cvt_type t) {
  unsigned w = aucs_cvt_bits(t);
  v &= mask(w);
  int neg = is_signed(t) && (v >> (w - 1) & 1);
  uint64_t mag = neg ? (~v + 1) & mask(w) : v;
  if (neg && mag == 0) /* the most negative value of 64 bits */
    mag = UINT64_C(1) << 63;
  return mag ? (num){FINITE, neg, mag, 0} : (num){ZERO, 0, 0, 0};
}

/* ---- step 2: rounding away the low bits ---- */

/* m / 2^shift (shift > 0) rounded by mode, for a value of this sign. */
static uint64_t round_shift(uint64_t m, int shift, int sign, int mode) {
  uint64_t n = shift >= 64 ? 0 : m >> shift;
  uint64_t rem = shift >= 64 ? m : m & mask((unsigned)shift);
  int above, tie;
  if (shift > 64) { /* rem < 2^64 <= half */
    above = tie = 0;
  } else {
    uint64_t half = UINT64_C(1) << (shift - 1);
    above = rem > half;
    tie = rem == half;
  }
  switch (mode) {
  case AUCS_CVT_RN:
    return n + (above || (tie && (n & 1)));
  case AUCS_CVT_RZ:
    return n;
  case AUCS_CVT_RP:
    return n + (rem && !sign);
  default: /* RM */
    return n + (rem && sign);
  }
}

/* x rounded to an integer; still a number (ZERO keeps the sign). */
static num integral(num x, int mode) {
  if (x.cls != FINITE || x.e >= 0)
    return x;
  uint64_t n = round_shift(x.m, -x.e, x.sign, mode);
  return n ? (num){FINITE, x.sign, n, 0} : (num){ZERO, x.sign, 0, 0};
}

/* ---- step 3: to a float format ---- */

static uint64_t overflow(const fmt *f, int sign, int mode) {
  uint64_t inf = mask((unsigned)f->ebits) << f->mbits;
  int to_inf = mode == AUCS_CVT_RN || (mode == AUCS_CVT_RP && !sign) ||
               (mode == AUCS_CVT_RM && sign);
  return to_inf ? inf : inf - 1;
}

static uint64_t to_float(num x, const fmt *f, int mode) {
  uint64_t sbit = (uint64_t)x.sign << (f->ebits + f->mbits);
  uint64_t inf = mask((unsigned)f->ebits) << f->mbits;
  if (x.cls == NAN_)
    return inf | mask((unsigned)f->mbits);
  if (x.cls == INF)
    return sbit | inf;
  if (x.cls == ZERO)
    return sbit;
  int bias = (1 << (f->ebits - 1)) - 1, emin = 1 - bias;
  int E = 63 - __builtin_clzll(x.m) + x.e;
  if (E > bias)
    return sbit | overflow(f, x.sign, mode);
  int shift = (E < emin ? emin : E) - f->mbits - x.e;
  uint64_t n =
      shift <= 0 ? x.m << -shift : round_shift(x.m, shift, x.sign, mode);
  uint64_t bits = E < emin ? n
                           : ((uint64_t)(E + bias) << f->mbits) + n -
                                 (UINT64_C(1) << f->mbits);
  return sbit | (bits >= inf ? overflow(f, x.sign, mode) : bits);
}

/* ---- step 4: to an integer type, saturating ---- */

static uint64_t to_int(num x, aucs_cvt_type t, int mode) {
  unsigned w = aucs_cvt_bits(t);
  uint64_t umax = mask(w), smax = mask(w - 1);
  if (x.cls == NAN_ || x.cls == ZERO)
    return 0;
  uint64_t n = UINT64_MAX; /* saturates either way */
  if (x.cls == FINITE && x.e < 0)
    n = round_shift(x.m, -x.e, x.sign, mode);
  else if (x.cls == FINITE && 63 - __builtin_clzll(x.m) + x.e < 64)
    n = x.m << x.e;
  if (!is_signed(t))
    return x.sign ? 0 : n > umax ? umax : n;
  if (!x.sign)
    return n > smax ? smax : n;
  return n > smax + 1 ? (smax + 1) & umax : (~n + 1) & umax;
}

static uint64_t saturate_unit(uint64_t r, aucs_cvt_type t) {
  const fmt *f = &formats[t];
  num x = from_float(r, f);
  if (x.cls == NAN_ || x.cls == ZERO || x.sign)
    return 0;
  uint64_t one = (uint64_t)((1 << (f->ebits - 1)) - 1) << f->mbits;
  return r > one ? one : r; /* positive floats order as their bits */
}

uint64_t aucs_cvt(unsigned form, uint64_t v) {
  aucs_cvt_type dst = (aucs_cvt_type)(form & 15), src = form >> 4 & 15;
  int mode = form >> 8 & 3;
  if (dst >= AUCS_CVT_NTYPES || src >= AUCS_CVT_NTYPES)
    return 0;
  num x =
      aucs_cvt_is_float(src) ? from_float(v, &formats[src]) : from_int(v, src);
  if (!aucs_cvt_is_float(dst)) {
    if (!aucs_cvt_is_float(src) && !(form & AUCS_CVT_SAT))
      return (is_signed(src) && x.sign ? (~x.m + 1) : x.m) &
             mask(aucs_cvt_bits(dst));
    return to_int(x, dst, mode);
  }
  if (form & AUCS_CVT_INTEGRAL) {
    x = integral(x, mode);
    mode = AUCS_CVT_RN;
  }
  uint64_t r = to_float(x, &formats[dst], mode);
  return form & AUCS_CVT_SAT ? saturate_unit(r, dst) : r;
}
