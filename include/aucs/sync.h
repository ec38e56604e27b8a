/*
 * sync: happens-before from fences and atomics, beyond block barriers
 * (DESIGN.md 8; the model and its limits: docs/decisions.md, "Synchronization
 * model").
 *
 * Barrier epochs already order the accesses of one block. This module adds
 * the order that a release read by an acquire creates, per PTX's memory
 * model: a release is an atomic with release semantics, or a fence followed
 * by a strong write (atomic or volatile store, atomic read-modify-write); an
 * acquire is an atomic with acquire semantics, or a strong read followed by
 * a fence (a block barrier counts as one). The two must be morally strong:
 * a block-scoped operation synchronizes only threads of its own block.
 *
 * Clocks are vectors over the simulated blocks. Entry b of a thread's clock
 * is a frontier in block b: every access of block b in a barrier epoch
 * before `ep`, and the accesses of thread `tid` of that epoch made before
 * its release number `q`, happen before the thread's next access. A
 * synchronization object (an address that a release wrote) holds the clock
 * that the release published; an acquire reading it joins it. Joining two
 * frontiers of one epoch but different threads keeps one of them, so the
 * order is under-approximated: a race may be reported that a full vector
 * clock would excuse, never the reverse.
 *
 * A second clock per thread and object assumes every strong write is a
 * release and every strong read an acquire: a race that it orders and the
 * real clock does not is a hand-off that lacks a fence (missing-fence).
 */
#ifndef AUCS_SYNC_H
#define AUCS_SYNC_H

#include <stdint.h>

/* Scopes, narrowest first (cluster counts as block: the safe side). */
enum { AUCS_SCOPE_BLOCK = 1, AUCS_SCOPE_DEVICE = 2, AUCS_SCOPE_SYSTEM = 3 };

/* Blocks with clock entries: the first AUCS_SYNC_SLOTS - 1 and the last;
 * the accesses of others are ordered by nothing but barriers. */
enum { AUCS_SYNC_SLOTS = 32 };

/* Saturated release numbers never count as "before" (rec bits are few). */
enum { AUCS_SYNC_REL_MAX = 255 };

typedef struct aucs_sync_front {
  uint32_t ep;  /* barrier epoch + 1; 0: nothing */
  uint32_t tid; /* the releasing thread of that epoch */
  uint32_t q;   /* its accesses with release number < q */
} aucs_sync_front;

/* Per thread; zero-initialise, aucs_sync_thread_reset between blocks. */
typedef struct aucs_sync_thread {
  uint32_t rel;     /* releases so far: the number its accesses carry */
  uint32_t fence_q; /* release number of the last fence, 0: none */
  uint8_t fence_scope;
  uint8_t fenced;     /* a fence instruction (not only barriers) ran */
  aucs_sync_front *c; /* clock: what happens before the next access */
  aucs_sync_front *p; /* read by strong reads, acquired at the next fence */
  aucs_sync_front *w; /* as if every strong write released and every
                         strong read acquired: for missing-fence */
} aucs_sync_thread;

typedef struct aucs_sync aucs_sync;

aucs_sync *aucs_sync_new(uint32_t nslots);
void aucs_sync_free(aucs_sync *s);
void aucs_sync_thread_reset(aucs_sync *s, aucs_sync_thread *t);
void aucs_sync_thread_free(aucs_sync_thread *t);

/* The release number an access of t records (saturated). */
static inline uint32_t aucs_sync_rel(const aucs_sync_thread *t) {
  return t->rel < AUCS_SYNC_REL_MAX ? t->rel : AUCS_SYNC_REL_MAX;
}

/* Does t's clock cover the access of thread tid of block slot, made in
 * barrier epoch ep with release number rel? */
int aucs_sync_covers(const aucs_sync *s, const aucs_sync_thread *t,
                     uint32_t slot, uint32_t ep, uint32_t tid, uint32_t rel);

/* The same question as if every strong write were a release and every
 * strong read an acquire (of their scopes): an order that only a fence is
 * missing for. */
int aucs_sync_covers_unfenced(const aucs_sync *s, const aucs_sync_thread *t,
                              uint32_t slot, uint32_t ep, uint32_t tid,
                              uint32_t rel);

/* A fence of scope by t (a block barrier is one of block scope). */
void aucs_sync_fence(aucs_sync *s, aucs_sync_thread *t, int scope);

/* A strong read of addr by t of block slot: acquire (1: the operation has
 * acquire semantics; 0: pending until t's next fence). */
void aucs_sync_read(aucs_sync *s, aucs_sync_thread *t, uint64_t addr,
                    uint32_t slot, int scope, int acquire);

/* A strong write of addr by thread tid of block slot in barrier epoch ep;
 * release: the operation has release semantics; rmw: it continues the
 * release sequence of the value it replaced. */
void aucs_sync_write(aucs_sync *s, aucs_sync_thread *t, uint64_t addr,
                     uint32_t slot, uint32_t ep, uint32_t tid, int scope,
                     int release, int rmw);

/* Did a release ever publish a clock at addr? */
int aucs_sync_published(aucs_sync *s, uint64_t addr);

/* Block barrier: gather every thread's clock, then scatter the join. */
void aucs_sync_barrier_gather(aucs_sync *s, aucs_sync_thread *t, int first);
void aucs_sync_barrier_scatter(aucs_sync *s, aucs_sync_thread *t);

#endif
