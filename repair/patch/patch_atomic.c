/*
 * patch_atomic: the source form of a make-atomic edit (repair/atomic_rmw.c)
 * in the checked patch.
 *
 *   before:  h[in[t] & 15]++;        after:  atomicAdd(&h[in[t] & 15], 1);
 *            s[k] -= v;                      atomicSub(&s[k], v);
 *
 * Steps: the edit's line must be the store's, hold one compound assignment
 * (`LVALUE++;`, `++LVALUE;`, `--`, `LVALUE OP= EXPR;`, pt_compound) alone,
 * and OP must be the one the IR's atomic does (+ atomicAdd, - atomicSub,
 * | atomicOr, & atomicAnd, ^ atomicXor). The line becomes the call.
 *
 * Limitation: `h[i] = h[i] + 1;` and a read-modify-write inside a larger
 * statement or a macro stay IR only; a `//` comment on the line is dropped.
 */
#include "patch_impl.h"

#include <stdlib.h>
#include <string.h>

static const struct {
  char op;
  const char *cuda;
} calls[] = {{'+', "atomicAdd"},
             {'-', "atomicSub"},
             {'|', "atomicOr"},
             {'&', "atomicAnd"},
             {'^', "atomicXor"}};

static const char PREFIX[] = "use ";
static const char FOR[] = " for the read-modify-write at ";

/* The CUDA call of "use atomicAdd for the read-modify-write at F:L" and
 * L when F is this file; NULL otherwise. */
static const char *parse(const aucs_edit *e, const char *base, unsigned *line) {
  const char *s = e->source_edit;
  const char *f = s ? strstr(s, FOR) : NULL;
  if (!f || strncmp(s, PREFIX, sizeof PREFIX - 1))
    return NULL;
  size_t n = (size_t)(f - s) - (sizeof PREFIX - 1);
  for (size_t i = 0; i < sizeof calls / sizeof *calls; i++)
    if (strlen(calls[i].cuda) == n && !strncmp(s + 4, calls[i].cuda, n)) {
      char *prefix = aucs_xasprintf("use %s%s", calls[i].cuda, FOR);
      *line = pt_edit_at(e, prefix, base);
      free(prefix);
      return *line ? calls[i].cuda : NULL;
    }
  return NULL;
}

static const char *call_of(const char *op, size_t n) {
  for (size_t i = 0; n == 1 && i < sizeof calls / sizeof *calls; i++)
    if (calls[i].op == *op)
      return calls[i].cuda;
  return NULL;
}

const char *pt_form_atomic(const aucs_edit *e, const pt_text *t,
                           const char *base, pt_hunk *h) {
  unsigned line = 0;
  const char *cuda = parse(e, base, &line);
  if (!cuda || pt_edit_line(e, base) != line || line > t->n)
    return e->why ? e->why : "the read-modify-write is not in this file";
  pt_assign a;
  if (!pt_compound(t, line, &a))
    return "the read-modify-write is not one `x++;`, `++x;`, `x--;` or "
           "`x OP= y;` statement alone on its line";
  const char *want = call_of(a.op, a.op_len);
  if (!want || strcmp(want, cuda))
    return "the statement's operator is not the one the atomic does (the "
           "compiler rewrote it)";
  size_t in, n;
  const char *ind = pt_indent(t, line, &in), *s = pt_trimmed(t, line, &n);
  h->from = h->to = line;
  pt_hunk_line(h, line, "%.*s%s(&%.*s, %.*s);", (int)in, ind, cuda,
               (int)a.lhs_len, a.lhs, (int)a.rhs_len, a.rhs);
  h->note =
      aucs_xasprintf("replace `%.*s` by `%s(&%.*s, %.*s)`", (int)(n - 1), s,
                     cuda, (int)a.lhs_len, a.lhs, (int)a.rhs_len, a.rhs);
  return NULL;
}
