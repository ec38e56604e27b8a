/*
 * cheap: UNSAT without a solver for the static checker's easy queries
 * (interface and steps in cheap.h; each rule's proof in docs/decisions.md,
 * "Cheap decisions").
 *
 * Numbers are 128-bit integers: a term of at most 64 bits, a coefficient
 * reduced modulo 2^64 and a range product all fit; an operation that would
 * not (checked) makes the query open. A form F of a w-bit term t means
 * value(t) == F (mod 2^w), F read over the integers with each atom at its
 * unsigned value (a wrap atom at its own range). Exactness (value == F) is
 * restored where it matters, at an extension, by a wrap atom m:
 * value = F - 2^w * m, m in the range F's and t's bounds allow.
 *
 * Limitation: facts under a disjunction or an implication are not used; a
 * form holds at most MAX_ITEMS atoms.
 */
#include "aucs/cheap.h"

#include "aucs/util.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef __int128 i128;

enum { ROUNDS = 3, MAX_ITEMS = 24, ENUM_MAX = 1 << 16 };
enum { ATOM, WRAP, DELTA, PAIR }; /* what an item stands for */

typedef struct range {
  i128 lo, hi;
} range;

typedef struct item {
  Z3_ast key;
  int tag;
  i128 c;
  range r;
} item;

typedef struct form {
  item v[MAX_ITEMS];
  size_t n;
  i128 k;
  int bad; /* too many atoms or an overflow: no conclusion */
} form;

typedef struct cx {
  const aucs_cheap_query *q;
  Z3_context z;
  aucs_ptrmap map; /* term -> index + 1 into r */
  range *r;
  size_t nr;
  int empty; /* some term's bounds are contradictory */
} cx;

/* ---- terms --------------------------------------------------------------*/

static i128 pow2(unsigned w) { return (i128)1 << w; }

static unsigned width(Z3_context z, Z3_ast t) {
  Z3_sort s = Z3_get_sort(z, t);
  return Z3_get_sort_kind(z, s) == Z3_BV_SORT ? Z3_get_bv_sort_size(z, s) : 0;
}

static Z3_decl_kind kind(Z3_context z, Z3_ast t) {
  if (Z3_get_ast_kind(z, t) != Z3_APP_AST)
    return Z3_OP_UNINTERPRETED;
  return Z3_get_decl_kind(z, Z3_get_app_decl(z, Z3_to_app(z, t)));
}

static unsigned nargs(Z3_context z, Z3_ast t) {
  return Z3_get_ast_kind(z, t) == Z3_APP_AST
             ? Z3_get_app_num_args(z, Z3_to_app(z, t))
             : 0;
}

static Z3_ast arg(Z3_context z, Z3_ast t, unsigned i) {
  return Z3_get_app_arg(z, Z3_to_app(z, t), i);
}

static int param(Z3_context z, Z3_ast t, unsigned i) {
  return Z3_get_decl_int_parameter(z, Z3_get_app_decl(z, Z3_to_app(z, t)), i);
}

/* t as a number of at most 64 bits. */
static int numeral(Z3_context z, Z3_ast t, i128 *v) {
  uint64_t u;
  if (!Z3_is_numeral_ast(z, t) || width(z, t) == 0 || width(z, t) > 64 ||
      !Z3_get_numeral_uint64(z, t, &u))
    return 0;
  *v = u;
  return 1;
}

/* The operand of a zero extension (zero_extend or concat with zeros). */
static Z3_ast zext_operand(Z3_context z, Z3_ast t) {
  i128 hi;
  Z3_decl_kind k = kind(z, t);
  if (k == Z3_OP_ZERO_EXT)
    return arg(z, t, 0);
  if (k == Z3_OP_CONCAT && nargs(z, t) == 2 && numeral(z, arg(z, t, 0), &hi) &&
      hi == 0)
    return arg(z, t, 1);
  return NULL;
}

/* ---- bounds (step 1) ----------------------------------------------------*/

static range full(unsigned w) { return (range){0, pow2(w) - 1}; }

/* Terms wider than this (or not bit-vectors) get no bounds: their range,
 * {0, -1}, makes any form over them bad (and 2^w would overflow i128). */
static int bounded(unsigned w) { return w && w <= 120; }

static range meet(range a, range b) {
  return (range){a.lo > b.lo ? a.lo : b.lo, a.hi < b.hi ? a.hi : b.hi};
}

static range recorded(const cx *c, Z3_ast t) {
  intptr_t i;
  unsigned w = width(c->z, t);
  range r = bounded(w) ? full(w) : (range){0, -1};
  return aucs_ptrmap_get(&c->map, t, &i) ? meet(r, c->r[i - 1]) : r;
}

static range bound_of(cx *c, Z3_ast t);

/* What t's operator says of its range, beyond its width. */
static range structural(cx *c, Z3_ast t) {
  Z3_context z = c->z;
  unsigned w = width(z, t);
  if (!bounded(w))
    return (range){0, -1};
  range r = full(w);
  i128 v;
  Z3_ast x = zext_operand(z, t);
  if (numeral(z, t, &v))
    return (range){v, v};
  if (x)
    return bound_of(c, x);
  if (nargs(z, t) != 2)
    return r;
  Z3_ast a = arg(z, t, 0), b = arg(z, t, 1);
  Z3_decl_kind k = kind(z, t);
  int nb = numeral(z, b, &v);
  if (k == Z3_OP_BAND && nb)
    return (range){0, v};
  if ((k != Z3_OP_BUREM_I && k != Z3_OP_BUREM && k != Z3_OP_BLSHR &&
       k != Z3_OP_BUDIV_I && k != Z3_OP_BUDIV && k != Z3_OP_BMUL) ||
      (!nb && k != Z3_OP_BMUL))
    return r;
  range ra = bound_of(c, a);
  switch (k) {
  case Z3_OP_BUREM_I:
  case Z3_OP_BUREM:
    return v > 0 ? (range){0, ra.hi < v - 1 ? ra.hi : v - 1} : r;
  case Z3_OP_BLSHR:
    return v < w ? (range){ra.lo >> (int)v, ra.hi >> (int)v} : r;
  case Z3_OP_BUDIV_I:
  case Z3_OP_BUDIV:
    return v > 0 ? (range){ra.lo / v, ra.hi / v} : r;
  case Z3_OP_BMUL: {
    range rb = bound_of(c, b);
    if (w > 64 || ra.hi >= pow2(62) || rb.hi >= pow2(62))
      return r;
    i128 hi = ra.hi * rb.hi;
    return hi < pow2(w) ? (range){ra.lo * rb.lo, hi} : r;
  }
  default:
    return r;
  }
}

static range bound_of(cx *c, Z3_ast t) {
  return meet(recorded(c, t), structural(c, t));
}

static void tighten(cx *c, Z3_ast t, range r) {
  if (!bounded(width(c->z, t)))
    return;
  intptr_t i;
  if (!aucs_ptrmap_get(&c->map, t, &i)) {
    c->r = aucs_xrealloc(c->r, (c->nr + 1) * sizeof *c->r);
    c->r[c->nr++] = full(width(c->z, t));
    aucs_ptrmap_put(&c->map, t, (intptr_t)c->nr);
    i = (intptr_t)c->nr;
  }
  c->r[i - 1] = meet(c->r[i - 1], r);
  c->empty |= c->r[i - 1].lo > c->r[i - 1].hi;
  Z3_ast x = zext_operand(c->z, t);
  if (x)
    tighten(c, x, r);
}

/* a <= b (strict: a < b), unsigned. */
static void less(cx *c, Z3_ast a, Z3_ast b, int strict) {
  if (!bounded(width(c->z, a)) || !bounded(width(c->z, b)))
    return;
  range ra = bound_of(c, a), rb = bound_of(c, b);
  tighten(c, a, (range){0, rb.hi - strict});
  tighten(c, b, (range){ra.lo + strict, pow2(width(c->z, b)) - 1});
}

/* Both a and b are known non-negative as signed numbers. */
static int nonneg(cx *c, Z3_ast a, Z3_ast b) {
  unsigned w = width(c->z, a);
  return bounded(w) && bound_of(c, a).hi < pow2(w - 1) &&
         bound_of(c, b).hi < pow2(w - 1);
}

/* x == 0 with x = extract(h, l, y) and h y's top bit: y < 2^l. */
static void equal(cx *c, Z3_ast a, Z3_ast b) {
  Z3_context z = c->z;
  i128 v;
  if (!bounded(width(z, a)))
    return;
  range r = meet(bound_of(c, a), bound_of(c, b));
  tighten(c, a, r);
  tighten(c, b, r);
  for (int side = 0; side < 2; side++) {
    Z3_ast x = side ? b : a, n = side ? a : b;
    if (kind(z, x) != Z3_OP_EXTRACT || !numeral(z, n, &v) || v != 0)
      continue;
    Z3_ast y = arg(z, x, 0);
    if (bounded(width(z, y)) && (unsigned)param(z, x, 0) == width(z, y) - 1)
      tighten(c, y, (range){0, pow2((unsigned)param(z, x, 1)) - 1});
  }
}

/* One literal: a comparison, negated when neg. */
static void literal(cx *c, Z3_ast t, int neg) {
  Z3_context z = c->z;
  Z3_decl_kind k = kind(z, t);
  if (k == Z3_OP_NOT) {
    literal(c, arg(z, t, 0), !neg);
    return;
  }
  if (nargs(z, t) != 2)
    return;
  Z3_ast a = arg(z, t, 0), b = arg(z, t, 1);
  int sign = k == Z3_OP_SLEQ || k == Z3_OP_SLT || k == Z3_OP_SGEQ ||
             k == Z3_OP_SGT;
  if (sign && !nonneg(c, a, b))
    return;
  int le = k == Z3_OP_ULEQ || k == Z3_OP_SLEQ, lt = k == Z3_OP_ULT || k == Z3_OP_SLT;
  int ge = k == Z3_OP_UGEQ || k == Z3_OP_SGEQ, gt = k == Z3_OP_UGT || k == Z3_OP_SGT;
  if (k == Z3_OP_EQ && !neg)
    equal(c, a, b);
  else if (le || lt || ge || gt) {
    Z3_ast lo = le || lt ? a : b, hi = le || lt ? b : a;
    int strict = lt || gt;
    if (neg) /* !(lo <= hi) is hi < lo; !(lo < hi) is hi <= lo */
      less(c, hi, lo, !strict);
    else
      less(c, lo, hi, strict);
  }
}

static void conjuncts(cx *c, Z3_ast t) {
  Z3_context z = c->z;
  if (kind(z, t) == Z3_OP_AND) {
    for (unsigned i = 0; i < nargs(z, t); i++)
      conjuncts(c, arg(z, t, i));
    return;
  }
  literal(c, t, 0);
}

static void collect_bounds(cx *c) {
  for (int round = 0; round < ROUNDS; round++)
    for (size_t i = 0; i < c->q->nfacts; i++)
      if (c->q->facts[i])
        conjuncts(c, c->q->facts[i]);
}

/* ---- forms (step 2) -----------------------------------------------------*/

/* x modulo 2^w, in [-2^(w-1), 2^(w-1)). */
static i128 smod(i128 x, unsigned w) {
  i128 m = pow2(w);
  x %= m;
  if (x < 0)
    x += m;
  return x >= m / 2 ? x - m : x;
}

static void add_item(form *f, item it) {
  for (size_t i = 0; i < f->n; i++)
    if (f->v[i].key == it.key && f->v[i].tag == it.tag) {
      f->v[i].c += it.c;
      return;
    }
  if (f->n == MAX_ITEMS) {
    f->bad = 1;
    return;
  }
  f->v[f->n++] = it;
}

/* f += m * g */
static void add_form(form *f, const form *g, i128 m) {
  f->bad |= g->bad;
  f->k += m * g->k;
  for (size_t i = 0; i < g->n; i++) {
    item it = g->v[i];
    it.c *= m;
    add_item(f, it);
  }
}

static void reduce(form *f, unsigned w) {
  size_t n = 0;
  f->k = smod(f->k, w);
  for (size_t i = 0; i < f->n; i++) {
    f->v[i].c = smod(f->v[i].c, w);
    if (f->v[i].c)
      f->v[n++] = f->v[i];
  }
  f->n = n;
}

/* c * [lo, hi], checked. */
static int scale(i128 c, range r, range *out) {
  i128 a, b;
  if (__builtin_mul_overflow(c, r.lo, &a) || __builtin_mul_overflow(c, r.hi, &b))
    return 0;
  *out = a <= b ? (range){a, b} : (range){b, a};
  return 1;
}

/* The range of f over the integers; 0 on overflow. */
static int form_range(const form *f, range *out) {
  range s = {f->k, f->k};
  for (size_t i = 0; i < f->n && !f->bad; i++) {
    range p;
    if (!scale(f->v[i].c, f->v[i].r, &p) ||
        __builtin_add_overflow(s.lo, p.lo, &s.lo) ||
        __builtin_add_overflow(s.hi, p.hi, &s.hi))
      return 0;
  }
  *out = s;
  return !f->bad;
}

static i128 floor_div(i128 a, i128 b) {
  i128 q = a / b;
  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;
}

static i128 ceil_div(i128 a, i128 b) { return -floor_div(-a, b); }

static form atom(cx *c, Z3_ast t) {
  form f = {.n = 1};
  f.v[0] = (item){.key = t, .tag = ATOM, .c = 1, .r = bound_of(c, t)};
  f.bad = f.v[0].r.lo > f.v[0].r.hi;
  return f;
}

/* f made exact: value = f - 2^w * m for the value of t (a w-bit term,
 * f == value mod 2^w) within v, a range of it as a number (unsigned, or
 * signed for a sign extension). */
static void exact(form *f, Z3_ast t, unsigned w, range v) {
  range fr;
  if (!form_range(f, &fr)) {
    f->bad = 1;
    return;
  }
  range m = {ceil_div(fr.lo - v.hi, pow2(w)), floor_div(fr.hi - v.lo, pow2(w))};
  if (m.lo > m.hi) {
    f->bad = 1;
    return;
  }
  if (m.lo == m.hi)
    f->k -= m.lo * pow2(w);
  else
    add_item(f, (item){.key = t, .tag = WRAP, .c = -pow2(w), .r = m});
}

static form parse(cx *c, Z3_ast t);

/* A global index: zext64(x) (or x itself) is a multiple's v of either side. */
static Z3_ast multiple_of(cx *c, Z3_ast x) {
  Z3_context z = c->z;
  unsigned w = width(z, x);
  if (w > 64 || !w)
    return NULL;
  Z3_ast v = w == 64 ? x : Z3_mk_zero_ext(z, 64 - w, x);
  for (int s = 0; s < 2; s++)
    for (size_t i = 0; i < c->q->nmult[s]; i++)
      if (c->q->mult[s][i].v == v)
        return v;
  return NULL;
}

/* The value of extension t of x (w bits) as a number: zero-extended, or
 * sign-extended when sign (then as a signed number). */
static form extended(cx *c, Z3_ast t, Z3_ast x, int sign) {
  unsigned w = width(c->z, x);
  range rx = bound_of(c, x);
  if (sign && rx.hi < pow2(w - 1))
    sign = 0; /* non-negative: both extensions agree */
  Z3_ast v = sign ? NULL : multiple_of(c, x);
  if (v)
    return atom(c, v);
  form f = parse(c, x);
  exact(&f, t, w, sign ? (range){-pow2(w - 1), pow2(w - 1) - 1} : rx);
  return f;
}

static form sum(cx *c, Z3_ast t, int sub) {
  form f = {0};
  for (unsigned i = 0; i < nargs(c->z, t); i++) {
    form g = parse(c, arg(c->z, t, i));
    add_form(&f, &g, sub && i ? -1 : 1);
  }
  return f;
}

/* A product with one non-constant factor is affine; else an atom. */
static form product(cx *c, Z3_ast t) {
  i128 m = 1, v;
  Z3_ast var = NULL;
  for (unsigned i = 0; i < nargs(c->z, t); i++) {
    Z3_ast a = arg(c->z, t, i);
    if (numeral(c->z, a, &v))
      m = smod(m * v, 64);
    else if (var)
      return atom(c, t);
    else
      var = a;
  }
  form f = {.k = m}, g;
  if (!var)
    return f;
  g = parse(c, var);
  f.k = 0;
  add_form(&f, &g, m);
  return f;
}

static form compute(cx *c, Z3_ast t) {
  Z3_context z = c->z;
  i128 v;
  form f = {0};
  if (numeral(z, t, &v)) {
    f.k = v;
    return f;
  }
  Z3_ast x = zext_operand(z, t);
  if (x)
    return extended(c, t, x, 0);
  switch (kind(z, t)) {
  case Z3_OP_BADD:
    return sum(c, t, 0);
  case Z3_OP_BSUB:
    return sum(c, t, 1);
  case Z3_OP_BNEG: {
    form g = parse(c, arg(z, t, 0));
    add_form(&f, &g, -1);
    return f;
  }
  case Z3_OP_BMUL:
    return product(c, t);
  case Z3_OP_BSHL:
    if (numeral(z, arg(z, t, 1), &v) && v < 64) {
      form g = parse(c, arg(z, t, 0));
      add_form(&f, &g, pow2((unsigned)v));
      return f;
    }
    return atom(c, t);
  case Z3_OP_SIGN_EXT:
    return extended(c, t, arg(z, t, 0), 1);
  case Z3_OP_EXTRACT: /* the low bits: the same form modulo 2^w */
    return param(z, t, 1) == 0 && width(z, arg(z, t, 0)) <= 64
               ? parse(c, arg(z, t, 0))
               : atom(c, t);
  default:
    return atom(c, t);
  }
}

/* t's form, coefficients reduced modulo 2^width. */
static form parse(cx *c, Z3_ast t) {
  unsigned w = width(c->z, t);
  if (!w || w > 64)
    return (form){.bad = 1};
  form f = compute(c, t);
  reduce(&f, w);
  return f;
}

/* ---- the difference (step 3) --------------------------------------------*/

static item *find(form *f, Z3_ast key, int tag) {
  for (size_t i = 0; i < f->n; i++)
    if (f->v[i].key == key && f->v[i].tag == tag)
      return &f->v[i];
  return NULL;
}

static i128 coef(form *f, Z3_ast key) {
  item *it = find(f, key, ATOM);
  return it ? it->c : 0;
}

static void drop(form *f, Z3_ast key) {
  item *it = find(f, key, ATOM);
  if (it)
    it->c = 0;
}

/* The block dimension d whose registers are k0, k1 (as 64-bit terms), or
 * -1. */
static int block_dim(cx *c, Z3_ast k0, Z3_ast k1) {
  for (int d = 0; d < 3; d++) {
    Z3_ast r0 = c->q->ctaid[0][d], r1 = c->q->ctaid[1][d];
    Z3_ast e0 = Z3_mk_zero_ext(c->z, 64 - width(c->z, r0), r0);
    Z3_ast e1 = Z3_mk_zero_ext(c->z, 64 - width(c->z, r1), r1);
    if ((k0 == r0 || k0 == e0) && (k1 == r1 || k1 == e1))
      return d;
  }
  return -1;
}

/* Two global indices v0 - v1 of one blockDim (static.c's lemmas): of one
 * block, their threads' difference; of two, a variable that is nonzero
 * when the blocks differ in that dimension (pair[d] gets its index). */
static void multiples(cx *c, form *D, int *pair) {
  const aucs_cheap_query *q = c->q;
  for (size_t i = 0; i < q->nmult[0]; i++)
    for (size_t j = 0; j < q->nmult[1]; j++) {
      const aucs_cheap_multiple *a = &q->mult[0][i], *b = &q->mult[1][j];
      i128 ca = coef(D, a->v), cb = coef(D, b->v);
      if (a->d != b->d || !ca || ca != -cb || a->v == b->v)
        continue;
      range ra = bound_of(c, a->v), rb = bound_of(c, b->v);
      drop(D, a->v);
      drop(D, b->v);
      if (a->k == b->k) {
        form s0 = parse(c, a->s), s1 = parse(c, b->s);
        add_form(D, &s0, ca);
        add_form(D, &s1, -ca);
        continue;
      }
      int d = block_dim(c, a->k, b->k);
      add_item(D, (item){.key = a->v, .tag = PAIR, .c = ca,
                         .r = {ra.lo - rb.hi, ra.hi - rb.lo}});
      if (d >= 0 && q->two_blocks)
        pair[d] = (int)D->n - 1;
    }
}

enum { DIM_EQUAL, DIM_VAR, DIM_FREE };

/* How dimension d of the pair of registers (r0, r1) that must differ in
 * some dimension enters D; *var gets the variable's index for DIM_VAR. */
static int dimension(cx *c, form *D, Z3_ast r0, Z3_ast r1, int pair,
                     int *var) {
  range b0 = bound_of(c, r0), b1 = bound_of(c, r1);
  i128 c0 = coef(D, r0), c1 = coef(D, r1);
  if (b0.lo == b0.hi && b1.lo == b1.hi && b0.lo == b1.lo)
    return DIM_EQUAL;
  if (pair >= 0) {
    *var = pair;
    return c0 || c1 ? DIM_FREE : DIM_VAR;
  }
  if (!c0 || c0 != -c1)
    return DIM_FREE;
  drop(D, r0);
  drop(D, r1);
  add_item(D, (item){.key = r0, .tag = DELTA, .c = c0,
                     .r = {b0.lo - b1.hi, b0.hi - b1.lo}});
  *var = (int)D->n - 1;
  return DIM_VAR;
}

/* The indices of D's items one of which must be nonzero (into var[]):
 * their count, 0 for none (a free dimension), -2 when the registers
 * cannot differ at all. */
static int distinct(cx *c, form *D, const int *pair, int *var) {
  const aucs_cheap_query *q = c->q;
  int free_ = 0, vars = 0;
  for (int d = 0; d < 3; d++) {
    Z3_ast r0 = q->two_blocks ? q->ctaid[0][d] : q->tid[0][d];
    Z3_ast r1 = q->two_blocks ? q->ctaid[1][d] : q->tid[1][d];
    int v = -1, st = dimension(c, D, r0, r1, pair[d], &v);
    free_ += st == DIM_FREE;
    if (st == DIM_VAR)
      var[vars++] = v;
  }
  return free_ ? 0 : vars ? vars : -2;
}

/* ---- the decision (step 4) ----------------------------------------------*/

/* Drop D's zero items, coefficients modulo 2^64; keep[0..nkeep) get their
 * new indices (-1: dropped, a zero coefficient). */
static void compact(form *D, int *keep, int nkeep) {
  size_t n = 0;
  for (size_t i = 0; i < D->n; i++) {
    D->v[i].c = smod(D->v[i].c, 64);
    int kept = D->v[i].c != 0;
    for (int j = 0; j < nkeep; j++)
      if (keep[j] == (int)i)
        keep[j] = kept ? (int)n : -1;
    if (kept)
      D->v[n++] = D->v[i];
  }
  D->n = n;
  D->k = smod(D->k, 64);
}

typedef struct search {
  const form *D;
  size_t *order; /* enumerated items, then boxed, then the last */
  size_t nenum, nbox, last;
  int nonzero;   /* item index, or -1 */
  range box, win;
} search;

static i128 size_of(const item *it) { return it->r.hi - it->r.lo + 1; }

/* Can the last item, with the others summing to s, put D in the window? */
static int last_fits(const search *s, i128 sum) {
  const item *it = &s->D->v[s->last];
  i128 lo = s->win.lo - sum - s->box.hi, hi = s->win.hi - sum - s->box.lo;
  range y = it->c > 0 ? (range){ceil_div(lo, it->c), floor_div(hi, it->c)}
                      : (range){ceil_div(hi, it->c), floor_div(lo, it->c)};
  y = meet(y, it->r);
  if (y.lo > y.hi)
    return 0;
  return s->nonzero != (int)s->last || y.lo != 0 || y.hi != 0;
}

static int fits(const search *s, size_t i, i128 sum) {
  if (i == s->nenum)
    return last_fits(s, sum);
  size_t k = s->order[i];
  const item *it = &s->D->v[k];
  for (i128 y = it->r.lo; y <= it->r.hi; y++)
    if (!(s->nonzero == (int)k && y == 0) && fits(s, i + 1, sum + it->c * y))
      return 1;
  return 0;
}

/* Order D's items: by size, the largest last; the smallest enumerated
 * while their product stays below ENUM_MAX, the rest boxed. */
static void plan(search *s) {
  const form *D = s->D;
  size_t n = D->n;
  s->order = aucs_xcalloc(n + 1, sizeof *s->order);
  for (size_t i = 0; i < n; i++)
    s->order[i] = i;
  for (size_t i = 1; i < n; i++)
    for (size_t j = i; j > 0 && size_of(&D->v[s->order[j]]) <
                                    size_of(&D->v[s->order[j - 1]]);
         j--) {
      size_t t = s->order[j];
      s->order[j] = s->order[j - 1], s->order[j - 1] = t;
    }
  s->last = s->order[n - 1];
  i128 product = 1;
  while (s->nenum < n - 1 &&
         product * size_of(&D->v[s->order[s->nenum]]) <= ENUM_MAX)
    product *= size_of(&D->v[s->order[s->nenum++]]);
  s->box = (range){0, 0};
  for (size_t i = s->nenum; i < n - 1; i++) {
    range p = {0, 0}; /* no overflow: D's whole range fits */
    scale(D->v[s->order[i]].c, D->v[s->order[i]].r, &p);
    s->box.lo += p.lo, s->box.hi += p.hi;
  }
}

/* Whether D (signed, within +-2^62) can fall in window w. */
static int can_overlap(const form *D, int nonzero, range w) {
  range all;
  if (!form_range(D, &all) || all.lo < -pow2(62) || all.hi > pow2(62))
    return 1;
  if (!D->n)
    return D->k >= w.lo && D->k <= w.hi;
  search s = {.D = D, .nonzero = nonzero, .win = {w.lo - D->k, w.hi - D->k}};
  plan(&s);
  int r = fits(&s, 0, 0);
  free(s.order);
  return r;
}

/* Whether D misses window w whenever one of the nvar items var[] is
 * nonzero (nvar <= 0: with no item constrained). Several variables (the
 * threads differ in x or in y: a 2-D thread_rank()) are one search each,
 * with that one nonzero: their union covers every such assignment. */
static int fits_nowhere(const form *D, const int *var, int nvar, range w) {
  if (nvar <= 0)
    return !can_overlap(D, -1, w);
  for (int i = 0; i < nvar; i++)
    if (can_overlap(D, var[i], w)) /* -1: its coefficient was 0 */
      return 0;
  return 1;
}

/* The overlap window of D = addr a - addr b. 0 when sizes are unknown. */
static int window(cx *c, range *w) {
  i128 n0, n1;
  if (c->q->equal) {
    *w = (range){0, 0};
    return 1;
  }
  if (!numeral(c->z, c->q->size[0], &n0) || !numeral(c->z, c->q->size[1], &n1) ||
      !n0 || !n1 || n0 > pow2(40) || n1 > pow2(40))
    return 0;
  *w = (range){-(n0 - 1), n1 - 1};
  return 1;
}

static aucs_cheap_verdict decide(cx *c, const char **rule) {
  range w;
  collect_bounds(c);
  if (c->empty) {
    *rule = "bounds";
    return AUCS_CHEAP_UNSAT;
  }
  if (!window(c, &w))
    return AUCS_CHEAP_OPEN;
  form D = parse(c, c->q->addr[0]), b = parse(c, c->q->addr[1]);
  add_form(&D, &b, -1);
  reduce(&D, 64);
  int pair[3] = {-1, -1, -1}, var[3];
  multiples(c, &D, pair);
  int nvar = distinct(c, &D, pair, var);
  if (nvar == -2) {
    *rule = "one-thread";
    return AUCS_CHEAP_UNSAT;
  }
  compact(&D, var, nvar > 0 ? nvar : 0);
  if (D.bad || !fits_nowhere(&D, var, nvar, w))
    return AUCS_CHEAP_OPEN;
  *rule = nvar > 0 ? "distinct-threads" : "disjoint";
  return AUCS_CHEAP_UNSAT;
}

aucs_cheap_verdict aucs_cheap_decide(const aucs_cheap_query *q,
                                     const char **rule) {
  const char *dummy;
  cx c = {.q = q, .z = q->z};
  aucs_cheap_verdict v = decide(&c, rule ? rule : &dummy);
  aucs_ptrmap_free(&c.map);
  free(c.r);
  return v;
}
