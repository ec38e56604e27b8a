/*
 * shadow: per-byte access history and the conflict rules (see shadow.h).
 */
#include "aucs/shadow.h"

aucs_op aucs_shadow_rec_op(aucs_shadow_rec r) {
  if (aucs_shadow_rec_atomic(r))
    return AUCS_OP_ATOMIC;
  return aucs_shadow_rec_write(r) ? AUCS_OP_WRITE : AUCS_OP_READ;
}

/* Different threads, a write among them, not both atomic. */
static int conflict(aucs_shadow_rec e, aucs_shadow_rec r) {
  if (!e || aucs_shadow_rec_tid(e) == aucs_shadow_rec_tid(r))
    return 0;
  if (!aucs_shadow_rec_write(e) && !aucs_shadow_rec_write(r))
    return 0;
  return !(aucs_shadow_rec_atomic(e) && aucs_shadow_rec_atomic(r));
}

static int same_warp(aucs_shadow_rec e, aucs_shadow_rec r) {
  return aucs_shadow_rec_tid(e) / 32 == aucs_shadow_rec_tid(r) / 32;
}

/* A conflict within one epoch that no warp rule excuses. */
static int races(aucs_shadow_rec e, aucs_shadow_rec r, int lockstep) {
  if (!conflict(e, r))
    return 0;
  if (same_warp(e, r) &&
      (lockstep || aucs_shadow_rec_wphase(e) != aucs_shadow_rec_wphase(r)))
    return 0;
  return 1;
}

/* A conflict across the barrier that the barrier (and nothing else) orders. */
static int ordered(aucs_shadow_rec e, aucs_shadow_rec r, int lockstep) {
  return conflict(e, r) && !(lockstep && same_warp(e, r));
}

static void shift(aucs_shadow_cell *c, uint32_t epoch) {
  if (c->epoch + 1 == epoch) {
    c->pw = c->w;
    c->pr1 = c->r1;
    c->pr2 = c->r2;
  } else {
    c->pw = c->pr1 = c->pr2 = 0;
  }
  c->w = c->r1 = c->r2 = 0;
  c->epoch = epoch;
}

static void record(aucs_shadow_cell *c, aucs_shadow_rec r) {
  if (aucs_shadow_rec_write(r)) {
    c->w = r;
  } else if (!c->r1) {
    c->r1 = r;
  } else if (!c->r2 && aucs_shadow_rec_tid(c->r1) != aucs_shadow_rec_tid(r)) {
    c->r2 = r;
  }
}

void aucs_shadow_access(aucs_shadow_cell *c, uint32_t epoch, aucs_shadow_rec r,
                        int lockstep, aucs_shadow_hit *hit) {
  if (c->epoch != epoch)
    shift(c, epoch);
  hit->race = hit->reader = 0;
  hit->ordered = ordered(c->pw, r, lockstep);
  if (races(c->w, r, lockstep))
    hit->race = c->w;
  if (aucs_shadow_rec_write(r) && hit->race) {
    if (races(c->r1, r, lockstep))
      hit->reader = c->r1;
    else if (races(c->r2, r, lockstep))
      hit->reader = c->r2;
  }
  if (aucs_shadow_rec_write(r)) {
    if (!hit->race && races(c->r1, r, lockstep))
      hit->race = c->r1;
    if (!hit->race && races(c->r2, r, lockstep))
      hit->race = c->r2;
    hit->ordered = hit->ordered || ordered(c->pr1, r, lockstep) ||
                   ordered(c->pr2, r, lockstep);
  }
  record(c, r);
}

static int grid_conflict(uint32_t blk, uint32_t me, aucs_shadow_rec e,
                         aucs_shadow_rec r) {
  if (!blk || blk == me)
    return 0;
  if (!(aucs_shadow_rec_atomic(e) && aucs_shadow_rec_atomic(r)))
    return 1;
  return aucs_shadow_rec_narrow(e) || aucs_shadow_rec_narrow(r);
}

aucs_shadow_rec aucs_shadow_grid_access_ep(aucs_shadow_grid_cell *c,
                                           uint32_t block, uint32_t ep,
                                           aucs_shadow_rec r,
                                           uint32_t *other_block,
                                           uint32_t *other_ep) {
  uint32_t me = block + 1;
  aucs_shadow_rec hit = 0;
  uint32_t hb = 0, he = 0;
  if (grid_conflict(c->wblk, me, c->w, r)) {
    hit = c->w;
    hb = c->wblk;
    he = c->wep;
  } else if (aucs_shadow_rec_write(r) &&
             grid_conflict(c->r1blk, me, c->r1, r)) {
    hit = c->r1;
    hb = c->r1blk;
    he = c->r1ep;
  } else if (aucs_shadow_rec_write(r) &&
             grid_conflict(c->r2blk, me, c->r2, r)) {
    hit = c->r2;
    hb = c->r2blk;
    he = c->r2ep;
  }
  if (aucs_shadow_rec_write(r)) {
    c->w = r;
    c->wblk = me;
    c->wep = ep;
  } else if (!c->r1blk) {
    c->r1 = r;
    c->r1blk = me;
    c->r1ep = ep;
  } else if (!c->r2blk && c->r1blk != me) {
    c->r2 = r;
    c->r2blk = me;
    c->r2ep = ep;
  }
  if (other_block)
    *other_block = hb ? hb - 1 : 0;
  if (other_ep)
    *other_ep = he;
  return hit;
}

aucs_shadow_rec aucs_shadow_grid_access(aucs_shadow_grid_cell *c,
                                        uint32_t block, aucs_shadow_rec r,
                                        uint32_t *other_block) {
  return aucs_shadow_grid_access_ep(c, block, 0, r, other_block, NULL);
}
