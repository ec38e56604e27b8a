/*
 * seeds: the input search's seeds solved from a kernel's preconditions
 * (precond.h) over the kernel's leaves (inputs.h), and what a kernel says
 * when every input it tried violated them (docs/inputs.md, "Solved
 * inputs").
 *
 * The integer leaves a run writes are the solver's inputs: those the
 * search does not vary are fixed to their values, the others are chosen.
 * Trace with AUCS_DEBUG=precond.
 *
 * Limitation: float leaves and the contents of buffers are not solved
 * (see precond.h).
 */
#ifndef AUCS_SEEDS_H
#define AUCS_SEEDS_H

#include "aucs/inputs.h"
#include "aucs/search.h"
#include <llvm-c/Types.h>
#include <stdint.h>

/* Seeds the search asks for. */
#define AUCS_SEEDS_WANT 4

typedef struct aucs_seeds_kernel {
  LLVMValueRef fn;
  const char *name; /* as the reports show it (the trace) */
  const aucs_inputs *in;
  const aucs_inputs_values *iv; /* the values of the fixed leaves */
  const unsigned char *lfixed;  /* per leaf: not searched */
  const unsigned char *lset;    /* per leaf: a run writes its value */
  int fixed_grid, fixed_block;  /* the launch dimensions given */
  aucs_launch launch;
} aucs_seeds_kernel;

typedef struct aucs_seeds aucs_seeds;

/* Solve k's preconditions (borrowing k's arrays for the call only). Never
 * fails; free with aucs_seeds_free. */
aucs_seeds *aucs_seeds_solve(const aucs_seeds_kernel *k);
void aucs_seeds_free(aucs_seeds *s);
/* How many inputs the solve found. */
uint64_t aucs_seeds_count(const aucs_seeds *s);
/* The seeds as the search takes them, valid while s lives. */
void aucs_seeds_get(const aucs_seeds *s, aucs_search_seeds *out);
/* The reason of kernel `kernel` whose `discarded` inputs all violated its
 * assumptions (the first at `assumption`): with the solver's proof that
 * no input satisfies them for this launch when it has one. Free with
 * free(). */
char *aucs_seeds_reason(const aucs_seeds *s, const char *kernel,
                        uint64_t discarded, const char *assumption);

#endif
