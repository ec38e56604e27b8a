/*
 * qcache: answers of static queries by canonical query text (interface in
 * qcache.h).
 *
 *   1. Key: qkey.h's canonical text of the conjunction (fresh constants
 *      renamed by order of first appearance, arguments of commutative
 *      operators and the assertions in an order of their structure), and
 *      for a SAT answer the terms whose model values the caller reads: one
 *      key means one formula and one list of terms up to renaming, so the
 *      values of one model answer both.
 *   2. Table: open addressing on the key's FNV-1a hash (aucs_hash_text), doubled at half
 *      load; a slot holds the key itself, compared in full, its answer,
 *      and for a SAT answer the model's values of the terms the key names,
 *      for an UNKNOWN one the limit and mode it was tried within.
 *   3. Scope: with keep_sat every answer is found; else UNSAT answers
 *      are, and SAT and UNKNOWN ones only under the scope (a kernel
 *      family: aucs_qcache_scope) they were kept in; a slot whose answer
 *      is not found is filled anew.
 */
#include "aucs/qcache.h"

#include "aucs/qkey.h"
#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

enum { E_UNSAT = 1, E_SAT, E_UNKNOWN };

typedef struct slot {
  char *key; /* NULL: empty */
  uint64_t hash;
  int kind;       /* E_* */
  uint64_t *vals; /* E_SAT: the model's values */
  size_t nvals;
  uint64_t limit; /* E_UNKNOWN: the largest limit tried, and its mode */
  unsigned mode;
  unsigned scope; /* E_SAT, E_UNKNOWN: the scope kept in (0: none) */
} slot;

struct aucs_qcache {
  slot *slots;
  int keep_sat;   /* aucs_qcache_keep_sat */
  unsigned scope; /* aucs_qcache_scope */
  size_t cap, n;
  aucs_qcache_stats stats;
};

aucs_qcache *aucs_qcache_new(void) {
  aucs_qcache *c = aucs_xcalloc(1, sizeof *c);
  c->cap = 64;
  c->slots = aucs_xcalloc(c->cap, sizeof *c->slots);
  return c;
}

void aucs_qcache_free(aucs_qcache *c) {
  if (!c)
    return;
  for (size_t i = 0; i < c->cap; i++) {
    free(c->slots[i].key);
    free(c->slots[i].vals);
  }
  free(c->slots);
  free(c);
}

/* ---- keys -------------------------------------------------------------*/

char *aucs_qcache_key(Z3_context z, const Z3_ast *asserts, size_t n) {
  return aucs_qkey_build(z, asserts, n, NULL, 0);
}

char *aucs_qcache_key_terms(Z3_context z, const Z3_ast *asserts, size_t n,
                            const Z3_ast *terms, size_t nterms) {
  return aucs_qkey_build(z, asserts, n, terms, nterms);
}

/* ---- the table ----------------------------------------------------------*/

/* The slot of key: where it is, or the empty one where it would go. */
static slot *slot_of(const aucs_qcache *c, const char *key, uint64_t h) {
  size_t i = (size_t)h & (c->cap - 1);
  while (c->slots[i].key &&
         (c->slots[i].hash != h || strcmp(c->slots[i].key, key)))
    i = (i + 1) & (c->cap - 1);
  return &c->slots[i];
}

static void grow(aucs_qcache *c) {
  slot *old = c->slots;
  size_t cap = c->cap;
  c->cap *= 2;
  c->slots = aucs_xcalloc(c->cap, sizeof *c->slots);
  for (size_t i = 0; i < cap; i++)
    if (old[i].key)
      *slot_of(c, old[i].key, old[i].hash) = old[i];
  free(old);
}

/* What a lookup found (0: nothing usable), counted as a hit or a miss. */
static int found(aucs_qcache *c, int kind) {
  if (kind)
    c->stats.hits++;
  else
    c->stats.misses++;
  return kind;
}

/* Whether a lookup in c may read the answer of slot s (step 3). */
static int visible(const aucs_qcache *c, const slot *s) {
  return s->kind == E_UNSAT || c->keep_sat ||
         (c->scope && s->scope == c->scope);
}

int aucs_qcache_lookup(aucs_qcache *c, const char *key, uint64_t *vals,
                       size_t n, uint64_t limit, unsigned mode) {
  const slot *s = slot_of(c, key, aucs_hash_text(AUCS_HASH_SEED, key));
  if (!s->key || !visible(c, s))
    return found(c, 0);
  if (s->kind == E_SAT && s->nvals == n) {
    if (n)
      memcpy(vals, s->vals, n * sizeof *vals);
    return found(c, 2);
  }
  if (s->kind == E_UNKNOWN && s->mode == mode && s->limit >= limit)
    return found(c, 3);
  return found(c, s->kind == E_UNSAT);
}

int aucs_qcache_get(aucs_qcache *c, const char *key, uint64_t *vals, size_t n) {
  int got = aucs_qcache_lookup(c, key, vals, n, UINT64_MAX, 0);
  return got == 3 ? 0 : got; /* no limit is ever tried in full */
}

int aucs_qcache_unsat(aucs_qcache *c, const char *key) {
  return aucs_qcache_lookup(c, key, NULL, 0, UINT64_MAX, 0) == 1;
}

/* The slot of key to fill: a new one, an UNKNOWN one (an answer
 * replaces it) or one whose answer c does not see (visible); NULL when
 * key has an answer already. */
static slot *to_fill(aucs_qcache *c, const char *key) {
  uint64_t h = aucs_hash_text(AUCS_HASH_SEED, key);
  slot *s = slot_of(c, key, h);
  if (s->key && !visible(c, s)) {
    free(s->vals);
    s->vals = NULL, s->nvals = 0, s->kind = 0;
  }
  if (s->key)
    return s->kind == E_UNKNOWN || !s->kind ? s : NULL;
  if (2 * (c->n + 1) >= c->cap) {
    grow(c);
    s = slot_of(c, key, h);
  }
  *s = (slot){.key = aucs_xstrdup(key), .hash = h};
  c->stats.entries = ++c->n;
  return s;
}

void aucs_qcache_put_unsat(aucs_qcache *c, const char *key) {
  slot *s = to_fill(c, key);
  if (s)
    s->kind = E_UNSAT;
}

void aucs_qcache_put_sat(aucs_qcache *c, const char *key, const uint64_t *vals,
                         size_t n) {
  slot *s = c->keep_sat || c->scope ? to_fill(c, key) : NULL;
  if (!s)
    return;
  s->kind = E_SAT;
  s->scope = c->scope;
  s->vals = aucs_xcalloc(n + 1, sizeof *vals);
  if (n)
    memcpy(s->vals, vals, n * sizeof *vals);
  s->nvals = n;
}

void aucs_qcache_put_unknown(aucs_qcache *c, const char *key, uint64_t limit,
                             unsigned mode) {
  slot *s = c->keep_sat || c->scope ? to_fill(c, key) : NULL;
  if (!s || (s->kind == E_UNKNOWN && s->mode == mode && s->limit >= limit))
    return;
  s->kind = E_UNKNOWN;
  s->scope = c->scope;
  s->limit = limit;
  s->mode = mode;
}

void aucs_qcache_keep_sat(aucs_qcache *c) { c->keep_sat = 1; }

void aucs_qcache_scope(aucs_qcache *c, unsigned scope) { c->scope = scope; }

aucs_qcache_stats aucs_qcache_stats_of(const aucs_qcache *c) {
  return c->stats;
}
