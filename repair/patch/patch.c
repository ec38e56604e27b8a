/*
 * patch: the repair as a checked unified diff of the CUDA source
 * (`aucs fix k.cu --patch FILE`).
 *
 * Steps:
 *   1. Read the .cu; split it into lines.
 *   2. Each edit of the log gets a source form (a hunk: lines replaced by
 *      new ones, repair/patch/patch_forms.c), or a reason it has none:
 *      insert-barrier (before a statement line, at the end of a loop
 *      body, or inside a statement split through a temporary),
 *      delete-barrier, flatten-exit (an early `return` made a flag, or
 *      an `if` split at its barrier) and a flattened if/else with its
 *      barrier before the else arm; a loop made uniform becomes
 *      `while (__syncthreads_or(active))` with the edits inside it in its
 *      hunk (repair/patch/patch_loop.c); such loops in the code an early return
 *      guards go into the early return's hunk (pt_form_exit_in, anchored
 *      at its flatten-exit edit, or at the loop's edit when the repair
 *      flattened no return of its own), and a loop the repair made uniform
 *      inside a divergent `if (C) {` block into that `if`'s split form
 *      (anchored at the loop's edit), and a helper inlined at its only
 *      call below such a return whose loop was made uniform takes the flag
 *      as a new parameter (repair/patch/patch_active.c; the inline-call edit
 *      holds the helper's hunk); a barrier before a statement of
 *      a helper with several copies goes into the helper for every call
 *      when each copy can take it (repair/patch/patch_shared.c). Other flattened
 *      regions, other edits in helpers inlined at one of several calls,
 *      code in another file and a
 *      template kernel instantiated more than once are "IR only", and so
 *      is every edit answering the same finding as an IR-only edit, a
 *      finding an IR-only edit left, or whose lines overlap an earlier
 *      edit's hunk.
 *   3. Apply the hunks to a copy of the text; libgit2's buffer diff
 *      gives the unified diff (`--- a/k.cu`, paths relative to the current
 *      directory, so `git apply` and `patch -p1` take it).
 *   4. Check it: write the copy under the same basename in a temporary
 *      directory, compile it with the same options plus `-I` of the
 *      original's directory, detect with the same launches and seed + 1.
 *      It passes when no finding that counts maps (by kind and original
 *      line) to a finding the IR repair fixed (whether the patch answers
 *      it or an IR-only edit does), and every race or divergence maps to
 *      one the repair left. Warnings are not compared.
 *      When a patch with loops rewritten fails, the loops become IR only
 *      and the rest is checked again.
 *
 * Limitation: an input outside the current directory keeps its path as
 * given in the diff headers.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "aucs/patch.h"
#include "aucs/tempfiles.h"
#include "patch_impl.h"

#include "aucs/kernel.h"
#include "aucs/repair.h"
#include "aucs/report.h"
#include "aucs/srcloc.h"

#include <llvm-c/Core.h>

#include <ctype.h>
#include <git2.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef pt_text text;

/* ---- step 2: the source form of each edit -------------------------------*/

/* "PREFIX FILE:LINE": FILE's basename must be base's; returns LINE or 0. */
static unsigned parse_at(const char *edit, const char *prefix,
                         const char *base) {
  if (!edit || strncmp(edit, prefix, strlen(prefix)))
    return 0;
  const char *file = edit + strlen(prefix), *colon = strrchr(file, ':');
  if (!colon)
    return 0;
  char *end;
  unsigned long line = strtoul(colon + 1, &end, 10);
  if (*end && strncmp(end, " (", 2))
    return 0;
  const char *slash = file;
  for (const char *p = file; p < colon; p++)
    if (*p == '/')
      slash = p + 1;
  size_t blen = strlen(base);
  if ((size_t)(colon - slash) != blen || strncmp(slash, base, blen))
    return 0;
  return (unsigned)line;
}

/* The line of "k.cu:12:5", 0 when it has none. */
static unsigned loc_line(const char *loc) {
  const char *c = loc ? strrchr(loc, ':') : NULL;
  const char *s = c;
  while (s && s > loc && s[-1] != ':')
    s--;
  return s && s > loc ? (unsigned)strtoul(s, NULL, 10) : 0;
}

/* Whether "k.cu:12:5" names a file whose basename is base's. */
static int loc_in(const char *loc, const char *base) {
  char *at = loc ? aucs_xasprintf("at %s", loc) : NULL;
  char *colon = at ? strrchr(at, ':') : NULL;
  if (colon)
    *colon = '\0';
  int in = colon && parse_at(at, "at ", base) != 0;
  free(at);
  return in;
}

/* The instruction of function fn in m whose !aucs.id is id, or NULL. */
static LLVMValueRef by_id(LLVMModuleRef m, const char *fn, unsigned id) {
  LLVMValueRef f = m && fn && id ? LLVMGetNamedFunction(m, fn) : NULL;
  for (LLVMBasicBlockRef b = f ? LLVMGetFirstBasicBlock(f) : NULL; b;
       b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef I = LLVMGetFirstInstruction(b); I;
         I = LLVMGetNextInstruction(I))
      if (aucs_repair_id(I) == id)
        return I;
  return NULL;
}

LLVMValueRef pt_by_id(LLVMModuleRef m, const char *fn, unsigned id) {
  return by_id(m, fn, id);
}

/* Calls to callee left in m, in code a kernel reaches. */
static size_t calls_to(LLVMModuleRef m, LLVMValueRef callee) {
  size_t n = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(callee); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef I = LLVMGetUser(u);
    n += LLVMIsACallInst(I) && LLVMGetCalledValue(I) == callee &&
         pt_live(LLVMGetBasicBlockParent(LLVMGetInstructionParent(I)));
  }
  (void)m;
  return n;
}

/* The function s names ("NAME(..." or, where the edit's text was cut,
 * "NAME`" with NAME a prefix of exactly one function's name), or NULL. */
static LLVMValueRef callee_named(LLVMModuleRef m, const char *s) {
  size_t n = strcspn(s, "(`");
  LLVMValueRef found = NULL;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
       f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    if (len < n || strncmp(name, s, n) || (s[n] == '(' && len != n))
      continue;
    if (found)
      return NULL;
    found = f;
  }
  return found;
}

static const char other_calls[] =
    "the edit lands in a __device__ helper inlined into the kernel, and the "
    "helper has other calls its source edit would change";

/* An inlined helper call has no source form of its own; the edits made
 * in the inlined copy are edits of the helper's source when the call was
 * its only one (none is left in m), or when they take the form every call
 * shares (plan_every_call). */
static const char *inline_why(const aucs_edit *e, LLVMModuleRef m) {
  const char *at = e->where ? strstr(e->where, " @") : NULL;
  LLVMValueRef callee = m && at ? callee_named(m, at + 2) : NULL;
  if (!callee)
    return "the edit lands in a __device__ helper inlined into the kernel";
  if (callee && calls_to(m, callee))
    return other_calls;
  return NULL;
}

LLVMValueRef pt_called(const aucs_edit *e, LLVMModuleRef m, int *others) {
  const char *at = e->where ? strstr(e->where, " @") : NULL;
  LLVMValueRef callee = m && at ? callee_named(m, at + 2) : NULL;
  *others = callee && calls_to(m, callee) != 0;
  return callee;
}

unsigned pt_edit_line(const aucs_edit *e, const char *base) {
  return loc_in(e->source, base) ? loc_line(e->source) : 0;
}

unsigned pt_edit_at(const aucs_edit *e, const char *prefix, const char *base) {
  return parse_at(e->source_edit, prefix, base);
}

static const char *kind_why(aucs_edit_kind k) {
  switch (k) {
  case AUCS_EDIT_FLATTEN_REGION:
    return "flattening a divergent if/else region has no exact source form "
           "here (both arms would be rewritten under held conditions)";
  case AUCS_EDIT_UNIFORMIZE_LOOP:
    return "the loop made uniform does not begin in this file";
  case AUCS_EDIT_SPLIT_BLOCK:
    return "the block split for a flattened region has no source form of "
           "its own";
  case AUCS_EDIT_INLINE_CALL:
    return "the edit lands in a __device__ helper inlined into the kernel";
  default:
    return "no exact source form";
  }
}

/* "use atomicCAS (device scope) instead of atomicCAS_block at k.cu:L:C":
 * the new name (*len bytes), the line and column; NULL when malformed or in
 * another file. */
static const char *parse_widen(const char *edit, const char *base, size_t *len,
                               unsigned *line, unsigned *col) {
  const char *paren = edit ? strstr(edit, " (device scope) instead of ") : NULL;
  const char *at = edit ? strstr(edit, "_block at ") : NULL;
  if (!paren || !at || strncmp(edit, "use ", 4))
    return NULL;
  *len = (size_t)(paren - edit - 4);
  char *file = aucs_xstrdup(at + strlen("_block at "));
  char *c = strrchr(file, ':');
  *col = c ? (unsigned)strtoul(c + 1, NULL, 10) : 0;
  if (c)
    *c = '\0';
  *line = c ? parse_at(file, "", base) : 0;
  free(file);
  return *line && *col ? edit + 4 : NULL;
}

/* Why the call at line:col of t is not spelt `<name>_block(`, or NULL. */
static const char *widen_why(const text *t, unsigned line, unsigned col,
                             const char *name, size_t len) {
  if (line > t->n || col > t->start[line] - t->start[line - 1])
    return "the atomic's location is not in this file";
  const char *s = t->data + t->start[line - 1] + col - 1;
  const char *end = t->data + t->start[line];
  if ((size_t)(end - s) < len + 7 || strncmp(s, name, len) ||
      strncmp(s + len, "_block", 6) || isalnum((unsigned char)s[len + 6]) ||
      s[len + 6] == '_')
    return "the source does not spell the call `atomic*_block` at the "
           "atomic's column (a macro or a wrapper)";
  return NULL;
}

/* The source form of a widen-scope or insert-fence edit. */
static const char *classify_sync(const aucs_edit *e, const text *t,
                                 const char *base, pt_hunk *h) {
  unsigned line = 0, col = 0;
  if (e->kind == AUCS_EDIT_WIDEN_SCOPE) {
    size_t len = 0;
    const char *name = parse_widen(e->source_edit, base, &len, &line, &col);
    const char *why = name ? widen_why(t, line, col, name, len)
                           : (e->why ? e->why : "the atomic is not in this file");
    if (why)
      return why;
    const char *s = t->data + t->start[line - 1];
    size_t n = t->start[line] - t->start[line - 1];
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
      n--;
    h->from = h->to = line;
    pt_hunk_line(h, line, "%.*s%.*s%.*s", (int)(col - 1), s, (int)len, name,
                 (int)(n - (col - 1) - len - strlen("_block")),
                 s + col - 1 + len + strlen("_block"));
    return NULL;
  }
  const char *at = e->source_edit ? strstr(e->source_edit, " at ") : NULL;
  line = at ? parse_at(at + 4, "", base) : 0;
  if (!line || loc_line(e->source) != line)
    return e->why ? e->why : "no statement of this file follows the fence";
  return pt_form_fence(t, line, h);
}
/* L of "the barrier falls inside the statement at FILE:L, ..." when FILE
 * is this file, else 0. */
static unsigned inside_line(const char *why, const char *base) {
  static const char key[] = "falls inside the statement at ";
  const char *at = why ? strstr(why, key) : NULL;
  const char *comma = at ? strchr(at, ',') : NULL;
  if (!comma)
    return 0;
  char *loc =
      aucs_xasprintf("%.*s", (int)(comma - at - strlen(key)), at + strlen(key));
  unsigned line = parse_at(loc, "", base);
  free(loc);
  return line;
}

static const char *classify_insert(const aucs_edit *e, const text *t,
                                   const char *base, LLVMModuleRef m,
                                   pt_names *names, pt_hunk *h) {
  unsigned line =
      parse_at(e->source_edit, "insert __syncthreads(); before ", base);
  unsigned after =
      parse_at(e->source_edit, "insert __syncthreads(); after ", base);
  LLVMValueRef bar = by_id(m, e->function, e->id);
  if (pt_in_helper(bar, base))
    return pt_form_helper(t, m, bar, base, names, h);
  if (line && loc_line(e->source) != line)
    return "the barrier sits in code inlined into the statement (a helper "
           "or a macro), not before it";
  int top = line ? pt_loop_top(bar, line) : 0;
  if (top)
    return top > 0 ? pt_form_loop_top(t, line, h)
                   : "the barrier precedes a loop's condition, and the loop's "
                     "initialisation or increment touches memory";
  if (line)
    return pt_form_insert(t, line, h);
  if (after && loc_in(e->source, base))
    return pt_form_after(t, after, loc_line(e->source), h);
  unsigned in = inside_line(e->why, base);
  const char *why = in ? pt_form_inside(t, bar, in, NULL, base, h) : NULL;
  if (in && why && loc_in(e->source, base))
    why = pt_form_split(t, loc_line(e->source), bar, names, h);
  if (in)
    return why;
  return e->why ? e->why : "no statement of this file follows the barrier";
}

/* The insert-barrier edit of log that goes with flatten-region edit i:
 * the same finding, its barrier before the region's else arm. */
static long else_barrier(const aucs_editlog *log, size_t i) {
  long found = -1;
  for (size_t k = 0; k < log->n; k++) {
    const aucs_edit *e = &log->v[k];
    if (k == i || e->finding_index != log->v[i].finding_index)
      continue;
    if (e->kind != AUCS_EDIT_INSERT_BARRIER || found >= 0 || !e->where ||
        strncmp(e->where, "in %guard.if.else,", 18))
      return -2;
    found = (long)k;
  }
  return found;
}

/* The hunk of e on t, or NULL with why it has none (static text). */
static const char *classify(const aucs_edit *e, const text *t, const char *base,
                            LLVMModuleRef m, pt_names *names, pt_hunk *h) {
  if (aucs_kernel_template_shared(e->function, m))
    return "a template kernel instantiated more than once: the source edit "
           "would change every instantiation";
  if (e->kind == AUCS_EDIT_INSERT_BARRIER)
    return classify_insert(e, t, base, m, names, h);
  if (e->kind == AUCS_EDIT_INSERT_WARP_SYNC) { /* patch_warp.c */
    const char *why = NULL;
    if (pt_form_warp(e, t, base, m, h, &why))
      return why;
    aucs_edit b = pt_warp_as_barrier(e);
    why = classify_insert(&b, t, base, m, names, h);
    pt_warp_barrier_free(&b);
    pt_warp_respell(h);
    return why;
  }
  if (e->kind == AUCS_EDIT_DELETE_BARRIER) {
    unsigned line =
        parse_at(e->source_edit, "delete the __syncthreads(); at ", base);
    if (!line || loc_line(e->source) != line)
      return "the barrier is not in this file (a header or a macro)";
    return pt_form_delete(t, line, h);
  }
  if (e->kind == AUCS_EDIT_INLINE_CALL)
    return inline_why(e, m);
  if (e->kind == AUCS_EDIT_WIDEN_SCOPE || e->kind == AUCS_EDIT_INSERT_FENCE)
    return classify_sync(e, t, base, h);
  if (e->kind == AUCS_EDIT_MAKE_ATOMIC)
    return pt_form_atomic(e, t, base, h);
  if (e->kind == AUCS_EDIT_FLATTEN_EXIT)
    return loc_in(e->source, base)
               ? pt_form_exit(t, loc_line(e->source), names, h)
               : "the region made uniform does not begin in this file";
  return kind_why(e->kind);
}

typedef struct plan {
  pt_hunk *hunks;           /* per edit; n == 0 && !exact[i]: none */
  unsigned char *exact;     /* per edit */
  unsigned char *dup;       /* per edit: an earlier edit writes its hunk */
  unsigned char *carried;   /* per edit: another edit's hunk holds it */
  size_t *loop_of;          /* per edit: 1 + the loop edit holding it */
  size_t *exit_of;          /* per edit: 1 + the flatten-exit holding it */
  size_t *flag_of;          /* per edit: 1 + the flattened region holding it */
  unsigned char *in_if;     /* per loop edit: why[] says why its `if` form
                               failed */
  int no_loops;             /* loops stay IR only (a failed check) */
  int no_entry;             /* no pt_form_loop_entry (a failed check) */
  size_t nentry;            /* loops with that form */
  size_t nloops;            /* loops with a source form */
  char *failed;             /* why the check failed, or NULL */
  unsigned char *addressed; /* per repair item: an exact edit answers it */
  const char **why;         /* per edit: why it is IR only (static text) */
  char **notes;             /* per edit: pt_hunk's note, or NULL */
  size_t n, nexact, nchanged; /* edits; exact ones; those with a hunk */
} plan;

static void plan_free(plan *p) {
  for (size_t i = 0; i < p->n; i++)
    pt_hunk_free(&p->hunks[i]);
  free(p->hunks);
  free(p->exact);
  free(p->dup);
  free(p->carried);
  free(p->loop_of);
  free(p->exit_of);
  free(p->flag_of);
  free(p->in_if);
  free(p->failed);
  free(p->addressed);
  free(p->why);
  for (size_t i = 0; p->notes && i < p->n; i++)
    free(p->notes[i]);
  free(p->notes);
}

static int left_by_edit(const aucs_repair_result *r, const aucs_edit *e) {
  return e->finding_index >= 0 && (size_t)e->finding_index < r->nitems &&
         r->items[e->finding_index].introduced;
}

static int same_hunk(const pt_hunk *a, const pt_hunk *b) {
  return a->from == b->from && a->to == b->to && a->text.len == b->text.len &&
         (!a->text.len || !strcmp(a->text.data, b->text.data));
}

/* Whether the lines hunks a and b replace overlap (two insertions before
 * one line, or an insertion inside a replaced range, too). */
static int overlap(const pt_hunk *a, const pt_hunk *b) {
  unsigned alo = a->from, ahi = a->to < a->from ? a->from : a->to;
  unsigned blo = b->from, bhi = b->to < b->from ? b->from : b->to;
  return alo <= bhi && blo <= ahi;
}

/* Edit i is not exact: why. */
static void drop(plan *p, size_t i, const char *why) {
  p->exact[i] = 0;
  p->why[i] = why;
  free(p->notes[i]); /* it spoke of the form dropped */
  p->notes[i] = NULL;
  pt_hunk_free(&p->hunks[i]);
}

static void plan_exclude(const aucs_repair_result *r, plan *p) {
  const aucs_editlog *log = &r->log;
  for (size_t i = 0; i < log->n; i++)
    for (size_t k = 0; k < i && p->exact[i]; k++)
      if (p->exact[k] && !p->dup[k] && same_hunk(&p->hunks[k], &p->hunks[i]))
        p->dup[i] = 1;
      else if (p->exact[k] && !p->dup[k] && !p->dup[i] &&
               overlap(&p->hunks[k], &p->hunks[i]))
        drop(p, i, "its source lines overlap those of an earlier edit");
  /* An edit is exact only when every edit of its finding is, and, when
   * its finding was left by earlier edits, when those were. */
  for (size_t i = 0; i < log->n; i++)
    for (size_t k = 0; k < i && p->exact[i] && left_by_edit(r, &log->v[i]); k++)
      if (!p->exact[k])
        drop(p, i, "it answers a finding left by an edit that is IR only");
  for (size_t i = 0; i < log->n; i++)
    for (size_t k = 0; k < log->n && p->exact[i]; k++)
      if (!p->exact[k] && log->v[k].finding_index == log->v[i].finding_index &&
          log->v[i].finding_index >= 0)
        drop(p, i, "it goes with an edit that is IR only");
}

/* A flattened if/else split at its else arm (pt_form_if_else) carries the
 * barrier of its insert-barrier edit in its own hunk. */
static void plan_if_else(const aucs_editlog *log, const text *t,
                         const char *base, LLVMModuleRef m, pt_names *names,
                         plan *p) {
  for (size_t i = 0; i < log->n; i++) {
    const aucs_edit *e = &log->v[i];
    long k = e->kind == AUCS_EDIT_FLATTEN_REGION ? else_barrier(log, i) : -1;
    if (k < 0 || aucs_kernel_template_shared(e->function, m) || !loc_in(e->source, base))
      continue;
    pt_hunk_free(&p->hunks[i]);
    p->why[i] = pt_form_if_else(t, loc_line(e->source), names, &p->hunks[i]);
    p->exact[i] = !p->why[i];
    if (!p->exact[i])
      continue;
    pt_hunk_free(&p->hunks[k]);
    p->exact[k] = p->carried[k] = 1;
    p->why[k] = NULL;
  }
}

/* The edits inside loop edit i's body (an IR-only loop) that have no form
 * of their own say where they sit. */
static void loop_ir_only(const aucs_editlog *log, size_t i, const text *t,
                         const char *base, plan *p) {
  const aucs_edit *u = &log->v[i];
  unsigned head = pt_edit_line(u, base);
  size_t end = head ? pt_block_end(t, head) : 0;
  for (size_t k = 0; k < log->n && end; k++) {
    const aucs_edit *e = &log->v[k];
    unsigned l = pt_edit_line(e, base);
    if (!p->exact[k] && e->kind != AUCS_EDIT_UNIFORMIZE_LOOP && l > head &&
        l <= end && e->function && u->function &&
        !strcmp(e->function, u->function))
      p->why[k] = "it sits in the body of a loop made uniform whose source "
                  "rewrite is IR only";
  }
}

/* ---- an early return or divergent `if` with loops made uniform in it ----*/

typedef struct exit_loops {
  const aucs_editlog *log;
  const aucs_edit *exit; /* the flatten-exit edit */
  const text *t;
  const char *base;
  LLVMModuleRef m;
  pt_names *names;
  unsigned char *carry, *tmp; /* per edit: the hunk holds it */
  size_t *loop_of;            /* per edit: 1 + its loop edit */
  size_t nloops;
  int tried; /* a loop's rewrite was asked for */
  /* Helpers that take the flag (patch_active.c): per inline-call edit, the
   * helper's hunk and whether it has one; the context, for their bodies. */
  pt_hunk *helpers;
  unsigned char *calls;
  size_t ncalls;
  int in_helper;
  const pt_exit_ctx *cx;
} exit_loops;

static int same_function(const aucs_edit *a, const aucs_edit *b) {
  return a->function && b->function && !strcmp(a->function, b->function);
}

static long loop_at(const exit_loops *x, size_t head) {
  for (size_t k = 0; k < x->log->n; k++)
    if (x->log->v[k].kind == AUCS_EDIT_UNIFORMIZE_LOOP &&
        same_function(&x->log->v[k], x->exit) &&
        pt_edit_line(&x->log->v[k], x->base) == head)
      return (long)k;
  return -1;
}

static int xl_uniform(void *arg, size_t head) {
  return loop_at(arg, head) >= 0;
}

static const char *xl_loop(void *arg, size_t head, const char *guard,
                           pt_hunk *h) {
  exit_loops *x = arg;
  size_t k = (size_t)loop_at(x, head);
  x->tried = 1;
  memset(x->tmp, 0, x->log->n);
  const char *why = pt_form_loop_under(x->t, x->log, k, x->base, x->m, x->names,
                                       guard, h, x->tmp);
  for (size_t j = 0; !why && j < x->log->n; j++)
    if (x->tmp[j])
      x->carry[j] = 1, x->loop_of[j] = k + 1;
  if (!why)
    x->carry[k] = 1, x->nloops++;
  return why;
}

static int xl_deleted(void *arg, size_t line) {
  exit_loops *x = arg;
  for (size_t k = 0; k < x->log->n; k++) {
    const aucs_edit *e = &x->log->v[k];
    if (e->kind == AUCS_EDIT_DELETE_BARRIER && same_function(e, x->exit) &&
        parse_at(e->source_edit, "delete the __syncthreads(); at ", x->base) ==
            line)
      return x->carry[k] = 1;
  }
  return 0;
}

/* The inline-call edit at line l of the guarded code whose helper takes
 * the flag, or -1. */
static long call_at(const exit_loops *x, size_t l) {
  for (size_t k = 0; k < x->log->n && !x->in_helper; k++)
    if (x->log->v[k].kind == AUCS_EDIT_INLINE_CALL &&
        same_function(&x->log->v[k], x->exit) &&
        pt_edit_line(&x->log->v[k], x->base) == l &&
        pt_active_call(x->t, x->log, k, x->base, x->m, &(size_t){0}))
      return (long)k;
  return -1;
}

static int xl_call(void *arg, size_t l) { return call_at(arg, l) >= 0; }

static const char *xl_call_form(void *arg, size_t l, const char *guard,
                                pt_hunk *h) {
  exit_loops *x = arg;
  size_t k = (size_t)call_at(x, l);
  pt_hunk_free(&x->helpers[k]);
  x->tried = 1;
  x->in_helper = 1;
  const char *why = pt_form_active(x->t, x->log, k, x->base, x->m, x->names,
                                   guard, x->cx, h, &x->helpers[k]);
  x->in_helper = 0;
  if (!why)
    x->ncalls += !x->calls[k], x->calls[k] = 1;
  return why;
}

/* The helpers that took the flag in x: their hunks go to their inline-call
 * edits; the flatten-exits that carried the same early return's flag on
 * (at the kernel's top level in lines l..to) go with edit i's hunk. */
static void take_helpers(exit_loops *x, size_t i, unsigned l, unsigned to,
                         plan *p) {
  for (size_t k = 0; k < x->log->n; k++) {
    const aucs_edit *e = &x->log->v[k];
    unsigned el = pt_edit_line(e, x->base);
    if (x->calls[k]) {
      pt_hunk_free(&p->hunks[k]);
      p->hunks[k] = x->helpers[k];
      memset(&x->helpers[k], 0, sizeof x->helpers[k]);
      free(p->notes[k]);
      p->notes[k] = p->hunks[k].note, p->hunks[k].note = NULL;
      p->exact[k] = 1, p->why[k] = NULL;
    } else if (k != i && x->ncalls && e->kind == AUCS_EDIT_FLATTEN_EXIT &&
               same_function(e, x->exit) && el >= l && el <= to &&
               x->t->depth[el] == 1 && e->source_edit &&
               !strncmp(e->source_edit, "replace the `return` at ", 24)) {
      pt_hunk_free(&p->hunks[k]);
      p->exact[k] = p->carried[k] = 1;
      p->exit_of[k] = i + 1;
      p->why[k] = NULL;
    }
  }
}

/* Edit i (a flatten-exit with no form of its own, or a loop made uniform
 * inside the code an early return skips or a divergent `if` holds), at
 * the `if` of line l whose guarded code holds loops made uniform: the
 * exit form with their rewrites inside (need_return: only the early-return
 * form). 1 when it has one. */
static int exit_with_loops(const aucs_editlog *log, size_t i, unsigned l,
                           const text *t, const char *base, LLVMModuleRef m,
                           int need_return, pt_names *names, plan *p) {
  exit_loops x = {.log = log,
                  .exit = &log->v[i],
                  .t = t,
                  .base = base,
                  .m = m,
                  .names = names};
  x.carry = aucs_xcalloc(log->n + 1, 1);
  x.tmp = aucs_xcalloc(log->n + 1, 1);
  x.loop_of = aucs_xcalloc(log->n + 1, sizeof(size_t));
  x.helpers = aucs_xcalloc(log->n + 1, sizeof(pt_hunk));
  x.calls = aucs_xcalloc(log->n + 1, 1);
  int anchor_loop = log->v[i].kind == AUCS_EDIT_UNIFORMIZE_LOOP;
  pt_exit_ctx cx = {xl_uniform,  xl_loop, xl_deleted, &x,
                    need_return, NULL,    xl_call,    xl_call_form};
  x.cx = &cx;
  pt_hunk h = {0};
  const char *why = pt_form_exit_in(t, l, names, &cx, &h);
  if (!why && anchor_loop && !x.carry[i])
    why = "the loop is not in the code the early return (or `if`) guards";
  int ok = !why && x.nloops;
  if (ok) {
    take_helpers(&x, i, l, h.to, p);
    pt_hunk_free(&p->hunks[i]);
    p->hunks[i] = h;
    p->exact[i] = 1, p->why[i] = NULL;
    p->nloops += x.nloops;
    for (size_t k = 0; k < log->n; k++)
      if (x.carry[k] && k != i) {
        pt_hunk_free(&p->hunks[k]);
        p->exact[k] = p->carried[k] = 1;
        p->exit_of[k] = i + 1;
        p->loop_of[k] = x.loop_of[k];
        p->why[k] = NULL;
      }
  } else {
    if (why && (x.tried || (anchor_loop && !need_return)))
      p->why[i] = why, p->in_if[i] = anchor_loop;
    pt_hunk_free(&h);
  }
  for (size_t k = 0; k < log->n; k++)
    pt_hunk_free(&x.helpers[k]);
  free(x.helpers), free(x.calls);
  free(x.carry), free(x.tmp), free(x.loop_of);
  return ok;
}

/* Loop edit i made uniform inside code an early return skips, with no
 * flatten-exit of its own: the nearest early return above it at the
 * kernel's top level. */
static void loop_after_return(const aucs_editlog *log, size_t i, const text *t,
                              const char *base, LLVMModuleRef m,
                              pt_names *names, plan *p) {
  unsigned head = pt_edit_line(&log->v[i], base);
  if (!head || head > t->n || t->depth[head] != 1)
    return;
  for (unsigned l = head - 1; l > 0 && t->depth[l] >= 1; l--) {
    size_t n;
    const char *s = pt_trimmed(t, l, &n);
    if (t->depth[l] == 1 && n > 2 && !strncmp(s, "if", 2) &&
        !isalnum((unsigned char)s[2]) && s[2] != '_')
      if (exit_with_loops(log, i, l, t, base, m, 1, names, p))
        return;
  }
}

/* A helper the repair inlined at its only call below an early return and
 * made a loop of uniform takes the kernel's flag (patch_active.c): the
 * early return's form, anchored at the helper's loop edit. */
static void plan_active_calls(const aucs_editlog *log, const text *t,
                              const char *base, LLVMModuleRef m,
                              pt_names *names, plan *p) {
  for (size_t k = 0; k < log->n && !p->no_loops; k++) {
    const aucs_edit *c = &log->v[k];
    size_t end = 0;
    unsigned hl = pt_active_call(t, log, k, base, m, &end);
    if (!hl)
      continue;
    unsigned call = pt_edit_line(c, base);
    long i = -1;
    for (size_t j = 0; j < log->n && i < 0; j++) {
      unsigned lj = pt_edit_line(&log->v[j], base);
      if (log->v[j].kind == AUCS_EDIT_UNIFORMIZE_LOOP && !p->carried[j] &&
          !p->exact[j] && same_function(&log->v[j], c) && lj > hl && lj < end)
        i = (long)j;
    }
    if (i < 0 || t->depth[call] != 1)
      continue;
    for (unsigned l = call - 1; l > 0 && t->depth[l] >= 1; l--) {
      size_t n;
      const char *s = pt_trimmed(t, l, &n);
      if (t->depth[l] == 1 && n > 2 && !strncmp(s, "if", 2) &&
          !isalnum((unsigned char)s[2]) && s[2] != '_' &&
          exit_with_loops(log, (size_t)i, l, t, base, m, 1, names, p))
        break;
    }
  }
}

/* Loop edit i made uniform inside a divergent `if (C) {` block (the repair
 * flattened the `if` around it): the `if` split form with the loop in it,
 * its flag starting as `cond && (COND)`. */
static void loop_in_if(const aucs_editlog *log, size_t i, const text *t,
                       const char *base, LLVMModuleRef m, pt_names *names,
                       plan *p) {
  unsigned head = pt_edit_line(&log->v[i], base);
  if (!head || head > t->n || t->depth[head] < 2)
    return;
  unsigned l = head - 1;
  while (l > 0 && t->depth[l] >= t->depth[head])
    l--;
  size_t n;
  const char *s = l ? pt_trimmed(t, l, &n) : NULL;
  if (!s || t->depth[l] != t->depth[head] - 1 || n <= 2 ||
      strncmp(s, "if", 2) || isalnum((unsigned char)s[2]) || s[2] == '_' ||
      pt_block_end(t, l) < head)
    return;
  if (t->depth[l] == 1) {
    exit_with_loops(log, i, l, t, base, m, 0, names, p);
    return;
  }
  p->why[i] = "the `if` around the loop is nested in another block: its "
              "condition alone is not the loop's";
  p->in_if[i] = 1;
}

/* Loop edit i of this file still without a form, whose loop sits in code
 * a divergent condition guards (its source edit names that condition). */
static int guarded_loop(const aucs_editlog *log, size_t i, const char *base,
                        const plan *p) {
  const aucs_edit *e = &log->v[i];
  return e->kind == AUCS_EDIT_UNIFORMIZE_LOOP && !p->carried[i] &&
         !p->exact[i] && loc_in(e->source, base) && e->source_edit &&
         strstr(e->source_edit, "<the condition around");
}

static void plan_exit_loops(const aucs_editlog *log, const text *t,
                            const char *base, LLVMModuleRef m, pt_names *names,
                            plan *p) {
  for (size_t i = 0; i < log->n && !p->no_loops; i++)
    if (log->v[i].kind == AUCS_EDIT_FLATTEN_EXIT && !p->exact[i] &&
        !p->carried[i] && loc_in(log->v[i].source, base))
      exit_with_loops(log, i, loc_line(log->v[i].source), t, base, m, 0, names,
                      p);
  for (size_t i = 0; i < log->n && !p->no_loops; i++)
    if (guarded_loop(log, i, base, p))
      loop_after_return(log, i, t, base, m, names, p);
  for (size_t i = 0; i < log->n && !p->no_loops; i++)
    if (guarded_loop(log, i, base, p))
      loop_in_if(log, i, t, base, m, names, p);
}

/* ---- a flattened region holding an early return ------------------------*/

/* The insert-barrier edits that go with flatten-region edit i (its finding,
 * its function), each before a statement line of this file. */
typedef struct region_bars {
  size_t k[16], n;
  unsigned line[16];
} region_bars;

static int region_bars_of(const aucs_editlog *log, size_t i, const char *base,
                          region_bars *b) {
  b->n = 0;
  for (size_t k = 0; k < log->n; k++) {
    const aucs_edit *e = &log->v[k];
    if (k == i || e->finding_index != log->v[i].finding_index)
      continue;
    unsigned l = pt_edit_at(e, "insert __syncthreads(); before ", base);
    if (e->kind != AUCS_EDIT_INSERT_BARRIER || !l || b->n == 16 ||
        !same_function(e, &log->v[i]) || pt_edit_line(e, base) != l)
      return 0;
    b->k[b->n] = k;
    b->line[b->n++] = l;
  }
  return b->n > 0;
}

static int rb_no(void *arg, size_t l) { return (void)arg, (void)l, 0; }
static const char *rb_loop(void *arg, size_t l, const char *g, pt_hunk *h) {
  return (void)arg, (void)l, (void)g, (void)h, "a loop made uniform";
}
static int rb_before(void *arg, size_t l) {
  const region_bars *b = arg;
  for (size_t i = 0; i < b->n; i++)
    if (b->line[i] == l)
      return 1;
  return 0;
}

/* Flatten-region edit i whose region holds an early `if (C) return;` at
 * the kernel's top level above its barriers: the exit form (an `active`
 * flag) with `__syncthreads();` where the barriers went, which carries
 * them. */
static void region_exit(const aucs_editlog *log, size_t i, const text *t,
                        const char *base, pt_names *names, plan *p) {
  region_bars b;
  if (!region_bars_of(log, i, base, &b))
    return;
  unsigned top = b.line[0];
  for (size_t j = 1; j < b.n; j++)
    top = b.line[j] < top ? b.line[j] : top;
  pt_exit_ctx cx = {rb_no, rb_loop, rb_no, &b, 1, rb_before, NULL, NULL};
  for (unsigned l = top - 1; l > 0 && t->depth[l] >= 1; l--) {
    size_t n;
    const char *s = pt_trimmed(t, l, &n);
    if (t->depth[l] != 1 || n < 3 || strncmp(s, "if", 2) ||
        isalnum((unsigned char)s[2]) || s[2] == '_')
      continue;
    pt_hunk h = {0};
    const char *why = pt_form_exit_in(t, l, names, &cx, &h);
    if (why && !strcmp(why, "the `if` is not an early return")) {
      pt_hunk_free(&h);
      continue;
    }
    if (why) {
      p->why[i] = why;
      pt_hunk_free(&h);
      return;
    }
    pt_hunk_free(&p->hunks[i]);
    p->hunks[i] = h;
    p->exact[i] = 1, p->why[i] = NULL;
    for (size_t j = 0; j < b.n; j++) {
      pt_hunk_free(&p->hunks[b.k[j]]);
      p->exact[b.k[j]] = p->carried[b.k[j]] = 1;
      p->flag_of[b.k[j]] = i + 1;
      p->why[b.k[j]] = NULL;
    }
    return;
  }
}

static void plan_region_exit(const aucs_editlog *log, const text *t,
                             const char *base, LLVMModuleRef m, pt_names *names,
                             plan *p) {
  for (size_t i = 0; i < log->n; i++)
    if (log->v[i].kind == AUCS_EDIT_FLATTEN_REGION && !p->exact[i] &&
        !aucs_kernel_template_shared(log->v[i].function, m))
      region_exit(log, i, t, base, names, p);
}

/* Loop edit i without a form because the repair flattened a region
 * around it: when the text shows the loop entered right after the exit of
 * the loop above it (pt_after_loop), the flag starts as the loop's own
 * condition (pt_form_loop_entry), unless a check refused that already. */
static void loop_entry(const aucs_editlog *log, size_t i, const text *t,
                       const char *base, LLVMModuleRef m, pt_names *names,
                       plan *p, unsigned char *carry) {
  unsigned head = pt_edit_line(&log->v[i], base);
  size_t above = head ? pt_after_loop(t, head) : 0;
  if (!above || p->no_entry ||
      strncmp(p->why[i], "the loop sits in a divergent region", 35))
    return;
  pt_hunk_free(&p->hunks[i]);
  memset(carry, 0, log->n);
  const char *why =
      pt_form_loop_entry(t, log, i, base, m, names, &p->hunks[i], carry);
  if (why)
    return;
  p->why[i] = NULL;
  p->nentry++;
  free(p->notes[i]);
  p->notes[i] = aucs_xasprintf(
      "the region the repair flattened around the loop is the exit of the "
      "loop at %s:%zu above it: every thread reaches it, the flag starts as "
      "the loop's condition (the check decides)",
      base, above);
}

/* A loop made uniform (pt_form_loop) carries the edits made inside it. */
static void plan_loops(const aucs_editlog *log, const text *t, const char *base,
                       LLVMModuleRef m, pt_names *names, plan *p) {
  unsigned char *carry = aucs_xcalloc(log->n + 1, 1);
  for (size_t i = 0; i < log->n; i++) {
    const aucs_edit *e = &log->v[i];
    if (e->kind != AUCS_EDIT_UNIFORMIZE_LOOP || !loc_in(e->source, base) ||
        aucs_kernel_template_shared(e->function, m) || p->carried[i] || p->exact[i])
      continue;
    memset(carry, 0, log->n);
    if (p->in_if[i] && !p->no_loops) {
      loop_ir_only(log, i, t, base, p);
      continue;
    }
    p->why[i] =
        p->no_loops
            ? "the loop's source rewrite failed the patch's check "
              "(see the reason above)"
            : pt_form_loop(t, log, i, base, m, names, &p->hunks[i], carry);
    if (p->why[i] && !p->no_loops)
      loop_entry(log, i, t, base, m, names, p, carry);
    p->exact[i] = !p->why[i];
    if (!p->exact[i]) {
      pt_hunk_free(&p->hunks[i]);
      loop_ir_only(log, i, t, base, p);
      continue;
    }
    p->nloops++;
    for (size_t k = 0; k < log->n; k++)
      if (carry[k]) {
        pt_hunk_free(&p->hunks[k]);
        p->exact[k] = p->carried[k] = 1;
        p->loop_of[k] = i + 1;
        p->why[k] = NULL;
      }
  }
  free(carry);
}

/* An inline-call edit whose helper has other calls is exact, with no
 * change of its own, when its finding's other edits are all barrier
 * insertions and one of them edits the helper for every call
 * (patch_shared.c; those in helper code are checked there); an exact one
 * then says so too. */
static void plan_every_call(const aucs_editlog *log, plan *p) {
  for (size_t i = 0; i < log->n; i++) {
    long f = log->v[i].finding_index;
    int inlined = log->v[i].kind == AUCS_EDIT_INLINE_CALL && p->exact[i];
    int every = 0, others = f >= 0 && (p->why[i] == other_calls || inlined);
    for (size_t k = 0; k < log->n && others; k++) {
      const aucs_edit *e = &log->v[k];
      if (e->finding_index != f || e->kind == AUCS_EDIT_INLINE_CALL)
        continue;
      others = e->kind == AUCS_EDIT_INSERT_BARRIER && p->exact[k];
      every |= others && p->hunks[k].every_call;
    }
    if (!others || !every)
      continue;
    p->exact[i] = 1;
    p->why[i] = NULL;
    p->notes[i] = aucs_xstrdup(
        inlined ? "no change of its own: the barrier goes into the helper's "
                  "source, for every call"
                : "no change of its own: the helper has other calls, and the "
                  "barrier goes into its source for every call");
  }
}

/* An edit a loop's hunk holds goes with the loop. */
static void plan_carried(plan *p) {
  for (size_t k = 0; k < p->n; k++)
    if (p->loop_of[k] && p->exact[k] && !p->exact[p->loop_of[k] - 1])
      drop(p, k, "it goes with a loop rewrite that is IR only");
}

static void plan_make(const aucs_repair_result *r, const text *t,
                      const char *base, LLVMModuleRef m, plan *p,
                      aucs_buf *report) {
  const aucs_editlog *log = &r->log;
  p->n = log->n;
  p->hunks = aucs_xcalloc(log->n + 1, sizeof(pt_hunk));
  p->exact = aucs_xcalloc(log->n + 1, 1);
  p->dup = aucs_xcalloc(log->n + 1, 1);
  p->carried = aucs_xcalloc(log->n + 1, 1);
  p->loop_of = aucs_xcalloc(log->n + 1, sizeof(size_t));
  p->exit_of = aucs_xcalloc(log->n + 1, sizeof(size_t));
  p->flag_of = aucs_xcalloc(log->n + 1, sizeof(size_t));
  p->in_if = aucs_xcalloc(log->n + 1, 1);
  p->why = aucs_xcalloc(log->n + 1, sizeof(char *));
  p->notes = aucs_xcalloc(log->n + 1, sizeof(char *));
  pt_names names = {.t = t};
  for (size_t i = 0; i < log->n; i++) {
    p->why[i] = classify(&log->v[i], t, base, m, &names, &p->hunks[i]);
    p->notes[i] = p->hunks[i].note;
    p->hunks[i].note = NULL;
    p->exact[i] = !p->why[i];
    if (!p->exact[i])
      pt_hunk_free(&p->hunks[i]);
  }
  plan_every_call(log, p);
  plan_if_else(log, t, base, m, &names, p);
  plan_region_exit(log, t, base, m, &names, p);
  plan_active_calls(log, t, base, m, &names, p);
  plan_exit_loops(log, t, base, m, &names, p);
  plan_loops(log, t, base, m, &names, p);
  aucs_buf_free(&names.used);
  plan_exclude(r, p);
  plan_carried(p);
  p->addressed = aucs_xcalloc(r->nitems + 1, 1);
  for (size_t i = 0; i < log->n; i++) {
    const aucs_edit *e = &log->v[i];
    if (!p->exact[i]) {
      if (report)
        aucs_buf_printf(
            report, "aucs: source patch: edit %zu (%s): IR only: %s%s%s%s\n",
            i + 1, aucs_editlog_kind_name(e->kind), p->why[i],
            p->notes[i] ? " (" : "", p->notes[i] ? p->notes[i] : "",
            p->notes[i] ? ")" : "");
      continue;
    }
    if (p->notes[i] && !p->dup[i] && report)
      aucs_buf_printf(report, "aucs: source patch: edit %zu (%s): %s\n", i + 1,
                      aucs_editlog_kind_name(e->kind), p->notes[i]);
    if (e->finding_index >= 0 && (size_t)e->finding_index < r->nitems)
      p->addressed[e->finding_index] = 1;
    p->nexact++;
    p->nchanged += p->hunks[i].from != 0;
  }
}

/* ---- step 3: the patched text and its diff -----------------------------*/

static int hunk_order(const void *x, const void *y) {
  const pt_hunk *a = *(const pt_hunk *const *)x,
                *b = *(const pt_hunk *const *)y;
  if (a->from != b->from)
    return a->from < b->from ? -1 : 1;
  return (a->to >= a->from) - (b->to >= b->from);
}

/* The text with hunks[0..n) applied (those with from == 0 skipped);
 * map[new line] = old line (0 for a line of a hunk's own), its size in
 * *nmap. */
static char *apply(const text *t, pt_hunk *const *hunks, size_t n,
                   unsigned **map, size_t *nmap) {
  pt_hunk **v = aucs_xcalloc(n + 1, sizeof(pt_hunk *));
  size_t k = 0, lines = t->n;
  for (size_t i = 0; i < n; i++)
    if (hunks[i] && hunks[i]->from)
      v[k++] = hunks[i], lines += hunks[i]->n;
  qsort(v, k, sizeof *v, hunk_order);
  aucs_buf b = {0};
  *map = aucs_xcalloc(lines + 2, sizeof(unsigned));
  unsigned nl = 0, pos = 1;
  for (size_t i = 0; i <= k; i++) {
    unsigned upto = i < k ? v[i]->from : (unsigned)t->n + 1;
    for (; pos < upto; pos++) {
      aucs_buf_printf(&b, "%.*s", (int)(t->start[pos] - t->start[pos - 1]),
                      t->data + t->start[pos - 1]);
      (*map)[++nl] = pos;
    }
    if (i == k)
      break;
    aucs_buf_puts(&b, v[i]->text.data ? v[i]->text.data : "");
    for (size_t j = 0; j < v[i]->n; j++)
      (*map)[++nl] = v[i]->origin[j];
    if (v[i]->to + 1 > pos)
      pos = v[i]->to + 1;
  }
  free(v);
  *nmap = nl;
  return b.data ? aucs_buf_take(&b) : aucs_xstrdup("");
}

/* The patched text of every exact edit of p. */
static char *patched(const text *t, const plan *p, unsigned **map,
                     size_t *nmap) {
  pt_hunk **v = aucs_xcalloc(p->n + 1, sizeof(pt_hunk *));
  for (size_t i = 0; i < p->n; i++)
    v[i] = p->exact[i] && !p->dup[i] ? &p->hunks[i] : NULL;
  char *now = apply(t, v, p->n, map, nmap);
  free(v);
  return now;
}

static int on_hunk(const git_diff_delta *d, const git_diff_hunk *h,
                   void *payload) {
  (void)d;
  aucs_buf_printf(payload, "%.*s", (int)h->header_len, h->header);
  return 0;
}

static int on_line(const git_diff_delta *d, const git_diff_hunk *h,
                   const git_diff_line *l, void *payload) {
  (void)d, (void)h;
  char o = l->origin;
  if (o == ' ' || o == '+' || o == '-')
    aucs_buf_printf(payload, "%c%.*s", o, (int)l->content_len, l->content);
  else if (o == GIT_DIFF_LINE_CONTEXT_EOFNL || o == GIT_DIFF_LINE_ADD_EOFNL ||
           o == GIT_DIFF_LINE_DEL_EOFNL)
    aucs_buf_puts(payload, "\n\\ No newline at end of file\n");
  return 0;
}

/* The input's path relative to the current directory when it is inside it,
 * else as given. Free with free(). */
static char *diff_path(const char *cu) {
  char *abs = realpath(cu, NULL), *cwd = getcwd(NULL, 0);
  char *rel = NULL;
  size_t n = cwd ? strlen(cwd) : 0;
  if (abs && cwd && !strncmp(abs, cwd, n) && abs[n] == '/')
    rel = aucs_xstrdup(abs + n + 1);
  free(abs);
  free(cwd);
  if (!rel)
    rel = aucs_xstrdup(strncmp(cu, "./", 2) ? cu : cu + 2);
  return rel;
}

static char *unified(const text *t, const char *now, const char *cu) {
  char *path = diff_path(cu);
  aucs_buf b = {0};
  aucs_buf_printf(&b, "--- a/%s\n+++ b/%s\n", path, path);
  git_diff_options o;
  git_libgit2_init();
  git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
  o.context_lines = 3;
  git_diff_buffers(t->data, t->len, path, now, strlen(now), path, &o, NULL,
                   NULL, on_hunk, on_line, &b);
  git_libgit2_shutdown();
  free(path);
  return aucs_buf_take(&b);
}

/* ---- step 4: the check ---------------------------------------------------*/

static unsigned item_line(const aucs_repair_item *it) {
  return loc_line(it->location);
}

static int is_order_bug(aucs_finding_kind k) {
  return k == AUCS_FINDING_RACE || k == AUCS_FINDING_INTER_BLOCK_RACE ||
         k == AUCS_FINDING_BARRIER_DIVERGENCE || k == AUCS_FINDING_SCOPE_RACE ||
         k == AUCS_FINDING_MISSING_FENCE;
}

/* Why finding f of the recompiled patch refuses it, or NULL: it is one
 * the IR repair fixed (the patch answers it, or it answers it only in the
 * IR), or a new race or divergence. One the repair left is no worse. */
static char *judge(const aucs_finding *f, const aucs_repair_result *r,
                   const plan *p, const unsigned *map, unsigned nlines) {
  unsigned now = f->a.instr ? aucs_srcloc_of(f->a.instr).line : 0;
  unsigned was = now && now <= nlines ? map[now] : 0;
  long fixed = -1;
  for (size_t i = 0; i < r->nitems; i++)
    if (r->items[i].kind == f->kind && was && item_line(&r->items[i]) == was) {
      if (r->items[i].outcome != AUCS_OUTCOME_FIXED)
        return NULL; /* one the repair left too */
      fixed = (long)i;
    }
  if (fixed >= 0 && p->addressed[fixed])
    return aucs_xasprintf("%s at line %u is still there",
                          aucs_finding_kind_name(f->kind), was);
  if (fixed >= 0)
    return aucs_xasprintf("%s at line %u, which the IR repair fixed, is "
                          "still there (an edit that fixes it is IR only)",
                          aucs_finding_kind_name(f->kind), was);
  return is_order_bug(f->kind)
             ? aucs_xasprintf("a new %s at line %u of the patched file",
                              aucs_finding_kind_name(f->kind), now)
             : NULL;
}

static char *verdict(const aucs_report *rep, const aucs_repair_result *r,
                     const plan *p, const unsigned *map, unsigned nlines,
                     int strict, size_t *count) {
  *count = 0;
  for (size_t k = 0; k < rep->nkernels; k++) {
    const aucs_report_kernel *rk = &rep->kernels[k];
    if (rk->status != AUCS_KERNEL_CHECKED)
      return aucs_xasprintf("kernel '%s' of the patched file could not be "
                            "checked: %s",
                            rk->demangled, rk->reason ? rk->reason : "");
    for (size_t i = 0; i < rk->findings.n; i++) {
      if (!aucs_finding_counts(&rk->findings.v[i], strict))
        continue; /* a warning: the repair does not act on it either */
      char *why = judge(&rk->findings.v[i], r, p, map, nlines);
      if (why)
        return why;
      ++*count;
    }
  }
  return NULL;
}

static int write_file(const char *path, const char *data) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return 1;
  size_t n = strlen(data);
  int bad = fwrite(data, 1, n, f) != n;
  return fclose(f) || bad;
}

/* Compile and detect the patched text; NULL when it passes (count in
 * *count), else why not. */
static char *check(const aucs_patch_options *o, const char *now,
                   const aucs_repair_result *r, const plan *p,
                   const unsigned *map, unsigned nlines, size_t *count) {
  const char *tmp = getenv("TMPDIR");
  char *dir =
      aucs_xasprintf("%s/aucs-patch-XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (!mkdtemp(dir)) {
    free(dir);
    return aucs_xstrdup("cannot make a temporary directory");
  }
  char *b1 = aucs_xstrdup(o->cu), *d1 = aucs_xstrdup(o->cu);
  char *file = aucs_xasprintf("%s/%s", dir, basename(b1));
  aucs_temp_track(dir, 1);
  aucs_temp_track(file, 0);
  char *inc = aucs_xasprintf("-I%s", dirname(d1));
  char *why = NULL;
  if (write_file(file, now))
    why = aucs_xasprintf("cannot write %s", file);
  aucs_load_options lo = o->load ? *o->load : (aucs_load_options){0};
  const char **args = aucs_xcalloc((size_t)lo.n_extra_args + 1, sizeof(char *));
  for (int i = 0; i < lo.n_extra_args; i++)
    args[i] = lo.extra_args[i];
  args[lo.n_extra_args] = inc;
  lo.extra_args = args;
  lo.n_extra_args++;
  aucs_module *mod = NULL;
  char *err = NULL;
  if (!why && aucs_module_load(file, &lo, &mod, &err))
    why = aucs_xasprintf("the patched file does not compile: %s", err);
  if (!why) {
    aucs_detect_options d = *o->detect;
    d.json = d.sarif = d.stats = d.possible = 0;
    d.command = NULL;
    d.input = file;
    d.cache = NULL;
    d.seed = (d.has_seed ? d.seed : 1) + 1;
    d.has_seed = 1;
    d.started = 0; /* a kernel's own budget, not the command's clock */
    LLVMValueRef *ks = NULL;
    size_t n = aucs_kernel_list(aucs_module_llvm(mod), &ks);
    aucs_report rep = {0};
    if (aucs_detect_run(aucs_module_llvm(mod), ks, n, &d, &rep, &err))
      why = aucs_xasprintf("the patched file cannot be detected: %s", err);
    else
      why = verdict(&rep, r, p, map, nlines, d.strict, count);
    if (!err)
      aucs_detect_report_free(&rep);
    free(ks);
  }
  free(err);
  aucs_module_free(mod);
  free(args);
  unlink(file);
  rmdir(dir);
  aucs_temp_forget(file);
  aucs_temp_forget(dir);
  free(file), free(inc), free(b1), free(d1), free(dir);
  return why;
}

/* ---- the whole ----------------------------------------------------------*/

/* The hunk of edit i alone (no file header), one line of context. */
static char *edit_hunk(const text *t, const plan *p, size_t i) {
  pt_hunk *one = &p->hunks[i];
  unsigned *map;
  size_t nmap;
  char *now = apply(t, &one, 1, &map, &nmap);
  aucs_buf b = {0};
  git_diff_options o;
  git_libgit2_init();
  git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
  o.context_lines = 1;
  git_diff_buffers(t->data, t->len, "a", now, strlen(now), "b", &o, NULL, NULL,
                   on_hunk, on_line, &b);
  git_libgit2_shutdown();
  free(map), free(now);
  return b.data ? aucs_buf_take(&b) : NULL;
}

/* Per edit: its hunk when checked, else "IR only: ..." (or NULL). */
static void per_edit(const aucs_repair_result *r, const text *t, const plan *p,
                     int checked, aucs_patch *out) {
  out->n = r->log.n;
  out->per_edit = aucs_xcalloc(out->n + 1, sizeof(char *));
  out->notes = aucs_xcalloc(out->n + 1, sizeof(char *));
  for (size_t i = 0; i < out->n; i++)
    if (p->exact[i] && p->notes[i] && !p->dup[i] && p->hunks[i].from)
      out->notes[i] = aucs_xstrdup(p->notes[i]);
  for (size_t i = 0; i < out->n; i++)
    if (!p->exact[i])
      out->per_edit[i] = aucs_xasprintf(
          "IR only: %s%s%s%s", p->why[i], p->notes[i] ? " (" : "",
          p->notes[i] ? p->notes[i] : "", p->notes[i] ? ")" : "");
    else if (p->exit_of[i] && !p->loop_of[i])
      out->per_edit[i] = aucs_xasprintf(
          "in the hunk of edit %zu (the `if` made a flag, with the loops "
          "inside it made uniform)",
          p->exit_of[i]);
    else if (p->flag_of[i])
      out->per_edit[i] = aucs_xasprintf(
          "in the hunk of edit %zu (the early `return` made an `active` "
          "flag, its `__syncthreads();` where the barrier went)",
          p->flag_of[i]);
    else if (p->loop_of[i])
      out->per_edit[i] =
          aucs_xstrdup("in the hunk of the loop made uniform (its `while "
                       "(__syncthreads_or(active))` rewrite)");
    else if (p->carried[i])
      out->per_edit[i] = aucs_xstrdup(
          "in the hunk of the flattened if/else (its `__syncthreads();` "
          "between the arms)");
    else if (!p->hunks[i].from && p->notes[i])
      out->per_edit[i] = aucs_xstrdup(p->notes[i]);
    else if (!p->hunks[i].from)
      out->per_edit[i] = aucs_xstrdup(
          "no change of its own: the helper's only call is inlined, so the "
          "edits made in the inlined copy edit the helper's source");
    else if (checked)
      out->per_edit[i] = edit_hunk(t, p, i);
}

/* The changes of every exact edit, in order of their lines. */
static void changes(const text *t, const plan *p, const aucs_repair_result *r,
                    aucs_patch *out) {
  pt_hunk **v = aucs_xcalloc(p->n + 1, sizeof(pt_hunk *));
  size_t k = 0;
  for (size_t i = 0; i < p->n; i++)
    if (p->exact[i] && !p->dup[i] && p->hunks[i].from)
      v[k++] = &p->hunks[i];
  qsort(v, k, sizeof *v, hunk_order);
  out->changes = aucs_xcalloc(k + 1, sizeof(aucs_patch_change));
  for (size_t i = 0; i < k; i++) {
    aucs_patch_change *c = &out->changes[out->nchanges++];
    c->line = v[i]->from;
    c->offset = t->start[v[i]->from - 1];
    c->length = v[i]->to >= v[i]->from ? t->start[v[i]->to] - c->offset : 0;
    c->text = aucs_xstrdup(v[i]->text.data ? v[i]->text.data : "");
  }
  free(v);
  out->nitems = r->nitems;
  out->addressed = aucs_xcalloc(r->nitems + 1, 1);
  memcpy(out->addressed, p->addressed, r->nitems);
}

static int build(const aucs_repair_result *r, const aucs_patch_options *o,
                 const text *t, plan *p, aucs_patch *out, aucs_buf *report) {
  unsigned *map;
  size_t nmap;
  char *now = patched(t, p, &map, &nmap);
  size_t count = 0;
  char *why = check(o, now, r, p, map, (unsigned)nmap, &count);
  if (why)
    aucs_buf_printf(report,
                    "aucs: source patch not written: its check "
                    "failed: %s\n",
                    why);
  else {
    aucs_buf_printf(report,
                    "aucs: source patch checked: recompiled, %zu "
                    "finding%s%s\n",
                    count, count == 1 ? "" : "s",
                    count ? " (none new, none the repair fixed)" : "");
    out->diff = unified(t, now, o->cu);
    changes(t, p, r, out);
  }
  p->failed = why;
  free(now);
  free(map);
  return out->diff != NULL;
}

/* Plan p and check its patch; 1 when out->diff may be written. */
static int attempt(const aucs_repair_result *r, const aucs_patch_options *o,
                   const text *t, const char *base, plan *p, aucs_patch *out,
                   aucs_buf *report) {
  plan_make(r, t, base, o->module, p, o->by_edit ? NULL : report);
  if (p->nchanged)
    return build(r, o, t, p, out, report);
  aucs_buf_printf(report, "aucs: source patch not written: %s\n",
                  r->log.n ? "no edit has an exact source form" : "no edit");
  return 0;
}

int aucs_patch_make(const aucs_repair_result *r, const aucs_patch_options *o,
                    aucs_patch *out, aucs_buf *report) {
  memset(out, 0, sizeof(*out));
  text t;
  if (pt_text_read(&t, o->cu)) {
    aucs_buf_printf(report, "aucs: source patch not written: cannot read %s\n",
                    o->cu);
    return 0;
  }
  char *b = aucs_xstrdup(o->cu);
  plan p = {0};
  aucs_buf first = {0};
  int ok = attempt(r, o, &t, basename(b), &p, out, &first);
  if (!ok && p.nentry && p.failed) {
    /* A loop taken as entered by every thread: without that, again. */
    aucs_buf_printf(report,
                    "aucs: source patch with %zu loop%s taken as entered by "
                    "every thread failed its check (%s); again without\n",
                    p.nentry, p.nentry == 1 ? "" : "s", p.failed);
    plan_free(&p);
    p = (plan){.no_entry = 1};
    aucs_buf_free(&first);
    ok = attempt(r, o, &t, basename(b), &p, out, &first);
  }
  if (!ok && p.nloops && p.failed) {
    /* The loops' rewrite is checked with the rest: without it, again. */
    aucs_buf_printf(report,
                    "aucs: source patch with %zu loop%s rewritten failed "
                    "its check (%s); %s IR only\n",
                    p.nloops, p.nloops == 1 ? "" : "s", p.failed,
                    p.nloops == 1 ? "the loop stays" : "the loops stay");
    plan_free(&p);
    p = (plan){.no_loops = 1};
    ok = attempt(r, o, &t, basename(b), &p, out, report);
  } else
    aucs_buf_puts(report, first.data ? first.data : "");
  aucs_buf_free(&first);
  per_edit(r, &t, &p, ok, out);
  plan_free(&p);
  free(b);
  pt_text_free(&t);
  return ok;
}

void aucs_patch_free(aucs_patch *p) {
  for (size_t i = 0; i < p->n; i++) {
    free(p->per_edit[i]);
    free(p->notes[i]);
  }
  free(p->per_edit);
  free(p->notes);
  free(p->diff);
  for (size_t i = 0; i < p->nchanges; i++)
    free(p->changes[i].text);
  free(p->changes);
  free(p->addressed);
  memset(p, 0, sizeof(*p));
}

int aucs_patch_write(const aucs_patch *p, const char *to, aucs_buf *out,
                     aucs_buf *diag) {
  if (!p->diff)
    return 0;
  if (!strcmp(to, "-")) {
    aucs_buf_puts(out, p->diff);
    return 0;
  }
  char *err;
  if (aucs_write_file(to, p->diff, strlen(p->diff), &err)) {
    aucs_buf_printf(diag, "aucs: error: source patch: %s\n", err);
    free(err);
    return 1;
  }
  aucs_buf_printf(diag, "aucs: source patch written to %s\n", to);
  return 0;
}
