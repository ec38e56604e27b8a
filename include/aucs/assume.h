/*
 * assume: a kernel's preconditions, `__builtin_assume(c)` and `__assume(c)`
 * as they reach the IR (`call void @llvm.assume(i1 %c)`), for the static
 * checker (the interpreter ends a run that violates one: interp.h,
 * AUCS_RUN_ASSUME).
 *
 * Limitation: only calls in the kernel's own blocks that run at most once
 * per thread (no loop, no irreducible cycle) are collected; assumptions in
 * loops and in __device__ helpers constrain the runs only.
 */
#ifndef AUCS_ASSUME_H
#define AUCS_ASSUME_H

#include "aucs/cfg.h"
#include <llvm-c/Types.h>
#include <stddef.h>

/* The llvm.assume calls of cfg's function in reachable blocks outside
 * every loop and cycle, whose condition is not a constant, in block order.
 * *out is set (free with free(), also when 0 is returned). */
size_t aucs_assume_collect(const aucs_cfg *cfg, LLVMValueRef **out);
/* 1 when call (a collected llvm.assume) precedes instruction I of the
 * same function on every path from the entry: a thread at I has passed it,
 * so its condition holds for that thread's values. */
int aucs_assume_precedes(const aucs_cfg *cfg, LLVMValueRef call,
                         LLVMValueRef I);
/* The condition as the source spells it ("n % 64 == 0": the argument of
 * the assume call at the call's line), else as the IR does. Free with
 * free(). */
char *aucs_assume_text(LLVMValueRef call);
/* "k.cu:2:3 `n % 64 == 0`". Free with free(). */
char *aucs_assume_describe(LLVMValueRef call);

#endif
