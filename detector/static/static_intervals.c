/*
 * static: step 2 - barrier intervals, loop iteration states and
 * the queries they make
 * (the algorithm is in static.c, the shared types in static_impl.h).
 */
#include "static_impl.h"

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
static int scan(const aucs_static *S, LLVMValueRef I, const cut *c, stset *mark,
                stset bit) {
  for (; I; I = LLVMGetNextInstruction(I)) {
    if (separates(S, I, c))
      return 0;
    intptr_t first;
    if (aucs_ptrmap_get(&S->anchors, I, &first))
      for (int a = (int)first - 1; a >= 0; a = S->accs[a].next)
        mark[a] |= bit;
    if (aucs_ptrmap_get(&S->tailmap, I, &first))
      return 0; /* the helper's barrier follows its accesses (if any) */
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
    const char *name = st_callee_name(I);
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

/* The objects of two accesses may overlap: an unknown object or the same
 * one; with may_alias, an argument and an argument or a global unless one
 * is noalias. */
int st_may_overlap(const aucs_static *S, LLVMValueRef ra, LLVMValueRef rb) {
  if (!ra || !rb || ra == rb)
    return 1;
  if (!S->o.may_alias ||
      (LLVMIsAGlobalVariable(ra) && LLVMIsAGlobalVariable(rb)))
    return 0;
  unsigned kind = LLVMGetEnumAttributeKindForName("noalias", 7);
  LLVMValueRef roots[2] = {ra, rb};
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
  return st_may_overlap(S, a->root, b->root);
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

/* The budget is spent (polled: a clock read per 256 calls); the first
 * time, the analysis is cut in its current phase. */
int st_budget_spent(aucs_static *S) {
  if (!S->cut && aucs_budget_poll(S->o.budget))
    S->cut = S->phase;
  return S->cut != 0;
}

/* The query for (a, b) with these warps and modes, added when new. */
/* FNV-1a of s, never NULL: the key of S->qindex. */
static const void *key_hash(const char *s) {
  uint64_t h = aucs_hash_text(AUCS_HASH_SEED, s);
  return (const void *)(uintptr_t)(h | 1);
}

static size_t find_query(aucs_static *S, int a, int b, int inter, int warp,
                         int region, const unsigned char *modes) {
  int nl = S->cfg->nloops;
  aucs_buf key = {0};
  aucs_buf_printf(&key, "%d,%d,%d,%d:", a, b, inter, warp);
  for (int i = 0; i < 2 * nl; i++)
    aucs_buf_printf(&key, "%c", '0' + modes[i]);
  size_t glen = key.len;
  aucs_buf_printf(&key, ";%d", region);
  const void *h = key_hash(key.data);
  intptr_t first = 0;
  aucs_ptrmap_get(&S->qindex, h, &first);
  for (size_t j = (size_t)first; j; j = S->qnext[j - 1])
    if (!strcmp(S->qs[j - 1].key, key.data)) {
      aucs_buf_free(&key);
      return j - 1;
    }
  S->qnext = aucs_xrealloc(S->qnext, (S->nq + 1) * sizeof *S->qnext);
  S->qnext[S->nq] = (size_t)first;
  aucs_ptrmap_put(&S->qindex, h, (intptr_t)(S->nq + 1));
  S->qs = aucs_xrealloc(S->qs, (S->nq + 1) * sizeof *S->qs);
  query *q = &S->qs[S->nq];
  *q = (query){.key = aucs_buf_take(&key),
               .glen = glen,
               .a = a,
               .b = b,
               .inter = inter,
               .warp = warp,
               .region = region,
               .verdict = AUCS_STATIC_UNKNOWN};
  q->modes = aucs_xmalloc((size_t)(2 * nl + 1));
  memcpy(q->modes, modes, (size_t)(2 * nl));
  return S->nq++;
}

static int in_set(const qset *s, size_t q) {
  for (size_t i = 0; i < s->n; i++)
    if (s->v[i] == q)
      return 1;
  return 0;
}

void st_qset_add(qset *s, size_t q) {
  if (in_set(s, q))
    return;
  s->v = aucs_xrealloc(s->v, (s->n + 1) * sizeof *s->v);
  s->v[s->n++] = q;
}

/* Set s holds a query of q's group (the same pair, warps and loop modes,
 * whatever its start's region). */
int st_in_group(const aucs_static *S, const qset *s, size_t q) {
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
  if (S->cut || aucs_budget_check(S->o.budget)) {
    S->cut = S->cut ? S->cut : S->phase;
    return;
  }
  int na = S->nacc, nl = S->cfg->nloops;
  stset *hit = aucs_xcalloc((size_t)na + 1, sizeof *hit);
  stset *st = aucs_xcalloc((size_t)na * (size_t)nl + 1, sizeof *st);
  unsigned char *modes = aucs_xcalloc((size_t)(2 * nl) + 1, 1);
  reach(S, sb, si, c, -1, hit);
  int rid = region_of(S, sb, si, c);
  for (int l = 0; l < nl; l++)
    reach(S, sb, si, c, l, st + (size_t)l * (size_t)na);
  for (int a = 0; a < na && !S->cut; a++)
    for (int b = a; hit[a] && b < na; b++) {
      if (!hit[b] || !conflict(S, &S->accs[a], &S->accs[b], 0))
        continue;
      if (st_budget_spent(S))
        break;
      for (int l = 0; l < nl; l++) {
        stset ma = st[(size_t)l * na + a], mb = st[(size_t)l * na + b];
        modes[l] = mode(ma, mb);
        modes[nl + l] = mode(mb, ma);
      }
      st_qset_add(out, find_query(S, a, b, 0, WARP_ANY, rid, modes));
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
      start_queries(S, st_block_of(S->cfg, S->bars[i]),
                    LLVMGetNextInstruction(S->bars[i]), c, out);
  for (size_t i = 0; c->warp && i < S->nwarp; i++)
    start_queries(S, st_block_of(S->cfg, S->warps[i]),
                  LLVMGetNextInstruction(S->warps[i]), c, out);
  for (size_t i = 0; i < S->ntail; i++)
    start_queries(S, st_block_of(S->cfg, S->tails[i]),
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
void st_interval_queries(aucs_static *S, LLVMValueRef removed, qset *out) {
  cut block = {.removed = removed}, warp = {.removed = removed, .warp = 1};
  if (!S->nwarp) {
    cut_queries(S, &block, out);
    return;
  }
  qset in_block = {0}, in_warp = {0};
  cut_queries(S, &block, &in_block);
  cut_queries(S, &warp, &in_warp);
  for (size_t i = 0; i < in_block.n && !st_budget_spent(S); i++) {
    size_t q = in_block.v[i];
    st_qset_add(out,
                st_in_group(S, &in_warp, q) ? q : with_warp(S, q, WARP_APART));
  }
  for (size_t i = 0; i < in_warp.n && !st_budget_spent(S); i++)
    if (!st_in_group(S, &in_block, in_warp.v[i]))
      st_qset_add(out, with_warp(S, in_warp.v[i], WARP_SAME));
  free(in_block.v);
  free(in_warp.v);
}

void st_inter_queries(aucs_static *S, qset *out) {
  unsigned char *modes = aucs_xcalloc((size_t)(2 * S->cfg->nloops) + 1, 1);
  for (int a = 0; a < S->nacc && !S->cut; a++)
    for (int b = a; b < S->nacc && !S->cut; b++)
      if (conflict(S, &S->accs[a], &S->accs[b], 1) && !st_budget_spent(S))
        st_qset_add(out, find_query(S, a, b, 1, WARP_ANY, -1, modes));
  free(modes);
}
