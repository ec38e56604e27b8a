/*
 * atomic_rmw: a read-modify-write statement made one atomic (issue 16).
 * `h[i]++;` compiles to a load, an add and a store of one address: two
 * threads with the same i race on it, and no barrier orders two threads at
 * one statement. The repair replaces the three instructions by one
 * `atomicrmw add ptr, val seq_cst`, what clang emits for atomicAdd
 * (repair/atomic_rmw.c; the repair loop plans it with rp_plan_atomic in
 * repair/repair_sync.c).
 */
#ifndef AUCS_ATOMIC_RMW_H
#define AUCS_ATOMIC_RMW_H

#include <llvm-c/Core.h>

/* A load, a binary operation of its value, a store of the result to the
 * same address, in one block with no other memory access between. */
typedef struct aucs_atomic_rmw {
  LLVMValueRef load, op, store;
  LLVMValueRef operand;   /* the other operand of op (not the load's) */
  LLVMAtomicRMWBinOp bin; /* the atomicrmw doing the same */
  const char *cuda;       /* the CUDA call: "atomicAdd" */
} aucs_atomic_rmw;

/* Whether the race between accesses a and b (a == b: a store racing with
 * itself) is such a read-modify-write: its parts in *out. Integer (i32,
 * i64) add, sub, or, and, xor and float/double fadd; the load's value used
 * by the operation only, the operation's by the store only, the other
 * operand computed before the load; not volatile, not atomic already. */
int aucs_atomic_rmw_match(LLVMValueRef a, LLVMValueRef b, aucs_atomic_rmw *out);

/* Whether instruction I (a barrier the repair placed) sits inside one
 * read-modify-write statement: the nearest memory access before I in its
 * block is a load, and the nearest after it stores an operation atomicrmw
 * does of that load's value to the same address. 1 with the parts in
 * *out; a barrier there would make every thread load, wait, then store. */
int aucs_atomic_rmw_around(LLVMValueRef I, aucs_atomic_rmw *out);

/* Replace the read-modify-write ending in `store` by one atomicrmw with the
 * store's debug location and repair id. Returns the atomicrmw, or NULL
 * with *err (free with free()) when store ends no such shape. */
LLVMValueRef aucs_atomic_rmw_apply(LLVMValueRef store, char **err);

#endif
