/*
 * precond: the conditions that make a kernel run, over its launch and its
 * integer scalar and struct-field inputs, and inputs that satisfy them,
 * solved by Z3 with the static checker's encoding (docs/inputs.md,
 * "Solved inputs").
 *
 * The conditions, in the kernel's blocks that run at most once per thread
 * (reachable, in no loop and no irreducible cycle):
 *   - must: the condition of an llvm.assume (`__builtin_assume(c)`, and
 *     `if (!c) __builtin_unreachable()` once simplifycfg made it one)
 *     holds where a thread reaches it; a block that ends in `unreachable`
 *     or calls llvm.trap or __assertfail (`__trap()`, `assert`) is never
 *     entered. Each must hold for every thread: the solver asks it of the
 *     grid's first thread and its last.
 *   - want: the grid's first thread takes no early exit, an edge to a
 *     block from which only returning is reachable (no access, barrier or
 *     call) out of a branch whose other side does some. A want is dropped
 *     when the musts leave no input that keeps it.
 * The solve asks for inputs within tiers of bounds, tightest first: (0)
 * the search's own ranges (grid <= 4 per dimension, 32 <= block.x <= 256,
 * integers in [1, 4096]); (1) at most 64 blocks, integers in [0, 65536];
 * (2) only the launch bounds of static.h, which decides whether any input
 * exists. The first tier with an input gives up to `want` diverse ones
 * (each differs from the earlier ones in every input the conditions
 * mention, else in one). When the musts have no input even in tier 2, the
 * culprit is the first condition in program order with which the earlier
 * ones are UNSAT.
 *
 * Limitation: "every thread" is the first and the last thread of the grid
 * (a condition false for a thread in between, such as tid != 5, is not
 * seen: the run then discards the input); values the encoding cannot
 * follow (loads, float inputs, results of calls) are free for the solver,
 * so a solved input can still violate the condition at run time;
 * conditions inside loops and inside helpers that stay calls (a helper's
 * own __builtin_assume at -O0) are not collected.
 */
#ifndef AUCS_PRECOND_H
#define AUCS_PRECOND_H

#include "aucs/interp.h"
#include <llvm-c/Types.h>
#include <stddef.h>
#include <stdint.h>

/* One integer input the solver may choose: a scalar parameter, or a field
 * of a struct parameter passed by value at a byte offset. */
typedef struct aucs_precond_leaf {
  unsigned param;
  int field;
  uint64_t offset;
  unsigned bits; /* 1..64 */
  int fixed;     /* the user's value: value, not chosen */
  uint64_t value;
} aucs_precond_leaf;

typedef struct aucs_precond_query {
  int fixed_grid, fixed_block; /* the launch dimensions given */
  aucs_launch launch;
  const aucs_precond_leaf *leaves;
  size_t nleaves;
  unsigned want;       /* inputs to return on SAT (0: 1) */
  unsigned timeout_ms; /* per solver query (0: AUCS_PRECOND_TIMEOUT_MS) */
} aucs_precond_query;

#define AUCS_PRECOND_TIMEOUT_MS 500u
/* The most dictionary constants a solve returns. */
#define AUCS_PRECOND_MAX_CONSTANTS 16

typedef enum aucs_precond_verdict {
  AUCS_PRECOND_NONE,    /* the kernel states no condition */
  AUCS_PRECOND_SAT,     /* an input exists (inputs found in tier 0 or 1) */
  AUCS_PRECOND_UNSAT,   /* proven: no input within the launch bounds */
  AUCS_PRECOND_UNKNOWN, /* the solver gave up */
} aucs_precond_verdict;

typedef struct aucs_precond_result {
  aucs_precond_verdict verdict;
  size_t n;            /* inputs found (0 with SAT: only tier 2 had one) */
  aucs_launch *launch; /* per input */
  uint64_t **vals;     /* per input, per leaf: raw bits */
  /* Which inputs the conditions mention: the solver chose them; the
   * others are any value (the caller's choice). */
  unsigned char grid[3], block[3];
  unsigned char *leaf; /* per leaf */
  /* Integer constants the conditions compare inputs with (a mask m of
   * `x & m` as m + 1), deduplicated, at most AUCS_PRECOND_MAX_CONSTANTS. */
  uint64_t *constants;
  size_t nconstants;
  /* UNSAT: the condition named (an llvm.assume call, a trap call or an
   * `unreachable`) and how many conditions precede it in the proof. */
  LLVMValueRef culprit;
  size_t before;
  size_t conditions; /* musts and wants collected */
  size_t queries;    /* solver queries asked */
} aucs_precond_result;

/* Collect kernel's conditions and solve them for q's inputs into *out
 * (free with aucs_precond_result_free). Never fails. */
void aucs_precond_solve(LLVMValueRef kernel, const aucs_precond_query *q,
                        aucs_precond_result *out);
void aucs_precond_result_free(aucs_precond_result *r);
/* "k.cu:9:3 `n % 64 == 0`" for an assumption; "k.cu:12:5 (the guard of
 * `__trap()`)" for a trap or an `unreachable`; "the kernel's assumptions"
 * for NULL (no culprit found). Free with free(). */
char *aucs_precond_describe(LLVMValueRef culprit);

#endif
