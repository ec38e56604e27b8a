/*
 * libcalls: the library functions aucs runs on the host (DESIGN.md section
 * 8): the C math library, the CUDA __nv_* device functions that the CUDA
 * headers lower to, and the LLVM/NVVM intrinsics for the same functions.
 * The table is detector/interp/libcalls.def; this is its lookup.
 *
 * Each row's functions take the call's arguments as raw register bits (as
 * the interpreter keeps them: integers zero-extended, floats as their IEEE
 * bits) and return the result the same way, so one bytecode op serves every
 * row whatever its types.
 *
 * Limitation: computed with the host's libm in round-to-nearest. The GPU's
 * fast and approximate functions (__expf, __fdividef, ...) differ from it in
 * the last bits, and the directed rounding modes (_rz, _rd, _ru) of the
 * arithmetic and of conversions to floating point round to nearest here.
 */
#ifndef AUCS_LIBCALLS_H
#define AUCS_LIBCALLS_H

#include <llvm-c/Types.h>
#include <stdint.h>

typedef uint64_t (*aucs_libcall_fn)(const uint64_t *args);

enum { AUCS_LIBCALL_MAX_ARGS = 4, AUCS_LIBCALL_MAX_OUTS = 2 };

typedef struct aucs_libcall_out {
  int arg;            /* pointer argument written, -1: none */
  aucs_libcall_fn fn; /* the value stored */
  unsigned bytes;     /* its size */
} aucs_libcall_out;

typedef struct aucs_libcall {
  const char *name;
  unsigned arity;
  aucs_libcall_fn fn; /* the call's result; NULL for void */
  int pure;           /* a function of the arguments alone, no memory */
  aucs_libcall_out out[AUCS_LIBCALL_MAX_OUTS];
} aucs_libcall;

/* The row named exactly name, or NULL. */
const aucs_libcall *aucs_libcalls_find(const char *name);

/* Whether a callee of this name is taken from the table even when the
 * module defines it (__nv_* and llvm.*: libdevice linked), rather than only
 * when the module merely declares it (plain C names). */
int aucs_libcalls_overrides_body(const char *name);

/* The row a call of function callee runs, or NULL: its name's row under
 * the rule above; else, for a C++ function the module only declares whose
 * parameters are builtin types (`_ZL5roundf`, `_ZL5hypotff`: round(float)
 * and hypot(float, float) forward-declared by code built without the CUDA
 * math headers), the row of its base name in the float or double spelling
 * of its first floating parameter (roundf, hypotf), of as many arguments. */
const aucs_libcall *aucs_libcalls_of(LLVMValueRef callee);

#endif
