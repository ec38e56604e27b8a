/*
 * cheap: a decision layer before Z3 (issue 15). Given a static query as
 * the static checker builds it (static.c: every assertion, the two
 * accesses' addresses and extents, the two threads' registers), it proves
 * the overlap impossible by integer reasoning over affine forms, or leaves
 * the query to the solver. It never answers SAT: a witness must come from
 * Z3, for the interpreter to replay.
 *
 * Steps (the rules and their proofs are in docs/decisions.md, "Cheap
 * decisions"):
 *   1. Bounds: every top-level conjunct of the assertions of the form
 *      x <= c, x < y, x == c (unsigned; signed when both sides are known
 *      non-negative) bounds a term; a few rounds propagate them.
 *   2. Forms: each address is read as an affine form over atoms (symbols,
 *      products, anything else) congruent to it modulo 2^64; an extension
 *      whose operand may wrap gets a wrap atom (value = F - 2^w * m).
 *   3. The difference D = addr a - addr b: two threads' registers of one
 *      dimension with opposite coefficients become one variable (t1 - t2),
 *      two global indices of one block dimension cancel to their threads'
 *      difference (same block) or become one variable that is nonzero when
 *      the blocks differ (two blocks), as static.c's multiple lemmas say.
 *   4. Decide: the two threads (blocks) differ in some dimension; when all
 *      dimensions but one are pinned to one value, that one's variable is
 *      nonzero; when all are pinned, the query is UNSAT (one thread). Else
 *      an exact search over the small variables and a division for the
 *      largest says whether D can fall in the overlap window.
 *
 * Limitation: UNSAT only; a pair needing facts under a disjunction, a
 * product of two symbols that is not a global index, or a loop's multiple
 * goes to the solver.
 */
#ifndef AUCS_CHEAP_H
#define AUCS_CHEAP_H

#include <stddef.h>
#include <z3.h>

/* A global index v = s + k * d (static.c's multiples of blockDim): v the
 * 64-bit term, s = threadIdx, k = blockIdx, d = blockDim (64-bit). */
typedef struct aucs_cheap_multiple {
  Z3_ast v, s, k, d;
} aucs_cheap_multiple;

typedef struct aucs_cheap_query {
  Z3_context z;
  const Z3_ast *facts; /* every assertion of the query */
  size_t nfacts;
  Z3_ast addr[2], size[2]; /* [addr, addr + size) of access a, b (64-bit) */
  int equal; /* the query asks addr[0] == addr[1], not an overlap */
  Z3_ast tid[2][3], ctaid[2][3];
  int two_blocks; /* the blocks differ (else: one block, threads differ) */
  /* Multiples of each side, when static.c asserted their lemmas (the other
   * side has one of the same d). */
  const aucs_cheap_multiple *mult[2];
  size_t nmult[2];
} aucs_cheap_query;

typedef enum aucs_cheap_verdict {
  AUCS_CHEAP_UNSAT, /* proven: the accesses never overlap */
  AUCS_CHEAP_OPEN,  /* left to the solver */
} aucs_cheap_verdict;

/* Decide q. On UNSAT, *rule (when rule is not NULL) names the rule that
 * decided ("one-thread", "affine"); a static string. */
aucs_cheap_verdict aucs_cheap_decide(const aucs_cheap_query *q,
                                     const char **rule);

#endif
