/*
 * repair_index: hash indexes over finding keys for the repair loop, so that
 * matching findings to items stays linear in the number of findings.
 *
 * A finding's key is (kernel, kind, unordered pair of repair ids), as
 * same_key in repair.c compares it. Two indexes live in the loop state:
 *   - items: key -> item index, kept up to date by add_item;
 *   - cur: key -> (kernel, finding) of s->cur, built on first use after
 *     s->cur changes (rp_cur_changed drops it).
 * Both keep the first entry of a key, as the linear scans they replace
 * returned the first match.
 *
 * Open addressing with linear probing; the table doubles at half full.
 */
#include "repair_impl.h"

static uint64_t key_hash(const char *kernel, int kind, unsigned lo,
                         unsigned hi) {
  uint64_t h = aucs_hash_text(AUCS_HASH_SEED, kernel);
  uint64_t v[3] = {(uint64_t)kind, lo, hi};
  for (int i = 0; i < 3; i++)
    h = aucs_hash_u64(h, v[i]);
  return h ^ (h >> 29);
}

static void order(unsigned *a, unsigned *b) {
  if (*a > *b) {
    unsigned t = *a;
    *a = *b;
    *b = t;
  }
}

/* The slot of the key, or the empty slot where it would go. */
static rp_slot *probe(const rp_index *x, uint64_t h, const char *kernel,
                      int kind, unsigned lo, unsigned hi) {
  size_t mask = x->cap - 1;
  for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
    rp_slot *s = &x->v[i];
    if (!s->kernel || (s->hash == h && s->kind == kind && s->lo == lo &&
                       s->hi == hi && !strcmp(s->kernel, kernel)))
      return s;
  }
}

static void grow(rp_index *x) {
  rp_index old = *x;
  x->cap = old.cap ? old.cap * 2 : 64;
  x->v = aucs_xcalloc(x->cap, sizeof *x->v);
  for (size_t i = 0; i < old.cap; i++)
    if (old.v[i].kernel)
      *probe(x, old.v[i].hash, old.v[i].kernel, old.v[i].kind, old.v[i].lo,
             old.v[i].hi) = old.v[i];
  free(old.v);
}

void rp_index_add(rp_index *x, const char *kernel, int kind, unsigned ida,
                  unsigned idb, size_t a, size_t b) {
  if ((x->n + 1) * 2 > x->cap)
    grow(x);
  order(&ida, &idb);
  uint64_t h = key_hash(kernel, kind, ida, idb);
  rp_slot *s = probe(x, h, kernel, kind, ida, idb);
  if (s->kernel)
    return; /* the first entry of a key stays */
  *s = (rp_slot){kernel, h, ida, idb, kind, a, b};
  x->n++;
}

int rp_index_find(const rp_index *x, const char *kernel, int kind, unsigned ida,
                  unsigned idb, size_t *a, size_t *b) {
  if (!x->cap)
    return 0;
  order(&ida, &idb);
  const rp_slot *s =
      probe(x, key_hash(kernel, kind, ida, idb), kernel, kind, ida, idb);
  if (!s->kernel)
    return 0;
  *a = s->a;
  *b = s->b;
  return 1;
}

void rp_index_free(rp_index *x) {
  free(x->v);
  *x = (rp_index){0};
}

void rp_index_report(rp_index *x, const aucs_report *rep) {
  rp_index_free(x);
  for (size_t k = 0; k < rep->nkernels; k++)
    for (size_t i = 0; i < rep->kernels[k].findings.n; i++) {
      const aucs_finding *f = &rep->kernels[k].findings.v[i];
      rp_index_add(x, rep->kernels[k].name, (int)f->kind,
                   aucs_repair_id(f->a.instr), aucs_repair_id(f->b.instr), k,
                   i);
    }
}

void rp_cur_changed(state *s) {
  rp_index_free(&s->cur_index);
  s->cur_indexed = 0;
}

const aucs_finding *rp_lookup_cur(state *s, const aucs_repair_item *it,
                                  LLVMValueRef *kernel) {
  if (!s->cur_indexed) {
    rp_index_report(&s->cur_index, &s->cur);
    s->cur_indexed = 1;
  }
  size_t k, i;
  if (!rp_index_find(&s->cur_index, it->kernel, (int)it->kind, it->ida, it->idb,
                     &k, &i))
    return NULL;
  *kernel = s->cur.kernels[k].fn;
  return &s->cur.kernels[k].findings.v[i];
}
