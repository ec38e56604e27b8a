/*
 * lanes: moving multi-leaf values (vectors, aggregates) between register
 * slots and memory bytes, for the interpreter's ALOAD/ASTORE and REPACK.
 *
 * A value of n leaves is n 64-bit slots; its memory image is described by a
 * layout of n (byte offset, bytes, bits) triples (lower.c writes them; a
 * vector's lane i sits at i * its bytes, little-endian like the GPU).
 * Repacking reinterprets the bits of lanes of one width as lanes of another
 * (LLVM's bitcast: lane 0 in the low bits).
 *
 * For the static checker, aucs_lanes_source follows a lane of a vector
 * through insertelement, shufflevector and constant vectors to the scalar
 * it came from, so an extracted index is the term of that scalar.
 *
 * Limitation: leaves of at most 8 bytes; a repack of at most 16384 bits;
 * lanes of loaded vectors and of vector arithmetic are not followed.
 */
#ifndef AUCS_LANES_H
#define AUCS_LANES_H

#include <llvm-c/Types.h>
#include <stddef.h>
#include <stdint.h>

/* Write the n leaves v[] into buf as layout says. */
void aucs_lanes_pack(unsigned char *buf, const uint64_t *v,
                     const uint32_t *layout, unsigned n);
/* Read the n leaves of buf into v[] (each masked to its bits). */
void aucs_lanes_unpack(uint64_t *v, const unsigned char *buf,
                       const uint32_t *layout, unsigned n);
/* d[] = the bits of a[] (lanes of from bits) as lanes of to bits; bits in
 * all (a multiple of both, at most 16384). */
void aucs_lanes_repack(uint64_t *d, const uint64_t *a, unsigned from,
                       unsigned to, unsigned bits);

/* The scalar value lane `lane` of vector value vec holds, found through
 * insertelement / shufflevector with constant indices and constant
 * vectors; NULL when it cannot be followed (the caller makes a fresh
 * symbol). */
LLVMValueRef aucs_lanes_source(LLVMValueRef vec, unsigned lane);
/* The scalar an extractelement with a constant index reads, or NULL. */
LLVMValueRef aucs_lanes_extracted(LLVMValueRef ex);

#endif
