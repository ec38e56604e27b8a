/*
 * patch_active: the source form of a `__device__` helper that a kernel's
 * early return made divergent (patch.c, `fix --patch`).
 *
 * The repair inlines the helper at the call, turns the kernel's
 * `if (C) return;` into an `active` flag and makes the helper's loop (and
 * whatever else of its code the flag now guards) uniform in the inlined
 * copy. In the source, the flag crosses the call as a new parameter:
 *
 *   __device__ float sum(float *s, float v) {
 *     s[t] = v;
 *     __syncthreads();
 *     for (k = ...; COND; STEP) { ... }
 *     return s[0];
 *   }
 *   ...  if (i >= n) return;  ...  float e = sum(s, y * y);
 *
 * becomes
 *
 *   __device__ float sum(float *s, float v, bool active) {
 *     if (active) {
 *       s[t] = v;
 *     }
 *     { ...; bool active2 = active && (COND);
 *       while (__syncthreads_or(active2)) { if (active2) { ... } } }
 *     return s[0];
 *   }
 *   ...  bool active = true; if (i >= n) active = false;  ...
 *   float e = sum(s, y * y, active);
 *
 * Steps, for the inline-call edit of the call at kernel line L:
 *   1. The callee is defined in this file on one header line H
 *      (`__device__ T name(...) {`, its debug line), its body closes at a
 *      `}` line, no template, `name` once on H and on L; the repair made a
 *      loop in its body uniform.
 *   2. The call statement is one line; its arguments are evaluated by
 *      every thread now, so they must hold no call, assignment or
 *      increment, and one that reads memory (a subscript, `->`) becomes
 *      `active ? (ARG) : 0`. It becomes `name(ARGS, active)`, unguarded.
 *   3. The helper's header gets `, bool active`; its body (up to a
 *      trailing `return X;`, which every thread runs) takes the exit form's
 *      guarded runs (pt_form_guarded): runs between its barrier lines in
 *      `if (active) {...}`, its loops made uniform with the flag starting
 *      as `active && (COND)`, barriers the repair deleted gone.
 *   4. A helper with other calls or mentions (a prototype) is not
 *      changed: a copy of it with the flag parameter, `name_active` (a
 *      fresh name), goes after its `}`, and only this call takes it.
 *
 * Limitation: a template helper, a header over several lines, another
 * `return` in the body, or a call statement over several lines or nested
 * in a block keeps the edits IR only.
 */
#include "patch_impl.h"

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

/* Occurrences of word w in s[0..n). */
static size_t count_word(const char *s, size_t n, const char *w) {
  size_t k = 0, wl = strlen(w);
  for (size_t i = 0; i + wl <= n; i++)
    if (!strncmp(s + i, w, wl) && (!i || !word_char(s[i - 1])) &&
        (i + wl == n || !word_char(s[i + wl])))
      k++;
  return k;
}

static size_t line_count_word(const pt_text *t, size_t l, const char *w) {
  return count_word(t->code + t->start[l - 1], t->start[l] - t->start[l - 1],
                    w);
}

/* The offsets in line l of word w (its first occurrence), of the `(`
 * after it and of the `)` that closes it; 0 when there is none on the
 * line. */
static int call_parens(const pt_text *t, size_t l, const char *w, size_t *at,
                       size_t *open, size_t *close) {
  const char *s = t->code + t->start[l - 1];
  size_t n = t->start[l] - t->start[l - 1], wl = strlen(w), i = 0;
  for (; i + wl <= n; i++)
    if (!strncmp(s + i, w, wl) && (!i || !word_char(s[i - 1])) &&
        (i + wl == n || !word_char(s[i + wl])))
      break;
  *at = i;
  for (i += wl; i < n && s[i] == ' '; i++)
    ;
  if (i >= n || s[i] != '(')
    return 0;
  *open = i;
  for (int d = 0; i < n; i++) {
    d += s[i] == '(';
    d -= s[i] == ')';
    if (!d)
      return *close = i, 1;
  }
  return 0;
}

/* Whether debug scope sp is in the file whose basename is base. */
static int in_file(LLVMMetadataRef sp, const char *base) {
  LLVMMetadataRef file = LLVMDIScopeGetFile(sp);
  unsigned len = 0;
  const char *name = file ? LLVMDIFileGetFilename(file, &len) : NULL;
  if (!name)
    return 0;
  const char *slash = name;
  for (unsigned i = 0; i < len; i++)
    if (name[i] == '/')
      slash = name + i + 1;
  size_t n = (size_t)(name + len - slash);
  return n == strlen(base) && !strncmp(slash, base, n);
}

/* The helper's header line H in this file: its name in *name (free with
 * free()). */
static unsigned helper_head(const pt_text *t, LLVMValueRef callee,
                            const char *base, char **name) {
  LLVMMetadataRef sp = callee ? LLVMGetSubprogram(callee) : NULL;
  unsigned h = sp && in_file(sp, base) ? LLVMDISubprogramGetLine(sp) : 0;
  if (!h || h > t->n || t->depth[h] != 0 ||
      (h > 1 && pt_has_word(t->code + t->start[h - 2],
                            t->start[h - 1] - t->start[h - 2], "template")) ||
      !pt_has_word(t->code + t->start[h - 1], t->start[h] - t->start[h - 1],
                   "__device__"))
    return 0;
  size_t n;
  const char *s = pt_trimmed(t, h, &n);
  const char *paren = memchr(s, '(', n);
  if (!paren || s[n - 1] != '{' || pt_has_word(s, n, "template"))
    return 0;
  const char *e = paren;
  while (e > s && e[-1] == ' ')
    e--;
  const char *b = e;
  while (b > s && word_char(b[-1]))
    b--;
  if (b == e)
    return 0;
  *name = aucs_xasprintf("%.*s", (int)(e - b), b);
  return h;
}

/* The helper inline-call edit k inlined, when it takes the flag form:
 * its header line (0: it does not), name, closing line, and whether it
 * has other calls or mentions (the form is then a copy of it). */
static unsigned helper_of(const pt_text *t, const aucs_editlog *log, size_t k,
                          const char *base, LLVMModuleRef m, char **name,
                          size_t *end, int *copy) {
  unsigned call = pt_edit_line(&log->v[k], base);
  LLVMValueRef callee = pt_called(&log->v[k], m, copy);
  *name = NULL;
  unsigned h = call && call <= t->n ? helper_head(t, callee, base, name) : 0;
  *end = h ? pt_block_end(t, h) : 0;
  if (!h || !*end || !pt_line_is(t, *end, "}") || call <= *end)
    return free(*name), *name = NULL, 0;
  for (size_t l = 1; l <= t->n; l++) {
    size_t n = line_count_word(t, l, *name);
    if ((l == h || l == call) && n != 1)
      return free(*name), *name = NULL, 0;
    *copy |= n && l != h && l != call;
  }
  const aucs_edit *c = &log->v[k];
  for (size_t i = 0; i < log->n; i++) {
    const aucs_edit *e = &log->v[i];
    unsigned l = pt_edit_line(e, base);
    if (e->kind == AUCS_EDIT_UNIFORMIZE_LOOP && l > h && l < *end &&
        e->function && c->function && !strcmp(e->function, c->function))
      return h;
  }
  return free(*name), *name = NULL, 0;
}

unsigned pt_active_call(const pt_text *t, const aucs_editlog *log, size_t k,
                        const char *base, LLVMModuleRef m, size_t *end) {
  char *name;
  int copy;
  unsigned h = log->v[k].kind == AUCS_EDIT_INLINE_CALL
                   ? helper_of(t, log, k, base, m, &name, end, &copy)
                   : 0;
  free(h ? name : NULL);
  return h;
}

/* Arguments every thread may evaluate: no call, subscript (unless
 * `reads`), `->`, assignment or increment. */
static int plain_args(const char *s, size_t n, int reads) {
  for (size_t i = 0; i < n; i++) {
    char c = s[i], nx = i + 1 < n ? s[i + 1] : 0, pv = i ? s[i - 1] : 0;
    if (strchr(reads ? "(\"'" : "([\"'", c) ||
        (c == '-' && (nx == '>' || nx == '-')) || (c == '+' && nx == '+') ||
        (c == '=' && nx != '=' && !strchr("=!<>", pv)))
      return 0;
  }
  return 1;
}

/* Whether s[0..n) reads memory: a subscript or `->`. */
static int reads_memory(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (s[i] == '[' || (s[i] == '-' && i + 1 < n && s[i + 1] == '>'))
      return 1;
  return 0;
}

/* The arguments s[0..n) with each one that reads memory guarded:
 * `guard ? (ARG) : 0`, so a thread past the bound reads nothing. */
static void guarded_args(const char *s, size_t n, const char *guard,
                         aucs_buf *out) {
  size_t from = 0;
  int d = 0;
  for (size_t i = 0; i <= n; i++) {
    if (i < n && s[i] != ',') {
      d += s[i] == '(' || s[i] == '[' || s[i] == '{';
      d -= s[i] == ')' || s[i] == ']' || s[i] == '}';
      continue;
    }
    if (i < n && d)
      continue;
    const char *a = s + from;
    size_t an = i - from, lead = 0;
    while (lead < an && a[lead] == ' ')
      lead++;
    if (reads_memory(a, an))
      aucs_buf_printf(out, "%s%.*s%s ? (%.*s) : 0", from ? "," : "", (int)lead,
                      a, guard, (int)(an - lead), a + lead);
    else
      aucs_buf_printf(out, "%s%.*s", from ? "," : "", (int)an, a);
    from = i + 1;
  }
}

/* The call line with `guard` passed last (and guarding the arguments that
 * read memory). */
static const char *call_line(const pt_text *t, size_t l, const char *name,
                             const char *callee, const char *guard,
                             pt_hunk *h) {
  size_t at, open, close;
  if (!pt_one_statement(t, l) || !call_parens(t, l, name, &at, &open, &close))
    return "the call of the helper is not one statement on one line";
  const char *s = t->data + t->start[l - 1];
  size_t n = t->start[l] - t->start[l - 1];
  if (!plain_args(s + open + 1, close - open - 1, 1))
    return "an argument of the helper's call has a call or a side effect "
           "(every thread would now evaluate it)";
  while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
    n--;
  int empty = 1;
  for (size_t i = open + 1; i < close; i++)
    empty &= s[i] == ' ';
  aucs_buf args = {0};
  if (!empty)
    guarded_args(s + open + 1, close - open - 1, guard, &args);
  size_t after = at + strlen(name);
  pt_hunk_line(h, (unsigned)l, "%.*s%s%.*s%s%s%s%.*s", (int)at, s, callee,
               (int)(open + 1 - after), s + after, args.data ? args.data : "",
               empty ? "" : ", ", guard, (int)(n - close), s + close);
  aucs_buf_free(&args);
  return NULL;
}

/* The helper's header with `bool guard` as its last parameter. */
static const char *head_line(const pt_text *t, unsigned hl, const char *name,
                             const char *copy, const char *guard, pt_hunk *h) {
  size_t at, open, close;
  if (!call_parens(t, hl, name, &at, &open, &close))
    return "the helper's parameters are not on its header line";
  const char *s = t->data + t->start[hl - 1];
  size_t n = t->start[hl] - t->start[hl - 1];
  while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
    n--;
  const char *p = s + open + 1;
  size_t pn = close - open - 1;
  while (pn && *p == ' ')
    p++, pn--;
  while (pn && p[pn - 1] == ' ')
    pn--;
  int empty = !pn || (pn == 4 && !strncmp(p, "void", 4));
  size_t after = at + strlen(name);
  pt_hunk_line(h, hl, "%.*s%s%.*s%.*s%sbool %s%.*s", (int)at, s, copy,
               (int)(open + 1 - after), s + after, empty ? 0 : (int)pn, p,
               empty ? "" : ", ", guard, (int)(n - close), s + close);
  return NULL;
}

/* The last nonblank line of the body above its `}` at line end when it is
 * `return X;` with X free of side effects: that line, else 0 (none), or
 * (size_t)-1 when it returns something every thread cannot run. */
static size_t trailing_return(const pt_text *t, size_t head, size_t end) {
  size_t r = end - 1, n;
  while (r > head && pt_line_is(t, r, ""))
    r--;
  const char *s = pt_trimmed(t, r, &n);
  if (r == head || !pt_has_word(s, n, "return"))
    return 0;
  if (n < 7 || strncmp(s, "return", 6) || !pt_one_statement(t, r) ||
      !plain_args(s + 6, n - 7, 1))
    return (size_t)-1;
  return r;
}

/* The helper's new header and guarded body into `helper`: in place
 * (lines hl..to replaced), or as a copy named cname inserted after its
 * `}` at line end (with the lines after to copied as they are). */
static const char *helper_form(const pt_text *t, unsigned hl, size_t to,
                               size_t end, size_t r, const char *name,
                               const char *cname, const char *guard,
                               const pt_exit_ctx *cx, pt_hunk *helper) {
  int copy = strcmp(name, cname) != 0;
  helper->from = copy ? (unsigned)end + 1 : hl;
  helper->to = copy ? (unsigned)end : (unsigned)to;
  if (copy)
    pt_hunk_line(helper, 0, "%s", "");
  const char *why = head_line(t, hl, name, cname, guard, helper);
  if (!why)
    why = pt_form_guarded(t, hl + 1, to, r ? r : 0, guard, cx, helper);
  for (size_t l = to + 1; !why && copy && l <= end; l++)
    pt_hunk_copy(helper, t, (unsigned)l, "");
  return why;
}

const char *pt_form_active(const pt_text *t, const aucs_editlog *log, size_t k,
                           const char *base, LLVMModuleRef m, pt_names *names,
                           const char *guard, const pt_exit_ctx *cx,
                           pt_hunk *call, pt_hunk *helper) {
  char *name;
  size_t end;
  int copy;
  unsigned hl = helper_of(t, log, k, base, m, &name, &end, &copy);
  if (!hl)
    return "the helper is not one the flag can be passed into";
  size_t l = pt_edit_line(&log->v[k], base), r = trailing_return(t, hl, end);
  char *stem = aucs_xasprintf("%s_active", name);
  char *cname = copy ? pt_fresh(names, stem) : aucs_xstrdup(name);
  const char *why = r == (size_t)-1
                        ? "the helper's last statement returns a value every "
                          "thread cannot compute (a call or side effect)"
                        : call_line(t, l, name, cname, guard, call);
  size_t to = r ? r - 1 : end - 1;
  if (!why && to <= hl)
    why = "the helper's body is empty before its `return`";
  if (!why)
    why = helper_form(t, hl, to, end, r, name, cname, guard, cx, helper);
  if (!why && copy)
    helper->note = aucs_xasprintf(
        "a copy of the helper %s, %s, takes the kernel's flag as a new last "
        "parameter `bool %s` and runs its code under it; the call at %s:%zu "
        "calls the copy, the helper's other uses keep the original",
        name, cname, guard, base, l);
  else if (!why)
    helper->note = aucs_xasprintf(
        "the helper %s takes the kernel's flag as a new last parameter "
        "`bool %s` (its only call, at %s:%zu, passes it) and runs its code "
        "under it",
        name, guard, base, l);
  free(name), free(stem), free(cname);
  return why;
}
