/*
 * qcache: answers of static queries kept by a canonical form of the query
 * (issue 15), so that one query is solved once per module and per repair:
 * the kernels of a module, the queries of one kernel (a barrier's
 * redundancy asks again what the kernel's pairs asked) and the trials of a
 * repair, which re-detect a module that is mostly the same.
 *
 * The key is the query as SMT-LIB text (declarations and assertions, so the
 * text determines the formula) with every name of the form `x!N` (Z3's
 * fresh constants, the threads' registers) and every let variable renamed
 * by order of first appearance: two queries with one key are one formula up to a
 * renaming of its constants, so they are both satisfiable or both not.
 * Keys are compared in full (no hash is trusted). Only UNSAT is kept: it
 * holds whatever the timeout, and needs no witness.
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

/* 1 when key is known UNSAT (a hit), else 0 (a miss). */
int aucs_qcache_unsat(aucs_qcache *c, const char *key);
/* Remember that key is UNSAT (the cache copies it). */
void aucs_qcache_put_unsat(aucs_qcache *c, const char *key);
aucs_qcache_stats aucs_qcache_stats_of(const aucs_qcache *c);

#endif
