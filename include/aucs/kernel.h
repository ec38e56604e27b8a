/*
 * kernel: which functions of a module are CUDA kernels.
 *
 * Both conventions in the wild count: the ptx_kernel calling convention
 * (clang >= 19) and an `!nvvm.annotations` entry `{ptr @f, !"kernel", i32 1}`
 * (older clang, nvcc's NVVM).
 */
#ifndef AUCS_KERNEL_H
#define AUCS_KERNEL_H

#include <llvm-c/Types.h>
#include <stddef.h>

/* 1 when fn is a kernel of its module. */
int aucs_kernel_is(LLVMValueRef fn);
/* The kernels that have a body, in module order. Returns the count and sets
 * *out to an array the caller frees with free() (NULL when none). */
size_t aucs_kernel_list(LLVMModuleRef m, LLVMValueRef **out);

#endif
