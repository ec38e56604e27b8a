/*
 * cvt: PTX's `cvt` between the half-precision formats (f16, bf16), f32,
 * f64 and the integers, with its rounding modes; what the inline PTX of
 * cuda_fp16.h and cuda_bf16.h converts with (detector/lower/lower_asm.c
 * lowers it to the CVT opcode, the interpreter runs aucs_cvt).
 *
 * Values are raw register bits, as the interpreter keeps them: an integer
 * zero-extended, a float its IEEE bits (an f16 or bf16 in the low 16).
 * Every conversion is exact: the source is read as sign * m * 2^e (an
 * integer m of up to 64 bits) and rounded once to the destination, so f64
 * to f16 never rounds twice, nor does s64 to bf16.
 *
 * Rules (PTX ISA, "cvt"): a float result rounds by the mode (rn to nearest
 * even, rz toward zero, rm down, rp up); a result past the largest finite
 * value is infinity under rn, and under rz, or rm / rp away from it, the
 * largest finite value; subnormals are kept (no .ftz). NaN becomes the
 * canonical NaN of the destination (f16 and bf16 0x7fff, f32 0x7fffffff).
 * An integral mode (rni, rzi, rmi, rpi) rounds to an integer first. An
 * integer result always saturates to its type (NaN gives 0). .sat on a
 * float result clamps it to [0, 1] (NaN gives 0).
 */
#ifndef AUCS_CVT_H
#define AUCS_CVT_H

#include <stdint.h>

/* The types, as PTX spells them (aucs_cvt_type_of). */
typedef enum aucs_cvt_type {
  AUCS_CVT_U8,
  AUCS_CVT_U16,
  AUCS_CVT_U32,
  AUCS_CVT_U64,
  AUCS_CVT_S8,
  AUCS_CVT_S16,
  AUCS_CVT_S32,
  AUCS_CVT_S64,
  AUCS_CVT_F16,
  AUCS_CVT_BF16,
  AUCS_CVT_F32,
  AUCS_CVT_F64,
  AUCS_CVT_NTYPES
} aucs_cvt_type;

typedef enum aucs_cvt_mode {
  AUCS_CVT_RN,
  AUCS_CVT_RZ,
  AUCS_CVT_RM,
  AUCS_CVT_RP
} aucs_cvt_mode;

/* A conversion in 16 bits (the CVT opcode's x): destination in bits 0-3,
 * source in 4-7, mode in 8-9, then the flags. */
enum { AUCS_CVT_INTEGRAL = 1 << 10, AUCS_CVT_SAT = 1 << 11 };
#define AUCS_CVT_FORM(dst, src, mode)                                          \
  ((unsigned)(dst) | (unsigned)(src) << 4 | (unsigned)(mode) << 8)

/* The type a PTX type token names ("f16", "bf16", "s32", "u8", "b16"),
 * b as u; -1 for any other. */
int aucs_cvt_type_of(const char *token, unsigned n);
/* Its width in bits. */
unsigned aucs_cvt_bits(aucs_cvt_type t);
int aucs_cvt_is_float(aucs_cvt_type t);

/* v converted as form says. */
uint64_t aucs_cvt(unsigned form, uint64_t v);

#endif
