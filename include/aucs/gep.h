/*
 * gep: the constant byte offset of a getelementptr whose indices are all
 * constants (an instruction or a constant expression), by the target's
 * data layout: the first index steps over the source element type, later
 * ones into structs (field offsets) and arrays (element sizes).
 */
#ifndef AUCS_GEP_H
#define AUCS_GEP_H

#include <llvm-c/Target.h>
#include <llvm-c/Types.h>
#include <stdint.h>

typedef enum aucs_gep_status {
  AUCS_GEP_OK,
  AUCS_GEP_VARIABLE, /* an index is not a constant integer */
  AUCS_GEP_TYPE      /* an index steps into a type other than a struct or
                        an array (*bad: that type) */
} aucs_gep_status;

/* Adds gep's byte offset to *off (two's complement: a negative offset
 * wraps). *bad is set with AUCS_GEP_TYPE. */
aucs_gep_status aucs_gep_offset(LLVMTargetDataRef td, LLVMValueRef gep,
                                uint64_t *off, LLVMTypeRef *bad);

#endif
