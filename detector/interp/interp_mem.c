/*
 * interp_mem: the interpreter's memory (interp.c has the model): objects and
 * their sparse pages, uninitialised bytes from the run's fill, and every
 * shared and global access checked against shadow memory (shadow.h), with
 * the happens-before of sync.h; the findings those checks and the
 * scheduler report, and the stop of a run.
 */
#include "interp_impl.h"

static uint64_t mix(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/* Bytes [off, off + n) of object id as fill f leaves them: random bytes,
 * small words (0..15 in the low byte of each aligned 4-byte word), zeros. */
static void fill_seeded(uint64_t seed, aucs_fill f, uint32_t id, uint64_t off,
                        unsigned char *p, uint64_t n) {
  if (f == AUCS_FILL_ZERO) {
    memset(p, 0, n);
    return;
  }
  for (uint64_t i = 0; i < n; i++) {
    uint64_t a = off + i;
    if (f == AUCS_FILL_SMALL) {
      uint64_t h = mix(seed ^ mix((uint64_t)id << 40 ^ (a >> 2)));
      p[i] = a & 3 ? 0 : (unsigned char)(h & 15);
      continue;
    }
    uint64_t h = mix(seed ^ mix((uint64_t)id << 40 ^ (a >> 3)));
    p[i] = (unsigned char)(h >> (8 * (a & 7)));
  }
}

static void fill_random(run *R, uint32_t id, uint64_t off, unsigned char *p,
                        uint64_t n) {
  fill_seeded(R->cfg->seed, R->cfg->fill, id, off, p, n);
}

void ip_fill(run *R, uint32_t id, uint64_t off, unsigned char *p, uint64_t n) {
  fill_random(R, id, off, p, n);
}

uint64_t ip_nondet(run *R, const thread *T, uint32_t pc, uint64_t steps) {
  uint64_t key =
      mix(mix((uint64_t)pc << 32 ^ T->tid) ^ (uint64_t)R->blk << 20 ^ steps);
  unsigned char b[8];
  /* object id 0 (null) has no contents of its own to collide with */
  fill_seeded(R->cfg->seed, R->cfg->fill, 0, key & ~UINT64_C(7), b, 8);
  uint64_t v;
  memcpy(&v, b, 8);
  /* small: one small word, whatever the width */
  return R->cfg->fill == AUCS_FILL_SMALL ? v & 0xffffffffu : v;
}

static const char *const fill_names[] = {
#define AUCS_FILL(e, name) name,
    AUCS_FILLS(AUCS_FILL)
#undef AUCS_FILL
};

const char *aucs_interp_fill_name(aucs_fill f) {
  return (unsigned)f < AUCS_FILL_NMODES ? fill_names[f] : "?";
}

/* ---- findings ---- */

static int u64set_add(u64set *s, uint64_t key) {
  key = key * 2 + 1; /* never 0 */
  if ((s->len + 1) * 2 > s->cap) {
    u64set n = {aucs_xcalloc(s->cap ? s->cap * 2 : 64, 8),
                s->cap ? s->cap * 2 : 64, 0};
    for (size_t i = 0; i < s->cap; i++)
      if (s->keys[i]) {
        size_t j = mix(s->keys[i]) & (n.cap - 1);
        while (n.keys[j])
          j = (j + 1) & (n.cap - 1);
        n.keys[j] = s->keys[i];
        n.len++;
      }
    free(s->keys);
    *s = n;
  }
  size_t j = mix(key) & (s->cap - 1);
  for (; s->keys[j]; j = (j + 1) & (s->cap - 1))
    if (s->keys[j] == key)
      return 0;
  s->keys[j] = key;
  s->len++;
  return 1;
}

static int u64set_has(const u64set *s, uint64_t key) {
  key = key * 2 + 1;
  if (!s->cap)
    return 0;
  for (size_t j = mix(key) & (s->cap - 1); s->keys[j];
       j = (j + 1) & (s->cap - 1))
    if (s->keys[j] == key)
      return 1;
  return 0;
}

static uint64_t pair_key(uint32_t a, uint32_t b) {
  uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
  return (uint64_t)lo << 24 | hi;
}

/* 1 the first time (kind, pc pair) is seen in this run. */
int ip_first_time(run *R, aucs_finding_kind k, uint32_t a, uint32_t b) {
  return u64set_add(&R->seen, (uint64_t)k << 48 | pair_key(a, b));
}

aucs_access ip_side(run *R, uint32_t pc, uint32_t tid, uint32_t blk, aucs_op op,
                    unsigned size) {
  aucs_access s = {.instr = R->p->instr[pc], .op = op, .size = size};
  s.thread = coords(tid, R->block);
  s.block = coords(blk, R->grid);
  return s;
}

void ip_push(run *R, aucs_finding *f, const robj *o, uint64_t off) {
  if (o) {
    f->memory = o->o->space;
    f->object = aucs_xstrdup(o->o->name);
    f->offset = off;
  }
  f->epoch = R->bepoch;
  f->apart = R->bepoch - R->sync_from;
  f->launch = R->cfg->launch;
  f->args = aucs_xstrdup(R->args);
  aucs_findings_push(&R->res->findings, f);
}

static const char *op_word(aucs_op op) {
  return op == AUCS_OP_READ ? "read" : op == AUCS_OP_WRITE ? "write" : "atomic";
}

static unsigned size_at(run *R, uint32_t pc) {
  const bc_insn *I = &R->p->code[pc];
  return I->op == OP_LOAD || I->op == OP_STORE || I->op == OP_RMW ||
                 I->op == OP_CMPXCHG || I->op == OP_ALOAD || I->op == OP_ASTORE
             ? I->x
         : I->op == OP_SURF ? I->x * (I->c >> 8)
                            : 1;
}

/* ---- the values of write-write races ---- */

static int plain_write(aucs_shadow_rec r) {
  return aucs_shadow_rec_write(r) && !aucs_shadow_rec_atomic(r);
}

/* What a race of e and the access at pc stored (finding.h). */
static aucs_values race_values(const run *R, aucs_shadow_rec e, uint32_t pc,
                               aucs_op op) {
  if (!plain_write(e) || op != AUCS_OP_WRITE)
    return AUCS_VALUES_UNKNOWN;
  return u64set_has(&R->differ, pair_key(aucs_shadow_rec_pc(e), pc))
             ? AUCS_VALUES_DIFFER
             : AUCS_VALUES_EQUAL;
}

/* The plain write at pc stored `now` over `was`, which the plain write e of
 * another thread stored in this epoch: when they differ, the pair's race
 * stores different values (once reported, its finding says so). */
static void compare_values(run *R, aucs_shadow_rec e, uint32_t pc,
                           unsigned char was, unsigned char now) {
  if (was == now || !plain_write(e) ||
      !u64set_add(&R->differ, pair_key(aucs_shadow_rec_pc(e), pc)))
    return;
  LLVMValueRef x = R->p->instr[aucs_shadow_rec_pc(e)], y = R->p->instr[pc];
  aucs_findings *fs = &R->res->findings;
  for (size_t i = fs->n; i-- > 0;) {
    aucs_finding *f = &fs->v[i];
    if (f->kind == AUCS_FINDING_RACE && ((f->a.instr == x && f->b.instr == y) ||
                                         (f->a.instr == y && f->b.instr == x)))
      f->values = AUCS_VALUES_DIFFER;
  }
}

/* lock: the sentence naming a lock (taken), or NULL. */
static void report_race(run *R, aucs_finding_kind k, const robj *o,
                        uint64_t off, aucs_shadow_rec prev, uint32_t pblk,
                        aucs_access b, aucs_values values, char *lock) {
  aucs_finding f = {.kind = k, .values = values, .lock = lock};
  f.a = ip_side(R, aucs_shadow_rec_pc(prev), aucs_shadow_rec_tid(prev), pblk,
                aucs_shadow_rec_op(prev), size_at(R, aucs_shadow_rec_pc(prev)));
  f.b = b;
  f.message = aucs_xasprintf(
      "%s%s by thread (%u,%u,%u) and %s by thread (%u,%u,%u) of %s '%s' at "
      "byte %llu",
      k == AUCS_FINDING_RACE         ? "data race: "
      : k == AUCS_FINDING_SCOPE_RACE ? "block-scoped atomics shared by blocks: "
      : k == AUCS_FINDING_MISSING_FENCE && lock
          ? "critical section without a fence: "
      : k == AUCS_FINDING_MISSING_FENCE ? "flag hand-off without a fence: "
                                        : "race between blocks: ",
      op_word(f.a.op), f.a.thread.x, f.a.thread.y, f.a.thread.z, op_word(b.op),
      b.thread.x, b.thread.y, b.thread.z, aucs_memspace_name(o->o->space),
      o->o->name, (unsigned long long)off);
  ip_push(R, &f, o, off);
}

static char *where(run *R, uint32_t pc) {
  return aucs_srcloc_format(R->p->instr[pc]);
}

/* End the run with status st and an error naming thread T's location. */
int ip_stop(run *R, thread *T, aucs_run_status st, const char *why) {
  char *loc = where(R, T->pc);
  aucs_dim3 t = coords(T->tid, R->block);
  R->res->status = st;
  R->res->error = aucs_xasprintf(
      "%s: kernel '%s', thread (%u,%u,%u) of block (%u,%u,%u): %s", loc,
      R->p->kernel_name, t.x, t.y, t.z, R->bx, R->by, R->bz, why);
  free(loc);
  return EV_FATAL;
}

/* ---- memory ---- */

int ip_charge(run *R, thread *T, uint64_t bytes) {
  R->mem_used += bytes;
  if (R->mem_used <= R->mem_budget)
    return 0;
  char why[96];
  snprintf(why, sizeof why, "the run needs more than %llu bytes of memory",
           (unsigned long long)R->mem_budget);
  ip_stop(R, T, AUCS_RUN_MEMORY_BUDGET, why);
  return 1;
}

static void pagemap_grow(pagemap *m) {
  size_t cap = m->cap ? m->cap * 2 : 64;
  uint64_t *keys = aucs_xcalloc(cap, 8);
  page **pages = aucs_xcalloc(cap, sizeof(page *));
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i]) {
      size_t j = mix(m->keys[i]) & (cap - 1);
      while (keys[j])
        j = (j + 1) & (cap - 1);
      keys[j] = m->keys[i];
      pages[j] = m->pages[i];
    }
  free(m->keys);
  free(m->pages);
  *m = (pagemap){keys, pages, cap, m->len};
}

/* The slot of key in m: its page, or the empty slot to fill. */
static size_t pagemap_find(const pagemap *m, uint64_t key) {
  size_t j = mix(key) & (m->cap - 1);
  while (m->keys[j] && m->keys[j] != key)
    j = (j + 1) & (m->cap - 1);
  return j;
}

void ip_pagemap_free(pagemap *m) {
  for (size_t i = 0; i < m->cap; i++)
    free(m->pages[i]);
  free(m->keys);
  free(m->pages);
  *m = (pagemap){0};
}

/* Out of line, as in the single file: inlined into ip_touch it slowed the
 * throughput benchmark. */
__attribute__((noinline)) static page *get_page(run *R, thread *T, uint32_t id,
                                                uint64_t pno) {
  uint64_t key = (uint64_t)id << 32 | pno;
  if ((R->pages.len + 1) * 2 > R->pages.cap)
    pagemap_grow(&R->pages);
  size_t j = pagemap_find(&R->pages, key);
  if (R->pages.keys[j])
    return R->pages.pages[j];
  if (ip_charge(R, T, sizeof(page)))
    return NULL;
  page *pg = aucs_xcalloc(1, sizeof(page));
  fill_random(R, id, pno * PAGE - AUCS_PTR_BIAS, pg->data, PAGE);
  if (R->tt)
    ip_data_page(R, id, pno, pg);
  R->pages.keys[j] = key;
  R->pages.pages[j] = pg;
  R->pages.len++;
  return pg;
}

/* The same access again in the same epoch: nothing new can come of it (any
 * conflict it has was reported, under the same pair, when it arose). */
static inline int repeat(const aucs_shadow_cell *c, uint32_t epoch,
                         aucs_shadow_rec r) {
  if (c->epoch != epoch)
    return 0;
  return aucs_shadow_rec_write(r) ? c->w == r : c->r1 == r || c->r2 == r;
}

/* Likewise for the launch-wide cell: a write seen already, or a read by a
 * block that is its first reader while no other block wrote. */
static inline int grid_repeat(const aucs_shadow_grid_cell *g, uint32_t blk,
                              aucs_shadow_rec r) {
  uint32_t me = blk + 1;
  if (aucs_shadow_rec_write(r))
    return g->w == r && g->wblk == me;
  return (g->wblk == 0 || g->wblk == me) && g->r1blk == me;
}

/* Two strong accesses (atomic or volatile: PTX's volatile is relaxed at
 * system scope) of a flag: an address a release published, or a write by a
 * thread that fenced. Such a pair synchronizes rather than races, unless
 * the two are of different blocks and one is block-scoped. */
static int flag_pair(const run *R, const thread *T, uint32_t blk,
                     aucs_shadow_rec e, aucs_shadow_rec r, uint64_t i) {
  if (!aucs_shadow_rec_strong(e) || !aucs_shadow_rec_strong(r))
    return 0;
  if (blk != R->blk &&
      (aucs_shadow_rec_narrow(e) || aucs_shadow_rec_narrow(r)))
    return 0;
  /* a critical section's data, though volatile, is no flag: two accesses
   * under locks, or two writes one of which holds a lock (a read outside
   * any lock may be a flag's poll) */
  int le = aucs_shadow_rec_locked(e), lr = aucs_shadow_rec_locked(r);
  if ((le && lr) || ((le || lr) && aucs_shadow_rec_write(e) &&
                     aucs_shadow_rec_write(r)))
    return 0;
  (void)i; /* the flag is the whole access, published at its start */
  return aucs_sync_published(R->sy, R->at) ||
         (aucs_shadow_rec_write(r) && T->sy.fenced);
}

/* Does a fence/atomic chain order access e (of block blk, barrier epoch ep)
 * before T's access r (byte i of the access)? */
static int hb_ordered(const run *R, const thread *T, uint32_t blk, uint32_t ep,
                      aucs_shadow_rec e, aucs_shadow_rec r, uint64_t i) {
  return R->sy &&
         (aucs_sync_covers(R->sy, &T->sy, sync_slot(R, blk), ep,
                           aucs_shadow_rec_tid(e), aucs_shadow_rec_rel(e)) ||
          flag_pair(R, T, blk, e, r, i));
}

/* Is the conflict of e (of block blk, barrier epoch ep) and T's access r
 * (of n bytes at off of o) ordered? For two critical sections of one lock
 * the lock's discipline decides (locks.c; *lk = 1 when its fences do not
 * order them, 2 when they would not had r's thread taken the lock first),
 * else the clocks. */
static int ordered(run *R, thread *T, uint32_t blk, uint32_t ep,
                   aucs_shadow_rec e, aucs_shadow_rec r, uint64_t i,
                   const robj *o, uint64_t off, unsigned n, int *lk) {
  *lk = 0;
  if (R->lk && aucs_shadow_rec_locked(r) && aucs_shadow_rec_locked(e)) {
    ip_lock_verdict v = ip_lock_judge(R, T, blk, e, r);
    if (v == IP_LOCK_ORDERED) {
      ip_lock_defer(T, o, off, e, blk, r, n);
      return 1;
    }
    if (v == IP_LOCK_RACE || v == IP_LOCK_RACE_BACK) {
      *lk = v == IP_LOCK_RACE ? 1 : 2;
      return 0;
    }
  }
  return hb_ordered(R, T, blk, ep, e, r, i);
}

/* The sentence naming the lock of a race of e and r, or NULL. */
static char *lock_note(const run *R, const thread *T, uint32_t blk,
                       aucs_shadow_rec e, aucs_shadow_rec r) {
  if (!R->lk || (!aucs_shadow_rec_locked(e) && !aucs_shadow_rec_locked(r)))
    return NULL;
  return ip_lock_sentence(R, T, blk, e, r, 0);
}

void ip_lock_race(run *R, thread *T, const robj *o, uint64_t off,
                  aucs_shadow_rec e, uint32_t eblk, aucs_shadow_rec r,
                  unsigned n, int at_release) {
  aucs_finding_kind k = AUCS_FINDING_MISSING_FENCE;
  if (!ip_first_time(R, k, aucs_shadow_rec_pc(r), aucs_shadow_rec_pc(e)))
    return;
  aucs_access b = ip_side(R, aucs_shadow_rec_pc(e), aucs_shadow_rec_tid(e),
                          eblk, aucs_shadow_rec_op(e), n);
  report_race(R, k, o, off, r, R->blk, b, AUCS_VALUES_UNKNOWN,
              ip_lock_sentence(R, T, eblk, e, r, at_release));
}

/* A race that a flag hand-off would order if it had its fences: the kind
 * to report it as. */
static aucs_finding_kind race_kind(const run *R, const thread *T, uint32_t blk,
                                   uint32_t ep, aucs_shadow_rec e,
                                   aucs_finding_kind k) {
  if (R->sy &&
      aucs_sync_covers_unfenced(R->sy, &T->sy, sync_slot(R, blk), ep,
                                aucs_shadow_rec_tid(e), aucs_shadow_rec_rel(e)))
    return AUCS_FINDING_MISSING_FENCE;
  return k;
}

/* Under a partial __syncwarp, a pair of one warp in different warp phases
 * (which the shadow excuses) is ordered only when a __syncwarp that e's
 * thread passed after e also named r's thread. Returns e when it is not. */
static aucs_shadow_rec warp_unordered(const run *R, aucs_shadow_rec e,
                                      aucs_shadow_rec r) {
  uint32_t te = aucs_shadow_rec_tid(e), tr = aucs_shadow_rec_tid(r);
  if (!e || te == tr || te / 32 != tr / 32 || te >= R->nthreads ||
      (!aucs_shadow_rec_write(e) && !aucs_shadow_rec_write(r)) ||
      (aucs_shadow_rec_atomic(e) && aucs_shadow_rec_atomic(r)))
    return 0;
  uint16_t pe = (uint16_t)aucs_shadow_rec_wphase(e), now = R->th[te].wphase;
  if (pe == (uint16_t)aucs_shadow_rec_wphase(r) || (uint16_t)(now - pe) > 8)
    return 0; /* one phase: the shadow decided; a long-gone log: trust it */
  for (uint16_t p = pe; p != now; p++)
    if (R->th[te].wmask[p & 7] >> (tr % 32) & 1)
      return 0;
  return e;
}

static aucs_shadow_rec warp_race(const run *R, const aucs_shadow_cell *c,
                                 aucs_shadow_rec r) {
  if (c->epoch != R->epoch)
    return 0;
  aucs_shadow_rec e = warp_unordered(R, c->w, r);
  if (!e && aucs_shadow_rec_write(r))
    e = warp_unordered(R, c->r1, r);
  if (!e && aucs_shadow_rec_write(r))
    e = warp_unordered(R, c->r2, r);
  return e;
}

/* A plain write that races with the last writer's plain write, storing
 * the bytes already there, also races with a reader of the epoch (the
 * shadow's hit.reader): report that race too, once per access, since the
 * write-write race that hid it may be benign (benign.h). 1 when reported. */
static int hidden_read(run *R, thread *T, uint32_t pc, const robj *o,
                       uint64_t at, aucs_shadow_rec reader, aucs_shadow_rec r,
                       uint64_t i, unsigned n) {
  if (hb_ordered(R, T, R->blk, R->bepoch, reader, r, i))
    return 0;
  aucs_finding_kind k =
      race_kind(R, T, R->blk, R->bepoch, reader, AUCS_FINDING_RACE);
  cover(R, COVER_KEY(COVER_PAIR, aucs_shadow_rec_pc(reader), pc));
  if (!ip_first_time(R, k, aucs_shadow_rec_pc(reader), pc))
    return 0;
  report_race(R, k, o, at, reader, R->blk,
              ip_side(R, pc, T->tid, R->blk, AUCS_OP_WRITE, n),
              AUCS_VALUES_UNKNOWN, lock_note(R, T, R->blk, reader, r));
  return 1;
}

/* The bytes a plain store replaces and writes (for the values of its
 * races), or NULLs. */
typedef struct stored {
  const unsigned char *was, *now;
} stored;

static void track(run *R, thread *T, uint32_t pc, const robj *o,
                  aucs_shadow_cell *sh, aucs_shadow_grid_cell *g, uint64_t off,
                  uint64_t n, int write, int atomic, stored st) {
  /* atomic 2: a block-scoped atomic; 3: volatile (not atomic) */
  int strong = atomic != 0, narrow = atomic == 2;
  atomic = atomic == 1 || atomic == 2;
  aucs_shadow_rec r =
      aucs_shadow_rec_make(pc, T->tid, write, atomic, T->wphase);
  if (R->sy)
    r = aucs_shadow_rec_sync(r, aucs_sync_rel(&T->sy), narrow, strong);
  if (T->lk && ip_lock_inside(T, R->at, n))
    r = aucs_shadow_rec_lock(r);
  int lk = 0;
  aucs_op op = atomic ? AUCS_OP_ATOMIC : write ? AUCS_OP_WRITE : AUCS_OP_READ;
  int raced = 0, graced = 0, rraced = 0;
  /* a plain store of the bytes already there: its races may be benign */
  int same = st.now && !atomic && !memcmp(st.was, st.now, n);
  R->res->accesses++;
  cover(R, COVER_KEY(COVER_ACCESS, pc, R->last_barrier + 1));
  if (sh->epoch < R->epoch0)
    R->res->distinct_addresses++;
  for (uint64_t i = 0; i < n; i++) {
    aucs_shadow_hit hit;
    if (repeat(&sh[i], R->epoch, r) && (!g || grid_repeat(&g[i], R->blk, r)))
      continue;
    aucs_shadow_cell was = R->partial_wsync ? sh[i] : (aucs_shadow_cell){0};
    aucs_shadow_access(&sh[i], R->epoch, r, R->cfg->warp_lockstep, &hit);
    if (!hit.race && R->partial_wsync && !R->cfg->warp_lockstep)
      hit.race = warp_race(R, &was, r);
    if (hit.race && ordered(R, T, R->blk, R->bepoch, hit.race, r, i, o,
                            off + i, (unsigned)n, &lk))
      hit.race = 0;
    if (hit.race)
      cover(R, COVER_KEY(COVER_PAIR, aucs_shadow_rec_pc(hit.race), pc));
    if (hit.race && st.now && !atomic)
      compare_values(R, hit.race, pc, st.was[i], st.now[i]);
    if (hit.race && hit.reader && same && !rraced && plain_write(hit.race))
      rraced = hidden_read(R, T, pc, o, off + i, hit.reader, r, i, (unsigned)n);
    if (hit.ordered && R->last_barrier >= 0)
      R->res->barrier_ordered[R->last_barrier] = 1;
    aucs_finding_kind k = !hit.race ? AUCS_FINDING_RACE
                          : lk      ? AUCS_FINDING_MISSING_FENCE
                                    : race_kind(R, T, R->blk, R->bepoch,
                                                hit.race, AUCS_FINDING_RACE);
    if (hit.race && !raced && lk == 2) {
      raced = 1;
      ip_lock_race(R, T, o, off + i, hit.race, R->blk, r, (unsigned)n, 0);
    } else if (hit.race && !raced &&
               ip_first_time(R, k, aucs_shadow_rec_pc(hit.race), pc)) {
      raced = 1;
      report_race(R, k, o, off + i, hit.race, R->blk,
                  ip_side(R, pc, T->tid, R->blk, op, (unsigned)n),
                  k == AUCS_FINDING_RACE ? race_values(R, hit.race, pc, op)
                                         : AUCS_VALUES_UNKNOWN,
                  lock_note(R, T, R->blk, hit.race, r));
    }
    if (!g)
      continue;
    uint32_t ob, oep;
    aucs_shadow_rec other =
        aucs_shadow_grid_access_ep(&g[i], R->blk, R->bepoch, r, &ob, &oep);
    if (other && ordered(R, T, ob, oep, other, r, i, o, off + i,
                         (unsigned)n, &lk))
      other = 0;
    /* two atomics conflict only when one's scope is too narrow */
    aucs_finding_kind gk =
        !other ? AUCS_FINDING_INTER_BLOCK_RACE
        : atomic && aucs_shadow_rec_atomic(other) ? AUCS_FINDING_SCOPE_RACE
        : lk ? AUCS_FINDING_MISSING_FENCE
             : race_kind(R, T, ob, oep, other, AUCS_FINDING_INTER_BLOCK_RACE);
    if (other && !graced && gk == AUCS_FINDING_MISSING_FENCE && lk == 2) {
      graced = 1;
      ip_lock_race(R, T, o, off + i, other, ob, r, (unsigned)n, 0);
    } else if (other && !graced &&
               ip_first_time(R, gk, aucs_shadow_rec_pc(other), pc)) {
      graced = 1;
      report_race(R, gk, o, off + i, other, ob,
                  ip_side(R, pc, T->tid, R->blk, op, (unsigned)n),
                  AUCS_VALUES_UNKNOWN, lock_note(R, T, ob, other, r));
    }
  }
}

static void copy_bytes(unsigned char *data, unsigned char *buf, uint64_t n,
                       int mode) {
  if (mode == M_WRITE || mode == M_RAW_WRITE)
    memcpy(data, buf, n);
  else
    memcpy(buf, data, n);
}

static int bad_pointer(run *R, thread *T, uint32_t pc, uint64_t ptr, uint64_t n,
                       int mode) {
  aucs_finding f = {.kind = AUCS_FINDING_OUT_OF_BOUNDS};
  int write = mode != M_READ;
  f.a = ip_side(R, pc, T->tid, R->blk, write ? AUCS_OP_WRITE : AUCS_OP_READ,
                (unsigned)n);
  f.offset = ptr;
  f.message =
      aucs_xasprintf("%s of %llu bytes through %s pointer 0x%llx",
                     write ? "write" : "read", (unsigned long long)n,
                     ptr ? "an invalid" : "a null", (unsigned long long)ptr);
  if (ip_first_time(R, AUCS_FINDING_OUT_OF_BOUNDS, pc, pc))
    ip_push(R, &f, NULL, 0);
  else
    free(f.message);
  T->pc = pc;
  return ip_stop(R, T, AUCS_RUN_TRAP,
                 ptr ? "memory access through an invalid pointer"
                     : "null pointer dereference");
}

static void out_of_bounds(run *R, thread *T, uint32_t pc, const robj *o,
                          uint64_t off, uint64_t n, int mode) {
  if (!ip_first_time(R, AUCS_FINDING_OUT_OF_BOUNDS, pc, pc))
    return;
  aucs_finding f = {.kind = AUCS_FINDING_OUT_OF_BOUNDS};
  int write = mode != M_READ;
  f.a = ip_side(R, pc, T->tid, R->blk, write ? AUCS_OP_WRITE : AUCS_OP_READ,
                (unsigned)n);
  f.message = aucs_xasprintf(
      "out-of-bounds %s of %llu bytes at byte %lld of %s '%s' (%llu bytes)",
      write ? "write" : "read", (unsigned long long)n, (long long)(int64_t)off,
      aucs_memspace_name(o->o->space), o->o->name, (unsigned long long)o->size);
  ip_push(R, &f, o, off);
}

static stored stores(int mode, const unsigned char *was,
                     const unsigned char *now) {
  return mode == M_WRITE ? (stored){was, now} : (stored){NULL, NULL};
}

/* Access n bytes at ptr: 0 done, 1 skipped (out of bounds, reported; reads
 * give zeros), EV_FATAL-style -1 when the run must end. */
int ip_touch(run *R, thread *T, uint32_t pc, uint64_t ptr, uint64_t n, int mode,
             int atomic, unsigned char *buf) {
  uint32_t id = (uint32_t)(ptr >> AUCS_PTR_SHIFT);
  uint64_t off = AUCS_PTR_OFF(ptr);
  if (id == 0 || id >= R->nobjs) {
    bad_pointer(R, T, pc, ptr, n, mode);
    return -1;
  }
  robj *o = &R->objs[id];
  int write = mode != M_READ, tracked = mode != M_RAW_WRITE;
  if (R->ntw && write)
    ip_tex_write(R, T, pc, id, off, n);
  /* progress for spin detection: a write another thread could read */
  R->writes +=
      (uint64_t)((mode == M_WRITE || mode == M_RAW_WRITE) && id < R->local0);
  R->at = ptr;
  if (!o->o->sparse) {
    if (off + n > o->size || off + n < off) { /* before the start: wraps */
      out_of_bounds(R, T, pc, o, off, n, mode);
      if (!write)
        memset(buf, 0, n);
      return 1;
    }
    if (o->sh && tracked)
      track(R, T, pc, o, o->sh + off, o->g ? o->g + off : NULL, off, n, write,
            atomic, stores(mode, o->data + off, buf));
    if (o->rd && (mode == M_READ || mode == M_RMW))
      memset(o->rd + off, 1, n);
    if (R->taint)
      ip_taint_flat(R, T, id, off, n, mode == M_WRITE || mode == M_RAW_WRITE);
    copy_bytes(o->data + off, buf, n, mode);
    return 0;
  }
  uint64_t at = ptr & AUCS_PTR_OFFSET_MASK; /* off + bias: never negative */
  if (o->size && (off + n > o->size || off + n < off)) { /* --buffer */
    out_of_bounds(R, T, pc, o, off, n, mode);
    if (!write)
      memset(buf, 0, n);
    return 1;
  }
  while (n) {
    uint64_t in = at % PAGE, k = PAGE - in < n ? PAGE - in : n;
    page *pg = get_page(R, T, id, at / PAGE);
    if (!pg)
      return -1;
    R->at = ptr + (at - (ptr & AUCS_PTR_OFFSET_MASK));
    if (tracked)
      track(R, T, pc, o, pg->sh + in, pg->g + in, off, k, write, atomic,
            stores(mode, pg->data + in, buf));
    if (R->taint)
      ip_taint_page(R, T, id, pg, at, k,
                    mode == M_WRITE || mode == M_RAW_WRITE);
    copy_bytes(pg->data + in, buf, k, mode);
    off += k;
    at += k;
    buf += k;
    n -= k;
  }
  return 0;
}

/* ---- objects ---- */

void ip_reset_shared(run *R) {
  for (uint32_t id = 1; id < R->p->nobjs; id++) {
    robj *o = &R->objs[id];
    if (o->o->space != AUCS_MEM_SHARED)
      continue;
    if (o->o->init)
      memcpy(o->data, o->o->init, o->size);
    else
      fill_random(R, id, 0, o->data, o->size);
  }
}

/* The leaves of aggregate parameters (inputs.h): pointer fields point to
 * their buffers, fields the run sets get their values; buffers get their
 * sizes. An aggregate keeps which of its bytes the run reads. */
static void bind_leaves(run *R) {
  const aucs_inputs *in = R->p->inputs;
  const aucs_run_config *c = R->cfg;
  for (size_t i = 0; in && i < in->n; i++) {
    const aucs_input *x = &in->v[i];
    uint32_t leaf = R->p->leaf_obj[i], agg = R->p->param_obj[x->param];
    if (leaf && c->buffer_bytes)
      R->objs[leaf].size = c->buffer_bytes[i];
    if (!x->field || !agg || !R->objs[agg].data)
      continue;
    robj *o = &R->objs[agg];
    if (!o->rd)
      o->rd = aucs_xcalloc(o->size + 1, 1);
    unsigned n = x->p.bits / 8;
    uint64_t v = leaf ? AUCS_PTR(leaf, 0) : c->fields ? c->fields[i] : 0;
    int set = leaf || (c->fields && c->fields_set && c->fields_set[i] &&
                       x->p.kind != AUCS_PARAM_AGGREGATE);
    if (set && n && n <= 8 && x->offset + n <= o->size)
      memcpy(o->data + x->offset, &v, n); /* little-endian host */
  }
}

int ip_init_objects(run *R) {
  const aucs_prog *p = R->p;
  R->nobjs = p->nobjs + R->nthreads;
  R->local0 = p->nobjs;
  R->objs = aucs_xcalloc(R->nobjs, sizeof(robj));
  thread *T = &R->th[0];
  for (uint32_t id = 1; id < p->nobjs; id++) {
    const bc_object *bo = &p->objs[id];
    robj *o = &R->objs[id];
    o->o = bo;
    if (bo->sparse)
      continue;
    o->size = bo->dynamic_shared ? R->dyn_shared : bo->size;
    int tracked = bo->space == AUCS_MEM_SHARED || bo->space == AUCS_MEM_GLOBAL;
    int global = bo->space == AUCS_MEM_GLOBAL;
    uint64_t per = 1 + (tracked ? sizeof(aucs_shadow_cell) : 0) +
                   (global ? sizeof(aucs_shadow_grid_cell) : 0);
    if (ip_charge(R, T, o->size * per))
      return 1;
    o->data = aucs_xmalloc(o->size + 1);
    o->sh = tracked ? aucs_xcalloc(o->size + 1, sizeof(*o->sh)) : NULL;
    o->g = global ? aucs_xcalloc(o->size + 1, sizeof(*o->g)) : NULL;
    if (bo->init)
      memcpy(o->data, bo->init, o->size);
    else
      fill_random(R, id, 0, o->data, o->size);
  }
  bind_leaves(R);
  ip_taint_init(R);
  static const bc_object local = {.name = "local", .space = AUCS_MEM_LOCAL};
  for (uint32_t t = 0; t < R->nthreads; t++)
    R->objs[R->local0 + t].o = &local;
  return 0;
}

void ip_leaves_read(run *R) {
  const aucs_inputs *in = R->p->inputs;
  size_t n = in ? in->n : 0;
  R->res->leaf_read = aucs_xcalloc(n + 1, 1);
  for (size_t i = 0; i < n; i++) {
    const aucs_input *x = &in->v[i];
    uint32_t agg = x->param < R->p->nparams ? R->p->param_obj[x->param] : 0;
    const robj *o = agg && R->objs ? &R->objs[agg] : NULL;
    uint64_t size = x->p.bits / 8;
    if (!x->field)
      R->res->leaf_read[i] = R->pread && R->pread[x->param];
    else if (o && o->rd)
      for (uint64_t b = 0; b < size && x->offset + b < o->size; b++)
        R->res->leaf_read[i] |= o->rd[x->offset + b];
  }
}

void aucs_run_result_free(aucs_run_result *res) {
  free(res->error);
  free(res->barrier_passes);
  free(res->barrier_ordered);
  free(res->leaf_read);
  aucs_findings_free(&res->findings);
  if (res->memory)
    ip_pagemap_free(&res->memory->pages);
  free(res->memory);
  *res = (aucs_run_result){0};
}

int aucs_run_read(const aucs_run_result *res, size_t param, uint64_t offset,
                  void *out, size_t n) {
  const aucs_run_memory *m = res->memory;
  if (!m || param >= m->p->nparams ||
      m->p->params[param].kind != AUCS_PARAM_POINTER)
    return 1;
  uint32_t id = m->p->param_obj[param];
  unsigned char *o = out;
  for (size_t i = 0; i < n; i++) {
    uint64_t at = offset + i,
             key = (uint64_t)id << 32 | (at + AUCS_PTR_BIAS) / PAGE;
    size_t j = m->pages.cap ? pagemap_find(&m->pages, key) : 0;
    if (m->pages.cap && m->pages.keys[j])
      o[i] = m->pages.pages[j]->data[at % PAGE];
    else
      fill_seeded(m->seed, m->fill, id, at, &o[i], 1);
  }
  return 0;
}
