/*
 * facts: the human-readable report of what aucs knows about a kernel's
 * control flow, printed by `aucs facts` and the opt pass `aucs-facts`.
 *
 * Per kernel: a summary line, its loops and irreducible cycles, then one
 * line per block: uniform or divergent (and why), branch-DAG topological
 * index, loop depth, immediate dominator and post-dominator, source lines.
 */
#ifndef AUCS_FACTS_H
#define AUCS_FACTS_H

#include "aucs/util.h"
#include <llvm-c/Types.h>

/* Append the facts of function fn (which has a body) to out. */
void aucs_facts_print(aucs_buf *out, LLVMValueRef fn);

/* What aucs_facts_print_with adds to each block line. */
enum {
  AUCS_FACTS_CONDITIONS = 1, /* "; cond EC" last: the entry condition
                                (cond.h, relative to the entry) */
};
/* aucs_facts_print with the extra fields of flags. */
void aucs_facts_print_with(aucs_buf *out, LLVMValueRef fn, unsigned flags);

#endif
