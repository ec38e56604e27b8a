/*
 * interp_sched: the canonical schedule of interp.c (steps 3-4 there): the
 * threads of a warp waiting at a collective exchange values; block barriers
 * release (divergence, reductions, a new epoch); blocks run one after
 * another, or in phases (interp_grid.c) when they wait for one another. The
 * warp loop itself (step 2) is in interp.c, beside the dispatch loop.
 */
#include "interp_impl.h"

/* ---- warp collectives ---- */

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
void ip_collective(run *R, uint32_t w0, uint32_t w1, uint32_t pc) {
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
      th[t].wmask[th[t].wphase & 7] = here;
      th[t].wphase++;
      R->res->warp_syncs++;
      if (here != (uint32_t)((1ull << (w1 - w0)) - 1))
        R->partial_wsync = 1;
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

/* ---- barriers ---- */

static void divergence(run *R, thread *a, thread *b, int returned) {
  uint32_t pa = a->pc, pb = returned ? b->end_pc : b->pc;
  if (!ip_first_time(R, AUCS_FINDING_BARRIER_DIVERGENCE, pa, pb))
    return;
  aucs_finding f = {.kind = AUCS_FINDING_BARRIER_DIVERGENCE};
  f.a = ip_side(R, pa, a->tid, R->blk, AUCS_OP_READ, 0);
  f.b = ip_side(R, pb, b->tid, R->blk, AUCS_OP_READ, 0);
  f.message = aucs_xasprintf(
      returned ? "barrier divergence: thread (%u,%u,%u) waits at a barrier "
                 "that thread (%u,%u,%u) never reaches: it returned"
               : "barrier divergence: thread (%u,%u,%u) and thread "
                 "(%u,%u,%u) wait at different barriers",
      f.a.thread.x, f.a.thread.y, f.a.thread.z, f.b.thread.x, f.b.thread.y,
      f.b.thread.z);
  ip_push(R, &f, NULL, 0);
}

/* Report the release's divergence; 1 when threads wait at different
 * barriers. */
static int check_divergence(run *R, thread *first) {
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
  return other != NULL;
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
  /* Threads released from different barriers are not ordered by them
   * (barrier divergence is undefined behaviour): the epoch of race
   * checking stays, so an access before the release and a conflicting
   * one after it still meet in one epoch. */
  int apart = check_divergence(R, first);
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
    R->res->barriers_passed++;
    T->state = RUN;
    T->pc++;
    T->wphase = 0;
  }
  R->bepoch++;
  if (!apart)
    R->epoch++, R->sync_from = R->bepoch;
}

/* ---- blocks and runs ---- */

static int reset_threads(run *R) {
  const bc_func *K = &R->p->funcs[0];
  for (uint32_t t = 0; t < R->nthreads; t++) {
    thread *T = &R->th[t];
    if (T->regcap < K->nslots) {
      if (ip_charge(R, T, (K->nslots - T->regcap) * 8))
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
                  .sy = T->sy,
                  .tt = T->tt};
    ip_taint_reset(R, T);
    if (R->sy && T->sy.c) /* else allocated at its first sync operation */
      aucs_sync_thread_reset(R->sy, &T->sy);
    else
      T->sy = (aucs_sync_thread){0};
  }
  return 0;
}

/* Make block lin the current one, in a fresh epoch. */
void ip_enter_block(run *R, uint64_t lin) {
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
void ip_spin_deadlock(run *R, thread *T) {
  ip_stop(R, T, AUCS_RUN_TRAP,
          "spins on a value that no other thread or block changes: the launch "
          "deadlocks");
}

/* Run the current block's threads until each is done (0), or until its
 * master waits at a grid barrier or its spinners wait for another block
 * (1; the others wait behind them). */
int ip_block_steps(run *R) {
  uint64_t mark = R->writes;
  unsigned idle = 0;
  wake_spinners(R);
  for (;;) {
    for (uint32_t w0 = 0; w0 < R->nthreads; w0 += 32) {
      uint32_t w1 = w0 + 32 < R->nthreads ? w0 + 32 : R->nthreads;
      if (ip_run_warp(R, w0, w1))
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
      ip_spin_deadlock(R, spinner);
      return 0;
    }
    if (!waiting)
      return 0;
    release(R);
  }
}

int ip_run_block(run *R, uint64_t lin) {
  ip_enter_block(R, lin);
  R->bepoch = R->sync_from = 0;
  R->res->blocks_run++;
  R->res->threads_run += R->nthreads;
  ip_reset_shared(R);
  if (reset_threads(R))
    return 0;
  return ip_block_steps(R);
}

void ip_run_grid(run *R) {
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
    ip_run_grid_synced(R, first, nblocks);
    return;
  }
  uint64_t sample = R->cfg->sample_steps ? R->cfg->sample_steps
                                          : AUCS_INTERP_SAMPLE_STEPS;
  uint64_t b = 0;
  for (; b < first && !R->res->status; b++) {
    if (b >= 2 && b + 1 < nblocks && R->res->thread_instructions >= sample) {
      R->res->sampled_after = b;
      break;
    }
    ip_run_block(R, b);
  }
  if (b < nblocks && !R->res->status)
    ip_run_block(R, nblocks - 1);
}
