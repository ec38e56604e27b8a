/*
 * uniform_bytes: byte-precise private memory for uniform.c (private to
 * passes/analysis/uniform*.c; prefix ub_).
 *
 * uniform.c tracks which bytes of an alloca may hold thread-varying data;
 * these helpers say where a pointer points (alloca + constant offset) and
 * which bits of a varying integer or pointer value can actually vary, so a
 * store of a struct word whose high half varies (a cooperative group's
 * rank packed next to its type and size) taints only the bytes that do.
 */
#ifndef AUCS_UNIFORM_BYTES_H
#define AUCS_UNIFORM_BYTES_H

#include <llvm-c/Target.h>
#include <llvm-c/Types.h>
#include <stdint.h>

/* Largest alloca (bytes) tracked byte by byte; larger ones are tracked as
 * a whole. */
enum { UB_MAX_BYTES = 1024 };

/* The analysis' verdict on v so far: 0 uniform, 1 varies (as its
 * operands do, for the operations followed here), 2 varies in every bit
 * (by control: a divergent join, a divergent loop's exit value). */
typedef int (*ub_varies_fn)(const void *ctx, LLVMValueRef v);

/* p is alloca *base plus a constant *off (through GEPs with constant
 * indices, bitcasts and addrspacecasts only): 1, else 0. */
int ub_const_offset(LLVMTargetDataRef td, LLVMValueRef p, LLVMValueRef *base,
                    uint64_t *off);

/* Size in bytes of alloca a when it is small enough to track byte by byte
 * (a sized type, a constant count, at most UB_MAX_BYTES), else 0. */
uint64_t ub_alloca_size(LLVMTargetDataRef td, LLVMValueRef a);

/* Which of the n = store size bytes of value v may vary (little-endian
 * byte i of the stored value -> bit i of *mask, n <= 64): a value the
 * analysis calls varying is followed through and/or/xor with constants,
 * shifts by constants, zext/sext/trunc and int<->ptr casts; anything else
 * varies in every byte. */
uint64_t ub_varying_bytes(LLVMTargetDataRef td, LLVMValueRef v,
                          ub_varies_fn varies, const void *ctx);

/* The bits of value v (an instruction) that may vary, judged from its
 * operands as ub_varying_bytes does (whatever the analysis says of v
 * itself); a value that is no integer or pointer of at most 64 bits has
 * all 64 set when anything varies. */
uint64_t ub_value_bits(LLVMTargetDataRef td, LLVMValueRef v,
                       ub_varies_fn varies, const void *ctx);

#endif
