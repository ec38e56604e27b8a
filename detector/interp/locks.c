/*
 * locks: the discipline of spin locks built on atomics (docs/sync.md,
 * "Locks").
 *
 * A thread takes a lock when a compare-and-swap succeeds and changes the
 * word (atomicCAS(l, 0, 1) == 0), or an exchange turns 0 into another value
 * (atomicExch(l, 1) == 0), while it holds no lock; it releases the lock when
 * it writes the word's free value back (the value its acquire replaced:
 * atomicExch(l, 0), atomicCAS(l, 1, 0), an atomic, volatile or plain
 * store). Its accesses in between, but those of the word, are the critical
 * section's; their shadow records carry the `locked` bit. A word some
 * thread released is a lock: only then does this file decide an order or
 * name it (a compare-and-swap loop that adds to a sum takes no lock it
 * gives back).
 *
 * Which thread takes the lock first is up to the hardware, so two
 * conflicting accesses of critical sections of one lock are ordered only
 * when the order holds both ways round:
 *   1. the earlier access e is followed by a fence before its release (or
 *      the release has release semantics), of a scope reaching the other
 *      thread's block;
 *   2. the later access r follows a fence after its acquire (or the
 *      acquire has acquire semantics), of a scope reaching e's block;
 *   3. e follows a fence after its own acquire (2, the other way round);
 *   4. r is followed by a fence before its own release (1, the other way
 *      round): known only at that release, so the pair waits there.
 * A fence after the acquire and before the release is told apart by the
 * thread's release numbers (sync.h): a fence increments them, so an access
 * with a number below the release's last fence came before it. Atomics of
 * block scope shared by blocks, an access outside any lock and accesses
 * under different locks are left to the clocks of sync.c (which report
 * them as races, scope races or missing fences); this file only names the
 * lock in their message.
 *
 * Limitation: a thread holds one lock at a time (a nested one is not
 * tracked); of a thread's critical sections only the last is kept, so an
 * access of an earlier one is left to the clocks; the barrier-protected
 * form (thread 0 takes the lock for its block) is the clocks' too.
 */
#include "interp_impl.h"

#include "aucs/demangle.h"

enum { NPEND = 4 };

typedef struct pend { /* a pair that waits for r's release (step 4) */
  const robj *o;
  uint64_t off;
  aucs_shadow_rec e, r;
  uint32_t eblk;
  unsigned n;
} pend;

struct ip_hold {
  uint64_t key;  /* block << 12 | tid, + 1 */
  uint64_t lock; /* the word held, or last held; 0: none */
  uint64_t free; /* the value its acquire replaced */
  uint32_t blk;
  int holding;
  uint32_t acq_pc, rel_pc;   /* the user's lines of the acquire, release */
  uint32_t acq_rel0;         /* the thread's release number at the acquire */
  uint32_t acq_q;            /* that of the first fence after it; 0: none */
  uint32_t rel_q;            /* that of the last fence before the release */
  uint8_t acq_scope, acq_sem; /* the acquiring atomic */
  uint8_t acq_fence;          /* the scope of that first fence */
  uint8_t rel_scope, rel_sem, rel_fence, released;
  uint8_t rel_plain; /* released by a plain store: it orders nothing */
  pend p[NPEND];
  unsigned np;
};

struct ip_locks {
  ip_hold **v; /* open addressing on key */
  size_t cap, len;
  uint64_t *locks; /* words some thread released: locks */
  size_t nlocks, caplocks;
};

static int is_lock(const run *R, uint64_t w) {
  for (size_t i = 0; R->lk && i < R->lk->nlocks; i++)
    if (R->lk->locks[i] == w)
      return 1;
  return 0;
}

static void add_lock(run *R, uint64_t w) {
  ip_locks *L = R->lk;
  if (is_lock(R, w))
    return;
  if (L->nlocks == L->caplocks) {
    L->caplocks = L->caplocks ? L->caplocks * 2 : 8;
    L->locks = aucs_xrealloc(L->locks, L->caplocks * sizeof *L->locks);
  }
  L->locks[L->nlocks++] = w;
}

static size_t hmix(uint64_t x) {
  x ^= x >> 31;
  x *= 0x9E3779B97F4A7C15ull;
  return (size_t)(x ^ (x >> 29));
}

static uint64_t key_of(uint32_t blk, uint32_t tid) {
  return ((uint64_t)blk << 12 | tid) + 1;
}

static ip_hold **slot(ip_locks *L, uint64_t key) {
  size_t j = hmix(key) & (L->cap - 1);
  while (L->v[j] && L->v[j]->key != key)
    j = (j + 1) & (L->cap - 1);
  return &L->v[j];
}

static ip_hold *hold_of(const run *R, uint32_t blk, uint32_t tid) {
  ip_locks *L = R->lk;
  if (!L || !L->cap)
    return NULL;
  return *slot(L, key_of(blk, tid));
}

static void grow(ip_locks *L) {
  size_t cap = L->cap ? L->cap * 2 : 64;
  ip_hold **v = aucs_xcalloc(cap, sizeof *v), **old = L->v;
  size_t n = L->cap;
  L->v = v;
  L->cap = cap;
  for (size_t i = 0; i < n; i++)
    if (old[i])
      *slot(L, old[i]->key) = old[i];
  free(old);
}

static ip_hold *hold_make(run *R, thread *T) {
  if (T->lk)
    return T->lk;
  if (!R->lk)
    R->lk = aucs_xcalloc(1, sizeof *R->lk);
  ip_locks *L = R->lk;
  if ((L->len + 1) * 2 > L->cap)
    grow(L);
  uint64_t key = key_of(R->blk, T->tid);
  ip_hold **s = slot(L, key);
  if (!*s) {
    *s = aucs_xcalloc(1, sizeof **s);
    (*s)->key = key;
    (*s)->blk = R->blk;
    L->len++;
  }
  T->lk = *s;
  return *s;
}

void ip_locks_free(run *R) {
  if (!R->lk)
    return;
  for (size_t i = 0; i < R->lk->cap; i++)
    free(R->lk->v[i]);
  free(R->lk->v);
  free(R->lk->locks);
  free(R->lk);
  R->lk = NULL;
}

/* The user's statement for pc: the first caller outside a header (at -O0
 * CUDA's atomics are helpers of the SDK's headers). */
static uint32_t site(const run *R, const thread *T, uint32_t pc) {
  for (uint32_t d = T->depth; d > 0; d--) {
    aucs_srcloc s = aucs_srcloc_of(R->p->instr[pc]);
    if (!s.file || s.file_len < 2 ||
        (memcmp(s.file + s.file_len - 2, ".h", 2) &&
         (s.file_len < 4 || memcmp(s.file + s.file_len - 4, ".hpp", 4))))
      return pc;
    pc = T->frames[d - 1].ret_pc - 1;
  }
  return pc;
}

static int scope_of(uint64_t imm) {
  int s = MEM_SCOPE(imm);
  return s ? s : AUCS_SCOPE_SYSTEM;
}

static void acquire(run *R, thread *T, uint32_t pc, uint64_t ptr,
                    uint64_t imm, uint64_t old) {
  ip_hold *h = hold_make(R, T);
  h->lock = ptr;
  h->free = old;
  h->holding = 1;
  h->acq_pc = site(R, T, pc);
  h->acq_rel0 = T->sy.rel;
  h->acq_q = 0;
  h->acq_fence = 0;
  h->acq_scope = (uint8_t)scope_of(imm);
  h->acq_sem = (imm & MEM_ACQUIRE) != 0;
  h->released = 0;
  h->np = 0;
}

/* Does an order of scope s, made in block `from`, reach block blk? */
static int reach(int s, uint32_t from, uint32_t blk) {
  return s >= AUCS_SCOPE_DEVICE || (s == AUCS_SCOPE_BLOCK && from == blk);
}

/* Is the access of h's critical section with release number rel ordered
 * before h's release for block blk (a fence after it, or a release)? */
static int rel_protected(const ip_hold *h, uint32_t rel, uint32_t blk) {
  if (!h->released || h->rel_plain)
    return 0;
  if (h->rel_sem)
    return reach(h->rel_scope, h->blk, blk);
  int s = h->rel_fence < h->rel_scope ? h->rel_fence : h->rel_scope;
  return h->rel_q > h->acq_rel0 && rel < h->rel_q && reach(s, h->blk, blk);
}

/* ... and after h's acquire (a fence before it, or an acquire)? */
static int acq_protected(const ip_hold *h, uint32_t rel, uint32_t blk) {
  if (h->acq_sem)
    return reach(h->acq_scope, h->blk, blk);
  int s = h->acq_fence < h->acq_scope ? h->acq_fence : h->acq_scope;
  return h->acq_q && rel >= h->acq_q && reach(s, h->blk, blk);
}

static void release(run *R, thread *T, uint32_t pc, uint64_t imm) {
  ip_hold *h = T->lk;
  h->holding = 0;
  h->released = 1;
  add_lock(R, h->lock);
  h->rel_pc = site(R, T, pc);
  h->rel_scope = (uint8_t)scope_of(imm);
  h->rel_sem = (imm & MEM_RELEASE) != 0 && (imm & MEM_ATOMIC);
  h->rel_q = T->sy.fence_q;
  h->rel_fence = T->sy.fence_scope;
  h->rel_plain = !(imm & (MEM_ATOMIC | MEM_VOLATILE));
  for (unsigned i = 0; i < h->np; i++) {
    pend *p = &h->p[i];
    if (!rel_protected(h, aucs_shadow_rec_rel(p->r), p->eblk))
      ip_lock_race(R, T, p->o, p->off, p->e, p->eblk, p->r, p->n, 1);
  }
  h->np = 0;
}

void ip_lock_rmw(run *R, thread *T, uint32_t pc, uint64_t ptr, uint64_t imm,
                 int how, uint64_t old, uint64_t nv) {
  if (nv == old)
    return;
  if (T->lk && T->lk->holding) {
    if (T->lk->lock == ptr && nv == T->lk->free)
      release(R, T, pc, imm);
    return;
  }
  if (how == IP_LOCK_CAS || (how == IP_LOCK_XCHG && old == 0))
    acquire(R, T, pc, ptr, imm, old);
}

void ip_lock_store(run *R, thread *T, uint32_t pc, uint64_t ptr, uint64_t imm,
                   uint64_t v) {
  if (T->lk && T->lk->holding && T->lk->lock == ptr && v == T->lk->free)
    release(R, T, pc, imm);
}

void ip_lock_fence(thread *T, int scope) {
  ip_hold *h = T->lk;
  if (h && h->holding && !h->acq_q) {
    h->acq_q = T->sy.fence_q;
    h->acq_fence = (uint8_t)scope;
  }
}

int ip_lock_inside(const thread *T, uint64_t ptr, uint64_t n) {
  const ip_hold *h = T->lk;
  return h && h->holding && (ptr + n <= h->lock || ptr >= h->lock + 4);
}

/* e's hold when e was made in its thread's last critical section. */
static const ip_hold *hold_at(const run *R, uint32_t blk, aucs_shadow_rec e) {
  if (!aucs_shadow_rec_locked(e))
    return NULL;
  const ip_hold *h = hold_of(R, blk, aucs_shadow_rec_tid(e));
  uint32_t rel = aucs_shadow_rec_rel(e);
  if (!h || rel >= AUCS_SYNC_REL_MAX || rel < h->acq_rel0)
    return NULL;
  return h;
}

ip_lock_verdict ip_lock_judge(const run *R, const thread *T, uint32_t eblk,
                              aucs_shadow_rec e, aucs_shadow_rec r) {
  const ip_hold *eh = hold_at(R, eblk, e), *th = T->lk;
  uint32_t rr = aucs_shadow_rec_rel(r), blk = R->blk;
  if (!eh || !eh->released || !aucs_shadow_rec_locked(r) || !th ||
      eh->lock != th->lock || rr >= AUCS_SYNC_REL_MAX)
    return IP_LOCK_CLOCKS;
  if (eblk != blk && (eh->acq_scope < AUCS_SCOPE_DEVICE ||
                      th->acq_scope < AUCS_SCOPE_DEVICE ||
                      (eh->released && eh->rel_scope < AUCS_SCOPE_DEVICE)))
    return IP_LOCK_CLOCKS; /* a scope race: the clocks report it */
  if (eh->rel_plain)
    return IP_LOCK_CLOCKS; /* a race on the lock word too */
  uint32_t er = aucs_shadow_rec_rel(e);
  if (!rel_protected(eh, er, blk) || !acq_protected(th, rr, eblk))
    return IP_LOCK_RACE;
  if (!acq_protected(eh, er, blk))
    return IP_LOCK_RACE_BACK;
  return IP_LOCK_ORDERED;
}

void ip_lock_defer(thread *T, const robj *o, uint64_t off, aucs_shadow_rec e,
                   uint32_t eblk, aucs_shadow_rec r, unsigned n) {
  ip_hold *h = T->lk;
  for (unsigned i = 0; i < h->np; i++)
    if (aucs_shadow_rec_pc(h->p[i].e) == aucs_shadow_rec_pc(e) &&
        aucs_shadow_rec_pc(h->p[i].r) == aucs_shadow_rec_pc(r))
      return;
  if (h->np < NPEND)
    h->p[h->np++] = (pend){o, off, e, r, eblk, n};
}

/* ---- the sentence that names the lock ---- */

static char *loc(const run *R, uint32_t pc) {
  return aucs_srcloc_format(R->p->instr[pc]);
}

/* 'lock', a function's static by its own name ("_ZZ1kPiE4lock"). */
static char *lock_name(const run *R, uint64_t ptr) {
  uint32_t id = (uint32_t)(ptr >> AUCS_PTR_SHIFT);
  uint64_t off = AUCS_PTR_OFF(ptr);
  const char *name = id < R->nobjs ? R->objs[id].o->name : "?";
  char *d = aucs_demangle(name), *s;
  const char *own = d ? d : name, *colon = d ? strrchr(d, ':') : NULL;
  if (colon && !strncmp(name, "_ZZ", 3))
    own = colon + 1;
  if (!off)
    s = aucs_xasprintf("'%s'", own);
  else
    s = aucs_xasprintf("'%s' (byte %llu)", own, (unsigned long long)off);
  free(d);
  return s;
}

#define NARROW                                                                 \
  "only a block-scoped fence (__threadfence_block() or __syncthreads()) "      \
  "between them, which does not reach another block (__threadfence() does)"

static const char *verb(aucs_shadow_rec x) {
  return aucs_shadow_rec_write(x) ? "write" : "read";
}

/* The critical section at h is not ordered toward blk on its release
 * side (rel) or its acquire side: why, of the access at pc. */
static char *why_release(const run *R, const ip_hold *h, uint32_t pc,
                         aucs_shadow_rec x, uint32_t blk) {
  char *a = loc(R, pc), *l = loc(R, h->rel_pc), *s;
  const char *no = h->rel_q > h->acq_rel0 &&
                           aucs_shadow_rec_rel(x) < h->rel_q &&
                           !reach(h->rel_fence, h->blk, blk)
                       ? NARROW
                       : "no __threadfence() between them";
  s = aucs_xasprintf("the critical section's %s at %s is not ordered before "
                     "the release at %s: %s",
                     verb(x), a, l,
                     h->rel_plain ? "the release is a plain store (not "
                                    "atomic: use atomicExch)"
                                  : no);
  free(a);
  free(l);
  return s;
}

static char *why_acquire(const run *R, const ip_hold *h, uint32_t pc,
                         aucs_shadow_rec x, uint32_t blk) {
  char *a = loc(R, pc), *l = loc(R, h->acq_pc), *s;
  const char *no = h->acq_q && aucs_shadow_rec_rel(x) >= h->acq_q &&
                           !reach(h->acq_fence, h->blk, blk)
                       ? NARROW
                       : "no __threadfence() between them";
  s = aucs_xasprintf("the critical section's %s at %s is not ordered after "
                     "the acquire at %s: %s",
                     verb(x), a, l, no);
  free(a);
  free(l);
  return s;
}

char *ip_lock_sentence(const run *R, const thread *T, uint32_t eblk,
                       aucs_shadow_rec e, aucs_shadow_rec r, int at_release) {
  const ip_hold *eh = hold_at(R, eblk, e), *th = T->lk;
  if (at_release) {
    char *name = lock_name(R, th->lock), *where = loc(R, th->acq_pc);
    char *why = why_release(R, th, aucs_shadow_rec_pc(r), r, eblk);
    char *s = aucs_xasprintf("lock %s (taken at %s): %s", name, where, why);
    free(name);
    free(where);
    free(why);
    return s;
  }
  if (!aucs_shadow_rec_locked(r) || !th || th->lock == 0)
    th = NULL;
  if ((!eh && !th) || (eh && !is_lock(R, eh->lock)) ||
      (th && !is_lock(R, th->lock)))
    return NULL;
  uint32_t epc = aucs_shadow_rec_pc(e), rpc = aucs_shadow_rec_pc(r);
  const ip_hold *in = eh ? eh : th;
  char *name = lock_name(R, in->lock), *where = loc(R, in->acq_pc), *s = NULL;
  if (!eh || !th) {
    char *out = loc(R, eh ? rpc : epc);
    s = aucs_xasprintf("the %s at %s takes no lock, while the other access "
                       "holds lock %s (taken at %s)",
                       verb(eh ? r : e), out, name, where);
    free(out);
  } else if (eh->lock != th->lock) {
    char *other = lock_name(R, th->lock);
    s = aucs_xasprintf("the two accesses hold different locks (%s taken at "
                       "%s, %s)",
                       name, where, other);
    free(other);
  } else {
    uint32_t er = aucs_shadow_rec_rel(e), rr = aucs_shadow_rec_rel(r);
    char *why;
    if (eh->released && eh->rel_plain)
      why = why_release(R, eh, epc, e, R->blk);
    else if (eblk != R->blk && (eh->acq_scope < AUCS_SCOPE_DEVICE ||
                           th->acq_scope < AUCS_SCOPE_DEVICE ||
                           (eh->released && eh->rel_scope < AUCS_SCOPE_DEVICE)))
      why = aucs_xstrdup("it is taken with block-scoped atomics by threads "
                         "of different blocks (atomicCAS_block: use "
                         "atomicCAS)");
    else if (!rel_protected(eh, er, R->blk))
      why = why_release(R, eh, epc, e, R->blk);
    else if (!acq_protected(th, rr, eblk))
      why = why_acquire(R, th, rpc, r, eblk);
    else if (!acq_protected(eh, er, R->blk))
      why = why_acquire(R, eh, epc, e, R->blk);
    else
      why = why_release(R, th, rpc, r, eblk);
    s = aucs_xasprintf("lock %s (taken at %s): %s", name, where, why);
    free(why);
  }
  free(name);
  free(where);
  return s;
}
