/*
 * syncfix: the IR edits that repair synchronization beyond barriers
 * (docs/sync.md): widen a block-scoped atomic to device
 * scope (a scope-race), insert __threadfence() (a missing-fence). The
 * repair loop plans, applies and re-validates them like any other edit
 * (repair/syncfix.c; rp_plan_scope and rp_plan_fence in repair/repair_sync.c).
 */
#ifndef AUCS_SYNCFIX_H
#define AUCS_SYNCFIX_H

#include <llvm-c/Types.h>

/* 1 when I is an atomic of block scope: a `llvm.nvvm.atomic.*.cta.*` call
 * (atomicCAS_block ...), or an atomicrmw/cmpxchg of syncscope "block" or
 * "cluster". */
int aucs_syncfix_narrow(LLVMValueRef I);

/* Give the narrow atomic I device scope. An NVVM call becomes what clang
 * emits for the unscoped CUDA call (atomicCAS: a seq_cst cmpxchg of default
 * scope), with I's debug location and repair id; an atomicrmw/cmpxchg gets
 * syncscope("device") in place. Returns the atomic instruction now doing
 * the access, or NULL with *err (free with free()). */
LLVMValueRef aucs_syncfix_widen(LLVMValueRef I, char **err);

/* Insert `__threadfence()` (a call of llvm.nvvm.membar.gl) right before
 * `before`, with the debug location of `before` (or the next located
 * instruction). Returns the call. */
LLVMValueRef aucs_syncfix_fence(LLVMValueRef before);

/* The first strong write (atomic, or volatile store: the flag) that a
 * forward walk of the CFG from A meets, nearest first; NULL when none. */
LLVMValueRef aucs_syncfix_flag_store(LLVMValueRef a);

/* The source form of widening I: "use atomicCAS (device scope) instead of
 * atomicCAS_block at k.cu:12:12", or NULL with *why. Free both with
 * free(). */
char *aucs_syncfix_widen_source(LLVMValueRef I, char **why);

/* The source form of the fence call `fence` just inserted: "insert
 * __threadfence(); before <what> at k.cu:20", or NULL with *why (it falls
 * inside a statement, or has no location). Free both with free(). */
char *aucs_syncfix_fence_source(LLVMValueRef fence, const char *what,
                                char **why);

#endif
