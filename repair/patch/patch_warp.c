/*
 * patch_warp: the source form of an insert-warp-sync edit (repair/warpsync.c).
 *
 * A `__syncwarp()` lands where a `__syncthreads()` would: before a
 * statement, at the end of a loop body, or inside `LHS op= RHS;` after its
 * reads and before its write (the split form). So:
 *   1. The edit is read as an insert-barrier one (its source edit and
 *      reason spelt with `__syncthreads();`), which patch.c's forms place.
 *   2. The lines the form adds (origin 0 in the hunk; lines copied or
 *      rewritten from the file keep theirs) say `__syncwarp();` instead,
 *      and so does the hunk's note.
 *
 *     if (tid < 32) {                       if (tid < 32) {
 *       v[tid] += v[tid + 16];      ->        auto &ref = v[tid];
 *                                             auto val = ref + (v[tid + 16]);
 *                                             __syncwarp();
 *                                             ref = val;
 *                                             __syncwarp();
 *
 * A step of a warp-synchronous sequence, `LHS op= RHS;` with a
 * `__syncwarp()` after its reads and another after its write, takes the
 * form developers write (pt_form_warp): the read into a register, then
 * the write.
 *
 *       s[tid] += s[tid + 16];   ->   auto val8 = s[tid + 16];
 *                                     __syncwarp();
 *                                     s[tid] += val8;
 *                                     __syncwarp();
 *
 * When RHS reads no memory (the partner is in a register already: `T v =
 * s[t - d];` above), the statement stays and the two `__syncwarp();` go
 * around it. The edit after the write gives the same hunk (a duplicate patch.c
 * drops), so the next step's hunk does not overlap it; the name carries
 * the line, so each step's is its own without pt_names.
 *
 * Limitation: a `__syncwarp` in an inlined helper or in a loop the repair
 * made uniform has no form of its own here (the edit stays IR only).
 */
#include "patch_impl.h"

#include "aucs/repair.h"

#include <llvm-c/Core.h>

#include <stdlib.h>
#include <string.h>

static const char bar[] = "__syncthreads();", warp[] = "__syncwarp();";

static char *respell(const char *s, const char *from, const char *to) {
  if (!s)
    return NULL;
  aucs_buf b = {0};
  size_t nf = strlen(from);
  for (const char *at; (at = strstr(s, from)); s = at + nf) {
    aucs_buf_printf(&b, "%.*s%s", (int)(at - s), s, to);
  }
  aucs_buf_puts(&b, s);
  return aucs_buf_take(&b);
}

aucs_edit pt_warp_as_barrier(const aucs_edit *e) {
  aucs_edit b = *e;
  b.kind = AUCS_EDIT_INSERT_BARRIER;
  b.source_edit = respell(e->source_edit, warp, bar);
  b.why = respell(e->why, warp, bar);
  return b;
}

void pt_warp_barrier_free(aucs_edit *b) {
  free(b->source_edit);
  free(b->why);
}

void pt_warp_respell(pt_hunk *h) {
  aucs_buf out = {0};
  const char *s = h->text.data ? h->text.data : "";
  for (size_t i = 0; i < h->n && *s; i++) {
    const char *nl = strchr(s, '\n');
    size_t len = nl ? (size_t)(nl - s) : strlen(s);
    char *line = aucs_xasprintf("%.*s", (int)len, s);
    char *now = h->origin[i] ? aucs_xstrdup(line) : respell(line, bar, warp);
    aucs_buf_printf(&out, "%s\n", now);
    free(now);
    free(line);
    s = nl ? nl + 1 : s + len;
  }
  aucs_buf_free(&h->text);
  h->text = out;
  char *note = respell(h->note, bar, warp);
  free(h->note);
  h->note = note;
}

/* ---- the split step -------------------------------------------------------*/

static int is_warpsync(LLVMValueRef I) {
  if (!I || !LLVMIsACallInst(I))
    return 0;
  LLVMValueRef f = LLVMGetCalledValue(I);
  size_t n;
  return f && LLVMIsAFunction(f) &&
         !strcmp(LLVMGetValueName2(f, &n), "llvm.nvvm.bar.warp.sync");
}

static unsigned line_of(LLVMValueRef I) {
  return LLVMIsAIntrinsicInst(I) ? 0 : LLVMGetDebugLocLine(I);
}

/* sync falls after every read of line l and right before its one write:
 * that store, or NULL. */
static LLVMValueRef split_store(LLVMValueRef sync, unsigned l) {
  int reads = 0;
  for (LLVMValueRef I = LLVMGetPreviousInstruction(sync); I;
       I = LLVMGetPreviousInstruction(I)) {
    unsigned at = line_of(I);
    if (at && at != l)
      break;
    if (at == l && LLVMIsAStoreInst(I))
      return NULL;
    reads += at == l && LLVMIsALoadInst(I);
  }
  LLVMValueRef store = NULL;
  for (LLVMValueRef I = LLVMGetNextInstruction(sync); I;
       I = LLVMGetNextInstruction(I)) {
    unsigned at = line_of(I);
    if ((at && at != l) || LLVMIsATerminatorInst(I))
      break;
    if (at == l && pt_touches_memory(I)) {
      if (!LLVMIsAStoreInst(I) || store)
        return NULL;
      store = I;
    }
  }
  return reads ? store : NULL;
}

/* The split sync of the statement whose write is right before sync (an
 * insert-warp-sync after that statement), or NULL. */
static LLVMValueRef split_before(LLVMValueRef sync, unsigned *l) {
  LLVMValueRef st = LLVMGetPreviousInstruction(sync);
  if (!st || !LLVMIsAStoreInst(st) || !(*l = line_of(st)))
    return NULL;
  for (LLVMValueRef I = LLVMGetPreviousInstruction(st); I;
       I = LLVMGetPreviousInstruction(I)) {
    unsigned at = line_of(I);
    if (at && at != *l)
      return NULL;
    if (is_warpsync(I))
      return split_store(I, *l) == st ? I : NULL;
  }
  return NULL;
}

/* `LHS op= RHS;` (op may be empty) on line l: the parts, or 0. */
static int parse_step(const pt_text *t, unsigned l, int body, const char **lhs,
                      size_t *nl, const char **op, size_t *nop,
                      const char **rhs, size_t *nr) {
  size_t n;
  const char *s = pt_trimmed(t, l, &n);
  if ((!body && !pt_one_statement(t, l)) || n < 4 || s[n - 1] != ';')
    return 0;
  const char *e = memchr(s, '=', n);
  /* `<<=` and `>>=` pass; `<=`, `>=`, `!=`, `==` do not */
  if (!e || e == s || e[1] == '=' ||
      (strchr("<>!=", e[-1]) &&
       !(e - s >= 2 && e[-1] == e[-2] && strchr("<>", e[-1]))))
    return 0;
  const char *o = e;
  while (o > s && strchr("+-*/%&|^<>", o[-1]))
    o--;
  *op = o;
  *nop = (size_t)(e - o);
  *lhs = s;
  *nl = (size_t)(o - s);
  while (*nl && (*lhs)[*nl - 1] == ' ')
    (*nl)--;
  *rhs = e + 1;
  while (**rhs == ' ')
    (*rhs)++;
  *nr = (size_t)(s + n - 1 - *rhs);
  while (*nr && (*rhs)[*nr - 1] == ' ')
    (*nr)--;
  return *nl && *nr && *nop <= 2 && pt_side_effect_free(*lhs, *nl) &&
         pt_side_effect_free(*rhs, *nr);
}

static void form_body(const pt_text *t, unsigned l, LLVMValueRef store,
                      const char *lhs, size_t nl, const char *op, size_t nop,
                      const char *rhs, size_t nr, pt_hunk *h);

static const char *form_step(const pt_text *t, unsigned l, LLVMValueRef sync,
                             pt_hunk *h) {
  const char *lhs, *op, *rhs;
  size_t nl, nop, nr;
  LLVMValueRef store = split_store(sync, l);
  if (!store)
    return "the __syncwarp() does not fall after every read and right "
           "before the one write of its statement";
  /* the one-line body of a braceless loop gets braces */
  unsigned head = l > 1 && pt_loop_end(t, l - 1) == l ? l - 1 : 0;
  if (!parse_step(t, l, head != 0, &lhs, &nl, &op, &nop, &rhs, &nr))
    return "the statement the __syncwarp() splits is not `LHS op= RHS;` on "
           "one line, free of calls and other side effects";
  h->from = head ? head : l;
  h->to = l;
  if (head) {
    size_t hn, hin;
    const char *hs = pt_trimmed(t, head, &hn), *hind = pt_indent(t, head, &hin);
    pt_hunk_line(h, head, "%.*s%.*s {", (int)hin, hind, (int)hn, hs);
  }
  form_body(t, l, store, lhs, nl, op, nop, rhs, nr, h);
  if (head) {
    size_t hin;
    const char *hind = pt_indent(t, head, &hin);
    pt_hunk_line(h, 0, "%.*s}", (int)hin, hind);
  }
  return NULL;
}

/* The lines of the split step l (statement lines only). */
static void form_body(const pt_text *t, unsigned l, LLVMValueRef store,
                      const char *lhs, size_t nl, const char *op, size_t nop,
                      const char *rhs, size_t nr, pt_hunk *h) {
  size_t in;
  const char *ind = pt_indent(t, l, &in);
  if (!memchr(rhs, '[', nr) && !memchr(rhs, '*', nr) && !memchr(rhs, '>', nr)) {
    /* the partner was read into a register already: sync before the
     * statement and after it */
    pt_hunk_line(h, 0, "%.*s__syncwarp();", (int)in, ind);
    pt_hunk_copy(h, t, l, "");
    if (is_warpsync(LLVMGetNextInstruction(store)))
      pt_hunk_line(h, 0, "%.*s__syncwarp();", (int)in, ind);
    return;
  }
  pt_names scratch = {t, {0}}; /* the file's words only: one name a line */
  char *base = aucs_xasprintf("val%u", l), *val = pt_fresh(&scratch, base);
  pt_hunk_line(h, l, "%.*sauto %s = %.*s;", (int)in, ind, val, (int)nr, rhs);
  pt_hunk_line(h, 0, "%.*s__syncwarp();", (int)in, ind);
  pt_hunk_line(h, l, "%.*s%.*s %.*s= %s;", (int)in, ind, (int)nl, lhs, (int)nop,
               op, val);
  if (is_warpsync(LLVMGetNextInstruction(store)))
    pt_hunk_line(h, 0, "%.*s__syncwarp();", (int)in, ind);
  aucs_buf_free(&scratch.used);
  free(base);
  free(val);
}

static unsigned source_line(const char *source, const char *base) {
  const char *colon = source ? strchr(source, ':') : NULL;
  if (!colon)
    return 0;
  const char *slash = source, *p;
  for (p = source; p < colon; p++)
    if (*p == '/')
      slash = p + 1;
  if (strlen(base) != (size_t)(colon - slash) ||
      strncmp(slash, base, (size_t)(colon - slash)))
    return 0;
  return (unsigned)strtoul(colon + 1, NULL, 10);
}

int pt_form_warp(const aucs_edit *e, const pt_text *t, const char *base,
                 LLVMModuleRef m, pt_hunk *h, const char **why) {
  LLVMValueRef sync = pt_by_id(m, e->function, e->id);
  unsigned l = source_line(e->source, base), prev = 0;
  if (!sync || !l || l > t->n)
    return 0;
  if (split_store(sync, l)) {
    *why = form_step(t, l, sync, h);
    return 1;
  }
  LLVMValueRef split = split_before(sync, &prev);
  if (!split || !prev || prev > t->n)
    return 0;
  *why = form_step(t, prev, split, h);
  return 1;
}
