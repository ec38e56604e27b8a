/*
 * qcache: UNSAT answers by canonical query text (interface in qcache.h).
 *
 *   1. Key: Z3 prints the conjunction as an SMT-LIB benchmark (its
 *      declarations, then the formula); every token `name!N` and every
 *      let variable becomes `%K!` with K its order of first appearance.
 *   2. Table: open addressing on the key's FNV-1a hash, doubled at half
 *      load; a slot holds the key itself, compared in full, and for a SAT
 *      answer the model's values of the terms the key names (step 3).
 *   3. SAT answers (aucs_qcache_key_terms): the key also prints the terms
 *      whose values the caller reads from the model, as trivial equalities
 *      after the formula, so one key means one formula and one list of
 *      terms up to renaming: the values of one model answer both.
 *
 * Limitation: two formulas equal up to the order of commutative arguments
 * (Z3 orders some by term id, which differs between contexts) get two keys:
 * a miss, never a wrong answer.
 */
#include "aucs/qcache.h"

#include "aucs/util.h"
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

struct aucs_qcache {
  char **slots;
  uint64_t *hashes;
  uint64_t **vals; /* a SAT slot's model values, or NULL (UNSAT) */
  size_t *nvals;
  int keep_sat; /* aucs_qcache_keep_sat */
  size_t cap, n;
  aucs_qcache_stats stats;
};

aucs_qcache *aucs_qcache_new(void) {
  aucs_qcache *c = aucs_xcalloc(1, sizeof *c);
  c->cap = 64;
  c->slots = aucs_xcalloc(c->cap, sizeof *c->slots);
  c->hashes = aucs_xcalloc(c->cap, sizeof *c->hashes);
  c->vals = aucs_xcalloc(c->cap, sizeof *c->vals);
  c->nvals = aucs_xcalloc(c->cap, sizeof *c->nvals);
  return c;
}

void aucs_qcache_free(aucs_qcache *c) {
  if (!c)
    return;
  for (size_t i = 0; i < c->cap; i++) {
    free(c->slots[i]);
    free(c->vals[i]);
  }
  free(c->slots);
  free(c->hashes);
  free(c->vals);
  free(c->nvals);
  free(c);
}

/* ---- keys ---------------------------------------------------------------*/

static int name_char(int ch) {
  return isalnum(ch) || ch == '.' || ch == '_' || ch == '@' || ch == '$' ||
         ch == '?';
}

/* The length of a renamed token at s (0 when there is none): `name!N`, or
 * a let variable (`$x12`, `?x8`: numbered by term id); s starts a token
 * (its previous character is no name character). */
static size_t fresh_token(const char *s) {
  size_t i = 0;
  while (name_char((unsigned char)s[i]))
    i++;
  if (i > 1 && (s[0] == '$' || s[0] == '?') && s[i] != '!')
    return i;
  if (!i || s[i] != '!' || !isdigit((unsigned char)s[i + 1]))
    return 0;
  i++;
  while (isdigit((unsigned char)s[i]))
    i++;
  return name_char((unsigned char)s[i]) || s[i] == '!' ? 0 : i;
}

typedef struct names {
  char **v;
  size_t n;
} names;

static size_t name_index(names *ns, const char *s, size_t len) {
  for (size_t i = 0; i < ns->n; i++)
    if (strlen(ns->v[i]) == len && !memcmp(ns->v[i], s, len))
      return i;
  ns->v = aucs_xrealloc(ns->v, (ns->n + 1) * sizeof *ns->v);
  ns->v[ns->n] = aucs_xcalloc(len + 1, 1);
  memcpy(ns->v[ns->n], s, len);
  return ns->n++;
}

static char *renamed(const char *text) {
  aucs_buf out = {0};
  names ns = {0};
  for (const char *s = text; *s;) {
    size_t len = s == text || !name_char((unsigned char)s[-1])
                     ? fresh_token(s)
                     : 0;
    if (len) {
      aucs_buf_printf(&out, "%%%zu!", name_index(&ns, s, len));
      s += len;
      continue;
    }
    const char *e = s + 1;
    while (*e && (name_char((unsigned char)*e) || *e == '!') &&
           name_char((unsigned char)*s))
      e++;
    aucs_buf_printf(&out, "%.*s", (int)(e - s), s);
    s = e;
  }
  for (size_t i = 0; i < ns.n; i++)
    free(ns.v[i]);
  free(ns.v);
  return out.data ? aucs_buf_take(&out) : aucs_xstrdup("");
}

char *aucs_qcache_key(Z3_context z, const Z3_ast *asserts, size_t n) {
  Z3_ast all = n ? Z3_mk_and(z, (unsigned)n, asserts) : Z3_mk_true(z);
  const char *text =
      Z3_benchmark_to_smtlib_string(z, "", "", "", "", 0, NULL, all);
  return renamed(text ? text : "");
}

char *aucs_qcache_key_terms(Z3_context z, const Z3_ast *asserts, size_t n,
                            const Z3_ast *terms, size_t nterms) {
  Z3_ast *all = aucs_xcalloc(n + nterms + 1, sizeof *all);
  if (n)
    memcpy(all, asserts, n * sizeof *all);
  for (size_t i = 0; i < nterms; i++)
    all[n + i] = terms[i] ? Z3_mk_eq(z, terms[i], terms[i]) : Z3_mk_true(z);
  char *key = aucs_qcache_key(z, all, n + nterms);
  free(all);
  return key;
}

/* ---- the table ----------------------------------------------------------*/

static uint64_t fnv1a(const char *s) {
  uint64_t h = 1469598103934665603ull;
  for (; *s; s++)
    h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* The slot of key: where it is, or the empty one where it would go. */
static size_t slot_of(const aucs_qcache *c, const char *key, uint64_t h) {
  size_t i = (size_t)h & (c->cap - 1);
  while (c->slots[i] && (c->hashes[i] != h || strcmp(c->slots[i], key)))
    i = (i + 1) & (c->cap - 1);
  return i;
}

static void grow(aucs_qcache *c) {
  char **slots = c->slots;
  uint64_t *hashes = c->hashes, **vals = c->vals;
  size_t cap = c->cap, *nvals = c->nvals;
  c->cap *= 2;
  c->slots = aucs_xcalloc(c->cap, sizeof *c->slots);
  c->hashes = aucs_xcalloc(c->cap, sizeof *c->hashes);
  c->vals = aucs_xcalloc(c->cap, sizeof *c->vals);
  c->nvals = aucs_xcalloc(c->cap, sizeof *c->nvals);
  for (size_t i = 0; i < cap; i++)
    if (slots[i]) {
      size_t k = slot_of(c, slots[i], hashes[i]);
      c->slots[k] = slots[i];
      c->hashes[k] = hashes[i];
      c->vals[k] = vals[i];
      c->nvals[k] = nvals[i];
    }
  free(slots);
  free(hashes);
  free(vals);
  free(nvals);
}

int aucs_qcache_get(aucs_qcache *c, const char *key, uint64_t *vals, size_t n) {
  size_t i = slot_of(c, key, fnv1a(key));
  int got = !c->slots[i] ? 0 : !c->vals[i] ? 1 : c->nvals[i] == n ? 2 : 0;
  if (got == 2)
    memcpy(vals, c->vals[i], n * sizeof *vals);
  if (got)
    c->stats.hits++;
  else
    c->stats.misses++;
  return got;
}

int aucs_qcache_unsat(aucs_qcache *c, const char *key) {
  size_t i = slot_of(c, key, fnv1a(key));
  int hit = c->slots[i] != NULL && !c->vals[i];
  if (hit)
    c->stats.hits++;
  else
    c->stats.misses++;
  return hit;
}

/* Keep key (with a copy of vals[0..n) when vals is not NULL: SAT). */
static void put(aucs_qcache *c, const char *key, const uint64_t *vals,
                size_t n) {
  uint64_t h = fnv1a(key);
  size_t i = slot_of(c, key, h);
  if (c->slots[i])
    return;
  c->slots[i] = aucs_xstrdup(key);
  c->hashes[i] = h;
  if (vals) {
    c->vals[i] = aucs_xcalloc(n + 1, sizeof *vals);
    memcpy(c->vals[i], vals, n * sizeof *vals);
    c->nvals[i] = n;
  }
  c->stats.entries = ++c->n;
  if (2 * c->n >= c->cap)
    grow(c);
}

void aucs_qcache_put_unsat(aucs_qcache *c, const char *key) {
  put(c, key, NULL, 0);
}

void aucs_qcache_put_sat(aucs_qcache *c, const char *key, const uint64_t *vals,
                         size_t n) {
  if (c->keep_sat)
    put(c, key, vals, n);
}

void aucs_qcache_keep_sat(aucs_qcache *c) { c->keep_sat = 1; }

aucs_qcache_stats aucs_qcache_stats_of(const aucs_qcache *c) {
  return c->stats;
}
