/*
 * names: how aucs prints values and blocks, the way `llvm-dis` does:
 * `%name` for named values, `%N` slot numbers for unnamed ones, numbered in
 * function order (arguments, then each block and its instructions).
 */
#ifndef AUCS_NAMES_H
#define AUCS_NAMES_H

#include <llvm-c/Types.h>

typedef struct aucs_names aucs_names;

/* Number fn's unnamed values. Dispose with aucs_names_free. */
aucs_names *aucs_names_build(LLVMValueRef fn);
void aucs_names_free(aucs_names *n);
/* "%name" or "%7" for an argument, block or instruction of the function;
 * "@name" for globals and functions. The string lives as long as n. */
const char *aucs_names_value(aucs_names *n, LLVMValueRef v);
const char *aucs_names_block(aucs_names *n, LLVMBasicBlockRef bb);

#endif
