/*
 * nvvm: what an NVVM intrinsic is to the analyses, by the callee's name.
 *
 * One table, aucs/nvvm.def, lists every spelling aucs knows (exact names
 * and name prefixes) with its kind; adding a spelling is one line there.
 * The first matching line wins.
 *
 * Limitation: names only. An intrinsic missing from the table is NONE; the
 * caller decides what that means (uniform.c: an `llvm.*` intrinsic that is
 * not convergent is a function of its arguments).
 */
#ifndef AUCS_NVVM_H
#define AUCS_NVVM_H

#include <llvm-c/Types.h>

typedef enum aucs_nvvm_kind {
#define AUCS_NVVM_KIND(kind, name, doc) AUCS_NVVM_##kind,
#include "aucs/nvvm.def"
  AUCS_NVVM_NKINDS
} aucs_nvvm_kind;

/* The name of the function call instruction I calls directly; "" when I is
 * no call or calls through a pointer. */
const char *aucs_nvvm_callee(LLVMValueRef I);
/* The kind of the intrinsic called callee_name; AUCS_NVVM_NONE when the
 * table has no line for it (or callee_name is NULL). */
aucs_nvvm_kind aucs_nvvm_classify(const char *callee_name);
/* The short name a value it returns is explained by ("tid.x", "atomic",
 * "shfl"), or NULL when the table has no line. Static storage. */
const char *aucs_nvvm_origin(const char *callee_name);
/* The kind's name as in reports ("barrier-reduce"). Static storage. */
const char *aucs_nvvm_kind_name(aucs_nvvm_kind kind);
/* 1 for the kinds that are block-wide barriers (BARRIER, BARRIER_REDUCE). */
int aucs_nvvm_is_barrier(aucs_nvvm_kind kind);
/* Which launch dimensions fn and the functions it calls read: bit d (x 1,
 * y 2, z 4) of *block for tid or ntid, of *grid for ctaid or nctaid. */
void aucs_nvvm_dims_read(LLVMValueRef fn, unsigned *block, unsigned *grid);

#endif
