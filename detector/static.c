/*
 * static: access summaries, barrier intervals and Z3 verdicts for one kernel
 * (DESIGN.md section 5.3; the interface and its bounds are in static.h).
 *
 * Steps:
 *   1. Collect the accesses of the kernel and, at each call of a defined
 *      helper, of the helper in a frame of its own (depth <= 4, no
 *      recursion): object (global / kernel argument / unknown) and space.
 *      An access is anchored at its kernel-level instruction (the call for
 *      a helper's access).
 *   2. Interval starts: the entry and every barrier of the kernel in a
 *      uniform block. From each start, a search over the CFG (back edges
 *      included) marks the anchors reached before any such barrier; every
 *      two conflicting accesses reached from one start form a query. A
 *      second search per loop L tracks the iteration of L each access is
 *      reached in (the start's own iteration, the next one, the first one
 *      of a fresh entry, ...): when both accesses agree, a uniform phi of
 *      L's header is one term for both threads; in the first iteration of a
 *      fresh entry a header phi is its start value.
 *      __syncwarp: when the kernel calls llvm.nvvm.bar.warp.sync with the
 *      constant all-ones mask in a uniform block (directly or through a
 *      helper that is only that call), step 2 runs twice: with the block
 *      barriers (set A) and with those calls as starts and ends of
 *      intervals too (set W, where two threads of one warp meet). A query
 *      in both is asked as it is; one only in A for two threads of
 *      different warps (linear tid / 32 differ); one only in W (its loop
 *      modes differ) for two threads of one warp.
 *      Each query also names its start's region (the barrier-free edges
 *      from the start) when that is acyclic with no loop edge: there both
 *      threads start at one instance of the start and run each block at
 *      most once, so a uniform branch is one term for both.
 *   3. Encode each query over two symbolic threads (step 4) and ask Z3
 *      (smt.h) within the per-query timeout and the kernel's budget. A SAT
 *      query with a region is asked again with each thread's path from the
 *      start to its access (an OR over the region's edges of branch
 *      conditions): UNSAT there decides (a path that skips a barrier only
 *      under a uniform condition the other thread's path contradicts). A SAT
 *      query is asked again under the interpreter's limits (small grid,
 *      arguments in range, one object) for a witness it can replay, with
 *      a quarter of the timeout. Two threads of one block read one set of
 *      ctaid symbols, so blockIdx * blockDim is one term for both.
 *   4. Values: integers and pointers as bit-vectors (pointers 64-bit: an
 *      object's base symbol plus the GEP offset), i1 as Booleans; the
 *      thread's special registers as symbols bounded by the launch; a
 *      join's phi as an if-then-else over its incoming edges' conditions; a
 *      loop header's affine phi as start + k * step (with `nsw`/`nuw`, k is
 *      exact: computed wide and bounded), and for k >= 1 the latch's test
 *      held when the back edge was taken (what bounds a rotated loop's
 *      variable); a toggle (c - i, i ^ m) as its start or the start's
 *      image; floats as bit-vectors of their IEEE bits; a pure library
 *      call, float operation or intrinsic as an uninterpreted function of
 *      its operands (uf.h); anything else a fresh symbol per thread. A
 *      block's guard is its entry condition on the branch DAG. A global index
 *      (blockIdx * blockDim + threadIdx) and a non-wrapping affine phi are
 *      multiples: v = s + k * d exactly; two threads' multiples of one d
 *      get the facts that order them (multiple_lemmas), and such a query
 *      is also tried with its products as unknowns (smt.h), which proves
 *      grid-stride loops.
 *   5. Redundancy of a barrier B: repeat step 2 (both sets) without B;
 *      every query whose group (pair, warps, loop modes; any region)
 *      appears only then is a pair B separates; B is redundant when each
 *      is UNSAT.
 *
 * Limitation: see static.h. Moreover, a loop variable is shared between
 * the two threads when uniform.c deems it uniform, which like uniform.c
 * assumes loads through thread-independent addresses are not racy (a race
 * on such a load is a pair of its own).
 */
#include "aucs/static.h"

#include "aucs/assume.h"
#include "aucs/cfg.h"
#include "aucs/lanes.h"
#include "aucs/nvvm.h"
#include "aucs/srcloc.h"
#include "aucs/uf.h"
#include "aucs/uniform.h"
#include "aucs/util.h"
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Iteration states of a loop along a barrier-free path (step 2). A path
 * that leaves the loop keeps the iteration it left in (ST_LEFT + state):
 * after the loop its header phis hold that iteration's values. */
enum {
  ST_OUT0,   /* not entered since the start (start outside the loop) */
  ST_OUTX,   /* left it since the start, in an ambiguous iteration */
  ST_CUR0,   /* the start's own iteration (start inside the loop) */
  ST_CUR1,   /* the next iteration */
  ST_FRESH0, /* first iteration of the entry since the start */
  ST_FRESH1, /* second iteration of it */
  ST_RE0,    /* first iteration of a later entry */
  ST_AMB,    /* any other */
  ST_LEFT,   /* ST_LEFT + ST_CUR0 .. ST_LEFT + ST_RE0: left in that one */
  NST = ST_LEFT + ST_RE0 + 1
};
typedef uint16_t stset; /* a set of states, bit 1 << state */
_Static_assert(NST <= 16, "stset holds every state");
/* How a side sees a loop's phis: as fresh values (or the loop's induction
 * terms), as their start values, as values both sides share (the same
 * iteration, uniform phis), or as the next iteration's values of the
 * shared ones (this side one iteration on from the other). */
enum { M_FREE, M_START, M_SHARED, M_NEXT };
enum { SP_SHARED = 1, SP_GLOBAL = 2, SP_ANY = 3 };
/* WITNESS_SHARE: a SAT pair's further queries, for a witness within a
 * replay tier (replayable_witness), get this fraction of the timeout each:
 * the verdict is known already, and under the replay limits the overlap is
 * often UNSAT only through products of symbols (blockIdx.x * blockDim.x
 * wrapping around with a huge grid), which the solver proves slowly. */
enum { MAX_DEPTH = 4, NWIT = 18, WITNESS_SHARE = 4 };

typedef struct frame {
  LLVMValueRef fn, call; /* call: the call site in parent; NULL: kernel */
  struct frame *parent;
  aucs_cfg *cfg;
  int id;
} frame;

typedef struct acc {
  LLVMValueRef instr, ptr, len; /* len: a memory intrinsic's byte count */
  frame *f;
  aucs_op op;
  uint64_t size;
  int opaque;        /* unknown extent (external call) */
  LLVMValueRef root; /* global variable or kernel argument, or NULL */
  int space;
  LLVMValueRef anchor; /* kernel-level instruction */
  int next;            /* next access of the same anchor, or -1 */
} acc;

/* Which warps a query's two threads are in. */
enum { WARP_ANY, WARP_APART, WARP_SAME };

typedef struct query {
  char *key;    /* group, then ";region" */
  size_t glen;  /* the group's length: the key without the region */
  int a, b, inter, warp;
  int region;   /* index into aucs_static.regions, or -1: no path condition */
  unsigned char *modes; /* side a's nloops modes, then side b's */
  int asked;
  aucs_static_verdict verdict;
  aucs_static_witness w;
} query;

/* The barrier-free part of the kernel's CFG seen from one interval start
 * (block `block`, from instruction `first`): the edges u -> v (edges[2k],
 * edges[2k + 1]) taken by a thread that reaches u's end. Kept only when
 * acyclic and free of loop edges, so each block in it runs at most once
 * per interval and a branch's value is one term. */
typedef struct region {
  LLVMValueRef first;
  int block;
  int *edges;
  size_t nedges;
} region;

struct aucs_static {
  LLVMValueRef fn;
  LLVMTargetDataRef td;
  aucs_static_options o;
  aucs_cfg *cfg;
  aucs_uniformity *u;
  frame **frames;
  int nframes;
  acc *accs;
  int nacc;
  aucs_ptrmap anchors; /* anchor -> first access + 1 */
  LLVMValueRef *bars;
  size_t nbar;
  unsigned char *bar_sep, *bar_red;
  aucs_ptrmap barmap; /* barrier -> index + 1 */
  LLVMValueRef *warps; /* full-warp __syncwarp calls in uniform blocks */
  size_t nwarp;
  aucs_ptrmap warpmap; /* such a call -> 1 */
  LLVMValueRef *tails; /* calls in uniform blocks of helpers ending in a
                          barrier (ends_in_barrier) */
  size_t ntail;
  aucs_ptrmap tailmap; /* such a call -> 1 */
  query *qs;
  size_t nq;
  region *regions;
  size_t nregions;
  aucs_static_pair *pairs;
  size_t npairs;
  aucs_smt *smt;
  Z3_context z;
  Z3_ast tid[2][3], ctaid[2][3], ntid[3], nctaid[3];
  Z3_ast *params;
  unsigned nparams;
  Z3_ast *launch;
  size_t nlaunch;
  aucs_ptrmap gbase; /* global variable -> base symbol */
  LLVMValueRef *assumes; /* the kernel's preconditions (assume.h) */
  size_t nassume;
  unsigned char *assume_used; /* asserted in some query */
  int trace;
};

/* ---- small helpers ------------------------------------------------------*/

static const char *callee_name(LLVMValueRef call) {
  LLVMValueRef c = LLVMGetCalledValue(call);
  size_t len;
  return c && LLVMIsAFunction(c) ? LLVMGetValueName2(c, &len) : NULL;
}

static LLVMValueRef defined_callee(LLVMValueRef call) {
  LLVMValueRef c = LLVMGetCalledValue(call);
  return c && LLVMIsAFunction(c) && LLVMCountBasicBlocks(c) ? c : NULL;
}

static int is_barrier_call(LLVMValueRef I) {
  return LLVMIsACallInst(I) &&
         aucs_nvvm_is_barrier(aucs_nvvm_classify(callee_name(I)));
}

static int starts_with(const char *s, const char *p) {
  return s && !strncmp(s, p, strlen(p));
}

static int all_ones(LLVMValueRef mask) {
  return LLVMIsAConstantInt(mask) &&
         LLVMConstIntGetZExtValue(mask) == 0xffffffffu;
}

static int calls_warp_sync(LLVMValueRef I) {
  const char *name = I && LLVMIsACallInst(I) ? callee_name(I) : NULL;
  return name && !strcmp(name, "llvm.nvvm.bar.warp.sync");
}

/* The mask of call I when it is llvm.nvvm.bar.warp.sync, or calls a helper
 * whose body is only that call (the CUDA SDK's __syncwarp at -O0): then the
 * helper's constant mask or the call site's operand for its parameter.
 * NULL otherwise. */
static LLVMValueRef warp_sync_mask(LLVMValueRef I) {
  if (calls_warp_sync(I))
    return LLVMGetOperand(I, 0);
  LLVMValueRef f = defined_callee(I);
  LLVMValueRef c = f && LLVMCountBasicBlocks(f) == 1
                       ? LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f))
                       : NULL;
  LLVMValueRef r = c ? LLVMGetNextInstruction(c) : NULL;
  if (!calls_warp_sync(c) || !r || !LLVMIsAReturnInst(r))
    return NULL;
  LLVMValueRef m = LLVMGetOperand(c, 0);
  for (unsigned i = 0; i < LLVMCountParams(f); i++)
    if (LLVMGetParam(f, i) == m)
      return LLVMGetOperand(I, i);
  return LLVMIsAConstant(m) ? m : NULL;
}

/* A __syncwarp() of the whole warp: a warp sync with the all-ones mask. */
static int is_full_warp_sync(LLVMValueRef I) {
  LLVMValueRef mask = LLVMIsACallInst(I) ? warp_sync_mask(I) : NULL;
  return mask && all_ones(mask);
}

static int block_of(const aucs_cfg *cfg, LLVMValueRef I) {
  return aucs_cfg_index(cfg, LLVMGetInstructionParent(I));
}

static uint64_t store_size(const aucs_static *S, LLVMTypeRef t) {
  return LLVMTypeIsSized(t) ? LLVMStoreSizeOfType(S->td, t) : 0;
}

/* ---- step 1: accesses ---------------------------------------------------*/

static int space_of_as(unsigned as) {
  switch (as) {
  case 3:
    return SP_SHARED;
  case 1:
    return SP_GLOBAL;
  case 0:
    return SP_ANY;
  default: /* constant (read-only), local, parameter space */
    return 0;
  }
}

/* The object p points into: a global variable or kernel argument; NULL when
 * unknown. Helper arguments are followed to their call sites. */
static LLVMValueRef root_of(frame *f, LLVMValueRef p) {
  for (int guard = 0; guard < 64; guard++) {
    if (LLVMIsAGlobalVariable(p))
      return p;
    if (LLVMIsAArgument(p)) {
      if (!f->call)
        return p;
      LLVMValueRef fn = f->fn;
      unsigned n = LLVMCountParams(fn), i = 0;
      while (i < n && LLVMGetParam(fn, i) != p)
        i++;
      if (i == n)
        return NULL;
      p = LLVMGetOperand(f->call, i);
      f = f->parent;
      continue;
    }
    LLVMOpcode op = LLVMIsAInstruction(p)    ? LLVMGetInstructionOpcode(p)
                    : LLVMIsAConstantExpr(p) ? LLVMGetConstOpcode(p)
                                             : LLVMRet;
    if (op != LLVMGetElementPtr && op != LLVMAddrSpaceCast &&
        op != LLVMBitCast)
      return NULL;
    p = LLVMGetOperand(p, 0);
  }
  return NULL;
}

static int space_of(LLVMValueRef root, LLVMValueRef ptr) {
  if (root && LLVMIsAGlobalVariable(root)) {
    if (LLVMIsGlobalConstant(root))
      return 0;
    return space_of_as(LLVMGetPointerAddressSpace(LLVMTypeOf(root)));
  }
  if (root) /* a kernel argument: host memory is global */
    return LLVMGetPointerAddressSpace(LLVMTypeOf(root)) == 3 ? SP_SHARED
                                                              : SP_GLOBAL;
  return space_of_as(LLVMGetPointerAddressSpace(LLVMTypeOf(ptr)));
}

static void add_acc(aucs_static *S, frame *f, LLVMValueRef I,
                    LLVMValueRef anchor, LLVMValueRef ptr, aucs_op op,
                    uint64_t size, LLVMValueRef len, int opaque) {
  if (LLVMGetTypeKind(LLVMTypeOf(ptr)) != LLVMPointerTypeKind)
    return;
  LLVMValueRef root = root_of(f, ptr);
  int sp = space_of(root, ptr);
  if (!sp || (root && LLVMIsAAllocaInst(root)))
    return;
  S->accs = aucs_xrealloc(S->accs, (size_t)(S->nacc + 1) * sizeof *S->accs);
  S->accs[S->nacc] = (acc){.instr = I, .ptr = ptr, .len = len, .f = f,
                           .op = op, .size = size, .opaque = opaque,
                           .root = root, .space = sp, .anchor = anchor,
                           .next = -1};
  intptr_t first;
  if (aucs_ptrmap_get(&S->anchors, anchor, &first)) {
    int i = (int)first - 1;
    while (S->accs[i].next >= 0)
      i = S->accs[i].next;
    S->accs[i].next = S->nacc;
  } else
    aucs_ptrmap_put(&S->anchors, anchor, S->nacc + 1);
  S->nacc++;
}

static void collect_fn(aucs_static *S, frame *f, LLVMValueRef anchor);

static frame *new_frame(aucs_static *S, LLVMValueRef fn, LLVMValueRef call,
                        frame *parent) {
  frame *f = aucs_xcalloc(1, sizeof *f);
  *f = (frame){.fn = fn, .call = call, .parent = parent, .id = S->nframes};
  f->cfg = parent ? aucs_cfg_build(fn) : S->cfg;
  S->frames =
      aucs_xrealloc(S->frames, (size_t)(S->nframes + 1) * sizeof *S->frames);
  S->frames[S->nframes++] = f;
  return f;
}

static int depth_of(const frame *f, LLVMValueRef fn) {
  int d = 0;
  for (; f; f = f->parent, d++)
    if (f->fn == fn)
      return MAX_DEPTH + 1; /* recursion */
  return d;
}

/* A call: a helper's accesses in a new frame, an intrinsic's memory
 * operands, or unknown-extent accesses through an unknown callee's
 * pointer arguments. */
static void collect_call(aucs_static *S, frame *f, LLVMValueRef I,
                         LLVMValueRef anchor) {
  const char *name = callee_name(I);
  LLVMValueRef callee = defined_callee(I);
  unsigned n = LLVMGetNumArgOperands(I);
  aucs_nvvm_kind k = aucs_nvvm_classify(name);
  if (callee && depth_of(f, callee) <= MAX_DEPTH) {
    collect_fn(S, new_frame(S, callee, I, f), anchor);
    return;
  }
  if (k == AUCS_NVVM_ATOMIC || k == AUCS_NVVM_LOAD) {
    add_acc(S, f, I, anchor, LLVMGetOperand(I, 0),
            k == AUCS_NVVM_ATOMIC ? AUCS_OP_ATOMIC : AUCS_OP_READ,
            store_size(S, LLVMTypeOf(I)), NULL, 0);
    return;
  }
  if (starts_with(name, "llvm.memcpy") || starts_with(name, "llvm.memmove") ||
      starts_with(name, "llvm.memset")) {
    LLVMValueRef len = LLVMGetOperand(I, 2);
    add_acc(S, f, I, anchor, LLVMGetOperand(I, 0), AUCS_OP_WRITE, 0, len, 0);
    if (!starts_with(name, "llvm.memset"))
      add_acc(S, f, I, anchor, LLVMGetOperand(I, 1), AUCS_OP_READ, 0, len, 0);
    return;
  }
  if (starts_with(name, "llvm.") && !callee)
    return; /* other intrinsics touch no shared or global memory */
  for (unsigned i = 0; i < n; i++)
    add_acc(S, f, I, anchor, LLVMGetOperand(I, i), AUCS_OP_WRITE, 0, NULL, 1);
}

static void collect_instr(aucs_static *S, frame *f, LLVMValueRef I,
                          LLVMValueRef anchor) {
  if (LLVMIsALoadInst(I))
    add_acc(S, f, I, anchor, LLVMGetOperand(I, 0),
            LLVMGetOrdering(I) != LLVMAtomicOrderingNotAtomic ? AUCS_OP_ATOMIC
                                                              : AUCS_OP_READ,
            store_size(S, LLVMTypeOf(I)), NULL, 0);
  else if (LLVMIsAStoreInst(I))
    add_acc(S, f, I, anchor, LLVMGetOperand(I, 1),
            LLVMGetOrdering(I) != LLVMAtomicOrderingNotAtomic ? AUCS_OP_ATOMIC
                                                              : AUCS_OP_WRITE,
            store_size(S, LLVMTypeOf(LLVMGetOperand(I, 0))), NULL, 0);
  else if (LLVMIsAAtomicRMWInst(I) || LLVMIsAAtomicCmpXchgInst(I))
    add_acc(S, f, I, anchor, LLVMGetOperand(I, 0), AUCS_OP_ATOMIC,
            store_size(S, LLVMTypeOf(LLVMGetOperand(I, 1))), NULL, 0);
  else if (LLVMIsACallInst(I) && !is_barrier_call(I))
    collect_call(S, f, I, anchor);
}

static void collect_fn(aucs_static *S, frame *f, LLVMValueRef anchor) {
  for (int b = 0; b < f->cfg->nblocks; b++) {
    if (!f->cfg->reachable[b])
      continue;
    for (LLVMValueRef I = LLVMGetFirstInstruction(f->cfg->blocks[b]); I;
         I = LLVMGetNextInstruction(I))
      collect_instr(S, f, I, anchor ? anchor : I);
  }
}

static void add_barrier(aucs_static *S, LLVMValueRef I, int uniform) {
  S->bars = aucs_xrealloc(S->bars, (S->nbar + 1) * sizeof *S->bars);
  S->bar_sep = aucs_xrealloc(S->bar_sep, S->nbar + 1);
  S->bar_sep[S->nbar] = (unsigned char)uniform;
  S->bars[S->nbar++] = I;
  aucs_ptrmap_put(&S->barmap, I, (intptr_t)S->nbar);
}

static void add_warp_sync(aucs_static *S, LLVMValueRef I) {
  S->warps = aucs_xrealloc(S->warps, (S->nwarp + 1) * sizeof *S->warps);
  S->warps[S->nwarp++] = I;
  aucs_ptrmap_put(&S->warpmap, I, 1);
}

/* A call of a one-block helper whose last act before returning is a
 * barrier (a load_tile(...) that fills a tile and waits): every call runs
 * the barrier after all of the helper's accesses. */
static int ends_in_barrier(LLVMValueRef I) {
  LLVMValueRef f = LLVMIsACallInst(I) ? defined_callee(I) : NULL;
  if (!f || LLVMCountBasicBlocks(f) != 1)
    return 0;
  LLVMValueRef ret = LLVMGetLastInstruction(LLVMGetEntryBasicBlock(f));
  LLVMValueRef last = ret ? LLVMGetPreviousInstruction(ret) : NULL;
  return LLVMIsAReturnInst(ret) && last && is_barrier_call(last);
}

static void add_tail(aucs_static *S, LLVMValueRef I) {
  S->tails = aucs_xrealloc(S->tails, (S->ntail + 1) * sizeof *S->tails);
  S->tails[S->ntail++] = I;
  aucs_ptrmap_put(&S->tailmap, I, 1);
}

/* The kernel's barriers, its full-warp __syncwarp calls in uniform blocks
 * (any other __syncwarp separates nothing) and its calls in uniform blocks
 * of helpers that end in a barrier. */
static void collect_barriers(aucs_static *S) {
  for (int b = 0; b < S->cfg->nblocks; b++) {
    if (!S->cfg->reachable[b])
      continue;
    int uniform = aucs_uniform_block(S->u, b);
    for (LLVMValueRef I = LLVMGetFirstInstruction(S->cfg->blocks[b]); I;
         I = LLVMGetNextInstruction(I)) {
      if (is_barrier_call(I))
        add_barrier(S, I, uniform);
      else if (uniform && is_full_warp_sync(I))
        add_warp_sync(S, I);
      else if (uniform && ends_in_barrier(I))
        add_tail(S, I);
    }
  }
  S->bar_red = aucs_xcalloc(S->nbar + 1, 1);
}

/* ---- symbols and launch bounds ------------------------------------------*/

static Z3_ast bv(Z3_context z, uint64_t v, unsigned w) {
  return Z3_mk_unsigned_int64(z, v, Z3_mk_bv_sort(z, w));
}

static Z3_ast sym(Z3_context z, const char *name, unsigned w) {
  Z3_sort s = w ? Z3_mk_bv_sort(z, w) : Z3_mk_bool_sort(z);
  return Z3_mk_const(z, Z3_mk_string_symbol(z, name), s);
}

static void push_ast(Z3_ast **v, size_t *n, Z3_ast t) {
  *v = aucs_xrealloc(*v, (*n + 1) * sizeof **v);
  (*v)[(*n)++] = t;
}

static void in_range(aucs_static *S, Z3_ast x, uint64_t lo, uint64_t hi) {
  push_ast(&S->launch, &S->nlaunch, Z3_mk_bvuge(S->z, x, bv(S->z, lo, 32)));
  push_ast(&S->launch, &S->nlaunch, Z3_mk_bvule(S->z, x, bv(S->z, hi, 32)));
}

static Z3_ast product(Z3_context z, Z3_ast *d) {
  return Z3_mk_bvmul(z, Z3_mk_bvmul(z, d[0], d[1]), d[2]);
}

static void make_symbols(aucs_static *S) {
  static const char xyz[] = "xyz";
  static const uint64_t block_max[3] = {1024, 1024, 64};
  static const uint64_t grid_max[3] = {2147483647u, 65535, 65535};
  char name[32];
  for (int d = 0; d < 3; d++) {
    snprintf(name, sizeof name, "ntid.%c", xyz[d]);
    S->ntid[d] = sym(S->z, name, 32);
    snprintf(name, sizeof name, "nctaid.%c", xyz[d]);
    S->nctaid[d] = sym(S->z, name, 32);
    in_range(S, S->ntid[d], 1, block_max[d]);
    in_range(S, S->nctaid[d], 1, grid_max[d]);
    for (int t = 0; t < 2; t++) {
      snprintf(name, sizeof name, "tid.%c!%d", xyz[d], t + 1);
      S->tid[t][d] = sym(S->z, name, 32);
      snprintf(name, sizeof name, "ctaid.%c!%d", xyz[d], t + 1);
      S->ctaid[t][d] = sym(S->z, name, 32);
      push_ast(&S->launch, &S->nlaunch,
               Z3_mk_bvult(S->z, S->tid[t][d], S->ntid[d]));
      push_ast(&S->launch, &S->nlaunch,
               Z3_mk_bvult(S->z, S->ctaid[t][d], S->nctaid[d]));
    }
  }
  push_ast(&S->launch, &S->nlaunch,
           Z3_mk_bvule(S->z, product(S->z, S->ntid), bv(S->z, 1024, 32)));
  S->nparams = LLVMCountParams(S->fn);
  S->params = aucs_xcalloc(S->nparams + 1, sizeof *S->params);
  for (unsigned i = 0; i < S->nparams; i++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(S->fn, i));
    snprintf(name, sizeof name, "arg%u", i);
    if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind)
      S->params[i] = sym(S->z, name, LLVMGetIntTypeWidth(t) == 1
                                         ? 0
                                         : LLVMGetIntTypeWidth(t));
    else if (LLVMGetTypeKind(t) == LLVMPointerTypeKind)
      S->params[i] = sym(S->z, name, 64);
    else if (aucs_uf_float_width(t))
      S->params[i] = sym(S->z, name, aucs_uf_float_width(t));
  }
}

/* A dimension the kernel never reads is 1, as in the input search. */
static void unread_dims(aucs_static *S) {
  unsigned block, grid;
  aucs_nvvm_dims_read(S->fn, &block, &grid);
  for (int d = 1; d < 3; d++) {
    if (!(block & (1u << d)))
      push_ast(&S->launch, &S->nlaunch, Z3_mk_eq(S->z, S->ntid[d], bv(S->z, 1, 32)));
    if (!(grid & (1u << d)))
      push_ast(&S->launch, &S->nlaunch,
               Z3_mk_eq(S->z, S->nctaid[d], bv(S->z, 1, 32)));
  }
}

/* The user's fixed launch and arguments. */
static void fix_inputs(aucs_static *S) {
  const aucs_static_options *o = &S->o;
  Z3_context z = S->z;
  uint32_t g[3] = {o->launch.grid.x, o->launch.grid.y, o->launch.grid.z};
  uint32_t b[3] = {o->launch.block.x, o->launch.block.y, o->launch.block.z};
  for (int d = 0; d < 3; d++) {
    if (o->fixed_grid)
      push_ast(&S->launch, &S->nlaunch,
               Z3_mk_eq(z, S->nctaid[d], bv(z, g[d], 32)));
    if (o->fixed_block)
      push_ast(&S->launch, &S->nlaunch,
               Z3_mk_eq(z, S->ntid[d], bv(z, b[d], 32)));
  }
  for (unsigned i = 0; o->fixed_arg && i < S->nparams; i++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(S->fn, i));
    if (!o->fixed_arg[i] || LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
      continue;
    unsigned w = LLVMGetIntTypeWidth(t);
    Z3_ast v = w == 1    ? (o->args[i] & 1 ? Z3_mk_true(z) : Z3_mk_false(z))
               : w <= 64 ? bv(z, o->args[i], w)
                         : NULL;
    if (v)
      push_ast(&S->launch, &S->nlaunch, Z3_mk_eq(z, S->params[i], v));
  }
}

/* ---- step 4: values -----------------------------------------------------*/

/* v = s + k * d, exact over the integers (all four signed, at one width
 * wide enough to hold them): what lets the solver order two threads'
 * multiples without reasoning about products (see multiple_lemmas). */
typedef struct multiple {
  Z3_ast v, s, k, d;
} multiple;

typedef struct multiples {
  multiple *m;
  size_t n;
} multiples;

typedef struct enc {
  aucs_static *S;
  Z3_context z;
  int side;
  int block; /* whose ctaid: side, or 0 when both threads share a block */
  const unsigned char *modes;
  aucs_ptrmap *memo, *ecmemo; /* per frame */
  aucs_ptrmap *shared;        /* uniform phis, both sides */
  Z3_ast **cons;              /* the query's side constraints */
  size_t *ncons;
  multiples *mults; /* this side's */
} enc;

static Z3_ast val(enc *e, frame *f, LLVMValueRef v);
static Z3_ast ec(enc *e, frame *f, int b);

static Z3_sort sort_of(Z3_context z, LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) == LLVMPointerTypeKind)
    return Z3_mk_bv_sort(z, 64);
  if (aucs_uf_float_width(t)) /* a float's IEEE bits (uf.h) */
    return Z3_mk_bv_sort(z, aucs_uf_float_width(t));
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
    return NULL;
  unsigned w = LLVMGetIntTypeWidth(t);
  return w == 1 ? Z3_mk_bool_sort(z) : Z3_mk_bv_sort(z, w);
}

static Z3_ast fresh(enc *e, LLVMTypeRef t) {
  Z3_sort s = sort_of(e->z, t);
  return s ? Z3_mk_fresh_const(e->z, e->side ? "v2" : "v1", s) : NULL;
}

static int is_bool(Z3_context z, Z3_ast t) {
  return Z3_get_sort_kind(z, Z3_get_sort(z, t)) == Z3_BOOL_SORT;
}

static unsigned width(Z3_context z, Z3_ast t) {
  return Z3_get_bv_sort_size(z, Z3_get_sort(z, t));
}

/* t as a w-bit vector: Booleans become 0/1 (-1/0 when sign), narrower
 * vectors are extended, wider ones truncated. */
static Z3_ast resize(Z3_context z, Z3_ast t, unsigned w, int sign) {
  if (is_bool(z, t))
    return Z3_mk_ite(z, t, bv(z, sign ? ~0ull : 1, w), bv(z, 0, w));
  unsigned cur = width(z, t);
  if (cur == w)
    return t;
  if (cur > w)
    return Z3_mk_extract(z, w - 1, 0, t);
  return sign ? Z3_mk_sign_ext(z, w - cur, t) : Z3_mk_zero_ext(z, w - cur, t);
}

static Z3_ast and2(Z3_context z, Z3_ast a, Z3_ast b) {
  Z3_ast v[2] = {a, b};
  return Z3_mk_and(z, 2, v);
}

static Z3_ast or2(Z3_context z, Z3_ast a, Z3_ast b) {
  Z3_ast v[2] = {a, b};
  return Z3_mk_or(z, 2, v);
}

static Z3_ast binop_bool(Z3_context z, LLVMOpcode op, Z3_ast a, Z3_ast b) {
  switch (op) {
  case LLVMAnd:
  case LLVMMul:
    return and2(z, a, b);
  case LLVMOr:
    return or2(z, a, b);
  case LLVMXor:
  case LLVMAdd:
  case LLVMSub:
    return Z3_mk_xor(z, a, b);
  default:
    return NULL;
  }
}

static Z3_ast binop(Z3_context z, LLVMOpcode op, Z3_ast a, Z3_ast b) {
  if (is_bool(z, a))
    return binop_bool(z, op, a, b);
  switch (op) {
  case LLVMAdd:
    return Z3_mk_bvadd(z, a, b);
  case LLVMSub:
    return Z3_mk_bvsub(z, a, b);
  case LLVMMul:
    return aucs_smt_mul(z, a, b); /* blockIdx * blockDim: one term either way */
  case LLVMUDiv:
    return Z3_mk_bvudiv(z, a, b);
  case LLVMSDiv:
    return Z3_mk_bvsdiv(z, a, b);
  case LLVMURem:
    return Z3_mk_bvurem(z, a, b);
  case LLVMSRem:
    return Z3_mk_bvsrem(z, a, b);
  case LLVMShl:
    return Z3_mk_bvshl(z, a, b);
  case LLVMLShr:
    return Z3_mk_bvlshr(z, a, b);
  case LLVMAShr:
    return Z3_mk_bvashr(z, a, b);
  case LLVMAnd:
    return Z3_mk_bvand(z, a, b);
  case LLVMOr:
    return Z3_mk_bvor(z, a, b);
  case LLVMXor:
    return Z3_mk_bvxor(z, a, b);
  default:
    return NULL;
  }
}

static Z3_ast compare(Z3_context z, LLVMIntPredicate p, Z3_ast a, Z3_ast b) {
  a = is_bool(z, a) ? resize(z, a, 1, 0) : a;
  b = is_bool(z, b) ? resize(z, b, 1, 0) : b;
  switch (p) {
  case LLVMIntEQ:
    return Z3_mk_eq(z, a, b);
  case LLVMIntNE:
    return Z3_mk_not(z, Z3_mk_eq(z, a, b));
  case LLVMIntUGT:
    return Z3_mk_bvugt(z, a, b);
  case LLVMIntUGE:
    return Z3_mk_bvuge(z, a, b);
  case LLVMIntULT:
    return Z3_mk_bvult(z, a, b);
  case LLVMIntULE:
    return Z3_mk_bvule(z, a, b);
  case LLVMIntSGT:
    return Z3_mk_bvsgt(z, a, b);
  case LLVMIntSGE:
    return Z3_mk_bvsge(z, a, b);
  case LLVMIntSLT:
    return Z3_mk_bvslt(z, a, b);
  default:
    return Z3_mk_bvsle(z, a, b);
  }
}

static Z3_ast gep(enc *e, frame *f, LLVMValueRef v) {
  Z3_context z = e->z;
  Z3_ast addr = val(e, f, LLVMGetOperand(v, 0));
  LLVMTypeRef t = LLVMGetGEPSourceElementType(v);
  int n = LLVMGetNumOperands(v);
  for (int i = 1; addr && i < n; i++) {
    LLVMValueRef ix = LLVMGetOperand(v, (unsigned)i);
    if (LLVMGetTypeKind(LLVMTypeOf(ix)) != LLVMIntegerTypeKind)
      return NULL;
    if (i > 1 && LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      unsigned k = (unsigned)LLVMConstIntGetZExtValue(ix);
      addr = Z3_mk_bvadd(z, addr,
                         bv(z, LLVMOffsetOfElement(e->S->td, t, k), 64));
      t = LLVMStructGetTypeAtIndex(t, k);
      continue;
    }
    if (i > 1) {
      LLVMTypeKind k = LLVMGetTypeKind(t);
      if (k != LLVMArrayTypeKind && k != LLVMVectorTypeKind)
        return NULL;
      t = LLVMGetElementType(t);
    }
    Z3_ast x = val(e, f, ix);
    if (!x || !LLVMTypeIsSized(t))
      return NULL;
    Z3_ast scaled = Z3_mk_bvmul(z, resize(z, x, 64, 1),
                                bv(z, LLVMABISizeOfType(e->S->td, t), 64));
    addr = Z3_mk_bvadd(z, addr, scaled);
  }
  return addr;
}

static Z3_ast cast(enc *e, frame *f, LLVMValueRef v, LLVMOpcode op) {
  Z3_context z = e->z;
  Z3_ast x = val(e, f, LLVMGetOperand(v, 0));
  Z3_sort s = sort_of(z, LLVMTypeOf(v));
  if (!x || !s)
    return NULL;
  int to_bool = Z3_get_sort_kind(z, s) == Z3_BOOL_SORT;
  switch (op) {
  case LLVMZExt:
  case LLVMSExt:
  case LLVMPtrToInt:
  case LLVMIntToPtr:
  case LLVMTrunc:
    if (to_bool)
      return is_bool(z, x) ? x
                           : Z3_mk_eq(z, Z3_mk_extract(z, 0, 0, x), bv(z, 1, 1));
    return resize(z, x, Z3_get_bv_sort_size(z, s), op == LLVMSExt);
  default: /* bitcast, addrspacecast, freeze */
    return Z3_get_sort(z, x) == s ? x : NULL;
  }
}

static Z3_ast minmax(enc *e, frame *f, LLVMValueRef v, const char *name) {
  Z3_context z = e->z;
  Z3_ast a = val(e, f, LLVMGetOperand(v, 0));
  Z3_ast b = val(e, f, LLVMGetOperand(v, 1));
  if (!a || !b || is_bool(z, a))
    return NULL;
  const char *k = name + strlen("llvm.");
  Z3_ast lt = k[0] == 'u' ? Z3_mk_bvult(z, a, b) : Z3_mk_bvslt(z, a, b);
  return !strncmp(k + 1, "min.", 4) ? Z3_mk_ite(z, lt, a, b)
                                    : Z3_mk_ite(z, lt, b, a);
}

/* The thread's linear index in its block: x + ntid.x * (y + ntid.y * z).
 * A warp is 32 threads of consecutive linear indices. */
static Z3_ast linear_tid(const aucs_static *S, int side) {
  Z3_context z = S->z;
  const Z3_ast *t = S->tid[side], *n = S->ntid;
  Z3_ast yz = Z3_mk_bvadd(z, t[1], Z3_mk_bvmul(z, n[1], t[2]));
  return Z3_mk_bvadd(z, t[0], Z3_mk_bvmul(z, n[0], yz));
}

/* %laneid: the linear index modulo 32. */
static Z3_ast lane_id(enc *e) {
  return Z3_mk_bvand(e->z, linear_tid(e->S, e->side), bv(e->z, 31, 32));
}

static Z3_ast sreg(enc *e, LLVMValueRef v, const char *name) {
  static const char *const regs[] = {"tid.", "ctaid.", "ntid.", "nctaid."};
  const char *r = name + strlen("llvm.nvvm.read.ptx.sreg.");
  Z3_sort s = sort_of(e->z, LLVMTypeOf(v));
  if (!strcmp(r, "laneid") && s && Z3_get_sort_kind(e->z, s) == Z3_BV_SORT)
    return resize(e->z, lane_id(e), Z3_get_bv_sort_size(e->z, s), 0);
  for (int k = 0; k < 4; k++) {
    size_t n = strlen(regs[k]);
    if (strncmp(r, regs[k], n) || !r[n] || r[n + 1] || r[n] < 'x')
      continue;
    int d = r[n] - 'x';
    Z3_ast t = k == 0   ? e->S->tid[e->side][d]
               : k == 1 ? e->S->ctaid[e->block][d]
               : k == 2 ? e->S->ntid[d]
                        : e->S->nctaid[d];
    return s && Z3_get_sort_kind(e->z, s) == Z3_BV_SORT
               ? resize(e->z, t, Z3_get_bv_sort_size(e->z, s), 0)
               : NULL;
  }
  return NULL;
}

/* What a helper's call returns: the value of its one reachable `ret`, in
 * the call's frame. NULL when the call has no frame (too deep, recursive)
 * or the helper returns in more than one place. */
static Z3_ast helper_result(enc *e, frame *f, LLVMValueRef call) {
  frame *h = NULL;
  for (int i = 0; !h && i < e->S->nframes; i++)
    if (e->S->frames[i]->call == call && e->S->frames[i]->parent == f)
      h = e->S->frames[i];
  LLVMValueRef ret = NULL;
  for (int b = 0; h && b < h->cfg->nblocks; b++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(h->cfg->blocks[b]);
    if (!h->cfg->reachable[b] || !t || !LLVMIsAReturnInst(t))
      continue;
    if (ret || LLVMGetNumOperands(t) != 1)
      return NULL;
    ret = t;
  }
  return ret ? val(e, h, LLVMGetOperand(ret, 0)) : NULL;
}

static Z3_ast call_value(enc *e, frame *f, LLVMValueRef v) {
  const char *name = callee_name(v);
  if (starts_with(name, "llvm.nvvm.read.ptx.sreg."))
    return sreg(e, v, name);
  if (starts_with(name, "llvm.umin.") || starts_with(name, "llvm.umax.") ||
      starts_with(name, "llvm.smin.") || starts_with(name, "llvm.smax."))
    return minmax(e, f, v, name);
  return defined_callee(v) ? helper_result(e, f, v) : NULL;
}

/* ---- multiples ----------------------------------------------------------*/

/* Record v = s + k * d for this side; 0 when it was recorded already. */
static int add_multiple(enc *e, Z3_ast v, Z3_ast s, Z3_ast k, Z3_ast d) {
  multiples *ms = e->mults;
  for (size_t i = 0; i < ms->n; i++)
    if (ms->m[i].v == v && ms->m[i].d == d)
      return 0;
  ms->m = aucs_xrealloc(ms->m, (ms->n + 1) * sizeof *ms->m);
  ms->m[ms->n++] = (multiple){v, s, k, d};
  return 1;
}

/* a + b when it is a global index, blockIdx.d * blockDim.d + threadIdx.d
 * (at 32 bits, or at 64 from zero-extended registers): it is recorded as a
 * multiple of blockDim.d, below gridDim.d * blockDim.d. Within the stated
 * bound (fewer than 2^31 threads of the grid along x, as int indices
 * need; y and z hold it anyway) the 32-bit sum does not wrap. */
static void global_index(enc *e, Z3_ast a, Z3_ast b, Z3_ast sum) {
  Z3_context z = e->z;
  const aucs_static *S = e->S;
  unsigned w = width(z, sum);
  if (w != 32 && w != 64)
    return;
  for (int d = 0; d < 3; d++) {
    Z3_ast t = resize(z, S->tid[e->side][d], w, 0);
    Z3_ast c = resize(z, S->ctaid[e->block][d], w, 0);
    Z3_ast n = resize(z, S->ntid[d], w, 0);
    Z3_ast block = aucs_smt_mul(z, c, n);
    if (!((a == block && b == t) || (a == t && b == block)))
      continue;
    if (!add_multiple(e, resize(z, sum, 64, 0), resize(z, t, 64, 0),
                      resize(z, c, 64, 0), resize(z, n, 64, 0)))
      return; /* its facts are in the query already */
    Z3_ast threads = aucs_smt_mul(z, n, resize(z, S->nctaid[d], w, 0));
    push_ast(e->cons, e->ncons, Z3_mk_bvult(z, sum, threads));
    if (w == 32)
      push_ast(e->cons, e->ncons,
               Z3_mk_bvule(z, threads, bv(z, 0x7fffffff, 32)));
    return;
  }
}

/* For two threads' multiples of one d, each with 0 <= s < d: the smaller k
 * has the smaller v, and equal k's give v's that differ as their s's do.
 * Facts of the integers, so asserting them changes no answer; but they
 * spare the solver ordering products, which bit-blasting cannot do in
 * time (a grid-stride loop's i = gid + k * stride). */
static size_t multiple_lemmas(Z3_context z, const multiples *a,
                              const multiples *b, Z3_ast **v, size_t *n) {
  size_t added = 0;
  for (size_t i = 0; i < a->n; i++)
    for (size_t j = 0; j < b->n; j++) {
      const multiple *x = &a->m[i], *y = &b->m[j];
      if (x->d != y->d)
        continue;
      Z3_ast zero = bv(z, 0, width(z, x->d));
      Z3_ast in[4] = {Z3_mk_bvsle(z, zero, x->s), Z3_mk_bvslt(z, x->s, x->d),
                      Z3_mk_bvsle(z, zero, y->s), Z3_mk_bvslt(z, y->s, y->d)};
      Z3_ast ranges = Z3_mk_and(z, 4, in);
      Z3_ast before = Z3_mk_implies(z, Z3_mk_bvslt(z, x->k, y->k),
                                    Z3_mk_bvslt(z, x->v, y->v));
      Z3_ast after = Z3_mk_implies(z, Z3_mk_bvslt(z, y->k, x->k),
                                   Z3_mk_bvslt(z, y->v, x->v));
      Z3_ast same = Z3_mk_implies(
          z, Z3_mk_eq(z, x->v, y->v),
          and2(z, Z3_mk_eq(z, x->k, y->k), Z3_mk_eq(z, x->s, y->s)));
      push_ast(v, n,
               Z3_mk_implies(z, ranges, and2(z, same, and2(z, before, after))));
      push_ast(v, n,
               Z3_mk_implies(z, Z3_mk_eq(z, x->k, y->k),
                             Z3_mk_eq(z, Z3_mk_bvsub(z, x->v, x->s),
                                      Z3_mk_bvsub(z, y->v, y->s))));
      added++;
    }
  return added;
}

/* ---- phis ---------------------------------------------------------------*/

static int edge_is_loop(const aucs_cfg *cfg, int p, int b) {
  for (int i = 0; i < cfg->nsucc[p]; i++)
    if (cfg->succ[p][i] == b && cfg->loop_edge[p][i])
      return 1;
  return 0;
}

static int loop_of_header(const aucs_cfg *cfg, int b) {
  for (int l = 0; l < cfg->nloops; l++)
    if (cfg->loops[l].header == b)
      return l;
  return -1;
}

static int invariant(const aucs_cfg *cfg, int l, LLVMValueRef v) {
  if (!LLVMIsAInstruction(v))
    return 1;
  int b = block_of(cfg, v);
  return b >= 0 && !aucs_cfg_in_loop(cfg, l, b);
}

/* The header phi's start (the value from outside the loop, when all agree)
 * and its update (the value along back edges, when all agree). */
static void phi_parts(const aucs_cfg *cfg, LLVMValueRef phi, int b,
                      LLVMValueRef *start, LLVMValueRef *next) {
  *start = *next = NULL;
  int bad_start = 0, bad_next = 0;
  for (unsigned i = 0; i < LLVMCountIncoming(phi); i++) {
    int p = aucs_cfg_index(cfg, LLVMGetIncomingBlock(phi, i));
    LLVMValueRef v = LLVMGetIncomingValue(phi, i);
    if (p < 0 || !cfg->reachable[p])
      continue;
    LLVMValueRef *slot = edge_is_loop(cfg, p, b) ? next : start;
    int *bad = slot == next ? &bad_next : &bad_start;
    if (*slot && *slot != v)
      *bad = 1;
    *slot = v;
  }
  if (bad_start)
    *start = NULL;
  if (bad_next)
    *next = NULL;
}

/* An affine header phi: t = start + k * step (minus with sub), k >= 0 the
 * iteration; s and d are start and step at the phi's width w. */
typedef struct affine_phi {
  Z3_ast t, k, s, d;
  unsigned w;
  int sub, nsw, nuw;
} affine_phi;

/* i = start + k * step, k >= 0; with nsw/nuw the sum is taken wide and must
 * fit, so k counts real iterations. 0 when the phi is no such term. */
static int affine(enc *e, frame *f, LLVMValueRef phi, LLVMValueRef start,
                  LLVMValueRef step, affine_phi *a) {
  Z3_context z = e->z;
  Z3_ast s = val(e, f, start), d = val(e, f, step);
  Z3_sort ps = sort_of(z, LLVMTypeOf(phi));
  if (!s || !d || !ps || is_bool(z, s) || Z3_get_sort_kind(z, ps) == Z3_BOOL_SORT)
    return 0;
  unsigned w = Z3_get_bv_sort_size(z, ps);
  a->w = w;
  a->s = s = resize(z, s, w, 0);
  a->d = d = resize(z, d, w, 1);
  a->k = Z3_mk_fresh_const(z, e->side ? "k2" : "k1", ps);
  if (!a->nsw && !a->nuw) {
    Z3_ast kd = Z3_mk_bvmul(z, a->k, d);
    a->t = a->sub ? Z3_mk_bvsub(z, s, kd) : Z3_mk_bvadd(z, s, kd);
    return 1;
  }
  unsigned W = 2 * w + 2;
  int nsw = a->nsw;
  Z3_ast sw = resize(z, s, W, nsw), dw = resize(z, d, W, nsw);
  Z3_ast kd = Z3_mk_bvmul(z, resize(z, a->k, W, 0), dw);
  Z3_ast wide = a->sub ? Z3_mk_bvsub(z, sw, kd) : Z3_mk_bvadd(z, sw, kd);
  Z3_ast lo = nsw ? resize(z, bv(z, 1ull << (w - 1), w), W, 1) : bv(z, 0, W);
  Z3_ast hi = nsw ? bv(z, (1ull << (w - 1)) - 1, W)
                  : resize(z, bv(z, ~0ull, w), W, 0);
  push_ast(e->cons, e->ncons,
           and2(z, Z3_mk_bvsge(z, wide, lo), Z3_mk_bvsle(z, wide, hi)));
  a->t = Z3_mk_extract(z, w - 1, 0, wide);
  if (!a->sub)
    add_multiple(e, wide, sw, resize(z, a->k, W, 0), dw);
  return 1;
}

static LLVMIntPredicate swapped(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntUGT: return LLVMIntULT;
  case LLVMIntUGE: return LLVMIntULE;
  case LLVMIntULT: return LLVMIntUGT;
  case LLVMIntULE: return LLVMIntUGE;
  case LLVMIntSGT: return LLVMIntSLT;
  case LLVMIntSGE: return LLVMIntSLE;
  case LLVMIntSLT: return LLVMIntSGT;
  case LLVMIntSLE: return LLVMIntSGE;
  default: return p; /* eq, ne */
  }
}

static LLVMIntPredicate inverse(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntEQ: return LLVMIntNE;
  case LLVMIntNE: return LLVMIntEQ;
  case LLVMIntUGT: return LLVMIntULE;
  case LLVMIntUGE: return LLVMIntULT;
  case LLVMIntULT: return LLVMIntUGE;
  case LLVMIntULE: return LLVMIntUGT;
  case LLVMIntSGT: return LLVMIntSLE;
  case LLVMIntSGE: return LLVMIntSLT;
  case LLVMIntSLT: return LLVMIntSGE;
  default: return LLVMIntSGT;
  }
}

/* The test that keeps loop l going, as rotated loops have it: the loop's
 * one latch ends in `br (icmp x, inv)` with x = next (the value the header
 * phi takes on the back edge) or x = phi, and inv invariant in l. *p is
 * the predicate with x on the left under which the back edge is taken. */
static int latch_test(const aucs_cfg *cfg, int l, LLVMValueRef phi,
                      LLVMValueRef next, LLVMIntPredicate *p,
                      LLVMValueRef *inv, int *on_phi) {
  const aucs_loop *lp = &cfg->loops[l];
  if (lp->nlatches != 1)
    return 0;
  LLVMValueRef br = LLVMGetBasicBlockTerminator(cfg->blocks[lp->latches[0]]);
  if (!br || LLVMGetInstructionOpcode(br) != LLVMBr ||
      !LLVMIsConditional(br))
    return 0;
  LLVMValueRef c = LLVMGetCondition(br);
  if (!LLVMIsAICmpInst(c))
    return 0;
  int t = aucs_cfg_index(cfg, LLVMGetSuccessor(br, 0));
  int f = aucs_cfg_index(cfg, LLVMGetSuccessor(br, 1));
  if ((t == lp->header) == (f == lp->header))
    return 0;
  LLVMValueRef x = LLVMGetOperand(c, 0), y = LLVMGetOperand(c, 1);
  *p = LLVMGetICmpPredicate(c);
  if (x != next && x != phi) {
    LLVMValueRef tmp = x;
    x = y, y = tmp;
    *p = swapped(*p);
  }
  if ((x != next && x != phi) || !invariant(cfg, l, y))
    return 0;
  if (f == lp->header)
    *p = inverse(*p);
  *inv = y;
  *on_phi = x == phi;
  return 1;
}

/* What the latch test says of iteration k >= 1 of an affine phi: its last
 * back edge was taken, so the test held of x there (x = phi_k when x is
 * next, phi_(k-1) when x is the phi). With `!=` and a unit step that does
 * not wrap, every earlier back edge passed the test too: inv lies outside
 * the values x took. */
static void latch_bound(enc *e, frame *f, LLVMValueRef phi, int l,
                        LLVMValueRef next, const affine_phi *a) {
  Z3_context z = e->z;
  LLVMIntPredicate p;
  LLVMValueRef inv;
  int on_phi;
  if (!latch_test(f->cfg, l, phi, next, &p, &inv, &on_phi) ||
      LLVMTypeOf(inv) != LLVMTypeOf(phi))
    return;
  Z3_ast n = val(e, f, inv);
  if (!n || is_bool(z, n))
    return;
  Z3_ast first = Z3_mk_eq(z, a->k, bv(z, 0, a->w));
  Z3_ast x = !on_phi ? a->t
             : a->sub ? Z3_mk_bvadd(z, a->t, a->d)
                      : Z3_mk_bvsub(z, a->t, a->d);
  push_ast(e->cons, e->ncons, or2(z, first, compare(z, p, x, n)));
  LLVMValueRef step = LLVMGetOperand(next, LLVMGetOperand(next, 0) == phi);
  if (p != LLVMIntNE || !(a->nsw || a->nuw) || !LLVMIsAConstantInt(step))
    return;
  long long d = LLVMConstIntGetSExtValue(step) * (a->sub ? -1 : 1);
  if (d != 1 && d != -1)
    return;
  /* x took start + j * d for j in [lo, hi]: [1, k] or [0, k - 1] */
  unsigned W = 2 * a->w + 2;
  Z3_ast sw = resize(z, a->s, W, a->nsw), nw = resize(z, n, W, a->nsw);
  Z3_ast kw = resize(z, a->k, W, 0), one = bv(z, 1, W);
  Z3_ast lo = on_phi ? bv(z, 0, W) : one;
  Z3_ast hi = on_phi ? Z3_mk_bvsub(z, kw, one) : kw;
  Z3_ast from = d > 0 ? Z3_mk_bvadd(z, sw, lo) : Z3_mk_bvsub(z, sw, hi);
  Z3_ast to = d > 0 ? Z3_mk_bvadd(z, sw, hi) : Z3_mk_bvsub(z, sw, lo);
  Z3_ast inside = and2(z, Z3_mk_bvsge(z, nw, from), Z3_mk_bvsle(z, nw, to));
  push_ast(e->cons, e->ncons, or2(z, first, Z3_mk_not(z, inside)));
}

static Z3_ast induction(enc *e, frame *f, LLVMValueRef phi, int l,
                        LLVMValueRef start, LLVMValueRef next) {
  const aucs_cfg *cfg = f->cfg;
  if (!start || !next || !LLVMIsAInstruction(next))
    return NULL;
  LLVMOpcode op = LLVMGetInstructionOpcode(next);
  LLVMValueRef x = LLVMGetOperand(next, 0);
  LLVMValueRef y = LLVMGetNumOperands(next) > 1 ? LLVMGetOperand(next, 1) : NULL;
  LLVMValueRef step = x == phi ? y : op == LLVMAdd && y == phi ? x : NULL;
  if ((op == LLVMAdd || op == LLVMSub) && step) {
    affine_phi a = {.sub = op == LLVMSub,
                    .nsw = LLVMGetNSW(next),
                    .nuw = LLVMGetNUW(next)};
    if (!invariant(cfg, l, step) || !affine(e, f, phi, start, step, &a))
      return NULL;
    latch_bound(e, f, phi, l, next, &a);
    return a.t;
  }
  LLVMValueRef other = x == phi ? y : y == phi ? x : NULL;
  if (((op == LLVMSub && y == phi) || op == LLVMXor) && other &&
      invariant(cfg, l, other)) {
    /* c - i, i ^ m: applied twice it gives i back, so the phi is its start
     * or the start's image (double buffering: cur = 1 - cur) */
    Z3_ast s = val(e, f, start), c = val(e, f, other);
    if (!s || !c || is_bool(e->z, s) || is_bool(e->z, c) ||
        width(e->z, s) != width(e->z, c))
      return NULL;
    Z3_ast image = op == LLVMSub ? Z3_mk_bvsub(e->z, c, s)
                                 : Z3_mk_bvxor(e->z, s, c);
    Z3_ast odd = Z3_mk_fresh_const(e->z, "odd", Z3_mk_bool_sort(e->z));
    return Z3_mk_ite(e->z, odd, image, s);
  }
  if ((op == LLVMLShr || op == LLVMUDiv) && x == phi) {
    /* s = s >> c, s / c: never above its start (unsigned) */
    Z3_ast s = val(e, f, start), i = fresh(e, LLVMTypeOf(phi));
    if (!s || !i || is_bool(e->z, s))
      return NULL;
    push_ast(e->cons, e->ncons, Z3_mk_bvule(e->z, i, s));
    return i;
  }
  return NULL;
}

/* The value of next in the iteration whose uniform phis hold the shared
 * values: next evaluated afresh with loop l shared and every other loop
 * free (the iteration before this side's). */
static Z3_ast next_of_shared(enc *e, frame *f, LLVMValueRef next, int l) {
  int nf = e->S->nframes, nl = e->S->cfg->nloops;
  aucs_ptrmap *maps = aucs_xcalloc((size_t)nf * 2 + 1, sizeof *maps);
  unsigned char *modes = aucs_xcalloc((size_t)nl + 1, 1);
  modes[l] = M_SHARED;
  enc before = *e;
  before.modes = modes, before.memo = maps, before.ecmemo = maps + nf;
  Z3_ast t = val(&before, f, next);
  for (int i = 0; i < nf * 2; i++)
    aucs_ptrmap_free(&maps[i]);
  free(maps);
  free(modes);
  return t;
}

static Z3_ast header_phi(enc *e, frame *f, LLVMValueRef phi, int b, int l) {
  LLVMValueRef start, next;
  phi_parts(f->cfg, phi, b, &start, &next);
  int mode = f->id == 0 ? e->modes[l] : M_FREE;
  if (mode == M_START && start)
    return val(e, f, start);
  int uniform = !aucs_uniform_varying(e->S->u, phi);
  if (mode == M_NEXT && uniform && next)
    return next_of_shared(e, f, next, l);
  int share = mode == M_SHARED && uniform;
  intptr_t got;
  if (share && aucs_ptrmap_get(e->shared, phi, &got))
    return (Z3_ast)got;
  Z3_ast t = induction(e, f, phi, l, start, next);
  if (!t)
    t = fresh(e, LLVMTypeOf(phi));
  if (share)
    aucs_ptrmap_put(e->shared, phi, (intptr_t)t);
  return t;
}

static Z3_ast edge_cond(enc *e, frame *f, int p, int b);

/* A join's phi: the value of the incoming edge taken. */
static Z3_ast join_phi(enc *e, frame *f, LLVMValueRef phi, int b) {
  Z3_ast t = NULL;
  for (unsigned i = LLVMCountIncoming(phi); i-- > 0;) {
    int p = aucs_cfg_index(f->cfg, LLVMGetIncomingBlock(phi, i));
    if (p < 0 || !f->cfg->reachable[p])
      continue;
    Z3_ast v = val(e, f, LLVMGetIncomingValue(phi, i));
    if (!v)
      return NULL;
    t = t ? Z3_mk_ite(e->z, and2(e->z, ec(e, f, p), edge_cond(e, f, p, b)), v,
                      t)
          : v;
  }
  return t;
}

static Z3_ast phi_value(enc *e, frame *f, LLVMValueRef phi) {
  const aucs_cfg *cfg = f->cfg;
  int b = block_of(cfg, phi), l = loop_of_header(cfg, b), back = 0;
  for (unsigned i = 0; i < LLVMCountIncoming(phi); i++) {
    int p = aucs_cfg_index(cfg, LLVMGetIncomingBlock(phi, i));
    back |= p >= 0 && cfg->reachable[p] && edge_is_loop(cfg, p, b);
  }
  if (!back)
    return join_phi(e, f, phi, b);
  return l >= 0 ? header_phi(e, f, phi, b, l) : NULL;
}

/* ---- values -------------------------------------------------------------*/

static Z3_ast argument(enc *e, frame *f, LLVMValueRef v) {
  unsigned n = LLVMCountParams(f->fn), i = 0;
  while (i < n && LLVMGetParam(f->fn, i) != v)
    i++;
  if (i == n)
    return NULL;
  if (!f->call)
    return e->S->params[i];
  return val(e, f->parent, LLVMGetOperand(f->call, i));
}

static Z3_ast global_base(enc *e, LLVMValueRef g) {
  intptr_t got;
  if (aucs_ptrmap_get(&e->S->gbase, g, &got))
    return (Z3_ast)got;
  size_t len;
  char *name = aucs_xasprintf("@%s", LLVMGetValueName2(g, &len));
  Z3_ast t = sym(e->z, name, 64);
  free(name);
  aucs_ptrmap_put(&e->S->gbase, g, (intptr_t)t);
  return t;
}

/* `nsw`/`nuw` arithmetic that wraps is poison, and a poison address or
 * branch condition is undefined behaviour: proofs assume the kernel has
 * none, so a wrapping add, sub or mul in an address or guard is excluded. */
static void no_wrap(enc *e, LLVMValueRef v, LLVMOpcode op, Z3_ast a, Z3_ast b) {
  Z3_context z = e->z;
  if ((op != LLVMAdd && op != LLVMSub && op != LLVMMul) || is_bool(z, a))
    return;
  int nsw = LLVMGetNSW(v), nuw = LLVMGetNUW(v);
  for (int sign = 0; sign < 2; sign++) {
    if (!(sign ? nsw : nuw))
      continue;
    Z3_ast ok = op == LLVMAdd ? Z3_mk_bvadd_no_overflow(z, a, b, sign)
                : op == LLVMSub ? Z3_mk_bvsub_no_underflow(z, a, b, sign)
                                : Z3_mk_bvmul_no_overflow(z, a, b, sign);
    if (sign)
      ok = and2(z, ok,
                op == LLVMAdd   ? Z3_mk_bvadd_no_underflow(z, a, b)
                : op == LLVMSub ? Z3_mk_bvsub_no_overflow(z, a, b)
                                : Z3_mk_bvmul_no_underflow(z, a, b));
    push_ast(e->cons, e->ncons, ok);
  }
}

/* A pure function of v's operands (uf.h): one term for equal operands. */
static Z3_ast pure_value(enc *e, frame *f, LLVMValueRef v, const char *name) {
  unsigned n = aucs_uf_arity(v);
  Z3_ast args[8];
  if (n > 8)
    return NULL;
  for (unsigned i = 0; i < n; i++)
    if (!(args[i] = val(e, f, LLVMGetOperand(v, i))))
      return NULL;
  return aucs_uf_apply(e->z, name, n, args, sort_of(e->z, LLVMTypeOf(v)));
}

static Z3_ast operation(enc *e, frame *f, LLVMValueRef v, LLVMOpcode op) {
  if (!sort_of(e->z, LLVMTypeOf(v)))
    return NULL;
  char buf[64];
  const char *uf = aucs_uf_name(v, buf, sizeof buf);
  if (uf)
    return pure_value(e, f, v, uf);
  switch (op) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMUDiv: case LLVMSDiv:
  case LLVMURem: case LLVMSRem: case LLVMShl: case LLVMLShr: case LLVMAShr:
  case LLVMAnd: case LLVMOr: case LLVMXor: {
    Z3_ast a = val(e, f, LLVMGetOperand(v, 0));
    Z3_ast b = val(e, f, LLVMGetOperand(v, 1));
    if (!a || !b)
      return NULL;
    if (LLVMIsAInstruction(v))
      no_wrap(e, v, op, a, b);
    Z3_ast r = binop(e->z, op, a, b);
    if (op == LLVMAdd && r && !is_bool(e->z, r))
      global_index(e, a, b, r);
    return r;
  }
  case LLVMICmp: {
    Z3_ast a = val(e, f, LLVMGetOperand(v, 0));
    Z3_ast b = val(e, f, LLVMGetOperand(v, 1));
    return a && b && LLVMIsAInstruction(v)
               ? compare(e->z, LLVMGetICmpPredicate(v), a, b)
               : NULL;
  }
  case LLVMSelect: {
    Z3_ast c = val(e, f, LLVMGetOperand(v, 0));
    Z3_ast a = val(e, f, LLVMGetOperand(v, 1));
    Z3_ast b = val(e, f, LLVMGetOperand(v, 2));
    return c && a && b && is_bool(e->z, c) ? Z3_mk_ite(e->z, c, a, b) : NULL;
  }
  case LLVMZExt: case LLVMSExt: case LLVMTrunc: case LLVMPtrToInt:
  case LLVMIntToPtr: case LLVMBitCast: case LLVMAddrSpaceCast:
  case LLVMFreeze:
    return cast(e, f, v, op);
  case LLVMGetElementPtr:
    return gep(e, f, v);
  case LLVMPHI:
    return phi_value(e, f, v);
  case LLVMCall:
    return call_value(e, f, v);
  case LLVMExtractElement: { /* other lanes: fresh (aucs/lanes.h) */
    LLVMValueRef s = aucs_lanes_extracted(v);
    return s ? val(e, f, s) : NULL;
  }
  default:
    return NULL;
  }
}

static Z3_ast compute(enc *e, frame *f, LLVMValueRef v) {
  Z3_context z = e->z;
  LLVMTypeRef t = LLVMTypeOf(v);
  if (LLVMIsAConstantInt(v)) {
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind) /* a vector splat */
      return NULL;
    unsigned w = LLVMGetIntTypeWidth(t);
    uint64_t x = LLVMConstIntGetZExtValue(v);
    return w == 1 ? (x ? Z3_mk_true(z) : Z3_mk_false(z))
           : w <= 64 ? bv(z, x, w)
                     : NULL;
  }
  if (LLVMIsAConstantPointerNull(v))
    return bv(z, 0, 64);
  if (LLVMIsAConstantFP(v))
    return aucs_uf_constant(z, v);
  if (LLVMIsAGlobalVariable(v))
    return global_base(e, v);
  if (LLVMIsAArgument(v))
    return argument(e, f, v);
  if (LLVMIsAConstantExpr(v))
    return operation(e, f, v, LLVMGetConstOpcode(v));
  if (LLVMIsAInstruction(v))
    return operation(e, f, v, LLVMGetInstructionOpcode(v));
  return NULL;
}

/* v's term in frame f for this side; a fresh symbol when it cannot be
 * followed (NULL only for types with no term: vectors, half, ...). */
static Z3_ast val(enc *e, frame *f, LLVMValueRef v) {
  intptr_t got;
  if (aucs_ptrmap_get(&e->memo[f->id], v, &got))
    return (Z3_ast)got;
  Z3_ast t = compute(e, f, v);
  if (!t)
    t = fresh(e, LLVMTypeOf(v));
  aucs_ptrmap_put(&e->memo[f->id], v, (intptr_t)t);
  return t;
}

/* ---- guards -------------------------------------------------------------*/

static Z3_ast edge_cond(enc *e, frame *f, int p, int b) {
  Z3_context z = e->z;
  LLVMValueRef term = LLVMGetBasicBlockTerminator(f->cfg->blocks[p]);
  LLVMBasicBlockRef to = f->cfg->blocks[b];
  if (LLVMIsABranchInst(term) && LLVMIsConditional(term)) {
    if (LLVMGetSuccessor(term, 0) == LLVMGetSuccessor(term, 1))
      return Z3_mk_true(z);
    Z3_ast c = val(e, f, LLVMGetCondition(term));
    if (!c || !is_bool(z, c))
      return Z3_mk_true(z);
    return LLVMGetSuccessor(term, 0) == to ? c : Z3_mk_not(z, c);
  }
  if (!LLVMIsASwitchInst(term))
    return Z3_mk_true(z);
  Z3_ast x = val(e, f, LLVMGetOperand(term, 0));
  if (!x)
    return Z3_mk_true(z);
  Z3_ast hit = Z3_mk_false(z), any = Z3_mk_false(z);
  for (unsigned i = 1; i < LLVMGetNumSuccessors(term); i++) {
    Z3_ast c = val(e, f, LLVMGetOperand(term, 2 * i));
    if (!c)
      return Z3_mk_true(z);
    Z3_ast eq = compare(z, LLVMIntEQ, x, c);
    any = or2(z, any, eq);
    if (LLVMGetSuccessor(term, i) == to)
      hit = or2(z, hit, eq);
  }
  if (LLVMGetSwitchDefaultDest(term) == to)
    hit = or2(z, hit, Z3_mk_not(z, any));
  return hit;
}

/* EC(b) = OR over DAG predecessors p of EC(p) AND cond(p -> b). */
static Z3_ast ec(enc *e, frame *f, int b) {
  Z3_context z = e->z;
  const aucs_cfg *cfg = f->cfg;
  intptr_t got;
  if (aucs_ptrmap_get(&e->ecmemo[f->id], cfg->blocks[b], &got))
    return (Z3_ast)got;
  Z3_ast t = b == 0 ? Z3_mk_true(z) : Z3_mk_false(z);
  for (int i = 0; b != 0 && i < cfg->npred[b]; i++) {
    int p = cfg->pred[b][i];
    if (!cfg->reachable[p] || edge_is_loop(cfg, p, b))
      continue;
    t = or2(z, t, and2(z, ec(e, f, p), edge_cond(e, f, p, b)));
  }
  t = Z3_simplify(z, t);
  aucs_ptrmap_put(&e->ecmemo[f->id], cfg->blocks[b], (intptr_t)t);
  return t;
}

static Z3_ast guard(enc *e, const acc *a) {
  Z3_ast g = ec(e, a->f, block_of(a->f->cfg, a->instr));
  for (frame *f = a->f; f->call; f = f->parent)
    g = and2(e->z, g, ec(e, f->parent, block_of(f->parent->cfg, f->call)));
  return g;
}

static Z3_ast address(enc *e, const acc *a) {
  Z3_ast p = val(e, a->f, a->ptr);
  return p ? p : Z3_mk_fresh_const(e->z, "p", Z3_mk_bv_sort(e->z, 64));
}

static Z3_ast extent(enc *e, const acc *a) {
  if (a->len) {
    Z3_ast n = val(e, a->f, a->len);
    if (n && !is_bool(e->z, n))
      return resize(e->z, n, 64, 0);
  }
  if (a->len || a->opaque)
    return Z3_mk_fresh_const(e->z, "n", Z3_mk_bv_sort(e->z, 64));
  return bv(e->z, a->size, 64);
}

/* ---- step 2: barrier intervals ------------------------------------------*/

/* What ends an interval: every separating barrier but `removed`, and with
 * `warp` every full-warp __syncwarp too (the intervals of one warp). */
typedef struct cut {
  LLVMValueRef removed;
  int warp;
} cut;

static int separates(const aucs_static *S, LLVMValueRef I, const cut *c) {
  intptr_t i;
  if (I == c->removed)
    return 0;
  if (aucs_ptrmap_get(&S->barmap, I, &i))
    return S->bar_sep[i - 1];
  return c->warp && aucs_ptrmap_get(&S->warpmap, I, &i);
}

/* Mark (|= bit) the accesses anchored in block b from instruction I on, up
 * to the first separator; 1 when the block's end was reached. */
static int scan(const aucs_static *S, LLVMValueRef I, const cut *c,
                stset *mark, stset bit) {
  for (; I; I = LLVMGetNextInstruction(I)) {
    if (separates(S, I, c))
      return 0;
    intptr_t first;
    if (!aucs_ptrmap_get(&S->anchors, I, &first))
      continue;
    for (int a = (int)first - 1; a >= 0; a = S->accs[a].next)
      mark[a] |= bit;
    if (aucs_ptrmap_get(&S->tailmap, I, &first))
      return 0; /* the helper's barrier follows its accesses */
  }
  return 1;
}

/* The state after edge u -> v for loop l (see the enum). */
static int step_state(const aucs_cfg *cfg, int l, int u, int v, int st) {
  int in_u = aucs_cfg_in_loop(cfg, l, u), in_v = aucs_cfg_in_loop(cfg, l, v);
  if (!in_u && in_v)
    return st == ST_OUT0 ? ST_FRESH0 : ST_RE0;
  if (in_u && !in_v)
    return st >= ST_CUR0 && st <= ST_RE0 ? ST_LEFT + st : ST_OUTX;
  if (!in_u || v != cfg->loops[l].header)
    return st;
  return st == ST_CUR0 ? ST_CUR1 : st == ST_FRESH0 ? ST_FRESH1 : ST_AMB;
}

/* From the start (block sb, first instruction si), search the CFG and
 * mark the accesses reached; with l >= 0, mark each with the bit of the
 * loop-l state it is reached in, else with bit 1. */
static void reach(const aucs_static *S, int sb, LLVMValueRef si, const cut *c,
                  int l, stset *mark) {
  const aucs_cfg *cfg = S->cfg;
  size_t nb = (size_t)cfg->nblocks, n = 0;
  unsigned char *seen = aucs_xcalloc(nb * NST + 1, 1);
  int *queue = aucs_xmalloc((nb * NST * 2 + 2) * 2 * sizeof *queue);
  int u = sb, su = l < 0 ? 0 : aucs_cfg_in_loop(cfg, l, sb) ? ST_CUR0 : ST_OUT0;
  int go = scan(S, si, c, mark, (stset)(1u << su));
  for (size_t head = 0;; head += 2) {
    for (int i = 0; go && i < cfg->nsucc[u]; i++) {
      int v = cfg->succ[u][i];
      int sv = l < 0 ? 0 : step_state(cfg, l, u, v, su);
      if (!seen[(size_t)v * NST + (size_t)sv]) {
        seen[(size_t)v * NST + (size_t)sv] = 1;
        queue[n++] = v, queue[n++] = sv;
      }
    }
    if (head >= n)
      break;
    u = queue[head], su = queue[head + 1];
    go = scan(S, LLVMGetFirstInstruction(cfg->blocks[u]), c, mark,
              (stset)(1u << su));
  }
  free(seen);
  free(queue);
}

/* A block-scoped atomic (syncscope "block"/"cluster", NVVM .cta): it does
 * not reach the threads of another block. */
static int narrow_atomic(LLVMValueRef I) {
  if (LLVMIsACallInst(I)) {
    const char *name = callee_name(I);
    return name && strstr(name, ".cta.") != NULL;
  }
  if (!LLVMIsAAtomicRMWInst(I) && !LLVMIsAAtomicCmpXchgInst(I) &&
      !((LLVMIsALoadInst(I) || LLVMIsAStoreInst(I)) &&
        LLVMGetOrdering(I) != LLVMAtomicOrderingNotAtomic))
    return 0;
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(I));
  unsigned id = LLVMGetAtomicSyncScopeID(I);
  return id == LLVMGetSyncScopeID(cx, "block", 5) ||
         id == LLVMGetSyncScopeID(cx, "cluster", 7);
}

static int conflict(const aucs_static *S, const acc *a, const acc *b,
                    int inter) {
  int wa = a->op != AUCS_OP_READ, wb = b->op != AUCS_OP_READ;
  if (!(wa || wb))
    return 0;
  /* two atomics conflict only between blocks, when one is block-scoped */
  if (a->op == AUCS_OP_ATOMIC && b->op == AUCS_OP_ATOMIC &&
      !(inter && (narrow_atomic(a->instr) || narrow_atomic(b->instr))))
    return 0;
  if (inter && (!(a->space & SP_GLOBAL) || !(b->space & SP_GLOBAL)))
    return 0;
  if (!(a->space & b->space))
    return 0;
  if (!a->root || !b->root || a->root == b->root)
    return 1;
  if (!S->o.may_alias ||
      (LLVMIsAGlobalVariable(a->root) && LLVMIsAGlobalVariable(b->root)))
    return 0;
  /* may_alias: an argument and an argument or a global overlap unless one
   * is noalias */
  unsigned kind = LLVMGetEnumAttributeKindForName("noalias", 7);
  LLVMValueRef roots[2] = {a->root, b->root};
  for (int i = 0; i < 2; i++) {
    if (!LLVMIsAArgument(roots[i]))
      continue;
    LLVMValueRef fn = LLVMGetParamParent(roots[i]);
    unsigned n = LLVMCountParams(fn);
    for (unsigned k = 0; k < n; k++)
      if (LLVMGetParam(fn, k) == roots[i] &&
          LLVMGetEnumAttributeAtIndex(fn, k + 1, kind))
        return 0;
  }
  return 1;
}

static int single_state(stset m) { return m && !(m & (m - 1)); }

/* The iterations of m: a left state counts as the one it left in. */
static stset iterations(stset m) {
  stset left = (stset)(m >> ST_LEFT);
  return (stset)((m & ((1u << ST_LEFT) - 1)) | left);
}

static unsigned char mode(stset mine, stset other) {
  stset fresh = 1 << ST_FRESH0 | 1 << ST_RE0;
  stset same = 1 << ST_CUR0 | 1 << ST_CUR1 | 1 << ST_FRESH1;
  mine = iterations(mine), other = iterations(other);
  stset cur0 = 1 << ST_CUR0, cur1 = 1 << ST_CUR1;
  if (mine && !(mine & ~fresh))
    return M_START;
  if (mine == other && single_state(mine) && (mine & same))
    return M_SHARED;
  if (mine == cur0 && other == cur1)
    return M_SHARED;
  if (mine == cur1 && other == cur0)
    return M_NEXT;
  return M_FREE;
}

/* The query for (a, b) with these warps and modes, added when new. */
static size_t find_query(aucs_static *S, int a, int b, int inter, int warp,
                         int region, const unsigned char *modes) {
  int nl = S->cfg->nloops;
  aucs_buf key = {0};
  aucs_buf_printf(&key, "%d,%d,%d,%d:", a, b, inter, warp);
  for (int i = 0; i < 2 * nl; i++)
    aucs_buf_printf(&key, "%c", '0' + modes[i]);
  size_t glen = key.len;
  aucs_buf_printf(&key, ";%d", region);
  for (size_t q = 0; q < S->nq; q++)
    if (!strcmp(S->qs[q].key, key.data)) {
      aucs_buf_free(&key);
      return q;
    }
  S->qs = aucs_xrealloc(S->qs, (S->nq + 1) * sizeof *S->qs);
  query *q = &S->qs[S->nq];
  *q = (query){.key = aucs_buf_take(&key), .glen = glen, .a = a, .b = b,
               .inter = inter, .warp = warp, .region = region,
               .verdict = AUCS_STATIC_UNKNOWN};
  q->modes = aucs_xmalloc((size_t)(2 * nl + 1));
  memcpy(q->modes, modes, (size_t)(2 * nl));
  return S->nq++;
}

typedef struct qset {
  size_t *v, n;
} qset;

static int in_set(const qset *s, size_t q) {
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i] == q)
      return 1;
  return 0;
}

static void qset_add(qset *s, size_t q) {
  if (in_set(s, q))
    return;
  s->v = aucs_xrealloc(s->v, (s->n + 1) * sizeof *s->v);
  s->v[s->n++] = q;
}

/* Set s holds a query of q's group (the same pair, warps and loop modes,
 * whatever its start's region). */
static int in_group(const aucs_static *S, const qset *s, size_t q) {
  const query *x = &S->qs[q];
  for (size_t i = 0; i < s->n; i++) {
    const query *y = &S->qs[s->v[i]];
    if (y->glen == x->glen && !strncmp(y->key, x->key, x->glen))
      return 1;
  }
  return 0;
}

/* The region of the start (block sb, instruction si) under cut c, as an
 * index into S->regions (an equal one is shared), or -1 when it has a
 * cycle or a loop edge. */
static int region_of(aucs_static *S, int sb, LLVMValueRef si, const cut *c) {
  const aucs_cfg *cfg = S->cfg;
  size_t nb = (size_t)cfg->nblocks;
  unsigned char *seen = aucs_xcalloc(nb + 1, 1);
  stset *scratch = aucs_xcalloc((size_t)S->nacc + 1, sizeof *scratch);
  int *queue = aucs_xmalloc((nb + 1) * sizeof *queue), *indeg = NULL;
  region r = {.first = si, .block = sb};
  int ok = 1;
  size_t n = 0;
  seen[sb] = 1, queue[n++] = sb;
  for (size_t h = 0; h < n; h++) {
    int u = queue[h];
    LLVMValueRef from = h ? LLVMGetFirstInstruction(cfg->blocks[u]) : si;
    if (!scan(S, from, c, scratch, 1))
      continue;
    for (int i = 0; i < cfg->nsucc[u]; i++) {
      int v = cfg->succ[u][i];
      ok &= !cfg->loop_edge[u][i] && v != sb;
      r.edges = aucs_xrealloc(r.edges, (r.nedges + 1) * 2 * sizeof *r.edges);
      r.edges[2 * r.nedges] = u, r.edges[2 * r.nedges++ + 1] = v;
      if (!seen[v])
        seen[v] = 1, queue[n++] = v;
    }
  }
  /* acyclic: Kahn's order takes every block */
  indeg = aucs_xcalloc(nb + 1, sizeof *indeg);
  for (size_t k = 0; k < r.nedges; k++)
    indeg[r.edges[2 * k + 1]]++;
  size_t done = 0, m = 0;
  queue[m++] = sb;
  while (ok && done < m) {
    int u = queue[done++];
    for (size_t k = 0; k < r.nedges; k++)
      if (r.edges[2 * k] == u && --indeg[r.edges[2 * k + 1]] == 0)
        queue[m++] = r.edges[2 * k + 1];
  }
  ok &= done == n;
  free(seen);
  free(scratch);
  free(queue);
  free(indeg);
  if (!ok) {
    free(r.edges);
    return -1;
  }
  for (size_t i = 0; i < S->nregions; i++) {
    const region *x = &S->regions[i];
    if (x->first == si && x->nedges == r.nedges &&
        (!r.nedges || /* no edges: both NULL, not for memcmp */
         !memcmp(x->edges, r.edges, r.nedges * 2 * sizeof *r.edges))) {
      free(r.edges);
      return (int)i;
    }
  }
  S->regions =
      aucs_xrealloc(S->regions, (S->nregions + 1) * sizeof *S->regions);
  S->regions[S->nregions] = r;
  return (int)S->nregions++;
}

/* The queries of one interval start. */
static void start_queries(aucs_static *S, int sb, LLVMValueRef si, const cut *c,
                          qset *out) {
  int na = S->nacc, nl = S->cfg->nloops;
  stset *hit = aucs_xcalloc((size_t)na + 1, sizeof *hit);
  stset *st = aucs_xcalloc((size_t)na * (size_t)nl + 1, sizeof *st);
  unsigned char *modes = aucs_xcalloc((size_t)(2 * nl) + 1, 1);
  reach(S, sb, si, c, -1, hit);
  int rid = region_of(S, sb, si, c);
  for (int l = 0; l < nl; l++)
    reach(S, sb, si, c, l, st + (size_t)l * (size_t)na);
  for (int a = 0; a < na; a++)
    for (int b = a; hit[a] && b < na; b++) {
      if (!hit[b] || !conflict(S, &S->accs[a], &S->accs[b], 0))
        continue;
      for (int l = 0; l < nl; l++) {
        stset ma = st[(size_t)l * na + a], mb = st[(size_t)l * na + b];
        modes[l] = mode(ma, mb);
        modes[nl + l] = mode(mb, ma);
      }
      qset_add(out, find_query(S, a, b, 0, WARP_ANY, rid, modes));
    }
  free(hit);
  free(st);
  free(modes);
}

/* The queries of the intervals c cuts the kernel into: each starts at the
 * entry or at a separator. */
static void cut_queries(aucs_static *S, const cut *c, qset *out) {
  start_queries(S, 0, LLVMGetFirstInstruction(S->cfg->blocks[0]), c, out);
  for (size_t i = 0; i < S->nbar; i++)
    if (S->bar_sep[i] && S->bars[i] != c->removed)
      start_queries(S, block_of(S->cfg, S->bars[i]),
                    LLVMGetNextInstruction(S->bars[i]), c, out);
  for (size_t i = 0; c->warp && i < S->nwarp; i++)
    start_queries(S, block_of(S->cfg, S->warps[i]),
                  LLVMGetNextInstruction(S->warps[i]), c, out);
  for (size_t i = 0; i < S->ntail; i++)
    start_queries(S, block_of(S->cfg, S->tails[i]),
                  LLVMGetNextInstruction(S->tails[i]), c, out);
}

/* Query q for two threads of two warps (WARP_APART) or of one (WARP_SAME). */
static size_t with_warp(aucs_static *S, size_t q, int warp) {
  query x = S->qs[q];
  return find_query(S, x.a, x.b, x.inter, warp, x.region, x.modes);
}

/* Every query of the kernel's intervals, with barrier `removed` gone. Two
 * threads of one warp meet only within an interval of the warp (cut at
 * __syncwarp too), two of different warps only within one of the block:
 * a query of the block's intervals that no warp interval holds is asked
 * for two warps, one only the warp intervals hold (their loop modes
 * differ) for one warp, one both hold for any two threads. */
static void interval_queries(aucs_static *S, LLVMValueRef removed, qset *out) {
  cut block = {.removed = removed}, warp = {.removed = removed, .warp = 1};
  if (!S->nwarp) {
    cut_queries(S, &block, out);
    return;
  }
  qset in_block = {0}, in_warp = {0};
  cut_queries(S, &block, &in_block);
  cut_queries(S, &warp, &in_warp);
  for (size_t i = 0; i < in_block.n; i++) {
    size_t q = in_block.v[i];
    qset_add(out,
             in_group(S, &in_warp, q) ? q : with_warp(S, q, WARP_APART));
  }
  for (size_t i = 0; i < in_warp.n; i++)
    if (!in_group(S, &in_block, in_warp.v[i]))
      qset_add(out, with_warp(S, in_warp.v[i], WARP_SAME));
  free(in_block.v);
  free(in_warp.v);
}

static void inter_queries(aucs_static *S, qset *out) {
  unsigned char *modes = aucs_xcalloc((size_t)(2 * S->cfg->nloops) + 1, 1);
  for (int a = 0; a < S->nacc; a++)
    for (int b = a; b < S->nacc; b++)
      if (conflict(S, &S->accs[a], &S->accs[b], 1))
        qset_add(out, find_query(S, a, b, 1, WARP_ANY, -1, modes));
  free(modes);
}

/* ---- step 3: asking Z3 --------------------------------------------------*/

typedef struct qbuild {
  Z3_ast *v;
  size_t n;
  size_t lemmas; /* pairs of multiples ordered (multiple_lemmas) */
  Z3_ast offset; /* access a's offset in its object, or NULL */
} qbuild;

static Z3_ast distinct3(Z3_context z, Z3_ast *x, Z3_ast *y) {
  Z3_ast d[3];
  for (int i = 0; i < 3; i++)
    d[i] = Z3_mk_not(z, Z3_mk_eq(z, x[i], y[i]));
  return Z3_mk_or(z, 3, d);
}

/* Overlap of [pa, pa + na) and [pb, pb + nb), wrap-safe. */
static Z3_ast overlap(Z3_context z, Z3_ast pa, Z3_ast na, Z3_ast pb,
                      Z3_ast nb) {
  return or2(z, Z3_mk_bvult(z, Z3_mk_bvsub(z, pb, pa), na),
             Z3_mk_bvult(z, Z3_mk_bvsub(z, pa, pb), nb));
}

/* The size of a's load, store or atomic when its address is a multiple of
 * it (the instruction's alignment: an access off it is undefined
 * behaviour), else 0. Two such accesses of one size overlap only when
 * their addresses are equal, which the solver sees far sooner than the
 * overlap of two ranges. */
static uint64_t aligned_size(const acc *a) {
  LLVMValueRef I = a->instr;
  if (a->len || a->opaque || !a->size || (a->size & (a->size - 1)) ||
      !(LLVMIsALoadInst(I) || LLVMIsAStoreInst(I) || LLVMIsAAtomicRMWInst(I) ||
        LLVMIsAAtomicCmpXchgInst(I)))
    return 0;
  return LLVMGetAlignment(I) >= a->size ? a->size : 0;
}

/* The two threads (of one block) are in one warp, or in two. */
static Z3_ast warp_constraint(const aucs_static *S, int same) {
  Z3_context z = S->z;
  Z3_ast w[2];
  for (int side = 0; side < 2; side++)
    w[side] = Z3_mk_bvlshr(z, linear_tid(S, side), bv(z, 5, 32));
  Z3_ast eq = Z3_mk_eq(z, w[0], w[1]);
  return same ? eq : Z3_mk_not(z, eq);
}

/* The condition under which a thread goes from region r's start to block
 * v without crossing a separator: over the region's edges into v, the
 * source's condition and the edge's branch. Both threads of a query start
 * at one instance of r's start, and each block of r runs at most once in
 * the interval, so a uniform branch is one term for both. memo: per block,
 * NULL when not yet built. */
static Z3_ast path_cond(enc *e, const region *r, int v, Z3_ast *memo) {
  Z3_context z = e->z;
  if (v == r->block)
    return Z3_mk_true(z);
  if (memo[v])
    return memo[v];
  Z3_ast t = NULL;
  for (size_t k = 0; k < r->nedges; k++) {
    if (r->edges[2 * k + 1] != v)
      continue;
    int u = r->edges[2 * k];
    Z3_ast via = and2(z, path_cond(e, r, u, memo),
                      edge_cond(e, e->S->frames[0], u, v));
    t = t ? or2(z, t, via) : via;
  }
  return memo[v] = t ? t : Z3_mk_true(z); /* not in r: no condition */
}

/* The conditions of the kernel's llvm.assume calls a thread passed on its
 * way to the access anchored at `at` hold for that thread. */
static void assumptions(enc *e, LLVMValueRef at) {
  aucs_static *S = e->S;
  for (size_t i = 0; i < S->nassume; i++) {
    if (!aucs_assume_precedes(S->cfg, S->assumes[i], at))
      continue;
    Z3_ast c = val(e, S->frames[0], LLVMGetOperand(S->assumes[i], 0));
    if (!c || !is_bool(e->z, c))
      continue;
    push_ast(e->cons, e->ncons, c);
    S->assume_used[i] = 1;
  }
}

/* The query's constraints; with paths, also each thread's path from the
 * start of q's region to its access. */
static void encode(aucs_static *S, const query *q, int paths, qbuild *out) {
  Z3_context z = S->z;
  int nf = S->nframes;
  aucs_ptrmap *maps = aucs_xcalloc((size_t)nf * 4 + 1, sizeof *maps);
  aucs_ptrmap shared = {0};
  Z3_ast p[2], n[2];
  multiples mults[2] = {{0}};
  for (size_t i = 0; i < S->nlaunch; i++)
    push_ast(&out->v, &out->n, S->launch[i]);
  Z3_ast *pcs = aucs_xcalloc((size_t)S->cfg->nblocks + 1, sizeof *pcs);
  for (int side = 0; side < 2; side++) {
    const acc *a = &S->accs[side ? q->b : q->a];
    enc e = {.S = S,
             .z = z,
             .side = side,
             .block = q->inter ? side : 0,
             .modes = q->modes + (side ? S->cfg->nloops : 0),
             .memo = maps + (size_t)nf * (size_t)(2 * side),
             .ecmemo = maps + (size_t)nf * (size_t)(2 * side + 1),
             .shared = &shared,
             .cons = &out->v,
             .ncons = &out->n,
             .mults = &mults[side]};
    push_ast(&out->v, &out->n, guard(&e, a));
    assumptions(&e, a->anchor);
    if (paths && q->region >= 0) {
      memset(pcs, 0, (size_t)S->cfg->nblocks * sizeof *pcs);
      push_ast(&out->v, &out->n,
               path_cond(&e, &S->regions[q->region],
                         block_of(S->cfg, a->anchor), pcs));
    }
    p[side] = address(&e, a);
    n[side] = extent(&e, a);
    if (side == 0 && a->root)
      out->offset = Z3_mk_bvsub(
          z, p[0], LLVMIsAGlobalVariable(a->root) ? global_base(&e, a->root)
                                                  : argument(&e, S->frames[0], a->root));
  }
  free(pcs);
  out->lemmas = multiple_lemmas(z, &mults[0], &mults[1], &out->v, &out->n);
  free(mults[0].m);
  free(mults[1].m);
  uint64_t sa = aligned_size(&S->accs[q->a]);
  push_ast(&out->v, &out->n,
           sa && sa == aligned_size(&S->accs[q->b])
               ? Z3_mk_eq(z, p[0], p[1])
               : overlap(z, p[0], n[0], p[1], n[1]));
  if (q->inter)
    push_ast(&out->v, &out->n, distinct3(z, S->ctaid[0], S->ctaid[1]));
  else {
    for (int d = 0; d < 3; d++)
      push_ast(&out->v, &out->n, Z3_mk_eq(z, S->ctaid[0][d], S->ctaid[1][d]));
    push_ast(&out->v, &out->n, distinct3(z, S->tid[0], S->tid[1]));
  }
  if (q->warp != WARP_ANY)
    push_ast(&out->v, &out->n, warp_constraint(S, q->warp == WARP_SAME));
  for (int i = 0; i < nf * 4; i++)
    aucs_ptrmap_free(&maps[i]);
  free(maps);
  aucs_ptrmap_free(&shared);
}

/* Limits on a witness, tightest first: a witness within the first runs
 * in a moment (few blocks, short loops); the second is what the
 * interpreter can run at all. Both keep the two accesses in one object. */
typedef struct tier {
  uint32_t blocks; /* of the grid, in all */
  uint32_t arg;    /* integer arguments of 18 bits or more in [-arg, arg] */
} tier;
static const tier tiers[] = {{4, 1024}, {64, 65536}};
enum { NTIERS = sizeof tiers / sizeof tiers[0] };

/* The width of parameter i when it is an integer of 18 bits or more (the
 * ones a tier bounds), else 0. */
static unsigned bounded_width(const aucs_static *S, unsigned i) {
  LLVMTypeRef ty = LLVMTypeOf(LLVMGetParam(S->fn, i));
  if (LLVMGetTypeKind(ty) != LLVMIntegerTypeKind)
    return 0;
  unsigned w = LLVMGetIntTypeWidth(ty);
  return w >= 18 ? w : 0;
}

/* Add tier t's limits to b. 0 when they cannot hold. */
static int replay_limits(aucs_static *S, const query *q, const tier *t,
                         qbuild *b) {
  Z3_context z = S->z;
  const acc *x = &S->accs[q->a], *y = &S->accs[q->b];
  if (x->root != y->root)
    return 0;
  for (int d = 0; d < 3; d++)
    push_ast(&b->v, &b->n, Z3_mk_bvule(z, S->nctaid[d], bv(z, t->blocks, 32)));
  push_ast(&b->v, &b->n,
           Z3_mk_bvule(z, product(z, S->nctaid), bv(z, t->blocks, 32)));
  for (unsigned i = 0; i < S->nparams; i++) {
    Z3_ast a = S->params[i];
    unsigned w = bounded_width(S, i);
    if (!a || !w)
      continue;
    push_ast(&b->v, &b->n,
             Z3_mk_bvule(z, Z3_mk_bvadd(z, a, bv(z, t->arg, w)),
                         bv(z, 2ull * t->arg, w)));
  }
  return 1;
}

/* Whether the witness already keeps to tier t. */
static int fits(const aucs_static *S, const query *q, const tier *t) {
  const aucs_static_witness *w = &q->w;
  uint64_t blocks = (uint64_t)w->launch.grid.x * w->launch.grid.y *
                    w->launch.grid.z;
  if (S->accs[q->a].root != S->accs[q->b].root || blocks > t->blocks)
    return 0;
  for (unsigned i = 0; i < S->nparams; i++) {
    unsigned w_ = bounded_width(S, i);
    if (!w_ || w_ > 64)
      continue;
    uint64_t mask = w_ == 64 ? ~0ull : (1ull << w_) - 1;
    if (((w->args[i] + t->arg) & mask) > 2ull * t->arg)
      return 0;
  }
  return 1;
}

static void witness_terms(const aucs_static *S, Z3_ast *t) {
  for (int d = 0; d < 3; d++) {
    t[d] = S->nctaid[d];
    t[3 + d] = S->ntid[d];
    t[6 + d] = S->tid[0][d];
    t[9 + d] = S->tid[1][d];
    t[12 + d] = S->ctaid[0][d];
    t[15 + d] = S->ctaid[1][d];
  }
}

static aucs_dim3 dim(const uint64_t *v) {
  return (aucs_dim3){(uint32_t)v[0], (uint32_t)v[1], (uint32_t)v[2]};
}

static void read_witness(const aucs_static *S, const uint64_t *v,
                         aucs_static_witness *w) {
  w->launch = (aucs_launch){dim(v), dim(v + 3)};
  w->thread[0] = dim(v + 6);
  w->thread[1] = dim(v + 9);
  w->block[0] = dim(v + 12);
  w->block[1] = dim(v + 15);
  free(w->args);
  w->args = aucs_xcalloc(S->nparams + 1, sizeof *w->args);
  for (unsigned i = 0; i < S->nparams; i++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(S->fn, i));
    if (S->params[i] && LLVMGetTypeKind(t) == LLVMIntegerTypeKind)
      w->args[i] = v[NWIT + i];
  }
  w->offset = v[NWIT + S->nparams];
}

/* The time left of the kernel's budget, in ms (0: spent). */
static unsigned budget_left(const aucs_static *S) {
  double spent = aucs_smt_stats_of(S->smt)->seconds * 1000.0;
  double left = (double)S->o.budget_ms - spent;
  return left < 1 ? 0 : (unsigned)left;
}

/* One query within min(timeout_ms, what is left of the budget). */
static aucs_smt_result ask(aucs_static *S, qbuild *b, Z3_ast *terms,
                           uint64_t *vals, size_t nvals, unsigned timeout_ms) {
  unsigned left = budget_left(S);
  if (!left)
    return AUCS_SMT_UNKNOWN;
  aucs_smt_set_timeout(S->smt, left < timeout_ms ? left : timeout_ms);
  aucs_smt_set_linear(S->smt, b->lemmas > 0);
  return aucs_smt_check(S->smt, b->v, b->n, terms, vals, nvals);
}

/* linear: the products-as-unknowns try decided (smt.h). */
static void trace_query(const aucs_static *S, const query *q, double secs,
                        int linear) {
  static const char *const names[] = {"unsat", "sat", "unknown"};
  static const char *const warp[] = {"", " (two warps)", " (one warp)"};
  char *la = aucs_srcloc_format(S->accs[q->a].instr);
  char *lb = aucs_srcloc_format(S->accs[q->b].instr);
  fprintf(stderr, "aucs: static: %s %s / %s %s%s%s: %s%s%s (%.3f s)\n",
          aucs_op_name(S->accs[q->a].op), la, aucs_op_name(S->accs[q->b].op),
          lb, q->inter ? " (two blocks)" : "", warp[q->warp], names[q->verdict],
          q->verdict == AUCS_STATIC_UNKNOWN ? " " : "",
          q->verdict == AUCS_STATIC_UNKNOWN ? aucs_smt_reason(S->smt)
          : linear                          ? " (products as unknowns)"
                                            : "",
          secs);
  free(la);
  free(lb);
}

/* A SAT query asked again with the threads' paths from its start (they
 * make most queries slower, so only a witness is checked against them):
 * UNSAT decides; SAT replaces b and vals by the refined query and its
 * model; unknown keeps the first answer. */
static aucs_smt_result with_paths(aucs_static *S, const query *q, qbuild *b,
                                  Z3_ast *terms, uint64_t *vals, size_t nt) {
  qbuild p = {0};
  uint64_t *pv = aucs_xcalloc(nt, sizeof *pv);
  Z3_ast offset = terms[nt - 1];
  encode(S, q, 1, &p);
  terms[nt - 1] = p.offset;
  aucs_smt_result r = ask(S, &p, terms, pv, nt, S->o.timeout_ms);
  if (r == AUCS_SMT_SAT) {
    free(b->v);
    *b = p;
    memcpy(vals, pv, nt * sizeof *vals);
  } else {
    free(p.v);
    terms[nt - 1] = offset;
  }
  free(pv);
  return r == AUCS_SMT_UNKNOWN ? AUCS_SMT_SAT : r;
}

/* Make q's witness one within the tightest tier it can keep to, asking
 * again (with a share of the timeout) when the model found is outside. */
static void replayable_witness(aucs_static *S, query *q, qbuild *b,
                               Z3_ast *terms, uint64_t *vals, size_t nt) {
  size_t keep = b->n;
  for (int t = 0; t < NTIERS && !q->w.replayable; t++) {
    q->w.replayable = fits(S, q, &tiers[t]);
    if (q->w.replayable || !replay_limits(S, q, &tiers[t], b))
      continue;
    if (ask(S, b, terms, vals, nt, S->o.timeout_ms / WITNESS_SHARE) ==
        AUCS_SMT_SAT) {
      read_witness(S, vals, &q->w);
      q->w.replayable = 1;
    }
    b->n = keep;
  }
}

static void solve(aucs_static *S, query *q) {
  double t0 = aucs_static_stats(S)->seconds;
  uint64_t linear0 = aucs_static_stats(S)->linear;
  qbuild b = {0};
  size_t nt = NWIT + S->nparams + 1;
  Z3_ast *terms = aucs_xcalloc(nt, sizeof *terms);
  uint64_t *vals = aucs_xcalloc(nt, sizeof *vals);
  encode(S, q, 0, &b);
  witness_terms(S, terms);
  for (unsigned i = 0; i < S->nparams; i++)
    terms[NWIT + i] = S->params[i];
  terms[nt - 1] = b.offset;
  aucs_smt_result r = ask(S, &b, terms, vals, nt, S->o.timeout_ms);
  if (r == AUCS_SMT_SAT && q->region >= 0)
    r = with_paths(S, q, &b, terms, vals, nt);
  q->verdict = r == AUCS_SMT_UNSAT ? AUCS_STATIC_UNSAT
               : r == AUCS_SMT_SAT ? AUCS_STATIC_SAT
                                   : AUCS_STATIC_UNKNOWN;
  if (r == AUCS_SMT_SAT) {
    read_witness(S, vals, &q->w);
    replayable_witness(S, q, &b, terms, vals, nt);
  }
  if (S->trace)
    trace_query(S, q, aucs_static_stats(S)->seconds - t0,
                aucs_static_stats(S)->linear > linear0);
  free(b.v);
  free(terms);
  free(vals);
}

static void solve_all(aucs_static *S, const qset *qs) {
  for (size_t i = 0; i < qs->n; i++) {
    query *q = &S->qs[qs->v[i]];
    if (!q->asked) {
      q->asked = 1;
      solve(S, q);
    }
  }
}

/* ---- pairs, barriers and the interface ---------------------------------*/

static int pair_of(aucs_static *S, const query *q) {
  const acc *a = &S->accs[q->a], *b = &S->accs[q->b];
  for (size_t i = 0; i < S->npairs; i++) {
    const aucs_static_pair *p = &S->pairs[i];
    if (p->inter_block == q->inter &&
        ((p->a.instr == a->instr && p->b.instr == b->instr) ||
         (p->a.instr == b->instr && p->b.instr == a->instr)))
      return (int)i;
  }
  S->pairs = aucs_xrealloc(S->pairs, (S->npairs + 1) * sizeof *S->pairs);
  aucs_static_pair *p = &S->pairs[S->npairs];
  int sp = a->space & b->space;
  size_t len;
  *p = (aucs_static_pair){
      .a = {.instr = a->instr, .op = a->op, .size = (unsigned)a->size},
      .b = {.instr = b->instr, .op = b->op, .size = (unsigned)b->size},
      .memory = sp == SP_SHARED   ? AUCS_MEM_SHARED
                : sp == SP_GLOBAL ? AUCS_MEM_GLOBAL
                                  : AUCS_MEM_NONE,
      .object = a->root ? LLVMGetValueName2(a->root, &len) : NULL,
      .inter_block = q->inter,
      .verdict = AUCS_STATIC_UNSAT,
  };
  return (int)S->npairs++;
}

/* A pair is SAT when one of its queries is, else UNKNOWN when one is. */
static void merge(aucs_static_pair *p, const query *q) {
  if (p->verdict == AUCS_STATIC_SAT || q->verdict == AUCS_STATIC_UNSAT)
    return;
  p->verdict = q->verdict;
}

static void copy_witness(const aucs_static *S, aucs_static_pair *p,
                         const query *q) {
  p->witness = q->w;
  p->witness.args = aucs_xcalloc(S->nparams + 1, sizeof *p->witness.args);
  if (q->w.args)
    memcpy(p->witness.args, q->w.args, S->nparams * sizeof *q->w.args);
}

static void make_pairs(aucs_static *S, const qset *qs) {
  for (size_t i = 0; i < qs->n; i++) {
    const query *q = &S->qs[qs->v[i]];
    int k = pair_of(S, q);
    aucs_static_pair *p = &S->pairs[k];
    int was_sat = p->verdict == AUCS_STATIC_SAT;
    merge(p, q);
    if (!was_sat && p->verdict == AUCS_STATIC_SAT)
      copy_witness(S, p, q);
  }
}

/* Barrier i is redundant when every query that appears without it is
 * UNSAT. */
static void barrier_redundancy(aucs_static *S, size_t i, const qset *base) {
  qset without = {0}, extra = {0};
  interval_queries(S, S->bars[i], &without);
  for (size_t k = 0; k < without.n; k++)
    if (!in_group(S, base, without.v[k]))
      qset_add(&extra, without.v[k]);
  solve_all(S, &extra);
  int proven = 1;
  for (size_t k = 0; k < extra.n; k++)
    proven &= S->qs[extra.v[k]].verdict == AUCS_STATIC_UNSAT;
  S->bar_red[i] = (unsigned char)proven;
  free(without.v);
  free(extra.v);
}

static void options(aucs_static *S, const aucs_static_options *o) {
  if (o)
    S->o = *o;
  if (!S->o.timeout_ms)
    S->o.timeout_ms = AUCS_STATIC_TIMEOUT_MS;
  if (!S->o.budget_ms)
    S->o.budget_ms = AUCS_STATIC_BUDGET_MS;
  const char *dbg = getenv("AUCS_DEBUG");
  S->trace = dbg && strstr(dbg, "static");
}

aucs_static *aucs_static_analyze(LLVMValueRef kernel,
                                 const aucs_static_options *o) {
  aucs_static *S = aucs_xcalloc(1, sizeof *S);
  options(S, o);
  S->fn = kernel;
  S->td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(kernel));
  S->cfg = aucs_cfg_build(kernel);
  S->u = aucs_uniform_compute(S->cfg);
  S->smt = aucs_smt_new(S->o.timeout_ms);
  S->z = aucs_smt_context(S->smt);
  make_symbols(S);
  unread_dims(S);
  fix_inputs(S);
  collect_barriers(S);
  collect_fn(S, new_frame(S, kernel, NULL, NULL), NULL);
  S->nassume = aucs_assume_collect(S->cfg, &S->assumes);
  S->assume_used = aucs_xcalloc(S->nassume + 1, 1);
  qset base = {0};
  interval_queries(S, NULL, &base);
  inter_queries(S, &base);
  solve_all(S, &base);
  make_pairs(S, &base);
  for (size_t i = 0; !S->o.skip_barriers && i < S->nbar; i++)
    if (S->bar_sep[i])
      barrier_redundancy(S, i, &base);
  free(base.v);
  return S;
}

void aucs_static_free(aucs_static *S) {
  if (!S)
    return;
  for (size_t i = 0; i < S->nq; i++) {
    free(S->qs[i].key);
    free(S->qs[i].modes);
    free(S->qs[i].w.args);
  }
  for (size_t i = 0; i < S->npairs; i++)
    free(S->pairs[i].witness.args);
  for (int i = 1; i < S->nframes; i++)
    aucs_cfg_free(S->frames[i]->cfg);
  for (int i = 0; i < S->nframes; i++)
    free(S->frames[i]);
  free(S->frames);
  free(S->qs);
  free(S->pairs);
  free(S->accs);
  free(S->bars);
  free(S->bar_sep);
  free(S->bar_red);
  free(S->warps);
  free(S->tails);
  for (size_t i = 0; i < S->nregions; i++)
    free(S->regions[i].edges);
  free(S->regions);
  free(S->params);
  free(S->launch);
  free(S->assumes);
  free(S->assume_used);
  aucs_ptrmap_free(&S->anchors);
  aucs_ptrmap_free(&S->barmap);
  aucs_ptrmap_free(&S->warpmap);
  aucs_ptrmap_free(&S->tailmap);
  aucs_ptrmap_free(&S->gbase);
  aucs_smt_free(S->smt);
  aucs_uniform_free(S->u);
  aucs_cfg_free(S->cfg);
  free(S);
}

size_t aucs_static_npairs(const aucs_static *s) { return s->npairs; }

const aucs_static_pair *aucs_static_pair_at(const aucs_static *s, size_t i) {
  return i < s->npairs ? &s->pairs[i] : NULL;
}

aucs_static_counts aucs_static_counts_of(const aucs_static *s) {
  aucs_static_counts c = {.total = s->npairs};
  for (size_t i = 0; i < s->npairs; i++) {
    aucs_static_verdict v = s->pairs[i].verdict;
    c.unsat += v == AUCS_STATIC_UNSAT;
    c.sat += v == AUCS_STATIC_SAT;
    c.unknown += v == AUCS_STATIC_UNKNOWN;
  }
  return c;
}

aucs_static_proof aucs_static_proof_of(const aucs_static *s) {
  aucs_static_counts c = aucs_static_counts_of(s);
  return c.unsat == c.total ? AUCS_PROOF_RACE_FREE
         : c.unsat            ? AUCS_PROOF_PARTIAL
                              : AUCS_PROOF_NONE;
}

const char *aucs_static_proof_name(aucs_static_proof p) {
  static const char *const names[] = {"none", "partial", "race-free"};
  return names[p];
}

const aucs_smt_stats *aucs_static_stats(const aucs_static *s) {
  return aucs_smt_stats_of(s->smt);
}

size_t aucs_static_nassumptions(const aucs_static *s) {
  size_t n = 0;
  for (size_t i = 0; i < s->nassume; i++)
    n += s->assume_used[i];
  return n;
}

LLVMValueRef aucs_static_assumption(const aucs_static *s, size_t i) {
  for (size_t k = 0; k < s->nassume; k++)
    if (s->assume_used[k] && i-- == 0)
      return s->assumes[k];
  return NULL;
}

size_t aucs_static_nbarriers(const aucs_static *s) { return s->nbar; }

LLVMValueRef aucs_static_barrier(const aucs_static *s, size_t i) {
  return i < s->nbar ? s->bars[i] : NULL;
}

int aucs_static_barrier_redundant(const aucs_static *s, LLVMValueRef barrier) {
  intptr_t i;
  return aucs_ptrmap_get(&s->barmap, barrier, &i) && s->bar_red[i - 1];
}

int aucs_static_prove_redundant(LLVMValueRef kernel, LLVMValueRef barrier,
                                const aucs_static_options *o) {
  aucs_static *s = aucs_static_analyze(kernel, o);
  int proven = aucs_static_barrier_redundant(s, barrier);
  aucs_static_free(s);
  return proven;
}
