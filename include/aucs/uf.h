/*
 * uf: the static encoding's uninterpreted functions (DESIGN.md sections 5.3
 * and 8). A value that is a pure function of its operands, but one the
 * encoding does not model bit for bit, becomes the application of an
 * uninterpreted function to its operands' terms: one function per name and
 * signature, so two threads that compute it from equal operands get one
 * term, where a fresh symbol per thread would let them differ.
 *
 * Such values: calls of pure rows of libcalls.def (roundf, __nv_umul24,
 * llvm.sqrt.f32, ...), the LLVM integer and float intrinsics below, and
 * floating-point arithmetic, comparisons and conversions. Floats are
 * bit-vectors of their width (their IEEE bits), so a bitcast between a float
 * and an integer of its width keeps the term.
 *
 * Sound because these functions are deterministic: nothing about their
 * values is assumed beyond "equal operands, equal results", so a proof does
 * not depend on how exactly the host or the GPU computes them.
 */
#ifndef AUCS_UF_H
#define AUCS_UF_H

#include <llvm-c/Core.h>
#include <stddef.h>
#include <z3.h>

/* The name of the function v applies to its operands (for a call: to its
 * arguments), written into buf; NULL when v is not such a value. */
const char *aucs_uf_name(LLVMValueRef v, char *buf, size_t n);

/* The operands the function of aucs_uf_name applies to. */
unsigned aucs_uf_arity(LLVMValueRef v);

/* name(args[0..n)) of sort range: one declaration per name and signature
 * (Z3 identifies equal declarations). */
Z3_ast aucs_uf_apply(Z3_context z, const char *name, unsigned n,
                     const Z3_ast *args, Z3_sort range);

/* The width of a float type's bit-vector (32, 64), 0 for other types. */
unsigned aucs_uf_float_width(LLVMTypeRef t);

/* Textures and surfaces (include/aucs/texture.def): what call I is. A texture
 * fetch is a pure function of its handle and coordinates (each leaf of its
 * result one function, aucs_uf_texel_name); a surface access is memory. */
typedef enum aucs_uf_texture {
  AUCS_UF_NOT_TEXTURE,
  AUCS_UF_TEX_FETCH,
  AUCS_UF_SURF_LOAD,
  AUCS_UF_SURF_STORE
} aucs_uf_texture;
aucs_uf_texture aucs_uf_texture_kind(LLVMValueRef I);
/* "texel.<op>#k": the function leaf k of fetch call I applies to its
 * arguments, written into buf (NULL when I is no fetch). */
const char *aucs_uf_texel_name(LLVMValueRef I, unsigned k, char *buf, size_t n);

/* A floating-point constant's bits as a bit-vector, or NULL. */
Z3_ast aucs_uf_constant(Z3_context z, LLVMValueRef v);

#endif
