/*
 * qkey: the canonical text of a static query (interface in qkey.h).
 *
 *   1. Walk the query's DAG once (memo by term). Each term gets a
 *      signature: its operator (kind, name, parameters, domain and range
 *      sorts), a numeral's value and sort, or for a fresh constant (a name
 *      `prefix!N`) its sorts alone; and a hash of its structure that never
 *      reads a fresh name: the signature's hash mixed with the arguments'
 *      hashes, taken in hash order under a commutative operator.
 *   2. The arguments of a commutative operator, and the assertions, are
 *      put in hash order; in step 3, arguments of one hash go in the order
 *      of their lines when printed already (a tie broken by what the key
 *      says already), else in the order they had.
 *   3. Print the DAG in post-order from the ordered assertions, one line a
 *      term: its signature (spelt out at its first use, later by the
 *      number of that use; a fresh constant is only ever its number, so
 *      fresh names are renamed by order of first appearance) and the line
 *      numbers of its arguments. Then a line naming the assertions' lines
 *      and one naming the terms' lines, in the caller's order.
 *
 * Z3 orders some arguments by term id, and a term's id depends on what
 * the context built before (a repair's final check builds its terms in
 * another order than the first detection did): step 2 makes the key
 * independent of that. No text of the whole formula is ever printed, so a
 * key costs a walk of the DAG, not an SMT-LIB print.
 *
 * Limitation: see qkey.h (ties between arguments of one structure).
 */
#include "aucs/qkey.h"

#include "aucs/util.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct node {
  uint64_t h;         /* structure, blind to fresh names */
  size_t sig;         /* index into sigs */
  size_t arg0, nargs; /* arguments: kids[arg0 .. arg0 + nargs) */
  long line;          /* its line once printed, else -1 */
  int comm;           /* under a commutative operator */
} node;

typedef struct sig {
  char *text;
  uint64_t h;
  long local; /* the line of its first use once printed, else -1 */
} sig;

typedef struct walk {
  Z3_context z;
  node *nodes;
  size_t nn, capn;
  size_t *kids;
  size_t nk, capk;
  sig *sigs;
  size_t ns, caps;
  aucs_ptrmap memo;  /* term -> node index + 1 */
  aucs_ptrmap decls; /* declaration -> sig index + 1 */
  aucs_ptrmap sorts; /* sort -> its text (owned) */
  aucs_buf out;
  long lines;
} walk;

static uint64_t mix(uint64_t h, uint64_t x) {
  h ^= x + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
  h ^= h >> 29;
  return h * 0xbf58476d1ce4e5b9ull;
}

/* ---- signatures ---------------------------------------------------------*/

static size_t add_sig(walk *w, char *text, int fresh) {
  if (w->ns == w->caps) {
    w->caps = w->caps ? 2 * w->caps : 64;
    w->sigs = aucs_xrealloc(w->sigs, w->caps * sizeof *w->sigs);
  }
  /* a fresh symbol's hash is its sorts' (text), never its name */
  w->sigs[w->ns] = (sig){text, aucs_hash_text(AUCS_HASH_SEED, text) ^ (uint64_t)fresh, -1};
  return w->ns++;
}

static const char *sort_text(walk *w, Z3_sort s) {
  intptr_t got;
  if (!aucs_ptrmap_get(&w->sorts, s, &got)) {
    got = (intptr_t)aucs_xstrdup(Z3_sort_to_string(w->z, s));
    aucs_ptrmap_put(&w->sorts, s, got);
  }
  return (const char *)got;
}

/* Whether a name is Z3's fresh form `prefix!N`. */
static int fresh_name(const char *s) {
  const char *bang = strrchr(s, '!');
  if (!bang || bang == s || !bang[1])
    return 0;
  for (const char *c = bang + 1; *c; c++)
    if (*c < '0' || *c > '9')
      return 0;
  return 1;
}

static void put_symbol(walk *w, aucs_buf *b, Z3_symbol s) {
  if (Z3_get_symbol_kind(w->z, s) == Z3_INT_SYMBOL)
    aucs_buf_printf(b, "#%d", Z3_get_symbol_int(w->z, s));
  else
    aucs_buf_puts(b, Z3_get_symbol_string(w->z, s));
}

static void put_param(walk *w, aucs_buf *b, Z3_func_decl d, unsigned i) {
  Z3_context z = w->z;
  switch (Z3_get_decl_parameter_kind(z, d, i)) {
  case Z3_PARAMETER_INT:
    aucs_buf_printf(b, " %d", Z3_get_decl_int_parameter(z, d, i));
    break;
  case Z3_PARAMETER_DOUBLE:
    aucs_buf_printf(b, " %.17g", Z3_get_decl_double_parameter(z, d, i));
    break;
  case Z3_PARAMETER_RATIONAL:
    aucs_buf_printf(b, " r%s", Z3_get_decl_rational_parameter(z, d, i));
    break;
  case Z3_PARAMETER_SYMBOL:
    aucs_buf_puts(b, " s");
    put_symbol(w, b, Z3_get_decl_symbol_parameter(z, d, i));
    break;
  case Z3_PARAMETER_SORT:
    aucs_buf_printf(b, " S%s",
                    sort_text(w, Z3_get_decl_sort_parameter(z, d, i)));
    break;
  case Z3_PARAMETER_AST:
    aucs_buf_printf(b, " A%s",
                    Z3_ast_to_string(z, Z3_get_decl_ast_parameter(z, d, i)));
    break;
  default:
    aucs_buf_printf(
        b, " F%s",
        Z3_func_decl_to_string(z, Z3_get_decl_func_decl_parameter(z, d, i)));
  }
}

/* The signature of a declaration: kind, name (none when fresh),
 * parameters, domain and range sorts. */
static size_t decl_sig(walk *w, Z3_func_decl d) {
  intptr_t got;
  if (aucs_ptrmap_get(&w->decls, d, &got))
    return (size_t)got - 1;
  Z3_context z = w->z;
  aucs_buf b = {0}, name = {0};
  Z3_decl_kind k = Z3_get_decl_kind(z, d);
  put_symbol(w, &name, Z3_get_decl_name(z, d));
  int fresh = k == Z3_OP_UNINTERPRETED && fresh_name(name.data);
  aucs_buf_printf(&b, "%c%d %s", fresh ? '!' : 'k', (int)k,
                  fresh ? "" : name.data);
  aucs_buf_free(&name);
  for (unsigned i = 0; i < Z3_get_decl_num_parameters(z, d); i++)
    put_param(w, &b, d, i);
  aucs_buf_puts(&b, " (");
  for (unsigned i = 0; i < Z3_get_domain_size(z, d); i++)
    aucs_buf_printf(&b, "%s%s", i ? " " : "",
                    sort_text(w, Z3_get_domain(z, d, i)));
  aucs_buf_printf(&b, ") %s", sort_text(w, Z3_get_range(z, d)));
  size_t s = add_sig(w, aucs_buf_take(&b), fresh);
  aucs_ptrmap_put(&w->decls, d, (intptr_t)s + 1);
  return s;
}

/* A term that is no application (a numeral, a bound variable, a
 * quantifier): its own signature, printed in full. */
static size_t leaf_sig(walk *w, Z3_ast t) {
  aucs_buf b = {0};
  if (Z3_get_ast_kind(w->z, t) == Z3_NUMERAL_AST)
    aucs_buf_printf(&b, "#%s %s", Z3_get_numeral_string(w->z, t),
                    sort_text(w, Z3_get_sort(w->z, t)));
  else
    aucs_buf_printf(&b, "@%s", Z3_ast_to_string(w->z, t));
  return add_sig(w, aucs_buf_take(&b), 0);
}

/* ---- step 1 and 2: the walk ---------------------------------------------*/

static int commutative(Z3_decl_kind k) {
  switch (k) {
  case Z3_OP_AND:
  case Z3_OP_OR:
  case Z3_OP_EQ:
  case Z3_OP_DISTINCT:
  case Z3_OP_XOR:
  case Z3_OP_BADD:
  case Z3_OP_BMUL:
  case Z3_OP_BAND:
  case Z3_OP_BOR:
  case Z3_OP_BXOR:
  case Z3_OP_ADD:
  case Z3_OP_MUL:
    return 1;
  default:
    return 0;
  }
}

/* Whether node a goes before node b: by hash, then (step 3) a printed
 * one before one not yet printed, two printed ones by their lines. */
static int before(const walk *w, size_t a, size_t b) {
  const node *x = &w->nodes[a], *y = &w->nodes[b];
  if (x->h != y->h)
    return x->h < y->h;
  unsigned long lx = (unsigned long)x->line, ly = (unsigned long)y->line;
  return lx < ly; /* -1: never printed, last */
}

/* v[0..n) in that order, ties in the order given (insertion sort: an
 * operator has few arguments). */
static void canon_order(const walk *w, size_t *v, size_t n) {
  for (size_t i = 1; i < n; i++) {
    size_t x = v[i], j = i;
    for (; j > 0 && before(w, x, v[j - 1]); j--)
      v[j] = v[j - 1];
    v[j] = x;
  }
}

static size_t add_node(walk *w, size_t sig, const size_t *args, size_t n) {
  if (w->nk + n > w->capk) {
    w->capk = 2 * (w->nk + n) + 64;
    w->kids = aucs_xrealloc(w->kids, w->capk * sizeof *w->kids);
  }
  if (w->nn == w->capn) {
    w->capn = w->capn ? 2 * w->capn : 256;
    w->nodes = aucs_xrealloc(w->nodes, w->capn * sizeof *w->nodes);
  }
  uint64_t h = mix(w->sigs[sig].h, n);
  for (size_t i = 0; i < n; i++)
    h = mix(h, w->nodes[args[i]].h);
  if (n) /* a leaf has no args (NULL), and kids may still be NULL */
    memcpy(w->kids + w->nk, args, n * sizeof *args);
  w->nodes[w->nn] = (node){h, sig, w->nk, n, -1, 0};
  w->nk += n;
  return w->nn++;
}

static size_t visit(walk *w, Z3_ast t) {
  intptr_t got;
  if (aucs_ptrmap_get(&w->memo, t, &got))
    return (size_t)got - 1;
  size_t i;
  if (!t) /* a term that could not be built: the query answers UNKNOWN */
    return add_node(w, add_sig(w, aucs_xstrdup("@null"), 0), NULL, 0);
  if (Z3_get_ast_kind(w->z, t) != Z3_APP_AST) {
    i = add_node(w, leaf_sig(w, t), NULL, 0);
  } else {
    Z3_app app = Z3_to_app(w->z, t);
    Z3_func_decl d = Z3_get_app_decl(w->z, app);
    unsigned n = Z3_get_app_num_args(w->z, app);
    size_t small[8], *args = n <= 8 ? small : aucs_xcalloc(n, sizeof *args);
    for (unsigned k = 0; k < n; k++)
      args[k] = visit(w, Z3_get_app_arg(w->z, app, k));
    int comm = commutative(Z3_get_decl_kind(w->z, d));
    if (comm) /* the hash mixes the arguments' hashes in one order */
      canon_order(w, args, n);
    i = add_node(w, decl_sig(w, d), args, n);
    w->nodes[i].comm = comm;
    if (args != small)
      free(args);
  }
  aucs_ptrmap_put(&w->memo, t, (intptr_t)i + 1);
  return i;
}

/* ---- step 3: printing ---------------------------------------------------*/

static void put_num(aucs_buf *b, char tag, long v) {
  char s[24], *e = s + sizeof s - 1;
  unsigned long u = v < 0 ? 0ul - (unsigned long)v : (unsigned long)v;
  *e = '\0';
  do
    *--e = (char)('0' + u % 10);
  while (u /= 10);
  if (v < 0)
    *--e = '-';
  *--e = tag;
  aucs_buf_puts(b, e);
}

static long print(walk *w, size_t i) {
  if (w->nodes[i].line >= 0)
    return w->nodes[i].line;
  node n = w->nodes[i];
  const size_t *kids = w->kids + n.arg0;
  if (n.comm) /* ties between equal hashes: what is printed already */
    canon_order(w, w->kids + n.arg0, n.nargs);
  for (size_t k = 0; k < n.nargs; k++)
    print(w, kids[k]);
  sig *s = &w->sigs[n.sig];
  if (s->local < 0) {
    s->local = w->lines;
    aucs_buf_puts(&w->out, "=");
    aucs_buf_puts(&w->out, s->text);
  } else {
    put_num(&w->out, '$', s->local);
  }
  for (size_t k = 0; k < n.nargs; k++)
    put_num(&w->out, ' ', w->nodes[kids[k]].line);
  aucs_buf_puts(&w->out, "\n");
  return w->nodes[i].line = w->lines++;
}

static void walk_free(walk *w) {
  for (size_t i = 0; i < w->ns; i++)
    free(w->sigs[i].text);
  for (size_t i = 0; i < w->sorts.cap; i++)
    if (w->sorts.keys[i])
      free((void *)w->sorts.vals[i]);
  free(w->sigs);
  free(w->nodes);
  free(w->kids);
  aucs_ptrmap_free(&w->memo);
  aucs_ptrmap_free(&w->decls);
  aucs_ptrmap_free(&w->sorts);
}

char *aucs_qkey_build(Z3_context z, const Z3_ast *asserts, size_t n,
                      const Z3_ast *terms, size_t nterms) {
  walk w = {.z = z};
  size_t *roots = aucs_xcalloc(n + nterms + 1, sizeof *roots);
  for (size_t i = 0; i < n; i++)
    roots[i] = visit(&w, asserts[i]);
  for (size_t i = 0; i < nterms; i++)
    roots[n + i] = terms[i] ? visit(&w, terms[i]) : SIZE_MAX;
  canon_order(&w, roots, n);
  long *lines = aucs_xcalloc(n + nterms + 1, sizeof *lines);
  for (size_t i = 0; i < n + nterms; i++)
    lines[i] = roots[i] == SIZE_MAX ? -1 : print(&w, roots[i]);
  aucs_buf_puts(&w.out, "A");
  for (size_t i = 0; i < n; i++)
    put_num(&w.out, ' ', lines[i]);
  aucs_buf_puts(&w.out, "\nT");
  for (size_t i = n; i < n + nterms; i++)
    put_num(&w.out, ' ', lines[i]);
  free(roots);
  free(lines);
  char *key = aucs_buf_take(&w.out);
  walk_free(&w);
  return key;
}
