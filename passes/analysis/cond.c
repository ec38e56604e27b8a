/*
 * cond: exact entry conditions (the contract is aucs/cond.h).
 *
 * Algorithm:
 *   1. Per loop, whether all its exit edges go to one block.
 *   2. Walk the topological order from the root: EC(root) = true; for each
 *      later block, OR over its DAG predecessors of EC(p) && cond(p -> B).
 *      A predecessor inside a loop the block is outside of (and the root is
 *      outside of) stands for that loop: EC(header) when it has one exit.
 *   3. Every expression is built by the smart constructors below, which
 *      simplify and hash-cons, so equal conditions are one node.
 *
 * Limitation: the resolution rules look at pairs of disjuncts only; deeper
 * Boolean identities stay unsimplified (but correct).
 */
#include "aucs/cond.h"

#include "aucs/names.h"

#include <llvm-c/Core.h>
#include <stdlib.h>
#include <string.h>

typedef enum ckind { C_FALSE, C_TRUE, C_ATOM, C_NOT, C_AND, C_OR } ckind;

typedef struct cnode cnode;
struct cnode {
  ckind k;
  int id;
  LLVMValueRef v;    /* atom: the i1 value, or the switch operand */
  LLVMValueRef kase; /* atom: the case constant, or NULL */
  int n;             /* NOT: 1; AND, OR: 2 or more, sorted by id */
  const cnode **kid;
  unsigned hash;
};

struct aucs_conds {
  const aucs_cfg *cfg;
  int root;
  aucs_arena *arena;
  cnode **node; /* by id */
  int nnode, capnode;
  cnode **table; /* hash-consing, open addressing */
  size_t tcap;
  const cnode **ec;        /* per block */
  unsigned char *one_exit; /* per loop: every exit goes to one block */
  const cnode *t, *f;
  LLVMValueRef *emitted; /* per node id, since the last reset */
  aucs_names *names;
};

typedef struct list {
  const cnode **v;
  int n, cap;
} list;

static void push(list *l, const cnode *x) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 8;
    l->v = aucs_xrealloc(l->v, sizeof(*l->v) * (size_t)l->cap);
  }
  l->v[l->n++] = x;
}

/* ---- hash-consing ---- */

static unsigned hash_of(ckind k, LLVMValueRef v, LLVMValueRef kase,
                        const cnode **kid, int n) {
  uintptr_t h = (uintptr_t)k * 0x9e3779b9u;
  h = (h ^ (uintptr_t)v) * 31 + (uintptr_t)kase;
  for (int i = 0; i < n; i++)
    h = h * 1000003u + (uintptr_t)kid[i]->id;
  return (unsigned)(h ^ (h >> 29));
}

static int same(const cnode *x, ckind k, LLVMValueRef v, LLVMValueRef kase,
                const cnode **kid, int n) {
  if (x->k != k || x->v != v || x->kase != kase || x->n != n)
    return 0;
  for (int i = 0; i < n; i++)
    if (x->kid[i] != kid[i])
      return 0;
  return 1;
}

static void grow_table(aucs_conds *c) {
  size_t cap = c->tcap ? 2 * c->tcap : 256;
  cnode **t = aucs_xcalloc(cap, sizeof(*t));
  for (int i = 0; i < c->nnode; i++) {
    size_t j = c->node[i]->hash & (cap - 1);
    while (t[j])
      j = (j + 1) & (cap - 1);
    t[j] = c->node[i];
  }
  free(c->table);
  c->table = t;
  c->tcap = cap;
}

static const cnode *intern(aucs_conds *c, ckind k, LLVMValueRef v,
                           LLVMValueRef kase, const cnode **kid, int n) {
  if (2 * (size_t)(c->nnode + 1) > c->tcap)
    grow_table(c);
  unsigned h = hash_of(k, v, kase, kid, n);
  size_t j = h & (c->tcap - 1);
  for (; c->table[j]; j = (j + 1) & (c->tcap - 1))
    if (c->table[j]->hash == h && same(c->table[j], k, v, kase, kid, n))
      return c->table[j];
  cnode *x = AUCS_ANEW(c->arena, cnode, 1);
  *x = (cnode){k, c->nnode, v, kase, n, NULL, h};
  x->kid = AUCS_ANEW(c->arena, const cnode *, n);
  if (n)
    memcpy(x->kid, kid, sizeof(*kid) * (size_t)n);
  if (c->nnode == c->capnode) {
    c->capnode = c->capnode ? 2 * c->capnode : 64;
    c->node = aucs_xrealloc(c->node, sizeof(*c->node) * (size_t)c->capnode);
  }
  c->node[c->nnode++] = x;
  c->table[j] = x;
  return x;
}

/* ---- smart constructors ---- */

static const cnode *mk_atom(aucs_conds *c, LLVMValueRef v, LLVMValueRef kase) {
  if (LLVMIsAConstantInt(v) && !kase)
    return LLVMConstIntGetZExtValue(v) ? c->t : c->f;
  if (LLVMIsAConstantInt(v) && LLVMIsAConstantInt(kase))
    return LLVMConstIntGetZExtValue(v) == LLVMConstIntGetZExtValue(kase) ? c->t
                                                                         : c->f;
  return intern(c, C_ATOM, v, kase, NULL, 0);
}

static const cnode *mk_not(aucs_conds *c, const cnode *x) {
  if (x->k == C_TRUE)
    return c->f;
  if (x->k == C_FALSE)
    return c->t;
  if (x->k == C_NOT)
    return x->kid[0];
  return intern(c, C_NOT, NULL, NULL, &x, 1);
}

static int complementary(const cnode *x, const cnode *y) {
  return (x->k == C_NOT && x->kid[0] == y) || (y->k == C_NOT && y->kid[0] == x);
}

static int by_id(const void *a, const void *b) {
  int x = (*(const cnode *const *)a)->id, y = (*(const cnode *const *)b)->id;
  return (x > y) - (x < y);
}

/* Sort l by id and drop duplicates. */
static void normalise(list *l) {
  if (l->n > 1) /* an empty list has v NULL, not for qsort */
    qsort(l->v, (size_t)l->n, sizeof(*l->v), by_id);
  int k = 0;
  for (int i = 0; i < l->n; i++)
    if (!k || l->v[k - 1] != l->v[i])
      l->v[k++] = l->v[i];
  l->n = k;
}

static int has_complement(const list *l) {
  for (int i = 0; i < l->n; i++)
    for (int j = i + 1; j < l->n; j++)
      if (complementary(l->v[i], l->v[j]))
        return 1;
  return 0;
}

/* The junction of kind k (AND or OR) of a normalised list; takes l. */
static const cnode *finish(aucs_conds *c, ckind k, list *l) {
  const cnode *r = l->n == 0   ? (k == C_AND ? c->t : c->f)
                   : l->n == 1 ? l->v[0]
                               : intern(c, k, NULL, NULL, l->v, l->n);
  free(l->v);
  return r;
}

static const cnode *mk_and(aucs_conds *c, const cnode **xs, int n) {
  list l = {0};
  for (int i = 0; i < n; i++) {
    if (xs[i]->k == C_FALSE) {
      free(l.v);
      return c->f;
    }
    if (xs[i]->k == C_AND)
      for (int j = 0; j < xs[i]->n; j++)
        push(&l, xs[i]->kid[j]);
    else if (xs[i]->k != C_TRUE)
      push(&l, xs[i]);
  }
  normalise(&l);
  if (has_complement(&l)) {
    free(l.v);
    return c->f;
  }
  return finish(c, C_AND, &l);
}

static const cnode *mk_and2(aucs_conds *c, const cnode *a, const cnode *b) {
  const cnode *xs[2] = {a, b};
  return mk_and(c, xs, 2);
}

/* The conjuncts of a disjunct: its kids when it is an AND, else itself. */
static const cnode *const *conjuncts(const cnode *const *x, int *n) {
  if ((*x)->k == C_AND) {
    *n = (*x)->n;
    return (*x)->kid;
  }
  *n = 1;
  return x;
}

static int member(const cnode *x, const cnode *const *s, int n) {
  for (int i = 0; i < n; i++)
    if (s[i] == x)
      return 1;
  return 0;
}

/* The conjunction of s without its element at skip. */
static const cnode *without(aucs_conds *c, const cnode *const *s, int n,
                            int skip) {
  list l = {0};
  for (int i = 0; i < n; i++)
    if (i != skip)
      push(&l, s[i]);
  const cnode *r = mk_and(c, l.v, l.n);
  free(l.v);
  return r;
}

/* One rewrite of the pair (a, b) of disjuncts, or NULL when none applies:
 * absorption a || (a && b) -> a (returns a, b dropped); resolution
 * (s && x) || (s && !x) -> s; and a || (!a && b) -> a || b (returns the
 * new b and sets *keep_a). */
static const cnode *combine(aucs_conds *c, const cnode *const *a,
                            const cnode *const *b, int *keep_a) {
  int na, nb;
  const cnode *const *sa = conjuncts(a, &na), *const *sb = conjuncts(b, &nb);
  int sub = 1;
  for (int i = 0; i < na && sub; i++)
    sub = member(sa[i], sb, nb);
  *keep_a = 0;
  if (sub)
    return *a;
  if (na == 1)
    for (int j = 0; j < nb; j++)
      if (complementary(sa[0], sb[j])) {
        *keep_a = 1;
        return without(c, sb, nb, j);
      }
  if (na != nb)
    return NULL;
  int odd = -1, oddb = -1;
  for (int i = 0; i < na; i++) {
    if (member(sa[i], sb, nb))
      continue;
    if (odd >= 0)
      return NULL;
    odd = i;
  }
  for (int j = 0; j < nb && odd >= 0; j++)
    if (!member(sb[j], sa, na))
      oddb = j;
  if (odd < 0 || oddb < 0 || !complementary(sa[odd], sb[oddb]))
    return NULL;
  return without(c, sa, na, odd);
}

static const cnode *mk_or(aucs_conds *c, const cnode **xs, int n);

/* Apply combine to some pair of l; 1 with *out set to the simplified
 * disjunction when one applied. */
static int rewrite_once(aucs_conds *c, list *l, const cnode **out) {
  for (int i = 0; i < l->n; i++)
    for (int j = 0; j < l->n; j++) {
      if (i == j)
        continue;
      int keep_a;
      const cnode *r = combine(c, &l->v[i], &l->v[j], &keep_a);
      if (!r)
        continue;
      list m = {0};
      for (int k = 0; k < l->n; k++)
        if (k != j && (k != i || keep_a))
          push(&m, l->v[k]);
      push(&m, r);
      *out = mk_or(c, m.v, m.n);
      free(m.v);
      return 1;
    }
  return 0;
}

static const cnode *mk_or(aucs_conds *c, const cnode **xs, int n) {
  list l = {0};
  for (int i = 0; i < n; i++) {
    if (xs[i]->k == C_TRUE) {
      free(l.v);
      return c->t;
    }
    if (xs[i]->k == C_OR)
      for (int j = 0; j < xs[i]->n; j++)
        push(&l, xs[i]->kid[j]);
    else if (xs[i]->k != C_FALSE)
      push(&l, xs[i]);
  }
  normalise(&l);
  if (has_complement(&l)) {
    free(l.v);
    return c->t;
  }
  const cnode *r;
  if (rewrite_once(c, &l, &r)) {
    free(l.v);
    return r;
  }
  return finish(c, C_OR, &l);
}

/* ---- edge conditions ---- */

/* cond(p -> s) for p's terminator. */
static const cnode *edge(aucs_conds *c, LLVMBasicBlockRef p,
                         LLVMBasicBlockRef s) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(p);
  LLVMOpcode op = LLVMGetInstructionOpcode(term);
  if (op == LLVMBr && LLVMIsConditional(term)) {
    const cnode *x = mk_atom(c, LLVMGetCondition(term), NULL);
    int to_true = LLVMGetSuccessor(term, 0) == s;
    int to_false = LLVMGetSuccessor(term, 1) == s;
    return to_true && to_false ? c->t : to_true ? x : mk_not(c, x);
  }
  if (op != LLVMSwitch)
    return c->t;
  LLVMValueRef x = LLVMGetOperand(term, 0);
  int dflt = LLVMGetSwitchDefaultDest(term) == s;
  list l = {0};
  for (unsigned i = 1; i < LLVMGetNumSuccessors(term); i++) {
    int here = LLVMGetSuccessor(term, i) == s;
    if (here == dflt) /* keep cases to s; for the default, cases elsewhere */
      continue;
    const cnode *a = mk_atom(c, x, LLVMGetSwitchCaseValue(term, i));
    push(&l, dflt ? mk_not(c, a) : a);
  }
  const cnode *r = dflt ? mk_and(c, l.v, l.n) : mk_or(c, l.v, l.n);
  free(l.v);
  return r;
}

static void find_single_exits(aucs_conds *c) {
  const aucs_cfg *cfg = c->cfg;
  c->one_exit = AUCS_ANEW(c->arena, unsigned char, cfg->nloops);
  for (int l = 0; l < cfg->nloops; l++) {
    int target = -1, one = 1;
    for (int i = 0; i < cfg->loops[l].nblocks; i++) {
      int b = cfg->loops[l].blocks[i];
      for (int k = 0; k < cfg->nsucc[b]; k++) {
        int s = cfg->succ[b][k];
        if (aucs_cfg_in_loop(cfg, l, s))
          continue;
        one &= target < 0 || target == s;
        target = s;
      }
    }
    c->one_exit[l] = (unsigned char)one;
  }
}

/* The outermost loop holding p but neither b nor the root, or -1. */
static int left_loop(const aucs_conds *c, int p, int b) {
  int found = -1;
  for (int l = c->cfg->loop_of[p]; l >= 0; l = c->cfg->loops[l].parent)
    if (!aucs_cfg_in_loop(c->cfg, l, b) &&
        !aucs_cfg_in_loop(c->cfg, l, c->root))
      found = l;
  return found;
}

/* EC(p) && cond(p -> b), p a DAG predecessor of b. */
static const cnode *incoming(aucs_conds *c, int p, int b) {
  int l = left_loop(c, p, b);
  if (l >= 0 && c->one_exit[l])
    return c->ec[c->cfg->loops[l].header];
  const aucs_cfg *cfg = c->cfg;
  return mk_and2(c, c->ec[p], edge(c, cfg->blocks[p], cfg->blocks[b]));
}

static int dag_edge(const aucs_cfg *cfg, int p, int b) {
  for (int k = 0; k < cfg->nsucc[p]; k++)
    if (cfg->succ[p][k] == b)
      return !cfg->loop_edge[p][k];
  return 0;
}

static void compute(aucs_conds *c) {
  const aucs_cfg *cfg = c->cfg;
  for (int b = 0; b < cfg->nblocks; b++)
    c->ec[b] = c->f;
  if (!cfg->reachable[c->root])
    return;
  c->ec[c->root] = c->t;
  list l = {0};
  for (int i = cfg->topo_index[c->root] + 1; i < cfg->ntopo; i++) {
    int b = cfg->topo[i];
    l.n = 0;
    for (int k = 0; k < cfg->npred[b]; k++) {
      int p = cfg->pred[b][k];
      if (cfg->reachable[p] && c->ec[p] != c->f && dag_edge(cfg, p, b))
        push(&l, incoming(c, p, b));
    }
    c->ec[b] = mk_or(c, l.v, l.n);
  }
  free(l.v);
}

aucs_conds *aucs_cond_compute(const aucs_cfg *cfg, int root) {
  AUCS_ASSERT(root >= 0 && root < cfg->nblocks);
  aucs_conds *c = aucs_xcalloc(1, sizeof(*c));
  c->cfg = cfg;
  c->root = root;
  c->arena = aucs_arena_new();
  c->f = intern(c, C_FALSE, NULL, NULL, NULL, 0);
  c->t = intern(c, C_TRUE, NULL, NULL, NULL, 0);
  c->ec = AUCS_ANEW(c->arena, const cnode *, cfg->nblocks);
  find_single_exits(c);
  compute(c);
  return c;
}

void aucs_cond_free(aucs_conds *c) {
  if (!c)
    return;
  if (c->names)
    aucs_names_free(c->names);
  free(c->emitted);
  free(c->table);
  free(c->node);
  aucs_arena_free(c->arena);
  free(c);
}

int aucs_cond_is_true(const aucs_conds *c, int block) {
  return c->ec[block] == c->t;
}

int aucs_cond_is_false(const aucs_conds *c, int block) {
  return c->ec[block] == c->f;
}

/* ---- printing in source terms ---- */

/* C operator precedences; a subexpression binding looser than its context
 * gets parentheses. */
enum {
  P_OR = 4,
  P_AND = 5,
  P_BOR = 6,
  P_XOR = 7,
  P_BAND = 8,
  P_EQ = 9,
  P_REL = 10,
  P_SHIFT = 11,
  P_ADD = 12,
  P_MUL = 13,
  P_NOT = 14,
  P_LEAF = 15,
  MAX_DEPTH = 6
};

typedef struct binop {
  LLVMOpcode op;
  const char *text;
  int prec;
} binop;

static const binop binops[] = {
    {LLVMAdd, "+", P_ADD},     {LLVMSub, "-", P_ADD},
    {LLVMMul, "*", P_MUL},     {LLVMSDiv, "/", P_MUL},
    {LLVMUDiv, "/", P_MUL},    {LLVMSRem, "%", P_MUL},
    {LLVMURem, "%", P_MUL},    {LLVMShl, "<<", P_SHIFT},
    {LLVMLShr, ">>", P_SHIFT}, {LLVMAShr, ">>", P_SHIFT},
    {LLVMAnd, "&", P_BAND},    {LLVMOr, "|", P_BOR},
    {LLVMXor, "^", P_XOR},
};

static const char *icmp_text(LLVMIntPredicate p, int *prec) {
  *prec = P_REL;
  switch (p) {
  case LLVMIntEQ:
    *prec = P_EQ;
    return "==";
  case LLVMIntNE:
    *prec = P_EQ;
    return "!=";
  case LLVMIntSLT:
  case LLVMIntULT:
    return "<";
  case LLVMIntSLE:
  case LLVMIntULE:
    return "<=";
  case LLVMIntSGT:
  case LLVMIntUGT:
    return ">";
  default:
    return ">=";
  }
}

static void value(aucs_conds *c, LLVMValueRef v, int ctx, int depth,
                  aucs_buf *out);

static int is_bool(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  return LLVMGetTypeKind(t) == LLVMIntegerTypeKind &&
         LLVMGetIntTypeWidth(t) == 1;
}

static void infix(aucs_conds *c, LLVMValueRef l, const char *op, LLVMValueRef r,
                  int prec, int ctx, int depth, aucs_buf *out) {
  if (prec < ctx)
    aucs_buf_puts(out, "(");
  value(c, l, prec, depth + 1, out);
  aucs_buf_printf(out, " %s ", op);
  value(c, r, prec + 1, depth + 1, out);
  if (prec < ctx)
    aucs_buf_puts(out, ")");
}

/* The short name of a special register read ("tid.x"), or NULL. */
static const char *sreg(LLVMValueRef v) {
  if (!LLVMIsACallInst(v))
    return NULL;
  LLVMValueRef callee = LLVMGetCalledValue(v);
  size_t len;
  const char *name = callee ? LLVMGetValueName2(callee, &len) : "";
  const char *prefix = "llvm.nvvm.read.ptx.sreg.";
  return strncmp(name, prefix, strlen(prefix)) ? NULL : name + strlen(prefix);
}

static void leaf(aucs_conds *c, LLVMValueRef v, aucs_buf *out) {
  size_t len;
  const char *s = sreg(v);
  if (LLVMIsAConstantInt(v) && is_bool(v))
    aucs_buf_puts(out, LLVMConstIntGetZExtValue(v) ? "true" : "false");
  else if (LLVMIsAConstantInt(v))
    aucs_buf_printf(out, "%lld", LLVMConstIntGetSExtValue(v));
  else if (s)
    aucs_buf_puts(out, s);
  else if (LLVMIsAArgument(v) && (s = LLVMGetValueName2(v, &len)) && len)
    aucs_buf_printf(out, "%.*s", (int)len, s);
  else {
    if (!c->names)
      c->names = aucs_names_build(c->cfg->fn);
    aucs_buf_puts(out, aucs_names_value(c->names, v));
  }
}

/* v printed in context precedence ctx, seeing through comparisons,
 * arithmetic and extensions of the function up to MAX_DEPTH. */
static void value(aucs_conds *c, LLVMValueRef v, int ctx, int depth,
                  aucs_buf *out) {
  if (!LLVMIsAInstruction(v) || depth > MAX_DEPTH) {
    leaf(c, v, out);
    return;
  }
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  int prec;
  if (op == LLVMICmp) {
    const char *t = icmp_text(LLVMGetICmpPredicate(v), &prec);
    infix(c, LLVMGetOperand(v, 0), t, LLVMGetOperand(v, 1), prec, ctx, depth,
          out);
    return;
  }
  if (op == LLVMZExt || op == LLVMSExt || (op == LLVMTrunc && !is_bool(v))) {
    value(c, LLVMGetOperand(v, 0), ctx, depth + 1, out);
    return;
  }
  if (is_bool(v) && (op == LLVMAnd || op == LLVMOr)) {
    prec = op == LLVMAnd ? P_AND : P_OR;
    infix(c, LLVMGetOperand(v, 0), op == LLVMAnd ? "&&" : "||",
          LLVMGetOperand(v, 1), prec, ctx, depth, out);
    return;
  }
  for (size_t i = 0; i < sizeof binops / sizeof *binops; i++)
    if (binops[i].op == op) {
      infix(c, LLVMGetOperand(v, 0), binops[i].text, LLVMGetOperand(v, 1),
            binops[i].prec, ctx, depth, out);
      return;
    }
  leaf(c, v, out);
}

static void print_node(aucs_conds *c, const cnode *x, int ctx, aucs_buf *out);

static void junction(aucs_conds *c, const cnode *x, int ctx, aucs_buf *out) {
  int prec = x->k == C_AND ? P_AND : P_OR;
  /* (a && b) || c: parenthesise an AND inside an OR, for the reader */
  int inner = x->k == C_OR ? P_AND + 1 : P_AND;
  if (prec < ctx)
    aucs_buf_puts(out, "(");
  for (int i = 0; i < x->n; i++) {
    if (i)
      aucs_buf_puts(out, x->k == C_AND ? " && " : " || ");
    print_node(c, x->kid[i], inner, out);
  }
  if (prec < ctx)
    aucs_buf_puts(out, ")");
}

static void print_node(aucs_conds *c, const cnode *x, int ctx, aucs_buf *out) {
  switch (x->k) {
  case C_FALSE:
  case C_TRUE:
    aucs_buf_puts(out, x->k == C_TRUE ? "true" : "false");
    break;
  case C_ATOM:
    if (!x->kase) {
      value(c, x->v, ctx, 0, out);
      break;
    }
    if (P_EQ < ctx)
      aucs_buf_puts(out, "(");
    value(c, x->v, P_EQ, 1, out);
    aucs_buf_puts(out, " == ");
    leaf(c, x->kase, out);
    if (P_EQ < ctx)
      aucs_buf_puts(out, ")");
    break;
  case C_NOT:
    aucs_buf_puts(out, "!");
    print_node(c, x->kid[0], P_NOT, out);
    break;
  default:
    junction(c, x, ctx, out);
  }
}

void aucs_cond_print(aucs_conds *c, int block, aucs_buf *out) {
  AUCS_ASSERT(block >= 0 && block < c->cfg->nblocks);
  print_node(c, c->ec[block], 0, out);
}

char *aucs_cond_format(aucs_conds *c, int block) {
  aucs_buf b = {0};
  aucs_cond_print(c, block, &b);
  return aucs_buf_take(&b);
}

/* ---- materialisation ---- */

static LLVMValueRef emit(aucs_conds *c, const cnode *x, LLVMBuilderRef b) {
  if (c->emitted[x->id])
    return c->emitted[x->id];
  LLVMTypeRef i1 =
      LLVMInt1TypeInContext(LLVMGetTypeContext(LLVMTypeOf(c->cfg->fn)));
  LLVMValueRef r;
  switch (x->k) {
  case C_FALSE:
  case C_TRUE:
    r = LLVMConstInt(i1, x->k == C_TRUE, 0);
    break;
  case C_ATOM:
    r = x->kase ? LLVMBuildICmp(b, LLVMIntEQ, x->v, x->kase, "ec.case") : x->v;
    break;
  case C_NOT:
    r = LLVMBuildNot(b, emit(c, x->kid[0], b), "ec.not");
    break;
  default:
    r = emit(c, x->kid[0], b);
    for (int i = 1; i < x->n; i++)
      r = x->k == C_AND ? LLVMBuildAnd(b, r, emit(c, x->kid[i], b), "ec.and")
                        : LLVMBuildOr(b, r, emit(c, x->kid[i], b), "ec.or");
  }
  c->emitted[x->id] = r;
  return r;
}

void aucs_cond_emit_reset(aucs_conds *c) {
  free(c->emitted);
  c->emitted = NULL;
}

LLVMValueRef aucs_cond_emit(aucs_conds *c, int block, LLVMBuilderRef b) {
  AUCS_ASSERT(block >= 0 && block < c->cfg->nblocks);
  if (!c->emitted)
    c->emitted = aucs_xcalloc((size_t)c->nnode, sizeof(*c->emitted));
  const cnode *x = c->ec[block];
  LLVMValueRef r = emit(c, x, b);
  if (LLVMIsAInstruction(r) && x->k != C_ATOM &&
      LLVMGetInstructionParent(r) == LLVMGetInsertBlock(b)) {
    const char *name = LLVMGetBasicBlockName(c->cfg->blocks[block]);
    char *n = *name ? aucs_xasprintf("ec.%s", name) : aucs_xstrdup("ec");
    LLVMSetValueName2(r, n, strlen(n));
    free(n);
  }
  return r;
}
