/*
 * cfg: control-flow facts of one function (the contract is aucs/cfg.h).
 *
 * Algorithm:
 *   1. Number the blocks in function order and read each terminator's
 *      successors, keeping the first of repeated targets; predecessors are
 *      the transpose, in block order.
 *   2. An iterative depth-first search from the entry finds the reachable
 *      blocks and the retreating ("loop") edges; its reverse post-order is a
 *      topological order of the branch DAG.
 *   3. Dominators by Cooper-Harvey-Kennedy over that order; post-dominators
 *      by the same over the reverse CFG, rooted at a virtual exit with an
 *      edge to every reachable block ending in ret. A block ending in
 *      unreachable is no exit: no thread gets there in a defined execution
 *      (a switch whose cases cover every value has such a default), so it
 *      must not make the join after the switch look avoidable.
 *   4. Natural loops: back edges u->h with h dominating u, grouped by h; the
 *      body is walked backwards from the latches. Loops are taken by header
 *      in topological order, so a loop comes after every loop holding it and
 *      the innermost loop of a block is the last one to claim it.
 *   5. Irreducible cycles: split the reachable blocks into strongly connected
 *      components (Tarjan, iterative). A component with two or more entries
 *      is recorded; every component of two or more blocks is split again
 *      without its entries. A cycle nested in a loop is thus found as the
 *      region inside the loop minus its header, not as the whole loop.
 *
 *        entry --> a <--> b     {a, b}: one SCC entered at both a and b,
 *          |              ^     recorded with entries {a, b}
 *          +--------------+
 *
 *      Cycles come outer before inner; a two-entry cycle inside another is
 *      recorded too.
 *
 * Limitation: dominance queries walk the tree, O(depth) each. Edges from
 * unreachable blocks are listed in succ/pred but ignored by every other fact.
 * A block without a terminator has no successors and is not an exit.
 */
#include "aucs/cfg.h"

#include <llvm-c/Core.h>
#include <string.h>

#define NEW(cfg, T, n) AUCS_ANEW((cfg)->arena, T, (n))

/* A directed graph over n nodes, by adjacency lists both ways. */
typedef struct graph {
  int n;
  int **out, *nout;
  int **in, *nin;
} graph;

/* A set of blocks in block order: a slice of one array, split in place. */
typedef struct region {
  int *blocks;
  int n;
} region;

/* Tarjan's components of the blocks b with mark[b] == stamp, and scratch
 * (rank, count, tmp) to regroup a region by component. */
typedef struct sccs {
  aucs_cfg *cfg;
  int *mark, stamp;
  int *num, *low, *comp, *pos;
  int *stack, nstack, *call, depth;
  int counter, ncomp;
  int *rank, *count, *tmp;
} sccs;

static int is_exit(LLVMBasicBlockRef bb) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(bb);
  if (!term)
    return 0;
  LLVMOpcode op = LLVMGetInstructionOpcode(term);
  return op == LLVMRet;
}

static int valid(const aucs_cfg *cfg, int b) {
  return b >= 0 && b < cfg->nblocks;
}

static void lower(int *low, int v, int x) {
  if (x < low[v])
    low[v] = x;
}

/* ---- 1. blocks and edges ---- */

static void number_blocks(aucs_cfg *cfg) {
  cfg->nblocks = (int)LLVMCountBasicBlocks(cfg->fn);
  AUCS_ASSERT(cfg->nblocks > 0);
  cfg->blocks = NEW(cfg, LLVMBasicBlockRef, cfg->nblocks);
  int i = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(cfg->fn); bb;
       bb = LLVMGetNextBasicBlock(bb), i++) {
    cfg->blocks[i] = bb;
    aucs_ptrmap_put(&cfg->index, bb, i);
  }
}

/* seen[s] == b + 1 once s is a successor of b. */
static void read_successors(aucs_cfg *cfg, int b, int *seen) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(cfg->blocks[b]);
  unsigned n = term ? LLVMGetNumSuccessors(term) : 0;
  int *succ = NEW(cfg, int, n), k = 0;
  for (unsigned i = 0; i < n; i++) {
    int s = aucs_cfg_index(cfg, LLVMGetSuccessor(term, i));
    AUCS_ASSERT(s >= 0);
    if (seen[s] != b + 1)
      succ[k++] = s;
    seen[s] = b + 1;
  }
  cfg->succ[b] = succ;
  cfg->nsucc[b] = k;
  cfg->loop_edge[b] = NEW(cfg, unsigned char, k);
}

/* Fill g->in and g->nin from g->out; each list comes out in node order. */
static void transpose(aucs_arena *a, graph *g) {
  g->in = AUCS_ANEW(a, int *, g->n);
  g->nin = AUCS_ANEW(a, int, g->n);
  for (int u = 0; u < g->n; u++)
    for (int i = 0; i < g->nout[u]; i++)
      g->nin[g->out[u][i]]++;
  for (int v = 0; v < g->n; v++) {
    g->in[v] = AUCS_ANEW(a, int, g->nin[v]);
    g->nin[v] = 0;
  }
  for (int u = 0; u < g->n; u++)
    for (int i = 0; i < g->nout[u]; i++) {
      int v = g->out[u][i];
      g->in[v][g->nin[v]++] = u;
    }
}

static graph find_edges(aucs_cfg *cfg) {
  int n = cfg->nblocks, *seen = NEW(cfg, int, n);
  cfg->succ = NEW(cfg, int *, n);
  cfg->nsucc = NEW(cfg, int, n);
  cfg->loop_edge = NEW(cfg, unsigned char *, n);
  for (int b = 0; b < n; b++)
    read_successors(cfg, b, seen);
  graph g = {n, cfg->succ, cfg->nsucc, NULL, NULL};
  transpose(cfg->arena, &g);
  cfg->pred = g.in;
  cfg->npred = g.nin;
  return g;
}

/* ---- 2. depth-first order ---- */

/* Iterative depth-first search of g from root: writes the reverse
 * post-order into rpo and returns its length. Marks retreating edges (to a
 * node still open) in retreat when it is given. */
static int reverse_post_order(aucs_arena *a, const graph *g, int root, int *rpo,
                              unsigned char **retreat) {
  unsigned char *open = AUCS_ANEW(a, unsigned char, g->n);
  unsigned char *seen = AUCS_ANEW(a, unsigned char, g->n);
  int *stack = AUCS_ANEW(a, int, g->n), *pos = AUCS_ANEW(a, int, g->n);
  int depth = 0, left = g->n;
  stack[depth++] = root;
  open[root] = seen[root] = 1;
  while (depth > 0) {
    int u = stack[depth - 1];
    if (pos[u] == g->nout[u]) {
      open[u] = 0;
      rpo[--left] = u;
      depth--;
      continue;
    }
    int i = pos[u]++, v = g->out[u][i];
    if (!seen[v]) {
      open[v] = seen[v] = 1;
      stack[depth++] = v;
    } else if (open[v] && retreat) {
      retreat[u][i] = 1;
    }
  }
  int count = g->n - left;
  for (int i = 0; i < count; i++)
    rpo[i] = rpo[left + i];
  return count;
}

static void order_blocks(aucs_cfg *cfg, const graph *g) {
  int n = cfg->nblocks;
  cfg->topo = NEW(cfg, int, n);
  cfg->topo_index = NEW(cfg, int, n);
  cfg->reachable = NEW(cfg, unsigned char, n);
  cfg->ntopo = reverse_post_order(cfg->arena, g, 0, cfg->topo, cfg->loop_edge);
  for (int b = 0; b < n; b++)
    cfg->topo_index[b] = -1;
  for (int i = 0; i < cfg->ntopo; i++) {
    cfg->topo_index[cfg->topo[i]] = i;
    cfg->reachable[cfg->topo[i]] = 1;
  }
}

/* ---- 3. dominators and post-dominators ---- */

static int intersect(const int *idom, const int *num, int a, int b) {
  while (a != b) {
    while (num[a] > num[b])
      a = idom[a];
    while (num[b] > num[a])
      b = idom[b];
  }
  return a;
}

/* The nearest common dominator of v's processed predecessors. */
static int meet(const graph *g, const int *idom, const int *num, int v) {
  int d = -1;
  for (int i = 0; i < g->nin[v]; i++) {
    int p = g->in[v][i];
    if (idom[p] >= 0)
      d = d < 0 ? p : intersect(idom, num, p, d);
  }
  return d;
}

/* Cooper-Harvey-Kennedy: the immediate dominator of every node of rpo, whose
 * root rpo[0] is its own; -1 for the nodes outside rpo. */
static int *dominators(aucs_arena *a, const graph *g, const int *rpo,
                       int nrpo) {
  int *num = AUCS_ANEW(a, int, g->n), *idom = AUCS_ANEW(a, int, g->n);
  for (int v = 0; v < g->n; v++)
    num[v] = idom[v] = -1;
  for (int i = 0; i < nrpo; i++)
    num[rpo[i]] = i;
  idom[rpo[0]] = rpo[0];
  for (int changed = 1; changed;) {
    changed = 0;
    for (int i = 1; i < nrpo; i++) {
      int v = rpo[i], d = meet(g, idom, num, v);
      changed |= d != idom[v];
      idom[v] = d;
    }
  }
  return idom;
}

static void find_dominators(aucs_cfg *cfg, const graph *g) {
  int *idom = dominators(cfg->arena, g, cfg->topo, cfg->ntopo);
  cfg->idom = NEW(cfg, int, cfg->nblocks);
  for (int b = 0; b < cfg->nblocks; b++)
    cfg->idom[b] = idom[b] < 0 || b == 0 ? AUCS_CFG_NONE : idom[b];
}

/* The reverse CFG of the reachable blocks, plus node nblocks: the virtual
 * exit, with an edge to every exit block. */
static graph reverse_cfg(aucs_cfg *cfg) {
  int n = cfg->nblocks;
  graph r = {n + 1, NEW(cfg, int *, n + 1), NEW(cfg, int, n + 1), NULL, NULL};
  for (int b = 0; b < n; b++) {
    r.out[b] = NEW(cfg, int, cfg->npred[b]);
    for (int i = 0; i < cfg->npred[b]; i++)
      if (cfg->reachable[cfg->pred[b][i]])
        r.out[b][r.nout[b]++] = cfg->pred[b][i];
  }
  r.out[n] = NEW(cfg, int, n);
  for (int b = 0; b < n; b++)
    if (cfg->reachable[b] && is_exit(cfg->blocks[b]))
      r.out[n][r.nout[n]++] = b;
  transpose(cfg->arena, &r);
  return r;
}

static void find_postdominators(aucs_cfg *cfg) {
  int n = cfg->nblocks, *rpo = NEW(cfg, int, n + 1);
  graph r = reverse_cfg(cfg);
  int nrpo = reverse_post_order(cfg->arena, &r, n, rpo, NULL);
  int *ipdom = dominators(cfg->arena, &r, rpo, nrpo);
  cfg->ipdom = NEW(cfg, int, n);
  for (int b = 0; b < n; b++)
    cfg->ipdom[b] = ipdom[b] < 0    ? AUCS_CFG_NONE
                    : ipdom[b] == n ? AUCS_CFG_EXIT
                                    : ipdom[b];
}

/* ---- 4. natural loops ---- */

static int is_back_edge(const aucs_cfg *cfg, int u, int h) {
  return cfg->reachable[u] && aucs_cfg_dominates(cfg, h, u);
}

static void find_latches(aucs_cfg *cfg, aucs_loop *l) {
  int h = l->header;
  l->latches = NEW(cfg, int, cfg->npred[h]);
  for (int i = 0; i < cfg->npred[h]; i++)
    if (is_back_edge(cfg, cfg->pred[h][i], h))
      l->latches[l->nlatches++] = cfg->pred[h][i];
}

static void claim(int *mark, int stamp, int b, int *work, int *nwork) {
  if (mark[b] == stamp)
    return;
  mark[b] = stamp;
  work[(*nwork)++] = b;
}

/* Marks the body with mark[b] == stamp; work is scratch of nblocks. */
static void find_body(aucs_cfg *cfg, aucs_loop *l, int *mark, int stamp,
                      int *work) {
  int h = l->header, nwork = 0;
  mark[h] = stamp;
  for (int i = 0; i < l->nlatches; i++)
    claim(mark, stamp, l->latches[i], work, &nwork);
  for (int head = 0; head < nwork; head++) {
    int b = work[head];
    for (int i = 0; i < cfg->npred[b]; i++)
      if (cfg->reachable[cfg->pred[b][i]])
        claim(mark, stamp, cfg->pred[b][i], work, &nwork);
  }
  l->blocks = NEW(cfg, int, nwork + 1);
  l->blocks[l->nblocks++] = h;
  for (int b = 0; b < cfg->nblocks; b++)
    if (mark[b] == stamp && b != h)
      l->blocks[l->nblocks++] = b;
}

static int leaves(const aucs_cfg *cfg, int b, const int *mark, int stamp) {
  for (int i = 0; i < cfg->nsucc[b]; i++)
    if (mark[cfg->succ[b][i]] != stamp)
      return 1;
  return 0;
}

static void find_exiting(aucs_cfg *cfg, aucs_loop *l, const int *mark,
                         int stamp) {
  int n = 0;
  for (int i = 0; i < l->nblocks; i++)
    n += leaves(cfg, l->blocks[i], mark, stamp);
  l->exiting = NEW(cfg, int, n);
  for (int i = 0; i < l->nblocks; i++)
    if (leaves(cfg, l->blocks[i], mark, stamp))
      l->exiting[l->nexiting++] = l->blocks[i];
}

/* Loop number id with header h; every loop holding h is already known. */
static void add_loop(aucs_cfg *cfg, int h, int *mark, int *work) {
  int id = cfg->nloops++;
  aucs_loop *l = &cfg->loops[id];
  l->header = h;
  l->parent = cfg->loop_of[h];
  l->depth = l->parent < 0 ? 1 : cfg->loops[l->parent].depth + 1;
  find_latches(cfg, l);
  find_body(cfg, l, mark, id + 1, work);
  find_exiting(cfg, l, mark, id + 1);
  for (int i = 0; i < l->nblocks; i++)
    cfg->loop_of[l->blocks[i]] = id;
}

static int is_header(const aucs_cfg *cfg, int h) {
  for (int i = 0; i < cfg->npred[h]; i++)
    if (is_back_edge(cfg, cfg->pred[h][i], h))
      return 1;
  return 0;
}

static void find_loops(aucs_cfg *cfg) {
  int n = cfg->nblocks, *mark = NEW(cfg, int, n), *work = NEW(cfg, int, n);
  cfg->loops = NEW(cfg, aucs_loop, n);
  cfg->loop_of = NEW(cfg, int, n);
  for (int b = 0; b < n; b++)
    cfg->loop_of[b] = -1;
  for (int i = 0; i < cfg->ntopo; i++)
    if (is_header(cfg, cfg->topo[i]))
      add_loop(cfg, cfg->topo[i], mark, work);
}

/* ---- 5. irreducible cycles ---- */

static void scc_open(sccs *s, int v) {
  s->num[v] = s->low[v] = ++s->counter;
  s->comp[v] = -1;
  s->pos[v] = 0;
  s->stack[s->nstack++] = v;
  s->call[s->depth++] = v;
}

static void scc_close(sccs *s, int v) {
  if (--s->depth > 0)
    lower(s->low, s->call[s->depth - 1], s->low[v]);
  if (s->low[v] != s->num[v])
    return;
  int w;
  do {
    w = s->stack[--s->nstack];
    s->comp[w] = s->ncomp;
  } while (w != v);
  s->ncomp++;
}

static void scc_from(sccs *s, int root) {
  const aucs_cfg *cfg = s->cfg;
  scc_open(s, root);
  while (s->depth > 0) {
    int v = s->call[s->depth - 1];
    if (s->pos[v] == cfg->nsucc[v]) {
      scc_close(s, v);
      continue;
    }
    int w = cfg->succ[v][s->pos[v]++];
    if (s->mark[w] != s->stamp)
      continue;
    if (s->num[w] == 0)
      scc_open(s, w);
    else if (s->comp[w] < 0)
      lower(s->low, v, s->num[w]);
  }
}

/* Component numbers of r's blocks in s->comp; returns how many. */
static int components(sccs *s, region r) {
  s->stamp++;
  s->ncomp = 0;
  for (int i = 0; i < r.n; i++) {
    s->mark[r.blocks[i]] = s->stamp;
    s->num[r.blocks[i]] = 0;
  }
  for (int i = 0; i < r.n; i++)
    if (s->num[r.blocks[i]] == 0)
      scc_from(s, r.blocks[i]);
  return s->ncomp;
}

/* Reorders r by component, components by first block, each in block order;
 * s->count[k] is where the k-th component starts (count[ncomp] == r.n). */
static void group(sccs *s, region r, int ncomp) {
  for (int c = 0; c < ncomp; c++)
    s->rank[c] = -1;
  for (int k = 0; k <= ncomp; k++)
    s->count[k] = 0;
  int next = 0;
  for (int i = 0; i < r.n; i++) {
    int c = s->comp[r.blocks[i]];
    if (s->rank[c] < 0)
      s->rank[c] = next++;
    s->count[s->rank[c] + 1]++;
  }
  for (int k = 0; k < ncomp; k++)
    s->count[k + 1] += s->count[k];
  for (int i = r.n - 1; i >= 0; i--) {
    int k = s->rank[s->comp[r.blocks[i]]];
    s->tmp[--s->count[k + 1]] = r.blocks[i];
  }
  for (int k = 0; k < ncomp; k++) /* count[k + 1] is now where k starts */
    s->count[k] = s->count[k + 1];
  s->count[ncomp] = r.n;
  for (int i = 0; i < r.n; i++)
    r.blocks[i] = s->tmp[i];
}

static int has_outside_pred(const sccs *s, int b) {
  const aucs_cfg *cfg = s->cfg;
  for (int i = 0; i < cfg->npred[b]; i++) {
    int p = cfg->pred[b][i];
    if (cfg->reachable[p] && s->mark[p] != s->stamp)
      return 1;
  }
  return 0;
}

static void record(aucs_cfg *cfg, region m, const int *entries, int n) {
  aucs_cycle *c = &cfg->cycles[cfg->ncycles++];
  c->blocks = NEW(cfg, int, m.n);
  c->entries = NEW(cfg, int, n);
  memcpy(c->blocks, m.blocks, sizeof(int) * (size_t)m.n);
  memcpy(c->entries, entries, sizeof(int) * (size_t)n);
  c->nblocks = m.n;
  c->nentries = n;
}

/* Records component m when it has several entries; moves its entries to
 * its end and returns the rest, still in block order. */
static region visit_component(sccs *s, region m) {
  s->stamp++;
  for (int i = 0; i < m.n; i++)
    s->mark[m.blocks[i]] = s->stamp;
  int nentries = 0, ninner = 0;
  for (int i = 0; i < m.n; i++)
    if (has_outside_pred(s, m.blocks[i]))
      s->tmp[nentries++] = m.blocks[i];
  if (nentries > 1)
    record(s->cfg, m, s->tmp, nentries);
  for (int i = 0, j = 0; i < m.n; i++) {
    if (j < nentries && m.blocks[i] == s->tmp[j])
      j++;
    else
      m.blocks[ninner++] = m.blocks[i];
  }
  for (int i = 0; i < nentries; i++)
    m.blocks[ninner + i] = s->tmp[i];
  return (region){m.blocks, ninner};
}

/* Splits r; queues every component of two or more blocks, less its entries,
 * in the order of the components' first blocks. */
static void split_region(sccs *s, region r, region *queue, int *nqueue) {
  int ncomp = components(s, r);
  group(s, r, ncomp);
  for (int k = 0; k < ncomp; k++) {
    region m = {r.blocks + s->count[k], s->count[k + 1] - s->count[k]};
    if (m.n < 2)
      continue;
    region inner = visit_component(s, m);
    if (inner.n > 1)
      queue[(*nqueue)++] = inner;
  }
}

/* The regions queued (all of two or more blocks, each nested in or disjoint
 * from the others) number at most nblocks - 1, the cycles fewer. */
static void find_cycles(aucs_cfg *cfg) {
  int n = cfg->nblocks, nqueue = 1;
  sccs s = {.cfg = cfg,
            .mark = NEW(cfg, int, n),
            .num = NEW(cfg, int, n),
            .low = NEW(cfg, int, n),
            .comp = NEW(cfg, int, n),
            .pos = NEW(cfg, int, n),
            .stack = NEW(cfg, int, n),
            .call = NEW(cfg, int, n),
            .rank = NEW(cfg, int, n),
            .count = NEW(cfg, int, n + 1),
            .tmp = NEW(cfg, int, n)};
  region *queue = NEW(cfg, region, n);
  queue[0] = (region){NEW(cfg, int, n), 0};
  for (int b = 0; b < n; b++)
    if (cfg->reachable[b])
      queue[0].blocks[queue[0].n++] = b;
  cfg->cycles = NEW(cfg, aucs_cycle, n);
  for (int head = 0; head < nqueue; head++)
    split_region(&s, queue[head], queue, &nqueue);
}

/* ---- the interface ---- */

aucs_cfg *aucs_cfg_build(LLVMValueRef fn) {
  aucs_arena *a = aucs_arena_new();
  aucs_cfg *cfg = AUCS_ANEW(a, aucs_cfg, 1);
  cfg->fn = fn;
  cfg->arena = a;
  number_blocks(cfg);
  graph g = find_edges(cfg);
  order_blocks(cfg, &g);
  find_dominators(cfg, &g);
  find_postdominators(cfg);
  find_loops(cfg);
  find_cycles(cfg);
  return cfg;
}

void aucs_cfg_free(aucs_cfg *cfg) {
  if (!cfg)
    return;
  aucs_ptrmap_free(&cfg->index);
  aucs_arena_free(cfg->arena);
}

int aucs_cfg_index(const aucs_cfg *cfg, LLVMBasicBlockRef bb) {
  intptr_t i;
  return bb && aucs_ptrmap_get(&cfg->index, bb, &i) ? (int)i : -1;
}

int aucs_cfg_dominates(const aucs_cfg *cfg, int a, int b) {
  if (!valid(cfg, a) || !valid(cfg, b) || !cfg->reachable[a] ||
      !cfg->reachable[b])
    return 0;
  /* a dominator comes before the blocks it dominates in topological order */
  while (b != a && cfg->topo_index[b] > cfg->topo_index[a])
    b = cfg->idom[b];
  return b == a;
}

int aucs_cfg_postdominates(const aucs_cfg *cfg, int a, int b) {
  if (!valid(cfg, a) || !valid(cfg, b) || cfg->ipdom[a] == AUCS_CFG_NONE ||
      cfg->ipdom[b] == AUCS_CFG_NONE)
    return 0;
  while (b >= 0 && b != a)
    b = cfg->ipdom[b];
  return b == a;
}

int aucs_cfg_loop_depth(const aucs_cfg *cfg, int b) {
  if (!valid(cfg, b) || cfg->loop_of[b] < 0)
    return 0;
  return cfg->loops[cfg->loop_of[b]].depth;
}

int aucs_cfg_in_loop(const aucs_cfg *cfg, int l, int b) {
  if (!valid(cfg, b) || l < 0 || l >= cfg->nloops)
    return 0;
  int x = cfg->loop_of[b];
  while (x >= 0 && x != l)
    x = cfg->loops[x].parent;
  return x == l;
}
