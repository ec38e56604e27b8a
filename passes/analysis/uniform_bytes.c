/*
 * uniform_bytes: where a private pointer points, and which bits of a
 * varying value vary (helpers of uniform.c's private memory, step 2).
 *
 * Varying bits, for a value of at most 64 bits (an integer or a pointer):
 *   1. A value the analysis calls uniform has no varying bit; a constant
 *      neither.
 *   2. and/or with a constant keep only the bits the constant leaves open
 *      (and: its ones; or: its zeros); xor and the non-constant cases
 *      take the union of the operands' varying bits.
 *   3. shl/lshr by a constant shift the mask; ashr also spreads a varying
 *      sign bit; zext keeps, trunc cuts, sext spreads the sign bit;
 *      ptrtoint, inttoptr and int<->int bitcasts keep the mask.
 *   4. extractvalue follows insertvalue/extractvalue chains to the value
 *      inserted at the same member (SROA's first-class aggregates).
 *   5. Anything else (a phi, arithmetic, a load, a call) varies in every
 *      bit. A chain deeper than MAX_DEPTH does too.
 * uniform.c asks for the bits of a value it stores to private memory
 * (ub_varying_bytes) and of a bit-field operation it judges
 * (ub_value_bits): one none of whose bits can vary stays uniform.
 * Bytes follow bits on a little-endian target (byte i = bits 8i..8i+7); on
 * a big-endian one every byte of a varying value varies.
 *
 * Limitation: a struct, vector or float value varies in every byte.
 */
#include "uniform_bytes.h"

#include "aucs/gep.h"
#include "aucs/util.h"
#include <llvm-c/Core.h>

enum { MAX_DEPTH = 64 };

/* ---- constant offsets ---- */

int ub_const_offset(LLVMTargetDataRef td, LLVMValueRef p, LLVMValueRef *base,
                    uint64_t *off) {
  *off = 0;
  for (int depth = 0; depth < MAX_DEPTH; depth++) {
    if (LLVMIsAAllocaInst(p)) {
      *base = p;
      return 1;
    }
    if (LLVMIsAGetElementPtrInst(p)) {
      LLVMTypeRef bad;
      if (aucs_gep_offset(td, p, off, &bad) != AUCS_GEP_OK)
        return 0;
    } else if (!LLVMIsABitCastInst(p) && !LLVMIsAAddrSpaceCastInst(p)) {
      return 0;
    }
    p = LLVMGetOperand(p, 0);
  }
  return 0;
}

uint64_t ub_alloca_size(LLVMTargetDataRef td, LLVMValueRef a) {
  LLVMTypeRef t = LLVMGetAllocatedType(a);
  LLVMValueRef count = LLVMGetOperand(a, 0);
  if (!LLVMTypeIsSized(t) || !LLVMIsAConstantInt(count))
    return 0;
  uint64_t n = LLVMABISizeOfType(td, t) * LLVMConstIntGetZExtValue(count);
  return n <= UB_MAX_BYTES ? n : 0;
}

/* ---- varying bits ---- */

typedef struct walk {
  LLVMTargetDataRef td;
  ub_varies_fn varies;
  const void *ctx;
  aucs_ptrmap memo;  /* value -> its varying bits (bitfield chains reuse
                        values: without it the walk is exponential) */
  LLVMValueRef self; /* the value being judged: its operands decide */
} walk;

static unsigned width_of(walk *w, LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind:
    return LLVMGetIntTypeWidth(t);
  case LLVMPointerTypeKind:
    return 8 * (unsigned)LLVMStoreSizeOfType(w->td, t);
  default:
    return 0;
  }
}

static uint64_t ones(unsigned bits) {
  return bits >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << bits) - 1;
}

static uint64_t bits_of(walk *w, LLVMValueRef v, int depth);

/* The constant operand's bits (into *c), or 0 when neither is constant. */
static int const_operand(LLVMValueRef I, uint64_t *c, LLVMValueRef *other) {
  for (int i = 0; i < 2; i++) {
    LLVMValueRef op = LLVMGetOperand(I, (unsigned)i);
    if (LLVMIsAConstantInt(op)) {
      *c = LLVMConstIntGetZExtValue(op);
      *other = LLVMGetOperand(I, (unsigned)!i);
      return 1;
    }
  }
  return 0;
}

static uint64_t logic_bits(walk *w, LLVMValueRef I, LLVMOpcode op, int depth) {
  uint64_t c;
  LLVMValueRef other;
  if (op != LLVMXor && const_operand(I, &c, &other)) {
    uint64_t m = bits_of(w, other, depth);
    return op == LLVMAnd ? m & c : m & ~c;
  }
  return bits_of(w, LLVMGetOperand(I, 0), depth) |
         bits_of(w, LLVMGetOperand(I, 1), depth);
}

/* Bits at and above position `from` when bit `sign` of m varies. */
static uint64_t sign_spread(uint64_t m, unsigned sign, unsigned from,
                            unsigned width) {
  if (!((m >> sign) & 1) || from >= 64)
    return 0;
  return ones(width) & ~ones(from);
}

static uint64_t shift_bits(walk *w, LLVMValueRef I, LLVMOpcode op,
                           unsigned width, int depth) {
  LLVMValueRef k = LLVMGetOperand(I, 1);
  if (!LLVMIsAConstantInt(k) || LLVMConstIntGetZExtValue(k) >= width)
    return ones(width);
  unsigned s = (unsigned)LLVMConstIntGetZExtValue(k);
  uint64_t m = bits_of(w, LLVMGetOperand(I, 0), depth);
  if (op == LLVMShl)
    return (m << s) & ones(width);
  uint64_t r = m >> s;
  return op == LLVMAShr ? r | sign_spread(m, width - 1, width - s, width) : r;
}

static uint64_t cast_bits(walk *w, LLVMValueRef I, LLVMOpcode op,
                          unsigned width, int depth) {
  LLVMValueRef src = LLVMGetOperand(I, 0);
  unsigned from = width_of(w, LLVMTypeOf(src));
  if (!from || from > 64)
    return ones(width);
  uint64_t m = bits_of(w, src, depth);
  if (op == LLVMSExt)
    m |= sign_spread(m, from - 1, from, width);
  return m & ones(width);
}

enum { MAX_PATH = 16 };

/* The varying bits of the member at path[0..n) of aggregate v, through
 * chains of insertvalue and extractvalue. */
static uint64_t member_bits(walk *w, LLVMValueRef v, unsigned *path, unsigned n,
                            unsigned width, int depth) {
  while (depth++ < MAX_DEPTH && w->varies(w->ctx, v)) {
    if (w->varies(w->ctx, v) == 2 ||
        (!LLVMIsAInsertValueInst(v) && !LLVMIsAExtractValueInst(v)))
      return ones(width);
    unsigned k = LLVMGetNumIndices(v);
    const unsigned *ix = LLVMGetIndices(v);
    if (LLVMIsAExtractValueInst(v)) { /* v = agg[ix]: v[path] = agg[ix,path] */
      if (k + n > MAX_PATH)
        return ones(width);
      for (unsigned i = n; i-- > 0;)
        path[i + k] = path[i];
      for (unsigned i = 0; i < k; i++)
        path[i] = ix[i];
      n += k;
      v = LLVMGetOperand(v, 0);
      continue;
    }
    unsigned i = 0;
    while (i < k && i < n && ix[i] == path[i])
      i++;
    if (i == k && k == n) /* the inserted member itself */
      return bits_of(w, LLVMGetOperand(v, 1), depth);
    if (i == k) { /* inside the inserted member */
      for (unsigned j = 0; j + k < n; j++)
        path[j] = path[j + k];
      n -= k;
      v = LLVMGetOperand(v, 1);
    } else if (i < n) { /* another member: look further back */
      v = LLVMGetOperand(v, 0);
    } else {
      return ones(width); /* the path holds the inserted member and more */
    }
  }
  return w->varies(w->ctx, v) ? ones(width) : 0;
}

static uint64_t extract_bits(walk *w, LLVMValueRef v, unsigned width,
                             int depth) {
  unsigned path[MAX_PATH], k = LLVMGetNumIndices(v);
  const unsigned *ix = LLVMGetIndices(v);
  if (k > MAX_PATH)
    return ones(width);
  for (unsigned i = 0; i < k; i++)
    path[i] = ix[i];
  return member_bits(w, LLVMGetOperand(v, 0), path, k, width, depth);
}

static uint64_t op_bits(walk *w, LLVMValueRef v, unsigned width, int depth);

static uint64_t bits_of(walk *w, LLVMValueRef v, int depth) {
  intptr_t m;
  if (aucs_ptrmap_get(&w->memo, v, &m))
    return (uint64_t)m;
  uint64_t r = op_bits(w, v, width_of(w, LLVMTypeOf(v)), depth);
  aucs_ptrmap_put(&w->memo, v, (intptr_t)r);
  return r;
}

static uint64_t op_bits(walk *w, LLVMValueRef v, unsigned width, int depth) {
  int k = w->varies(w->ctx, v);
  if (v != w->self && !k)
    return 0;
  if (k == 2 || !width || width > 64 || depth >= MAX_DEPTH ||
      !LLVMIsAInstruction(v))
    return ones(width ? width : 64);
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  switch (op) {
  case LLVMAnd:
  case LLVMOr:
  case LLVMXor:
    return logic_bits(w, v, op, depth + 1);
  case LLVMShl:
  case LLVMLShr:
  case LLVMAShr:
    return shift_bits(w, v, op, width, depth + 1);
  case LLVMZExt:
  case LLVMSExt:
  case LLVMTrunc:
  case LLVMPtrToInt:
  case LLVMIntToPtr:
  case LLVMBitCast:
    return cast_bits(w, v, op, width, depth + 1);
  case LLVMExtractValue:
    return extract_bits(w, v, width, depth + 1);
  default:
    return ones(width);
  }
}

uint64_t ub_varying_bytes(LLVMTargetDataRef td, LLVMValueRef v,
                          ub_varies_fn varies, const void *ctx) {
  uint64_t n = LLVMStoreSizeOfType(td, LLVMTypeOf(v));
  uint64_t all = n >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << n) - 1;
  walk w = {td, varies, ctx, {0}, NULL};
  if (!varies(ctx, v))
    return 0;
  if (LLVMByteOrder(td) != LLVMLittleEndian || n > 8)
    return all;
  uint64_t bits = bits_of(&w, v, 0), bytes = 0;
  aucs_ptrmap_free(&w.memo);
  for (uint64_t i = 0; i < n; i++)
    if ((bits >> (8 * i)) & 0xff)
      bytes |= (uint64_t)1 << i;
  return bytes;
}

uint64_t ub_value_bits(LLVMTargetDataRef td, LLVMValueRef v,
                       ub_varies_fn varies, const void *ctx) {
  walk w = {td, varies, ctx, {0}, v};
  uint64_t bits = bits_of(&w, v, 0);
  aucs_ptrmap_free(&w.memo);
  return bits;
}
