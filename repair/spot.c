/*
 * spot: the statement boundary a CUDA programmer would put a barrier at to
 * order a race A -> B (see spot.h for the rules).
 *
 * In steps:
 *   1. Orient the pair: each order in which one reaches the other
 *      barrier-free is tried (a pair in a loop may race both ways).
 *   2. For an order F -> S, walk forward through barrier-free blocks,
 *      numbering blocks by their distance from F, or, when S comes before
 *      F in the branch DAG (a race across iterations), from the header of
 *      the innermost loop holding both.
 *   3. In every such block that is uniform and in no loop but those
 *      holding both accesses (or one of them and a racing pair of the
 *      loop's own that the spot orders: own_race), each statement
 *      boundary of the kernel (spot.h) is a spot when a barrier right
 *      before it cuts every barrier-free path F -> S;
 *      a loop's header that tests its exit, and a block start at a line of
 *      a loop's control, are not boundaries (no source statement there).
 *   4. Rank the spots: most of the function's racing pairs cut (each pair
 *      in the order it races; a pair racing both ways round a loop counts
 *      across iterations), smallest distance (step 2), first in its
 *      block.
 *
 *        A: s[t] = ..;          A: s[t] = ..;
 *        for (..) {             __syncthreads();   <- nearest A, no loop
 *          if (c)               for (..) {
 *            .. = s[t+1];  ==>    if (c)
 *          __syncthreads();         .. = s[t+1];
 *        }                        __syncthreads();
 *                               }
 *
 * Limitation: a boundary is where the outermost source line changes, so a
 * statement written over several lines has boundaries inside it (a spot
 * there still orders the pair; its source form may be odd).
 */
#include "aucs/spot.h"

#include "aucs/place.h"
#include "aucs/util.h"

#include <limits.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_CHECKED = 512 }; /* positions examined per order */
enum { NCTL = 6 };          /* control lines kept per loop */

typedef struct sp {
  const aucs_cfg *cfg;
  const unsigned char *ok; /* per block: a spot may lie there */
  unsigned char *clear, *seen; /* per block: no barrier; visited */
  int *queue;
  unsigned (*ctl)[NCTL]; /* per loop: the lines of its control (its
                            header's, when that exits, and its latches'
                            branches), 0-padded */
  aucs_ptrmap ord;       /* instruction -> its position in its block */
  int *bars, *bar0;      /* block b's barriers' positions, ascending:
                            bars[bar0[b] .. bar0[b + 1]) */
} sp;

static int blk(const sp *c, LLVMValueRef I) {
  return aucs_cfg_index(c->cfg, LLVMGetInstructionParent(I));
}

static int ord(const sp *c, LLVMValueRef I) {
  intptr_t v = -1;
  aucs_ptrmap_get(&c->ord, I, &v);
  return (int)v;
}

/* x strictly above y, two instructions of one block. */
static int before(const sp *c, LLVMValueRef x, LLVMValueRef y) {
  return ord(c, x) < ord(c, y);
}

/* A barrier of block b strictly between from and to (NULL: the block's
 * ends). */
static int barrier_in(const sp *c, int b, LLVMValueRef from, LLVMValueRef to) {
  int lo = from ? ord(c, from) : -1, hi = to ? ord(c, to) : INT_MAX;
  for (int i = c->bar0[b]; i < c->bar0[b + 1]; i++)
    if (c->bars[i] > lo && c->bars[i] < hi)
      return 1;
  return 0;
}

/* Number every instruction within its block and list the barriers. */
static void number(sp *c) {
  const aucs_cfg *g = c->cfg;
  int n = 0, k = 0;
  c->bar0 = aucs_xcalloc((size_t)g->nblocks + 1, sizeof(int));
  for (int b = 0; b < g->nblocks; b++)
    for (LLVMValueRef I = LLVMGetFirstInstruction(g->blocks[b]); I;
         I = LLVMGetNextInstruction(I))
      n += aucs_place_is_barrier(I);
  c->bars = aucs_xcalloc((size_t)n + 1, sizeof(int));
  for (int b = 0; b < g->nblocks; b++) {
    c->bar0[b] = k;
    int i = 0;
    for (LLVMValueRef I = LLVMGetFirstInstruction(g->blocks[b]); I;
         I = LLVMGetNextInstruction(I), i++) {
      aucs_ptrmap_put(&c->ord, I, i);
      if (k < n && aucs_place_is_barrier(I))
        c->bars[k++] = i;
    }
    c->clear[b] = k == c->bar0[b];
  }
  c->bar0[g->nblocks] = k;
}

static int exits(const aucs_cfg *g, int l, int b) {
  for (int i = 0; i < g->loops[l].nexiting; i++)
    if (g->loops[l].exiting[i] == b)
      return 1;
  return 0;
}

static void add_line(unsigned *v, unsigned line) {
  for (int i = 0; line && i < NCTL; i++)
    if (!v[i] || v[i] == line) {
      v[i] = line;
      return;
    }
}

/* The lines of loop l's control: every line of its header when the header
 * tests the exit (a `for`/`while` head may span lines), and the lines of
 * its latches' branches (the increment). */
static void control_lines(const aucs_cfg *g, int l, unsigned *v) {
  int h = g->loops[l].header;
  if (exits(g, l, h))
    for (LLVMValueRef I = LLVMGetFirstInstruction(g->blocks[h]); I;
         I = LLVMGetNextInstruction(I))
      add_line(v, aucs_place_line_of(I));
  for (int i = 0; i < g->loops[l].nlatches; i++)
    add_line(v, aucs_place_line_of(LLVMGetBasicBlockTerminator(
                    g->blocks[g->loops[l].latches[i]])));
}

static void sp_init(sp *c, const aucs_cfg *g, const unsigned char *ok) {
  c->cfg = g;
  c->ok = ok;
  c->clear = aucs_xcalloc((size_t)g->nblocks + 1, 1);
  c->seen = aucs_xcalloc((size_t)g->nblocks + 1, 1);
  c->queue = aucs_xcalloc((size_t)g->nblocks + 1, sizeof(int));
  c->ctl = aucs_xcalloc((size_t)g->nloops + 1, sizeof *c->ctl);
  c->ord = (aucs_ptrmap){0};
  number(c);
  for (int l = 0; l < g->nloops; l++)
    control_lines(g, l, c->ctl[l]);
}

static void sp_free(sp *c) {
  free(c->clear);
  free(c->seen);
  free(c->queue);
  free(c->ctl);
  free(c->bars);
  free(c->bar0);
  aucs_ptrmap_free(&c->ord);
}

/* Whether a path from right after a reaches b with no barrier on it and
 * without passing a barrier put right before `at` (NULL: none). */
static int reach(sp *c, LLVMValueRef a, LLVMValueRef b, LLVMValueRef at) {
  const aucs_cfg *g = c->cfg;
  int ba = blk(c, a), bb = blk(c, b), x = at ? blk(c, at) : -1;
  int a_above = x == ba && before(c, a, at);
  int b_above = x == bb && b != at && before(c, b, at);
  if (ba == bb && before(c, a, b) && !barrier_in(c, ba, a, b) &&
      !(x == ba && a_above && !b_above))
    return 1;
  if (a_above || barrier_in(c, ba, a, NULL) || barrier_in(c, bb, NULL, b))
    return 0;
  memset(c->seen, 0, (size_t)g->nblocks);
  int head = 0, tail = 0;
  for (int i = 0; i < g->nsucc[ba]; i++)
    c->queue[tail++] = g->succ[ba][i];
  while (head < tail) {
    int y = c->queue[head++];
    if (c->seen[y])
      continue;
    c->seen[y] = 1;
    if (y == x && !(y == bb && b_above))
      continue;
    if (y == bb)
      return 1;
    for (int i = 0; c->clear[y] && i < g->nsucc[y]; i++)
      if (!c->seen[g->succ[y][i]] && tail < g->nblocks)
        c->queue[tail++] = g->succ[y][i];
  }
  return 0;
}

/* Blocks by distance from the end of f's block through barrier-free
 * blocks (-1: not reached); f's own block by the way back round a loop. */
static int *distances(sp *c, int f) {
  const aucs_cfg *g = c->cfg;
  int *d = aucs_xmalloc(sizeof(int) * (size_t)g->nblocks);
  for (int i = 0; i < g->nblocks; i++)
    d[i] = -1;
  int head = 0, tail = 0;
  for (int i = 0; i < g->nsucc[f]; i++)
    if (d[g->succ[f][i]] < 0) {
      d[g->succ[f][i]] = 1;
      c->queue[tail++] = g->succ[f][i];
    }
  while (head < tail) {
    int y = c->queue[head++];
    for (int i = 0; c->clear[y] && i < g->nsucc[y]; i++)
      if (d[g->succ[y][i]] < 0 && tail < g->nblocks) {
        d[g->succ[y][i]] = d[y] + 1;
        c->queue[tail++] = g->succ[y][i];
      }
  }
  return d;
}

/* The line of the last located instruction at or above I (0: none). */
static unsigned line_above(LLVMValueRef I) {
  for (; I; I = LLVMGetPreviousInstruction(I))
    if (aucs_place_line_of(I))
      return aucs_place_line_of(I);
  return 0;
}

typedef struct lineat {
  unsigned line;
  int at;
} lineat;

static int by_line(const void *x, const void *y) {
  const lineat *a = x, *b = y;
  if (a->line != b->line)
    return (a->line > b->line) - (a->line < b->line);
  return (a->at > b->at) - (a->at < b->at);
}

/* Per instruction k of bb: 1 when a line of an instruction above k comes
 * again at or below k, so a barrier right before k would split one
 * statement (one written over several lines, or a helper's code). */
static unsigned char *inside(LLVMBasicBlockRef bb, int *n) {
  *n = 0;
  for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
       I = LLVMGetNextInstruction(I))
    ++*n;
  lineat *v = aucs_xcalloc((size_t)*n + 1, sizeof *v);
  int *last = aucs_xcalloc((size_t)*n + 1, sizeof(int));
  unsigned char *in = aucs_xcalloc((size_t)*n + 1, 1);
  int k = 0, m = 0;
  for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
       I = LLVMGetNextInstruction(I), k++)
    if (aucs_place_line_of(I))
      v[m++] = (lineat){aucs_place_line_of(I), k};
  qsort(v, (size_t)m, sizeof *v, by_line);
  for (int i = 0; i < *n; i++)
    last[i] = -1;
  for (int i = 0; i < m; i++) { /* each instruction: its line's last one */
    int j = i;
    while (j + 1 < m && v[j + 1].line == v[i].line)
      j++;
    for (; i <= j; i++)
      last[v[i].at] = v[j].at;
    i = j;
  }
  for (int i = 0, reach = -1; i < *n; i++) {
    in[i] = reach >= i;
    if (last[i] > reach)
      reach = last[i];
  }
  free(v);
  free(last);
  return in;
}

/* A barrier right before I (instruction k of block x) sits between two
 * statements of the kernel: the (outermost) line changes there and no
 * statement spans it (in[k] clear), or, when I starts its block, the line
 * differs from the end of every predecessor. */
static int boundary(const sp *c, int x, LLVMValueRef I, const unsigned char *in,
                    int k) {
  unsigned line = aucs_place_line_of(I);
  if (!line || LLVMIsAPHINode(I) || in[k])
    return 0;
  LLVMValueRef p = LLVMGetPreviousInstruction(I);
  if (p && line_above(p))
    return line_above(p) != line;
  for (int i = 0; i < c->cfg->npred[x]; i++)
    if (line_above(LLVMGetBasicBlockTerminator(
            c->cfg->blocks[c->cfg->pred[x][i]])) == line)
      return 0;
  return 1;
}

static int is_ctl(const unsigned *v, unsigned line) {
  for (int i = 0; i < NCTL && v[i]; i++)
    if (v[i] == line)
      return 1;
  return 0;
}

/* Whether block x may hold a spot: every loop around x holds f or s (a
 * barrier in a loop that holds neither would run on every iteration of a
 * loop the race is not in: the place is before or after that loop, which
 * the other candidates reach by splitting its edge; one holding only one
 * of them is checked by own_race once the spot's cuts are known); x is no
 * loop's header that tests its exit (before the condition: no source
 * statement is there); I does not start its block at a line of a loop's
 * control. Before the increment at the end of a body is fine: that is
 * after the body's last statement. */
static int in_loops(const sp *c, int x, int f, int s, LLVMValueRef I) {
  const aucs_cfg *g = c->cfg;
  unsigned line = aucs_place_line_of(I);
  LLVMValueRef p = LLVMGetPreviousInstruction(I);
  int starts = !p || !line_above(p);
  for (int l = g->loop_of[x]; l >= 0; l = g->loops[l].parent)
    if ((!aucs_cfg_in_loop(g, l, f) && !aucs_cfg_in_loop(g, l, s)) ||
        (g->loops[l].header == x && exits(g, l, x)) ||
        (starts && is_ctl(c->ctl[l], line)))
      return 0;
  return 1;
}

/* Whether loop l holds both accesses of some pair the spot orders
 * (cut[i]). */
static int holds_cut_pair(const sp *c, int l, LLVMValueRef (*pairs)[2],
                          const unsigned char *cut, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (cut[i] && aucs_cfg_in_loop(c->cfg, l, blk(c, pairs[i][0])) &&
        aucs_cfg_in_loop(c->cfg, l, blk(c, pairs[i][1])))
      return 1;
  return 0;
}

/* Whether every loop around x that holds only one of f and s holds a
 * racing pair of its own that the spot orders: a barrier there runs on
 * every iteration, which that loop's own race needs anyway (the inner
 * loop of a sorting network racing across its rounds, entered after an
 * access it also races with: one barrier at the top of its body orders
 * both). The evidence is the detector's reported pairs (pairs[], each
 * copy of an inlined helper's access), not a scan of the loop for a
 * write and a read with no barrier between: a reported race is one the
 * fix must order anyway, and a loop of reads only (or of accesses that
 * cannot conflict) holds no such pair, so the barrier stays out of it. */
static int own_race(const sp *c, int x, int f, int s, LLVMValueRef (*pairs)[2],
                    const unsigned char *cut, size_t n) {
  const aucs_cfg *g = c->cfg;
  for (int l = g->loop_of[x]; l >= 0; l = g->loops[l].parent)
    if ((!aucs_cfg_in_loop(g, l, f) || !aucs_cfg_in_loop(g, l, s)) &&
        !holds_cut_pair(c, l, pairs, cut, n))
      return 0;
  return 1;
}

static int cuts(sp *c, LLVMValueRef at, LLVMValueRef f, LLVMValueRef s) {
  return reach(c, f, s, NULL) && !reach(c, f, s, at);
}

/* s comes before f in the branch DAG: f reaches s only around a loop. */
static int around(const sp *c, LLVMValueRef f, LLVMValueRef s) {
  int bf = blk(c, f), bs = blk(c, s);
  if (bf == bs)
    return f == s || before(c, s, f);
  return c->cfg->topo_index[bs] < c->cfg->topo_index[bf];
}

/* The orders in which each pair races barrier-free (bit 0: [0] -> [1],
 * bit 1: [1] -> [0]). A pair in a loop that races both ways is taken to
 * race across iterations (the way round the loop), as the threads of one
 * iteration run its statements in the same order. */
static unsigned char *orders(sp *c, LLVMValueRef (*pairs)[2], size_t n) {
  unsigned char *o = aucs_xcalloc(n + 1, 1);
  for (size_t i = 0; i < n; i++) {
    LLVMValueRef x = pairs[i][0], y = pairs[i][1];
    o[i] = (unsigned char)(reach(c, x, y, NULL) | reach(c, y, x, NULL) << 1);
    if (o[i] == 3)
      o[i] = around(c, x, y) ? 1 : 2;
  }
  return o;
}

/* How many pairs a barrier right before `at` orders, in the orders they
 * race in; cut[i]: whether it orders pair i. */
static size_t score(sp *c, LLVMValueRef at, LLVMValueRef (*pairs)[2],
                    const unsigned char *o, size_t n, unsigned char *cut) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    cut[i] = ((o[i] & 1) && !reach(c, pairs[i][0], pairs[i][1], at)) ||
             ((o[i] & 2) && !reach(c, pairs[i][1], pairs[i][0], at));
    k += cut[i];
  }
  return k;
}

typedef struct best {
  LLVMValueRef at, first, second;
  size_t score;
  int dist, ord;
} best;

static int better(const best *x, const best *y) {
  if (!y->at)
    return 1;
  if (x->score != y->score)
    return x->score > y->score;
  if (x->dist != y->dist)
    return x->dist < y->dist;
  return x->ord < y->ord;
}

/* Step 3 in block x for the order f -> s; updates *top. */
static void spots_in(sp *c, int x, int dist, int from, LLVMValueRef f,
                     LLVMValueRef s, LLVMValueRef (*pairs)[2],
                     const unsigned char *o, size_t n, best *top,
                     int *checked) {
  int bf = blk(c, f), bs = blk(c, s), k = 0, len;
  unsigned char *in = inside(c->cfg->blocks[x], &len);
  unsigned char *cut = aucs_xcalloc(n + 1, 1);
  for (LLVMValueRef I = LLVMGetFirstInstruction(c->cfg->blocks[x]);
       I && *checked < MAX_CHECKED; I = LLVMGetNextInstruction(I), k++) {
    if (!in_loops(c, x, bf, bs, I) || !boundary(c, x, I, in, k))
      continue;
    ++*checked;
    if (!cuts(c, I, f, s))
      continue;
    int after_f = x == bf && from == bf && before(c, f, I);
    best cand = {
        .at = I, .first = f, .second = s, .dist = after_f ? 0 : dist, .ord = k};
    cand.score = score(c, I, pairs, o, n, cut);
    if (own_race(c, x, bf, bs, pairs, cut, n) && better(&cand, top))
      *top = cand;
  }
  free(in);
  free(cut);
}

static void spots(sp *c, LLVMValueRef f, LLVMValueRef s,
                  LLVMValueRef (*pairs)[2], const unsigned char *o, size_t n,
                  best *top) {
  const aucs_cfg *g = c->cfg;
  int bf = blk(c, f), checked = 0, from = bf;
  int l = around(c, f, s) ? g->loop_of[bf] : -1;
  while (l >= 0 && !aucs_cfg_in_loop(g, l, blk(c, s)))
    l = g->loops[l].parent;
  if (l >= 0) /* across iterations: nearest the top of the loop body */
    from = g->loops[l].header;
  int *d = distances(c, from);
  if (d[from] < 0 || from != bf)
    d[from] = 0;
  for (int x = 0; x < g->nblocks; x++)
    if (d[x] >= 0 && g->reachable[x] && c->ok[x])
      spots_in(c, x, d[x], from, f, s, pairs, o, n, top, &checked);
  free(d);
}

LLVMValueRef aucs_spot_find_in(const aucs_cfg *cfg, const unsigned char *ok,
                               LLVMValueRef a, LLVMValueRef b,
                               LLVMValueRef (*pairs)[2], size_t npairs,
                               LLVMValueRef *first, LLVMValueRef *second) {
  sp c;
  sp_init(&c, cfg, ok);
  best top = {0};
  unsigned char *o = orders(&c, pairs, npairs);
  if (reach(&c, a, b, NULL))
    spots(&c, a, b, pairs, o, npairs, &top);
  if (a != b && reach(&c, b, a, NULL))
    spots(&c, b, a, pairs, o, npairs, &top);
  free(o);
  sp_free(&c);
  *first = top.first;
  *second = top.second;
  return top.at;
}

LLVMValueRef aucs_spot_find(const aucs_cfg *cfg, const aucs_uniformity *u,
                            LLVMValueRef a, LLVMValueRef b,
                            LLVMValueRef (*pairs)[2], size_t npairs,
                            LLVMValueRef *first, LLVMValueRef *second) {
  unsigned char *ok = aucs_xcalloc((size_t)cfg->nblocks + 1, 1);
  for (int x = 0; x < cfg->nblocks; x++)
    ok[x] = (unsigned char)aucs_uniform_block(u, x);
  LLVMValueRef at =
      aucs_spot_find_in(cfg, ok, a, b, pairs, npairs, first, second);
  free(ok);
  return at;
}
