/*
 * patch_split: the source form of a barrier that falls between the reads
 * of one statement (patch_forms.c's split form takes a barrier between a
 * statement's reads and its write).
 *
 *   T x = A op B;        auto val = A;
 *                  ->    __syncthreads();
 *                        T x = val op B;
 *
 * (and `LHS = A op B;` the same way). Steps:
 *   1. The line is one whole statement, `LHS = RHS;` or a declaration
 *      `T x = RHS;`, free of calls and other side effects, whose RHS has
 *      exactly one binary operator outside brackets (so A and B are its
 *      two operands, and `val op B` groups as `A op B` did).
 *   2. On the IR, within the barrier's block: every access of the line
 *      before the barrier is a read whose column lies in A (at least one),
 *      and every access after it a read whose column lies in B, or the
 *      statement's one write. A is then evaluated whole before the barrier,
 *      B whole after it: the IR's order, which the rewrite fixes.
 *   3. `auto` keeps A's type (after its lvalue conversion), so `val op B`
 *      converts as `A op B` did.
 *
 * Limitation: `op=` statements (the left side is read too), operands with
 * their own binary operators, and a line holding a macro are left to the
 * reasons of the other forms.
 */
#include "patch_impl.h"

#include "aucs/place.h"

#include <llvm-c/Core.h>

#include <stdlib.h>
#include <string.h>

static int word(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
         (c >= '0' && c <= '9') || c == '_';
}

/* Columns (1-based, inclusive) of the two operands. */
typedef struct operands {
  unsigned a_lo, a_hi, b_lo, b_hi, op; /* op: the operator's column */
} operands;

/* The one binary operator of r[0..n) outside brackets, or -1 (none, more
 * than one, or one this form does not split at: comparisons, `&&`, `?:`,
 * `->`, shifts, and a sign that may be an exponent's). */
static long one_operator(const char *r, size_t n) {
  long at = -1;
  int d = 0;
  for (size_t i = 0; i < n; i++) {
    char c = r[i], nx = i + 1 < n ? r[i + 1] : 0;
    d += strchr("([", c) ? 1 : strchr(")]", c) ? -1 : 0;
    if (d || !strchr("+-*/%&|^<>?!~=", c))
      continue;
    if (!strchr("+-*/%&|^", c))
      return -1;
    size_t p = i;
    while (p > 0 && r[p - 1] == ' ')
      p--;
    if (!(p > 0 && (word(r[p - 1]) || strchr(")]", r[p - 1])))) {
      if (strchr("+-*&", c))
        continue; /* a unary operator */
      return -1;
    }
    if (nx == c || nx == '=' || at >= 0 ||
        (p == i && strchr("+-", c) && strchr("eE", r[p - 1])))
      return -1;
    at = (long)i;
  }
  return at;
}

/* A declaration `T x` or a plain lvalue (a name or an element). */
static int split_lhs(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && (word(s[i]) || s[i] == '.'))
    i++;
  if (i && (i == n || s[i] == '['))
    return 1;
  for (size_t k = 0; k < n; k++)
    if (!word(s[k]) && !strchr(" *:", s[k]))
      return 0;
  return memchr(s, ' ', n) != NULL;
}

/* Step 1: the operands of line l, or 0. */
static int parse(const pt_text *t, unsigned l, operands *o) {
  size_t n;
  const char *s = pt_trimmed(t, l, &n);
  if (!pt_one_statement(t, l) || !n || s[n - 1] != ';')
    return 0;
  const char *e = memchr(s, '=', n);
  if (!e || e == s || strchr("+-*/%&|^<>!=", e[-1]) || e[1] == '=')
    return 0;
  size_t lhs = (size_t)(e - s), r0 = lhs + 1;
  while (lhs && s[lhs - 1] == ' ')
    lhs--;
  while (r0 < n - 1 && s[r0] == ' ')
    r0++;
  if (!split_lhs(s, lhs) || !pt_side_effect_free(s + r0, n - 1 - r0) ||
      !pt_side_effect_free(s, lhs))
    return 0;
  long op = one_operator(s + r0, n - 1 - r0);
  if (op < 0)
    return 0;
  unsigned col0 = (unsigned)(s - (t->data + t->start[l - 1])) + 1;
  size_t ahi = r0 + (size_t)op;
  while (ahi > r0 && s[ahi - 1] == ' ')
    ahi--;
  size_t blo = r0 + (size_t)op + 1;
  while (blo < n - 1 && s[blo] == ' ')
    blo++;
  if (ahi == r0 || blo >= n - 1)
    return 0;
  *o = (operands){col0 + (unsigned)r0, col0 + (unsigned)ahi - 1,
                  col0 + (unsigned)blo, col0 + (unsigned)n - 2,
                  col0 + (unsigned)(r0 + (size_t)op)};
  return 1;
}

static unsigned line_of(LLVMValueRef I) {
  return LLVMIsAIntrinsicInst(I) ? 0 : LLVMGetDebugLocLine(I);
}

/* Step 2: A's reads before bar, B's reads and the one write after it. */
static int split_on_ir(LLVMValueRef bar, unsigned l, const operands *o) {
  int before = 0, stores = 0;
  for (LLVMValueRef I = LLVMGetPreviousInstruction(bar); I;
       I = LLVMGetPreviousInstruction(I)) {
    unsigned at = line_of(I), col = at ? LLVMGetDebugLocColumn(I) : 0;
    if (at && at != l)
      break;
    if (at != l || !aucs_place_effectful(I))
      continue;
    if (LLVMGetInstructionOpcode(I) != LLVMLoad || col < o->a_lo ||
        col > o->a_hi)
      return 0;
    before++;
  }
  for (LLVMValueRef I = LLVMGetNextInstruction(bar); I;
       I = LLVMGetNextInstruction(I)) {
    unsigned at = line_of(I), col = at ? LLVMGetDebugLocColumn(I) : 0;
    if (at && at != l)
      return before > 0;
    if (at != l || !aucs_place_effectful(I))
      continue;
    LLVMOpcode op = LLVMGetInstructionOpcode(I);
    if (op == LLVMStore ? stores++
                        : op != LLVMLoad || col < o->b_lo || col > o->b_hi)
      return 0;
  }
  return 0;
}

const char *pt_form_split_reads(const pt_text *t, unsigned l, LLVMValueRef bar,
                                pt_names *names, pt_hunk *h) {
  operands o;
  if (!bar || !l || l > t->n || !parse(t, l, &o))
    return "the barrier does not fall after every read and before the one "
           "write of the statement it splits, and that statement is not "
           "`x = A op B;` (or a declaration) on one line with one operator "
           "outside brackets, free of calls and other side effects";
  if (!split_on_ir(bar, l, &o))
    return "the barrier falls neither after every read and before the one "
           "write of the statement it splits, nor between the reads of its "
           "two operands";
  const char *line = t->data + t->start[l - 1];
  size_t in, n;
  const char *ind = pt_indent(t, l, &in), *s = pt_trimmed(t, l, &n);
  unsigned a0 = o.a_lo - 1, a1 = o.a_hi, end = (unsigned)(s + n - line);
  char *val = pt_fresh(names, "val");
  h->from = h->to = l;
  pt_hunk_line(h, l, "%.*sauto %s = %.*s;", (int)in, ind, val, (int)(a1 - a0),
               line + a0);
  pt_hunk_line(h, 0, "%.*s__syncthreads();", (int)in, ind);
  pt_hunk_line(h, l, "%.*s%s%.*s", (int)a0, line, val, (int)(end - a1),
               line + a1);
  free(val);
  return NULL;
}
