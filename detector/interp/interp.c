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
 * Grids above max_threads run their first blocks and their last block;
 * so does a grid of more than three blocks whose run passed sample_steps
 * (after at least two blocks): the blocks not yet run are left out but the
 * last.
 *
 * Limitation: one schedule; warp collectives ignore their member mask (the
 * threads present at the instruction take part); named barriers and
 * barrier thread counts are modelled as whole-block barriers.
 *
 * Files: interp.c (the dispatch loop, a warp's run, the public API),
 * interp_mem.c (memory, shadow checks, findings), interp_sched.c (warp
 * collectives, barriers, blocks), interp_grid.c; interp_impl.h shares the state.
 */
#include "interp_impl.h"

/* ---- values ---- */

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

/* llvm.{u,s}{add,sub}.sat of width w. */
static uint64_t saturating(unsigned op, uint64_t a, uint64_t b, unsigned w) {
  uint64_t m = mask_of(w), u;
  int64_t s, lo = w >= 64 ? INT64_MIN : -((int64_t)1 << (w - 1)),
             hi = w >= 64 ? INT64_MAX : ((int64_t)1 << (w - 1)) - 1;
  int of;
  switch (op) {
  case OP_UADDSAT:
    of = __builtin_add_overflow(a, b, &u);
    return of || u > m ? m : u;
  case OP_USUBSAT:
    return a > b ? a - b : 0;
  case OP_SADDSAT:
    of = __builtin_add_overflow(sx(a, w), sx(b, w), &s);
    break;
  default: /* OP_SSUBSAT */
    of = __builtin_sub_overflow(sx(a, w), sx(b, w), &s);
    break;
  }
  if (of) /* past 64 bits: the sign of the exact result is b's (add) */
    s = (op == OP_SADDSAT) == (sx(b, w) >= 0) ? hi : lo;
  return (uint64_t)(s < lo ? lo : s > hi ? hi : s) & m;
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

/* ---- memory instructions ---- */

/* touch's atomic argument for flags imm: 2 for a block-scoped atomic. */
static int atomic_arg(uint64_t imm) {
  if (!(imm & MEM_ATOMIC))
    return imm & MEM_VOLATILE ? 3 : 0;
  return MEM_SCOPE(imm) == AUCS_SCOPE_BLOCK ? 2 : 1;
}

static int load(run *R, thread *T, uint32_t pc, uint64_t ptr, unsigned n,
                int atomic, uint64_t *v) {
  unsigned char b[8];
  int rc = ip_touch(R, T, pc, ptr, n, M_READ, atomic, b);
  uint64_t x = 0;
  memcpy(&x, b, n); /* little-endian host */
  *v = x;
  return rc < 0;
}

static int store(run *R, thread *T, uint32_t pc, uint64_t ptr, unsigned n,
                 int mode, int atomic, uint64_t v) {
  unsigned char b[8];
  memcpy(b, &v, n); /* little-endian host */
  return ip_touch(R, T, pc, ptr, n, mode, atomic, b) < 0;
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
  int rc =
      ip_touch(R, T, pc, r[I->a], I->x, load ? M_READ : M_WRITE, atomic, b);
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
  int rc = ip_touch(R, T, pc, ptr, I->x, M_RMW, 1 + narrow, b);
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
    if (R->sy)
      ip_lock_rmw(R, T, pc, ptr, I->imm, IP_LOCK_CAS, old,
                  r[I->c] & mask_of(8 * I->x));
    return 0;
  }
  r[I->d] = old;
  uint64_t nv = rmw_apply(I->c, old, r[I->b], I->x);
  int spin = strong_read(R, T, pc, ptr, I->imm, old);
  if (store(R, T, pc, ptr, I->x, M_RAW_WRITE, 1, nv))
    return 1;
  strong_write(R, T, ptr, I->imm, 1);
  if (R->sy)
    ip_lock_rmw(R, T, pc, ptr, I->imm,
                I->c == RMW_XCHG ? IP_LOCK_XCHG : IP_LOCK_RMW, old,
                nv & mask_of(8 * I->x));
  /* atomicAdd(p, 0) polling: no progress, even between the polls that
   * yield (ip_touch counted the store unless it was to a local) */
  if (nv == old && (uint32_t)(ptr >> AUCS_PTR_SHIFT) < R->local0)
    R->writes--;
  return spin && nv == old ? 2 : 0;
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
    int rc = I->op == OP_MEMSET
                 ? 0
                 : ip_touch(R, T, pc, src + at, k, M_READ, 0, buf);
    if (!rc)
      rc = ip_touch(R, T, pc, dst + at, k, M_WRITE, 0, buf);
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
  if (ip_charge(R, T, cap - T->stack_cap))
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
      ip_stop(R, T, AUCS_RUN_MEMORY_BUDGET,
              "an alloca exceeds the memory budget");
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
    return ip_stop(R, T, AUCS_RUN_TRAP, "calls nest deeper than 1024 frames");
  if (nb + F->nslots > T->regcap) {
    size_t cap = (nb + F->nslots) * 2;
    if (ip_charge(R, T, (cap - T->regcap) * 8))
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
  if (R->taint)
    ip_taint_call(R, T, I, nb, F);
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
  return ip_stop(R, T, AUCS_RUN_TRAP, why);
}

/* The input is outside the kernel's precondition: the run is discarded. */
static int violated(run *R, thread *T, uint32_t pc) {
  T->pc = pc;
  R->res->assumption = R->p->instr[pc];
  return ip_stop(R, T, AUCS_RUN_ASSUME, "the input violates llvm.assume");
}

/* ---- budgets ---- */

/* Steps, over all threads, between two checks of the run's budget
 * (budget.h): about a millisecond of interpretation. */
#define BUDGET_TICK (1u << 16)

uint64_t aucs_interp_run_steps(aucs_launch l, uint64_t max_threads) {
  uint64_t n = (uint64_t)l.grid.x * l.grid.y * l.grid.z * l.block.x *
               l.block.y * l.block.z;
  uint64_t cap = max_threads ? max_threads : AUCS_INTERP_MAX_THREADS;
  n = n < cap ? n : cap;
  uint64_t steps = n * AUCS_INTERP_RUN_STEPS_PER_THREAD;
  return steps > AUCS_INTERP_RUN_STEPS_MIN ? steps : AUCS_INTERP_RUN_STEPS_MIN;
}

/* The steps T may take before its step budget or the next budget check. */
static uint64_t slice(const run *R, const thread *T) {
  uint64_t left = R->step_budget > T->steps ? R->step_budget - T->steps : 0;
  return left < R->tick ? left : R->tick;
}

/* cfg->stop: 1 when it asks to stop at a finding added since the last
 * check. */
static int stop_asked(run *R) {
  const aucs_findings *fs = &R->res->findings;
  for (; R->stop_seen < fs->n; R->stop_seen++)
    if (R->cfg->stop(R->cfg->stop_ctx, &fs->v[R->stop_seen]))
      return 1;
  return 0;
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
    ip_stop(R, T, AUCS_RUN_STEP_BUDGET, why);
    return 0;
  }
  R->tick = BUDGET_TICK;
  if (R->cfg->run_steps && R->res->thread_instructions >= R->cfg->run_steps) {
    char why[128];
    snprintf(why, sizeof why,
             "the run passed its budget of %llu thread instructions "
             "(--run-budget)",
             (unsigned long long)R->cfg->run_steps);
    ip_stop(R, T, AUCS_RUN_STEP_BUDGET, why);
    return 0;
  }
  if (aucs_budget_check(R->cfg->budget)) {
    char *why = aucs_budget_why(R->cfg->budget);
    ip_stop(R, T, AUCS_RUN_BUDGET, why);
    free(why);
    return 0;
  }
  if (R->cfg->taint_until && ip_taint_settled(R)) {
    ip_stop(R, T, AUCS_RUN_SETTLED, "every finding replayed is settled");
    return 0;
  }
  if (R->cfg->stop && stop_asked(R)) {
    ip_stop(R, T, AUCS_RUN_STOPPED, "the finding waited for was found");
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
    if (R->taint)
      ip_taint_step(R, T, I, pc);
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
    case OP_UADDSAT:
    case OP_SADDSAT:
    case OP_USUBSAT:
    case OP_SSUBSAT:
      r[I->d] = saturating(I->op, A, B, I->x);
      break;
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
    case OP_CVT:
      r[I->d] = aucs_cvt(I->x, A);
      break;
    case OP_NONDET:
      r[I->d] = ip_nondet(R, T, pc, T->steps + start - left) & mask_of(I->x);
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
      if (T->lk)
        ip_lock_store(R, T, pc, A, I->imm, B & mask_of(8 * I->x));
      break;
    case OP_TEX:
      ip_tex(R, T, pc, I, r);
      break;
    case OP_SURF:
      T->pc = pc;
      if (ip_surf(R, T, pc, I, r)) {
        ev = EV_FATAL;
        goto out;
      }
      break;
    case OP_FENCE:
      if (R->sy)
        aucs_sync_fence(R->sy, &T->sy, I->x);
      if (T->lk)
        ip_lock_fence(T, I->x);
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
    case OP_MARK:
      R->pread[I->a] = 1;
      left++; /* not a step: budgets count the kernel's own */
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
    case OP_EXIT:
      T->state = DONE;
      T->end_pc = pc;
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

/* Run warp [w0, w1) until each thread waits at a barrier or is done. */
int ip_run_warp(run *R, uint32_t w0, uint32_t w1) {
  for (;;) {
    for (uint32_t t = w0; t < w1; t++)
      if (R->th[t].state == RUN && run_thread(R, &R->th[t]) == EV_FATAL)
        return 1;
    uint32_t t = w0;
    while (t < w1 && R->th[t].state != AT_WARP)
      t++;
    if (t == w1)
      return 0;
    ip_collective(R, w0, w1, R->th[t].pc);
  }
}

/* ---- runs ---- */

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

static void run_free(run *R) {
  ip_taint_free(R);
  for (uint32_t id = 1; id < R->p->nobjs && R->objs; id++) {
    free(R->objs[id].data);
    free(R->objs[id].rd);
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
  ip_locks_free(R);
  if (R->cfg->keep_memory) {
    aucs_run_memory *m = aucs_xcalloc(1, sizeof(*m));
    *m = (aucs_run_memory){R->pages, R->cfg->seed, R->cfg->fill, R->p};
    R->res->memory = m;
  } else {
    ip_pagemap_free(&R->pages);
  }
  free(R->seen.keys);
  free(R->differ.keys);
  free(R->objs);
  free(R->th);
  free(R->args);
  free(R->pread);
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
  R.pread = aucs_xcalloc(p->nparams + 1, 1);
  sync_setup(&R);
  ip_tex_watch(&R);
  if (!ip_init_objects(&R))
    ip_run_grid(&R);
  ip_taint_findings(&R, &res->findings);
  ip_tex_finish(&R);
  ip_leaves_read(&R);
  run_free(&R);
  return res->status;
}
