/*
 * interp_grid: the grid barrier of cooperative groups (this_grid().sync()).
 * It runs on the interpreter's private state (interp_impl.h).
 *
 * Blocks are simulated one after another, but a grid barrier needs every
 * block to arrive before any goes on. A kernel that syncs its grid (the
 * lowering met the workspace of cooperative_groups/details/sync.h: the
 * %envreg1:%envreg2 address, atom.add.release.gpu on its barrier word, the
 * ld.acquire.gpu poll) runs in phases:
 *   1. Each simulated block runs until it ends or its master thread arrives
 *      at the grid barrier (AT_GRID; the block's other threads wait at the
 *      block barrier behind it). A waiting block keeps its threads (an
 *      array of its own) and its shared memory (saved) for the next phase.
 *   2. When every block waits, the barrier releases: each master's arrival
 *      returns the barrier word, whose top bit then flips (what the masters
 *      poll for), and the launch-wide shadow cells are forgotten: every
 *      access before the barrier is ordered before every access after it,
 *      in any two blocks. Each block resumes in a fresh epoch, so its own
 *      accesses before the barrier are ordered too.
 *   3. When some blocks wait and another ended, no release can come: the
 *      launch deadlocks, and the run ends there (a trap naming both).
 *
 * Spins (sync.h, interp_sched.c's block_steps) reuse the phases: a block whose
 * threads spin on a value no thread of it will change waits like a block at
 * the grid barrier, and the next phase resumes it after the other blocks
 * ran. A phase in which no block wrote memory while some spin is a
 * deadlock: the run ends there, naming a spinning thread.
 *
 * Limitation: only the sm_70 form of the grid sync is recognised; a grid
 * above the thread cap is the blocks the interpreter simulates (its first
 * ones and its last), which all arrive. The launch must be cooperative
 * (every block resident at once); the report says so.
 */
#include "interp_impl.h"

typedef struct gblock {
  thread *th;            /* the block's threads */
  unsigned char *shared; /* its shared memory, saved while it waits */
  uint32_t bepoch;
  int64_t last_barrier; /* the block barrier before the arrival */
  int waiting;          /* its master waits at the grid barrier */
} gblock;

static uint64_t shared_bytes(const run *R) {
  uint64_t n = 0;
  for (uint32_t id = 1; id < R->p->nobjs; id++)
    if (R->objs[id].o->space == AUCS_MEM_SHARED)
      n += R->objs[id].size;
  return n;
}

/* Copy the shared objects into buf (save) or back from it. */
static void swap_shared(run *R, unsigned char *buf, int save) {
  for (uint32_t id = 1; id < R->p->nobjs; id++) {
    robj *o = &R->objs[id];
    if (o->o->space != AUCS_MEM_SHARED)
      continue;
    if (save)
      memcpy(buf, o->data, o->size);
    else
      memcpy(o->data, buf, o->size);
    buf += o->size;
  }
}

static int save_block(run *R, gblock *b) {
  b->bepoch = R->bepoch;
  b->last_barrier = R->last_barrier;
  if (!b->shared) {
    uint64_t n = shared_bytes(R);
    if (ip_charge(R, &R->th[0], n))
      return 1;
    b->shared = aucs_xmalloc(n + 1);
  }
  swap_shared(R, b->shared, 1);
  return 0;
}

/* Make waiting block b (block lin) the current one again. */
static void resume_block(run *R, gblock *b, uint64_t lin) {
  R->th = b->th;
  ip_enter_block(R, lin);
  R->bepoch = R->sync_from = b->bepoch; /* in a fresh epoch */
  swap_shared(R, b->shared, 0);
  for (uint32_t t = 0; t < R->nthreads; t++) {
    robj *o = &R->objs[R->local0 + t];
    o->data = R->th[t].stack;
    o->size = R->th[t].stack_cap;
  }
}

/* Forget the launch-wide shadow cells: what came before is ordered. */
static void forget_grid_cells(run *R) {
  for (uint32_t id = 1; id < R->p->nobjs; id++)
    if (R->objs[id].g)
      memset(R->objs[id].g, 0, R->objs[id].size * sizeof(*R->objs[id].g));
  for (size_t j = 0; j < R->pages.cap; j++)
    if (R->pages.keys[j])
      memset(R->pages.pages[j]->g, 0, sizeof R->pages.pages[j]->g);
}

/* The block barriers around the arrival are the grid barrier's own: what
 * they order is ordered by it (its release forgets the cells that would
 * show it), so they are never redundant. */
static void grid_barriers_ordered(run *R, const gblock *b) {
  if (b->last_barrier >= 0)
    R->res->barrier_ordered[b->last_barrier] = 1;
  for (uint32_t t = 0; t < R->nthreads; t++)
    if (b->th[t].state == AT_BARRIER)
      R->res->barrier_ordered[R->p->code[b->th[t].pc].imm] = 1;
}

static void grid_release(run *R, gblock *bs, size_t n) {
  for (size_t i = 0; i < n; i++)
    grid_barriers_ordered(R, &bs[i]);
  for (size_t i = 0; i < n; i++)
    for (uint32_t t = 0; t < R->nthreads; t++) {
      thread *T = &bs[i].th[t];
      if (T->state != AT_GRID)
        continue;
      regs_of(T)[R->p->code[T->pc].d] = R->grid_word;
      T->state = RUN;
      T->pc++;
    }
  R->grid_word ^= 0x80000000u;
  forget_grid_cells(R);
}

static uint64_t block_at(size_t i, uint64_t first, uint64_t nblocks) {
  return i < first ? i : nblocks - 1;
}

/* Waiting block w's master names the grid sync block e ended before. */
static void grid_deadlock(run *R, gblock *w, uint64_t wlin, uint64_t elin) {
  resume_block(R, w, wlin);
  aucs_dim3 e = coords((uint32_t)elin, R->grid);
  for (uint32_t t = 0; t < R->nthreads; t++)
    if (R->th[t].state == AT_GRID) {
      char why[160];
      snprintf(why, sizeof why,
               "waits at the grid sync, which block (%u,%u,%u) ended "
               "without reaching: the launch deadlocks",
               e.x, e.y, e.z);
      ip_stop(R, &R->th[t], AUCS_RUN_TRAP, why);
      return;
    }
}

/* One phase: run every block (the first phase) or every waiting one. The
 * number of blocks waiting at the grid barrier after it. */
static size_t grid_phase(run *R, gblock *bs, size_t n, uint64_t first,
                         uint64_t nblocks, int phase) {
  size_t waiting = 0;
  for (size_t i = 0; i < n && !R->res->status; i++) {
    uint64_t lin = block_at(i, first, nblocks);
    if (phase == 0) {
      /* the threads of a block that ended serve the next one, as in a
       * grid without sync (ip_run_block resets them); an ended block never
       * resumes, and the grid barrier releases only when every block
       * waits, so no block without threads is read again */
      if (i && !bs[i - 1].waiting && bs[i - 1].th)
        bs[i].th = bs[i - 1].th, bs[i - 1].th = NULL;
      else
        bs[i].th = aucs_xcalloc(R->nthreads, sizeof(thread));
      R->th = bs[i].th;
      bs[i].waiting = ip_run_block(R, lin);
    } else if (bs[i].waiting) {
      resume_block(R, &bs[i], lin);
      bs[i].waiting = ip_block_steps(R);
    }
    if (bs[i].waiting && !R->res->status && save_block(R, &bs[i]))
      break;
    waiting += (size_t)bs[i].waiting;
  }
  return waiting;
}

static void free_blocks(run *R, gblock *bs, size_t n) {
  for (size_t i = 0; i < n; i++) {
    for (uint32_t t = 0; bs[i].th && t < R->nthreads; t++) {
      free(bs[i].th[t].regs);
      free(bs[i].th[t].frames);
      free(bs[i].th[t].stack);
      aucs_sync_thread_free(&bs[i].th[t].sy);
      ip_taint_thread_free(&bs[i].th[t]);
    }
    free(bs[i].th);
    free(bs[i].shared);
  }
  free(bs);
}

/* A waiting block whose threads spin (none is at the grid barrier), or
 * n. */
static size_t spin_waiter(const run *R, const gblock *bs, size_t n) {
  for (size_t i = 0; i < n; i++) {
    if (!bs[i].waiting)
      continue;
    int at_grid = 0;
    for (uint32_t t = 0; t < R->nthreads; t++)
      at_grid |= bs[i].th[t].state == AT_GRID;
    if (!at_grid)
      return i;
  }
  return n;
}

/* Spinning block w made no progress in a whole phase: end the run. */
static void spin_stuck(run *R, gblock *w, uint64_t lin) {
  resume_block(R, w, lin);
  for (uint32_t t = 0; t < R->nthreads; t++)
    if (R->th[t].state == AT_SPIN) {
      ip_spin_deadlock(R, &R->th[t]);
      return;
    }
}

void ip_run_grid_synced(run *R, uint64_t first, uint64_t nblocks) {
  size_t n = first < nblocks ? first + 1 : nblocks;
  gblock *bs = aucs_xcalloc(n, sizeof *bs);
  thread *own = R->th;
  uint64_t mark = R->writes;
  for (int phase = 0; !R->res->status; phase++) {
    size_t waiting = grid_phase(R, bs, n, first, nblocks, phase);
    if (!waiting || R->res->status)
      break;
    size_t w = spin_waiter(R, bs, n);
    if (w < n) { /* blocks spin: another phase, while blocks write */
      if (R->writes == mark) {
        spin_stuck(R, &bs[w], block_at(w, first, nblocks));
        break;
      }
      mark = R->writes;
      continue;
    }
    if (waiting < n) {
      size_t w = 0, e = 0;
      while (!bs[w].waiting)
        w++;
      while (bs[e].waiting)
        e++;
      grid_deadlock(R, &bs[w], block_at(w, first, nblocks),
                    block_at(e, first, nblocks));
      break;
    }
    grid_release(R, bs, n);
  }
  free_blocks(R, bs, n);
  R->th = own;
}
