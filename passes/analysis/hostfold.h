/*
 * hostfold: constants the host code always passes that -O2 leaves as loads
 * and parameters (private to passes/analysis/hostlaunch*.c; prefix hf_).
 *
 * Two shapes real applications use to hold their sizes:
 *   - a configuration object with constant members, `static Params p;`
 *     (`const int max_points = 10;`): an internal global its static
 *     constructor fills with constants and nothing else writes; the launch
 *     passes a load of one member;
 *   - a launching helper, `void run(..., int n) { k<<<g, b>>>(..., n); }`,
 *     every call of which in the translation unit passes one constant.
 */
#ifndef AUCS_HOSTFOLD_H
#define AUCS_HOSTFOLD_H

#include <llvm-c/Target.h>
#include <llvm-c/Types.h>

/* The constant (an integer or a float) the host always passes as v: v
 * itself when it is one; for a load of an internal global at a constant
 * offset, the constant its module's static constructors store there, when
 * they store one there, and nothing else stores to the global or lets its
 * address escape; for a parameter of a function that is only called (never
 * address-taken), the constant every call passes (followed through up to
 * four callers). NULL when there is none.
 *
 * Limitation: a function with external linkage may also be called from
 * another translation unit, with other values; a constructor's vector or
 * memcpy stores over the member are not read (no constant then). */
LLVMValueRef hf_constant(LLVMTargetDataRef td, LLVMValueRef v);

#endif
