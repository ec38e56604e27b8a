/*
 * lanes: multi-leaf values between register slots and memory bytes
 * (aucs/lanes.h). Pack and unpack walk the layout once; repack goes through
 * a bit buffer of 64-bit words, lane 0 in the low bits. A lane's source
 * walks at most 64 insert/shuffle steps back.
 */
#include "aucs/lanes.h"

#include "aucs/util.h"
#include <llvm-c/Core.h>
#include <string.h>

static uint64_t mask(unsigned bits) {
  return bits >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << bits) - 1;
}

void aucs_lanes_pack(unsigned char *buf, const uint64_t *v,
                     const uint32_t *layout, unsigned n) {
  for (unsigned i = 0; i < n; i++, layout += 3)
    for (unsigned k = 0; k < layout[1] && k < 8; k++)
      buf[layout[0] + k] = (unsigned char)(v[i] >> (8 * k));
}

void aucs_lanes_unpack(uint64_t *v, const unsigned char *buf,
                       const uint32_t *layout, unsigned n) {
  for (unsigned i = 0; i < n; i++, layout += 3) {
    uint64_t x = 0;
    for (unsigned k = 0; k < layout[1] && k < 8; k++)
      x |= (uint64_t)buf[layout[0] + k] << (8 * k);
    v[i] = x & mask(layout[2]);
  }
}

enum { MAX_WORDS = 16384 / 64 };

void aucs_lanes_repack(uint64_t *d, const uint64_t *a, unsigned from,
                       unsigned to, unsigned bits) {
  uint64_t w[MAX_WORDS + 1];
  AUCS_ASSERT(bits <= 16384 && from && to && from <= 64 && to <= 64);
  memset(w, 0, sizeof w);
  for (unsigned i = 0, at = 0; at < bits; i++, at += from) {
    uint64_t x = a[i] & mask(from);
    w[at / 64] |= x << (at % 64);
    if (at % 64 + from > 64)
      w[at / 64 + 1] |= x >> (64 - at % 64);
  }
  for (unsigned i = 0, at = 0; at < bits; i++, at += to) {
    uint64_t x = w[at / 64] >> (at % 64);
    if (at % 64 + to > 64)
      x |= w[at / 64 + 1] << (64 - at % 64);
    d[i] = x & mask(to);
  }
}

static int const_index(LLVMValueRef ix, uint64_t *k) {
  if (!LLVMIsAConstantInt(ix))
    return 0;
  *k = LLVMConstIntGetZExtValue(ix);
  return 1;
}

LLVMValueRef aucs_lanes_source(LLVMValueRef vec, unsigned lane) {
  for (int guard = 0; guard < 64; guard++) {
    uint64_t k;
    if (LLVMIsAConstant(vec)) /* data, splat, zeroinitializer; exprs NULL */
      return LLVMGetAggregateElement(vec, lane);
    if (LLVMIsAInsertElementInst(vec)) {
      if (!const_index(LLVMGetOperand(vec, 2), &k))
        return NULL;
      if (k == lane)
        return LLVMGetOperand(vec, 1);
      vec = LLVMGetOperand(vec, 0);
      continue;
    }
    if (LLVMIsAShuffleVectorInst(vec)) {
      int m =
          lane < LLVMGetNumMaskElements(vec) ? LLVMGetMaskValue(vec, lane) : -1;
      LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(vec, 0));
      unsigned n = LLVMGetVectorSize(t);
      if (m < 0)
        return NULL;
      vec = LLVMGetOperand(vec, (unsigned)m < n ? 0 : 1);
      lane = (unsigned)m < n ? (unsigned)m : (unsigned)m - n;
      continue;
    }
    return NULL;
  }
  return NULL;
}

LLVMValueRef aucs_lanes_extracted(LLVMValueRef ex) {
  uint64_t k;
  if (!const_index(LLVMGetOperand(ex, 1), &k) || k > UINT32_MAX)
    return NULL;
  return aucs_lanes_source(LLVMGetOperand(ex, 0), (unsigned)k);
}
