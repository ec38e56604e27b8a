/*
 * cond: exact entry conditions of blocks (DESIGN.md section 6.1).
 *
 * Over the branch DAG (loop edges excluded), in topological order from a
 * root block:
 *
 *   EC(root) = true
 *   EC(B)    = OR over DAG predecessors p of (EC(p) AND cond(p -> B))
 *
 * where cond(p -> B) is p's branch condition, its negation, or for a switch
 * the comparison of the cases that lead to B (to the default: none of the
 * cases that lead elsewhere). The AuCS paper intersects the predecessors'
 * condition sets instead, which is right only for diamonds; the disjunction
 * is right for every DAG.
 *
 * A loop that does not hold the root is one node of its parent DAG: an edge
 * leaving it contributes EC(its header) when every exit of the loop goes to
 * the same block. A loop with exits to several blocks contributes the exit
 * edge's own condition (the value of its last iteration); flattening
 * (flatten.h) rejects such loops.
 *
 * Conditions are Boolean expressions over atoms (an i1 branch condition, or
 * a switch operand compared with one case), hash-consed and simplified as
 * they are built: true/false absorption, x && !x, x || !x, duplicates,
 * (a && b) || (a && !b) -> a, a || (a && b) -> a, a || (!a && b) -> a || b.
 * They print in source terms (`tid.x < n && !(tid.x % 2 == 1)`) and can be
 * materialised as IR i1 values (aucs_cond_emit).
 *
 * Limitation: the simplifier is syntactic (no SAT): an EC that is true may
 * print as a disjunction. In an irreducible cycle the DAG is the depth-first
 * one, and the conditions printed there are not exact.
 */
#ifndef AUCS_COND_H
#define AUCS_COND_H

#include "aucs/cfg.h"
#include "aucs/util.h"
#include <llvm-c/Types.h>

typedef struct aucs_conds aucs_conds;

/* Entry conditions of every block of cfg's function relative to root
 * (EC(root) = true; blocks the DAG does not reach from root get false).
 * cfg must outlive the result; free with aucs_cond_free. */
aucs_conds *aucs_cond_compute(const aucs_cfg *cfg, int root);
void aucs_cond_free(aucs_conds *c);

/* 1 when EC(block) simplified to the constant true (resp. false). */
int aucs_cond_is_true(const aucs_conds *c, int block);
int aucs_cond_is_false(const aucs_conds *c, int block);

/* Append EC(block) in source terms to out. */
void aucs_cond_print(aucs_conds *c, int block, aucs_buf *out);
/* The same as a string; free with free(). */
char *aucs_cond_format(aucs_conds *c, int block);

/* Build EC(block) as an i1 value at b's insertion point (and/or/xor over
 * the atoms; a switch atom becomes `icmp eq`). The new instructions are
 * named `ec.<block>` and get b's current debug location. Subexpressions
 * built by earlier calls since the last aucs_cond_emit_reset are reused:
 * the caller resets unless every earlier insertion point dominates this
 * one. Atoms are used as they are: the caller makes them available. */
LLVMValueRef aucs_cond_emit(aucs_conds *c, int block, LLVMBuilderRef b);
void aucs_cond_emit_reset(aucs_conds *c);

#endif
