/*
 * warpsync: a race between two threads of one warp, in code that only some
 * warps of the block reach, ordered by `__syncwarp()` instead of a block
 * barrier (warp-synchronous code: correct before Volta, a race under
 * independent thread scheduling).
 *
 *     if (tid < 32) {                     if (tid < 32) {
 *       s[tid] += s[tid + 16];    ->        <load s[tid+16]> <load s[tid]>
 *       s[tid] += s[tid + 8];               call @llvm.nvvm.bar.warp.sync(-1)
 *     }                                     <store s[tid]>
 *                                           call @llvm.nvvm.bar.warp.sync(-1)
 *                                           <the next step, the same> ...
 *
 * Steps (rp_plan_warp, the loop's variant RP_WARP, tried before the block
 * barrier for a race one of whose accesses sits in code not every thread
 * reaches, rp_warp_candidate):
 *   1. The finding's two threads are in one warp of the finding's launch
 *      (linear thread id / 32), and are not one instruction racing with
 *      itself; both accesses lie in code only the first warp runs (the
 *      true side of `lin < 32`, `lin < warpSize`, `lin <= 31`, or a block
 *      of at most 32 threads), so every race there is within one warp.
 *   2. For each order A -> B in which A reaches B barrier-free, the point
 *      is the first of: right before B when B is a store (after the reads
 *      of its statement), right after A, right before B, the start of the
 *      blocks that post-dominate A's (up to 4), that lies on every path
 *      from A to B and in a warp-uniform block (step 3). When every point
 *      is in a block every thread reaches, a __syncthreads() is right
 *      there and the variant declines.
 *   3. A block is warp-uniform when every branch it is control dependent
 *      on, directly or through other branches, is block-uniform or has a
 *      condition the same for the 32 lanes of a warp: a comparison of the
 *      linear thread id with a multiple of 32 (`tid < 32`,
 *      `tid < warpSize`, `tid >= 64`), and and/or/xor of such. The linear
 *      thread id is threadIdx.x of a one-dimensional block (or one whose x
 *      size is a multiple of 32), or threadIdx.y * blockDim.x + threadIdx.x
 *      of a block with z size 1.
 *   4. The other steps of the sequence in the blocks of A and B (each
 *      statement that reads another slot of the object and then writes
 *      it) get the same two points, before and after their write: once a
 *      __syncwarp has run, the detector may not show them (sibling_steps).
 *   5. The mask is the full warp (0xffffffff): by step 3 every lane of a
 *      warp that reaches the point reaches it together, the same number of
 *      times; a warp none of whose lanes reach it never waits. The repair
 *      loop then detects again: the race must be gone and no new finding
 *      may appear (a pair of other warps keeps the finding, and the block
 *      barrier variants follow).
 *
 * Limitation: the launch of the finding decides step 3's thread id (a
 * kernel launched with another block shape must be checked again); a
 * point that only some lanes of a warp reach (`if (tid < 16)`) would need a
 * partial mask and gets none: the block barrier variants answer such races.
 */
#include "repair_impl.h"

#include "aucs/nvvm.h"
#include "aucs/warpuni.h"

enum { FULL_MASK = -1, MAX_POST = 4 };

static int is_warpsync(LLVMValueRef I);

/* ---- step 3: values the same for every lane of a warp -------------------*/

typedef struct wctx {
  const aucs_uniformity *u;
  aucs_dim3 block;
} wctx;

/* Every branch b is control dependent on, directly or through other
 * branches, is the same for every lane of a warp (aucs/warpuni.h). */
static int block_warp_uniform(const aucs_cfg *g, const wctx *w, int b) {
  unsigned block[3] = {w->block.x, w->block.y, w->block.z};
  return aucs_warpuni_block(g, w->u, block, b);
}

/* The linear thread id itself (not plus a multiple of 32). */
static int lin_exact(const wctx *w, LLVMValueRef v) {
  while (LLVMIsAZExtInst(v) || LLVMIsASExtInst(v))
    v = LLVMGetOperand(v, 0);
  if (aucs_warpuni_sreg(v, "tid.x"))
    return w->block.y == 1 && w->block.z == 1;
  if (!LLVMIsABinaryOperator(v) || (LLVMGetInstructionOpcode(v) != LLVMAdd &&
                                    LLVMGetInstructionOpcode(v) != LLVMOr))
    return 0;
  for (int k = 0; k < 2; k++)
    if (aucs_warpuni_sreg(LLVMGetOperand(v, k), "tid.x") &&
        aucs_warpuni_row(LLVMGetOperand(v, !k), w->block.x) && w->block.z == 1)
      return 1;
  return 0;
}

/* `lin < 32`, `lin < warpSize`, `lin <= 31`: true for warp 0 alone. */
static int first_warp(const wctx *w, LLVMValueRef cmp) {
  LLVMIntPredicate p = LLVMGetICmpPredicate(cmp);
  LLVMValueRef r = LLVMGetOperand(cmp, 1);
  long long c;
  if (!lin_exact(w, LLVMGetOperand(cmp, 0)))
    return 0;
  if (p == LLVMIntULT || p == LLVMIntSLT)
    return (aucs_warpuni_const(r, &c) && c == 32) ||
           aucs_warpuni_sreg(r, "warpsize");
  return (p == LLVMIntULE || p == LLVMIntSLE) && aucs_warpuni_const(r, &c) &&
         c == 31;
}

/* Only the lanes of one warp of the block reach block b (so every race
 * there is between lanes of one warp): the block has at most 32 threads,
 * or b lies on the true side of a first_warp branch (that side entered
 * from nowhere else). */
static int one_warp_region(const aucs_cfg *g, const wctx *w, int b) {
  if ((unsigned long)w->block.x * w->block.y * w->block.z <= 32)
    return 1;
  for (int c = 0; c < g->nblocks; c++) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[c]);
    LLVMValueRef cond = g->topo_index[c] >= 0 && term &&
                                LLVMIsABranchInst(term) &&
                                LLVMIsConditional(term)
                            ? LLVMGetCondition(term)
                            : NULL;
    if (!cond || !LLVMIsAICmpInst(cond) || !first_warp(w, cond))
      continue;
    int T = aucs_cfg_index(g, LLVMGetSuccessor(term, 0));
    int ok = T != aucs_cfg_index(g, LLVMGetSuccessor(term, 1)) &&
             aucs_cfg_dominates(g, T, b);
    for (int i = 0; ok && i < g->npred[T]; i++)
      ok = g->pred[T][i] == c || aucs_cfg_dominates(g, T, g->pred[T][i]);
    if (ok)
      return 1;
  }
  return 0;
}

/* ---- step 2: the point ---------------------------------------------------*/

static int is_barrier_like(LLVMValueRef I) {
  return aucs_place_is_barrier(I) || is_warpsync(I);
}

/* Whether a path from right after a reaches b without passing p (nor a
 * barrier). */
static int avoids(const aucs_cfg *g, LLVMValueRef a, LLVMValueRef b,
                  LLVMValueRef p) {
  unsigned char *seen = aucs_xcalloc((size_t)g->nblocks, 1);
  int *q = aucs_xmalloc((size_t)(g->nblocks + 1) * sizeof *q), head = 0,
      tail = 0, found = 0;
  LLVMValueRef from = LLVMGetNextInstruction(a);
  int start = aucs_cfg_index(g, LLVMGetInstructionParent(a));
  for (int first = 1; !found && (first || head < tail); first = 0) {
    int blk = first ? start : q[head++];
    LLVMValueRef I = first ? from : LLVMGetFirstInstruction(g->blocks[blk]);
    int stop = 0;
    for (; I && !stop; I = LLVMGetNextInstruction(I)) {
      stop = I == p || is_barrier_like(I); /* p == b: the point is before b */
      if (!stop && I == b) {
        found = 1;
        break;
      }
    }
    if (found || stop)
      continue;
    for (int i = 0; i < g->nsucc[blk]; i++) {
      int s = g->succ[blk][i];
      if (!seen[s]) {
        seen[s] = 1;
        q[tail++] = s;
      }
    }
  }
  free(seen);
  free(q);
  return found;
}

static LLVMValueRef first_insertion(LLVMBasicBlockRef bb) {
  LLVMValueRef I = LLVMGetFirstInstruction(bb);
  while (I && LLVMIsAPHINode(I))
    I = LLVMGetNextInstruction(I);
  return I;
}

static int usable(const aucs_cfg *g, const wctx *w, LLVMValueRef a,
                  LLVMValueRef b, LLVMValueRef p) {
  return p && !LLVMIsAPHINode(p) &&
         block_warp_uniform(g, w,
                            aucs_cfg_index(g, LLVMGetInstructionParent(p))) &&
         !avoids(g, a, b, p);
}

/* The instruction the __syncwarp goes right before, ordering a -> b. */
static LLVMValueRef point_for(const aucs_cfg *g, const wctx *w, LLVMValueRef a,
                              LLVMValueRef b) {
  LLVMValueRef next = LLVMGetNextInstruction(a);
  if (LLVMIsAStoreInst(b) && usable(g, w, a, b, b))
    return b; /* after every read of b's statement: its split form */
  if (usable(g, w, a, b, next))
    return next;
  if (usable(g, w, a, b, b))
    return b;
  int blk = aucs_cfg_index(g, LLVMGetInstructionParent(a));
  for (int k = 0; k < MAX_POST && blk >= 0; k++) {
    blk = g->ipdom[blk];
    if (blk < 0)
      break;
    LLVMValueRef p = first_insertion(g->blocks[blk]);
    if (usable(g, w, a, b, p))
      return p;
  }
  return NULL;
}

/* ---- step 1 and the edit -------------------------------------------------*/

static unsigned linear_tid(aucs_dim3 t, aucs_dim3 blk) {
  return t.x + blk.x * (t.y + blk.y * t.z);
}

static int one_warp(const aucs_finding *f) {
  aucs_dim3 blk = f->launch.block;
  return f->a.block.x == f->b.block.x && f->a.block.y == f->b.block.y &&
         f->a.block.z == f->b.block.z &&
         linear_tid(f->a.thread, blk) / 32 == linear_tid(f->b.thread, blk) / 32;
}

LLVMValueRef rp_warpsync_insert(LLVMValueRef before, int mask) {
  LLVMModuleRef m = LLVMGetGlobalParent(
      LLVMGetBasicBlockParent(LLVMGetInstructionParent(before)));
  LLVMContextRef cx = LLVMGetModuleContext(m);
  static const char name[] = "llvm.nvvm.bar.warp.sync";
  LLVMTypeRef i32 = LLVMInt32TypeInContext(cx);
  LLVMValueRef f = LLVMGetNamedFunction(m, name);
  if (!f)
    f = LLVMGetIntrinsicDeclaration(
        m, LLVMLookupIntrinsicID(name, sizeof name - 1), NULL, 0);
  LLVMTypeRef ty = LLVMGlobalGetValueType(f);
  LLVMValueRef arg = LLVMConstInt(i32, (unsigned)mask, 0);
  return aucs_place_call_before(before, ty, f, &arg, 1);
}

static int is_warpsync(LLVMValueRef I) {
  return !strcmp(aucs_nvvm_callee(I), "llvm.nvvm.bar.warp.sync");
}

/* A sync in the latch of a loop whose header statement is on line `line`,
 * after the body's last statement: that statement's line, else 0. */
static unsigned body_end(LLVMValueRef sync, unsigned line) {
  aucs_cfg *g = aucs_cfg_build(rp_fn_of(sync));
  int b = aucs_cfg_index(g, LLVMGetInstructionParent(sync)), l = g->loop_of[b];
  unsigned last = 0;
  for (int i = 0; l >= 0 && i < g->loops[l].nlatches; i++)
    if (g->loops[l].latches[i] == b)
      last = 1;
  if (last) {
    last = 0;
    for (int i = 0; i < g->loops[l].nblocks; i++)
      for (LLVMValueRef I =
               LLVMGetFirstInstruction(g->blocks[g->loops[l].blocks[i]]);
           I; I = LLVMGetNextInstruction(I)) {
        unsigned at = aucs_place_line_of(I);
        if (at > last)
          last = at;
      }
  }
  aucs_cfg_free(g);
  return last > line ? last : 0;
}

/* The source edit: place.c's, spelt with __syncwarp(); a sync in a loop's
 * latch, which place.c puts before the loop's header line, goes after the
 * body's last statement. */
static char *warp_source_edit(LLVMValueRef sync, char **why) {
  char *bar = aucs_place_source_edit(sync, why);
  static const char before[] = "insert __syncthreads(); before ";
  const char *colon = bar ? strrchr(bar, ':') : NULL;
  unsigned end = colon && !strncmp(bar, before, sizeof before - 1)
                     ? body_end(sync, (unsigned)strtoul(colon + 1, NULL, 10))
                     : 0;
  if (end) {
    char *out = aucs_xasprintf(
        "insert __syncthreads(); after %.*s:%u (at the end of the loop body)",
        (int)(colon - bar - (sizeof before - 1)), bar + sizeof before - 1, end);
    free(bar);
    bar = out;
  }
  char *text = bar ? bar : *why;
  static const char from[] = "__syncthreads();";
  char *at = text ? strstr(text, from) : NULL;
  if (at) {
    char *out = aucs_xasprintf("%.*s__syncwarp();%s", (int)(at - text), text,
                               at + strlen(from));
    free(text);
    text = out;
  }
  if (bar)
    return text;
  *why = text;
  return NULL;
}

static void log_sync(state *s, trial *t, LLVMValueRef before, LLVMValueRef a,
                     LLVMValueRef b) {
  LLVMValueRef fn = rp_fn_of(before);
  aucs_edit e = {.kind = AUCS_EDIT_INSERT_WARP_SYNC};
  e.where = rp_where(before, ", before");
  LLVMValueRef sync = rp_trial_op(t, (op){OP_WARPSYNC,
                                          rp_pos_of(before),
                                          ++t->next_id,
                                          FULL_MASK,
                                          0,
                                          {0, 0, 0}});
  if (!sync)
    return;
  e.id = t->next_id;
  e.source = aucs_srcloc_format(sync);
  char *why = NULL;
  e.source_edit = warp_source_edit(sync, &why);
  aucs_srcloc x = aucs_srcloc_of(a), y = aucs_srcloc_of(b);
  e.why = aucs_xasprintf(
      "warp-synchronous code: correct before Volta, a race under independent "
      "thread scheduling: the racing threads (lines %u and %u) are lanes of "
      "one warp, and every lane of a warp reaches this point together, so "
      "__syncwarp() with the full mask orders them without a block "
      "barrier, which the threads that skip this code would never reach%s%s",
      x.line, y.line, why ? "; " : "", why ? why : "");
  free(why);
  rp_log_edit(s, t, e, fn);
}

/* The object a pointer is into: through GEPs and casts. */
static LLVMValueRef base_of(LLVMValueRef p) {
  for (int k = 0; k < 32; k++) {
    if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) ||
        LLVMIsAAddrSpaceCastInst(p))
      p = LLVMGetOperand(p, 0);
    else if (LLVMIsAConstantExpr(p) &&
             (LLVMGetConstOpcode(p) == LLVMGetElementPtr ||
              LLVMGetConstOpcode(p) == LLVMAddrSpaceCast ||
              LLVMGetConstOpcode(p) == LLVMBitCast))
      p = LLVMGetOperand(p, 0);
    else
      break;
  }
  return p;
}

static LLVMValueRef pointer_of(LLVMValueRef I) {
  if (LLVMIsALoadInst(I))
    return LLVMGetOperand(I, 0);
  if (LLVMIsAStoreInst(I))
    return LLVMGetOperand(I, 1);
  return NULL;
}

typedef struct points {
  LLVMValueRef at[64], x[64], y[64];
  int n;
} points;

static void add_point(points *ps, LLVMValueRef at, LLVMValueRef x,
                      LLVMValueRef y) {
  LLVMValueRef prev = at ? LLVMGetPreviousInstruction(at) : NULL;
  if (!at || ps->n == 64 || (prev && is_warpsync(prev)))
    return;
  for (int i = 0; i < ps->n; i++)
    if (ps->at[i] == at)
      return;
  ps->at[ps->n] = at;
  ps->x[ps->n] = x;
  ps->y[ps->n++] = y;
}

/* The other steps of a warp-synchronous sequence in block bb: each
 * statement that reads the object (another element) and then writes it
 * gets the same two points, before its write and after it (the
 * detector may show only the first step: volatile accesses of a slot
 * written since the last barrier pass for a flag hand-off). */
static void sibling_steps(points *ps, LLVMBasicBlockRef bb, LLVMValueRef obj) {
  for (LLVMValueRef S = LLVMGetFirstInstruction(bb); S;
       S = LLVMGetNextInstruction(S)) {
    if (!LLVMIsAStoreInst(S) || base_of(pointer_of(S)) != obj)
      continue;
    /* the step: the loads since the last store or sync (of S's line,
     * when the module has lines) */
    unsigned line = LLVMGetDebugLocLine(S);
    LLVMValueRef first = NULL;
    for (LLVMValueRef L = LLVMGetPreviousInstruction(S); L;
         L = LLVMGetPreviousInstruction(L)) {
      if (LLVMIsAStoreInst(L) || is_warpsync(L))
        break;
      if (LLVMIsALoadInst(L) && LLVMGetDebugLocLine(L) == line &&
          base_of(pointer_of(L)) == obj && pointer_of(L) != pointer_of(S))
        first = L;
    }
    if (!first)
      continue;
    add_point(ps, S, first, S);
    LLVMValueRef after = LLVMGetNextInstruction(S);
    if (after && !LLVMIsATerminatorInst(after))
      add_point(ps, after, S, S);
  }
}

int rp_plan_warp(state *s, trial *t, LLVMValueRef kernel,
                 const aucs_finding *f) {
  LLVMValueRef a = f->a.instr, b = f->b.instr, k0;
  /* the trial's finding has its instructions only: threads and launch
   * are the item's */
  const aucs_finding *seen = rp_lookup_cur(s, &s->r->items[t->item], &k0);
  (void)kernel;
  if (!a || !b || a == b || rp_fn_of(a) != rp_fn_of(b) || !seen ||
      !one_warp(seen)) {
    free(t->why);
    t->why = aucs_xstrdup("the racing threads are not two lanes of one warp");
    return 1;
  }
  aucs_cfg *g = aucs_cfg_build(rp_fn_of(a));
  aucs_uniformity *u = aucs_uniform_compute(g);
  wctx w = {u, seen->launch.block};
  points ps = {0};
  if (!one_warp_region(g, &w, aucs_cfg_index(g, LLVMGetInstructionParent(a))) ||
      !one_warp_region(g, &w, aucs_cfg_index(g, LLVMGetInstructionParent(b)))) {
    aucs_uniform_free(u);
    aucs_cfg_free(g);
    free(t->why);
    t->why = aucs_xstrdup("the accesses are not in code that only the first "
                          "warp runs (`if (tid < 32)`, `tid < warpSize`): "
                          "lanes of another warp may race there too, and a "
                          "part of a warp would need a partial mask");
    return 1;
  }
  for (int k = 0; k < 2; k++) {
    LLVMValueRef x = k ? b : a, y = k ? a : b;
    if (aucs_place_reaches(g, x, y))
      add_point(&ps, point_for(g, &w, x, y), x, y);
  }
  int found = ps.n, divergent = 0;
  for (int i = 0; i < ps.n; i++)
    divergent |= !aucs_uniform_block(
        u, aucs_cfg_index(g, LLVMGetInstructionParent(ps.at[i])));
  if (!divergent && found) { /* a __syncthreads() there is reached too */
    aucs_uniform_free(u);
    aucs_cfg_free(g);
    free(t->why);
    t->why = aucs_xstrdup("every thread of the block reaches the point "
                          "between the accesses: a block barrier orders "
                          "them, whichever warps take part");
    return 1;
  }
  LLVMValueRef st = LLVMIsAStoreInst(a) ? a : LLVMIsAStoreInst(b) ? b : NULL;
  for (int k = 0; found && st && k < 2; k++) {
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(k ? b : a);
    if (block_warp_uniform(g, &w, aucs_cfg_index(g, bb)) &&
        (!k || bb != LLVMGetInstructionParent(a)))
      sibling_steps(&ps, bb, base_of(pointer_of(st)));
  }
  aucs_uniform_free(u);
  aucs_cfg_free(g);
  if (!found) {
    free(t->why);
    t->why = aucs_xstrdup("no point between the accesses is reached by every "
                          "lane of a warp together (a __syncwarp there "
                          "would need a partial mask)");
    return 1;
  }
  /* every point is found before any is inserted */
  for (int i = 0; i < ps.n && !t->why; i++)
    log_sync(s, t, ps.at[i], ps.x[i], ps.y[i]);
  return t->why != NULL;
}

/* Whether the warp variant may answer f: a race of two distinct
 * instructions of which one sits in code not every thread of the block
 * reaches (in uniform code a __syncthreads() stays the answer). */
int rp_warp_candidate(const aucs_finding *f) {
  if (f->kind != AUCS_FINDING_RACE || !f->a.instr || !f->b.instr ||
      f->a.instr == f->b.instr || !one_warp(f))
    return 0;
  LLVMValueRef fn = rp_fn_of(f->a.instr);
  if (rp_fn_of(f->b.instr) != fn)
    return 0;
  aucs_cfg *g = aucs_cfg_build(fn);
  aucs_uniformity *u = aucs_uniform_compute(g);
  int divergent =
      !aucs_uniform_block(
          u, aucs_cfg_index(g, LLVMGetInstructionParent(f->a.instr))) ||
      !aucs_uniform_block(
          u, aucs_cfg_index(g, LLVMGetInstructionParent(f->b.instr)));
  aucs_uniform_free(u);
  aucs_cfg_free(g);
  return divergent;
}
