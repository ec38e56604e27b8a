/*
 * sync: vector clocks over blocks for fences and atomics (see sync.h).
 */
#include "aucs/sync.h"

#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

typedef struct sobj {
  uint64_t addr;
  aucs_sync_front *dev; /* released at device or system scope */
  aucs_sync_front *cta; /* released at block scope, by block cta_slot */
  uint32_t cta_slot;
  aucs_sync_front *any; /* every strong write as a release (missing-fence) */
} sobj;

struct aucs_sync {
  uint32_t n;
  sobj *objs; /* open addressing on addr; addr 0 is never an object */
  size_t cap, len;
  aucs_sync_front *tmp, *wtmp; /* the barrier's joins */
};

static aucs_sync_front *clock_new(uint32_t n) {
  return aucs_xcalloc(n, sizeof(aucs_sync_front));
}

aucs_sync *aucs_sync_new(uint32_t nslots) {
  aucs_sync *s = aucs_xcalloc(1, sizeof *s);
  s->n = nslots ? nslots : 1;
  s->tmp = clock_new(s->n);
  s->wtmp = clock_new(s->n);
  return s;
}

void aucs_sync_free(aucs_sync *s) {
  if (!s)
    return;
  for (size_t i = 0; i < s->cap; i++) {
    free(s->objs[i].dev);
    free(s->objs[i].cta);
    free(s->objs[i].any);
  }
  free(s->objs);
  free(s->tmp);
  free(s->wtmp);
  free(s);
}

/* Give t its clocks (all zero), keeping its counters. */
static void ensure(aucs_sync *s, aucs_sync_thread *t) {
  t->c = clock_new(s->n);
  t->p = clock_new(s->n);
  t->w = clock_new(s->n);
}

void aucs_sync_thread_reset(aucs_sync *s, aucs_sync_thread *t) {
  if (!t->c) {
    t->c = clock_new(s->n);
    t->p = clock_new(s->n);
    t->w = clock_new(s->n);
  } else {
    memset(t->c, 0, s->n * sizeof *t->c);
    memset(t->p, 0, s->n * sizeof *t->p);
    memset(t->w, 0, s->n * sizeof *t->w);
  }
  t->rel = t->fence_q = 0;
  t->fence_scope = t->fenced = 0;
}

void aucs_sync_thread_free(aucs_sync_thread *t) {
  free(t->c);
  free(t->p);
  free(t->w);
  t->c = t->p = t->w = NULL;
}

/* The later of two frontiers; of one epoch, the same thread's later
 * release, or (different threads) a (the order is under-approximated). */
static aucs_sync_front join1(aucs_sync_front a, aucs_sync_front b) {
  if (a.ep != b.ep)
    return a.ep > b.ep ? a : b;
  if (a.tid == b.tid && b.q > a.q)
    return b;
  return a.q ? a : b;
}

static void join(aucs_sync_front *d, const aucs_sync_front *x, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    d[i] = join1(d[i], x[i]);
}

static int front_covers(aucs_sync_front f, uint32_t ep, uint32_t tid,
                        uint32_t rel) {
  if (ep + 1 < f.ep)
    return 1;
  return ep + 1 == f.ep && tid == f.tid && rel < f.q && rel < AUCS_SYNC_REL_MAX;
}

int aucs_sync_covers(const aucs_sync *s, const aucs_sync_thread *t,
                     uint32_t slot, uint32_t ep, uint32_t tid, uint32_t rel) {
  if (!t->c || slot >= s->n)
    return 0;
  return front_covers(t->c[slot], ep, tid, rel);
}

int aucs_sync_covers_unfenced(const aucs_sync *s, const aucs_sync_thread *t,
                              uint32_t slot, uint32_t ep, uint32_t tid,
                              uint32_t rel) {
  if (!t->w || slot >= s->n)
    return 0;
  return front_covers(t->w[slot], ep, tid, rel);
}

void aucs_sync_fence(aucs_sync *s, aucs_sync_thread *t, int scope) {
  if (t->c) { /* no clock yet: nothing pending either */
    join(t->c, t->p, s->n);
    memset(t->p, 0, s->n * sizeof *t->p);
  }
  t->fence_q = ++t->rel;
  t->fenced = 1;
  /* a block barrier after a wider fence keeps the wider one */
  if (scope >= t->fence_scope || scope != AUCS_SCOPE_BLOCK)
    t->fence_scope = (uint8_t)scope;
}

static size_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x;
}

static void grow(aucs_sync *s) {
  size_t cap = s->cap ? s->cap * 2 : 64;
  sobj *o = aucs_xcalloc(cap, sizeof *o);
  for (size_t i = 0; i < s->cap; i++)
    if (s->objs[i].addr) {
      size_t j = mix(s->objs[i].addr) & (cap - 1);
      while (o[j].addr)
        j = (j + 1) & (cap - 1);
      o[j] = s->objs[i];
    }
  free(s->objs);
  s->objs = o;
  s->cap = cap;
}

/* The object at addr; NULL when absent and !make. */
static sobj *find(aucs_sync *s, uint64_t addr, int make) {
  if (make && (s->len + 1) * 2 > s->cap)
    grow(s);
  if (!s->cap)
    return NULL;
  size_t j = mix(addr) & (s->cap - 1);
  while (s->objs[j].addr && s->objs[j].addr != addr)
    j = (j + 1) & (s->cap - 1);
  if (s->objs[j].addr)
    return &s->objs[j];
  if (!make)
    return NULL;
  s->objs[j].addr = addr;
  s->len++;
  return &s->objs[j];
}

int aucs_sync_published(aucs_sync *s, uint64_t addr) {
  sobj *o = find(s, addr, 0);
  return o && (o->dev || o->cta);
}

void aucs_sync_read(aucs_sync *s, aucs_sync_thread *t, uint64_t addr,
                    uint32_t slot, int scope, int acquire) {
  sobj *o = find(s, addr, 0);
  if (!o)
    return;
  if (!t->c)
    ensure(s, t);
  if (o->any)
    join(t->w, o->any, s->n);
  aucs_sync_front *into = acquire ? t->c : t->p;
  if (o->cta && o->cta_slot == slot)
    join(into, o->cta, s->n);
  if (o->dev && scope >= AUCS_SCOPE_DEVICE)
    join(into, o->dev, s->n);
  else if (o->dev && slot < s->n) /* block scope: its own block's part */
    into[slot] = join1(into[slot], o->dev[slot]);
}

/* Publish t's clock and its own frontier into *dst (join or replace). */
static void publish(aucs_sync *s, aucs_sync_front **dst,
                    const aucs_sync_thread *t, aucs_sync_front own,
                    uint32_t slot, int keep) {
  if (!*dst)
    *dst = clock_new(s->n);
  else if (!keep)
    memset(*dst, 0, s->n * sizeof **dst);
  join(*dst, t->c, s->n);
  if (slot < s->n)
    (*dst)[slot] = join1((*dst)[slot], own);
}

/* Every strong write publishes t's what-if clock (joined with its real
 * one) and its accesses so far. */
static void write_unfenced(aucs_sync *s, aucs_sync_thread *t, uint64_t addr,
                           uint32_t slot, uint32_t ep, uint32_t tid, int rmw) {
  sobj *o = find(s, addr, 1);
  aucs_sync_front own = {ep + 1, tid, ++t->rel};
  join(t->w, t->c, s->n);
  if (!o->any)
    o->any = clock_new(s->n);
  else if (!rmw)
    memset(o->any, 0, s->n * sizeof *o->any);
  join(o->any, t->w, s->n);
  if (slot < s->n)
    o->any[slot] = join1(o->any[slot], own);
}

void aucs_sync_write(aucs_sync *s, aucs_sync_thread *t, uint64_t addr,
                     uint32_t slot, uint32_t ep, uint32_t tid, int scope,
                     int release, int rmw) {
  uint32_t q = 0;
  if (!t->c)
    ensure(s, t);
  if (scope >= AUCS_SCOPE_DEVICE) /* a block-scoped one is a scope race */
    write_unfenced(s, t, addr, slot, ep, tid, rmw);
  if (release) {
    q = ++t->rel;
  } else if (t->fence_q) {
    q = t->fence_q;
    if (t->fence_scope < scope)
      scope = t->fence_scope;
  }
  sobj *o = find(s, addr, q != 0);
  if (!o)
    return;
  if (!q) { /* a plain strong write ends the release sequence */
    if (!rmw) {
      free(o->dev);
      free(o->cta);
      o->dev = o->cta = NULL;
    }
    return;
  }
  aucs_sync_front own = {ep + 1, tid, q};
  if (scope >= AUCS_SCOPE_DEVICE) {
    publish(s, &o->dev, t, own, slot, rmw);
  } else {
    int keep = rmw && o->cta && o->cta_slot == slot;
    publish(s, &o->cta, t, own, slot, keep);
    o->cta_slot = slot;
  }
}

void aucs_sync_barrier_gather(aucs_sync *s, aucs_sync_thread *t, int first) {
  if (first) {
    memset(s->tmp, 0, s->n * sizeof *s->tmp);
    memset(s->wtmp, 0, s->n * sizeof *s->wtmp);
  }
  if (!t->c)
    return;
  join(t->c, t->p, s->n); /* the barrier acquires like a fence */
  memset(t->p, 0, s->n * sizeof *t->p);
  join(s->tmp, t->c, s->n);
  join(s->wtmp, t->w, s->n);
}

/* Is the clock all zero? */
static int empty(const aucs_sync_front *c, uint32_t n) {
  for (uint32_t i = 0; i < n; i++)
    if (c[i].ep)
      return 0;
  return 1;
}

void aucs_sync_barrier_scatter(aucs_sync *s, aucs_sync_thread *t) {
  if (!t->c && (!empty(s->tmp, s->n) || !empty(s->wtmp, s->n)))
    ensure(s, t);
  if (t->c) {
    memcpy(t->c, s->tmp, s->n * sizeof *t->c);
    memcpy(t->w, s->wtmp, s->n * sizeof *t->w);
    join(t->w, t->c, s->n);
  }
  uint8_t fenced = t->fenced;
  aucs_sync_fence(s, t, AUCS_SCOPE_BLOCK);
  t->fenced = fenced;
}
