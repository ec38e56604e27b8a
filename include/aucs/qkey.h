/*
 * qkey: the canonical text of a static query, the key qcache.h keeps its
 * answer by (issue 14). Two queries get one key when their formulas are
 * one DAG up to a renaming of the fresh constants (`name!N`), the order of
 * the arguments of commutative operators (and, or, =, distinct, bvadd,
 * bvmul, bvand, bvor, bvxor) and the order of the assertions: so they are
 * both satisfiable or both not, and a model of one, renamed, is a model of
 * the other with the same values of the terms the key names.
 *
 * The key is a complete description of the formula (every operator with
 * its parameters and sorts, every numeral, every name that is not fresh),
 * never a hash: the cache compares keys in full.
 *
 * Limitation: arguments whose structure is the same up to fresh names
 * (x!1 < 5, x!2 < 5) keep the order they had in the term, which may differ
 * between two contexts: a second key (a miss), never a wrong answer.
 */
#ifndef AUCS_QKEY_H
#define AUCS_QKEY_H

#include <stddef.h>
#include <z3.h>

/* The key of the conjunction of asserts[0..n) followed by the terms
 * [0..nterms) whose model values a SAT answer keeps (a NULL term counts as
 * none; terms keep their order). Free with free(). */
char *aucs_qkey_build(Z3_context z, const Z3_ast *asserts, size_t n,
                      const Z3_ast *terms, size_t nterms);

#endif
