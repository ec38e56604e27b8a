/*
 * interp_taint: which values of a run come from buffer contents aucs
 * invented, and the buffer contents the user gave (--buffer-data).
 *
 * The fill gives every byte of a pointer parameter's buffer a value nobody
 * chose: a tree walk over filled nodes, a merge over filled sample ranks,
 * neighbour lists of filled box indices follow garbage. A finding whose
 * addresses come from such bytes says nothing about the kernel on the
 * inputs its host passes. With cfg->taint, each run keeps a mask of input
 * buffers per value (one bit per pointer leaf, 62 at most, the rest share
 * the last) and one bit VARYING (computed from the thread index):
 *   1. A load's value gets the address's mask; each byte it reads that lies
 *      in a pointer leaf's buffer, was never written by the run and is not
 *      given adds that buffer's bit; bytes a store wrote carry the stored
 *      value's mask (per byte: tainted or not; per page or object: the
 *      union of the masks stored there).
 *   2. Every other instruction: the union of its operands' masks (calls
 *      pass them to parameters, returns back); tid, laneid and warpid reads
 *      and atomics' results are VARYING.
 *   3. A branch on a value that is VARYING and tainted (which threads take
 *      it depends on filled data) taints the thread's control until its
 *      paths join: the branch's immediate post-dominator (in the same
 *      frame), the frame's return, or a barrier.
 *   4. Each memory access adds its address's mask and the control mask to
 *      its instruction's; barriers and the thread's return add the control
 *      mask. An out-of-bounds access or a divergence depends on filled data
 *      when one of its instructions does; a race when both do (a side free
 *      of filled data is a real access: the data only chooses which of its
 *      bytes the other side hits). Its buffers are the union of both.
 *
 * Limitation: implicit flows other than rule 3 are not followed (a value
 * selected by a branch on data, a uniform loop bound read from data); the
 * masks are per instruction, not per execution (an instruction that once
 * used filled data marks every finding it is part of); aggregate
 * parameters' and module globals' bytes are not sources.
 */
#pragma GCC diagnostic ignored "-Wunused-function" /* coords() */
#include "interp_impl.h"

#include "aucs/cfg.h"

#define VARYING (UINT64_C(1) << 63)
enum { NBITS = 62 };

typedef struct flat {
  uint8_t *tb; /* per byte: holds a stored tainted value */
  uint64_t cap, mask;
} flat;

struct ip_taint {
  uint32_t *obj_leaf;  /* per object: the pointer leaf + 1, or 0 */
  uint8_t *obj_bit;    /* per object: its bit + 1, or 0 */
  uint32_t bit_leaf[NBITS]; /* per bit: the (first) leaf with it */
  uint64_t *pc_mask;   /* per pc */
  uint32_t first[NBITS]; /* per bit: the pc + 1 of its first filled read */
  flat *flats;         /* per object of the run, not sparse */
  LLVMBasicBlockRef *rejoin; /* per pc of a branch: where its paths join */
  unsigned char *rejoin_done;
  aucs_cfg **cfgs; /* per function of the program, built on demand */
  struct settle *settle; /* cfg->taint_until's progress, built on demand */
};

void ip_taint_init(run *R) {
  const aucs_prog *p = R->p;
  R->taint = R->cfg->taint;
  if (!R->taint && !R->cfg->buffer_data)
    return;
  struct ip_taint *t = aucs_xcalloc(1, sizeof *t);
  t->obj_leaf = aucs_xcalloc(p->nobjs + 1, sizeof *t->obj_leaf);
  t->obj_bit = aucs_xcalloc(p->nobjs + 1, 1);
  uint32_t k = 0;
  for (size_t i = 0; p->inputs && i < p->inputs->n; i++) {
    uint32_t id = p->leaf_obj[i];
    if (!id || id >= p->nobjs)
      continue;
    t->obj_leaf[id] = (uint32_t)i + 1;
    t->obj_bit[id] = (uint8_t)(k < NBITS ? k : NBITS - 1) + 1;
    if (k < NBITS)
      t->bit_leaf[k] = (uint32_t)i;
    k++;
  }
  if (R->taint) {
    t->pc_mask = aucs_xcalloc(p->ncode + 1, sizeof *t->pc_mask);
    t->flats = aucs_xcalloc(R->nobjs + 1, sizeof *t->flats);
    t->rejoin = aucs_xcalloc(p->ncode + 1, sizeof *t->rejoin);
    t->rejoin_done = aucs_xcalloc(p->ncode + 1, 1);
    t->cfgs = aucs_xcalloc(p->nfuncs + 1, sizeof *t->cfgs);
  }
  R->tt = t;
}

void ip_taint_thread_free(thread *T) {
  free(T->tt.tm);
  free(T->tt.rj);
  T->tt = (ip_tthread){0};
}

static void settle_free(struct settle *st);

void ip_taint_free(run *R) {
  struct ip_taint *t = R->tt;
  for (uint32_t t2 = 0; t2 < R->nthreads && R->th; t2++)
    ip_taint_thread_free(&R->th[t2]);
  if (!t)
    return;
  for (uint32_t f = 0; t->cfgs && f < R->p->nfuncs; f++)
    if (t->cfgs[f])
      aucs_cfg_free(t->cfgs[f]);
  free(t->cfgs);
  free(t->rejoin);
  free(t->rejoin_done);
  for (uint32_t id = 0; t->flats && id < R->nobjs; id++)
    free(t->flats[id].tb);
  free(t->flats);
  free(t->pc_mask);
  settle_free(t->settle);
  free(t->obj_leaf);
  free(t->obj_bit);
  free(t);
  R->tt = NULL;
}

/* ---- given contents ---- */

/* The leaf whose buffer object id is, or -1. */
static long leaf_of(const run *R, uint32_t id) {
  return R->tt && id < R->p->nobjs && R->tt->obj_leaf[id]
             ? (long)R->tt->obj_leaf[id] - 1
             : -1;
}

static uint64_t given_bytes(const run *R, long leaf) {
  return leaf >= 0 && R->cfg->buffer_data && R->cfg->buffer_data[leaf]
             ? R->cfg->buffer_data_bytes[leaf]
             : 0;
}

void ip_data_page(run *R, uint32_t id, uint64_t pno, page *pg) {
  long leaf = leaf_of(R, id);
  uint64_t have = given_bytes(R, leaf);
  uint64_t at = pno * PAGE - AUCS_PTR_BIAS; /* the page's first offset */
  if (!have || at >= have)
    return;
  uint64_t n = have - at < PAGE ? have - at : PAGE;
  memcpy(pg->data, R->cfg->buffer_data[leaf] + at, n);
}

/* ---- registers ---- */

static void grow(thread *T) {
  ip_tthread *t = &T->tt;
  if (t->cap >= T->regcap)
    return;
  t->tm = aucs_xrealloc(t->tm, T->regcap * sizeof *t->tm);
  memset(t->tm + t->cap, 0, (T->regcap - t->cap) * sizeof *t->tm);
  t->cap = T->regcap;
}

void ip_taint_reset(run *R, thread *T) {
  if (!R->taint)
    return;
  grow(T);
  memset(T->tt.tm, 0, T->tt.cap * sizeof *T->tt.tm);
  T->tt.ctl = T->tt.val = T->tt.load = 0;
  T->tt.nd = T->tt.nrj = 0;
}

/* ---- control: the divergent branches on data a thread is under ---- */

/* Where the paths of the branch at pc (in function fi) join: the immediate
 * post-dominator of its block; NULL when that is the function's return. */
static LLVMBasicBlockRef rejoin_of(run *R, uint32_t fi, uint32_t pc) {
  struct ip_taint *t = R->tt;
  if (t->rejoin_done[pc])
    return t->rejoin[pc];
  t->rejoin_done[pc] = 1;
  LLVMValueRef br = R->p->instr[pc];
  if (!br || !LLVMIsAInstruction(br))
    return NULL;
  if (!t->cfgs[fi])
    t->cfgs[fi] = aucs_cfg_build(R->p->funcs[fi].fn);
  const aucs_cfg *c = t->cfgs[fi];
  int b = aucs_cfg_index(c, LLVMGetInstructionParent(br));
  int ip = b >= 0 ? c->ipdom[b] : AUCS_CFG_NONE;
  t->rejoin[pc] = ip >= 0 ? c->blocks[ip] : NULL;
  return t->rejoin[pc];
}

static void recompute_ctl(ip_tthread *t) {
  t->ctl = 0;
  for (uint32_t i = 0; i < t->nrj; i++)
    t->ctl |= t->rj[i].mask;
}

static void push_rejoin(ip_tthread *t, LLVMBasicBlockRef at, uint32_t depth,
                        uint64_t mask) {
  for (uint32_t i = 0; i < t->nrj; i++)
    if (t->rj[i].at == at && t->rj[i].depth == depth) {
      t->rj[i].mask |= mask; /* a loop's exit branch, again */
      t->ctl |= mask;
      return;
    }
  if (t->nrj == t->caprj) {
    t->caprj = t->caprj ? t->caprj * 2 : 8;
    t->rj = aucs_xrealloc(t->rj, t->caprj * sizeof *t->rj);
  }
  t->rj[t->nrj++] = (ip_rejoin){at, depth, mask};
  t->ctl |= mask;
}

/* Drop the branches whose paths join at block bb (in frame depth), or, bb
 * NULL, at the return of that frame. */
static void pop_rejoin(ip_tthread *t, LLVMBasicBlockRef bb, uint32_t depth) {
  uint32_t k = 0;
  for (uint32_t i = 0; i < t->nrj; i++)
    if (!(t->rj[i].depth == depth && (bb == NULL || t->rj[i].at == bb)))
      t->rj[k++] = t->rj[i];
  if (k == t->nrj)
    return;
  t->nrj = k;
  recompute_ctl(t);
}

static void rejoined(run *R, thread *T, uint32_t pc) {
  LLVMValueRef I = R->p->instr[pc];
  if (I && LLVMIsAInstruction(I))
    pop_rejoin(&T->tt, LLVMGetInstructionParent(I), T->depth);
}

void ip_taint_call(run *R, thread *T, const bc_insn *I, uint32_t nb,
                   const bc_func *F) {
  if (!R->taint)
    return;
  grow(T);
  uint64_t *m = T->tt.tm, args[64];
  uint32_t ob = T->base; /* the caller's frame */
  uint32_t n = I->c < F->nparams ? I->c : F->nparams;
  for (uint32_t i = 0; i < n && i < 64; i++)
    args[i] = m[ob + R->p->pool[I->b + i]];
  memset(m + nb, 0, F->nslots * sizeof *m);
  for (uint32_t i = 0; i < n && i < 64; i++)
    m[nb + F->params[i]] = args[i];
}

static void access(run *R, thread *T, uint32_t pc, uint64_t addr) {
  R->tt->pc_mask[pc] |= (addr | T->tt.ctl) & ~VARYING;
  T->tt.val = T->tt.load = 0;
}

static void pend(thread *T, uint32_t d, uint32_t n, uint64_t addr) {
  T->tt.dst = T->base + d;
  T->tt.nd = n;
  T->tt.load = addr;
}

static void branch(run *R, thread *T, uint32_t pc, uint64_t c) {
  if ((c & VARYING) && (c & ~VARYING))
    push_rejoin(&T->tt, rejoin_of(R, T->fn, pc), T->depth, c & ~VARYING);
}

static uint64_t pooled(const run *R, const uint64_t *m, uint32_t at,
                       uint32_t n) {
  uint64_t x = 0;
  for (uint32_t i = 0; i < n; i++)
    x |= m[R->p->pool[at + i]];
  return x;
}

static uint64_t lanes(const uint64_t *m, uint32_t at, uint32_t n) {
  uint64_t x = 0;
  for (uint32_t i = 0; i < n; i++)
    x |= m[at + i];
  return x;
}

static int varying_sreg(unsigned x) {
  return x == SR_TID_X || x == SR_TID_Y || x == SR_TID_Z || x == SR_LANEID ||
         x == SR_WARPID || (x >= SR_LANEMASK_EQ && x <= SR_LANEMASK_GE);
}

/* Memory instructions: the address's mask, the value written, the load's
 * destination. */
static void memory(run *R, thread *T, const bc_insn *I, uint32_t pc,
                   uint64_t *m) {
  switch ((bc_op)I->op) {
  case OP_LOAD:
    access(R, T, pc, m[I->a]);
    pend(T, I->d, 1, m[I->a]);
    break;
  case OP_ALOAD:
    access(R, T, pc, m[I->a]);
    pend(T, I->d, I->c, m[I->a]);
    break;
  case OP_STORE:
    access(R, T, pc, m[I->a]);
    T->tt.val = m[I->b];
    break;
  case OP_ASTORE:
    access(R, T, pc, m[I->a]);
    T->tt.val = lanes(m, I->b, I->c);
    break;
  case OP_RMW:
  case OP_CMPXCHG:
    access(R, T, pc, m[I->a]);
    T->tt.val = m[I->b] | (I->op == OP_CMPXCHG ? m[I->c] : 0);
    pend(T, I->d, I->op == OP_CMPXCHG ? 2 : 1, m[I->a] | VARYING);
    break;
  case OP_MEMCPY:
  case OP_MEMMOVE:
    access(R, T, pc, m[I->a] | m[I->b]);
    break;
  case OP_MEMSET:
    access(R, T, pc, m[I->a]);
    T->tt.val = m[I->b];
    break;
  default:
    break;
  }
}

static void repack(uint64_t *m, const bc_insn *I) {
  uint32_t in = I->x ? I->b / I->x : 1, out = I->imm ? I->b / I->imm : 1;
  uint64_t x = lanes(m, I->a, in);
  for (uint32_t i = 0; i < out; i++)
    m[I->d + i] = x;
}

static void control(run *R, thread *T, const bc_insn *I, uint32_t pc,
                    uint64_t *m) {
  switch ((bc_op)I->op) {
  case OP_CBR:
  case OP_SWITCH:
    branch(R, T, pc, m[I->a]);
    break;
  case OP_BARRIER:
    R->tt->pc_mask[pc] |= T->tt.ctl;
    T->tt.ctl = 0;
    T->tt.nrj = 0;
    if (I->x != BAR_PLAIN) /* a reduction: one value for the block */
      m[I->d] = m[I->a] & ~VARYING;
    break;
  case OP_RET:
    if (T->depth == 0) {
      R->tt->pc_mask[pc] |= T->tt.ctl;
      break;
    }
    pop_rejoin(&T->tt, NULL, T->depth);
    frame f = T->frames[T->depth - 1];
    for (uint32_t i = 0; i < I->x; i++)
      T->tt.tm[f.base + f.dst + i] = m[I->a + i];
    break;
  case OP_EXIT:
    R->tt->pc_mask[pc] |= T->tt.ctl;
    break;
  case OP_SREG:
    m[I->d] = varying_sreg(I->x) ? VARYING : 0;
    break;
  case OP_NONDET: /* may differ by thread; no filled data */
    m[I->d] = VARYING;
    break;
  case OP_WARP:
    if (I->x == W_SYNCWARP)
      break;
    m[I->d] = m[I->a] | m[I->b] | m[I->c] | VARYING;
    if (I->imm & W_PRED)
      m[I->d + 1] = m[I->d];
    break;
  case OP_ALLOCA:
    m[I->d] = 0;
    break;
  case OP_GRID:
    if (I->x == GRID_POLL)
      m[I->d] = 0;
    break;
  default:
    memory(R, T, I, pc, m);
  }
}

void ip_taint_step(run *R, thread *T, const bc_insn *I, uint32_t pc) {
  grow(T);
  ip_tthread *t = &T->tt;
  for (uint32_t k = 0; k < t->nd; k++)
    t->tm[t->dst + k] = t->load;
  t->nd = 0;
  if (t->nrj)
    rejoined(R, T, pc);
  uint64_t *m = t->tm + T->base;
  bc_op op = (bc_op)I->op;
  if (op == OP_MOV || op == OP_TRUNC || op == OP_SEXT || op == OP_ADDI ||
      (op >= OP_ABS && op <= OP_BITREV) || op == OP_FNEG32 || op == OP_FNEG64 ||
      op == OP_FABS32 || op == OP_FABS64 || (op >= OP_F32TOSI && op <= OP_CVT))
    m[I->d] = m[I->a];
  else if ((op >= OP_ADD && op <= OP_SSUBSAT) ||
           (op >= OP_ICMP_EQ && op <= OP_ICMP_SGE) ||
           (op >= OP_FADD32 && op <= OP_FMAX64 && op != OP_FNEG32 &&
            op != OP_FNEG64 && op != OP_FABS32 && op != OP_FABS64) ||
           op == OP_GEP)
    m[I->d] = m[I->a] | m[I->b];
  else if (op == OP_FSHL || op == OP_FSHR || op == OP_SELECT ||
           op == OP_FMA32 || op == OP_FMA64)
    m[I->d] = m[I->a] | m[I->b] | m[I->c];
  else if (op == OP_OVF)
    m[I->d] = m[I->d + 1] = m[I->a] | m[I->b];
  else if (op == OP_LIBCALL)
    m[I->d] = pooled(R, m, I->b, I->c);
  else if (op == OP_VEXTRACT)
    m[I->d] = (regs_of(T)[I->b] < I->c ? m[I->a + regs_of(T)[I->b]] : 0) |
              m[I->b];
  else if (op == OP_VINSERT) {
    if (regs_of(T)[I->b] < I->c)
      m[I->d + regs_of(T)[I->b]] = m[I->a] | m[I->b];
  } else if (op == OP_REPACK)
    repack(m, I);
  else
    control(R, T, I, pc, m);
}

/* ---- memory ---- */

static int bit_set(const uint8_t *bits, uint64_t i) {
  return bits[i / 8] >> (i % 8) & 1;
}

static void set_bit(uint8_t *bits, uint64_t i, int v) {
  if (v)
    bits[i / 8] |= (uint8_t)(1u << (i % 8));
  else
    bits[i / 8] &= (uint8_t)~(1u << (i % 8));
}

/* A filled byte read from object id: its bit, and where first. */
static uint64_t source(run *R, thread *T, uint32_t id) {
  unsigned k = R->tt->obj_bit[id] - 1u;
  if (!R->tt->first[k])
    R->tt->first[k] = T->pc + 1;
  return UINT64_C(1) << k;
}

void ip_taint_page(run *R, thread *T, uint32_t id, page *pg, uint64_t at,
                   uint64_t n, int write) {
  if (!R->taint)
    return;
  uint64_t in = at % PAGE, off = at - AUCS_PTR_BIAS;
  uint64_t v = (T->tt.val | T->tt.load) & ~VARYING;
  if (write) {
    for (uint64_t i = in; i < in + n; i++) {
      set_bit(pg->wr, i, 1);
      set_bit(pg->tb, i, v != 0);
    }
    pg->tmask |= v;
    return;
  }
  long leaf = leaf_of(R, id);
  uint64_t have = given_bytes(R, leaf);
  for (uint64_t i = 0; i < n; i++) {
    if (bit_set(pg->tb, in + i))
      T->tt.load |= pg->tmask;
    else if (leaf >= 0 && !bit_set(pg->wr, in + i) && off + i >= have)
      T->tt.load |= source(R, T, id);
  }
}

void ip_taint_flat(run *R, thread *T, uint32_t id, uint64_t off, uint64_t n,
                   int write) {
  if (!R->taint || id >= R->nobjs)
    return;
  flat *f = &R->tt->flats[id];
  uint64_t v = (T->tt.val | T->tt.load) & ~VARYING;
  if (f->cap < off + n) {
    if (!write || !v)
      goto read;
    uint64_t cap = (off + n) * 2;
    f->tb = aucs_xrealloc(f->tb, cap);
    memset(f->tb + f->cap, 0, cap - f->cap);
    f->cap = cap;
  }
  if (write) {
    memset(f->tb + off, v != 0, n);
    f->mask |= v;
    return;
  }
read:
  for (uint64_t i = off; i < off + n && i < f->cap; i++)
    if (f->tb[i]) {
      T->tt.load |= f->mask;
      return;
    }
}

/* ---- findings ---- */

/* The taint of each IR instruction: the union over its bytecode pcs. */
static void masks_by_instr(const run *R, aucs_ptrmap *m) {
  for (uint32_t pc = 0; pc < R->p->ncode; pc++) {
    intptr_t x = 0;
    if (!R->p->instr[pc] || !R->tt->pc_mask[pc])
      continue;
    aucs_ptrmap_get(m, R->p->instr[pc], &x);
    aucs_ptrmap_put(m, R->p->instr[pc],
                    (intptr_t)((uint64_t)x | R->tt->pc_mask[pc]));
  }
}

static uint64_t mask_of_instr(const aucs_ptrmap *m, LLVMValueRef I) {
  intptr_t x = 0;
  return I && aucs_ptrmap_get(m, I, &x) ? (uint64_t)x : 0;
}

static const char *leaf_name(const run *R, unsigned k) {
  const aucs_inputs *in = R->p->inputs;
  uint32_t i = R->tt->bit_leaf[k];
  return in && i < in->n ? in->v[i].p.name : "?";
}

/* The buffers finding f depends on (masks a, b of its instructions), or 0:
 * a race with one side free of filled data is real (the data only chooses
 * which of that side's bytes the other hits). */
static uint64_t depends(const aucs_finding *f, uint64_t a, uint64_t b) {
  int pair = f->kind != AUCS_FINDING_OUT_OF_BOUNDS &&
             f->kind != AUCS_FINDING_BARRIER_DIVERGENCE && f->b.instr;
  return pair && (!a || !b) ? 0 : a | b;
}

static void taint_finding(run *R, const aucs_ptrmap *m, aucs_finding *f) {
  if (f->kind == AUCS_FINDING_REDUNDANT_BARRIER || f->data_dependent)
    return;
  uint64_t x =
      depends(f, mask_of_instr(m, f->a.instr), mask_of_instr(m, f->b.instr));
  if (!x)
    return;
  aucs_buf names = {0}, at = {0};
  for (unsigned k = 0; k < NBITS; k++) {
    if (!(x >> k & 1))
      continue;
    aucs_buf_printf(&names, "%s%s", names.len ? " " : "", leaf_name(R, k));
    char *loc = R->tt->first[k]
                    ? aucs_srcloc_format(R->p->instr[R->tt->first[k] - 1])
                    : aucs_xstrdup("?");
    aucs_buf_printf(&at, "%s%s", at.len ? " " : "", loc);
    free(loc);
  }
  f->data_dependent = aucs_buf_take(&names);
  f->data_loads = aucs_buf_take(&at);
}

/* cfg->taint_until (at most SETTLE_MAX findings): which were found, how
 * many of the run's findings were looked at, and the pcs of each one's
 * instructions (want i's a side: pcs[at[2i], at[2i+1]), b side: up to
 * at[2i+2]), so that a check costs the new findings and those pcs only. */
enum { SETTLE_MAX = 32 };

struct settle {
  size_t seen;
  uint32_t found;
  uint32_t *pcs;
  size_t at[2 * SETTLE_MAX + 1];
};

static void settle_free(struct settle *st) {
  if (st)
    free(st->pcs);
  free(st);
}

static void pcs_of(const run *R, LLVMValueRef I, uint32_t **pcs, size_t *n) {
  for (uint32_t pc = 0; I && pc < R->p->ncode; pc++)
    if (R->p->instr[pc] == I) {
      *pcs = aucs_xrealloc(*pcs, (*n + 1) * sizeof **pcs);
      (*pcs)[(*n)++] = pc;
    }
}

static struct settle *settle_new(const run *R, const aucs_findings *want) {
  struct settle *st = aucs_xcalloc(1, sizeof *st);
  size_t n = 0;
  for (size_t i = 0; i < want->n; i++) {
    st->at[2 * i] = n;
    pcs_of(R, want->v[i].a.instr, &st->pcs, &n);
    st->at[2 * i + 1] = n;
    pcs_of(R, want->v[i].b.instr, &st->pcs, &n);
  }
  st->at[2 * want->n] = n;
  return st;
}

static uint64_t pcs_mask(const run *R, const struct settle *st, size_t from,
                         size_t to) {
  uint64_t x = 0;
  for (size_t k = from; k < to; k++)
    x |= R->tt->pc_mask[st->pcs[k]];
  return x;
}

int ip_taint_settled(run *R) {
  const aucs_findings *want = R->cfg->taint_until;
  if (!R->taint || !R->tt || !want || !want->n || want->n > SETTLE_MAX)
    return 0;
  struct settle *st = R->tt->settle;
  if (!st)
    st = R->tt->settle = settle_new(R, want);
  const aucs_findings *fs = &R->res->findings;
  for (; st->seen < fs->n; st->seen++)
    for (size_t i = 0; i < want->n; i++)
      if (aucs_finding_same(&fs->v[st->seen], &want->v[i]))
        st->found |= UINT32_C(1) << i;
  if (st->found != (UINT32_C(1) << (want->n - 1) << 1) - 1)
    return 0;
  for (size_t i = 0; i < want->n; i++)
    if (!depends(&want->v[i], pcs_mask(R, st, st->at[2 * i], st->at[2 * i + 1]),
                 pcs_mask(R, st, st->at[2 * i + 1], st->at[2 * i + 2])))
      return 0;
  return 1;
}

void ip_taint_findings(run *R, aucs_findings *fs) {
  if (!R->taint || !fs->n)
    return;
  aucs_ptrmap m = {0};
  masks_by_instr(R, &m);
  for (size_t i = 0; i < fs->n; i++)
    taint_finding(R, &m, &fs->v[i]);
  aucs_ptrmap_free(&m);
}
