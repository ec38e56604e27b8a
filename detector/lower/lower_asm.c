/*
 * lower_asm: inline PTX of any text, statement by statement, to bytecode:
 * the instructions of include/aucs/ptx.def, which is what the CUDA headers'
 * half and bfloat16 types, their load intrinsics and warp functions emit
 * (exact texts of intrinsics.def and textures are matched before this).
 *
 * Steps:
 *   1. Parse the text (aucs/ptx.h) and the constraints: $0.. of the outputs
 *      are the call's result slots (a struct's leaves), the inputs its
 *      arguments; an input tied to an output (`+h`) is copied to it first;
 *      each .reg local gets a slot of its own.
 *   2. Lower each statement by its class (ptx.def):
 *        MOV    a copy; `{a, b}` packs (b in the high half), `{lo, hi}` as a
 *               destination unpacks, with shifts and masks
 *        CVT    one CVT op (aucs/cvt.h); f16x2/bf16x2 from two f32 is two
 *        ARITH  f32 and f64 by their ops; f16 and bf16 through f64: convert
 *               (exact), compute, round back once with CVT; x2 lane by lane;
 *               integers by the integer ops of the type's width and sign
 *        LD/ST  plain loads and stores, one per vector element (.nc and the
 *               cache hints change nothing for races; .volatile is
 *               volatile; .relaxed, .acquire, .release with a scope atomic)
 *        SHFL, VOTE, ACTIVEMASK  warp collectives (OP_WARP)
 *        SETP, SELP  compare into a predicate slot (0/1), select on one;
 *               SET compares into a value (1.0 or all ones; x2 by lane)
 *        SHF    funnel shifts, through a 64-bit {hi, lo}; BMSK bit masks
 *        MATH   ex2, lg2, sin, cos, tanh, sqrt, rsqrt, rcp: the library
 *               row on the host (f16/bf16 through f32)
 *        EXIT   the thread ends (OP_EXIT), from any depth
 *        NOP    prefetches and nanosleep: nothing to model
 *      A guarded statement (`@p add.u32 r, r, $4;` in CUB's scans) writes
 *      temporaries, then selects them into its registers by the guard; one
 *      with other effects (memory, warp, exit) is not lowered.
 *   3. Anything else (another instruction, a modifier not modelled such as
 *      .relu or directed rounding of arithmetic, an operand of an
 *      unexpected shape) leaves the call unsupported, quoting its text.
 *
 * Limitation: fma of f16/bf16 rounds twice (to f64, then to the half type),
 * so it may differ from the GPU in the last bit when the exact result lies
 * within 2^-53 of a tie (add, sub and mul are exact in f64); .ftz is read
 * and ignored (subnormals are kept); min/max of -0 and +0 may give either.
 */
#include "lower_impl.h"

#include "aucs/cvt.h"
#include "aucs/ptx.h"
#include "aucs/sync.h"
#include <ctype.h>

enum {
  P_MOV,
  P_CVT,
  P_LD,
  P_ST,
  P_SHFL,
  P_VOTE,
  P_ACTIVEMASK,
  P_EXIT,
  P_SETP,
  P_SELP,
  P_SHF,
  P_NOP,
  P_BMSK,
  P_MATH,
  P_SET,
  P_ARITH
};

typedef struct ptx_row {
  const char *opcode;
  int cls;
  uint16_t int_op, float_op;
} ptx_row;

static const ptx_row rows[] = {
#define AUCS_PTX_OP(o, c, m, i, f) {o, P_##c, i, f},
#include "aucs/ptx.def"
};

static const struct {
  const char *opcode, *libcall;
} maths[] = {
#define AUCS_PTX_OP(o, c, m, i, f)
#define AUCS_PTX_MATH(o, l) {o, l},
#include "aucs/ptx.def"
};

typedef struct actx {
  lowerer *L;
  LLVMValueRef I;
  uint32_t d; /* the call's result slots */
  aucs_ptx_constraints con;
  aucs_ptx p;
  uint32_t local[AUCS_PTX_MAX_LOCALS];
  const aucs_ptx_stmt *s; /* the statement being lowered */
  const ptx_row *row;
  const char *why; /* the first reason a statement is not lowered */
  /* A guarded statement writes temporaries: (register, temporary) pairs,
   * selected into the registers by the guard afterwards. */
  uint32_t held[2 * AUCS_PTX_MAX_ELEMS][2];
  unsigned nheld;
  int guarding;
} actx;

static int no(actx *a, const char *why) {
  if (!a->why)
    a->why = why;
  return 1;
}

static uint32_t temp(actx *a, unsigned n) { return lw_new_slots(a->L, n); }

static uint32_t konst(actx *a, uint64_t v) {
  uint32_t s = temp(a, 1);
  a->L->image.v[s] = v;
  return s;
}

/* op d = x, y, z at width w (the result masked to it). */
static void emit(actx *a, int op, uint32_t d, uint32_t x, uint32_t y,
                 uint32_t z, unsigned w) {
  lw_emit(a->L, (bc_insn){.op = (uint16_t)op,
                          .d = d,
                          .a = x,
                          .b = y,
                          .c = z,
                          .x = (uint16_t)w,
                          .imm = lw_mask_of(w)});
}

static void cvt(actx *a, uint32_t d, uint32_t x, unsigned form) {
  lw_emit(a->L, (bc_insn){.op = OP_CVT, .d = d, .a = x, .x = (uint16_t)form});
}

/* ---- operands ---- */

static const struct {
  const char *name;
  int sr;
} sregs[] = {{"laneid", SR_LANEID},
             {"warpid", SR_WARPID},
             {"nwarpid", SR_NWARPID},
             {"tid.x", SR_TID_X},
             {"tid.y", SR_TID_Y},
             {"tid.z", SR_TID_Z},
             {"ntid.x", SR_NTID_X},
             {"ntid.y", SR_NTID_Y},
             {"ntid.z", SR_NTID_Z},
             {"ctaid.x", SR_CTAID_X},
             {"ctaid.y", SR_CTAID_Y},
             {"ctaid.z", SR_CTAID_Z},
             {"nctaid.x", SR_NCTAID_X},
             {"nctaid.y", SR_NCTAID_Y},
             {"nctaid.z", SR_NCTAID_Z},
             {"lanemask_eq", SR_LANEMASK_EQ},
             {"lanemask_lt", SR_LANEMASK_LT},
             {"lanemask_le", SR_LANEMASK_LE},
             {"lanemask_gt", SR_LANEMASK_GT},
             {"lanemask_ge", SR_LANEMASK_GE},
             {"clock", SR_CLOCK},
             {"clock64", SR_CLOCK64},
             {"dynamic_smem_size", SR_DYN_SMEM}};

static int sreg(actx *a, const aucs_ptx_elem *e, uint32_t *s) {
  if (e->len == 7 && !memcmp(e->text, "WARP_SZ", 7)) {
    *s = konst(a, 32);
    return 0;
  }
  for (size_t i = 0; i < sizeof sregs / sizeof *sregs; i++)
    if (strlen(sregs[i].name) == e->len &&
        !memcmp(sregs[i].name, e->text, e->len)) {
      *s = temp(a, 1);
      lw_emit(a->L,
              (bc_insn){.op = OP_SREG, .d = *s, .x = (uint16_t)sregs[i].sr});
      return 0;
    }
  return no(a, "a special register aucs does not model");
}

static int rd(actx *a, const aucs_ptx_elem *e, uint32_t *s) {
  unsigned outs = a->con.outs;
  int bad = 0;
  switch (e->kind) {
  case AUCS_PTX_ARG:
    if (e->n < outs)
      *s = a->d + e->n;
    else if (e->n - outs < (unsigned)LLVMGetNumArgOperands(a->I))
      *s = lw_op_slot(a->L, a->I, e->n - outs, &bad);
    else
      return no(a, "an operand number past the call's arguments");
    if (bad)
      return no(a, "an argument the interpreter cannot hold");
    break;
  case AUCS_PTX_LOCAL:
    *s = a->local[e->n];
    break;
  case AUCS_PTX_IMM:
    *s = konst(a, e->imm);
    break;
  case AUCS_PTX_SREG:
    if (sreg(a, e, s))
      return 1;
    break;
  default:
    return no(a, "`_` is read");
  }
  if (e->negated) { /* !p */
    uint32_t t = temp(a, 1);
    emit(a, OP_XOR, t, *s, konst(a, 1), 0, 1);
    *s = t;
  }
  return 0;
}

static int wr_reg(actx *a, const aucs_ptx_elem *e, uint32_t *s);

/* The slot element e is written through: its register, or under a guard a
 * temporary that starts as the register's value. */
static int wr(actx *a, const aucs_ptx_elem *e, uint32_t *s) {
  if (wr_reg(a, e, s))
    return 1;
  if (!a->guarding || e->kind == AUCS_PTX_SINK)
    return 0;
  if (a->nheld == sizeof a->held / sizeof *a->held)
    return no(a, "a guarded instruction of this form");
  uint32_t t = temp(a, 1);
  lw_emit_mov(a->L, t, *s, 1);
  a->held[a->nheld][0] = *s;
  a->held[a->nheld++][1] = t;
  *s = t;
  return 0;
}

static int wr_reg(actx *a, const aucs_ptx_elem *e, uint32_t *s) {
  switch (e->kind) {
  case AUCS_PTX_ARG:
    if (e->n >= a->con.outs)
      return no(a, "an input operand is written");
    *s = a->d + e->n;
    return 0;
  case AUCS_PTX_LOCAL:
    *s = a->local[e->n];
    return 0;
  case AUCS_PTX_SINK:
    *s = temp(a, 1);
    return 0;
  default:
    return no(a, "a result goes to a constant");
  }
}

/* The width of the register an element names: an output's LLVM type, a
 * local's declared type; 32 otherwise. */
static unsigned width_of(const actx *a, const aucs_ptx_elem *e) {
  LLVMTypeRef t = LLVMTypeOf(a->I);
  if (e->kind == AUCS_PTX_ARG && e->n < a->con.outs)
    return lw_width(a->con.outs == 1 ? t : LLVMStructGetTypeAtIndex(t, e->n));
  if (e->kind == AUCS_PTX_LOCAL) {
    aucs_ptx_token ty = a->p.local[e->n].type;
    int k = aucs_cvt_type_of(ty.s, ty.n);
    return k < 0 ? 32 : aucs_cvt_bits((aucs_cvt_type)k);
  }
  return 32;
}

static const aucs_ptx_operand *plain(actx *a, unsigned i) {
  const aucs_ptx_operand *o = i < a->s->nop ? &a->s->op[i] : NULL;
  if (!o || o->kind != AUCS_PTX_PLAIN) {
    no(a, "an operand of an unexpected shape");
    return NULL;
  }
  return o;
}

static int rd_op(actx *a, unsigned i, uint32_t *s) {
  const aucs_ptx_operand *o = plain(a, i);
  return !o || rd(a, &o->e[0], s);
}

static int wr_op(actx *a, unsigned i, uint32_t *s) {
  const aucs_ptx_operand *o = plain(a, i);
  return !o || wr(a, &o->e[0], s);
}

/* ---- tokens ---- */

static aucs_ptx_token tok(const actx *a, unsigned i) { return a->s->tok[i]; }
static aucs_ptx_token last(const actx *a) { return a->s->tok[a->s->ntok - 1]; }

/* A type token's bits (pred 1), or 0. */
static unsigned type_bits(aucs_ptx_token t) {
  if (aucs_ptx_is(t, "pred"))
    return 1;
  int ty = aucs_cvt_type_of(t.s, t.n);
  return ty < 0 ? 0 : aucs_cvt_bits((aucs_cvt_type)ty);
}

/* f16, bf16 and their x2 forms: the type and the lanes; 0 for others. */
static unsigned half_lanes(aucs_ptx_token t, aucs_cvt_type *ty) {
  int bf = t.n > 0 && t.s[0] == 'b';
  aucs_ptx_token base = {t.s + bf, t.n - (unsigned)bf};
  *ty = bf ? AUCS_CVT_BF16 : AUCS_CVT_F16;
  return aucs_ptx_is(base, "f16") ? 1 : aucs_ptx_is(base, "f16x2") ? 2 : 0;
}

/* The rounding token at i: its mode and whether it is integral (rni..);
 * -1 when t is no rounding token. */
static int rounding(aucs_ptx_token t, int *integral) {
  static const char *const modes[] = {"rn", "rz", "rm", "rp"};
  for (int m = 0; m < 4; m++) {
    size_t k = strlen(modes[m]);
    if (t.n == k && !memcmp(t.s, modes[m], k))
      return *integral = 0, m;
    if (t.n == k + 1 && !memcmp(t.s, modes[m], k) && t.s[k] == 'i')
      return *integral = 1, m;
  }
  return -1;
}

/* ---- MOV ---- */

/* {e0, e1, ..} = bits of src, each ew bits wide. */
static int unpack(actx *a, const aucs_ptx_operand *dst, uint32_t src,
                  unsigned ew) {
  for (unsigned i = 0; i < dst->n; i++) {
    uint32_t d;
    if (dst->e[i].kind == AUCS_PTX_SINK)
      continue;
    if (wr(a, &dst->e[i], &d))
      return 1;
    emit(a, OP_LSHR, d, src, konst(a, i * ew), 0, 64);
    a->L->code.v[a->L->code.n - 1].imm = lw_mask_of(ew);
  }
  return 0;
}

/* d = {e0, e1, ..}, e0 in the low ew bits. */
static int pack(actx *a, uint32_t d, const aucs_ptx_operand *src, unsigned ew) {
  uint32_t acc = temp(a, 1);
  for (unsigned i = 0; i < src->n; i++) {
    uint32_t v, t = temp(a, 1);
    if (rd(a, &src->e[i], &v))
      return 1;
    emit(a, OP_TRUNC, t, v, 0, 0, ew);
    if (i) {
      emit(a, OP_SHL, t, t, konst(a, i * ew), 0, 64);
      emit(a, OP_OR, acc, acc, t, 0, 64);
    } else {
      lw_emit_mov(a->L, acc, t, 1);
    }
  }
  lw_emit_mov(a->L, d, acc, 1);
  return 0;
}

static int p_mov(actx *a) {
  const aucs_ptx_stmt *s = a->s;
  unsigned w = s->ntok == 2 ? type_bits(tok(a, 1)) : 0;
  if (!w || s->nop != 2)
    return no(a, "a mov of this form");
  const aucs_ptx_operand *dst = &s->op[0], *src = &s->op[1];
  uint32_t v, d;
  if (dst->kind == AUCS_PTX_VECTOR && src->kind == AUCS_PTX_PLAIN)
    return w % dst->n ? no(a, "a mov of this form")
                      : rd(a, &src->e[0], &v) || unpack(a, dst, v, w / dst->n);
  if (src->kind == AUCS_PTX_VECTOR && dst->kind == AUCS_PTX_PLAIN)
    return w % src->n ? no(a, "a mov of this form")
                      : wr(a, &dst->e[0], &d) || pack(a, d, src, w / src->n);
  if (rd_op(a, 1, &v) || wr_op(a, 0, &d))
    return 1;
  emit(a, OP_TRUNC, d, v, 0, 0, w);
  return 0;
}

/* ---- CVT ---- */

static int p_cvt(actx *a) {
  const aucs_ptx_stmt *s = a->s;
  int mode = -1, integral = 0, in = 0;
  unsigned flags = 0;
  if (s->ntok < 3)
    return no(a, "a cvt of this form");
  for (unsigned i = 1; i + 2 < s->ntok; i++) {
    int m = rounding(tok(a, i), &in);
    if (m >= 0)
      mode = m, integral = in;
    else if (aucs_ptx_is(tok(a, i), "sat"))
      flags |= AUCS_CVT_SAT;
    else if (!aucs_ptx_is(tok(a, i), "ftz"))
      return no(a, "a cvt modifier aucs does not model");
  }
  aucs_ptx_token dt = tok(a, s->ntok - 2), st = last(a);
  aucs_cvt_type hty;
  int src = aucs_cvt_type_of(st.s, st.n), dst = aucs_cvt_type_of(dt.s, dt.n);
  if (half_lanes(dt, &hty) == 2 && src == AUCS_CVT_F32) {
    /* cvt.rn.f16x2.f32 d, hi, lo */
    uint32_t d, hi, lo, t[2] = {temp(a, 1), temp(a, 1)};
    if (s->nop != 3 || wr_op(a, 0, &d) || rd_op(a, 1, &hi) || rd_op(a, 2, &lo))
      return 1;
    unsigned form = AUCS_CVT_FORM(hty, AUCS_CVT_F32, mode < 0 ? 0 : mode);
    cvt(a, t[0], lo, form | flags);
    cvt(a, t[1], hi, form | flags);
    emit(a, OP_SHL, t[1], t[1], konst(a, 16), 0, 32);
    emit(a, OP_OR, d, t[0], t[1], 0, 32);
    return 0;
  }
  if (src < 0 || dst < 0 || s->nop != 2)
    return no(a, "a cvt of this form");
  if (mode < 0) /* PTX requires one but for widening: C's choice */
    mode = aucs_cvt_is_float(dst) ? AUCS_CVT_RN : AUCS_CVT_RZ;
  uint32_t d, v;
  if (rd_op(a, 1, &v) || wr_op(a, 0, &d))
    return 1;
  cvt(a, d, v,
      AUCS_CVT_FORM(dst, src, mode) | flags |
          (integral ? (unsigned)AUCS_CVT_INTEGRAL : 0));
  return 0;
}

/* ---- LD / ST ---- */

/* The MEM_* flags of an ld/st's tokens, and its vector lanes. */
static int mem_flags(actx *a, int store, uint64_t *imm, unsigned *lanes) {
  static const char *const plain_tokens[] = {
      "weak", "global", "shared", "local", "const", "nc", "ca",
      "cg",   "cs",     "lu",     "cv",    "wb",    "wt"};
  uint64_t f = 0;
  int scope = -1;
  *lanes = 1;
  for (unsigned i = 1; i + 1 < a->s->ntok; i++) {
    aucs_ptx_token t = tok(a, i);
    int known =
        (t.n > 4 && (!memcmp(t.s, "L1::", 4) || !memcmp(t.s, "L2::", 4)) &&
         !aucs_ptx_is(t, "L2::cache_hint"));
    for (size_t k = 0; !known && k < sizeof plain_tokens / sizeof *plain_tokens;
         k++)
      known = aucs_ptx_is(t, plain_tokens[k]);
    if (known)
      continue;
    if (aucs_ptx_is(t, "v2") || aucs_ptx_is(t, "v4"))
      *lanes = (unsigned)(t.s[1] - '0');
    else if (aucs_ptx_is(t, "volatile"))
      f |= MEM_VOLATILE;
    else if (aucs_ptx_is(t, "relaxed"))
      f |= MEM_ATOMIC;
    else if (aucs_ptx_is(t, store ? "release" : "acquire"))
      f |= MEM_ATOMIC | (store ? MEM_RELEASE : MEM_ACQUIRE);
    else if (aucs_ptx_is(t, "cta"))
      scope = AUCS_SCOPE_BLOCK;
    else if (aucs_ptx_is(t, "gpu"))
      scope = AUCS_SCOPE_DEVICE;
    else if (aucs_ptx_is(t, "sys"))
      scope = AUCS_SCOPE_SYSTEM;
    else
      return no(a, "a load or store modifier aucs does not model");
  }
  if ((f & MEM_ATOMIC) && scope < 0)
    return no(a, "an ordered load or store without a scope");
  *imm = f | (f & MEM_ATOMIC ? MEM_WITH_SCOPE(scope) : 0);
  return 0;
}

/* The address of element i (size bytes each) of the access at operand k. */
static int address(actx *a, unsigned k, unsigned i, unsigned size,
                   uint32_t *s) {
  const aucs_ptx_operand *o = k < a->s->nop ? &a->s->op[k] : NULL;
  if (!o || o->kind != AUCS_PTX_ADDRESS)
    return no(a, "an address of an unexpected shape");
  if (rd(a, &o->e[0], s))
    return 1;
  int64_t off = o->offset + (int64_t)i * size;
  if (off) {
    uint32_t t = temp(a, 1);
    lw_emit(a->L,
            (bc_insn){.op = OP_ADDI, .d = t, .a = *s, .imm = (uint64_t)off});
    *s = t;
  }
  return 0;
}

static int p_ldst(actx *a) {
  int store = a->row->cls == P_ST;
  unsigned bits = type_bits(last(a)), lanes;
  uint64_t imm;
  if (a->s->nop != 2 || bits < 8 || mem_flags(a, store, &imm, &lanes))
    return no(a, "a load or store of this form");
  const aucs_ptx_operand *v = &a->s->op[store ? 1 : 0];
  if (v->n != lanes || v->kind == AUCS_PTX_ADDRESS || v->kind == AUCS_PTX_PAIR)
    return no(a, "a load or store of this form");
  unsigned size = bits / 8;
  int sign = last(a).s[0] == 's' && size < 4;
  for (unsigned i = 0; i < lanes; i++) {
    uint32_t p, x;
    if (address(a, store ? 0 : 1, i, size, &p) ||
        (store ? rd(a, &v->e[i], &x) : wr(a, &v->e[i], &x)))
      return 1;
    lw_emit(a->L, (bc_insn){.op = store ? OP_STORE : OP_LOAD,
                            .d = store ? 0 : x,
                            .a = p,
                            .b = store ? x : 0,
                            .x = (uint16_t)size,
                            .imm = imm});
    if (sign) { /* ld.s8 / ld.s16 into a wider register */
      emit(a, OP_SEXT, x, x, 0, 0, bits);
      a->L->code.v[a->L->code.n - 1].imm = lw_mask_of(width_of(a, &v->e[i]));
    }
  }
  return 0;
}

/* ---- warp collectives ---- */

static int warp_mode(aucs_ptx_token t, const char *const *names, int first) {
  for (int i = 0; names[i]; i++)
    if (aucs_ptx_is(t, names[i]))
      return first + i;
  return -1;
}

/* The mode of a shfl or vote: its one token between the opcode and the
 * type besides `sync` (either order: CUB writes vote.ballot.sync.b32);
 * *sync whether there is a `sync`. -1 for another form. */
static int collective_mode(actx *a, const char *const *names, int first,
                           int *sync) {
  int mode = -1, n = 0;
  *sync = 0;
  for (unsigned i = 1; i + 1 < a->s->ntok; i++, n++) {
    if (aucs_ptx_is(tok(a, i), "sync"))
      *sync = 1;
    else
      mode = warp_mode(tok(a, i), names, first);
  }
  return n == 1 + *sync ? mode : -1;
}

/* shfl[.sync].mode.b32 d[|p], a, b, c[, mask] */
static int p_shfl(actx *a) {
  static const char *const modes[] = {"idx", "up", "down", "bfly", NULL};
  int sync, mode = collective_mode(a, modes, W_SHFL_IDX, &sync);
  const aucs_ptx_operand *o = &a->s->op[0];
  if (mode < 0 || !aucs_ptx_is(last(a), "b32") ||
      a->s->nop != 4 + (unsigned)sync ||
      (o->kind != AUCS_PTX_PLAIN && o->kind != AUCS_PTX_PAIR))
    return no(a, "a shfl of this form");
  uint32_t t = temp(a, 2), x, y, z, d;
  if (rd_op(a, 1, &x) || rd_op(a, 2, &y) || rd_op(a, 3, &z))
    return 1;
  lw_emit(a->L, (bc_insn){.op = OP_WARP,
                          .x = (uint16_t)mode,
                          .d = t,
                          .a = x,
                          .b = y,
                          .c = z,
                          .imm = o->kind == AUCS_PTX_PAIR ? W_PRED : 0});
  for (unsigned i = 0; i < o->n; i++) {
    if (wr(a, &o->e[i], &d))
      return 1;
    lw_emit_mov(a->L, d, t + i, 1);
  }
  return 0;
}

/* vote[.sync].mode.type d, p[, mask] */
static int p_vote(actx *a) {
  static const char *const modes[] = {"all", "any", "uni", "ballot", NULL};
  int sync, mode = collective_mode(a, modes, W_VOTE_ALL, &sync);
  uint32_t d, p;
  if (mode < 0 || a->s->nop != 2 + (unsigned)sync ||
      !aucs_ptx_is(last(a), mode == W_VOTE_BALLOT ? "b32" : "pred"))
    return no(a, "a vote of this form");
  if (rd_op(a, 1, &p) || wr_op(a, 0, &d))
    return 1;
  lw_emit(a->L, (bc_insn){.op = OP_WARP, .x = (uint16_t)mode, .d = d, .a = p});
  return 0;
}

static int p_activemask(actx *a) {
  uint32_t d;
  if (a->s->ntok != 2 || !aucs_ptx_is(last(a), "b32") || a->s->nop != 1 ||
      wr_op(a, 0, &d))
    return no(a, "an activemask of this form");
  lw_emit(a->L, (bc_insn){.op = OP_WARP, .x = W_ACTIVEMASK, .d = d});
  return 0;
}

static int p_exit(actx *a) {
  if (a->s->ntok != 1 || a->s->nop)
    return no(a, "an exit of this form");
  lw_emit(a->L, (bc_insn){.op = OP_EXIT});
  return 0;
}

/* ---- SETP / SELP ---- */

static const struct {
  const char *name;
  int sop, uop, fpred; /* signed and unsigned icmp, the fcmp predicate */
} cmps[] = {{"eq", OP_ICMP_EQ, OP_ICMP_EQ, LLVMRealOEQ},
            {"ne", OP_ICMP_NE, OP_ICMP_NE, LLVMRealONE},
            {"lt", OP_ICMP_SLT, OP_ICMP_ULT, LLVMRealOLT},
            {"le", OP_ICMP_SLE, OP_ICMP_ULE, LLVMRealOLE},
            {"gt", OP_ICMP_SGT, OP_ICMP_UGT, LLVMRealOGT},
            {"ge", OP_ICMP_SGE, OP_ICMP_UGE, LLVMRealOGE},
            {"lo", OP_ICMP_ULT, OP_ICMP_ULT, -1},
            {"ls", OP_ICMP_ULE, OP_ICMP_ULE, -1},
            {"hi", OP_ICMP_UGT, OP_ICMP_UGT, -1},
            {"hs", OP_ICMP_UGE, OP_ICMP_UGE, -1},
            {"equ", -1, -1, LLVMRealUEQ},
            {"neu", -1, -1, LLVMRealUNE},
            {"ltu", -1, -1, LLVMRealULT},
            {"leu", -1, -1, LLVMRealULE},
            {"gtu", -1, -1, LLVMRealUGT},
            {"geu", -1, -1, LLVMRealUGE},
            {"num", -1, -1, LLVMRealORD},
            {"nan", -1, -1, LLVMRealUNO}};

/* d = the 16-bit half l (0 low, 1 high) of v. */
static void half_of(actx *a, uint32_t d, uint32_t v, unsigned l) {
  emit(a, OP_LSHR, d, v, konst(a, 16 * l), 0, 64);
  a->L->code.v[a->L->code.n - 1].imm = 0xffff;
}

/* A half-type value (lane 0) as f64 in a new slot. */
static uint32_t widen(actx *a, uint32_t v, aucs_cvt_type ty) {
  uint32_t t = temp(a, 1);
  cvt(a, t, v, AUCS_CVT_FORM(AUCS_CVT_F64, ty, AUCS_CVT_RN));
  return t;
}

/* The comparison token at 1 (cmps index), or -1. */
static int cmp_of(actx *a) {
  for (size_t i = 0; a->s->ntok >= 3 && i < sizeof cmps / sizeof *cmps; i++)
    if (aucs_ptx_is(tok(a, 1), cmps[i].name))
      return (int)i;
  return -1;
}

/* p = x cmps[c] y on values of type ty. */
static int compare(actx *a, int c, aucs_cvt_type ty, uint32_t p, uint32_t x,
                   uint32_t y) {
  if (!aucs_cvt_is_float(ty)) {
    int sgn = ty >= AUCS_CVT_S8 && ty <= AUCS_CVT_S64;
    int op = sgn ? cmps[c].sop : cmps[c].uop;
    if (op < 0)
      return no(a, "a comparison of this form");
    emit(a, op, p, x, y, 0, aucs_cvt_bits(ty));
    return 0;
  }
  if (cmps[c].fpred < 0)
    return no(a, "a comparison of this form");
  int op = OP_FCMP32 + (ty == AUCS_CVT_F64);
  if (ty == AUCS_CVT_F16 || ty == AUCS_CVT_BF16)
    x = widen(a, x, ty), y = widen(a, y, ty), op = OP_FCMP64;
  lw_emit(a->L, (bc_insn){.op = (uint16_t)op,
                          .d = p,
                          .a = x,
                          .b = y,
                          .x = (uint16_t)cmps[c].fpred});
  return 0;
}

/* setp.cmp[.ftz].type p[|q], a, b */
static int p_setp(actx *a) {
  const aucs_ptx_stmt *s = a->s;
  int c = cmp_of(a);
  aucs_ptx_token t = last(a);
  int ty = aucs_cvt_type_of(t.s, t.n);
  const aucs_ptx_operand *o = &s->op[0];
  if (c < 0 || ty < 0 || s->nop != 3 ||
      (s->ntok == 4 && !aucs_ptx_is(tok(a, 2), "ftz")) || s->ntok > 4 ||
      (o->kind != AUCS_PTX_PLAIN && o->kind != AUCS_PTX_PAIR))
    return no(a, "a setp of this form");
  uint32_t x, y, p, q;
  if (rd_op(a, 1, &x) || rd_op(a, 2, &y) || wr(a, &o->e[0], &p) ||
      compare(a, c, (aucs_cvt_type)ty, p, x, y))
    return 1;
  if (o->kind == AUCS_PTX_PAIR) { /* p|q: q = !p */
    if (wr(a, &o->e[1], &q))
      return 1;
    emit(a, OP_XOR, q, p, konst(a, 1), 0, 1);
  }
  return 0;
}

/* set.cmp[.ftz].dtype.stype d, a, b: d is true (all ones, or 1.0 for a
 * float) or 0; f16x2 and bf16x2 lane by lane (cuda_fp16.h's special
 * cases of hexp and friends). */
static int p_set(actx *a) {
  const aucs_ptx_stmt *s = a->s;
  int c = cmp_of(a), ftz = s->ntok == 5 && aucs_ptx_is(tok(a, 2), "ftz");
  if (c < 0 || s->nop != 3 || s->ntok != 4 + (unsigned)ftz)
    return no(a, "a set of this form");
  aucs_ptx_token dt = tok(a, s->ntok - 2), st = last(a);
  aucs_cvt_type dh, sh;
  unsigned dl = half_lanes(dt, &dh), sl = half_lanes(st, &sh);
  int d1 = dl ? (int)dh : aucs_cvt_type_of(dt.s, dt.n);
  int s1 = sl ? (int)sh : aucs_cvt_type_of(st.s, st.n);
  unsigned lanes = sl ? sl : 1;
  /* an x2 source sets each 16-bit half of an integer destination */
  int halves = lanes == 2 && !dl && d1 >= 0 && aucs_cvt_bits(d1) == 32 &&
               !aucs_cvt_is_float((aucs_cvt_type)d1);
  if (d1 < 0 || s1 < 0 || ((dl ? dl : 1) != lanes && !halves) ||
      (d1 == AUCS_CVT_F64 || aucs_cvt_bits((aucs_cvt_type)d1) < 16))
    return no(a, "a set of this form");
  unsigned w = lanes == 2 ? 16 : aucs_cvt_bits((aucs_cvt_type)d1);
  uint64_t yes = d1 == AUCS_CVT_F32    ? 0x3f800000u
                 : d1 == AUCS_CVT_F16  ? 0x3c00u
                 : d1 == AUCS_CVT_BF16 ? 0x3f80u
                                       : lw_mask_of(w);
  uint32_t d, x, y, acc = temp(a, 1);
  if (rd_op(a, 1, &x) || rd_op(a, 2, &y) || wr_op(a, 0, &d))
    return 1;
  for (unsigned l = 0; l < lanes; l++) {
    uint32_t xl = x, yl = y, p = temp(a, 1), v = temp(a, 1);
    if (lanes == 2) {
      xl = temp(a, 1), yl = temp(a, 1);
      half_of(a, xl, x, l);
      half_of(a, yl, y, l);
    }
    if (compare(a, c, (aucs_cvt_type)s1, p, xl, yl))
      return 1;
    lw_emit(a->L, (bc_insn){.op = OP_SELECT,
                            .d = v,
                            .a = konst(a, yes),
                            .b = konst(a, 0),
                            .c = p});
    if (l) {
      emit(a, OP_SHL, v, v, konst(a, 16), 0, 32);
      emit(a, OP_OR, acc, acc, v, 0, 32);
    } else {
      lw_emit_mov(a->L, acc, v, 1);
    }
  }
  lw_emit_mov(a->L, d, acc, 1);
  return 0;
}

static int p_selp(actx *a) {
  uint32_t d, x, y, c;
  if (a->s->ntok != 2 || !type_bits(last(a)) || a->s->nop != 4 ||
      rd_op(a, 1, &x) || rd_op(a, 2, &y) || rd_op(a, 3, &c) || wr_op(a, 0, &d))
    return no(a, "a selp of this form");
  lw_emit(a->L, (bc_insn){.op = OP_SELECT, .d = d, .a = x, .b = y, .c = c});
  return 0;
}

/* ---- SHF ---- */

/* shf.{l,r}.{wrap,clamp}.b32 d, lo, hi, n: {hi, lo} shifted by n (wrap:
 * mod 32; clamp: at most 32), the high word (l) or the low word (r). */
static int p_shf(actx *a) {
  int left = a->s->ntok == 4 && aucs_ptx_is(tok(a, 1), "l");
  int right = a->s->ntok == 4 && aucs_ptx_is(tok(a, 1), "r");
  int wrap = a->s->ntok == 4 && aucs_ptx_is(tok(a, 2), "wrap");
  int clamp = a->s->ntok == 4 && aucs_ptx_is(tok(a, 2), "clamp");
  uint32_t d, lo, hi, n;
  if (!(left || right) || !(wrap || clamp) || !aucs_ptx_is(last(a), "b32") ||
      a->s->nop != 4 || wr_op(a, 0, &d) || rd_op(a, 1, &lo) ||
      rd_op(a, 2, &hi) || rd_op(a, 3, &n))
    return no(a, "a shf of this form");
  uint32_t k = temp(a, 1), v = temp(a, 1);
  emit(a, wrap ? OP_AND : OP_UMIN, k, n, konst(a, wrap ? 31 : 32), 0, 32);
  emit(a, OP_SHL, v, hi, konst(a, 32), 0, 64);
  emit(a, OP_OR, v, v, lo, 0, 64);
  if (left) {
    emit(a, OP_SHL, v, v, k, 0, 64);
    emit(a, OP_LSHR, d, v, konst(a, 32), 0, 64);
  } else {
    emit(a, OP_LSHR, d, v, k, 0, 64);
  }
  a->L->code.v[a->L->code.n - 1].imm = lw_mask_of(32);
  return 0;
}

/* bmsk.{clamp,wrap}.b32 d, a, b: b one bits from bit a (clamp: a and b at
 * most 32, bits past 31 dropped; wrap: both mod 32), through 64 bits. */
static int p_bmsk(actx *a) {
  int wrap = a->s->ntok == 3 && aucs_ptx_is(tok(a, 1), "wrap");
  int clamp = a->s->ntok == 3 && aucs_ptx_is(tok(a, 1), "clamp");
  uint32_t d, pos, n;
  if (!(wrap || clamp) || !aucs_ptx_is(last(a), "b32") || a->s->nop != 3 ||
      wr_op(a, 0, &d) || rd_op(a, 1, &pos) || rd_op(a, 2, &n))
    return no(a, "a bmsk of this form");
  uint32_t p = temp(a, 1), k = temp(a, 1), m = temp(a, 1);
  int op = wrap ? OP_AND : OP_UMIN;
  uint32_t lim = konst(a, wrap ? 31 : 32);
  emit(a, op, p, pos, lim, 0, 32);
  emit(a, op, k, n, lim, 0, 32);
  emit(a, OP_SHL, m, konst(a, 1), k, 0, 64);
  emit(a, OP_SUB, m, m, konst(a, 1), 0, 64);
  emit(a, OP_SHL, m, m, p, 0, 64);
  emit(a, OP_TRUNC, d, m, 0, 0, 32);
  return 0;
}

/* MATH: a libcalls.def row on an f32 (f16 and bf16 through f32, exact
 * both ways but for the function itself). */
static int p_math(actx *a) {
  const aucs_libcall *lc = NULL;
  for (size_t i = 0; i < sizeof maths / sizeof *maths; i++)
    if (aucs_ptx_is(tok(a, 0), maths[i].opcode))
      lc = aucs_libcalls_find(maths[i].libcall);
  aucs_ptx_token t = last(a);
  aucs_cvt_type hty;
  unsigned lanes = half_lanes(t, &hty);
  for (unsigned i = 1; i + 1 < a->s->ntok; i++)
    if (!aucs_ptx_is(tok(a, i), "approx") && !aucs_ptx_is(tok(a, i), "ftz") &&
        !aucs_ptx_is(tok(a, i), "rn"))
      return no(a, "a modifier aucs does not model");
  uint32_t d, x;
  if (!lc || (lanes != 1 && !aucs_ptx_is(t, "f32")) || a->s->nop != 2 ||
      rd_op(a, 1, &x) || wr_op(a, 0, &d))
    return no(a, "a math instruction of this form");
  uint32_t at = a->L->pool.n, r = lanes ? temp(a, 1) : d;
  if (lanes) {
    uint32_t f = temp(a, 1);
    cvt(a, f, x, AUCS_CVT_FORM(AUCS_CVT_F32, hty, AUCS_CVT_RN));
    x = f;
  }
  VEC_PUSH(a->L->pool, x);
  lw_emit(a->L, (bc_insn){.op = OP_LIBCALL,
                          .d = r,
                          .b = at,
                          .c = 1,
                          .x = 32,
                          .imm = (uint64_t)(uintptr_t)lc->fn});
  if (lanes)
    cvt(a, d, r, AUCS_CVT_FORM(hty, AUCS_CVT_F32, AUCS_CVT_RN));
  return 0;
}

/* ---- ARITH ---- */

/* The operation's modifiers (A_*), or -1 when one is not modelled. lo
 * (mul.lo) is required of an integer mul; .NaN (min, max) makes a NaN
 * operand the result. */
enum { A_SAT = 1, A_LO = 2, A_NAN = 4 };
static int arith_mods(actx *a, int is_float) {
  int f = 0,
      minmax = a->row->float_op == OP_FMIN32 || a->row->float_op == OP_FMAX32;
  for (unsigned i = 1; i + 1 < a->s->ntok; i++) {
    aucs_ptx_token t = tok(a, i);
    if (aucs_ptx_is(t, "sat"))
      f |= A_SAT;
    else if (aucs_ptx_is(t, "lo") && !is_float)
      f |= A_LO;
    else if (aucs_ptx_is(t, "NaN") && is_float && minmax)
      f |= A_NAN;
    else if (a->row->float_op == OP_FDIV32 &&
             (aucs_ptx_is(t, "approx") || aucs_ptx_is(t, "full")))
      continue; /* divided exactly: within the approximation's error */
    else if (!(is_float && (aucs_ptx_is(t, "rn") || aucs_ptx_is(t, "ftz"))))
      return -1;
  }
  return f;
}

/* .NaN: r = x or y unordered ? NaN : r (f32, or f64 when dbl). */
static void nan_wins(actx *a, uint32_t r, uint32_t x, uint32_t y, int dbl) {
  uint32_t p = temp(a, 1);
  lw_emit(a->L, (bc_insn){.op = (uint16_t)(OP_FCMP32 + dbl),
                          .d = p,
                          .a = x,
                          .b = y,
                          .x = LLVMRealUNO});
  lw_emit(a->L, (bc_insn){.op = OP_SELECT,
                          .d = r,
                          .a = konst(a, dbl ? UINT64_C(0x7fffffffffffffff)
                                            : UINT64_C(0x7fffffff)),
                          .b = r,
                          .c = p});
}

static unsigned arity(const ptx_row *r) {
  if (r->int_op == OP_ABS || r->float_op == OP_FNEG32 ||
      !strcmp(r->opcode, "not"))
    return 1;
  return r->float_op == OP_FMA32 ? 3 : 2;
}

static int p_int(actx *a, aucs_cvt_type ty, int mods, uint32_t d,
                 const uint32_t *x) {
  int sat = mods & A_SAT, lo = (mods & A_LO) != 0;
  const ptx_row *r = a->row;
  unsigned w = aucs_cvt_bits(ty);
  int sgn = ty >= AUCS_CVT_S8 && ty <= AUCS_CVT_S64, op = r->int_op;
  if (op == OP_NOPS || (op == OP_MUL) != lo || (sat && ty != AUCS_CVT_S32) ||
      (sat && op != OP_ADD && op != OP_SUB))
    return no(a, "an integer operation of this form");
  if (sat)
    op = op == OP_ADD ? OP_SADDSAT : OP_SSUBSAT;
  else if (sgn && (op == OP_UMIN || op == OP_UMAX || op == OP_LSHR))
    op = op == OP_UMIN ? OP_SMIN : op == OP_UMAX ? OP_SMAX : OP_ASHR;
  if (!strcmp(r->opcode, "neg"))
    emit(a, OP_SUB, d, konst(a, 0), x[0], 0, w);
  else if (!strcmp(r->opcode, "not"))
    emit(a, OP_XOR, d, x[0], konst(a, lw_mask_of(w)), 0, w);
  else
    emit(a, op, d, x[0], x[1], 0, w);
  return 0;
}

/* f32 or f64: the op itself, then .NaN, then .sat as a CVT to the same
 * type. */
static void p_float(actx *a, aucs_cvt_type ty, int mods, uint32_t d,
                    const uint32_t *x) {
  int dbl = ty == AUCS_CVT_F64;
  uint32_t r = temp(a, 1);
  lw_emit(a->L, (bc_insn){.op = (uint16_t)(a->row->float_op + dbl),
                          .d = r,
                          .a = x[0],
                          .b = x[1],
                          .c = x[2]});
  if (mods & A_NAN)
    nan_wins(a, r, x[0], x[1], dbl);
  lw_emit_mov(a->L, d, r, 1);
  if (mods & A_SAT)
    cvt(a, d, d, AUCS_CVT_FORM(ty, ty, AUCS_CVT_RN) | AUCS_CVT_SAT);
}

/* f16, bf16 (x2: lane by lane): through f64, rounded back once; neg and
 * abs on the sign bits. */
static void p_half(actx *a, aucs_cvt_type ty, unsigned lanes, int mods,
                   uint32_t d, const uint32_t *x, unsigned n) {
  uint64_t signs = lanes == 2 ? 0x80008000u : 0x8000u;
  if (a->row->float_op == OP_FNEG32 || a->row->float_op == OP_FABS32) {
    int neg = a->row->float_op == OP_FNEG32;
    emit(a, neg ? OP_XOR : OP_AND, d, x[0], konst(a, neg ? signs : ~signs), 0,
         16 * lanes);
    return;
  }
  uint32_t out[2];
  for (unsigned l = 0; l < lanes; l++) {
    uint32_t y[3] = {0, 0, 0};
    for (unsigned i = 0; i < n; i++) {
      uint32_t t = temp(a, 1);
      half_of(a, t, x[i], l);
      y[i] = widen(a, t, ty);
    }
    uint32_t r = temp(a, 1);
    lw_emit(a->L, (bc_insn){.op = (uint16_t)(a->row->float_op + 1),
                            .d = r,
                            .a = y[0],
                            .b = y[1],
                            .c = y[2]});
    if (mods & A_NAN)
      nan_wins(a, r, y[0], y[1], 1);
    out[l] = temp(a, 1);
    cvt(a, out[l], r,
        AUCS_CVT_FORM(ty, AUCS_CVT_F64, AUCS_CVT_RN) |
            (mods & A_SAT ? (unsigned)AUCS_CVT_SAT : 0));
  }
  if (lanes == 1) {
    lw_emit_mov(a->L, d, out[0], 1);
    return;
  }
  emit(a, OP_SHL, out[1], out[1], konst(a, 16), 0, 32);
  emit(a, OP_OR, d, out[0], out[1], 0, 32);
}

static int p_arith(actx *a) {
  aucs_ptx_token t = last(a);
  aucs_cvt_type hty;
  unsigned lanes = half_lanes(t, &hty), n = arity(a->row);
  int ty = lanes ? (int)hty : aucs_cvt_type_of(t.s, t.n);
  int is_float = lanes || (ty >= 0 && aucs_cvt_is_float((aucs_cvt_type)ty));
  int mods = ty < 0 ? -1 : arith_mods(a, is_float);
  if (mods < 0 || a->s->nop != n + 1 ||
      (is_float && a->row->float_op == OP_NOPS))
    return no(a, "an arithmetic instruction of this form");
  uint32_t d, x[3] = {0, 0, 0};
  for (unsigned i = 0; i < n; i++)
    if (rd_op(a, i + 1, &x[i]))
      return 1;
  if (wr_op(a, 0, &d))
    return 1;
  if (!is_float)
    return p_int(a, (aucs_cvt_type)ty, mods, d, x);
  if (lanes)
    p_half(a, hty, lanes, mods, d, x, n);
  else
    p_float(a, (aucs_cvt_type)ty, mods, d, x);
  return 0;
}

/* ---- the call ---- */

static int guarded(actx *a);
static int unguarded(actx *a);

static int statement(actx *a) {
  a->row = NULL;
  for (size_t i = 0; i < sizeof rows / sizeof *rows; i++)
    if (aucs_ptx_is(a->s->tok[0], rows[i].opcode))
      a->row = &rows[i];
  if (!a->row)
    return no(a, "an instruction aucs does not model");
  if (a->s->guarded)
    return guarded(a);
  return unguarded(a);
}

/* @p stmt: a statement without effects beyond its registers, into
 * temporaries, then each register = p ? temporary : itself. */
static int guarded(actx *a) {
  int cls = a->row->cls;
  uint32_t g;
  if (cls != P_MOV && cls != P_CVT && cls != P_ARITH && cls != P_SETP &&
      cls != P_SELP && cls != P_SHF && cls != P_NOP && cls != P_BMSK &&
      cls != P_MATH && cls != P_SET)
    return no(a, "a guarded (@p) instruction with effects");
  if (rd(a, &a->s->guard, &g))
    return 1;
  a->guarding = 1;
  a->nheld = 0;
  int rc = unguarded(a);
  a->guarding = 0;
  for (unsigned i = 0; !rc && i < a->nheld; i++)
    lw_emit(a->L, (bc_insn){.op = OP_SELECT,
                            .d = a->held[i][0],
                            .a = a->held[i][1],
                            .b = a->held[i][0],
                            .c = g});
  return rc;
}

static int unguarded(actx *a) {
  switch (a->row->cls) {
  case P_MOV:
    return p_mov(a);
  case P_CVT:
    return p_cvt(a);
  case P_LD:
  case P_ST:
    return p_ldst(a);
  case P_SHFL:
    return p_shfl(a);
  case P_VOTE:
    return p_vote(a);
  case P_ACTIVEMASK:
    return p_activemask(a);
  case P_EXIT:
    return p_exit(a);
  case P_SETP:
    return p_setp(a);
  case P_SELP:
    return p_selp(a);
  case P_SHF:
    return p_shf(a);
  case P_NOP:
    return 0;
  case P_BMSK:
    return p_bmsk(a);
  case P_SET:
    return p_set(a);
  case P_MATH:
    return p_math(a);
  default:
    return p_arith(a);
  }
}

/* The result slots are one per output; inputs tied to an output start
 * there; each local gets a slot. */
static int setup(actx *a) {
  LLVMTypeRef t = LLVMTypeOf(a->I);
  unsigned outs = a->con.outs, nargs = (unsigned)LLVMGetNumArgOperands(a->I);
  int is_void = LLVMGetTypeKind(t) == LLVMVoidTypeKind;
  if (a->con.indirect || nargs != a->con.ins || (outs == 0) != is_void ||
      (outs == 1 && !lw_is_scalar(t)) ||
      (outs > 1 &&
       (LLVMGetTypeKind(t) != LLVMStructTypeKind || lw_leaves(t) != outs)))
    return no(a, "operands of an unexpected kind");
  for (unsigned i = 0; i < a->p.nlocal; i++)
    a->local[i] = temp(a, 1);
  for (unsigned i = 0; i < nargs && i < AUCS_PTX_MAX_TIED; i++) {
    int bad = 0;
    if (a->con.tied[i] >= 0 && (unsigned)a->con.tied[i] < outs)
      lw_emit_mov(a->L, a->d + (unsigned)a->con.tied[i],
                  lw_op_slot(a->L, a->I, i, &bad), 1);
    if (bad)
      return no(a, "an argument the interpreter cannot hold");
  }
  return 0;
}

/* The text on one line, at most 100 characters. */
static char *quote(const char *text, size_t n) {
  aucs_buf b = {0};
  aucs_buf_puts(&b, "");
  int space = 0;
  for (size_t i = 0; i < n && b.len < 100; i++) {
    if (isspace((unsigned char)text[i])) {
      space = b.len > 0;
      continue;
    }
    if (space)
      aucs_buf_puts(&b, " ");
    space = 0;
    aucs_buf_printf(&b, "%c", text[i]);
  }
  if (b.len >= 100)
    aucs_buf_puts(&b, "...");
  return aucs_buf_take(&b);
}

int lw_lower_ptx(lowerer *L, LLVMValueRef I, uint32_t d, const char *text,
                 size_t n) {
  actx *a = aucs_xcalloc(1, sizeof *a);
  *a = (actx){.L = L, .I = I, .d = d};
  size_t cn = 0;
  const char *cons =
      LLVMGetInlineAsmConstraintString(LLVMGetCalledValue(I), &cn);
  aucs_ptx_constraints_of(cons, cn, &a->con);
  int rc =
      aucs_ptx_parse(text, n, &a->p) ? no(a, "not PTX aucs reads") : setup(a);
  for (unsigned i = 0; !rc && i < a->p.n; i++) {
    a->s = &a->p.s[i];
    rc = statement(a);
  }
  if (rc) {
    char *q = quote(text, n);
    char *msg = aucs_xasprintf("inline assembly `%s` is not supported (%s)", q,
                               a->why ? a->why : "?");
    lw_fail(L, "%s", msg);
    free(q);
    free(msg);
  }
  free(a);
  return rc;
}
