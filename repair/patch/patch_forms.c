/*
 * patch_forms: the exact source form of each kind of edit, for the checked
 * source patch (patch.c). A form reads the CUDA text (lines, brace depths)
 * and the debug lines of the edit; where the statement boundaries or the
 * braces it needs cannot be found exactly, it says why and the edit stays
 * "IR only". Forms:
 *
 *   insert   a barrier before statement line L:
 *              `__syncthreads();` on its own line, indented like L; when L
 *              is the one-line body of a braceless `for`/`while`/`if`, the
 *              body gets braces (the barrier stays inside it, as in the IR).
 *   after    a barrier at the end of a loop body (after line P, before the
 *              loop's increment at the header line N): before the body's
 *              `}`, or the braceless one-line body gets braces.
 *   delete   a `__syncthreads();` (`cg::sync(g);`, `g.sync();`) alone on its
 *            line: the line goes.
 *   split    a barrier inside `LHS op= RHS;`, `LHS = RHS;`, `LHS++;`
 *            after every read and before the write (checked on the IR):
 *              auto &ref = LHS;  auto val = ref op (RHS);
 *              __syncthreads();  ref = val;
 *            or between the reads of the two operands of `x = A op B;`
 *            (patch_split.c): auto val = A;  __syncthreads();
 *              x = val op B;
 *   exit     flatten-exit at an `if` (line L) of the kernel:
 *            an early `if (C) return;` at the kernel's top level becomes
 *              bool active = true;  if (C) active = false;
 *              if (active) { A; }  __syncthreads();  if (active) { B; }
 *            a barrier inside `if (C) { A; __syncthreads(); B; }` becomes
 *              bool cond = C;  if (cond) { A; }  __syncthreads();
 *              if (cond) { B; }
 *            declarations of A that later code uses are hoisted above the
 *            first guard (`T x = e;` -> `T x;` above, `x = e;` in place).
 *            A loop made uniform at the guarded code's level (given by a
 *            pt_exit_ctx) takes a guarded run's place, rewritten by
 *            pt_form_loop_under with the guard; a barrier line the repair
 *            deleted there goes; a call of a helper that takes the flag
 *            (pt_exit_ctx.call, patch_active.c) stands unguarded between
 *            runs, and pt_form_guarded gives the helper's body the runs.
 *   if/else  a flattened `if (C) A; else B;` whose barrier the repair put
 *            before the else arm (one-line or braced arms):
 *              bool cond = C;  if (cond) A;  __syncthreads();
 *              if (!cond) B;
 *
 * Limitation: statements must begin and end on the lines the debug info
 * names, one statement a line, with no side effects inside a split
 * statement; loops made uniform and other flattened regions (chains,
 * arms with jumps) have no source form here.
 */
#include "patch_impl.h"

#include "aucs/place.h"
#include "aucs/repair.h"
#include "aucs/srcloc.h"

#include <llvm-c/Core.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the text -------------------------------------------------------------*/

/* Brace depths, skipping comments and literals. */
static void depths(pt_text *t) {
  t->depth = aucs_xcalloc(t->n + 2, sizeof(int));
  t->shut = aucs_xcalloc(t->n + 2, sizeof(int));
  t->code = aucs_xstrdup(t->data);
  int d = 0, blockc = 0;
  for (size_t l = 1; l <= t->n; l++) {
    t->depth[l] = t->shut[l] = d;
    const char *s = t->data + t->start[l - 1], *e = t->data + t->start[l];
    char q = 0, *c = t->code + t->start[l - 1];
    for (const char *p = s; p < e; p++) {
      if (blockc) {
        c[p - s] = ' ';
        if (p + 1 < e && p[0] == '*' && p[1] == '/')
          blockc = 0, c[p + 1 - s] = ' ', p++;
      } else if (q) {
        if (*p == '\\')
          p++;
        else if (*p == q)
          q = 0;
      } else if (p + 1 < e && p[0] == '/' && p[1] == '/') {
        for (; p < e && *p != '\n'; p++)
          c[p - s] = ' ';
        break;
      } else if (p + 1 < e && p[0] == '/' && p[1] == '*')
        blockc = 1, c[p - s] = c[p + 1 - s] = ' ', p++;
      else if (*p == '"' || *p == '\'')
        q = *p;
      else if (*p == '{')
        d++;
      else if (*p == '}' && --d < t->shut[l])
        t->shut[l] = d;
    }
  }
  t->depth[t->n + 1] = t->shut[t->n + 1] = d;
}

int pt_text_read(pt_text *t, const char *path) {
  memset(t, 0, sizeof(*t));
  char *why = NULL;
  if (aucs_read_regular(path, (size_t)1 << 30, "a source file", "", &t->data,
                        &t->len, &why)) {
    free(why);
    return 1;
  }
  t->start = aucs_xcalloc(t->len + 2, sizeof(size_t));
  for (size_t i = 0; i < t->len; i++)
    if (i == 0 || t->data[i - 1] == '\n')
      t->start[t->n++] = i;
  t->start[t->n] = t->len;
  depths(t);
  return 0;
}

void pt_text_free(pt_text *t) {
  free(t->data);
  free(t->start);
  free(t->depth);
  free(t->shut);
  free(t->code);
}

const char *pt_trimmed(const pt_text *t, size_t l, size_t *len) {
  const char *s = t->data + t->start[l - 1], *e = t->data + t->start[l];
  while (s < e && (*s == ' ' || *s == '\t'))
    s++;
  while (e > s && isspace((unsigned char)e[-1]))
    e--;
  const char *cmt = NULL;
  for (const char *p = s; p + 1 < e && !cmt; p++)
    if (p[0] == '/' && p[1] == '/')
      cmt = p;
  if (cmt)
    for (e = cmt; e > s && isspace((unsigned char)e[-1]);)
      e--;
  *len = (size_t)(e - s);
  return s;
}

const char *pt_indent(const pt_text *t, size_t l, size_t *len) {
  const char *s = t->data + t->start[l - 1], *e = t->data + t->start[l];
  size_t n = 0;
  while (s + n < e && (s[n] == ' ' || s[n] == '\t'))
    n++;
  *len = n;
  return s;
}

int pt_line_is(const pt_text *t, size_t l, const char *s) {
  size_t n;
  const char *x = l >= 1 && l <= t->n ? pt_trimmed(t, l, &n) : NULL;
  return x && n == strlen(s) && !strncmp(x, s, n);
}

/* Whether line l holds a comment (its text would move with the code). */
static int has_comment(const pt_text *t, size_t l) {
  const char *s = t->data + t->start[l - 1], *e = t->data + t->start[l];
  for (const char *p = s; p + 1 < e; p++)
    if (p[0] == '/' && (p[1] == '/' || p[1] == '*'))
      return 1;
  return 0;
}

/* ---- hunks and names ------------------------------------------------------*/

void pt_hunk_line(pt_hunk *h, unsigned origin, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  aucs_buf_vprintf(&h->text, fmt, ap);
  va_end(ap);
  aucs_buf_puts(&h->text, "\n");
  if (h->n == h->cap) {
    h->cap = h->cap ? 2 * h->cap : 8;
    h->origin = aucs_xrealloc(h->origin, h->cap * sizeof(unsigned));
  }
  h->origin[h->n++] = origin;
}

void pt_hunk_copy(pt_hunk *h, const pt_text *t, unsigned l, const char *extra) {
  const char *s = t->data + t->start[l - 1];
  size_t len = t->start[l] - t->start[l - 1];
  while (len && (s[len - 1] == '\n' || s[len - 1] == '\r'))
    len--;
  size_t n;
  pt_trimmed(t, l, &n);
  pt_hunk_line(h, l, "%s%.*s", n ? extra : "", (int)len, s);
}

void pt_hunk_free(pt_hunk *h) {
  aucs_buf_free(&h->text);
  free(h->origin);
  free(h->note);
  memset(h, 0, sizeof(*h));
}

static int word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Whether `w` occurs as a whole word in s[0..n). */
static int has_word(const char *s, size_t n, const char *w) {
  size_t k = strlen(w);
  for (size_t i = 0; i + k <= n; i++)
    if (!strncmp(s + i, w, k) && (i == 0 || !word_char(s[i - 1])) &&
        (i + k == n || !word_char(s[i + k])))
      return 1;
  return 0;
}

static int lines_have_word(const pt_text *t, size_t from, size_t to,
                           const char *w) {
  for (size_t l = from; l <= to && l <= t->n; l++)
    if (has_word(t->data + t->start[l - 1], t->start[l] - t->start[l - 1], w))
      return 1;
  return 0;
}

char *pt_fresh(pt_names *names, const char *base) {
  for (unsigned i = 0;; i++) {
    char *name = i ? aucs_xasprintf("%s%u", base, i + 1) : aucs_xstrdup(base);
    if (!has_word(names->t->code, names->t->len, name) &&
        !(names->used.data &&
          has_word(names->used.data, names->used.len, name))) {
      aucs_buf_printf(&names->used, " %s ", name);
      return name;
    }
    free(name);
  }
}

/* ---- statements -----------------------------------------------------------*/

static int starts(const char *s, size_t len, const char *word) {
  size_t w = strlen(word);
  return len >= w && !strncmp(s, word, w) && (len == w || !word_char(s[w]));
}

/* Whether line p holds only a comment (blanked out of t->code). */
static int comment_only(const pt_text *t, size_t p) {
  for (size_t i = t->start[p - 1]; i < t->start[p]; i++)
    if (!isspace((unsigned char)t->code[i]))
      return 0;
  return 1;
}

/* The nonblank line above l, 0 when none. */
static size_t above(const pt_text *t, size_t l) {
  size_t n;
  for (size_t p = l - 1; p > 0; p--)
    if (pt_trimmed(t, p, &n), n)
      return p;
  return 0;
}

/* The line above l that holds code (not only a comment), 0 when none. */
static size_t above_code(const pt_text *t, size_t l) {
  size_t p = above(t, l);
  while (p && comment_only(t, p))
    p = above(t, p);
  return p;
}

static size_t below(const pt_text *t, size_t l) {
  size_t n;
  for (size_t p = l + 1; p <= t->n; p++)
    if (pt_trimmed(t, p, &n), n)
      return p;
  return 0;
}

static char last_char(const pt_text *t, size_t l) {
  size_t n;
  const char *s = l ? pt_trimmed(t, l, &n) : NULL;
  return s && n ? s[n - 1] : 0;
}

static int pragma_line(const pt_text *t, size_t l) {
  size_t n;
  const char *s = l ? pt_trimmed(t, l, &n) : NULL;
  return s && n > 7 && !strncmp(s, "#pragma", 7);
}

/* The first of the `#pragma` lines right above l (they bind to the
 * statement at l), else l. */
static size_t pragma_top(const pt_text *t, size_t l) {
  while (pragma_line(t, above(t, l)))
    l = above(t, l);
  return l;
}

/* Whether line l begins a statement: the line above ends one or opens or
 * closes a block, and l is not a brace, label or directive. */
static const char *begins_statement(const pt_text *t, size_t l) {
  size_t n;
  const char *s = pt_trimmed(t, l, &n);
  static const char *const bad[] = {"}", "{", "else", "case", "default", "#"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    if (!n || !strncmp(s, bad[i], strlen(bad[i])))
      return "the line the barrier precedes does not begin a statement";
  size_t up = above_code(t, pragma_top(t, l));
  char c = last_char(t, up);
  if (c && c != ';' && c != '{' && c != '}')
    return "the line the barrier precedes continues the statement above it";
  return NULL;
}

/* The range of the statement holding line l: up over continued lines (not
 * ending in `;`, `{` or `}`), down to the line ending in `;` (or in `{`: the
 * header of an `if` or loop). 0 when l does not end within a few lines. */
int pt_statement_lines(const pt_text *t, size_t l, size_t *from, size_t *to) {
  size_t e = l, n;
  while (e && e < l + 8 && last_char(t, e) != ';' && last_char(t, e) != '{')
    e = last_char(t, e) == '}' ? 0 : below(t, e);
  *from = l;
  for (size_t up; (up = above(t, *from)) && !strchr(";{}", last_char(t, up)) &&
                  *pt_trimmed(t, up, &n) != '#';)
    *from = up;
  *to = e && e < l + 8 ? e : 0;
  return *to != 0;
}

/* Whether line l is one whole simple statement: ends with its only `;`,
 * opens and closes no block, and is no control statement. */
static int one_line_statement(const pt_text *t, size_t l) {
  size_t n;
  const char *s = pt_trimmed(t, l, &n);
  static const char *const ctl[] = {"if",   "for",  "while",  "do",
                                    "else", "case", "switch", "default"};
  if (!n || s[n - 1] != ';' || memchr(s, ';', n - 1) || memchr(s, '{', n) ||
      memchr(s, '}', n) || *s == '#')
    return 0;
  for (size_t i = 0; i < sizeof ctl / sizeof *ctl; i++)
    if (starts(s, n, ctl[i]))
      return 0;
  return 1;
}

/* The index of the `)` closing s[open] (a `(`), or 0. */
static size_t close_paren(const char *s, size_t n, size_t open) {
  int d = 0;
  for (size_t i = open; i < n; i++)
    if (s[i] == '(')
      d++;
    else if (s[i] == ')' && !--d)
      return i;
  return 0;
}

/* Line l as `KW (COND) REST` for KW in kws: COND and REST (trimmed) out. */
typedef struct header {
  const char *cond, *rest;
  size_t cond_len, rest_len;
} header;

static int parse_header(const pt_text *t, size_t l, const char *const *kws,
                        header *h) {
  size_t n;
  const char *s = pt_trimmed(t, l, &n);
  for (; *kws; kws++) {
    size_t k = strlen(*kws);
    if (!starts(s, n, *kws))
      continue;
    size_t o = k;
    while (o < n && s[o] == ' ')
      o++;
    size_t c = o < n && s[o] == '(' ? close_paren(s, n, o) : 0;
    if (!c)
      return 0;
    h->cond = s + o + 1;
    h->cond_len = c - o - 1;
    h->rest = s + c + 1;
    h->rest_len = n - c - 1;
    while (h->rest_len && *h->rest == ' ')
      h->rest++, h->rest_len--;
    return 1;
  }
  return 0;
}

static const char *const loop_kws[] = {"for", "while", NULL};
static const char *const block_kws[] = {"for", "while", "if", NULL};
static const char *const if_kw[] = {"if", NULL};

/* The line closing the block that line l opens (at its end), 0 if none. */
static size_t block_end(const pt_text *t, size_t l) {
  int d = t->depth[l];
  if (t->depth[l + 1] != d + 1 || t->shut[l] < d)
    return 0;
  for (size_t e = l + 1; e <= t->n; e++)
    if (t->shut[e] <= d)
      return t->shut[e] == d && t->depth[e + 1] == d ? e : 0;
  return 0;
}

/* Line head (a braceless `for`/`while`/`if` header) with its one-line body
 * `body` gets braces, `bar_first`: the barrier before the body, else after. */
static void wrap_body(const pt_text *t, size_t head, size_t body, int bar_first,
                      pt_hunk *h) {
  size_t hn, bn, in;
  const char *hs = pt_trimmed(t, head, &hn);
  const char *ind = pt_indent(t, head, &in);
  const char *bind = pt_indent(t, body, &bn);
  h->from = (unsigned)head;
  h->to = (unsigned)body;
  pt_hunk_line(h, (unsigned)head, "%.*s%.*s {", (int)in, ind, (int)hn, hs);
  if (bar_first)
    pt_hunk_line(h, 0, "%.*s__syncthreads();", (int)bn, bind);
  pt_hunk_copy(h, t, (unsigned)body, "");
  if (!bar_first)
    pt_hunk_line(h, 0, "%.*s__syncthreads();", (int)bn, bind);
  pt_hunk_line(h, 0, "%.*s}", (int)in, ind);
}

/* A braceless header at `head` whose body is the one line `body`. */
static int braceless(const pt_text *t, size_t head, size_t body,
                     const char *const *kws) {
  header hd;
  return head && body == below(t, head) && parse_header(t, head, kws, &hd) &&
         !hd.rest_len && !has_comment(t, head) && one_line_statement(t, body);
}

int pt_has_word(const char *s, size_t n, const char *w) {
  return has_word(s, n, w);
}
size_t pt_below(const pt_text *t, size_t l) { return below(t, l); }
size_t pt_block_end(const pt_text *t, size_t l) { return block_end(t, l); }

size_t pt_loop_end(const pt_text *t, size_t l) {
  size_t e = block_end(t, l), b = below(t, l);
  if (e)
    return pt_line_is(t, e, "}") ? e : 0;
  return braceless(t, l, b, loop_kws) ? b : 0;
}

/* ---- insert, after, delete
 * -------------------------------------------------*/

/* `stmt` on its own line before statement line l, indented like it. */
static const char *insert_before(const pt_text *t, unsigned l,
                                 const char *stmt, pt_hunk *h) {
  const char *why = begins_statement(t, l);
  if (why)
    return why;
  size_t in;
  const char *ind = pt_indent(t, l, &in);
  h->from = (unsigned)pragma_top(t, l);
  h->to = h->from - 1;
  pt_hunk_line(h, 0, "%.*s%s", (int)in, ind, stmt);
  return NULL;
}

const char *pt_form_insert(const pt_text *t, unsigned l, pt_hunk *h) {
  if (!l || l > t->n)
    return "the barrier does not precede a statement of this file";
  size_t head = above(t, l);
  if (braceless(t, head, l, block_kws)) {
    wrap_body(t, head, l, 1, h);
    return NULL;
  }
  return insert_before(t, l, "__syncthreads();", h);
}

const char *pt_form_fence(const pt_text *t, unsigned l, pt_hunk *h) {
  if (!l || l > t->n)
    return "the fence does not precede a statement of this file";
  return insert_before(t, l, "__threadfence();", h);
}

/* The first line of the statement ending on line q: up over the lines
 * that end in none of `;`, `{`, `}` (continued), to a directive at most. */
static size_t statement_start(const pt_text *t, size_t q) {
  size_t l = q, up, n;
  while ((up = above(t, l)) && !strchr(";{}", last_char(t, up)) &&
         *pt_trimmed(t, up, &n) != '#')
    l = up;
  return l;
}

/* A `for`/`while` header begun on line l whose parentheses close on a
 * later line ending in `{`: that line, else 0. */
static size_t long_head(const pt_text *t, size_t l) {
  size_t n;
  const char *s = pt_trimmed(t, l, &n);
  if (!starts(s, n, "for") && !starts(s, n, "while"))
    return 0;
  int d = 0;
  for (size_t k = l; k <= t->n && k < l + 8; k++) {
    s = pt_trimmed(t, k, &n);
    for (size_t i = 0; i < n; i++)
      if (s[i] == '(')
        d++;
      else if (s[i] == ')' && --d == 0)
        return k > l && i + 3 == n && !strncmp(s + i, ") {", 3) ? k : 0;
  }
  return 0;
}

/* The first line of the statement whose block closes on line q (an `if`
 * or loop header with its `{`), else q. */
static size_t block_start(const pt_text *t, size_t q) {
  int d = t->shut[q];
  for (size_t l = q; l > 1; l--)
    if (t->depth[l - 1] <= d)
      return statement_start(t, l - 1);
  return q;
}

const char *pt_form_after(const pt_text *t, unsigned p, unsigned next,
                          pt_hunk *h) {
  header hd = {0};
  size_t head =
      next && next < p && p <= t->n
          ? (parse_header(t, next, loop_kws, &hd) ? next : long_head(t, next))
          : 0;
  if (!head)
    return "the loop whose body the barrier ends does not begin at a "
           "`for` or `while` of this file";
  if (head == next && braceless(t, next, p, loop_kws)) {
    wrap_body(t, next, p, 0, h);
    return NULL;
  }
  size_t e = head != next || (hd.rest_len == 1 && *hd.rest == '{')
                 ? block_end(t, head)
                 : 0;
  size_t q = e ? above(t, e) : 0;
  char c = last_char(t, q);
  int last = c == ';'   ? statement_start(t, q) <= p && p <= q
             : c == '}' ? block_start(t, q) <= p && p <= q
                        : p == q;
  if (!e || !pt_line_is(t, e, "}") || !last || (c != ';' && c != '}'))
    return "the barrier's line does not end the loop's braced body";
  size_t in;
  const char *ind = pt_indent(t, below(t, head), &in);
  h->from = (unsigned)e;
  h->to = (unsigned)e - 1;
  pt_hunk_line(h, 0, "%.*s__syncthreads();", (int)in, ind);
  return NULL;
}

const char *pt_form_loop_top(const pt_text *t, unsigned l, pt_hunk *h) {
  header hd = {0};
  size_t head = l && l <= t->n
                    ? (parse_header(t, l, loop_kws, &hd) ? l : long_head(t, l))
                    : 0;
  size_t e = head && (head != l || (hd.rest_len == 1 && *hd.rest == '{'))
                 ? block_end(t, head)
                 : 0;
  if (!e || !pt_line_is(t, e, "}") || has_comment(t, l))
    return "the loop whose condition the barrier precedes is not a `for` or "
           "`while` of this file with a braced body";
  if (lines_have_word(t, head + 1, e - 1, "continue") ||
      lines_have_word(t, head + 1, e - 1, "goto"))
    return "the body of the loop whose condition the barrier precedes has a "
           "`continue` or `goto` (it would skip a barrier at the body's end)";
  size_t in, bn, top = pragma_top(t, l);
  const char *ind = pt_indent(t, l, &in),
             *bind = pt_indent(t, below(t, head), &bn);
  h->from = (unsigned)top;
  h->to = (unsigned)e;
  pt_hunk_line(h, 0, "%.*s__syncthreads();", (int)in, ind);
  for (size_t k = top; k < e; k++)
    pt_hunk_copy(h, t, (unsigned)k, "");
  pt_hunk_line(h, 0, "%.*s__syncthreads();", (int)bn, bind);
  pt_hunk_copy(h, t, (unsigned)e, "");
  return NULL;
}

/* `__syncthreads();`, `cg::sync(g);` or `g.sync();` alone on line l (the
 * IR barrier of that line is the thread block's, so is `g`). */
static int barrier_line(const pt_text *t, size_t l) {
  size_t n, i = 0;
  const char *s = l >= 1 && l <= t->n ? pt_trimmed(t, l, &n) : NULL;
  if (!s || pt_line_is(t, l, "__syncthreads();"))
    return s != NULL;
  int cg = n > 9 && !strncmp(s, "cg::sync(", 9);
  if (cg)
    i = 9;
  size_t w = i;
  while (i < n && word_char(s[i]))
    i++;
  if (i == w)
    return 0;
  const char *rest = cg ? ");" : ".sync();";
  return n - i == strlen(rest) && !strncmp(s + i, rest, n - i);
}

const char *pt_form_delete(const pt_text *t, unsigned l, pt_hunk *h) {
  if (!barrier_line(t, l))
    return "the barrier is not a `__syncthreads();`, `cg::sync(g);` or "
           "`g.sync();` alone on its line";
  h->from = h->to = l;
  return NULL;
}

/* ---- split: a statement through a temporary -------------------------------*/

static unsigned ir_line(LLVMValueRef I) {
  return LLVMGetDebugLocLine(I) ? LLVMGetDebugLocLine(I) : 0;
}

int pt_touches_memory(LLVMValueRef I) {
  LLVMOpcode op = LLVMGetInstructionOpcode(I);
  return op == LLVMLoad || op == LLVMStore || op == LLVMCall ||
         op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg;
}

/* The barrier sits after every read of line l and before its one write,
 * in one block: before it no store of l, after it (until another line)
 * exactly one store and nothing else that touches memory. */
static int between_read_and_write(LLVMValueRef bar, unsigned l) {
  if (!bar)
    return 0;
  for (LLVMValueRef I = LLVMGetPreviousInstruction(bar); I;
       I = LLVMGetPreviousInstruction(I)) {
    unsigned at = LLVMIsAIntrinsicInst(I) ? 0 : ir_line(I);
    if (at && at != l)
      break;
    if (at == l && LLVMGetInstructionOpcode(I) == LLVMStore)
      return 0;
  }
  int stores = 0;
  for (LLVMValueRef I = LLVMGetNextInstruction(bar); I;
       I = LLVMGetNextInstruction(I)) {
    unsigned at = LLVMIsAIntrinsicInst(I) ? 0 : ir_line(I);
    if (at && at != l)
      return stores == 1;
    if (at == l && pt_touches_memory(I)) {
      if (LLVMGetInstructionOpcode(I) != LLVMStore || stores++)
        return 0;
    }
  }
  return 0;
}

/* No side effect but the statement's own write: no call, no `++`/`--`,
 * no assignment, no comma, in s[0..n). */
static int side_effect_free(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++) {
    char c = s[i], nx = i + 1 < n ? s[i + 1] : 0;
    if ((c == '+' && nx == '+') || (c == '-' && nx == '-') || c == ',' ||
        c == ';' || c == '"' || c == '\'')
      return 0;
    if (c == '(' && i > 0 &&
        (word_char(s[i - 1]) || s[i - 1] == ']' || s[i - 1] == ')'))
      return 0;
    if (c == '=' && nx != '=' &&
        !(i > 0 && strchr("=!<>", s[i - 1]) && s[i - 1]))
      return 0;
    if (c == '=' && nx == '=')
      i++;
  }
  return 1;
}

/* A split statement: `LHS OP= RHS;` (op "+" ...; "" for `=`), `LHS++;`. */
typedef struct assign {
  const char *lhs, *rhs, *op;
  size_t lhs_len, rhs_len, op_len;
} assign;

static int parse_incdec(const char *s, size_t n, assign *a) {
  if (n < 3)
    return 0;
  int post = (s[n - 1] == '+' || s[n - 1] == '-') && s[n - 2] == s[n - 1];
  int pre = (s[0] == '+' || s[0] == '-') && s[1] == s[0];
  if (post == pre)
    return 0;
  a->lhs = post ? s : s + 2;
  a->lhs_len = n - 2;
  a->op = post ? s + n - 1 : s;
  a->op_len = 1;
  a->rhs = "1";
  a->rhs_len = 1;
  return 1;
}

static int parse_assign(const char *s, size_t n, assign *a) {
  memset(a, 0, sizeof(*a));
  if (!n || s[n - 1] != ';')
    return 0;
  n--;
  if (parse_incdec(s, n, a))
    return side_effect_free(a->lhs, a->lhs_len);
  int d = 0;
  for (size_t i = 0; i < n; i++) {
    d += strchr("([", s[i]) ? 1 : strchr(")]", s[i]) ? -1 : 0;
    if (d || s[i] != '=' || (i + 1 < n && s[i + 1] == '=') ||
        (i && strchr("=!<>", s[i - 1]) && !(i > 1 && s[i - 2] == s[i - 1])))
      continue;
    size_t o = i;
    while (o > 0 && strchr("+-*/%&|^<>", s[o - 1]))
      o--;
    a->op = s + o;
    a->op_len = i - o;
    a->lhs = s;
    a->lhs_len = o;
    while (a->lhs_len && s[a->lhs_len - 1] == ' ')
      a->lhs_len--;
    a->rhs = s + i + 1;
    a->rhs_len = n - i - 1;
    while (a->rhs_len && *a->rhs == ' ')
      a->rhs++, a->rhs_len--;
    return a->lhs_len && a->rhs_len && side_effect_free(a->lhs, a->lhs_len) &&
           side_effect_free(a->rhs, a->rhs_len);
  }
  return 0;
}

/* An lvalue: no declaration (`float x`), a name or an element. */
static int plain_lvalue(const char *s, size_t n) {
  size_t i = 0;
  while (i < n && (word_char(s[i]) || s[i] == '.'))
    i++;
  return i && (i == n || s[i] == '[' || s[i] == '-');
}

int pt_one_statement(const pt_text *t, size_t l) {
  return !begins_statement(t, l) && one_line_statement(t, l);
}

int pt_side_effect_free(const char *s, size_t n) {
  return side_effect_free(s, n);
}

/* Line l as one assignment on one line, compound (op_len > 0) when
 * compound, else plain: 1 and its parts in *out. */
static int one_assign(const pt_text *t, size_t l, int compound,
                      pt_assign *out) {
  size_t n;
  const char *s = pt_trimmed(t, l, &n);
  assign a;
  if (!one_line_statement(t, l) || !parse_assign(s, n, &a) ||
      !a.op_len != !compound || !plain_lvalue(a.lhs, a.lhs_len))
    return 0;
  *out = (pt_assign){a.lhs, a.rhs, a.op, a.lhs_len, a.rhs_len, a.op_len};
  return 1;
}

int pt_compound(const pt_text *t, size_t l, pt_assign *out) {
  return one_assign(t, l, 1, out);
}

int pt_plain_assign(const pt_text *t, size_t l, pt_assign *out) {
  return one_assign(t, l, 0, out);
}

const char *pt_form_split(const pt_text *t, unsigned l, LLVMValueRef bar,
                          pt_names *names, pt_hunk *h) {
  if (!l || l > t->n)
    return "the statement the barrier splits is not in this file";
  if (!between_read_and_write(bar, l))
    return pt_form_split_reads(t, l, bar, names, h);
  size_t n;
  const char *s = pt_trimmed(t, l, &n);
  assign a;
  if (begins_statement(t, l) || !one_line_statement(t, l) ||
      !parse_assign(s, n, &a) || !plain_lvalue(a.lhs, a.lhs_len))
    return "the statement the barrier splits is not one assignment on one "
           "line, free of calls and other side effects";
  size_t in;
  const char *ind = pt_indent(t, l, &in);
  char *ref = pt_fresh(names, "ref"), *val = pt_fresh(names, "val");
  h->from = h->to = l;
  pt_hunk_line(h, l, "%.*sauto &%s = %.*s;", (int)in, ind, ref, (int)a.lhs_len,
               a.lhs);
  int bare = 1;
  for (size_t i = 0; i < a.rhs_len; i++)
    bare &= word_char(a.rhs[i]) || a.rhs[i] == '.';
  if (a.op_len)
    pt_hunk_line(h, l, "%.*sauto %s = %s %.*s %s%.*s%s;", (int)in, ind, val,
                 ref, (int)a.op_len, a.op, bare ? "" : "(", (int)a.rhs_len,
                 a.rhs, bare ? "" : ")");
  else
    pt_hunk_line(h, l, "%.*sauto %s = %.*s;", (int)in, ind, val, (int)a.rhs_len,
                 a.rhs);
  pt_hunk_line(h, 0, "%.*s__syncthreads();", (int)in, ind);
  pt_hunk_line(h, l, "%.*s%s = %s;", (int)in, ind, ref, val);
  free(ref);
  free(val);
  return NULL;
}

/* ---- exit: guards around the code the barrier splits ----------------------*/

/* The statements from..to at depth d, cut at the `__syncthreads();` lines
 * of depth d into segments: cut[c]..cut_to[c] are those lines, or a loop
 * made uniform (cx->uniform) from its header to its `}`, or none
 * (cut_to[c] == cut[c] - 1): a barrier the repair put before line cut[c]
 * (cx->before). */
typedef struct region {
  size_t from, to;
  int d;
  size_t cut[16], cut_to[16], ncut;
  unsigned char call[16]; /* the cut is a call statement (cx->call) */
  size_t uses_to;         /* hoist declarations used up to here (0: to) */
  const pt_exit_ctx *cx;
} region;

static const char *cut_region(const pt_text *t, region *r) {
  static const char *const bad[] = {"return", "break",         "continue",
                                    "goto",   "__syncthreads", "case",
                                    "default"};
  for (size_t l = r->from; l <= r->to; l++) {
    if (r->cx && r->cx->before && t->depth[l] == r->d &&
        r->cx->before(r->cx->arg, l)) {
      if (begins_statement(t, l))
        return "the barrier the repair put in the guarded code does not "
               "precede a statement at the `if`'s level";
      if (r->ncut == sizeof r->cut / sizeof *r->cut)
        return "too many barriers in the guarded code";
      r->cut_to[r->ncut] = l - 1; /* a new barrier line before l */
      r->cut[r->ncut++] = l;
    }
    int bar = t->depth[l] == r->d && pt_line_is(t, l, "__syncthreads();");
    int loop =
        !bar && r->cx && t->depth[l] == r->d && r->cx->uniform(r->cx->arg, l);
    int call = !bar && !loop && r->cx && r->cx->call && t->depth[l] == r->d &&
               r->cx->call(r->cx->arg, l);
    if (call && r->ncut < sizeof r->cut / sizeof *r->cut) {
      r->call[r->ncut] = 1;
      r->cut_to[r->ncut] = l;
      r->cut[r->ncut++] = l;
      continue;
    }
    size_t e = loop ? pt_loop_end(t, l) : l;
    if (loop && (!e || e > r->to))
      return "a loop made uniform in the guarded code does not end at a `}` "
             "line (or a one-line body) inside it";
    if (bar || loop) {
      if (r->ncut == sizeof r->cut / sizeof *r->cut)
        return "too many barriers in the guarded code";
      r->cut_to[r->ncut] = e;
      r->cut[r->ncut++] = l;
      l = e;
      continue;
    }
    if (t->depth[l] < r->d || t->shut[l] < r->d)
      return "the guarded code does not nest in the `if`";
    size_t n;
    const char *s = pt_trimmed(t, l, &n);
    if (n && *s == '#')
      return "a preprocessor line in the guarded code";
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
      if (has_word(s, n, bad[i]))
        return "the guarded code holds a jump or a barrier that is not a "
               "`__syncthreads();` line of its own at the `if`'s level";
  }
  return r->ncut ? NULL : "no `__syncthreads();` line at the `if`'s level";
}

size_t pt_decl_head(const char *s, size_t n, int refs, size_t *words,
                    size_t *last, size_t *last_len) {
  size_t i = 0;
  *words = *last = *last_len = 0;
  while (i < n) {
    while (i < n && (s[i] == ' ' || s[i] == '*' || (refs && s[i] == '&')))
      i++;
    size_t w = i;
    while (i < n && word_char(s[i]))
      i++;
    if (i == w)
      break;
    ++*words, *last = w, *last_len = i - w;
  }
  while (i < n && s[i] == ' ')
    i++;
  return i;
}

/* A declaration `T... name [= e];` starting line l: its name and type. */
static int declaration(const pt_text *t, size_t l, char **name, size_t *tlen,
                       int *init) {
  size_t n;
  const char *s = pt_trimmed(t, l, &n);
  static const char *const not_types[] = {"return", "if",    "for",    "while",
                                          "do",     "else",  "switch", "goto",
                                          "delete", "throw", "case",   NULL};
  for (const char *const *k = not_types; *k; k++)
    if (starts(s, n, *k))
      return 0;
  size_t words, last, last_len, i = pt_decl_head(s, n, 1, &words, &last,
                                                &last_len);
  if (words < 2 || i >= n || !strchr("=;[,", s[i]))
    return 0;
  *name = aucs_xasprintf("%.*s", (int)last_len, s + last);
  *tlen = last;
  *init = s[i] == '=';
  return s[i] == '=' || s[i] == ';' ? 1 : 2;
}

/* Hoist the declarations of segment lines from..to at depth d that lines
 * after `to` (up to `end`) use: `T x = e;` -> `T x;` above, `x = e;` in
 * place (into *keep[l - from] = 1 when l is to be rewritten). */
static const char *hoist(const pt_text *t, size_t from, size_t to, size_t end,
                         int d, const char *ind, size_t in, int zero,
                         pt_hunk *h, unsigned char *assign_only) {
  for (size_t l = from; l <= to; l++) {
    char *name = NULL;
    size_t tlen;
    int init,
        kind = t->depth[l] == d ? declaration(t, l, &name, &tlen, &init) : 0;
    if (!kind)
      continue;
    int used = lines_have_word(t, to + 1, end, name);
    size_t n;
    const char *s = pt_trimmed(t, l, &n);
    if (used && (kind == 2 || memchr(s, '&', tlen) || starts(s, n, "auto") ||
                 !one_line_statement(t, l) || has_word(s, tlen, "static") ||
                 (init && (has_word(s, tlen, "__shared__") ||
                           has_word(s, tlen, "auto"))))) {
      free(name);
      return "a declaration the code after the barrier uses cannot be "
             "hoisted above the guards";
    }
    if (used) {
      int cst = starts(s, n, "const");
      const char *ty = cst ? s + 6 : s;
      size_t tl = cst ? tlen - 6 : tlen;
      pt_hunk_line(h, (unsigned)l, "%.*s%.*s%s%s;", (int)in, ind, (int)tl, ty,
                   name, zero ? "{}" : "");
      assign_only[l - from] = (unsigned char)(init ? 1 : 2);
    }
    free(name);
  }
  return NULL;
}

/* One segment's lines inside `if (guard) {...}` at indentation ind (with
 * extra before each line when the segment moves one level in). */
static void guarded(const pt_text *t, size_t from, size_t to, const char *ind,
                    size_t in, const char *guard, const char *extra,
                    const unsigned char *assign_only, pt_hunk *h) {
  size_t n;
  while (from <= to && (pt_trimmed(t, from, &n), !n))
    pt_hunk_copy(h, t, (unsigned)from++, "");
  size_t last = to;
  while (last >= from && (pt_trimmed(t, last, &n), !n))
    last--;
  if (from <= last) {
    pt_hunk_line(h, 0, "%.*sif (%s) {", (int)in, ind, guard);
    for (size_t l = from; l <= last; l++) {
      if (assign_only[l] == 2)
        continue;
      if (assign_only[l] == 1) {
        size_t sn, wn;
        const char *s = pt_trimmed(t, l, &sn), *w = pt_indent(t, l, &wn);
        char *name;
        size_t tlen;
        int init;
        declaration(t, l, &name, &tlen, &init);
        pt_hunk_line(h, (unsigned)l, "%s%.*s%.*s", extra, (int)wn, w,
                     (int)(sn - tlen), s + tlen);
        free(name);
        continue;
      }
      pt_hunk_copy(h, t, (unsigned)l, extra);
    }
    pt_hunk_line(h, 0, "%.*s}", (int)in, ind);
  }
  for (size_t l = last + 1; l <= to; l++)
    pt_hunk_copy(h, t, (unsigned)l, "");
}

/* Cut c of r: its barrier line (none when the repair deleted it), or the
 * loop made uniform under `guard`, its lines appended to h (moved out to
 * the `if`'s indentation when it was deeper). */
static const char *emit_cut(const pt_text *t, const region *r, size_t c,
                            const char *ind, size_t in, const char *guard,
                            pt_hunk *h) {
  const pt_exit_ctx *cx = r->cx;
  if (r->call[c])
    return cx->call_form(cx->arg, r->cut[c], guard, h);
  if (r->cut_to[c] < r->cut[c]) {
    pt_hunk_line(h, 0, "%.*s__syncthreads();", (int)in, ind);
    return NULL;
  }
  if (r->cut_to[c] == r->cut[c]) {
    if (!cx || !cx->deleted(cx->arg, r->cut[c]))
      pt_hunk_line(h, (unsigned)r->cut[c], "%.*s__syncthreads();", (int)in,
                   ind);
    return NULL;
  }
  pt_hunk sub = {0};
  const char *why = cx->loop(cx->arg, r->cut[c], guard, &sub);
  const char *line = sub.text.data;
  size_t li;
  pt_indent(t, r->cut[c], &li);
  for (size_t k = 0; !why && k < sub.n; k++) {
    const char *nl = strchr(line, '\n');
    size_t out = 0;
    while (li > in && out < li - in && line + out < nl && line[out] == ' ')
      out++;
    pt_hunk_line(h, sub.origin[k], "%.*s", (int)(nl - line - out), line + out);
    line = nl + 1;
  }
  pt_hunk_free(&sub);
  return why;
}

/* Every segment of r, guarded, each barrier line between them at
 * indentation ind; declarations hoisted first. */
static const char *segments(const pt_text *t, const region *r, const char *ind,
                            size_t in, const char *guard, const char *extra,
                            pt_hunk *h) {
  unsigned char *only = aucs_xcalloc(t->n + 2, 1);
  const char *why = NULL;
  size_t from = r->from;
  /* A value a helper's call passes is read by every thread: initialised */
  int zero = memchr(r->call, 1, sizeof r->call) != NULL;
  for (size_t c = 0; c < r->ncut && !why; c++) {
    why = hoist(t, from, r->cut[c] - 1, r->uses_to ? r->uses_to : r->to, r->d,
                ind, in, zero, h, only + from);
    from = r->cut_to[c] + 1;
  }
  from = r->from;
  for (size_t c = 0; c <= r->ncut && !why; c++) {
    size_t to = c < r->ncut ? r->cut[c] - 1 : r->to;
    guarded(t, from, to, ind, in, guard, extra, only, h);
    if (c < r->ncut)
      why = emit_cut(t, r, c, ind, in, guard, h);
    from = c < r->ncut ? r->cut_to[c] + 1 : to + 1;
  }
  free(only);
  return why;
}

/* `if (C) return;`, `if (C)` + `return;`, or `if (C) {` `return;` `}` at
 * line l: the last line of it, 0 when l is no such early return. */
static size_t early_return(const pt_text *t, size_t l, const header *hd) {
  if (hd->rest_len == 7 && !strncmp(hd->rest, "return;", 7))
    return l;
  size_t b = below(t, l);
  if (!hd->rest_len && b && pt_line_is(t, b, "return;"))
    return b;
  size_t c = b ? below(t, b) : 0;
  if (hd->rest_len == 1 && *hd->rest == '{' && pt_line_is(t, b, "return;") &&
      c == block_end(t, l) && pt_line_is(t, c, "}"))
    return c;
  return 0;
}

static const char *exit_return(const pt_text *t, size_t l, size_t r,
                               const header *hd, pt_names *names,
                               const pt_exit_ctx *cx, pt_hunk *h) {
  if (t->depth[l] != 1)
    return "the early `return` is not at the kernel's top level";
  size_t e = r + 1;
  while (e <= t->n && t->shut[e] >= 1)
    e++;
  if (e > t->n || !pt_line_is(t, e, "}"))
    return "the kernel's closing `}` is not on a line of its own";
  region g = {.from = r + 1, .to = e - 1, .d = 1, .cx = cx};
  const char *why = cut_region(t, &g);
  if (why)
    return why;
  size_t in, rn;
  const char *ind = pt_indent(t, l, &in);
  const char *rind = pt_indent(t, r == l ? l : below(t, l), &rn);
  char *active = pt_fresh(names, "active");
  char *extra = aucs_xasprintf("%.*s", (int)in, ind);
  h->from = (unsigned)l;
  h->to = (unsigned)e - 1;
  pt_hunk_line(h, 0, "%.*sbool %s = true;", (int)in, ind, active);
  pt_hunk_line(h, (unsigned)l, "%.*sif (%.*s)", (int)in, ind, (int)hd->cond_len,
               hd->cond);
  if (r == l)
    pt_hunk_line(h, (unsigned)r, "%s%s%s = false;", extra, extra, active);
  else
    pt_hunk_line(h, (unsigned)r, "%.*s%s = false;", (int)rn, rind, active);
  why = segments(t, &g, ind, in, active, extra, h);
  free(active);
  free(extra);
  return why;
}

static const char *exit_if(const pt_text *t, size_t l, const header *hd,
                           pt_names *names, const pt_exit_ctx *cx, pt_hunk *h) {
  size_t e = block_end(t, l), b;
  if (hd->rest_len != 1 || *hd->rest != '{' || !e || !pt_line_is(t, e, "}"))
    return "the `if` around the barrier has no braced block closed by a "
           "`}` line";
  size_t n;
  const char *after = (b = below(t, e)) ? pt_trimmed(t, b, &n) : NULL;
  if (after && starts(after, n, "else"))
    return "the `if` around the barrier has an `else`";
  region g = {.from = l + 1, .to = e - 1, .d = t->depth[l] + 1, .cx = cx};
  const char *why = cut_region(t, &g);
  if (why)
    return why;
  size_t in;
  const char *ind = pt_indent(t, l, &in);
  char *cond = pt_fresh(names, "cond");
  h->from = (unsigned)l;
  h->to = (unsigned)e;
  pt_hunk_line(h, (unsigned)l, "%.*sbool %s = %.*s;", (int)in, ind, cond,
               (int)hd->cond_len, hd->cond);
  why = segments(t, &g, ind, in, cond, "", h);
  free(cond);
  return why;
}

const char *pt_form_exit_in(const pt_text *t, unsigned l, pt_names *names,
                            const pt_exit_ctx *cx, pt_hunk *h) {
  header hd;
  if (!l || l > t->n || !parse_header(t, l, if_kw, &hd) || has_comment(t, l))
    return "the region made uniform does not begin at an `if` line of this "
           "file";
  size_t r = early_return(t, l, &hd);
  if (!r && cx && cx->need_return)
    return "the `if` is not an early return";
  return r ? exit_return(t, l, r, &hd, names, cx, h)
           : exit_if(t, l, &hd, names, cx, h);
}

const char *pt_form_guarded(const pt_text *t, size_t from, size_t to,
                            size_t uses_to, const char *guard,
                            const pt_exit_ctx *cx, pt_hunk *h) {
  size_t f = from;
  while (f < to && pt_line_is(t, f, ""))
    f++;
  region g = {
      .from = from, .to = to, .d = t->depth[f], .uses_to = uses_to, .cx = cx};
  const char *why = cut_region(t, &g);
  if (why)
    return why;
  size_t in;
  const char *ind = pt_indent(t, f, &in);
  char *extra = aucs_xasprintf("%.*s", (int)in, ind);
  why = segments(t, &g, ind, in, guard, extra, h);
  free(extra);
  return why;
}

const char *pt_form_exit(const pt_text *t, unsigned l, pt_names *names,
                         pt_hunk *h) {
  return pt_form_exit_in(t, l, names, NULL, h);
}

/* ---- if/else: a flattened region split at its else arm
 * ---------------------*/

/* The if/else whose header is line h and whose arms hold line l: the lines
 * closing its then arm (te: `else` or `} else {`) and its else arm (ee). */
static int if_else_at(const pt_text *t, size_t h, size_t l, size_t *te,
                      size_t *ee) {
  header hd;
  if (!parse_header(t, h, if_kw, &hd) || has_comment(t, h))
    return 0;
  size_t then = below(t, h);
  if (!hd.rest_len) {
    *te = then ? below(t, then) : 0;
    *ee = *te ? below(t, *te) : 0;
    if (!*ee || !one_line_statement(t, then) || !pt_line_is(t, *te, "else") ||
        !one_line_statement(t, *ee))
      return 0;
  } else {
    if (hd.rest_len != 1 || *hd.rest != '{')
      return 0;
    int d = t->depth[h];
    *te = 0;
    for (size_t e = h + 1; e <= t->n && !*te; e++)
      if (t->shut[e] <= d)
        *te = t->shut[e] == d ? e : (size_t)-1;
    if (!*te || *te == (size_t)-1 || !pt_line_is(t, *te, "} else {"))
      return 0;
    *ee = 0;
    for (size_t e = *te + 1; e <= t->n && !*ee; e++)
      if (t->shut[e] <= d)
        *ee = t->shut[e] == d && t->depth[e + 1] == d && pt_line_is(t, e, "}")
                  ? e
                  : (size_t)-1;
    if (!*ee || *ee == (size_t)-1)
      return 0;
  }
  return l > h && l <= *ee;
}

/* No jump, barrier or directive in lines from..to. */
static int jump_free(const pt_text *t, size_t from, size_t to) {
  static const char *const bad[] = {"return", "break",         "continue",
                                    "goto",   "__syncthreads", "case",
                                    "default"};
  for (size_t l = from; l <= to; l++) {
    size_t n;
    const char *s = pt_trimmed(t, l, &n);
    if (n && *s == '#')
      return 0;
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
      if (has_word(s, n, bad[i]))
        return 0;
  }
  return 1;
}

static void copy_lines(pt_hunk *h, const pt_text *t, size_t from, size_t to) {
  for (size_t l = from; l <= to; l++)
    pt_hunk_copy(h, t, (unsigned)l, "");
}

const char *pt_form_if_else(const pt_text *t, unsigned l, pt_names *names,
                            pt_hunk *h) {
  size_t te = 0, ee = 0, at = 0;
  for (size_t c = l; c > 1 && c + 64 > l && !at; c--)
    if (if_else_at(t, c - 1, l, &te, &ee))
      at = c - 1;
  if (!at)
    return "the flattened region is not one if/else of this file with "
           "one-line or braced arms";
  header hd;
  parse_header(t, at, if_kw, &hd);
  size_t n;
  const char *after = pt_trimmed(t, below(t, te), &n);
  if (starts(after, n, "if") || !jump_free(t, at + 1, ee))
    return "the if/else is a chain, or its arms hold a barrier or a jump";
  size_t in;
  const char *ind = pt_indent(t, at, &in);
  char *cond = pt_fresh(names, "cond");
  h->from = (unsigned)at;
  h->to = (unsigned)ee;
  int braced = hd.rest_len != 0;
  pt_hunk_line(h, (unsigned)at, "%.*sbool %s = %.*s;", (int)in, ind, cond,
               (int)hd.cond_len, hd.cond);
  pt_hunk_line(h, (unsigned)at, "%.*sif (%s)%s", (int)in, ind, cond,
               braced ? " {" : "");
  copy_lines(h, t, at + 1, te - 1);
  if (braced)
    pt_hunk_line(h, (unsigned)te, "%.*s}", (int)in, ind);
  pt_hunk_line(h, 0, "%.*s__syncthreads();", (int)in, ind);
  pt_hunk_line(h, (unsigned)te, "%.*sif (!%s)%s", (int)in, ind, cond,
               braced ? " {" : "");
  copy_lines(h, t, te + 1, braced ? ee - 1 : ee);
  if (braced)
    pt_hunk_line(h, (unsigned)ee, "%.*s}", (int)in, ind);
  free(cond);
  return NULL;
}
