/*
 * interp: runs lowered bytecode (bytecode.h) for one launch, checking every
 * shared and global access against shadow memory (shadow.h).
 *
 * Algorithm, per simulated block (blocks in linear order):
 *   1. Reset the threads (kernel frame from the image, parameters), give
 *      shared objects fresh contents, start a new epoch.
 *   2. Canonical schedule, warp by warp: each thread of the warp runs until
 *      it waits at a block barrier, at a warp collective, or returns.
 *   3. Warp collectives (shuffle, vote, __syncwarp, activemask) are
 *      warp-level meeting points: once no thread of the warp can run, the
 *      threads waiting at one collective instruction exchange values
 *      together (grouped by instruction, so divergent halves meet
 *      separately) and run on; step 2 repeats for the warp. A __syncwarp
 *      bumps its threads' warp phase, which orders their accesses.
 *   4. When every thread waits at a barrier or has returned, the barrier
 *      releases: threads waiting at different barriers, or some returned
 *      while others wait, is a BARRIER_DIVERGENCE (reported, then released
 *      anyway); reductions (__syncthreads_count/and/or) are computed; the
 *      epoch advances. The block ends when every thread returned.
 * Memory: pointers are (object << 40) + 2^39 + offset (bytecode.h), so an
 * offset before the object's start keeps the object and is out of bounds.
 * Objects are the program's (module globals, parameter buffers with sparse
 * 1 KiB pages, 512 GiB either side of the argument) and one private stack
 * per thread for allocas (not tracked). Uninitialised bytes read as the run's
 * fill (interp.h), a hash of (seed, object, offset).
 * Grids above max_threads run their first blocks and their last block.
 *
 * Limitation: one schedule; warp collectives ignore their member mask (the
 * threads present at the instruction take part); named barriers and
 * barrier thread counts are modelled as whole-block barriers.
 */
#include "bytecode.h"

#include "aucs/budget.h"
#include "aucs/libcalls.h"
#include "aucs/inputs.h"
#include "aucs/lanes.h"
#include "aucs/shadow.h"
#include "aucs/srcloc.h"
#include "aucs/sync.h"
#include <llvm-c/Core.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { PAGE = 1024, MAX_DEPTH = 1024 };
/* Spins: a thread yields after SPIN_YIELD equal strong reads in a row; a
 * block whose spinners saw no write in SPIN_ROUNDS rounds is stuck. */
enum { SPIN_YIELD = 16, SPIN_ROUNDS = 64 };
enum { RUN, AT_BARRIER, AT_WARP, DONE, AT_GRID, AT_SPIN };
enum { EV_STOP, EV_FATAL };
enum { M_READ, M_WRITE, M_RMW, M_RAW_WRITE };

typedef struct page {
  unsigned char data[PAGE];
  aucs_shadow_cell sh[PAGE];
  aucs_shadow_grid_cell g[PAGE];
} page;

typedef struct robj {
  unsigned char *data;      /* flat contents, or NULL (sparse) */
  aucs_shadow_cell *sh;     /* per byte, NULL when untracked */
  aucs_shadow_grid_cell *g; /* per byte for global memory */
  uint64_t size;
  const bc_object *o;
} robj;

typedef struct frame {
  uint32_t ret_pc, base, fn, dst;
  uint64_t sp;
} frame;

typedef struct thread {
  uint32_t pc, base, fn, depth, frame_cap, end_pc, tid;
  uint8_t state;
  uint16_t wphase;
  uint64_t steps;
  uint64_t *regs;
  size_t regcap;
  frame *frames;
  unsigned char *stack;
  uint64_t stack_cap, sp;
  aucs_sync_thread sy;         /* happens-before state (sync.h) */
  uint32_t spin_pc, spin_n;    /* the strong read repeating, its count */
  uint64_t spin_val;
} thread;

typedef struct pagemap {
  uint64_t *keys;
  page **pages;
  size_t cap, len;
} pagemap;

struct aucs_run_memory {
  pagemap pages;
  uint64_t seed;
  aucs_fill fill;
  const aucs_prog *p;
};

typedef struct u64set {
  uint64_t *keys;
  size_t cap, len;
} u64set;

typedef struct run {
  const aucs_prog *p;
  const aucs_run_config *cfg;
  aucs_run_result *res;
  uint64_t step_budget, mem_budget, mem_used;
  uint64_t tick; /* steps, over all threads, until the next budget check */
  aucs_dim3 grid, block;
  uint32_t nthreads, blk, bx, by, bz, local0, nobjs;
  uint32_t epoch, epoch0, bepoch;
  uint32_t grid_word; /* the grid workspace's barrier word (grid sync) */
  int64_t last_barrier;
  size_t dyn_shared;
  robj *objs;
  thread *th;
  pagemap pages;
  u64set seen;
  char *args;
  aucs_sync *sy;       /* the kernel fences or uses atomics, or NULL */
  uint64_t first;      /* blocks simulated before the last one */
  uint64_t writes;     /* memory writes so far: progress for spinners */
  uint64_t at;         /* the address touch() is tracking */
  int spins;           /* strong reads may spin: they yield */
  int want_sync;       /* the kernel synchronizes beyond barriers */
  uint32_t nslots;     /* blocks with clock entries (sync.h) */
  int phased;          /* blocks may wait for one another (gridsync.inc) */
} run;

/* ---- values ---- */

static inline int64_t sx(uint64_t v, unsigned w) {
  return w >= 64 ? (int64_t)v : (int64_t)(v << (64 - w)) >> (64 - w);
}
static inline uint64_t mask_of(unsigned w) {
  return w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1;
}
static inline float f32(uint64_t v) {
  uint32_t u = (uint32_t)v;
  float f;
  memcpy(&f, &u, 4);
  return f;
}
static inline uint64_t bf32(float f) {
  uint32_t u;
  memcpy(&u, &f, 4);
  return u;
}
static inline double f64(uint64_t v) {
  double d;
  memcpy(&d, &v, 8);
  return d;
}
static inline uint64_t bf64(double d) {
  uint64_t v;
  memcpy(&v, &d, 8);
  return v;
}

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

static const char *const fill_names[] = {
#define AUCS_FILL(e, name) name,
    AUCS_FILLS(AUCS_FILL)
#undef AUCS_FILL
};

const char *aucs_interp_fill_name(aucs_fill f) {
  return (unsigned)f < AUCS_FILL_NMODES ? fill_names[f] : "?";
}

int aucs_interp_fill_parse(const char *s, aucs_fill *out) {
  for (unsigned f = 0; f < AUCS_FILL_NMODES; f++)
    if (!strcmp(s, fill_names[f]))
      return *out = (aucs_fill)f, 0;
  return -1;
}

static int fcmp(unsigned pred, double x, double y) {
  int uno = isnan(x) || isnan(y);
  switch (pred) {
  case LLVMRealOEQ:
    return !uno && x == y;
  case LLVMRealOGT:
    return !uno && x > y;
  case LLVMRealOGE:
    return !uno && x >= y;
  case LLVMRealOLT:
    return !uno && x < y;
  case LLVMRealOLE:
    return !uno && x <= y;
  case LLVMRealONE:
    return !uno && x != y;
  case LLVMRealORD:
    return !uno;
  case LLVMRealUNO:
    return uno;
  case LLVMRealUEQ:
    return uno || x == y;
  case LLVMRealUGT:
    return uno || x > y;
  case LLVMRealUGE:
    return uno || x >= y;
  case LLVMRealULT:
    return uno || x < y;
  case LLVMRealULE:
    return uno || x <= y;
  case LLVMRealUNE:
    return uno || x != y;
  case LLVMRealPredicateTrue:
    return 1;
  default:
    return 0;
  }
}

static uint64_t to_int(double d, unsigned w, int is_signed) {
  if (isnan(d))
    return 0;
  if (is_signed)
    return d >= -9.2233720368547758e18 && d < 9.2233720368547758e18
               ? (uint64_t)(int64_t)d & mask_of(w)
               : 0;
  return d > -1.0 && d < 1.8446744073709552e19 ? (uint64_t)d & mask_of(w) : 0;
}

/* A library function (libcalls.def) on the raw bits of its arguments. */
static uint64_t libcall(const bc_insn *I, const uint64_t *r,
                        const uint32_t *pool) {
  uint64_t args[AUCS_LIBCALL_MAX_ARGS] = {0};
  for (uint32_t i = 0; i < I->c && i < AUCS_LIBCALL_MAX_ARGS; i++)
    args[i] = r[pool[I->b + i]];
  aucs_libcall_fn fn = (aucs_libcall_fn)(uintptr_t)I->imm;
  return fn(args) & mask_of(I->x);
}

static uint64_t bitrev(uint64_t v, unsigned w) {
  uint64_t r = 0;
  for (unsigned i = 0; i < w; i++)
    r |= ((v >> i) & 1) << (w - 1 - i);
  return r;
}

static uint64_t funnel(uint64_t a, uint64_t b, uint64_t c, unsigned w,
                       int left) {
  unsigned s = (unsigned)(c % w);
  uint64_t m = mask_of(w);
  if (s == 0)
    return left ? a : b;
  if (!left)
    s = w - s;
  return ((a << s) | (b >> (w - s))) & m;
}

/* *.with.overflow: the result, and the overflow bit in *o. */
static uint64_t overflow_op(unsigned kind, uint64_t a, uint64_t b, unsigned w,
                            int *o) {
  uint64_t m = mask_of(w), u;
  int64_t s, lo = w >= 64 ? INT64_MIN : -((int64_t)1 << (w - 1)),
             hi = w >= 64 ? INT64_MAX : ((int64_t)1 << (w - 1)) - 1;
  int of;
  switch (kind) {
  case OVF_UADD:
    of = __builtin_add_overflow(a, b, &u);
    *o = of || u > m;
    return u & m;
  case OVF_USUB:
    *o = a < b;
    return (a - b) & m;
  case OVF_UMUL:
    of = __builtin_mul_overflow(a, b, &u);
    *o = of || u > m;
    return u & m;
  case OVF_SADD:
    of = __builtin_add_overflow(sx(a, w), sx(b, w), &s);
    break;
  case OVF_SSUB:
    of = __builtin_sub_overflow(sx(a, w), sx(b, w), &s);
    break;
  default:
    of = __builtin_mul_overflow(sx(a, w), sx(b, w), &s);
    break;
  }
  *o = of || s < lo || s > hi;
  return (uint64_t)s & m;
}

static uint64_t rmw_apply(unsigned kind, uint64_t old, uint64_t v,
                          unsigned size) {
  unsigned w = size * 8;
  int dbl = size == 8;
#define FOP(e)                                                                 \
  (dbl ? bf64(e(f64(old), f64(v))) : bf32((float)e(f32(old), f32(v))))
#define ADDF(x, y) ((x) + (y))
#define SUBF(x, y) ((x) - (y))
  switch (kind) {
  case RMW_XCHG:
    return v;
  case RMW_ADD:
    return (old + v) & mask_of(w);
  case RMW_SUB:
    return (old - v) & mask_of(w);
  case RMW_AND:
    return old & v;
  case RMW_NAND:
    return ~(old & v) & mask_of(w);
  case RMW_OR:
    return old | v;
  case RMW_XOR:
    return old ^ v;
  case RMW_MAX:
    return sx(old, w) > sx(v, w) ? old : v;
  case RMW_MIN:
    return sx(old, w) < sx(v, w) ? old : v;
  case RMW_UMAX:
    return old > v ? old : v;
  case RMW_UMIN:
    return old < v ? old : v;
  case RMW_FADD:
    return FOP(ADDF);
  case RMW_FSUB:
    return FOP(SUBF);
  case RMW_FMAX:
    return FOP(fmax);
  case RMW_FMIN:
    return FOP(fmin);
  case RMW_UINC:
    return old >= v ? 0 : old + 1;
  default: /* RMW_UDEC */
    return old == 0 || old > v ? v : old - 1;
  }
#undef FOP
#undef ADDF
#undef SUBF
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

/* 1 the first time (kind, pc pair) is seen in this run. */
static int first_time(run *R, aucs_finding_kind k, uint32_t a, uint32_t b) {
  uint32_t lo = a < b ? a : b, hi = a < b ? b : a;
  return u64set_add(&R->seen, (uint64_t)k << 48 | (uint64_t)lo << 24 | hi);
}

static aucs_dim3 coords(uint32_t lin, aucs_dim3 dims) {
  return (aucs_dim3){lin % dims.x, lin / dims.x % dims.y,
                     lin / dims.x / dims.y};
}

static aucs_access side(run *R, uint32_t pc, uint32_t tid, uint32_t blk,
                        aucs_op op, unsigned size) {
  aucs_access s = {.instr = R->p->instr[pc], .op = op, .size = size};
  s.thread = coords(tid, R->block);
  s.block = coords(blk, R->grid);
  return s;
}

static void push(run *R, aucs_finding *f, const robj *o, uint64_t off) {
  if (o) {
    f->memory = o->o->space;
    f->object = aucs_xstrdup(o->o->name);
    f->offset = off;
  }
  f->epoch = R->bepoch;
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
             : 1;
}

static void report_race(run *R, aucs_finding_kind k, const robj *o,
                        uint64_t off, aucs_shadow_rec prev, uint32_t pblk,
                        aucs_access b) {
  aucs_finding f = {.kind = k};
  f.a = side(R, aucs_shadow_rec_pc(prev), aucs_shadow_rec_tid(prev), pblk,
             aucs_shadow_rec_op(prev), size_at(R, aucs_shadow_rec_pc(prev)));
  f.b = b;
  f.message = aucs_xasprintf(
      "%s%s by thread (%u,%u,%u) and %s by thread (%u,%u,%u) of %s '%s' at "
      "byte %llu",
      k == AUCS_FINDING_RACE          ? "data race: "
      : k == AUCS_FINDING_SCOPE_RACE   ? "block-scoped atomics shared by blocks: "
      : k == AUCS_FINDING_MISSING_FENCE ? "flag hand-off without a fence: "
                                        : "race between blocks: ",
      op_word(f.a.op), f.a.thread.x, f.a.thread.y, f.a.thread.z, op_word(b.op),
      b.thread.x, b.thread.y, b.thread.z, aucs_memspace_name(o->o->space),
      o->o->name, (unsigned long long)off);
  push(R, &f, o, off);
}

static char *where(run *R, uint32_t pc) {
  return aucs_srcloc_format(R->p->instr[pc]);
}

/* End the run with status st and an error naming thread T's location. */
static int stop(run *R, thread *T, aucs_run_status st, const char *why) {
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

static int charge(run *R, thread *T, uint64_t bytes) {
  R->mem_used += bytes;
  if (R->mem_used <= R->mem_budget)
    return 0;
  char why[96];
  snprintf(why, sizeof why, "the run needs more than %llu bytes of memory",
           (unsigned long long)R->mem_budget);
  stop(R, T, AUCS_RUN_MEMORY_BUDGET, why);
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

static void pagemap_free(pagemap *m) {
  for (size_t i = 0; i < m->cap; i++)
    free(m->pages[i]);
  free(m->keys);
  free(m->pages);
  *m = (pagemap){0};
}

static page *get_page(run *R, thread *T, uint32_t id, uint64_t pno) {
  uint64_t key = (uint64_t)id << 32 | pno;
  if ((R->pages.len + 1) * 2 > R->pages.cap)
    pagemap_grow(&R->pages);
  size_t j = pagemap_find(&R->pages, key);
  if (R->pages.keys[j])
    return R->pages.pages[j];
  if (charge(R, T, sizeof(page)))
    return NULL;
  page *pg = aucs_xcalloc(1, sizeof(page));
  fill_random(R, id, pno * PAGE - AUCS_PTR_BIAS, pg->data, PAGE);
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

/* Set the coverage bit of key (the tag in the top bits says which kind). */
static inline void cover(run *R, uint64_t key) {
  uint32_t h = (uint32_t)((key * 0x9e3779b97f4a7c15ull) >> 52);
  R->res->coverage[h >> 6] |= UINT64_C(1) << (h & 63);
}
enum { COVER_ACCESS = 1, COVER_BRANCH = 2, COVER_PAIR = 3 };
#define COVER_KEY(tag, a, b)                                                   \
  ((uint64_t)(tag) << 56 | (uint64_t)(uint32_t)(a) << 24 | (uint32_t)(b))

/* The simulated block lin's entry in the clocks, or UINT32_MAX (none). */
static uint32_t sync_slot(const run *R, uint64_t lin) {
  uint64_t nblocks = (uint64_t)R->grid.x * R->grid.y * R->grid.z;
  if (nblocks <= R->nslots)
    return (uint32_t)lin;
  if (lin + 1 == nblocks)
    return R->nslots - 1;
  return lin < R->nslots - 1 ? (uint32_t)lin : UINT32_MAX;
}

/* Two strong accesses (atomic or volatile: PTX's volatile is relaxed at
 * system scope) of a flag: an address a release published, or a write by a
 * thread that fenced. Such a pair synchronizes rather than races. */
static int flag_pair(const run *R, const thread *T, aucs_shadow_rec e,
                     aucs_shadow_rec r, uint64_t i) {
  if (!aucs_shadow_rec_strong(e) || !aucs_shadow_rec_strong(r))
    return 0;
  (void)i; /* the flag is the whole access, published at its start */
  return aucs_sync_published(R->sy, R->at) ||
         (aucs_shadow_rec_write(r) && T->sy.fenced);
}

/* Does a fence/atomic chain order access e (of block blk, barrier epoch ep)
 * before T's access r (byte i of the access)? */
static int hb_ordered(const run *R, const thread *T, uint32_t blk,
                      uint32_t ep, aucs_shadow_rec e, aucs_shadow_rec r,
                      uint64_t i) {
  return R->sy && (aucs_sync_covers(R->sy, &T->sy, sync_slot(R, blk), ep,
                                    aucs_shadow_rec_tid(e),
                                    aucs_shadow_rec_rel(e)) ||
                   flag_pair(R, T, e, r, i));
}

/* A race that a flag hand-off would order if it had its fences: the kind
 * to report it as. */
static aucs_finding_kind race_kind(const run *R, const thread *T,
                                   uint32_t blk, uint32_t ep,
                                   aucs_shadow_rec e, aucs_finding_kind k) {
  if (R->sy && aucs_sync_covers_unfenced(R->sy, &T->sy, sync_slot(R, blk),
                                         ep, aucs_shadow_rec_tid(e),
                                         aucs_shadow_rec_rel(e)))
    return AUCS_FINDING_MISSING_FENCE;
  return k;
}

static void track(run *R, thread *T, uint32_t pc, const robj *o,
                  aucs_shadow_cell *sh, aucs_shadow_grid_cell *g, uint64_t off,
                  uint64_t n, int write, int atomic) {
  /* atomic 2: a block-scoped atomic; 3: volatile (not atomic) */
  int strong = atomic != 0, narrow = atomic == 2;
  atomic = atomic == 1 || atomic == 2;
  aucs_shadow_rec r =
      aucs_shadow_rec_make(pc, T->tid, write, atomic, T->wphase);
  if (R->sy)
    r = aucs_shadow_rec_sync(r, aucs_sync_rel(&T->sy), narrow, strong);
  aucs_op op = atomic ? AUCS_OP_ATOMIC : write ? AUCS_OP_WRITE : AUCS_OP_READ;
  int raced = 0, graced = 0;
  R->res->accesses++;
  cover(R, COVER_KEY(COVER_ACCESS, pc, R->last_barrier + 1));
  if (sh->epoch < R->epoch0)
    R->res->distinct_addresses++;
  for (uint64_t i = 0; i < n; i++) {
    aucs_shadow_hit hit;
    if (repeat(&sh[i], R->epoch, r) && (!g || grid_repeat(&g[i], R->blk, r)))
      continue;
    aucs_shadow_access(&sh[i], R->epoch, r, R->cfg->warp_lockstep, &hit);
    if (hit.race && hb_ordered(R, T, R->blk, R->bepoch, hit.race, r, i))
      hit.race = 0;
    if (hit.race)
      cover(R, COVER_KEY(COVER_PAIR, aucs_shadow_rec_pc(hit.race), pc));
    if (hit.ordered && R->last_barrier >= 0)
      R->res->barrier_ordered[R->last_barrier] = 1;
    aucs_finding_kind k =
        hit.race ? race_kind(R, T, R->blk, R->bepoch, hit.race,
                             AUCS_FINDING_RACE)
                 : AUCS_FINDING_RACE;
    if (hit.race && !raced &&
        first_time(R, k, aucs_shadow_rec_pc(hit.race), pc)) {
      raced = 1;
      report_race(R, k, o, off + i, hit.race, R->blk,
                  side(R, pc, T->tid, R->blk, op, (unsigned)n));
    }
    if (!g)
      continue;
    uint32_t ob, oep;
    aucs_shadow_rec other =
        aucs_shadow_grid_access_ep(&g[i], R->blk, R->bepoch, r, &ob, &oep);
    if (other && hb_ordered(R, T, ob, oep, other, r, i))
      other = 0;
    /* two atomics conflict only when one's scope is too narrow */
    aucs_finding_kind gk =
        !other ? AUCS_FINDING_INTER_BLOCK_RACE
        : atomic && aucs_shadow_rec_atomic(other)
            ? AUCS_FINDING_SCOPE_RACE
            : race_kind(R, T, ob, oep, other, AUCS_FINDING_INTER_BLOCK_RACE);
    if (other && !graced &&
        first_time(R, gk, aucs_shadow_rec_pc(other), pc)) {
      graced = 1;
      report_race(R, gk, o, off + i, other, ob,
                  side(R, pc, T->tid, R->blk, op, (unsigned)n));
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
  f.a = side(R, pc, T->tid, R->blk, write ? AUCS_OP_WRITE : AUCS_OP_READ,
             (unsigned)n);
  f.offset = ptr;
  f.message =
      aucs_xasprintf("%s of %llu bytes through %s pointer 0x%llx",
                     write ? "write" : "read", (unsigned long long)n,
                     ptr ? "an invalid" : "a null", (unsigned long long)ptr);
  if (first_time(R, AUCS_FINDING_OUT_OF_BOUNDS, pc, pc))
    push(R, &f, NULL, 0);
  else
    free(f.message);
  T->pc = pc;
  return stop(R, T, AUCS_RUN_TRAP,
              ptr ? "memory access through an invalid pointer"
                  : "null pointer dereference");
}

static void out_of_bounds(run *R, thread *T, uint32_t pc, const robj *o,
                          uint64_t off, uint64_t n, int mode) {
  if (!first_time(R, AUCS_FINDING_OUT_OF_BOUNDS, pc, pc))
    return;
  aucs_finding f = {.kind = AUCS_FINDING_OUT_OF_BOUNDS};
  int write = mode != M_READ;
  f.a = side(R, pc, T->tid, R->blk, write ? AUCS_OP_WRITE : AUCS_OP_READ,
             (unsigned)n);
  f.message = aucs_xasprintf(
      "out-of-bounds %s of %llu bytes at byte %lld of %s '%s' (%llu bytes)",
      write ? "write" : "read", (unsigned long long)n, (long long)(int64_t)off,
      aucs_memspace_name(o->o->space), o->o->name, (unsigned long long)o->size);
  push(R, &f, o, off);
}

/* Access n bytes at ptr: 0 done, 1 skipped (out of bounds, reported; reads
 * give zeros), EV_FATAL-style -1 when the run must end. */
static int touch(run *R, thread *T, uint32_t pc, uint64_t ptr, uint64_t n,
                 int mode, int atomic, unsigned char *buf) {
  uint32_t id = (uint32_t)(ptr >> AUCS_PTR_SHIFT);
  uint64_t off = AUCS_PTR_OFF(ptr);
  if (id == 0 || id >= R->nobjs) {
    bad_pointer(R, T, pc, ptr, n, mode);
    return -1;
  }
  robj *o = &R->objs[id];
  int write = mode != M_READ, tracked = mode != M_RAW_WRITE;
  R->writes += (uint64_t)(mode == M_WRITE || mode == M_RAW_WRITE);
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
            atomic);
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
      track(R, T, pc, o, pg->sh + in, pg->g + in, off, k, write, atomic);
    copy_bytes(pg->data + in, buf, k, mode);
    off += k;
    at += k;
    buf += k;
    n -= k;
  }
  return 0;
}

/* touch's atomic argument for flags imm: 2 for a block-scoped atomic. */
static int atomic_arg(uint64_t imm) {
  if (!(imm & MEM_ATOMIC))
    return imm & MEM_VOLATILE ? 3 : 0;
  return MEM_SCOPE(imm) == AUCS_SCOPE_BLOCK ? 2 : 1;
}

static int load(run *R, thread *T, uint32_t pc, uint64_t ptr, unsigned n,
                int atomic, uint64_t *v) {
  unsigned char b[8];
  int rc = touch(R, T, pc, ptr, n, M_READ, atomic, b);
  uint64_t x = 0;
  memcpy(&x, b, n); /* little-endian host */
  *v = x;
  return rc < 0;
}

static int store(run *R, thread *T, uint32_t pc, uint64_t ptr, unsigned n,
                 int mode, int atomic, uint64_t v) {
  unsigned char b[8];
  memcpy(b, &v, n); /* little-endian host */
  return touch(R, T, pc, ptr, n, mode, atomic, b) < 0;
}

/* ALOAD / ASTORE: one access of I->x bytes, leaves placed by the layout. */
static int multi(run *R, thread *T, uint32_t pc, const bc_insn *I,
                 uint64_t *r) {
  unsigned char b[BC_MAX_ACCESS];
  int load = I->op == OP_ALOAD, atomic = (int)(I->imm & MEM_ATOMIC);
  const uint32_t *layout = R->p->pool + (load ? I->b : I->d);
  memset(b, 0, I->x);
  if (!load)
    aucs_lanes_pack(b, r + I->b, layout, I->c);
  int rc = touch(R, T, pc, r[I->a], I->x, load ? M_READ : M_WRITE, atomic, b);
  if (load)
    aucs_lanes_unpack(r + I->d, b, layout, I->c);
  return rc < 0;
}

/* A strong read of ptr (flags imm) gave v: acquire what it reads, and 1
 * when T has read the same value there SPIN_YIELD times in a row (a spin:
 * let other threads run). */
static int strong_read(run *R, thread *T, uint32_t pc, uint64_t ptr,
                       uint64_t imm, uint64_t v) {
  if (R->sy)
    aucs_sync_read(R->sy, &T->sy, ptr, sync_slot(R, R->blk), MEM_SCOPE(imm),
                   (imm & MEM_ACQUIRE) != 0);
  if (!R->spins)
    return 0;
  if (T->spin_pc != pc + 1 || T->spin_val != v) {
    T->spin_pc = pc + 1;
    T->spin_val = v;
    T->spin_n = 0;
    return 0;
  }
  if (++T->spin_n < SPIN_YIELD)
    return 0;
  T->spin_n = 0;
  return 1;
}

static void strong_write(run *R, thread *T, uint64_t ptr, uint64_t imm,
                         int rmw) {
  if (R->sy)
    aucs_sync_write(R->sy, &T->sy, ptr, sync_slot(R, R->blk), R->bepoch,
                    T->tid, MEM_SCOPE(imm), (imm & MEM_RELEASE) != 0, rmw);
}

/* 0 done, 1 the run must end, 2 a failed compare-and-swap spins. */
static int rmw(run *R, thread *T, uint32_t pc, const bc_insn *I, uint64_t *r) {
  unsigned char b[8];
  uint64_t old = 0, ptr = r[I->a];
  int narrow = MEM_SCOPE(I->imm) == AUCS_SCOPE_BLOCK;
  int rc = touch(R, T, pc, ptr, I->x, M_RMW, 1 + narrow, b);
  if (rc)
    return rc < 0;
  for (unsigned i = 0; i < I->x; i++)
    old |= (uint64_t)b[i] << (8 * i);
  if (I->op == OP_CMPXCHG) {
    int ok = old == r[I->b];
    r[I->d] = old;
    r[I->d + 1] = ok;
    if (!ok)
      return strong_read(R, T, pc, ptr, I->imm, old) ? 2 : 0;
    if (R->sy)
      strong_read(R, T, pc, ptr, I->imm, old);
    if (store(R, T, pc, ptr, I->x, M_RAW_WRITE, 1, r[I->c]))
      return 1;
    strong_write(R, T, ptr, I->imm, 1);
    return 0;
  }
  r[I->d] = old;
  uint64_t nv = rmw_apply(I->c, old, r[I->b], I->x);
  int spin = strong_read(R, T, pc, ptr, I->imm, old);
  if (store(R, T, pc, ptr, I->x, M_RAW_WRITE, 1, nv))
    return 1;
  strong_write(R, T, ptr, I->imm, 1);
  if (spin && nv == old) { /* atomicAdd(p, 0) polling: no progress */
    R->writes--;
    return 2;
  }
  return 0;
}

/* memcpy / memmove / memset through a bounce buffer, chunk by chunk;
 * memmove copies backwards when the destination is above the source. */
static int bulk(run *R, thread *T, uint32_t pc, const bc_insn *I,
                const uint64_t *r) {
  unsigned char buf[256];
  uint64_t dst = r[I->a], src = r[I->b], n = r[I->c] & mask_of(I->x);
  int back = I->op == OP_MEMMOVE && dst > src;
  if (I->op == OP_MEMSET)
    memset(buf, (int)(src & 0xff), sizeof buf);
  for (uint64_t done = 0; done < n;) {
    uint64_t k = n - done < sizeof buf ? n - done : sizeof buf;
    uint64_t at = back ? n - done - k : done;
    int rc =
        I->op == OP_MEMSET ? 0 : touch(R, T, pc, src + at, k, M_READ, 0, buf);
    if (!rc)
      rc = touch(R, T, pc, dst + at, k, M_WRITE, 0, buf);
    if (rc) /* out of bounds (reported) ends the copy; -1 ends the run */
      return rc < 0;
    done += k;
  }
  return 0;
}

static int grow_stack(run *R, thread *T, uint64_t need) {
  if (need <= T->stack_cap)
    return 0;
  uint64_t cap = T->stack_cap ? T->stack_cap : 256;
  while (cap < need)
    cap *= 2;
  if (charge(R, T, cap - T->stack_cap))
    return 1;
  T->stack = aucs_xrealloc(T->stack, cap);
  T->stack_cap = cap;
  robj *o = &R->objs[R->local0 + T->tid];
  o->data = T->stack;
  o->size = cap;
  return 0;
}

static int do_alloca(run *R, thread *T, const bc_insn *I, uint64_t *r) {
  uint64_t align = I->c ? I->c : 1;
  uint64_t at = (T->sp + align - 1) / align * align;
  uint64_t bytes;
  if (__builtin_mul_overflow(r[I->a] & mask_of(I->x), I->imm, &bytes) ||
      bytes > R->mem_budget || grow_stack(R, T, at + bytes + 1)) {
    if (!R->res->status)
      stop(R, T, AUCS_RUN_MEMORY_BUDGET, "an alloca exceeds the memory budget");
    return 1;
  }
  memset(T->stack + at, 0, bytes);
  T->sp = at + bytes;
  r[I->d] = AUCS_PTR(R->local0 + T->tid, at);
  return 0;
}

/* ---- calls ---- */

static int call(run *R, thread *T, const bc_insn *I, uint32_t pc,
                uint32_t fi) {
  const aucs_prog *P = R->p;
  const bc_func *F = &P->funcs[fi];
  uint32_t nb = T->base + P->funcs[T->fn].nslots;
  if (T->depth == MAX_DEPTH)
    return stop(R, T, AUCS_RUN_TRAP, "calls nest deeper than 1024 frames");
  if (nb + F->nslots > T->regcap) {
    size_t cap = (nb + F->nslots) * 2;
    if (charge(R, T, (cap - T->regcap) * 8))
      return EV_FATAL;
    T->regs = aucs_xrealloc(T->regs, cap * 8);
    T->regcap = cap;
  }
  if (T->depth == T->frame_cap) {
    T->frame_cap = T->frame_cap ? T->frame_cap * 2 : 8;
    T->frames = aucs_xrealloc(T->frames, T->frame_cap * sizeof(frame));
  }
  T->frames[T->depth++] = (frame){pc + 1, T->base, T->fn, I->d, T->sp};
  uint64_t *r = T->regs + T->base, *nr = T->regs + nb;
  memcpy(nr, F->image, F->nslots * 8);
  for (uint32_t i = 0; i < I->c && i < F->nparams; i++)
    nr[F->params[i]] = r[P->pool[I->b + i]];
  T->base = nb;
  T->fn = fi;
  T->pc = F->entry;
  return 0;
}

static int trap(run *R, thread *T, uint32_t pc, const char *why);

/* The function an indirect call with nargs arguments reaches through
 * pointer p (*fi), or a trap naming why it cannot. */
static int callee_of(run *R, thread *T, uint64_t p, uint32_t nargs,
                     uint32_t pc, uint32_t *fi) {
  const aucs_prog *P = R->p;
  uint32_t id = (uint32_t)(p >> AUCS_PTR_SHIFT);
  if (!p || id >= P->nobjs || !P->objs[id].func || AUCS_PTR_OFF(p) != 0)
    return trap(R, T, pc,
                "an indirect call through a value that is not the address "
                "of a function of the module");
  *fi = P->objs[id].func - 1;
  if (P->funcs[*fi].nparams != nargs)
    return trap(R, T, pc,
                "an indirect call passes another number of arguments than "
                "its target function takes");
  return 0;
}

/* Returns 1 when the thread is done. */
static int ret(thread *T, const bc_insn *I, uint32_t pc) {
  if (T->depth == 0) {
    T->state = DONE;
    T->end_pc = pc;
    return 1;
  }
  uint64_t *v = T->regs + T->base + I->a;
  frame f = T->frames[--T->depth];
  T->base = f.base;
  T->fn = f.fn;
  T->sp = f.sp;
  T->pc = f.ret_pc;
  for (uint32_t i = 0; i < I->x; i++) /* x: the leaves returned */
    T->regs[f.base + f.dst + i] = v[i];
  return 0;
}

static uint64_t sreg(run *R, thread *T, unsigned which, uint64_t steps) {
  aucs_dim3 t = coords(T->tid, R->block);
  uint32_t lane = T->tid % 32;
  uint64_t lt = (UINT64_C(1) << lane) - 1, le = lt << 1 | 1;
  const uint64_t v[] = {[SR_TID_X] = t.x,
                        [SR_TID_Y] = t.y,
                        [SR_TID_Z] = t.z,
                        [SR_NTID_X] = R->block.x,
                        [SR_NTID_Y] = R->block.y,
                        [SR_NTID_Z] = R->block.z,
                        [SR_CTAID_X] = R->bx,
                        [SR_CTAID_Y] = R->by,
                        [SR_CTAID_Z] = R->bz,
                        [SR_NCTAID_X] = R->grid.x,
                        [SR_NCTAID_Y] = R->grid.y,
                        [SR_NCTAID_Z] = R->grid.z,
                        [SR_LANEID] = lane,
                        [SR_WARPSIZE] = 32,
                        [SR_WARPID] = T->tid / 32,
                        [SR_NWARPID] = (R->nthreads + 31) / 32,
                        [SR_CLOCK] = steps & 0xffffffffu,
                        [SR_CLOCK64] = steps,
                        [SR_LANEMASK_EQ] = lt + 1,
                        [SR_LANEMASK_LT] = lt,
                        [SR_LANEMASK_LE] = le & 0xffffffffu,
                        [SR_LANEMASK_GT] = ~le & 0xffffffffu,
                        [SR_LANEMASK_GE] = ~lt & 0xffffffffu,
                        [SR_DYN_SMEM] = R->dyn_shared};
  AUCS_ASSERT(which < sizeof v / sizeof *v);
  return v[which];
}

static int trap(run *R, thread *T, uint32_t pc, const char *why) {
  T->pc = pc;
  return stop(R, T, AUCS_RUN_TRAP, why);
}

/* The input is outside the kernel's precondition: the run is discarded. */
static int violated(run *R, thread *T, uint32_t pc) {
  T->pc = pc;
  R->res->assumption = R->p->instr[pc];
  return stop(R, T, AUCS_RUN_ASSUME, "the input violates llvm.assume");
}

/* ---- budgets ---- */

/* Steps, over all threads, between two checks of the run's budget
 * (budget.h): about a millisecond of interpretation. */
#define BUDGET_TICK (1u << 16)

/* The steps T may take before its step budget or the next budget check. */
static uint64_t slice(const run *R, const thread *T) {
  uint64_t left = R->step_budget > T->steps ? R->step_budget - T->steps : 0;
  return left < R->tick ? left : R->tick;
}

/* T used up its slice of used steps: account them, then stop the run (0)
 * at the step budget or a spent budget, else the next slice. */
static uint64_t next_slice(run *R, thread *T, uint64_t used) {
  T->steps += used;
  R->res->thread_instructions += used;
  R->tick -= used;
  if (T->steps >= R->step_budget) {
    char why[96];
    snprintf(why, sizeof why, "ran past the step budget of %llu steps",
             (unsigned long long)R->step_budget);
    stop(R, T, AUCS_RUN_STEP_BUDGET, why);
    return 0;
  }
  R->tick = BUDGET_TICK;
  if (aucs_budget_check(R->cfg->budget)) {
    char *why = aucs_budget_why(R->cfg->budget);
    stop(R, T, AUCS_RUN_BUDGET, why);
    free(why);
    return 0;
  }
  return slice(R, T);
}

/* ---- the dispatch loop ---- */

#define BIN(expr)                                                              \
  r[I->d] = (expr)&I->imm;                                                     \
  break
#define A r[I->a]
#define B r[I->b]
#define C r[I->c]

/* Run T until it waits, returns or the run must end. */
static int run_thread(run *R, thread *T) {
  const aucs_prog *P = R->p;
  const bc_insn *code = P->code;
  uint32_t pc = T->pc;
  uint64_t *r = T->regs + T->base;
  uint64_t left = slice(R, T);
  uint64_t start = left;
  int ev = EV_STOP;
  for (;; pc++) {
    const bc_insn *I = &code[pc];
    if (left-- == 0) {
      T->pc = pc;
      left = start = next_slice(R, T, start);
      if (left-- == 0) {
        ev = EV_FATAL;
        left = 0;
        break;
      }
    }
    switch ((bc_op)I->op) {
    case OP_MOV:
      r[I->d] = A;
      break;
    case OP_TRUNC:
      BIN(A);
    case OP_SEXT:
      BIN((uint64_t)sx(A, I->x));
    case OP_ADD:
      BIN(A + B);
    case OP_SUB:
      BIN(A - B);
    case OP_MUL:
      BIN(A * B);
    case OP_UDIV:
    case OP_UREM:
      if (B == 0) {
        ev = trap(R, T, pc, "integer division by zero");
        goto out;
      }
      BIN(I->op == OP_UDIV ? A / B : A % B);
    case OP_SDIV:
    case OP_SREM: {
      int64_t x = sx(A, I->x), y = sx(B, I->x);
      if (y == 0) {
        ev = trap(R, T, pc, "integer division by zero");
        goto out;
      }
      uint64_t q = y == -1 ? (uint64_t)0 - (uint64_t)x : (uint64_t)(x / y);
      uint64_t m = y == -1 ? 0 : (uint64_t)(x % y);
      BIN(I->op == OP_SDIV ? q : m);
    }
    case OP_SHL:
      BIN(B >= I->x ? 0 : A << B);
    case OP_LSHR:
      BIN(B >= I->x ? 0 : A >> B);
    case OP_ASHR:
      BIN((uint64_t)(sx(A, I->x) >> (B >= I->x ? (uint64_t)I->x - 1 : B)));
    case OP_AND:
      BIN(A & B);
    case OP_OR:
      BIN(A | B);
    case OP_XOR:
      BIN(A ^ B);
    case OP_SMIN:
      BIN(sx(A, I->x) < sx(B, I->x) ? A : B);
    case OP_SMAX:
      BIN(sx(A, I->x) > sx(B, I->x) ? A : B);
    case OP_UMIN:
      BIN(A < B ? A : B);
    case OP_UMAX:
      BIN(A > B ? A : B);
    case OP_ABS:
      BIN(sx(A, I->x) < 0 ? (uint64_t)0 - A : A);
    case OP_CTPOP:
      BIN((uint64_t)__builtin_popcountll(A));
    case OP_CTLZ:
      BIN(A ? (uint64_t)__builtin_clzll(A) - (64u - I->x) : (uint64_t)I->x);
    case OP_CTTZ:
      BIN(A ? (uint64_t)__builtin_ctzll(A) : I->x);
    case OP_BSWAP:
      BIN(__builtin_bswap64(A) >> (64 - I->x));
    case OP_BITREV:
      BIN(bitrev(A, I->x));
    case OP_FSHL:
      BIN(funnel(A, B, C, I->x, 1));
    case OP_FSHR:
      BIN(funnel(A, B, C, I->x, 0));
    case OP_ICMP_EQ:
      r[I->d] = A == B;
      break;
    case OP_ICMP_NE:
      r[I->d] = A != B;
      break;
    case OP_ICMP_ULT:
      r[I->d] = A < B;
      break;
    case OP_ICMP_ULE:
      r[I->d] = A <= B;
      break;
    case OP_ICMP_UGT:
      r[I->d] = A > B;
      break;
    case OP_ICMP_UGE:
      r[I->d] = A >= B;
      break;
    case OP_ICMP_SLT:
      r[I->d] = sx(A, I->x) < sx(B, I->x);
      break;
    case OP_ICMP_SLE:
      r[I->d] = sx(A, I->x) <= sx(B, I->x);
      break;
    case OP_ICMP_SGT:
      r[I->d] = sx(A, I->x) > sx(B, I->x);
      break;
    case OP_ICMP_SGE:
      r[I->d] = sx(A, I->x) >= sx(B, I->x);
      break;
    case OP_SELECT:
      r[I->d] = (C & 1) ? A : B;
      break;
    case OP_FADD32:
      r[I->d] = bf32(f32(A) + f32(B));
      break;
    case OP_FADD64:
      r[I->d] = bf64(f64(A) + f64(B));
      break;
    case OP_FSUB32:
      r[I->d] = bf32(f32(A) - f32(B));
      break;
    case OP_FSUB64:
      r[I->d] = bf64(f64(A) - f64(B));
      break;
    case OP_FMUL32:
      r[I->d] = bf32(f32(A) * f32(B));
      break;
    case OP_FMUL64:
      r[I->d] = bf64(f64(A) * f64(B));
      break;
    case OP_FDIV32:
      r[I->d] = bf32(f32(A) / f32(B));
      break;
    case OP_FDIV64:
      r[I->d] = bf64(f64(A) / f64(B));
      break;
    case OP_FREM32:
      r[I->d] = bf32(fmodf(f32(A), f32(B)));
      break;
    case OP_FREM64:
      r[I->d] = bf64(fmod(f64(A), f64(B)));
      break;
    case OP_FNEG32:
      r[I->d] = A ^ 0x80000000u;
      break;
    case OP_FNEG64:
      r[I->d] = A ^ (UINT64_C(1) << 63);
      break;
    case OP_FCMP32:
      r[I->d] = fcmp(I->x, f32(A), f32(B));
      break;
    case OP_FCMP64:
      r[I->d] = fcmp(I->x, f64(A), f64(B));
      break;
    case OP_FABS32:
      r[I->d] = A & 0x7fffffffu;
      break;
    case OP_FABS64:
      r[I->d] = A & ~(UINT64_C(1) << 63);
      break;
    case OP_FMIN32:
      r[I->d] = bf32(fminf(f32(A), f32(B)));
      break;
    case OP_FMIN64:
      r[I->d] = bf64(fmin(f64(A), f64(B)));
      break;
    case OP_FMAX32:
      r[I->d] = bf32(fmaxf(f32(A), f32(B)));
      break;
    case OP_FMAX64:
      r[I->d] = bf64(fmax(f64(A), f64(B)));
      break;
    case OP_FMA32:
      r[I->d] = bf32(fmaf(f32(A), f32(B), f32(C)));
      break;
    case OP_FMA64:
      r[I->d] = bf64(fma(f64(A), f64(B), f64(C)));
      break;
    case OP_LIBCALL:
      r[I->d] = libcall(I, r, P->pool);
      break;
    case OP_F32TOSI:
      r[I->d] = to_int(f32(A), I->x, 1);
      break;
    case OP_F64TOSI:
      r[I->d] = to_int(f64(A), I->x, 1);
      break;
    case OP_F32TOUI:
      r[I->d] = to_int(f32(A), I->x, 0);
      break;
    case OP_F64TOUI:
      r[I->d] = to_int(f64(A), I->x, 0);
      break;
    case OP_SITOF32:
      r[I->d] = bf32((float)sx(A, I->x));
      break;
    case OP_SITOF64:
      r[I->d] = bf64((double)sx(A, I->x));
      break;
    case OP_UITOF32:
      r[I->d] = bf32((float)A);
      break;
    case OP_UITOF64:
      r[I->d] = bf64((double)A);
      break;
    case OP_F64TOF32:
      r[I->d] = bf32((float)f64(A));
      break;
    case OP_F32TOF64:
      r[I->d] = bf64((double)f32(A));
      break;
    case OP_OVF: {
      int o;
      r[I->d] = overflow_op(I->c, A, B, I->x, &o);
      r[I->d + 1] = (uint64_t)o;
      break;
    }
    case OP_GEP:
      r[I->d] = A + (uint64_t)sx(B, I->x) * I->c + I->imm;
      break;
    case OP_ADDI:
      r[I->d] = A + I->imm;
      break;
    case OP_LOAD:
      T->pc = pc;
      if (load(R, T, pc, A, I->x, atomic_arg(I->imm), &r[I->d])) {
        ev = EV_FATAL;
        goto out;
      }
      if ((I->imm & (MEM_ATOMIC | MEM_VOLATILE)) &&
          strong_read(R, T, pc, A, I->imm, r[I->d])) {
        T->state = AT_SPIN;
        T->pc = pc + 1;
        goto out;
      }
      break;
    case OP_STORE:
      T->pc = pc;
      if (store(R, T, pc, A, I->x, M_WRITE, atomic_arg(I->imm), B)) {
        ev = EV_FATAL;
        goto out;
      }
      if (I->imm & (MEM_ATOMIC | MEM_VOLATILE))
        strong_write(R, T, A, I->imm, 0);
      break;
    case OP_FENCE:
      if (R->sy)
        aucs_sync_fence(R->sy, &T->sy, I->x);
      break;
    case OP_ALOAD:
    case OP_ASTORE:
      T->pc = pc;
      if (multi(R, T, pc, I, r)) {
        ev = EV_FATAL;
        goto out;
      }
      break;
    case OP_VEXTRACT:
      r[I->d] = B < I->c ? r[I->a + B] : 0;
      break;
    case OP_VINSERT:
      if (B < I->c)
        r[I->d + B] = A;
      break;
    case OP_REPACK:
      aucs_lanes_repack(r + I->d, r + I->a, I->x, (unsigned)I->imm, I->b);
      break;
    case OP_RMW:
    case OP_CMPXCHG: {
      T->pc = pc;
      int rc = rmw(R, T, pc, I, r);
      if (rc == 2) {
        T->state = AT_SPIN;
        T->pc = pc + 1;
        goto out;
      }
      if (rc) {
        ev = EV_FATAL;
        goto out;
      }
      break;
    }
    case OP_MEMCPY:
    case OP_MEMMOVE:
    case OP_MEMSET:
      T->pc = pc;
      if (bulk(R, T, pc, I, r)) {
        ev = EV_FATAL;
        goto out;
      }
      break;
    case OP_ALLOCA:
      T->pc = pc;
      if (do_alloca(R, T, I, r)) {
        ev = EV_FATAL;
        goto out;
      }
      break;
    case OP_BR:
      pc = I->d - 1;
      break;
    case OP_CBR:
      cover(R, COVER_KEY(COVER_BRANCH, pc, A & 1));
      pc = ((A & 1) ? I->d : I->b) - 1;
      break;
    case OP_SWITCH: {
      uint32_t to = I->d;
      for (uint32_t i = 0; i < I->c; i++)
        if (P->pool64[I->imm + i] == A) {
          to = P->pool[I->b + i];
          break;
        }
      cover(R, COVER_KEY(COVER_BRANCH, pc, to));
      pc = to - 1;
      break;
    }
    case OP_CALLI: {
      uint32_t fi = 0;
      if (callee_of(R, T, A, I->c, pc, &fi) ||
          call(R, T, I, pc, fi) == EV_FATAL) {
        ev = EV_FATAL;
        goto out;
      }
      pc = T->pc - 1;
      r = T->regs + T->base;
      break;
    }
    case OP_CALL:
      if (call(R, T, I, pc, I->a) == EV_FATAL) {
        ev = EV_FATAL;
        goto out;
      }
      pc = T->pc - 1;
      r = T->regs + T->base;
      break;
    case OP_RET:
      if (ret(T, I, pc))
        goto out;
      pc = T->pc - 1;
      r = T->regs + T->base;
      break;
    case OP_UNREACHABLE:
      ev = trap(R, T, pc, "reached `unreachable`");
      goto out;
    case OP_TRAP:
      ev = trap(R, T, pc, "the kernel trapped (llvm.trap or assert)");
      goto out;
    case OP_ASSUME:
      if (A & 1)
        break;
      ev = violated(R, T, pc);
      goto out;
    case OP_SREG:
      r[I->d] = sreg(R, T, I->x, T->steps + start - left);
      break;
    case OP_BARRIER:
      T->state = AT_BARRIER;
      T->pc = pc;
      goto out;
    case OP_WARP:
      T->state = AT_WARP;
      T->pc = pc;
      goto out;
    case OP_GRID:
      if ((uint32_t)(A >> AUCS_PTR_SHIFT) != P->grid_ws) {
        ev = trap(R, T, pc, "a grid sync step on memory other than the grid "
                            "workspace");
        goto out;
      }
      if (I->x == GRID_POLL) {
        r[I->d] = R->grid_word;
        break;
      }
      T->state = AT_GRID;
      T->pc = pc;
      goto out;
    case OP_NOPS:
      AUCS_ASSERT(0);
    }
  }
out:
  T->steps += start - left;
  R->res->thread_instructions += start - left;
  R->tick -= start - left;
  return ev;
}

#undef A
#undef B
#undef C
#undef BIN

/* ---- warp collectives ---- */

static uint64_t *regs_of(thread *T) { return T->regs + T->base; }

/* The lane a shuffle reads from (PTX shfl.sync semantics), or -1. */
static int shfl_source(unsigned mode, int lane, uint32_t b, uint32_t c) {
  int seg = (int)((c >> 8) & 0x1f), cl = (int)(c & 0x1f), bv = (int)(b & 0x1f);
  int max = (lane & seg) | (cl & ~seg), min = lane & seg, j;
  switch (mode) {
  case W_SHFL_UP:
    j = lane - bv;
    return j >= max ? j : -1;
  case W_SHFL_DOWN:
    j = lane + bv;
    break;
  case W_SHFL_BFLY:
    j = lane ^ bv;
    break;
  default:
    j = min | (bv & ~seg);
    break;
  }
  return j <= max ? j : -1;
}

/* Threads of warp [w0, w1) waiting at pc exchange values. */
static void collective(run *R, uint32_t w0, uint32_t w1, uint32_t pc) {
  const bc_insn *I = &R->p->code[pc];
  thread *th = R->th;
  uint32_t here = 0, votes = 0;
  for (uint32_t t = w0; t < w1; t++)
    if (th[t].state == AT_WARP && th[t].pc == pc) {
      here |= 1u << (t - w0);
      votes |= (uint32_t)(regs_of(&th[t])[I->a] & 1) << (t - w0);
    }
  uint64_t vals[32];
  for (uint32_t t = w0; t < w1; t++)
    vals[t - w0] = here >> (t - w0) & 1 ? regs_of(&th[t])[I->a] : 0;
  for (uint32_t t = w0; t < w1; t++) {
    if (!(here >> (t - w0) & 1))
      continue;
    uint64_t *r = regs_of(&th[t]);
    int lane = (int)(t - w0), src;
    switch (I->x) {
    case W_SYNCWARP:
      th[t].wphase++;
      break;
    case W_VOTE_ALL:
      r[I->d] = (votes & here) == here;
      break;
    case W_VOTE_ANY:
      r[I->d] = (votes & here) != 0;
      break;
    case W_VOTE_UNI:
      r[I->d] = (votes & here) == here || (votes & here) == 0;
      break;
    case W_VOTE_BALLOT:
      r[I->d] = votes & here;
      break;
    case W_ACTIVEMASK:
      r[I->d] = here;
      break;
    default:
      src = shfl_source(I->x, lane, (uint32_t)r[I->b], (uint32_t)r[I->c]);
      if (src >= 0 && !(here >> src & 1))
        src = -1;
      r[I->d] = vals[src >= 0 ? src : lane] & 0xffffffffu;
      if (I->imm & W_PRED)
        r[I->d + 1] = src >= 0;
      break;
    }
    th[t].state = RUN;
    th[t].pc = pc + 1;
  }
}

/* Run warp [w0, w1) until each thread waits at a barrier or is done. */
static int run_warp(run *R, uint32_t w0, uint32_t w1) {
  for (;;) {
    for (uint32_t t = w0; t < w1; t++)
      if (R->th[t].state == RUN && run_thread(R, &R->th[t]) == EV_FATAL)
        return 1;
    uint32_t t = w0;
    while (t < w1 && R->th[t].state != AT_WARP)
      t++;
    if (t == w1)
      return 0;
    collective(R, w0, w1, R->th[t].pc);
  }
}

/* ---- barriers ---- */

static void divergence(run *R, thread *a, thread *b, int returned) {
  uint32_t pa = a->pc, pb = returned ? b->end_pc : b->pc;
  if (!first_time(R, AUCS_FINDING_BARRIER_DIVERGENCE, pa, pb))
    return;
  aucs_finding f = {.kind = AUCS_FINDING_BARRIER_DIVERGENCE};
  f.a = side(R, pa, a->tid, R->blk, AUCS_OP_READ, 0);
  f.b = side(R, pb, b->tid, R->blk, AUCS_OP_READ, 0);
  f.message = aucs_xasprintf(
      returned ? "barrier divergence: thread (%u,%u,%u) waits at a barrier "
                 "that thread (%u,%u,%u) never reaches: it returned"
               : "barrier divergence: thread (%u,%u,%u) and thread "
                 "(%u,%u,%u) wait at different barriers",
      f.a.thread.x, f.a.thread.y, f.a.thread.z, f.b.thread.x, f.b.thread.y,
      f.b.thread.z);
  push(R, &f, NULL, 0);
}

static void check_divergence(run *R, thread *first) {
  thread *done = NULL, *other = NULL;
  for (uint32_t t = 0; t < R->nthreads; t++) {
    thread *T = &R->th[t];
    if (T->state == DONE && !done)
      done = T;
    if (T->state == AT_BARRIER && T->pc != first->pc && !other)
      other = T;
  }
  if (done)
    divergence(R, first, done, 1);
  /* every other barrier waited at, so each is part of a finding */
  for (uint32_t t = other ? other->tid : R->nthreads; t < R->nthreads; t++)
    if (R->th[t].state == AT_BARRIER && R->th[t].pc != first->pc)
      divergence(R, first, &R->th[t], 0);
}

static void release(run *R) {
  thread *first = NULL;
  uint32_t popc = 0, all = 1, any = 0;
  const bc_insn *code = R->p->code;
  for (uint32_t t = 0; t < R->nthreads; t++) {
    thread *T = &R->th[t];
    if (T->state != AT_BARRIER)
      continue;
    if (!first)
      first = T;
    const bc_insn *I = &code[T->pc];
    uint64_t pred = I->x != BAR_PLAIN && (regs_of(T)[I->a] != 0);
    popc += (uint32_t)pred;
    all &= (uint32_t)pred;
    any |= (uint32_t)pred;
  }
  check_divergence(R, first);
  R->last_barrier = (int64_t)code[first->pc].imm;
  if (R->sy) { /* the barrier joins the clocks of its threads */
    for (uint32_t t = 0; t < R->nthreads; t++)
      aucs_sync_barrier_gather(R->sy, &R->th[t].sy, t == 0);
    for (uint32_t t = 0; t < R->nthreads; t++)
      if (R->th[t].state == AT_BARRIER)
        aucs_sync_barrier_scatter(R->sy, &R->th[t].sy);
  }
  for (uint32_t t = 0; t < R->nthreads; t++) {
    thread *T = &R->th[t];
    if (T->state != AT_BARRIER)
      continue;
    const bc_insn *I = &code[T->pc];
    if (I->x != BAR_PLAIN)
      regs_of(T)[I->d] = I->x == BAR_POPC ? popc : I->x == BAR_AND ? all : any;
    R->res->barrier_passes[I->imm]++;
    T->state = RUN;
    T->pc++;
    T->wphase = 0;
  }
  R->epoch++;
  R->bepoch++;
}

/* ---- blocks and runs ---- */

static int reset_threads(run *R) {
  const bc_func *K = &R->p->funcs[0];
  for (uint32_t t = 0; t < R->nthreads; t++) {
    thread *T = &R->th[t];
    if (T->regcap < K->nslots) {
      if (charge(R, T, (K->nslots - T->regcap) * 8))
        return 1;
      T->regs = aucs_xrealloc(T->regs, K->nslots * 8);
      T->regcap = K->nslots;
    }
    memcpy(T->regs, K->image, K->nslots * 8);
    for (uint32_t i = 0; i < K->nparams; i++) {
      const aucs_param *pa = &R->p->params[i];
      uint64_t v = R->p->param_obj[i] ? AUCS_PTR(R->p->param_obj[i], 0)
                   : R->cfg->args     ? R->cfg->args[i] & mask_of(pa->bits)
                                      : 0;
      T->regs[K->params[i]] = v;
    }
    *T = (thread){.regs = T->regs,
                  .regcap = T->regcap,
                  .frames = T->frames,
                  .frame_cap = T->frame_cap,
                  .stack = T->stack,
                  .stack_cap = T->stack_cap,
                  .pc = K->entry,
                  .tid = t,
                  .state = RUN,
                  .sy = T->sy};
    if (R->sy && T->sy.c) /* else allocated at its first sync operation */
      aucs_sync_thread_reset(R->sy, &T->sy);
    else
      T->sy = (aucs_sync_thread){0};
  }
  return 0;
}

static void reset_shared(run *R) {
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

/* Make block lin the current one, in a fresh epoch. */
static void enter_block(run *R, uint64_t lin) {
  R->blk = (uint32_t)lin;
  aucs_dim3 b = coords((uint32_t)lin, R->grid);
  R->bx = b.x;
  R->by = b.y;
  R->bz = b.z;
  R->epoch += 2;
  R->epoch0 = R->epoch;
  R->last_barrier = -1;
}

/* Run the current block's threads until each is done (0), or until its
 * master waits at a grid barrier (1; the others wait behind it). */
/* Let the threads that yielded in a spin run again; 1 if there were. */
static int wake_spinners(run *R) {
  int any = 0;
  for (uint32_t t = 0; t < R->nthreads; t++)
    if (R->th[t].state == AT_SPIN) {
      R->th[t].state = RUN;
      any = 1;
    }
  return any;
}

/* The run ends: T spins on a value no thread or block will change. */
static void spin_deadlock(run *R, thread *T) {
  stop(R, T, AUCS_RUN_TRAP,
       "spins on a value that no other thread or block changes: the launch "
       "deadlocks");
}

/* Run the current block's threads until each is done (0), or until its
 * master waits at a grid barrier or its spinners wait for another block
 * (1; the others wait behind them). */
static int block_steps(run *R) {
  uint64_t mark = R->writes;
  unsigned idle = 0;
  wake_spinners(R);
  for (;;) {
    for (uint32_t w0 = 0; w0 < R->nthreads; w0 += 32) {
      uint32_t w1 = w0 + 32 < R->nthreads ? w0 + 32 : R->nthreads;
      if (run_warp(R, w0, w1))
        return 0;
    }
    int waiting = 0;
    thread *spinner = NULL;
    for (uint32_t t = 0; t < R->nthreads; t++) {
      if (R->th[t].state == AT_GRID)
        return 1;
      waiting |= R->th[t].state == AT_BARRIER;
      if (R->th[t].state == AT_SPIN && !spinner)
        spinner = &R->th[t];
    }
    if (spinner) {
      idle = R->writes == mark ? idle + 1 : 0;
      mark = R->writes;
      if (idle < SPIN_ROUNDS) {
        wake_spinners(R);
        continue;
      }
      if (R->phased > 1) /* other blocks may release it */
        return 1;
      spin_deadlock(R, spinner);
      return 0;
    }
    if (!waiting)
      return 0;
    release(R);
  }
}

static int run_block(run *R, uint64_t lin) {
  enter_block(R, lin);
  R->bepoch = 0;
  R->res->blocks_run++;
  reset_shared(R);
  if (reset_threads(R))
    return 0;
  return block_steps(R);
}

#include "gridsync.inc"

static const char *launch_problem(aucs_launch l) {
  uint64_t n = (uint64_t)l.block.x * l.block.y * l.block.z;
  if (!l.block.x || !l.block.y || !l.block.z || !l.grid.x || !l.grid.y ||
      !l.grid.z)
    return "a launch dimension is 0";
  if (n > 1024 || l.block.x > 1024 || l.block.y > 1024 || l.block.z > 64)
    return "the block exceeds 1024 threads, or 1024 x 1024 x 64";
  if (l.grid.x > 2147483647u || l.grid.y > 65535 || l.grid.z > 65535)
    return "the grid exceeds 2^31-1 x 65535 x 65535 blocks";
  return NULL;
}

static char *format_args(const aucs_prog *p, const uint64_t *args) {
  aucs_buf b = {0};
  aucs_buf_puts(&b, "");
  for (size_t i = 0; i < p->nparams && args; i++) {
    const aucs_param *pa = &p->params[i];
    const char *sep = b.len ? " " : "";
    if (pa->kind == AUCS_PARAM_INT)
      aucs_buf_printf(&b, "%s%s=%lld", sep, pa->name,
                      (long long)sx(args[i] & mask_of(pa->bits), pa->bits));
    else if (pa->kind == AUCS_PARAM_FLOAT)
      aucs_buf_printf(&b, "%s%s=%g", sep, pa->name,
                      pa->bits == 32 ? (double)f32(args[i]) : f64(args[i]));
  }
  return aucs_buf_take(&b);
}

/* The leaves of aggregate parameters (inputs.h): pointer fields point to
 * their buffers, fields the run sets get their values; buffers get their
 * sizes. */
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
    unsigned n = x->p.bits / 8;
    uint64_t v = leaf ? AUCS_PTR(leaf, 0) : c->fields ? c->fields[i] : 0;
    int set = leaf || (c->fields && c->fields_set && c->fields_set[i] &&
                       x->p.kind != AUCS_PARAM_AGGREGATE);
    if (set && n && n <= 8 && x->offset + n <= o->size)
      memcpy(o->data + x->offset, &v, n); /* little-endian host */
  }
}

static int init_objects(run *R) {
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
    if (charge(R, T, o->size * per))
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
  static const bc_object local = {.name = "local", .space = AUCS_MEM_LOCAL};
  for (uint32_t t = 0; t < R->nthreads; t++)
    R->objs[R->local0 + t].o = &local;
  return 0;
}

static void run_free(run *R) {
  for (uint32_t id = 1; id < R->p->nobjs && R->objs; id++) {
    free(R->objs[id].data);
    free(R->objs[id].sh);
    free(R->objs[id].g);
  }
  for (uint32_t t = 0; t < R->nthreads && R->th; t++) {
    free(R->th[t].regs);
    free(R->th[t].frames);
    free(R->th[t].stack);
    aucs_sync_thread_free(&R->th[t].sy);
  }
  aucs_sync_free(R->sy);
  if (R->cfg->keep_memory) {
    aucs_run_memory *m = aucs_xcalloc(1, sizeof(*m));
    *m = (aucs_run_memory){R->pages, R->cfg->seed, R->cfg->fill, R->p};
    R->res->memory = m;
  } else {
    pagemap_free(&R->pages);
  }
  free(R->seen.keys);
  free(R->objs);
  free(R->th);
  free(R->args);
}

/* Fences, atomics and volatile flags need the clocks of sync.h; strong
 * reads may spin (yield; blocks waiting for one another). */
static void sync_setup(run *R) {
  int fences = 0, reads = 0, vloads = 0, vstores = 0;
  for (uint32_t pc = 0; pc < R->p->ncode; pc++) {
    const bc_insn *I = &R->p->code[pc];
    int strong = (I->imm & (MEM_ATOMIC | MEM_VOLATILE)) != 0;
    fences |= I->op == OP_FENCE || I->op == OP_RMW || I->op == OP_CMPXCHG ||
              ((I->op == OP_STORE || I->op == OP_LOAD) &&
               (I->imm & MEM_ATOMIC));
    vloads |= I->op == OP_LOAD && (I->imm & MEM_VOLATILE);
    vstores |= I->op == OP_STORE && (I->imm & MEM_VOLATILE);
    reads |= (I->op == OP_LOAD && strong) || I->op == OP_RMW ||
             I->op == OP_CMPXCHG;
  }
  if (fences || (vloads && vstores)) /* a volatile flag: missing-fence */
    R->want_sync = 1;
  /* a spin across blocks needs an atomic or a fence to be correct: only
   * such kernels keep every block's threads for the phases */
  R->spins = reads;
  R->phased = reads && fences;
}

static void run_grid(run *R) {
  uint64_t nblocks = (uint64_t)R->grid.x * R->grid.y * R->grid.z;
  uint64_t cap =
      R->cfg->max_threads ? R->cfg->max_threads : AUCS_INTERP_MAX_THREADS;
  uint64_t first = cap / R->nthreads;
  if (first < 2)
    first = 2;
  if (first >= nblocks)
    first = nblocks;
  else
    first--; /* ... and the last block */
  R->first = first;
  if (R->want_sync) { /* entries for the simulated blocks, at most SLOTS */
    uint64_t sim = first < nblocks ? first + 1 : nblocks;
    R->nslots = (uint32_t)(sim < AUCS_SYNC_SLOTS ? sim : AUCS_SYNC_SLOTS);
    R->sy = aucs_sync_new(R->nslots);
  }
  if (R->phased && nblocks > 1)
    R->phased = 2; /* a spinning block lets the others run */
  if (R->p->grid_ws || R->phased > 1) {
    run_grid_synced(R, first, nblocks);
    return;
  }
  for (uint64_t b = 0; b < first && !R->res->status; b++)
    run_block(R, b);
  if (first < nblocks && !R->res->status)
    run_block(R, nblocks - 1);
}

aucs_run_status aucs_interp_run(const aucs_prog *p, const aucs_run_config *cfg,
                                aucs_run_result *res) {
  *res = (aucs_run_result){0};
  res->barrier_passes = aucs_xcalloc(p->nbarriers + 1, sizeof(uint64_t));
  res->barrier_ordered = aucs_xcalloc(p->nbarriers + 1, 1);
  const char *bad = launch_problem(cfg->launch);
  if (bad) {
    res->status = AUCS_RUN_BAD_LAUNCH;
    res->error =
        aucs_xasprintf("kernel '%s': bad launch: %s", p->kernel_name, bad);
    return res->status;
  }
  run R = {.p = p,
           .cfg = cfg,
           .res = res,
           .grid = cfg->launch.grid,
           .block = cfg->launch.block};
  R.step_budget = cfg->step_budget ? cfg->step_budget : AUCS_INTERP_STEP_BUDGET;
  R.tick = BUDGET_TICK;
  R.mem_budget =
      cfg->memory_budget ? cfg->memory_budget : AUCS_INTERP_MEMORY_BUDGET;
  R.dyn_shared = cfg->dynamic_shared_bytes ? cfg->dynamic_shared_bytes
                                           : AUCS_INTERP_DYNAMIC_SHARED;
  R.nthreads = R.block.x * R.block.y * R.block.z;
  R.th = aucs_xcalloc(R.nthreads, sizeof(thread));
  R.args = format_args(p, cfg->args);
  sync_setup(&R);
  if (!init_objects(&R))
    run_grid(&R);
  run_free(&R);
  return res->status;
}

void aucs_run_result_free(aucs_run_result *res) {
  free(res->error);
  free(res->barrier_passes);
  free(res->barrier_ordered);
  aucs_findings_free(&res->findings);
  if (res->memory)
    pagemap_free(&res->memory->pages);
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
