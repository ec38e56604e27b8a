/*
 * flatten: guard every block of a divergent region with its entry condition
 * (the contract is aucs/flatten.h; DESIGN.md section 6.2).
 *
 * Algorithm:
 *   1. The region R: every block reachable from u1 without passing u2. It
 *      must be entered only from u1, hold no return, and leave only to u2.
 *      A loop whose header is in R must lie wholly in R and is one node,
 *      kept whole; it must exit to a single block, else its exits are
 *      first merged (LLVM's unify-loop-exits: one new exit block whose
 *      phis say which target to take and carry the values). An
 *      irreducible cycle in R is first made reducible (LLVM's
 *      fix-irreducible), or reported.
 *   2. Entry conditions relative to u1 (cond.h: EC(u1) = true).
 *   3. Lay the nodes N0..Nn-1 out in topological order. Before each Ni put
 *      a guard Gi: `br EC(Ni), Ni, Gi+1`; before u2 a final guard Gn:
 *      `br u2`. u1 and every edge out of Ni into R or to u2 now go to the
 *      next guard. The ECs are built along the chain, each guard reusing
 *      what earlier guards computed.
 *   4. Phis of node entries and of u2: the edge p -> Y now runs p -> Gk ->
 *      ... -> Gy -> Y. Along the chain a "carrier" holds the value Y's phi
 *      takes from the last predecessor that ran: at Gi+1 it is the value
 *      for the exit of Ni when Ni is a predecessor of Y, else unchanged.
 *      Y's phi takes the carrier from Gy (u2 keeps its other entries).
 *   5. SSA repair: a value v defined in node k whose use is no longer
 *      dominated by its definition (the new CFG says) reads instead a phi
 *      at Gk+1: v from the exits of Nk, and from Gk (Nk skipped) poison,
 *      or zero when a guard's condition reads v (a guard must not branch
 *      on poison). Gk+1 dominates every later block of the chain and u2.
 *   6. Verify the function.
 * This is exact because guards run in topological order, so the original
 * blocks that run are those of the original path, in its order; every
 * value read is the one the original run read.
 *
 *        u1                    u1
 *       /  \                   |
 *      a    b      ==>       guard.a: br EC(a) = c, a, guard.b
 *       \  /                   |   \
 *        u2                    |    a
 *                              |   /
 *                            guard.b: br EC(b) = !c, b, guard.u2
 *                              |   \
 *                              |    b
 *                              |   /
 *                            guard.u2: br u2
 *                              |
 *                              u2
 *
 * Every guard post-dominates the guard before it and the node between
 * them, so every thread that reaches u1 runs every guard: the guards are
 * uniform wherever u1 is.
 *
 * The transform is first made on a clone of the module and verified there;
 * the function itself is edited only when the clone verified.
 *
 * Exit flattening (DESIGN.md section 8): a `ret` reached under a
 * thread-dependent condition is an edge to the function's exit.
 *   E1. Merge the returns: each `ret` becomes `br %exit` (its location
 *       kept), %exit returns (a phi of the values when there are any).
 *   E2. %exit post-dominates every block, so the region from a uniform
 *       block before the early return to %exit holds the return as an
 *       edge to %exit; flattening it (steps 1-6) guards every later block
 *       by its entry condition, which is `active` (the negated return
 *       condition) ANDed with the block's own conditions. The one `ret` is
 *       at the end, and the threads that "returned" run the guards to it.
 *   E3. keep_in: a barrier that starts its block moves into the guard just
 *       before that block, which every thread runs.
 *
 *        entry: br c, %exit, %work        entry: br guard.work
 *        work:  s[t] = ..                 guard.work: br !c, work, guard.sync
 *               br %sync                  work: s[t] = ..; br guard.sync
 *        sync:  __syncthreads()   ==>     guard.sync: __syncthreads()
 *               .. = s[..]                            br !c, sync, guard.exit
 *               br %exit                  sync: .. = s[..]; br guard.exit
 *        exit:  ret                       guard.exit: br exit;  exit: ret
 *
 * A uniform early return is left alone: the region that holds a barrier
 * starts at the nearest uniform block dominating it, after that return.
 *
 * Limitation: terminators other than br, switch and unreachable, and
 * regions entered other than at u1, are rejected. fix-irreducible and
 * unify-loop-exits run on the whole function (the C API runs no pass on one
 * loop), so they also rewrite its other irreducible cycles and other loops
 * with several exit blocks; they run only when the region needs them.
 */
#include "aucs/flatten.h"

#include "aucs/cond.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NEEDS_REDUCIBLE = 100, NEEDS_ONE_EXIT };

/* AUCS_DEBUG=flatten: each region, its nodes and their guards' conditions
 * (on the real function, not the trial clone), on stderr. */
static int tracing(void) {
  const char *d = getenv("AUCS_DEBUG");
  return d && strstr(d, "flatten");
}

/* The region of (u1, u2) over one cfg. */
typedef struct region {
  const aucs_cfg *cfg;
  int u1, u2;
  unsigned char *in; /* per block */
  int *node_of;      /* per block in R: its node, else -1 */
  int *nodes;        /* entry block of each node, layout order */
  int *loop;         /* per node: the loop kept whole, or -1 */
  int n;
  int split[3]; /* a loop with two exit blocks: header, exits; or -1 */
  aucs_arena *arena;
} region;

static const char *bname(const aucs_cfg *cfg, int b) {
  const char *s = LLVMGetBasicBlockName(cfg->blocks[b]);
  return *s ? s : "<unnamed>";
}

static aucs_flatten_status fail(char **err, aucs_flatten_status st,
                                const char *fmt, ...) AUCS_PRINTF(3, 4);
static aucs_flatten_status fail(char **err, aucs_flatten_status st,
                                const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  *err = aucs_xvasprintf(fmt, ap);
  va_end(ap);
  return st;
}

/* ---- 1. the region ---- */

static void reach(region *r) {
  const aucs_cfg *cfg = r->cfg;
  int *work = AUCS_ANEW(r->arena, int, cfg->nblocks), n = 0;
  work[n++] = r->u1;
  while (n) {
    int b = work[--n];
    for (int k = 0; k < cfg->nsucc[b]; k++) {
      int s = cfg->succ[b][k];
      if (s != r->u2 && !r->in[s]) {
        r->in[s] = 1;
        work[n++] = s;
      }
    }
  }
}

static aucs_flatten_status check_terminator(region *r, int b, char **err) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(r->cfg->blocks[b]);
  LLVMOpcode op = t ? LLVMGetInstructionOpcode(t) : LLVMRet;
  if (op == LLVMRet)
    return fail(err, AUCS_FLATTEN_BAD_REGION,
                "%%%s leaves the function before %%%s", bname(r->cfg, b),
                bname(r->cfg, r->u2));
  if (op != LLVMBr && op != LLVMSwitch && (op != LLVMUnreachable || b == r->u1))
    return fail(err, AUCS_FLATTEN_UNSUPPORTED,
                "unsupported: the terminator of %%%s is no br or switch",
                bname(r->cfg, b));
  return AUCS_FLATTEN_OK;
}

static aucs_flatten_status check_blocks(region *r, char **err) {
  const aucs_cfg *cfg = r->cfg;
  if (r->in[r->u1])
    return fail(err, AUCS_FLATTEN_BAD_REGION,
                "%%%s lies on a cycle inside its region (a loop header, or "
                "a cycle not through %%%s)",
                bname(cfg, r->u1), bname(cfg, r->u2));
  aucs_flatten_status st = check_terminator(r, r->u1, err);
  for (int b = 0; b < cfg->nblocks && !st; b++) {
    if (!r->in[b])
      continue;
    for (int k = 0; k < cfg->npred[b] && !st; k++) {
      int p = cfg->pred[b][k];
      if (cfg->reachable[p] && !r->in[p] && p != r->u1)
        st = fail(err, AUCS_FLATTEN_BAD_REGION,
                  "%%%s is entered from %%%s, outside the region of %%%s",
                  bname(cfg, b), bname(cfg, p), bname(cfg, r->u1));
    }
    if (!st)
      st = check_terminator(r, b, err);
  }
  return st;
}

/* The outermost loop holding b whose header is in R, or -1. */
static int outer_loop(const region *r, int b) {
  int top = -1;
  for (int l = r->cfg->loop_of[b]; l >= 0; l = r->cfg->loops[l].parent)
    if (r->in[r->cfg->loops[l].header])
      top = l;
  return top;
}

static aucs_flatten_status check_loop(region *r, int l, char **err) {
  const aucs_cfg *cfg = r->cfg;
  const aucs_loop *lp = &cfg->loops[l];
  int target = -1;
  for (int i = 0; i < lp->nblocks; i++) {
    int b = lp->blocks[i];
    if (!r->in[b])
      return fail(err, AUCS_FLATTEN_BAD_REGION,
                  "the region ends inside loop %%%s", bname(cfg, lp->header));
    for (int k = 0; k < cfg->nsucc[b]; k++) {
      int s = cfg->succ[b][k];
      if (aucs_cfg_in_loop(cfg, l, s) || s == target)
        continue;
      if (target >= 0 && r->split[0] < 0) {
        r->split[0] = lp->header;
        r->split[1] = target;
        r->split[2] = s;
      }
      if (target < 0)
        target = s;
    }
  }
  return AUCS_FLATTEN_OK;
}

/* Edges between the nodes of R, as counts: in[j] edges into node j. */
static void count_in(const region *r, int *in) {
  const aucs_cfg *cfg = r->cfg;
  for (int b = 0; b < cfg->nblocks; b++)
    for (int k = 0; r->in[b] && k < cfg->nsucc[b]; k++) {
      int s = cfg->succ[b][k];
      if (r->in[s] && r->node_of[s] != r->node_of[b])
        in[r->node_of[s]]++;
    }
}

/* Lay the nodes out in a topological order of the region's DAG that keeps
 * the function's block order where it can (Kahn, smallest block first). */
static void sort_nodes(region *r) {
  const aucs_cfg *cfg = r->cfg;
  int n = r->n, *in = AUCS_ANEW(r->arena, int, n);
  int *order = AUCS_ANEW(r->arena, int, n), *rank = AUCS_ANEW(r->arena, int, n);
  unsigned char *done = AUCS_ANEW(r->arena, unsigned char, n);
  count_in(r, in);
  for (int k = 0; k < n; k++) {
    int pick = -1;
    for (int i = 0; i < n && pick < 0; i++) /* nodes are in block order */
      if (!done[i] && !in[i])
        pick = i;
    AUCS_ASSERT(pick >= 0); /* R without its loops is acyclic */
    done[pick] = 1;
    order[k] = pick;
    rank[pick] = k;
    for (int b = 0; b < cfg->nblocks; b++)
      for (int e = 0; r->node_of[b] == pick && e < cfg->nsucc[b]; e++) {
        int s = cfg->succ[b][e];
        if (r->in[s] && r->node_of[s] != pick)
          in[r->node_of[s]]--;
      }
  }
  int *nodes = AUCS_ANEW(r->arena, int, n), *loop = AUCS_ANEW(r->arena, int, n);
  for (int k = 0; k < n; k++) {
    nodes[k] = r->nodes[order[k]];
    loop[k] = r->loop[order[k]];
  }
  for (int b = 0; b < cfg->nblocks; b++)
    if (r->node_of[b] >= 0)
      r->node_of[b] = rank[r->node_of[b]];
  r->nodes = nodes;
  r->loop = loop;
}

static aucs_flatten_status make_nodes(region *r, char **err) {
  const aucs_cfg *cfg = r->cfg;
  for (int b = 0; b < cfg->nblocks; b++) {
    if (!r->in[b])
      continue;
    int l = outer_loop(r, b);
    if (l >= 0 && cfg->loops[l].header != b)
      continue;
    if (l >= 0) {
      aucs_flatten_status st = check_loop(r, l, err);
      if (st)
        return st;
    }
    r->loop[r->n] = l;
    r->node_of[b] = r->n;
    for (int k = 0; l >= 0 && k < cfg->loops[l].nblocks; k++)
      r->node_of[cfg->loops[l].blocks[k]] = r->n;
    r->nodes[r->n++] = b;
  }
  sort_nodes(r);
  return AUCS_FLATTEN_OK;
}

static int touches_cycle(const region *r) {
  for (int c = 0; c < r->cfg->ncycles; c++)
    for (int i = 0; i < r->cfg->cycles[c].nblocks; i++)
      if (r->in[r->cfg->cycles[c].blocks[i]])
        return 1;
  return 0;
}

/* Fill r for (u1, u2) of cfg. 0, a status with *err, NEEDS_REDUCIBLE or
 * NEEDS_ONE_EXIT (r filled, r->split names the loop).
 * r->arena is the caller's. */
static int collect(region *r, const aucs_cfg *cfg, int u1, int u2, char **err) {
  int nb = cfg->nblocks;
  aucs_arena *a = r->arena;
  *r = (region){cfg,
                u1,
                u2,
                AUCS_ANEW(a, unsigned char, nb),
                AUCS_ANEW(a, int, nb),
                AUCS_ANEW(a, int, nb),
                AUCS_ANEW(a, int, nb),
                0,
                {-1, -1, -1},
                a};
  if (u1 < 0 || u1 >= nb || u2 < 0 || u2 >= nb || u1 == u2 ||
      !cfg->reachable[u1])
    return fail(err, AUCS_FLATTEN_BAD_REGION,
                "no region between blocks "
                "#%d and #%d",
                u1, u2);
  for (int b = 0; b < nb; b++)
    r->node_of[b] = -1;
  reach(r);
  if (touches_cycle(r))
    return NEEDS_REDUCIBLE;
  int st = (int)check_blocks(r, err);
  if (!st)
    st = (int)make_nodes(r, err);
  return !st && r->split[0] >= 0 ? NEEDS_ONE_EXIT : st;
}

/* ---- 3. guards ---- */

typedef struct flat {
  region r;
  LLVMValueRef fn;
  LLVMContextRef ctx;
  LLVMBuilderRef b;
  LLVMBasicBlockRef *guard; /* n + 1 */
  aucs_ptrmap is_guard;     /* guard block -> index */
  aucs_ptrmap node_of;      /* block -> node, for blocks in R */
  aucs_ptrmap repaired;     /* value -> its phi after the chain */
  aucs_cfg *after;          /* the CFG once rewired */
} flat;

static LLVMBasicBlockRef bb(const flat *f, int b) {
  return f->r.cfg->blocks[b];
}

static LLVMMetadataRef term_loc(LLVMBasicBlockRef b) {
  return LLVMInstructionGetDebugLoc(LLVMGetBasicBlockTerminator(b));
}

/* The location of the branch that decides whether block y runs. */
static LLVMMetadataRef decider_loc(const flat *f, int y) {
  int d = f->r.cfg->idom[y];
  if (d < 0 || (!f->r.in[d] && d != f->r.u1))
    d = f->r.u1;
  return term_loc(bb(f, d));
}

static void make_guards(flat *f) {
  region *r = &f->r;
  f->guard = AUCS_ANEW(r->arena, LLVMBasicBlockRef, r->n + 1);
  for (int i = 0; i <= r->n; i++) {
    int y = i < r->n ? r->nodes[i] : r->u2;
    const char *yname = LLVMGetBasicBlockName(bb(f, y));
    char *name =
        *yname ? aucs_xasprintf("guard.%s", yname) : aucs_xstrdup("guard");
    f->guard[i] = LLVMInsertBasicBlockInContext(f->ctx, bb(f, y), name);
    free(name);
    aucs_ptrmap_put(&f->is_guard, f->guard[i], i);
  }
}

static void trace(const flat *f, aucs_conds *conds) {
  size_t len;
  const char *fn = LLVMGetValueName2(f->fn, &len);
  fprintf(stderr, "aucs: flatten @%.*s: region %%%s .. %%%s, %d nodes\n",
          (int)len, fn, bname(f->r.cfg, f->r.u1), bname(f->r.cfg, f->r.u2),
          f->r.n);
  for (int i = 0; i < f->r.n; i++) {
    char *ec = aucs_cond_format(conds, f->r.nodes[i]);
    fprintf(stderr, "aucs: flatten   %%%s%s: %s\n",
            bname(f->r.cfg, f->r.nodes[i]), f->r.loop[i] >= 0 ? " (loop)" : "",
            ec);
    free(ec);
  }
}

static void fill_guards(flat *f, aucs_conds *conds) {
  region *r = &f->r;
  LLVMMetadataRef *loc = AUCS_ANEW(r->arena, LLVMMetadataRef, r->n + 1);
  for (int i = 0; i <= r->n; i++)
    loc[i] = decider_loc(f, i < r->n ? r->nodes[i] : r->u2);
  for (int i = 0; i < r->n; i++) {
    LLVMPositionBuilderAtEnd(f->b, f->guard[i]);
    LLVMSetCurrentDebugLocation2(f->b, loc[i]);
    LLVMValueRef ec = aucs_cond_emit(conds, r->nodes[i], f->b);
    LLVMBuildCondBr(f->b, ec, bb(f, r->nodes[i]), f->guard[i + 1]);
  }
  LLVMPositionBuilderAtEnd(f->b, f->guard[r->n]);
  LLVMSetCurrentDebugLocation2(f->b, loc[r->n]);
  LLVMBuildBr(f->b, bb(f, r->u2));
}

/* Replace the terminator of block x by `br to`, keeping its location. */
static void branch_to(flat *f, LLVMBasicBlockRef x, LLVMBasicBlockRef to) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(x);
  if (!LLVMGetNumSuccessors(t))
    return; /* unreachable */
  LLVMPositionBuilderBefore(f->b, t);
  LLVMSetCurrentDebugLocation2(f->b, LLVMInstructionGetDebugLoc(t));
  LLVMBuildBr(f->b, to);
  LLVMInstructionEraseFromParent(t);
}

static void rewire(flat *f) {
  region *r = &f->r;
  const aucs_cfg *cfg = r->cfg;
  branch_to(f, bb(f, r->u1), f->guard[0]);
  for (int i = 0; i < r->n; i++) {
    if (r->loop[i] < 0) {
      branch_to(f, bb(f, r->nodes[i]), f->guard[i + 1]);
      continue;
    }
    const aucs_loop *l = &cfg->loops[r->loop[i]];
    for (int k = 0; k < l->nblocks; k++) {
      LLVMValueRef t = LLVMGetBasicBlockTerminator(bb(f, l->blocks[k]));
      for (unsigned s = 0; s < LLVMGetNumSuccessors(t); s++) {
        int to = aucs_cfg_index(cfg, LLVMGetSuccessor(t, s));
        if (!aucs_cfg_in_loop(cfg, r->loop[i], to))
          LLVMSetSuccessor(t, s, f->guard[i + 1]);
      }
    }
  }
}

/* ---- 4. phis of node entries and u2 ---- */

/* Number of edges from block from to block to. */
static unsigned edges(LLVMBasicBlockRef from, LLVMBasicBlockRef to) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(from);
  unsigned n = 0;
  for (unsigned s = 0; t && s < LLVMGetNumSuccessors(t); s++)
    n += LLVMGetSuccessor(t, s) == to;
  return n;
}

static void add_incoming(LLVMValueRef phi, LLVMValueRef v,
                         LLVMBasicBlockRef from, unsigned times) {
  for (unsigned i = 0; i < times; i++)
    LLVMAddIncoming(phi, &v, &from, 1);
}

static void position_for_phi(flat *f, LLVMBasicBlockRef x) {
  LLVMValueRef i = LLVMGetFirstInstruction(x);
  while (i && LLVMGetInstructionOpcode(i) == LLVMPHI)
    i = LLVMGetNextInstruction(i);
  LLVMPositionBuilderBefore(f->b, i);
  LLVMSetCurrentDebugLocation2(f->b, NULL);
}

/* Name v "<of's name>.<what>", or "<what>" when of has no name. */
static void name_after(LLVMValueRef v, LLVMValueRef of, const char *what) {
  size_t len;
  const char *name = LLVMGetValueName2(of, &len);
  char *n = len ? aucs_xasprintf("%.*s.%s", (int)len, name, what)
                : aucs_xstrdup(what);
  LLVMSetValueName2(v, n, strlen(n));
  free(n);
}

/* The value phi takes over an edge from block from, or NULL. */
static LLVMValueRef incoming_from(LLVMValueRef phi, LLVMBasicBlockRef from) {
  for (unsigned k = 0; k < LLVMCountIncoming(phi); k++)
    if (LLVMGetIncomingBlock(phi, k) == from)
      return LLVMGetIncomingValue(phi, k);
  return NULL;
}

/* 1 when the entry of phi (at block y) from block p was rewired through
 * the guards: p is u1 or in R, and not inside the loop headed by y. */
static int rewired(const flat *f, int y, LLVMBasicBlockRef p) {
  int pi = aucs_cfg_index(f->r.cfg, p);
  if (pi < 0 || (!f->r.in[pi] && pi != f->r.u1))
    return 0;
  int node = y == f->r.u2 ? -1 : f->r.node_of[y];
  return !(node >= 0 && f->r.loop[node] >= 0 && f->r.node_of[pi] == node);
}

/* The value at guard gi+1 given cur at guard gi: a phi when the exits of
 * node i bring phi's values for y. */
static LLVMValueRef carry(flat *f, LLVMValueRef phi, int i, LLVMValueRef cur) {
  LLVMBasicBlockRef g = f->guard[i + 1];
  int changed = 0;
  for (int b = 0; b < f->r.cfg->nblocks && !changed; b++) {
    if (f->r.node_of[b] != i || !edges(bb(f, b), g))
      continue;
    LLVMValueRef v = incoming_from(phi, bb(f, b));
    changed = v && v != cur;
  }
  if (!changed)
    return cur;
  position_for_phi(f, g);
  LLVMValueRef c = LLVMBuildPhi(f->b, LLVMTypeOf(phi), "");
  add_incoming(c, cur, f->guard[i], 1);
  for (int b = 0; b < f->r.cfg->nblocks; b++) {
    unsigned m = f->r.node_of[b] == i ? edges(bb(f, b), g) : 0;
    LLVMValueRef v = m ? incoming_from(phi, bb(f, b)) : NULL;
    add_incoming(c, v ? v : cur, bb(f, b), m);
  }
  name_after(c, phi, "carry");
  return c;
}

/* Rebuild phi at block y (guard index gy) with its rewired entries
 * replaced by one from the guard; drop it when nothing else is left. */
static void rebuild_phi(flat *f, LLVMValueRef phi, int y, int gy) {
  LLVMBasicBlockRef ub1 = bb(f, f->r.u1);
  LLVMValueRef cur = incoming_from(phi, ub1);
  if (!cur)
    cur = LLVMGetPoison(LLVMTypeOf(phi));
  for (int i = 0; i < gy; i++)
    cur = carry(f, phi, i, cur);
  int kept = 0;
  for (unsigned k = 0; k < LLVMCountIncoming(phi); k++)
    kept += !rewired(f, y, LLVMGetIncomingBlock(phi, k));
  if (!kept) {
    LLVMReplaceAllUsesWith(phi, cur);
    LLVMInstructionEraseFromParent(phi);
    return;
  }
  LLVMPositionBuilderBefore(f->b, phi);
  LLVMSetCurrentDebugLocation2(f->b, NULL);
  LLVMValueRef np = LLVMBuildPhi(f->b, LLVMTypeOf(phi), "");
  for (unsigned k = 0; k < LLVMCountIncoming(phi); k++) {
    LLVMBasicBlockRef p = LLVMGetIncomingBlock(phi, k);
    if (!rewired(f, y, p))
      add_incoming(np, LLVMGetIncomingValue(phi, k), p, 1);
  }
  add_incoming(np, cur, f->guard[gy], 1);
  size_t len;
  const char *name = LLVMGetValueName2(phi, &len);
  char *keep = aucs_xasprintf("%.*s", (int)len, name);
  LLVMReplaceAllUsesWith(phi, np);
  LLVMInstructionEraseFromParent(phi);
  LLVMSetValueName2(np, keep, strlen(keep));
  free(keep);
}

static void rebuild_phis_of(flat *f, int y, int gy) {
  LLVMValueRef i = LLVMGetFirstInstruction(bb(f, y));
  while (i && LLVMGetInstructionOpcode(i) == LLVMPHI) {
    LLVMValueRef next = LLVMGetNextInstruction(i);
    rebuild_phi(f, i, y, gy);
    i = next;
  }
}

static void rebuild_phis(flat *f) {
  for (int i = 0; i < f->r.n; i++)
    rebuild_phis_of(f, f->r.nodes[i], i);
  rebuild_phis_of(f, f->r.u2, f->r.n);
}

/* ---- 5. SSA repair ---- */

static int def_dominates(const flat *f, LLVMValueRef v, LLVMBasicBlockRef use) {
  const aucs_cfg *a = f->after;
  int u = aucs_cfg_index(a, use);
  if (u < 0 || !a->reachable[u])
    return 1; /* the verifier checks no dominance in unreachable blocks */
  return aucs_cfg_dominates(a, aucs_cfg_index(a, LLVMGetInstructionParent(v)),
                            u);
}

/* 1 when a guard's condition (not a carrier phi) reads v. */
static int read_by_guard(const flat *f, LLVMValueRef v) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMGetInstructionOpcode(user) != LLVMPHI &&
        aucs_ptrmap_get(&f->is_guard, LLVMGetInstructionParent(user), NULL))
      return 1;
  }
  return 0;
}

/* v after the guard that follows its node. */
static LLVMValueRef repaired(flat *f, LLVMValueRef v) {
  intptr_t got;
  if (aucs_ptrmap_get(&f->repaired, v, &got))
    return (LLVMValueRef)got;
  intptr_t k;
  AUCS_ASSERT(aucs_ptrmap_get(&f->node_of, LLVMGetInstructionParent(v), &k));
  LLVMTypeRef t = LLVMTypeOf(v);
  LLVMValueRef skip = read_by_guard(f, v) ? LLVMConstNull(t) : LLVMGetPoison(t);
  LLVMBasicBlockRef g = f->guard[k + 1];
  position_for_phi(f, g);
  LLVMValueRef phi = LLVMBuildPhi(f->b, t, "");
  add_incoming(phi, skip, f->guard[k], 1);
  for (int b = 0; b < f->r.cfg->nblocks; b++) {
    unsigned m = f->r.node_of[b] == k ? edges(bb(f, b), g) : 0;
    if (m)
      add_incoming(phi, def_dominates(f, v, bb(f, b)) ? v : skip, bb(f, b), m);
  }
  name_after(phi, v, "flat");
  aucs_ptrmap_put(&f->repaired, v, (intptr_t)phi);
  return phi;
}

static void repair_user(flat *f, LLVMValueRef v, LLVMValueRef user) {
  int is_phi = LLVMGetInstructionOpcode(user) == LLVMPHI;
  LLVMBasicBlockRef at = LLVMGetInstructionParent(user);
  if (!is_phi && at == LLVMGetInstructionParent(v))
    return;
  for (int k = 0; k < LLVMGetNumOperands(user); k++) {
    if (LLVMGetOperand(user, (unsigned)k) != v)
      continue;
    if (is_phi)
      at = LLVMGetIncomingBlock(user, (unsigned)k);
    if (!def_dominates(f, v, at))
      LLVMSetOperand(user, (unsigned)k, repaired(f, v));
  }
}

static void repair_value(flat *f, LLVMValueRef v) {
  int n = 0, cap = 8;
  LLVMValueRef *users = aucs_xmalloc(sizeof(*users) * (size_t)cap);
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (n && users[n - 1] == user)
      continue;
    if (n == cap)
      users = aucs_xrealloc(users, sizeof(*users) * (size_t)(cap *= 2));
    users[n++] = user;
  }
  for (int i = 0; i < n; i++)
    repair_user(f, v, users[i]);
  free(users);
}

static void repair_ssa(flat *f) {
  f->after = aucs_cfg_build(f->fn);
  for (int b = 0; b < f->r.cfg->nblocks; b++) {
    if (!f->r.in[b])
      continue;
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb(f, b)); i;
         i = LLVMGetNextInstruction(i))
      if (LLVMGetTypeKind(LLVMTypeOf(i)) != LLVMVoidTypeKind)
        repair_value(f, i);
  }
}

/* ---- driver ---- */

/* Run LLVM pass `pass` on fn; nonzero with *err when it failed. */
static int run_pass(LLVMValueRef fn, const char *pass, const char *why,
                    char **err) {
  LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPassesOnFunction(fn, pass, NULL, o);
  LLVMDisposePassBuilderOptions(o);
  if (!e)
    return 0;
  char *msg = LLVMGetErrorMessage(e);
  *err = aucs_xasprintf("unsupported: %s (%s: %s)", why, pass, msg);
  LLVMDisposeErrorMessage(msg);
  return 1;
}

/* Make fn reducible, or give its loops single exits, as st asks. */
static int reshape(LLVMValueRef fn, int st, int *fixed, char **err) {
  if (st == NEEDS_ONE_EXIT)
    return run_pass(fn, "unify-loop-exits", "a loop with several exits", err);
  *fixed = 1;
  return run_pass(fn, "fix-irreducible", "irreducible region", err);
}

static int still(const region *r, int st, char **err) {
  if (st == NEEDS_REDUCIBLE)
    return fail(err, AUCS_FLATTEN_UNSUPPORTED,
                "unsupported: the region stays irreducible");
  if (st == NEEDS_ONE_EXIT)
    return fail(err, AUCS_FLATTEN_UNSUPPORTED,
                "unsupported: loop %%%s exits to both %%%s and %%%s "
                "after unify-loop-exits",
                bname(r->cfg, r->split[0]), bname(r->cfg, r->split[1]),
                bname(r->cfg, r->split[2]));
  return st;
}

/* Find the region of (u1, u2), first making fn reducible and then merging
 * the exits of its loops, each once and only if needed; on success *cfg is
 * the cfg r refers to. */
static int prepare(LLVMValueRef fn, int u1, int u2, region *r, aucs_cfg **cfg,
                   int *fixed, char **err) {
  *cfg = aucs_cfg_build(fn);
  int st = collect(r, *cfg, u1, u2, err), ran = 0;
  while (st == NEEDS_REDUCIBLE || st == NEEDS_ONE_EXIT) {
    int pass = st == NEEDS_ONE_EXIT ? 2 : 1;
    if (ran & pass)
      break;
    ran |= pass;
    LLVMBasicBlockRef b1 = (*cfg)->blocks[u1], b2 = (*cfg)->blocks[u2];
    aucs_cfg_free(*cfg);
    *cfg = NULL;
    if (reshape(fn, st, fixed, err))
      return AUCS_FLATTEN_UNSUPPORTED;
    *cfg = aucs_cfg_build(fn);
    u1 = aucs_cfg_index(*cfg, b1);
    u2 = aucs_cfg_index(*cfg, b2);
    st = collect(r, *cfg, u1, u2, err);
  }
  return still(r, st, err);
}

static void index_nodes(flat *f) {
  for (int b = 0; b < f->r.cfg->nblocks; b++)
    if (f->r.in[b])
      aucs_ptrmap_put(&f->node_of, bb(f, b), f->r.node_of[b]);
}

static void fill_result(const flat *f, aucs_flatten_result *out, int fixed) {
  int n = f->r.n + 1;
  out->n = n;
  out->made_reducible = fixed;
  out->nodes = aucs_xmalloc(sizeof(*out->nodes) * (size_t)n);
  out->guards = aucs_xmalloc(sizeof(*out->guards) * (size_t)n);
  for (int i = 0; i < n; i++) {
    out->nodes[i] = bb(f, i < f->r.n ? f->r.nodes[i] : f->r.u2);
    out->guards[i] = f->guard[i];
  }
}

static aucs_flatten_status verify(LLVMValueRef fn, char **err) {
  if (!LLVMVerifyFunction(fn, LLVMReturnStatusAction))
    return AUCS_FLATTEN_OK;
  char *msg = NULL;
  LLVMVerifyModule(LLVMGetGlobalParent(fn), LLVMReturnStatusAction, &msg);
  *err = aucs_xasprintf("internal: the flattened function does not verify: %s",
                        msg ? msg : "?");
  LLVMDisposeMessage(msg);
  return AUCS_FLATTEN_INTERNAL;
}

/* Steps 1-6 on fn itself. */
static aucs_flatten_status transform(LLVMValueRef fn, int u1, int u2,
                                     aucs_flatten_result *out, char **err) {
  flat f = {.fn = fn};
  f.r.arena = aucs_arena_new();
  aucs_cfg *cfg = NULL;
  int fixed = 0;
  int st = prepare(fn, u1, u2, &f.r, &cfg, &fixed, err);
  if (!st) {
    f.ctx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
    f.b = LLVMCreateBuilderInContext(f.ctx);
    aucs_conds *conds = aucs_cond_compute(cfg, f.r.u1);
    if (out && tracing())
      trace(&f, conds);
    index_nodes(&f);
    make_guards(&f);
    fill_guards(&f, conds);
    rewire(&f);
    rebuild_phis(&f);
    repair_ssa(&f);
    st = verify(fn, err);
    if (!st && out)
      fill_result(&f, out, fixed);
    aucs_cond_free(conds);
    LLVMDisposeBuilder(f.b);
  }
  aucs_cfg_free(f.after);
  aucs_cfg_free(cfg);
  aucs_ptrmap_free(&f.is_guard);
  aucs_ptrmap_free(&f.node_of);
  aucs_ptrmap_free(&f.repaired);
  aucs_arena_free(f.r.arena);
  return (aucs_flatten_status)st;
}

/* fn's counterpart in clone, a clone of fn's module. */
static LLVMValueRef counterpart(LLVMValueRef fn, LLVMModuleRef clone) {
  LLVMValueRef g = LLVMGetFirstFunction(LLVMGetGlobalParent(fn));
  LLVMValueRef h = LLVMGetFirstFunction(clone);
  for (; g != fn; g = LLVMGetNextFunction(g))
    h = LLVMGetNextFunction(h);
  return h;
}

/* Flatten, first on a clone of fn's module when checked (so that a failure
 * leaves fn as it was). */
static aucs_flatten_status flatten_region(LLVMValueRef fn, int u1, int u2,
                                          aucs_flatten_result *out, char **err,
                                          int checked) {
  if (out)
    *out = (aucs_flatten_result){0};
  *err = NULL;
  if (!LLVMCountBasicBlocks(fn))
    return fail(err, AUCS_FLATTEN_BAD_REGION, "the function has no body");
  if (LLVMVerifyFunction(fn, LLVMReturnStatusAction))
    return fail(err, AUCS_FLATTEN_BAD_REGION,
                "the function does not verify before flattening");
  if (!checked)
    return transform(fn, u1, u2, out, err);
  LLVMModuleRef clone = LLVMCloneModule(LLVMGetGlobalParent(fn));
  aucs_flatten_status st = transform(counterpart(fn, clone), u1, u2, NULL, err);
  LLVMDisposeModule(clone);
  if (st)
    return st;
  st = transform(fn, u1, u2, out, err);
  AUCS_ASSERT(st == AUCS_FLATTEN_OK); /* the clone verified */
  return st;
}

aucs_flatten_status aucs_flatten_region(LLVMValueRef fn, int u1, int u2,
                                        aucs_flatten_result *out, char **err) {
  return flatten_region(fn, u1, u2, out, err, 1);
}

aucs_flatten_status aucs_flatten_region_unchecked(LLVMValueRef fn, int u1,
                                                  int u2,
                                                  aucs_flatten_result *out,
                                                  char **err) {
  return flatten_region(fn, u1, u2, out, err, 0);
}

void aucs_flatten_result_free(aucs_flatten_result *r) {
  if (!r)
    return;
  free(r->nodes);
  free(r->guards);
  *r = (aucs_flatten_result){0};
}

LLVMBasicBlockRef aucs_flatten_guard_of(const aucs_flatten_result *r,
                                        LLVMBasicBlockRef b) {
  for (int i = 0; i < r->n; i++)
    if (r->nodes[i] == b)
      return r->guards[i];
  return NULL;
}

/* ---- finding a region ---- */

/* The nearest uniform strict post-dominator of b, or -1. */
static int uniform_postdom(const aucs_cfg *cfg, const aucs_uniformity *uni,
                           int b) {
  int p = cfg->ipdom[b];
  while (p >= 0 && !aucs_uniform_block(uni, p))
    p = cfg->ipdom[p];
  return p >= 0 ? p : -1;
}

int aucs_flatten_find_region(const aucs_cfg *cfg, const aucs_uniformity *uni,
                             int block, int *u1, int *u2) {
  if (block < 0 || block >= cfg->nblocks || !cfg->reachable[block])
    return 1;
  region r = {.arena = aucs_arena_new()};
  int found = 0;
  for (int d = cfg->idom[block]; d >= 0 && !found; d = cfg->idom[d]) {
    int p = aucs_uniform_block(uni, d) ? uniform_postdom(cfg, uni, d) : -1;
    if (p < 0 || p == block)
      continue;
    char *err = NULL;
    int st = collect(&r, cfg, d, p, &err);
    free(err);
    if (st == NEEDS_REDUCIBLE)
      found = r.in[block]; /* flatten makes it reducible, then decides */
    else if (!st || st == NEEDS_ONE_EXIT) /* exits merged: nodes stay */
      found = r.node_of[block] >= 0 && r.nodes[r.node_of[block]] == block;
    if (found) {
      *u1 = d;
      *u2 = p;
    }
  }
  aucs_arena_free(r.arena);
  return !found;
}

/* ---- exit flattening ---- */

/* The `ret` instructions of fn, up to max; how many there are. */
static int returns_of(LLVMValueRef fn, LLVMValueRef *out, int max) {
  int n = 0;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b;
       b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
    if (t && LLVMGetInstructionOpcode(t) == LLVMRet) {
      if (n < max)
        out[n] = t;
      n++;
    }
  }
  return n;
}

int aucs_flatten_count_returns(LLVMValueRef fn) {
  return returns_of(fn, NULL, 0);
}

/* Replace ret by `br exit` (keeping its location and metadata), adding its
 * value to phi when there is one. */
static void to_exit(LLVMBuilderRef b, LLVMValueRef ret, LLVMBasicBlockRef exit,
                    LLVMValueRef phi) {
  LLVMBasicBlockRef from = LLVMGetInstructionParent(ret);
  if (phi) {
    LLVMValueRef v = LLVMGetOperand(ret, 0);
    LLVMAddIncoming(phi, &v, &from, 1);
  }
  LLVMPositionBuilderBefore(b, ret);
  LLVMValueRef br = LLVMBuildBr(b, exit);
  LLVMInstructionSetDebugLoc(br, LLVMInstructionGetDebugLoc(ret));
  size_t n;
  LLVMValueMetadataEntry *md =
      LLVMInstructionGetAllMetadataOtherThanDebugLoc(ret, &n);
  for (size_t i = 0; i < n; i++)
    LLVMSetMetadata(br, LLVMValueMetadataEntriesGetKind(md, (unsigned)i),
                    LLVMMetadataAsValue(
                        LLVMGetTypeContext(LLVMTypeOf(ret)),
                        LLVMValueMetadataEntriesGetMetadata(md, (unsigned)i)));
  LLVMDisposeValueMetadataEntries(md);
  LLVMInstructionEraseFromParent(ret);
}

int aucs_flatten_unify_exits(LLVMValueRef fn) {
  int n = aucs_flatten_count_returns(fn);
  if (n < 2)
    return 0;
  LLVMValueRef *rets = aucs_xmalloc(sizeof(*rets) * (size_t)n);
  returns_of(fn, rets, n);
  LLVMContextRef cx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
  LLVMBasicBlockRef exit = LLVMAppendBasicBlockInContext(cx, fn, "exit");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cx);
  LLVMPositionBuilderAtEnd(b, exit);
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
  LLVMValueRef phi = NULL;
  if (LLVMGetTypeKind(rt) != LLVMVoidTypeKind) {
    phi = LLVMBuildPhi(b, rt, "retval");
    LLVMBuildRet(b, phi);
  } else
    LLVMBuildRetVoid(b);
  LLVMInstructionSetDebugLoc(LLVMGetBasicBlockTerminator(exit),
                             LLVMInstructionGetDebugLoc(rets[n - 1]));
  for (int i = 0; i < n; i++)
    to_exit(b, rets[i], exit, phi);
  LLVMDisposeBuilder(b);
  free(rets);
  return n;
}

/* 1 when block to is reachable from block from (from itself excluded
 * unless on a cycle). */
static int reaches_block(const aucs_cfg *cfg, int from, int to) {
  unsigned char *seen = aucs_xcalloc((size_t)cfg->nblocks, 1);
  int *work = aucs_xmalloc(sizeof(int) * (size_t)cfg->nblocks), n = 0, hit = 0;
  work[n++] = from;
  while (n && !hit) {
    int b = work[--n];
    for (int k = 0; k < cfg->nsucc[b]; k++) {
      int s = cfg->succ[b][k];
      hit |= s == to;
      if (!seen[s]) {
        seen[s] = 1;
        work[n++] = s;
      }
    }
  }
  free(seen);
  free(work);
  return hit;
}

LLVMValueRef aucs_flatten_early_exit(const aucs_cfg *cfg, int u1, int u2,
                                     int block) {
  LLVMValueRef best = NULL;
  for (int k = 0; k < cfg->npred[u2]; k++) {
    int p = cfg->pred[u2][k];
    if (p == block || !cfg->reachable[p] || !aucs_cfg_dominates(cfg, u1, p) ||
        reaches_block(cfg, block, p))
      continue;
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->blocks[p]);
    if (!best ||
        (!LLVMInstructionGetDebugLoc(best) && LLVMInstructionGetDebugLoc(t)))
      best = t;
  }
  return best;
}

static aucs_flatten_status keep_in(LLVMValueRef fn, LLVMValueRef bar, int u1,
                                   int u2, char **err, int checked) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(bar);
  LLVMValueRef above = LLVMGetPreviousInstruction(bar);
  if (above && !LLVMIsAPHINode(above))
    return fail(err, AUCS_FLATTEN_BAD_REGION,
                "the barrier does not start its block (split it first)");
  aucs_flatten_result res = {0};
  aucs_flatten_status st = flatten_region(fn, u1, u2, &res, err, checked);
  if (st)
    return st;
  LLVMBasicBlockRef guard = aucs_flatten_guard_of(&res, bb);
  aucs_flatten_result_free(&res);
  if (!guard)
    return fail(err, AUCS_FLATTEN_BAD_REGION,
                "the barrier's block is inside a loop kept whole by the "
                "flattening: no guard precedes it");
  LLVMContextRef cx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cx);
  LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(guard));
  LLVMInstructionRemoveFromParent(bar);
  LLVMInsertIntoBuilder(b, bar);
  LLVMDisposeBuilder(b);
  return verify(fn, err);
}

aucs_flatten_status aucs_flatten_keep_in(LLVMValueRef fn, LLVMValueRef bar,
                                         int u1, int u2, char **err) {
  return keep_in(fn, bar, u1, u2, err, 1);
}

aucs_flatten_status aucs_flatten_keep_in_unchecked(LLVMValueRef fn,
                                                   LLVMValueRef bar, int u1,
                                                   int u2, char **err) {
  return keep_in(fn, bar, u1, u2, err, 0);
}
