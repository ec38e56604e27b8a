/*
 * kernel: which functions of a module are CUDA kernels (and which are
 * templates instantiated more than once).
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
/* The file fn is defined in, from its DISubprogram ("dir/name" unless
 * name is absolute); free with free(). NULL without debug info. */
char *aucs_kernel_file(LLVMValueRef fn);
/* 1 when fn's definition (its DISubprogram's file) lies in the directory
 * root or below it, both paths resolved (realpath) where they exist; 0
 * otherwise, or without debug info. */
int aucs_kernel_defined_under(LLVMValueRef fn, const char *root);
/* mangled names a template function instantiated more than once in m
 * (or, without m, a template instance at all): one source edit would
 * change every instantiation. The source patch (repair/patch/) leaves such
 * edits IR-only; the repair's fold (repair/repair_fold.c) keeps edits of
 * such a helper in the inlined copies too. */
int aucs_kernel_template_shared(const char *mangled, LLVMModuleRef m);

#endif
