/*
 * gep: the constant byte offset of an all-constant getelementptr (gep.h).
 * Used by the lowering (constant expressions) and by the byte-wise
 * uniformity of private memory (allocas reached through constant GEPs).
 */
#include "aucs/gep.h"

#include <llvm-c/Core.h>

aucs_gep_status aucs_gep_offset(LLVMTargetDataRef td, LLVMValueRef gep,
                                uint64_t *off, LLVMTypeRef *bad) {
  LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
  unsigned n = (unsigned)LLVMGetNumOperands(gep);
  for (unsigned i = 1; i < n; i++) {
    LLVMValueRef ix = LLVMGetOperand(gep, i);
    if (!LLVMIsAConstantInt(ix))
      return AUCS_GEP_VARIABLE;
    uint64_t k = (uint64_t)LLVMConstIntGetSExtValue(ix);
    if (i == 1) {
      *off += k * LLVMABISizeOfType(td, t);
    } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      *off += LLVMOffsetOfElement(td, t, (unsigned)k);
      t = LLVMStructGetTypeAtIndex(t, (unsigned)k);
    } else if (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
      t = LLVMGetElementType(t);
      *off += k * LLVMABISizeOfType(td, t);
    } else {
      *bad = t;
      return AUCS_GEP_TYPE;
    }
  }
  return AUCS_GEP_OK;
}
