/*
 * place: choosing the point for a barrier, and the IR edits of the repair
 * (see place.h for the rules of DESIGN.md 6.3 this implements).
 *
 * Finding the point for a race A -> B, in steps:
 *   1. Order the pair: A is the one that reaches the other barrier-free.
 *      Neither does: when neither reaches the other at all in the CFG they
 *      sit in exclusive arms of a branch (step 3); else NO_PATH.
 *   2. One block, A above B: the candidates lie between them.
 *   3. Otherwise: the rest of A's block, the start of B's block, and every
 *      barrier-free block X such that no barrier-free path from A to B
 *      avoids X (a cut vertex), nearest B first (BFS distance to B).
 *   4. The first candidate in a uniform block, in no loop that holds
 *      neither A nor B, wins. Its point moves up over the address
 *      arithmetic of B's statement so it lands on a statement boundary.
 *   5. None: LOOP when A or B is in a loop with a divergent exit, or both
 *      in one loop whose header is not uniform (the outermost such loop is
 *      named, to be uniformized), else FLATTEN the region between the nearest uniform block dominating both
 *      and the nearest uniform block post-dominating both.
 *
 * Splitting a block before `at` (for flattening a region where A and B
 * share a block):
 *
 *        preds                    preds
 *          |                        |
 *     +---------+              +---------+
 *     | bb:     |              | split:  |  phis, head
 *     |  phis   |              |  br bb  |
 *     |  head   |     ==>      +---------+
 *     |  at     |                   |
 *     |  tail   |              +---------+
 *     +---------+              | bb:     |  at, tail
 *          |                   +---------+
 *        succs                      |
 *                                 succs
 *
 * The tail keeps its block, so successors' phis stay valid. When `at` is
 * a load or store, the arithmetic right above it that only computes its
 * address (GEPs, casts, integer operations that cannot trap) stays with
 * it in bb: flattening then carries the address's inputs rather than the
 * address, and the access keeps a plain address (`&s[tid]`) that the
 * static checker decides without the solver (the final check of a loop
 * made uniform around `s[t] = f(s[t], s[t + 1])` was one solver query of
 * 4 ms per pair).
 *
 * Limitation: reachability ignores which threads take which path (a path
 * is barrier-free if the CFG has it); blockaddress users of a split block
 * are not redirected.
 */
#include "aucs/place.h"

#include "aucs/nvvm.h"
#include "aucs/srcloc.h"
#include "aucs/util.h"

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdlib.h>
#include <string.h>

/* ---- barriers -----------------------------------------------------------*/

static LLVMValueRef callee(LLVMValueRef I) {
  if (!I || !LLVMIsACallInst(I))
    return NULL;
  LLVMValueRef f = LLVMGetCalledValue(I);
  return f && LLVMIsAFunction(f) ? f : NULL;
}

int aucs_place_is_barrier_call(LLVMValueRef I) {
  LLVMValueRef f = callee(I);
  if (!f)
    return 0;
  size_t len;
  return aucs_nvvm_is_barrier(aucs_nvvm_classify(LLVMGetValueName2(f, &len)));
}

/* 1 when fn, or a function it calls, executes a barrier. */
static int fn_has_barrier(LLVMValueRef fn, aucs_ptrmap *seen) {
  intptr_t v;
  if (aucs_ptrmap_get(seen, fn, &v))
    return (int)v;
  aucs_ptrmap_put(seen, fn, 0);
  int has = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !has;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I && !has;
         I = LLVMGetNextInstruction(I)) {
      LLVMValueRef f = callee(I);
      has = aucs_place_is_barrier_call(I) ||
            (f && LLVMCountBasicBlocks(f) && fn_has_barrier(f, seen));
    }
  aucs_ptrmap_put(seen, fn, has);
  return has;
}

int aucs_place_is_barrier(LLVMValueRef I) {
  if (aucs_place_is_barrier_call(I))
    return 1;
  LLVMValueRef f = callee(I);
  if (!f || !LLVMCountBasicBlocks(f))
    return 0;
  aucs_ptrmap seen = {0};
  int has = fn_has_barrier(f, &seen);
  aucs_ptrmap_free(&seen);
  return has;
}

/* A barrier strictly between from and to in one block; from NULL: the
 * block's start, to NULL: its end. */
static int barrier_between(LLVMBasicBlockRef bb, LLVMValueRef from,
                           LLVMValueRef to) {
  LLVMValueRef I =
      from ? LLVMGetNextInstruction(from) : LLVMGetFirstInstruction(bb);
  for (; I && I != to; I = LLVMGetNextInstruction(I))
    if (aucs_place_is_barrier(I))
      return 1;
  return 0;
}

/* ---- reachability over barrier-free blocks -------------------------------*/

typedef struct ctx {
  const aucs_cfg *cfg;
  const aucs_uniformity *u;
  unsigned char *clear; /* per block: holds no barrier */
  int *stack;           /* room for every edge and every block */
  int cap;
} ctx;

static void ctx_init(ctx *c, const aucs_cfg *cfg, const aucs_uniformity *u) {
  c->cfg = cfg;
  c->u = u;
  c->clear = aucs_xcalloc((size_t)cfg->nblocks + 1, 1);
  c->cap = cfg->nblocks + 1;
  for (int b = 0; b < cfg->nblocks; b++)
    c->cap += cfg->nsucc[b];
  c->stack = aucs_xcalloc((size_t)c->cap, sizeof(int));
  for (int b = 0; b < cfg->nblocks; b++)
    c->clear[b] = !barrier_between(cfg->blocks[b], NULL, NULL);
}

static void ctx_free(ctx *c) {
  free(c->clear);
  free(c->stack);
}

/* Mark in seen the blocks a path from the end of `from` reaches through
 * barrier-free blocks (target is marked but not gone through; avoid is never
 * entered). barriers 0: any block may be gone through. 1 when target is
 * reached. */
static int reach(ctx *c, int from, int target, int avoid, int barriers,
                 unsigned char *seen) {
  const aucs_cfg *g = c->cfg;
  int n = 0, found = 0;
  for (int i = 0; i < g->nsucc[from]; i++)
    c->stack[n++] = g->succ[from][i];
  while (n) {
    int x = c->stack[--n];
    if (x == avoid || seen[x])
      continue;
    seen[x] = 1;
    if (x == target) {
      found = 1;
      continue;
    }
    if (barriers && !c->clear[x])
      continue;
    for (int i = 0; i < g->nsucc[x] && n < c->cap; i++)
      c->stack[n++] = g->succ[x][i];
  }
  return found;
}

static int reach_avoiding(ctx *c, int from, int target, int avoid) {
  unsigned char *seen = aucs_xcalloc((size_t)c->cfg->nblocks, 1);
  int r = reach(c, from, target, avoid, 1, seen);
  free(seen);
  return r;
}

static int block_of(const aucs_cfg *cfg, LLVMValueRef I) {
  return aucs_cfg_index(cfg, LLVMGetInstructionParent(I));
}

/* 1 when a comes before b in their common block. */
static int above(LLVMValueRef a, LLVMValueRef b) {
  for (LLVMValueRef I = LLVMGetNextInstruction(a); I;
       I = LLVMGetNextInstruction(I))
    if (I == b)
      return 1;
  return 0;
}

static int reaches(ctx *c, LLVMValueRef a, LLVMValueRef b) {
  int ba = block_of(c->cfg, a), bb = block_of(c->cfg, b);
  LLVMBasicBlockRef A = c->cfg->blocks[ba], B = c->cfg->blocks[bb];
  if (ba == bb && above(a, b))
    return !barrier_between(A, a, b);
  if (barrier_between(A, a, NULL) || barrier_between(B, NULL, b))
    return 0;
  return reach_avoiding(c, ba, bb, -1);
}

int aucs_place_reaches(const aucs_cfg *cfg, LLVMValueRef a, LLVMValueRef b) {
  ctx c;
  ctx_init(&c, cfg, NULL);
  int r = reaches(&c, a, b);
  ctx_free(&c);
  return r;
}

/* ---- candidates ---------------------------------------------------------*/

unsigned aucs_place_line_of(LLVMValueRef I) {
  LLVMMetadataRef loc = I ? LLVMInstructionGetDebugLoc(I) : NULL;
  if (!loc)
    return 0;
  for (LLVMMetadataRef up; (up = LLVMDILocationGetInlinedAt(loc));)
    loc = up;
  return LLVMDILocationGetLine(loc);
}

/* A call that only reads a special register (threadIdx, blockDim, ...). */
static int sreg_read(LLVMValueRef I) {
  LLVMValueRef f = callee(I);
  size_t len;
  if (!f)
    return 0;
  aucs_nvvm_kind k = aucs_nvvm_classify(LLVMGetValueName2(f, &len));
  return k == AUCS_NVVM_VARYING || k == AUCS_NVVM_UNIFORM ||
         k == AUCS_NVVM_PURE;
}

/* Address arithmetic may move below the barrier; memory, other calls and
 * phis may not. */
static int movable(LLVMValueRef I) {
  if (LLVMIsACallInst(I))
    return sreg_read(I);
  return !LLVMIsAPHINode(I) && !LLVMIsALoadInst(I) && !LLVMIsAStoreInst(I) &&
         !LLVMIsAAtomicRMWInst(I) && !LLVMIsAAtomicCmpXchgInst(I) &&
         !LLVMIsAAllocaInst(I);
}

/* The point in bb right before hi (NULL: the terminator), moved up over
 * hi's statement but never above lo (NULL: the block's start). */
static LLVMValueRef point(LLVMBasicBlockRef bb, LLVMValueRef lo,
                          LLVMValueRef hi) {
  LLVMValueRef at = hi ? hi : LLVMGetBasicBlockTerminator(bb);
  unsigned line = aucs_place_line_of(at);
  for (LLVMValueRef p = LLVMGetPreviousInstruction(at);
       line && p && p != lo && movable(p) && aucs_place_line_of(p) == line;
       p = LLVMGetPreviousInstruction(p))
    at = p;
  while (LLVMIsAPHINode(at))
    at = LLVMGetNextInstruction(at);
  return at;
}

/* at starts a statement: no instruction above it in its block carries the
 * same line. */
static int boundary(LLVMValueRef at) {
  unsigned line = aucs_place_line_of(at);
  for (LLVMValueRef p = LLVMGetPreviousInstruction(at); p;
       p = LLVMGetPreviousInstruction(p))
    if (aucs_place_line_of(p))
      return aucs_place_line_of(p) != line;
  return 1;
}

/* Every loop holding x holds a or b. */
static int loops_ok(const aucs_cfg *g, int x, int a, int b) {
  for (int l = g->loop_of[x]; l >= 0; l = g->loops[l].parent)
    if (!aucs_cfg_in_loop(g, l, a) && !aucs_cfg_in_loop(g, l, b))
      return 0;
  return 1;
}

static int usable(ctx *c, int x, int a, int b) {
  return aucs_uniform_block(c->u, x) && loops_ok(c->cfg, x, a, b);
}

/* BFS distance from each block to target, backwards through the blocks
 * marked in keep (-1: none). */
static int *distances(ctx *c, int target, const unsigned char *keep) {
  const aucs_cfg *g = c->cfg;
  int *d = aucs_xmalloc(sizeof(int) * (size_t)g->nblocks);
  for (int i = 0; i < g->nblocks; i++)
    d[i] = -1;
  int head = 0, tail = 0;
  d[target] = 0;
  c->stack[tail++] = target;
  while (head < tail) {
    int x = c->stack[head++];
    for (int i = 0; i < g->npred[x]; i++) {
      int p = g->pred[x][i];
      if (keep[p] && d[p] < 0 && tail < c->cap) {
        d[p] = d[x] + 1;
        c->stack[tail++] = p;
      }
    }
  }
  return d;
}

/* The usable cut block nearest B, or -1. */
static int nearest_cut(ctx *c, int ba, int bb) {
  const aucs_cfg *g = c->cfg;
  unsigned char *fwd = aucs_xcalloc((size_t)g->nblocks, 1);
  reach(c, ba, bb, -1, 1, fwd);
  int *d = distances(c, bb, fwd);
  int best = -1;
  for (int x = 0; x < g->nblocks; x++) {
    if (x == ba || x == bb || !fwd[x] || !c->clear[x] || d[x] < 0)
      continue;
    if ((best < 0 || d[x] < d[best]) && usable(c, x, ba, bb) &&
        !reach_avoiding(c, ba, bb, x))
      best = x;
  }
  free(fwd);
  free(d);
  return best;
}

/* Nearest uniform block dominating both a and b, and nearest uniform one
 * post-dominating both (or the virtual exit). */
static void region(ctx *c, int a, int b, int *entry, int *exit) {
  const aucs_cfg *g = c->cfg;
  int x = a;
  while (x >= 0 &&
         !(aucs_cfg_dominates(g, x, b) && aucs_uniform_block(c->u, x)))
    x = g->idom[x];
  *entry = x < 0 ? 0 : x;
  int y = g->ipdom[*entry];
  while (y >= 0 &&
         !(aucs_uniform_block(c->u, y) && aucs_cfg_postdominates(g, y, a) &&
           aucs_cfg_postdominates(g, y, b)))
    y = g->ipdom[y];
  *exit = y >= 0 ? y : AUCS_CFG_EXIT;
}

static int in_divergent_loop(ctx *c, int b) {
  return aucs_uniform_why(c->u, b, NULL, NULL) == AUCS_WHY_LOOP;
}

/* The outermost loop holding block x whose header is not uniform, or -1. */
static int nonuniform_loop(ctx *c, int x) {
  int best = -1;
  for (int l = c->cfg->loop_of[x]; l >= 0; l = c->cfg->loops[l].parent)
    if (!aucs_uniform_block(c->u, c->cfg->loops[l].header))
      best = l;
  return best;
}

/* The loop to uniformize before a barrier can order A and B, or -1. */
static int loop_to_uniformize(ctx *c, int ba, int bb) {
  int la = nonuniform_loop(c, ba), lb = nonuniform_loop(c, bb);
  if (in_divergent_loop(c, bb))
    return lb;
  if (in_divergent_loop(c, ba))
    return la;
  return la >= 0 && la == lb ? la : -1;
}

static aucs_place_status no_point(ctx *c, int ba, int bb, aucs_place *out) {
  int l = loop_to_uniformize(c, ba, bb);
  if (l >= 0) {
    out->loop = c->cfg->loops[l].header;
    out->step = 4;
    return out->status = AUCS_PLACE_LOOP;
  }
  region(c, ba, bb, &out->entry, &out->exit);
  out->step = 3;
  return out->status = AUCS_PLACE_FLATTEN;
}

static aucs_place_status found(aucs_place *out, int step, LLVMValueRef at) {
  out->step = step;
  out->before = at;
  return out->status = AUCS_PLACE_FOUND;
}

static aucs_place_status candidates(ctx *c, LLVMValueRef a, LLVMValueRef b,
                                    aucs_place *out) {
  const aucs_cfg *g = c->cfg;
  int ba = block_of(g, a), bb = block_of(g, b);
  if (ba == bb && above(a, b)) {
    if (aucs_uniform_block(c->u, ba))
      return found(out, 1, point(g->blocks[ba], a, b));
    out->split = 1;
    return no_point(c, ba, bb, out);
  }
  LLVMValueRef pts[3];
  int n = 0, x = nearest_cut(c, ba, bb);
  if (usable(c, bb, ba, bb))
    pts[n++] = point(g->blocks[bb], NULL, b);
  if (x >= 0)
    pts[n++] = point(g->blocks[x], NULL, NULL);
  if (usable(c, ba, ba, bb))
    pts[n++] = point(g->blocks[ba], a, NULL);
  for (int i = 0; i < n; i++)
    if (boundary(pts[i]))
      return found(out, 2, pts[i]);
  return n ? found(out, 2, pts[0]) : no_point(c, ba, bb, out);
}

aucs_place_status aucs_place_find(const aucs_cfg *cfg, const aucs_uniformity *u,
                                  LLVMValueRef a, LLVMValueRef b,
                                  aucs_place *out) {
  ctx c;
  ctx_init(&c, cfg, u);
  memset(out, 0, sizeof(*out));
  out->entry = out->exit = AUCS_CFG_NONE;
  out->loop = -1;
  out->first = a;
  out->second = b;
  aucs_place_status st;
  if (reaches(&c, a, b))
    st = candidates(&c, a, b, out);
  else {
    int ba = block_of(cfg, a), bb = block_of(cfg, b);
    unsigned char *s1 = aucs_xcalloc((size_t)cfg->nblocks, 2);
    int linked = a == b || reach(&c, ba, bb, -1, 0, s1) ||
                 reach(&c, bb, ba, -1, 0, s1 + cfg->nblocks);
    free(s1);
    int later = cfg->topo_index[bb] < cfg->topo_index[ba];
    out->first = later ? b : a;
    out->second = later ? a : b;
    st =
        linked ? (out->status = AUCS_PLACE_NO_PATH) : no_point(&c, ba, bb, out);
  }
  ctx_free(&c);
  return st;
}

/* ---- edits --------------------------------------------------------------*/

/* The branch of a guard block of a flattened region (flatten.c names them
 * `guard.X`): it carries the location of the `if` that decides X, above
 * the barrier; the statement a barrier before it precedes is X's first. */
static int guard_branch(LLVMValueRef I) {
  const char *name = LLVMGetBasicBlockName(LLVMGetInstructionParent(I));
  return LLVMIsABranchInst(I) && !strncmp(name, "guard", 5);
}

static LLVMValueRef barrier_decl(LLVMModuleRef m) {
  static const char *const names[] = {"llvm.nvvm.barrier.cta.sync.aligned.all",
                                      "llvm.nvvm.barrier0"};
  for (int i = 0; i < 2; i++) {
    LLVMValueRef f = LLVMGetNamedFunction(m, names[i]);
    if (f)
      return f;
  }
  for (int i = 0; i < 2; i++) {
    unsigned id = LLVMLookupIntrinsicID(names[i], strlen(names[i]));
    if (id)
      return LLVMGetIntrinsicDeclaration(m, id, NULL, 0);
  }
  AUCS_ASSERT(!"no barrier intrinsic in this LLVM");
  return NULL;
}

static int has_loc(LLVMValueRef I) {
  return LLVMInstructionGetDebugLoc(I) != NULL;
}

/* The location of the statement `before` starts: its own, or that of the
 * next instruction that has one (through jumps and guard branches). */
static LLVMMetadataRef loc_from(LLVMValueRef I) {
  if (I && (!has_loc(I) || guard_branch(I)))
    I = aucs_place_next_where(I, has_loc);
  return I ? LLVMInstructionGetDebugLoc(I) : NULL;
}

LLVMValueRef aucs_place_insert_barrier(LLVMValueRef before) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(before);
  LLVMModuleRef m = LLVMGetGlobalParent(LLVMGetBasicBlockParent(bb));
  LLVMContextRef cx = LLVMGetModuleContext(m);
  LLVMValueRef f = barrier_decl(m);
  LLVMTypeRef ty = LLVMGlobalGetValueType(f);
  LLVMValueRef zero = LLVMConstInt(LLVMInt32TypeInContext(cx), 0, 0);
  return aucs_place_call_before(before, ty, f, &zero,
                                LLVMCountParamTypes(ty) ? 1 : 0);
}

LLVMValueRef aucs_place_call_before(LLVMValueRef before, LLVMTypeRef ty,
                                    LLVMValueRef f, LLVMValueRef *args,
                                    unsigned n) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(
      LLVMGetModuleContext(LLVMGetGlobalParent(f)));
  LLVMPositionBuilderBefore(b, before);
  LLVMValueRef call = LLVMBuildCall2(b, ty, f, args, n, "");
  LLVMDisposeBuilder(b);
  LLVMMetadataRef loc = loc_from(before);
  if (loc)
    LLVMInstructionSetDebugLoc(call, loc);
  return call;
}

static void retarget(LLVMValueRef fn, LLVMBasicBlockRef from,
                     LLVMBasicBlockRef to) {
  for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(fn); p;
       p = LLVMGetNextBasicBlock(p)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(p);
    if (!t || p == to)
      continue;
    for (unsigned i = 0; i < LLVMGetNumSuccessors(t); i++)
      if (LLVMGetSuccessor(t, i) == from)
        LLVMSetSuccessor(t, i, to);
  }
}

/* Arithmetic that reads no memory and cannot trap. */
static const LLVMOpcode pure_ops[] = {
    LLVMGetElementPtr, LLVMZExt,          LLVMSExt,     LLVMTrunc,
    LLVMBitCast,       LLVMAddrSpaceCast, LLVMPtrToInt, LLVMIntToPtr,
    LLVMAdd,           LLVMSub,           LLVMMul,      LLVMShl,
    LLVMLShr,          LLVMAShr,          LLVMAnd,      LLVMOr,
    LLVMXor,           LLVMICmp,          LLVMSelect};

static int pure_arith(LLVMValueRef I) {
  LLVMOpcode op = LLVMGetInstructionOpcode(I);
  for (size_t i = 0; i < sizeof pure_ops / sizeof *pure_ops; i++)
    if (pure_ops[i] == op)
      return 1;
  return 0;
}

/* Whether I feeds at's address (its pointer operand) through the members
 * of keep, and every user of I above at is in keep. */
static int address_only(LLVMValueRef I, LLVMValueRef at, LLVMValueRef *keep,
                        size_t n) {
  LLVMValueRef ptr = LLVMGetOperand(at, LLVMIsAStoreInst(at) ? 1 : 0);
  int feeds = I == ptr;
  for (LLVMUseRef u = LLVMGetFirstUse(I); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    int kept = 0;
    for (size_t k = 0; k < n && !kept; k++)
      kept = keep[k] == user;
    feeds |= kept;
    if (!kept && above(user, at))
      return 0;
  }
  return feeds;
}

/* The arithmetic right above a load or store `at` that only computes its
 * address stays with it (keep, up to 16): the split then carries the
 * address's inputs, not the address, so the access after the split keeps
 * a plain address (`&s[tid]`) the static checker decides cheaply. */
static size_t address_chain(LLVMValueRef at, LLVMValueRef keep[16]) {
  size_t n = 0;
  if (!LLVMIsALoadInst(at) && !LLVMIsAStoreInst(at))
    return 0;
  for (LLVMValueRef I = LLVMGetPreviousInstruction(at);
       I && n < 16 && pure_arith(I); I = LLVMGetPreviousInstruction(I))
    if (address_only(I, at, keep, n))
      keep[n++] = I;
  return n;
}

LLVMBasicBlockRef aucs_place_split(LLVMValueRef at) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(at);
  LLVMValueRef fn = LLVMGetBasicBlockParent(bb), keep[16];
  size_t nkeep = address_chain(at, keep);
  LLVMContextRef cx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
  LLVMBasicBlockRef head = LLVMInsertBasicBlockInContext(cx, bb, "split");
  retarget(fn, bb, head);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cx);
  LLVMPositionBuilderAtEnd(b, head);
  for (LLVMValueRef I = LLVMGetFirstInstruction(bb), next; I != at; I = next) {
    next = LLVMGetNextInstruction(I);
    int kept = 0;
    for (size_t k = 0; k < nkeep && !kept; k++)
      kept = keep[k] == I;
    if (kept)
      continue;
    LLVMInstructionRemoveFromParent(I);
    LLVMInsertIntoBuilder(b, I);
  }
  LLVMValueRef br = LLVMBuildBr(b, bb);
  LLVMMetadataRef loc = loc_from(at);
  if (loc)
    LLVMInstructionSetDebugLoc(br, loc);
  LLVMDisposeBuilder(b);
  return head;
}

static unsigned calls_to(LLVMValueRef fn, LLVMValueRef target) {
  unsigned n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I))
      n += callee(I) == target;
  return n;
}

/* Remove (on=0) or restore (on=1) alwaysinline on the functions in fs. */
static size_t strip_alwaysinline(LLVMModuleRef m, unsigned kind,
                                 LLVMValueRef **fs) {
  size_t n = 0;
  *fs = NULL;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind)) {
      *fs = aucs_xrealloc(*fs, (n + 1) * sizeof(**fs));
      (*fs)[n++] = f;
      LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind);
    }
  return n;
}

int aucs_place_inline(LLVMValueRef call, char **err) {
  LLVMValueRef target = callee(call);
  LLVMValueRef caller = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  LLVMModuleRef m = LLVMGetGlobalParent(caller);
  LLVMContextRef cx = LLVMGetModuleContext(m);
  unsigned ai = LLVMGetEnumAttributeKindForName("alwaysinline", 12);
  unsigned ni = LLVMGetEnumAttributeKindForName("noinline", 8);
  if (!target || !LLVMCountBasicBlocks(target)) {
    *err = aucs_xstrdup("not a call to a defined function");
    return 1;
  }
  unsigned before = calls_to(caller, target);
  LLVMValueRef *fs;
  size_t n = strip_alwaysinline(m, ai, &fs);
  LLVMRemoveCallSiteEnumAttribute(call, LLVMAttributeFunctionIndex, ni);
  LLVMAddCallSiteAttribute(call, LLVMAttributeFunctionIndex,
                           LLVMCreateEnumAttribute(cx, ai, 0));
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(m, "always-inline", NULL, po);
  LLVMDisposePassBuilderOptions(po);
  for (size_t i = 0; i < n; i++)
    LLVMAddAttributeAtIndex(fs[i], LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(cx, ai, 0));
  free(fs);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    *err = aucs_xasprintf("always-inline: %s", msg);
    LLVMDisposeErrorMessage(msg);
    return 1;
  }
  if (calls_to(caller, target) + 1 != before) {
    *err = aucs_xstrdup("LLVM's inliner declined the call");
    return 1;
  }
  return 0;
}

/* ---- unfixable findings and source edits --------------------------------*/

/* I reaches itself again barrier-free (around a loop), so a barrier on
 * that path may order two of its executions. */
static int self_ordered(LLVMValueRef I) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(I));
  aucs_cfg *g = aucs_cfg_build(fn);
  int r = aucs_place_reaches(g, I, I);
  aucs_cfg_free(g);
  return r;
}

const char *aucs_place_unfixable(const aucs_finding *f,
                                 const char **suggestion) {
  switch (f->kind) {
  case AUCS_FINDING_INTER_BLOCK_RACE:
    *suggestion = "make the accesses atomic, synchronize the grid "
                  "(cooperative groups grid.sync()), or split the kernel "
                  "into two launches at this point";
    return "the accesses are by threads of different blocks, and "
           "__syncthreads() orders the threads of one block only";
  case AUCS_FINDING_TEXTURE_INCOHERENT:
    *suggestion = "read the buffer through its pointer in this kernel, or "
                  "write the results to another buffer (or launch)";
    return "no barrier makes a texture fetch see a write of the same launch";
  case AUCS_FINDING_OUT_OF_BOUNDS:
    *suggestion = "fix the index or guard the access with a bounds check";
    return "an out-of-bounds access is not a synchronization bug";
  case AUCS_FINDING_UNSUPPORTED:
    *suggestion = "check this kernel by hand";
    return "the detector cannot run this kernel";
  case AUCS_FINDING_RACE:
    if (f->a.instr && f->a.instr == f->b.instr && !self_ordered(f->a.instr)) {
      *suggestion = "make the write atomic, or give each thread its own "
                    "address (index by threadIdx)";
      return "one instruction races with itself (two threads write the "
             "same address through it in one barrier interval); a barrier "
             "cannot order an instruction with itself";
    }
    return NULL;
  default:
    return NULL;
  }
}

static int located(LLVMValueRef I) {
  return aucs_place_line_of(I) && !aucs_place_is_barrier_call(I);
}

LLVMValueRef aucs_place_next_where(LLVMValueRef I,
                                   int (*located)(LLVMValueRef)) {
  for (int steps = 0; I && steps < 256; steps++) {
    LLVMValueRef n = LLVMGetNextInstruction(I);
    if (!n && (LLVMGetNumSuccessors(I) == 1 || guard_branch(I)))
      n = LLVMGetFirstInstruction(LLVMGetSuccessor(I, 0));
    if (!n || (located(n) && !guard_branch(n)))
      return n;
    I = n;
  }
  return NULL;
}

int aucs_place_effectful(LLVMValueRef I) {
  switch (LLVMGetInstructionOpcode(I)) {
  case LLVMLoad:
  case LLVMStore:
  case LLVMAtomicRMW:
  case LLVMAtomicCmpXchg:
  case LLVMCall:
    return 1;
  default:
    return 0;
  }
}

/* The only predecessor of bb when it ends in an unconditional jump. */
static LLVMBasicBlockRef single_jump_pred(LLVMBasicBlockRef bb) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(bb);
  LLVMBasicBlockRef only = NULL;
  int preds = 0;
  for (LLVMBasicBlockRef x = LLVMGetFirstBasicBlock(fn); x;
       x = LLVMGetNextBasicBlock(x)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(x);
    for (unsigned i = 0; t && i < LLVMGetNumSuccessors(t); i++)
      if (LLVMGetSuccessor(t, i) == bb)
        preds++, only = x;
  }
  if (preds != 1 ||
      LLVMGetNumSuccessors(LLVMGetBasicBlockTerminator(only)) != 1)
    return NULL;
  return only;
}

LLVMValueRef aucs_place_prev_access_where(LLVMValueRef I,
                                          int (*located)(LLVMValueRef)) {
  for (int steps = 0; I && steps < 256; steps++) {
    LLVMValueRef p = LLVMGetPreviousInstruction(I);
    if (!p) {
      LLVMBasicBlockRef pred = single_jump_pred(LLVMGetInstructionParent(I));
      p = pred ? LLVMGetBasicBlockTerminator(pred) : NULL;
    }
    if (!p || (located(p) && aucs_place_effectful(p)))
      return p;
    I = p;
  }
  return NULL;
}

/* The locations of an instruction, innermost first (at most 16 levels). */
typedef struct chain {
  LLVMMetadataRef at[16];
  int n;
} chain;

static chain chain_of(LLVMValueRef I) {
  chain c = {.n = 0};
  for (LLVMMetadataRef l = I ? LLVMInstructionGetDebugLoc(I) : NULL;
       l && c.n < 16; l = LLVMDILocationGetInlinedAt(l))
    c.at[c.n++] = l;
  return c;
}

static LLVMMetadataRef file_of(LLVMMetadataRef loc) {
  return LLVMDIScopeGetFile(LLVMDILocationGetScope(loc));
}

/* The level j of next's chain whose function's body holds the barrier: the
 * innermost inlined copy that prev (the access before it) is also inside,
 * written in the kernel's file (code inlined from a header counts as the
 * statement that calls it); -1: none, the kernel's own code. prev's
 * location in that copy into *pl (NULL when no prev). */
static int body_level(const chain *next, const chain *prev,
                      LLVMMetadataRef *pl) {
  *pl = NULL;
  LLVMMetadataRef top = next->n ? file_of(next->at[next->n - 1]) : NULL;
  for (int j = 0; j + 1 < next->n; j++)
    for (int i = 0; i < prev->n && file_of(next->at[j]) == top; i++)
      if (LLVMDILocationGetInlinedAt(prev->at[i]) == next->at[j + 1]) {
        *pl = prev->at[i];
        return j;
      }
  *pl = prev->n ? prev->at[prev->n - 1] : NULL;
  return -1;
}

static char *file_line(LLVMMetadataRef loc) {
  LLVMMetadataRef file = LLVMDIScopeGetFile(LLVMDILocationGetScope(loc));
  unsigned len = 0;
  const char *name = file ? LLVMDIFileGetFilename(file, &len) : NULL;
  return aucs_xasprintf("%.*s:%u", (int)len, name ? name : "?",
                        LLVMDILocationGetLine(loc));
}

/* A barrier in the body of a __device__ helper inlined into the kernel
 * (level j of next's chain): the sentence names the helper's own line and
 * the call's. */
static char *helper_edit(LLVMValueRef bar, const chain *next,
                         LLVMMetadataRef pl, int j, char **why) {
  LLVMContextRef cx = LLVMGetModuleContext(LLVMGetGlobalParent(
      LLVMGetBasicBlockParent(LLVMGetInstructionParent(bar))));
  LLVMMetadataRef nl = next->at[j];
  unsigned n = LLVMDILocationGetLine(nl),
           p = pl ? LLVMDILocationGetLine(pl) : 0, len = 0;
  const char *fn =
      aucs_srcloc_scope_name(cx, LLVMDILocationGetScope(nl), &len);
  char *at = file_line(nl), *call = file_line(next->at[j + 1]), *out = NULL;
  char *helper = fn ? aucs_xasprintf("in helper %.*s, ", (int)len, fn)
                    : aucs_xstrdup("in the helper, ");
  if (pl && p == n)
    *why = aucs_xasprintf(
        "the barrier falls inside the statement at %s %s(called at %s), "
        "between its accesses: write that statement through a temporary and "
        "put __syncthreads(); between the read and the write",
        at, helper + 3, call);
  else if (pl && p > n) {
    free(at);
    at = file_line(pl);
    out = aucs_xasprintf("insert __syncthreads(); %safter %s (at the end of "
                         "the loop body; called at %s)",
                         helper, at, call);
  } else
    out = aucs_xasprintf("insert __syncthreads(); %sbefore %s (called at %s)",
                         helper, at, call);
  free(at), free(call), free(helper);
  return out;
}

/* The last line of the kernel's own code in block bb (0: none). */
static unsigned last_line(LLVMBasicBlockRef bb) {
  for (LLVMValueRef I = LLVMGetLastInstruction(bb); I;
       I = LLVMGetPreviousInstruction(I))
    if (located(I) && aucs_place_line_of(I))
      return aucs_place_line_of(I);
  return 0;
}

/* A block entered only from code below line n (the end of a loop body,
 * where control jumps back up to the increment at line n): the last of
 * its predecessors' lines, else 0. */
static unsigned from_below(LLVMBasicBlockRef bb, unsigned n) {
  unsigned p = 0, k = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(LLVMBasicBlockAsValue(bb)); u;
       u = LLVMGetNextUse(u), k++) {
    LLVMValueRef br = LLVMGetUser(u);
    unsigned l = LLVMIsAInstruction(br) && LLVMIsATerminatorInst(br)
                     ? last_line(LLVMGetInstructionParent(br))
                     : 0;
    if (l <= n)
      return 0;
    p = l > p ? l : p;
  }
  return k ? p : 0;
}

char *aucs_place_source_edit(LLVMValueRef bar, char **why) {
  LLVMValueRef next = aucs_place_next_where(bar, located),
               prev = aucs_place_prev_access_where(bar, located);
  *why = NULL;
  if (!next) {
    *why = aucs_xstrdup("no source location follows the barrier (compile "
                        "with -g for a source edit)");
    return NULL;
  }
  chain nc = chain_of(next), pc = chain_of(prev);
  LLVMMetadataRef pl;
  int j = body_level(&nc, &pc, &pl);
  if (j >= 0)
    return helper_edit(bar, &nc, pl, j, why);
  aucs_srcloc f = aucs_srcloc_of(next);
  unsigned n = aucs_place_line_of(next), p = aucs_place_line_of(prev);
  if (!prev && !LLVMGetPreviousInstruction(bar))
    p = from_below(LLVMGetInstructionParent(bar), n), prev = p ? bar : NULL;
  if (prev && p == n) {
    *why = aucs_xasprintf(
        "the barrier falls inside the statement at %.*s:%u, between its "
        "accesses: write that statement through a temporary and put "
        "__syncthreads(); between the read and the write",
        (int)f.file_len, f.file, n);
    return NULL;
  }
  if (prev && p > n)
    return aucs_xasprintf("insert __syncthreads(); after %.*s:%u (at the end "
                          "of the loop body)",
                          (int)f.file_len, f.file, p);
  return aucs_xasprintf("insert __syncthreads(); before %.*s:%u",
                        (int)f.file_len, f.file, n);
}
