/*
 * qcache: answers of static queries kept by a canonical form of the query
 * (issue 15), so that one query is solved once per module and per repair:
 * the kernels of a module, the queries of one kernel (a barrier's
 * redundancy asks again what the kernel's pairs asked) and the trials of a
 * repair, which re-detect a module that is mostly the same.
 *
 * The key is the query's canonical text (qkey.h): the formula with every
 * name of the form `x!N` (Z3's fresh constants, the threads' registers)
 * renamed by order of first appearance and the arguments of commutative
 * operators in one order, so two queries with one key are one formula up
 * to a renaming of its constants: both satisfiable or both not.
 * Keys are compared in full (no hash is trusted). UNSAT is kept: it holds
 * whatever the timeout, and needs no witness. SAT is kept too, with the
 * model's values of the terms the caller reads, under a key that names
 * those terms (aucs_qcache_key_terms): it holds whatever the timeout too,
 * and the values are a model of every query with that key. UNKNOWN is
 * kept only as "tried within this limit and mode" (aucs_qcache_put_unknown),
 * when the answer depended on the query and its limits alone (smt.h's
 * resource units, no wall-clock stop): the same query within no more units
 * is not tried again, and answers UNKNOWN, as it did (an UNKNOWN decides
 * nothing: the checker falls back to the dynamic result).
 *
 * Not thread-safe: one cache per thread of work.
 */
#ifndef AUCS_QCACHE_H
#define AUCS_QCACHE_H

#include <stddef.h>
#include <stdint.h>
#include <z3.h>

typedef struct aucs_qcache aucs_qcache;

typedef struct aucs_qcache_stats {
  uint64_t hits, misses, entries;
} aucs_qcache_stats;

/* An empty cache; free with aucs_qcache_free. */
aucs_qcache *aucs_qcache_new(void);
void aucs_qcache_free(aucs_qcache *c);

/* The canonical key of the conjunction of asserts[0..n), built in z.
 * Free with free(). */
char *aucs_qcache_key(Z3_context z, const Z3_ast *asserts, size_t n);

/* The key of the same conjunction followed by the terms[0..nterms) whose
 * model values a SAT answer keeps (a NULL term counts as none). Free with
 * free(). */
char *aucs_qcache_key_terms(Z3_context z, const Z3_ast *asserts, size_t n,
                            const Z3_ast *terms, size_t nterms);
/* 0: a miss; 1: key is known UNSAT; 2: key is known SAT, with the n model
 * values kept for it copied to vals (a SAT entry of another n: a miss);
 * 3: key was tried in the same mode within at least limit and answered
 * UNKNOWN (aucs_qcache_put_unknown). */
int aucs_qcache_lookup(aucs_qcache *c, const char *key, uint64_t *vals,
                       size_t n, uint64_t limit, unsigned mode);
/* aucs_qcache_lookup's 0, 1 or 2 (an UNKNOWN entry is a miss). */
int aucs_qcache_get(aucs_qcache *c, const char *key, uint64_t *vals, size_t n);
/* Remember that key is SAT with the model values vals[0..n) (copied),
 * when c keeps SAT answers (aucs_qcache_keep_sat); else nothing. */
void aucs_qcache_put_sat(aucs_qcache *c, const char *key, const uint64_t *vals,
                         size_t n);
/* Keep SAT answers, and UNKNOWN ones, from now on. A repair's cache does
 * (its final check gets a kernel it did not edit answered); detect's does
 * not, so that its --stats counts are the same for every -j (forked
 * workers do not share a cache, and kernels of one module often share a
 * SAT query). */
void aucs_qcache_keep_sat(aucs_qcache *c);
/* Keep SAT and UNKNOWN answers from now on under scope (0: none, the
 * default): a lookup finds them only under the same scope (or with
 * keep_sat); UNSAT answers are found under any. detect scopes a kernel
 * family (the instantiations of one template, checked in one process
 * for every -j): their queries are often one formula up to renaming. */
void aucs_qcache_scope(aucs_qcache *c, unsigned scope);
/* When c keeps SAT answers (aucs_qcache_keep_sat), remember that key,
 * solved within limit (smt.h's resource units; no limit: UINT64_MAX) in
 * mode (what else decides the solver's tries: the linear try), answered
 * UNKNOWN; an answer kept for key stays. */
void aucs_qcache_put_unknown(aucs_qcache *c, const char *key, uint64_t limit,
                             unsigned mode);
/* 1 when key is known UNSAT (a hit), else 0 (a miss). */
int aucs_qcache_unsat(aucs_qcache *c, const char *key);
/* Remember that key is UNSAT (the cache copies it). */
void aucs_qcache_put_unsat(aucs_qcache *c, const char *key);
aucs_qcache_stats aucs_qcache_stats_of(const aucs_qcache *c);

#endif
