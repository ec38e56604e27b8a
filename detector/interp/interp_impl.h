/*
 * interp_impl.h (private to detector/interp/): the interpreter's private state (run, thread, memory
 * objects, pages), shared by interp.c (dispatch loop, public API),
 * interp_mem.c (memory, shadow checks, findings), interp_sched.c (warps,
 * barriers, blocks) and interp_grid.c (grid barriers, spins across blocks).
 * Functions one part calls in another are prefixed ip_; the helpers below
 * are static inline because the dispatch loop uses them per instruction.
 */
#ifndef AUCS_INTERP_IMPL_H
#define AUCS_INTERP_IMPL_H

#include "aucs/bytecode.h"

#include "aucs/budget.h"
#include "aucs/cvt.h"
#include "aucs/inputs.h"
#include "aucs/lanes.h"
#include "aucs/libcalls.h"
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
  /* interp_taint.c: bytes the run wrote, bytes holding filled data, and
   * the buffers that data came from */
  uint8_t wr[PAGE / 8], tb[PAGE / 8];
  uint64_t tmask;
} page;

typedef struct robj {
  unsigned char *data;      /* flat contents, or NULL (sparse) */
  unsigned char *rd;        /* an aggregate parameter's: bytes read */
  aucs_shadow_cell *sh;     /* per byte, NULL when untracked */
  aucs_shadow_grid_cell *g; /* per byte for global memory */
  uint64_t size;
  const bc_object *o;
} robj;

typedef struct frame {
  uint32_t ret_pc, base, fn, dst;
  uint64_t sp;
} frame;

/* A thread's taint track (interp_taint.c): per register slot, the input
 * buffers whose filled contents the value was computed from. */
typedef struct ip_rejoin {
  LLVMBasicBlockRef at; /* the branch's post-dominator; NULL: the return */
  uint32_t depth;       /* of the frame it is in */
  uint64_t mask;
} ip_rejoin;

typedef struct ip_tthread {
  uint64_t *tm; /* per slot, indexed as regs */
  size_t cap;
  uint64_t ctl;     /* buffers the divergent branches the thread is under
                       depended on: the union of rj's masks */
  ip_rejoin *rj;    /* those branches, until their paths join again */
  uint32_t nrj, caprj;
  uint64_t val;     /* the taint the current access writes */
  uint64_t load;    /* what the pending load read */
  uint32_t dst, nd; /* its destination slots (absolute); nd 0: none */
} ip_tthread;

typedef struct ip_hold ip_hold;   /* a thread's lock (locks.c) */
typedef struct ip_locks ip_locks; /* every thread's, by block and thread */

typedef struct thread {
  uint32_t pc, base, fn, depth, frame_cap, end_pc, tid;
  uint8_t state;
  uint16_t wphase;
  uint32_t wmask[8]; /* lanes of the __syncwarp that ended phase p, at
                        [p % 8] */
  uint64_t steps;
  uint64_t *regs;
  size_t regcap;
  frame *frames;
  unsigned char *stack;
  uint64_t stack_cap, sp;
  aucs_sync_thread sy;      /* happens-before state (sync.h) */
  uint32_t spin_pc, spin_n; /* the strong read repeating, its count */
  uint64_t spin_val;
  ip_tthread tt;
  ip_hold *lk; /* its lock, held or last held; NULL: none yet */
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
  uint32_t sync_from; /* bepoch of the race-checking epoch's start: the last
                         release of threads at one barrier */
  uint32_t grid_word; /* the grid workspace's barrier word (grid sync) */
  int64_t last_barrier;
  size_t dyn_shared;
  robj *objs;
  thread *th;
  pagemap pages;
  u64set seen;
  u64set differ; /* pc pairs of plain writes that stored different bytes */
  char *args;
  unsigned char *pread; /* per kernel parameter: an OP_MARK ran */
  aucs_sync *sy;   /* the kernel fences or uses atomics, or NULL */
  ip_locks *lk;    /* critical sections so far (locks.c), or NULL */
  uint64_t first;  /* blocks simulated before the last one */
  uint64_t writes; /* memory writes so far: progress for spinners */
  uint64_t at;     /* the address touch() is tracking */
  int spins;       /* strong reads may spin: they yield */
  int partial_wsync; /* a __syncwarp left lanes of its warp out */
  int want_sync;   /* the kernel synchronizes beyond barriers */
  uint32_t nslots; /* blocks with clock entries (sync.h) */
  int phased;      /* blocks may wait for one another (interp_grid.c) */
  struct ip_taint *tt; /* the taint track and given buffer contents, or
                          NULL (interp_taint.c) */
  int taint;           /* cfg->taint: track what the fill decides */
  struct tex_watch *tw; /* --texture pairs (interp_tex.c) */
  uint32_t ntw;
  size_t stop_seen; /* findings cfg->stop has been asked about */
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

static inline aucs_dim3 coords(uint32_t lin, aucs_dim3 dims) {
  return (aucs_dim3){lin % dims.x, lin / dims.x % dims.y,
                     lin / dims.x / dims.y};
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
static inline uint32_t sync_slot(const run *R, uint64_t lin) {
  uint64_t nblocks = (uint64_t)R->grid.x * R->grid.y * R->grid.z;
  if (nblocks <= R->nslots)
    return (uint32_t)lin;
  if (lin + 1 == nblocks)
    return R->nslots - 1;
  return lin < R->nslots - 1 ? (uint32_t)lin : UINT32_MAX;
}

static inline uint64_t *regs_of(thread *T) { return T->regs + T->base; }

/* Private to the interpreter: hidden, so calls stay direct (-fPIC). */
#pragma GCC visibility push(hidden)

/* interp.c */
int ip_run_warp(run *R, uint32_t w0, uint32_t w1);

/* interp_mem.c */
int ip_first_time(run *R, aucs_finding_kind k, uint32_t a, uint32_t b);
/* T's access r races with e had T taken the lock first (locks.c): r was
 * not fenced before T's release (at_release), or e after its acquire.
 * Reported with r first: the repair puts a fence before r's release or
 * before e. */
void ip_lock_race(run *R, thread *T, const robj *o, uint64_t off,
                  aucs_shadow_rec e, uint32_t eblk, aucs_shadow_rec r,
                  unsigned n, int at_release);
aucs_access ip_side(run *R, uint32_t pc, uint32_t tid, uint32_t blk, aucs_op op,
                    unsigned size);
void ip_push(run *R, aucs_finding *f, const robj *o, uint64_t off);
int ip_stop(run *R, thread *T, aucs_run_status st, const char *why);
int ip_charge(run *R, thread *T, uint64_t bytes);
int ip_touch(run *R, thread *T, uint32_t pc, uint64_t ptr, uint64_t n, int mode,
             int atomic, unsigned char *buf);
void ip_pagemap_free(pagemap *m);
void ip_reset_shared(run *R);
int ip_init_objects(run *R);
/* res->leaf_read from the marks and the aggregates' bytes read. */
void ip_leaves_read(run *R);
void ip_fill(run *R, uint32_t id, uint64_t off, unsigned char *p, uint64_t n);
/* An arbitrary value for T at pc (OP_NONDET): 8 bytes of the run's fill,
 * keyed by the thread, its block, pc and the steps T has taken. */
uint64_t ip_nondet(run *R, const thread *T, uint32_t pc, uint64_t steps);

/* interp_tex.c */
uint32_t ip_handle_param(const run *R, uint64_t h);
uint32_t ip_texture_site(const run *R, const thread *T, uint32_t pc);
void ip_tex(run *R, thread *T, uint32_t pc, const bc_insn *I, uint64_t *r);
void ip_tex_watch(run *R);
void ip_tex_write(run *R, thread *T, uint32_t pc, uint32_t id, uint64_t off,
                  uint64_t n);
void ip_tex_finish(run *R);
int ip_surf(run *R, thread *T, uint32_t pc, const bc_insn *I, uint64_t *r);

/* interp_sched.c */
void ip_collective(run *R, uint32_t w0, uint32_t w1, uint32_t pc);
void ip_enter_block(run *R, uint64_t lin);
int ip_block_steps(run *R);
int ip_run_block(run *R, uint64_t lin);
void ip_spin_deadlock(run *R, thread *T);
void ip_run_grid(run *R);

/* interp_taint.c */
void ip_taint_init(run *R);
void ip_taint_free(run *R);
/* A thread's taint registers and rejoin stack (a grid-synced block's). */
void ip_taint_thread_free(thread *T);
void ip_taint_step(run *R, thread *T, const bc_insn *I, uint32_t pc);
void ip_taint_call(run *R, thread *T, const bc_insn *I, uint32_t nb,
                   const bc_func *F);
void ip_taint_reset(run *R, thread *T);
void ip_taint_page(run *R, thread *T, uint32_t id, page *pg, uint64_t at,
                   uint64_t n, int write);
void ip_taint_flat(run *R, thread *T, uint32_t id, uint64_t off, uint64_t n,
                   int write);
void ip_taint_findings(run *R, aucs_findings *fs);
/* 1 when the run found each of cfg->taint_until and each depends on
 * filled data already (never for more than 32 findings). */
int ip_taint_settled(run *R);
void ip_data_page(run *R, uint32_t id, uint64_t pno, page *pg);

/* locks.c: the discipline of spin locks */
typedef enum ip_lock_verdict {
  IP_LOCK_CLOCKS,  /* not two critical sections of one lock: ask sync.c */
  IP_LOCK_ORDERED, /* ordered both ways round, until r's release */
  IP_LOCK_RACE,    /* a fence (or its scope) is missing on one side */
  IP_LOCK_RACE_BACK /* the same, had r's thread taken the lock first: e
                       follows no fence after its acquire */
} ip_lock_verdict;
enum { IP_LOCK_RMW, IP_LOCK_CAS, IP_LOCK_XCHG }; /* how ip_lock_rmw wrote */
/* An atomic of T at pc changed ptr from old to nv: a lock's acquire (a
 * compare-and-swap, an exchange of 0) or its holder's release. */
void ip_lock_rmw(run *R, thread *T, uint32_t pc, uint64_t ptr, uint64_t imm,
                 int how, uint64_t old, uint64_t nv);
/* T stored v at ptr: its lock's release when it writes the free value. */
void ip_lock_store(run *R, thread *T, uint32_t pc, uint64_t ptr, uint64_t imm,
                   uint64_t v);
void ip_lock_fence(thread *T, int scope);
/* Is an access of n bytes at ptr by T one of a critical section? */
int ip_lock_inside(const thread *T, uint64_t ptr, uint64_t n);
/* The earlier access e (of block eblk) and T's access r conflict. */
ip_lock_verdict ip_lock_judge(const run *R, const thread *T, uint32_t eblk,
                              aucs_shadow_rec e, aucs_shadow_rec r);
/* An ordered pair waits for r's release (then ip_lock_race if unfenced). */
void ip_lock_defer(thread *T, const robj *o, uint64_t off, aucs_shadow_rec e,
                   uint32_t eblk, aucs_shadow_rec r, unsigned n);
/* The sentence naming the lock of a race of e and r, or NULL (free);
 * at_release: r was left unfenced before T's release (ip_lock_defer). */
char *ip_lock_sentence(const run *R, const thread *T, uint32_t eblk,
                       aucs_shadow_rec e, aucs_shadow_rec r, int at_release);
void ip_locks_free(run *R);

/* interp_grid.c */
void ip_run_grid_synced(run *R, uint64_t first, uint64_t nblocks);

#pragma GCC visibility pop

#endif
