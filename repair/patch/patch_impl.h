/*
 * patch_impl: what patch.c (the checked source patch) and
 * patch_forms.c (the source form of each kind of edit) share: the
 * source text split into lines with its brace depths, and a hunk (lines
 * replaced by new ones, each new line remembering the line it copies).
 * Private to repair/patch/ (and its unit test,
 * tests/test_patch_loop.c); the prefix is `pt_`.
 */
#ifndef AUCS_PATCH_IMPL_H
#define AUCS_PATCH_IMPL_H

#include "aucs/editlog.h"
#include "aucs/util.h"
#include <llvm-c/Types.h>
#include <stddef.h>

typedef struct pt_text {
  char *data;
  size_t len;
  size_t *start; /* start[i]: offset of line i + 1 (1-based lines) */
  size_t n;      /* lines */
  int *depth;    /* depth[l]: braces open at the start of line l */
  int *shut;     /* shut[l]: the least depth reached inside line l */
  char *code;    /* data with its comments blanked out */
} pt_text;

int pt_text_read(pt_text *t, const char *path);
void pt_text_free(pt_text *t);
/* Line l (1-based) without its indentation, line end or `//` comment. */
const char *pt_trimmed(const pt_text *t, size_t l, size_t *len);
/* The indentation of line l, in *len. */
const char *pt_indent(const pt_text *t, size_t l, size_t *len);
/* Whether trimmed line l is exactly `s`. */
int pt_line_is(const pt_text *t, size_t l, const char *s);

/* Lines from..to (1-based, inclusive; to == from - 1: none, an insertion
 * before `from`) replaced by n new lines. origin[i]: the line new line i
 * copies (findings of the recompiled patch on it map back there), 0 for a
 * line of its own. */
typedef struct pt_hunk {
  unsigned from, to;
  aucs_buf text; /* the new lines, each ending in '\n' */
  unsigned *origin;
  size_t n, cap;
  char *note;     /* the edit in CUDA terms, or the detail of why it has
                     no form; NULL when none (patch.c prints it) */
  int every_call; /* it edits a helper statement every call shares */
} pt_hunk;

void pt_hunk_line(pt_hunk *h, unsigned origin, const char *fmt, ...)
    AUCS_PRINTF(3, 4);
/* Copy line l of t as it is, with `extra` before it when not blank. */
void pt_hunk_copy(pt_hunk *h, const pt_text *t, unsigned l, const char *extra);
void pt_hunk_free(pt_hunk *h);

/* Names the patch declares, so two forms never declare the same one and
 * none shadows a word of the file. */
typedef struct pt_names {
  const pt_text *t;
  aucs_buf used; /* " name name " */
} pt_names;
/* A fresh identifier starting with base. Free with free(). */
char *pt_fresh(pt_names *names, const char *base);

/* The source form of edit e (its source line in `line`, the line of the
 * IR instruction after it in `next`, its barrier `bar` in the repaired
 * module or NULL) into *h: NULL, or why it has none (static text). */
const char *pt_form_insert(const pt_text *t, unsigned line, pt_hunk *h);
const char *pt_form_after(const pt_text *t, unsigned line, unsigned next,
                          pt_hunk *h);
/* `__threadfence();` before line `line`, under the rule of a barrier. */
const char *pt_form_fence(const pt_text *t, unsigned line, pt_hunk *h);
const char *pt_form_delete(const pt_text *t, unsigned line, pt_hunk *h);
const char *pt_form_split(const pt_text *t, unsigned line, LLVMValueRef bar,
                          pt_names *names, pt_hunk *h);
/* patch_split.c: a barrier between the reads of A and B in one-line
 * `x = A op B;` (or a declaration): `auto val = A; __syncthreads();
 * x = val op B;`. */
const char *pt_form_split_reads(const pt_text *t, unsigned line,
                                LLVMValueRef bar, pt_names *names, pt_hunk *h);
/* patch_warp.c: an insert-warp-sync edit read as an insert-barrier one
 * (its strings respelt; free them with pt_warp_barrier_free), and the new
 * lines of the hunk its form made spelt `__syncwarp();` again. */
aucs_edit pt_warp_as_barrier(const aucs_edit *e);
void pt_warp_barrier_free(aucs_edit *b);
void pt_warp_respell(pt_hunk *h);
/* A step `LHS op= RHS;` split by the edit's __syncwarp (or the one after
 * its write): 1 with *why (NULL: *h made); 0 when e is no such edit. */
int pt_form_warp(const aucs_edit *e, const pt_text *t, const char *base,
                 LLVMModuleRef m, pt_hunk *h, const char **why);
/* I is a load, store, call or atomic: something that may touch memory
 * (patch_forms.c). */
int pt_touches_memory(LLVMValueRef I);
/* Whether line l begins and ends one simple statement; whether s[0..n)
 * has no call, assignment, `++`/`--` or comma (patch_forms.c). */
int pt_one_statement(const pt_text *t, size_t l);
int pt_side_effect_free(const char *s, size_t n);
const char *pt_form_exit(const pt_text *t, unsigned line, pt_names *names,
                         pt_hunk *h);
/* The exit form with loops made uniform inside its guarded code: at the
 * guarded code's level, uniform(arg, L) says the loop headed at line L
 * is one, loop(arg, L, guard, h) writes its rewrite under `guard` into h
 * (NULL, or why not), deleted(arg, L) that the repair deleted the
 * `__syncthreads();` line L (it is left out). */
typedef struct pt_exit_ctx {
  int (*uniform)(void *arg, size_t head);
  const char *(*loop)(void *arg, size_t head, const char *guard, pt_hunk *h);
  int (*deleted)(void *arg, size_t line);
  void *arg;
  int need_return; /* only the early-return form */
  /* Optional: whether the repair put a barrier before line L of the
   * guarded code (a flattened region's barrier, not in the source). */
  int (*before)(void *arg, size_t line);
  /* Optional: whether the one-line statement L at the guarded code's level
   * calls a helper that takes the flag (patch_active.c); call_form writes
   * it, unguarded, passing `guard`, into h. */
  int (*call)(void *arg, size_t line);
  const char *(*call_form)(void *arg, size_t line, const char *guard,
                           pt_hunk *h);
} pt_exit_ctx;
/* Lines from..to (at the depth of the first nonblank one) cut at their
 * barrier lines, loops and calls of cx as in the exit form, each run in
 * `if (guard) { ... }`, appended to h; declarations used up to line
 * uses_to (0: to) hoisted. */
const char *pt_form_guarded(const pt_text *t, size_t from, size_t to,
                            size_t uses_to, const char *guard,
                            const pt_exit_ctx *cx, pt_hunk *h);
const char *pt_form_exit_in(const pt_text *t, unsigned line, pt_names *names,
                            const pt_exit_ctx *cx, pt_hunk *h);
/* A flattened if/else holding line `line`, with the barrier the repair put
 * before its else arm: `bool cond = C; if (cond) A; __syncthreads();
 * if (!cond) B;`. */
const char *pt_form_if_else(const pt_text *t, unsigned line, pt_names *names,
                            pt_hunk *h);

/* For the loop form (patch_loop.c): from patch_forms.c, whether `w` is a
 * whole word of s[0..n), the nonblank line below l (0: none), the line
 * closing the block line l opens (0: none); from patch.c, the line of e's
 * source location in base's file (0: elsewhere), and the line of its
 * source edit "PREFIX FILE:LINE" (0: another prefix or file). */
int pt_has_word(const char *s, size_t n, const char *w);
/* The head `T... name` of a declaration in s[0..n) (patch_forms.c): the
 * number of words, the last one's offset and length (blanks and `*`, with
 * refs also `&`, between them); returns the offset after the head and the
 * blanks that follow it. */
size_t pt_decl_head(const char *s, size_t n, int refs, size_t *words,
                    size_t *last, size_t *last_len);
size_t pt_below(const pt_text *t, size_t l);
size_t pt_block_end(const pt_text *t, size_t l);
/* The last line of the loop headed at l: its braced body's `}` line, or
 * the one-line body of a braceless `for`/`while`; 0 when neither. */
size_t pt_loop_end(const pt_text *t, size_t l);
/* Line l as one compound assignment `LHS OP= RHS;` (or `LHS++;`: OP "+",
 * RHS "1") on one line, LHS a name or an element, no call or other side
 * effect: 1 and its parts in *a. */
typedef struct pt_assign {
  const char *lhs, *rhs, *op;
  size_t lhs_len, rhs_len, op_len;
} pt_assign;
int pt_compound(const pt_text *t, size_t l, pt_assign *a);
/* Line l as one plain assignment `LHS = RHS;` on one line (op_len 0), the
 * same rules as pt_compound's. */
int pt_plain_assign(const pt_text *t, size_t l, pt_assign *a);
/* The instruction of function fn in m whose !aucs.id is id, or NULL. */
LLVMValueRef pt_by_id(LLVMModuleRef m, const char *fn, unsigned id);
unsigned pt_edit_line(const aucs_edit *e, const char *base);
unsigned pt_edit_at(const aucs_edit *e, const char *prefix, const char *base);
/* Uniformize-loop edit i of log, at a loop of this file, rewritten as
 * `bool active = COND; while (__syncthreads_or(active)) { if (active) {..}
 * }` with the barriers the log leaves in it; carry[k] = 1 for each other
 * edit of log its hunk holds (log->n entries, zeroed by the caller). */
const char *pt_form_loop(const pt_text *t, const aucs_editlog *log, size_t i,
                         const char *base, LLVMModuleRef m, pt_names *names,
                         pt_hunk *h, unsigned char *carry);
/* The same for a loop inside code guarded by `guard` (an early return
 * made a flag, patch_forms.c): the flag starts as `guard && (COND)`; INIT
 * must be a declaration every thread may run. */
const char *pt_form_loop_under(const pt_text *t, const aucs_editlog *log,
                               size_t i, const char *base, LLVMModuleRef m,
                               pt_names *names, const char *guard, pt_hunk *h,
                               unsigned char *carry);
/* A loop the repair made uniform inside a region it flattened around it
 * whose only divergence is the exit of the loop just above it (the line
 * of that loop's header: pt_after_loop, 0 when the text shows another
 * shape): the plain form of pt_form_loop, the flag starting as COND; the
 * patch's check decides (patch.c retries without it). */
size_t pt_after_loop(const pt_text *t, size_t head);
const char *pt_form_loop_entry(const pt_text *t, const aucs_editlog *log,
                               size_t i, const char *base, LLVMModuleRef m,
                               pt_names *names, pt_hunk *h,
                               unsigned char *carry);
/* repair/patch/patch_helper.c: whether barrier `bar` precedes code inlined from
 * a helper, and then its form in the helper's body (m: the repaired
 * module, base: this file's basename). */
int pt_in_helper(LLVMValueRef bar, const char *base);
const char *pt_form_helper(const pt_text *t, LLVMModuleRef m,
                           LLVMValueRef bar, const char *base, pt_names *names,
                           pt_hunk *h);
/* patch_helper.c: whether I carries a source line (and is no barrier);
 * the line of I's innermost location in this file (0: none), its
 * inlined-at location in *at (may be NULL). */
int pt_located(LLVMValueRef I);
unsigned pt_inner_line(LLVMValueRef I, const char *base, LLVMMetadataRef *at);
/* repair/patch/patch_shared.c: `__syncthreads();` before line `before`, the
 * start of the helper statement that barrier `bar` precedes (0: the split
 * form of the statement it sits in), when that statement is built into
 * several copies (calls, instances) and every one has the barrier or is
 * uniform; h->note says it in CUDA terms (or which call refuses it). */
const char *pt_form_shared(const pt_text *t, LLVMModuleRef m, LLVMValueRef bar,
                           const char *base, unsigned before, pt_names *names,
                           pt_hunk *h);
/* A barrier at the top of a loop's header (before its condition, on every
 * visit): `__syncthreads();` before the loop at line l and at the end of
 * its braced body (patch_forms.c). pt_loop_top (patch_helper.c): 0 when
 * bar is not at the top of a loop header, 1 when it is and every other
 * instruction of line l (initialisation, increment) and those above it in
 * the header commute with a barrier, -1 when it is and they do not. */
const char *pt_form_loop_top(const pt_text *t, unsigned l, pt_hunk *h);
int pt_loop_top(LLVMValueRef bar, unsigned l);
/* Lines from..to of the statement holding line l; 0 when unclear. */
int pt_statement_lines(const pt_text *t, size_t l, size_t *from, size_t *to);
/* Whether f is a kernel or reached from one through calls: code only dead
 * out-of-line copies hold does not count as another use of a helper. */
int pt_live(LLVMValueRef f);
/* A barrier inside the statement at line l of the copy inlined at `at`
 * (NULL: the function's own code), with nothing before it in that
 * statement that another thread could see: before the statement. */
const char *pt_form_inside(const pt_text *t, LLVMValueRef bar, unsigned l,
                           LLVMMetadataRef at, const char *base, pt_hunk *h);

/* repair/patch/patch_atomic.c: make-atomic edit e as the CUDA call replacing its
 * `x++;` / `x OP= y;` line. */
const char *pt_form_atomic(const aucs_edit *e, const pt_text *t,
                           const char *base, pt_hunk *h);

/* patch.c: the helper inline-call edit e inlined (NULL: not in m), and
 * in *others whether calls of it are left in code a kernel reaches. */
LLVMValueRef pt_called(const aucs_edit *e, LLVMModuleRef m, int *others);
/* repair/patch/patch_active.c: whether inline-call edit k inlined a helper of
 * this file whose loop the repair made uniform (a kernel's early return
 * made it divergent); then its form: the call line with `guard` passed
 * last (into call) and the helper taking it as a new parameter (a copy
 * `NAME_active` of it when it has other calls), its body's runs guarded
 * by it, its loops under it by cx (into helper, with a note). NULL, or
 * why not. pt_active_call: the helper's header line (0: none), its `}`
 * line in *end. */
unsigned pt_active_call(const pt_text *t, const aucs_editlog *log, size_t k,
                        const char *base, LLVMModuleRef m, size_t *end);
const char *pt_form_active(const pt_text *t, const aucs_editlog *log, size_t k,
                           const char *base, LLVMModuleRef m, pt_names *names,
                           const char *guard, const pt_exit_ctx *cx,
                           pt_hunk *call, pt_hunk *helper);

#endif
