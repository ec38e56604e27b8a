/*
 * shadow: the memory-access model of the interpreter (DESIGN.md 5.1).
 *
 * Every tracked byte has a cell that remembers, for the current barrier
 * epoch and the one before it, the last writer and up to two readers of
 * different threads. An access is checked against the cell in O(1):
 *   1. If the cell was last touched in an older epoch, shift it (the
 *      current entries become the previous ones when the epochs are
 *      adjacent, are dropped otherwise).
 *   2. A conflict is two accesses by different threads, at least one a
 *      write, not both atomic. A conflict with a current-epoch entry is a
 *      race; with a previous-epoch entry it means the barrier between the two
 *      epochs ordered a conflicting pair.
 *   3. Record the access (writes replace the writer; reads fill a free reader
 *      slot, keeping readers of two distinct threads).
 * Global memory has a second cell for the whole launch, keyed by block, for
 * races between blocks (blocks run one after the other, so the launch-wide
 * cell sees every block's accesses in turn).
 *
 * Warp rules: two threads of one warp never conflict under the lockstep
 * model; under independent scheduling they do, unless a __syncwarp
 * separated them (their warp phases, the count of __syncwarp passed in the
 * epoch, differ).
 *
 * Limitation: only the last writer and two readers are kept, so of several
 * racing pairs on one byte only some are reported.
 */
#ifndef AUCS_SHADOW_H
#define AUCS_SHADOW_H

#include "aucs/finding.h"
#include <stdint.h>

/* One access, packed: pc (24 bits), thread + 1 (11 bits, 0: no access),
 * atomic, write, warp phase (16 bits). */
typedef uint64_t aucs_shadow_rec;

enum {
  AUCS_SHADOW_MAX_PC = (1u << 24) - 1,
  AUCS_SHADOW_MAX_THREADS = 2047,
};

static inline aucs_shadow_rec aucs_shadow_rec_make(uint32_t pc, uint32_t tid,
                                                   int write, int atomic,
                                                   unsigned wphase) {
  return (uint64_t)(pc & AUCS_SHADOW_MAX_PC) | (uint64_t)(tid + 1) << 24 |
         (uint64_t)(atomic != 0) << 35 | (uint64_t)(write != 0) << 36 |
         (uint64_t)(wphase & 0xffff) << 40;
}
static inline uint32_t aucs_shadow_rec_pc(aucs_shadow_rec r) {
  return (uint32_t)(r & AUCS_SHADOW_MAX_PC);
}
static inline uint32_t aucs_shadow_rec_tid(aucs_shadow_rec r) {
  return (uint32_t)((r >> 24) & 0x7ff) - 1;
}
static inline int aucs_shadow_rec_atomic(aucs_shadow_rec r) {
  return (int)((r >> 35) & 1);
}
static inline int aucs_shadow_rec_write(aucs_shadow_rec r) {
  return (int)((r >> 36) & 1);
}
static inline unsigned aucs_shadow_rec_wphase(aucs_shadow_rec r) {
  return (unsigned)((r >> 40) & 0xffff);
}
/* Bits for the synchronization model (sync.h): the thread's release number
 * at the access (bits 56-63), a block-scoped atomic (bit 37), an atomic
 * or volatile access (bit 38). */
static inline aucs_shadow_rec aucs_shadow_rec_sync(aucs_shadow_rec r,
                                                   uint32_t rel, int narrow,
                                                   int strong) {
  return r | (uint64_t)(rel > 255 ? 255 : rel) << 56 |
         (uint64_t)(narrow != 0) << 37 | (uint64_t)(strong != 0) << 38;
}
/* Atomic or volatile (recorded only when the kernel synchronizes). */
static inline int aucs_shadow_rec_strong(aucs_shadow_rec r) {
  return (int)((r >> 38) & 1);
}
static inline uint32_t aucs_shadow_rec_rel(aucs_shadow_rec r) {
  return (uint32_t)(r >> 56);
}
static inline int aucs_shadow_rec_narrow(aucs_shadow_rec r) {
  return (int)((r >> 37) & 1);
}
/* Made inside a critical section (bit 39; the locks of interp/locks.c). */
static inline aucs_shadow_rec aucs_shadow_rec_lock(aucs_shadow_rec r) {
  return r | (uint64_t)1 << 39;
}
static inline int aucs_shadow_rec_locked(aucs_shadow_rec r) {
  return (int)((r >> 39) & 1);
}
/* READ, WRITE or ATOMIC, for reports. */
aucs_op aucs_shadow_rec_op(aucs_shadow_rec r);

/* Per byte, within one block. Zero-initialise. */
typedef struct aucs_shadow_cell {
  uint32_t epoch; /* epoch of w, r1, r2; 0: never touched */
  aucs_shadow_rec w, r1, r2;
  aucs_shadow_rec pw, pr1, pr2; /* epoch - 1 */
} aucs_shadow_cell;

/* Per byte of global memory, across the blocks of a launch. */
typedef struct aucs_shadow_grid_cell {
  uint32_t wblk, r1blk, r2blk; /* linear block id + 1; 0: none */
  uint32_t wep, r1ep, r2ep;    /* their barrier epochs within their block */
  aucs_shadow_rec w, r1, r2;
} aucs_shadow_grid_cell;

typedef struct aucs_shadow_hit {
  aucs_shadow_rec race; /* conflicting access of this epoch, or 0 */
  /* a write's race with the last writer: a reader of this epoch it races
   * with too (the write-write race hides it), or 0 */
  aucs_shadow_rec reader;
  int ordered; /* conflicts with an access of epoch - 1 */
} aucs_shadow_hit;

/* Check access r at epoch (>= 1) against c, then record it. */
void aucs_shadow_access(aucs_shadow_cell *c, uint32_t epoch, aucs_shadow_rec r,
                        int lockstep, aucs_shadow_hit *hit);

/* Check access r by block (linear id) against c, then record it. Returns
 * the conflicting access of another block (its block in *other_block), or
 * 0. */
aucs_shadow_rec aucs_shadow_grid_access(aucs_shadow_grid_cell *c,
                                        uint32_t block, aucs_shadow_rec r,
                                        uint32_t *other_block);

/* The same, for an access in barrier epoch ep of its block; the conflicting
 * access's epoch in *other_ep. Two atomics conflict when one is
 * block-scoped (aucs_shadow_rec_narrow): its scope does not reach the
 * other block. */
aucs_shadow_rec aucs_shadow_grid_access_ep(aucs_shadow_grid_cell *c,
                                           uint32_t block, uint32_t ep,
                                           aucs_shadow_rec r,
                                           uint32_t *other_block,
                                           uint32_t *other_ep);

#endif
