/*
 * patch_shared: the source form of a barrier the repair put before a
 * statement of a __device__ helper that several copies of the module are
 * built from: the helper inlined at several calls, still called out of
 * line elsewhere, or a template with several instances (patch_helper.c,
 * `fix --patch`).
 *
 * `__syncthreads();` in the helper's body puts a barrier into every copy,
 * so it is exact only when every copy can take one:
 *   1. Gather the copies of the statement's line: per function a kernel
 *      reaches (pt_live), per inlined-at location (NULL: the function's
 *      own code).
 *   2. A copy where the repair put a barrier right before the statement
 *      (the next located instruction after a barrier is on that line, in
 *      that copy) is fine.
 *   3. Every other copy must lie in uniform blocks (uniform.h) of its
 *      function and, when that function is not a kernel, every live call
 *      of it too, up its callers: otherwise the helper's edit would put a
 *      barrier where not every thread of the block reaches it, and the
 *      edit stays IR only, naming the call.
 *   4. The hunk is the insert form (pt_form_insert), or for a barrier
 *      after an access of the statement the split form (pt_form_split);
 *      its note names the helper, every call, and the calls whose copy
 *      the IR repair left without a barrier. The patch check (patch.c)
 *      then recompiles the patched file and detects again: that is what
 *      proves the edit.
 *
 * Limitation: a barrier that ends a loop body or tops a loop header in a
 * shared statement stays IR only. Uniformity inside an
 * out-of-line helper takes its arguments as uniform: a loop bounded by a
 * thread-varying argument is left to the patch check.
 */
#include "patch_impl.h"

#include "aucs/cfg.h"
#include "aucs/kernel.h"
#include "aucs/place.h"
#include "aucs/srcloc.h"
#include "aucs/uniform.h"

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include <stdlib.h>
#include <string.h>

typedef struct copy {
  LLVMValueRef fn;
  LLVMMetadataRef at; /* inlined-at location; NULL: fn's own code */
  int barred;         /* the repair put the barrier before it */
  int divergent;      /* a block of it is not uniform in fn */
} copy;

typedef struct copies {
  copy *v;
  size_t n, cap;
} copies;

static copy *copy_of(copies *c, LLVMValueRef fn, LLVMMetadataRef at) {
  for (size_t i = 0; i < c->n; i++)
    if (c->v[i].fn == fn && c->v[i].at == at)
      return &c->v[i];
  if (c->n == c->cap) {
    c->cap = c->cap ? 2 * c->cap : 8;
    c->v = aucs_xrealloc(c->v, c->cap * sizeof(copy));
  }
  c->v[c->n] = (copy){.fn = fn, .at = at};
  return &c->v[c->n++];
}

/* Whether I is on line `line` of this file; its copy in *at. */
static int on_line(LLVMValueRef I, unsigned line, const char *base,
                   LLVMMetadataRef *at) {
  return pt_located(I) && pt_inner_line(I, base, at) == line;
}

/* Step 1 and 2 for fn. */
static void gather(copies *c, LLVMValueRef fn, unsigned line,
                   const char *base) {
  LLVMMetadataRef at;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b;
       b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef I = LLVMGetFirstInstruction(b); I;
         I = LLVMGetNextInstruction(I)) {
      if (on_line(I, line, base, &at))
        copy_of(c, fn, at);
      LLVMValueRef next = aucs_place_is_barrier_call(I)
                              ? aucs_place_next_where(I, pt_located)
                              : NULL;
      if (next && on_line(next, line, base, &at))
        copy_of(c, fn, at)->barred = 1;
    }
}

/* Step 3 inside fn: copies of fn without a barrier in divergent blocks. */
static void mark_divergent(copies *c, size_t from, LLVMValueRef fn,
                           unsigned line, const char *base) {
  aucs_cfg *cfg = aucs_cfg_build(fn);
  aucs_uniformity *u = aucs_uniform_compute(cfg);
  LLVMMetadataRef at;
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b;
       b = LLVMGetNextBasicBlock(b)) {
    int uniform = aucs_uniform_block(u, aucs_cfg_index(cfg, b));
    for (LLVMValueRef I = LLVMGetFirstInstruction(b); I && !uniform;
         I = LLVMGetNextInstruction(I))
      for (size_t k = from; k < c->n && on_line(I, line, base, &at); k++)
        c->v[k].divergent |= c->v[k].at == at && !c->v[k].barred;
  }
  aucs_uniform_free(u);
  aucs_cfg_free(cfg);
}

static int call_in(LLVMValueRef user, LLVMValueRef fn) {
  return LLVMIsACallInst(user) && LLVMGetCalledValue(user) == fn &&
         pt_live(LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)));
}

/* A live call of fn in a divergent block or a function (up the callers)
 * whose call is; NULL when none. */
static LLVMValueRef divergent_call(LLVMValueRef fn, int depth) {
  if (aucs_kernel_is(fn))
    return NULL;
  for (LLVMUseRef use = LLVMGetFirstUse(fn); use; use = LLVMGetNextUse(use)) {
    LLVMValueRef call = LLVMGetUser(use);
    if (!call_in(call, fn))
      continue;
    LLVMBasicBlockRef bb = LLVMGetInstructionParent(call);
    LLVMValueRef caller = LLVMGetBasicBlockParent(bb);
    aucs_cfg *cfg = aucs_cfg_build(caller);
    aucs_uniformity *u = aucs_uniform_compute(cfg);
    int uniform = aucs_uniform_block(u, aucs_cfg_index(cfg, bb));
    aucs_uniform_free(u);
    aucs_cfg_free(cfg);
    LLVMValueRef up =
        !uniform || depth > 8 ? call : divergent_call(caller, depth + 1);
    if (up)
      return up;
  }
  return NULL;
}

static int in_file(LLVMMetadataRef loc, const char *base) {
  LLVMMetadataRef file = LLVMDIScopeGetFile(LLVMDILocationGetScope(loc));
  unsigned len = 0;
  const char *name = file ? LLVMDIFileGetFilename(file, &len) : NULL;
  size_t leaf = 0;
  for (unsigned i = 0; name && i < len; i++)
    if (name[i] == '/')
      leaf = i + 1;
  return name && len - leaf == strlen(base) &&
         !strncmp(name + leaf, base, len - leaf);
}

/* The line of the call a copy was inlined at (the innermost one in this
 * file), else of instruction I in this file; 0 when none. */
static unsigned call_line(LLVMMetadataRef at, LLVMValueRef I,
                          const char *base) {
  for (; at; at = LLVMDILocationGetInlinedAt(at))
    if (in_file(at, base))
      return LLVMDILocationGetLine(at);
  return I ? pt_inner_line(I, base, NULL) : 0;
}

/* ---- the note ------------------------------------------------------------*/

/* The source name of the helper next's statement belongs to (copy at),
 * without template arguments; "" when unknown. */
static void helper_name(LLVMModuleRef m, LLVMValueRef next, LLVMMetadataRef at,
                        aucs_buf *out) {
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(next);
  while (loc && LLVMDILocationGetInlinedAt(loc) != at)
    loc = LLVMDILocationGetInlinedAt(loc);
  unsigned len = 0;
  const char *name =
      loc ? aucs_srcloc_scope_name(LLVMGetModuleContext(m),
                                   LLVMDILocationGetScope(loc), &len)
          : NULL;
  unsigned n = 0;
  while (name && n < len && name[n] != '<')
    n++;
  if (name)
    aucs_buf_printf(out, " %.*s", (int)n, name);
}

static int by_line(const void *x, const void *y) {
  unsigned a = *(const unsigned *)x, b = *(const unsigned *)y;
  return (a > b) - (a < b);
}

/* The lines of the calls of copies (barred == want, or every copy when
 * want < 0), sorted, without repeats, as " FILE:L, FILE:L". */
static size_t calls(const copies *c, int want, const char *base,
                    aucs_buf *out) {
  size_t n = 0, k = 0, cap = c->n + 8;
  unsigned *v = aucs_xcalloc(cap, sizeof(unsigned));
  for (size_t i = 0; i < c->n; i++) {
    const copy *y = &c->v[i];
    if (want >= 0 && y->barred != want)
      continue;
    if (y->at) {
      v[n++] = call_line(y->at, NULL, base);
      continue;
    }
    for (LLVMUseRef u = LLVMGetFirstUse(y->fn); u; u = LLVMGetNextUse(u)) {
      if (!call_in(LLVMGetUser(u), y->fn))
        continue;
      if (n + 1 >= cap)
        v = aucs_xrealloc(v, (cap *= 2) * sizeof(unsigned));
      v[n++] = call_line(NULL, LLVMGetUser(u), base);
    }
  }
  qsort(v, n, sizeof *v, by_line);
  for (size_t i = 0; i < n; i++)
    if (v[i] && (!i || v[i] != v[i - 1]))
      aucs_buf_printf(out, "%s%s:%u", k++ ? ", " : " ", base, v[i]);
  free(v);
  return k;
}

static void note(const copies *c, LLVMModuleRef m, LLVMValueRef next,
                 LLVMMetadataRef at, unsigned line, int split, const char *base,
                 pt_hunk *h) {
  aucs_buf b = {0};
  aucs_buf_puts(&b, split ? "split the statement of helper"
                          : "insert __syncthreads(); in helper");
  helper_name(m, next, at, &b);
  aucs_buf_printf(&b,
                  split ? " at %s:%u through a temporary, with "
                          "__syncthreads(); inside (every call:"
                        : " before %s:%u (every call:",
                  base, line);
  calls(c, -1, base, &b);
  aucs_buf_puts(&b, ")");
  int open = 0;
  for (size_t i = 0; i < c->n; i++)
    open |= !c->v[i].barred;
  if (open) {
    aucs_buf_puts(&b, "; the IR repair put it only in the call at");
    calls(c, 1, base, &b);
    aucs_buf_puts(&b, ", the patch also in the call at");
    calls(c, 0, base, &b);
    aucs_buf_puts(&b, " (uniform code)");
  }
  h->note = aucs_buf_take(&b);
}

/* ---- the whole
 * -------------------------------------------------------------*/

/* Steps 1-3: the copy of line that cannot take a barrier, or NULL; in
 * *call the divergent call that makes it so, when the copy itself is in
 * uniform code of a function called there. */
static const copy *refused(copies *c, LLVMModuleRef m, unsigned line,
                           const char *base, LLVMValueRef *call) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
       f = LLVMGetNextFunction(f)) {
    if (!LLVMCountBasicBlocks(f) || !pt_live(f))
      continue;
    size_t from = c->n;
    gather(c, f, line, base);
    int open = 0;
    for (size_t k = from; k < c->n; k++)
      open |= !c->v[k].barred;
    if (open)
      mark_divergent(c, from, f, line, base);
    for (size_t k = from; k < c->n; k++)
      if (c->v[k].divergent ||
          (!c->v[k].barred && (*call = divergent_call(f, 0))))
        return &c->v[k];
  }
  return NULL;
}

const char *pt_form_shared(const pt_text *t, LLVMModuleRef m, LLVMValueRef bar,
                           const char *base, unsigned before, pt_names *names,
                           pt_hunk *h) {
  LLVMValueRef next = aucs_place_next_where(bar, pt_located), call = NULL;
  LLVMMetadataRef at = NULL;
  unsigned line = pt_inner_line(next, base, &at);
  copies c = {0};
  const copy *bad = refused(&c, m, line, base, &call);
  const char *why = NULL;
  if (bad) {
    unsigned l =
        call ? call_line(NULL, call, base) : call_line(bad->at, NULL, base);
    h->note = l ? aucs_xasprintf("the call at %s:%u builds %s:%u into "
                                 "divergent code",
                                 base, l, base, line)
                : aucs_xasprintf("%s:%u sits in code of the out-of-line "
                                 "helper that not every thread reaches",
                                 base, line);
    why = "the barrier sits in a __device__ helper whose statement is also "
          "built into a call in divergent code: its source edit would put a "
          "barrier there that not every thread reaches";
  } else if (!(why = before ? pt_form_insert(t, before, h)
                            : pt_form_split(t, line, bar, names, h))) {
    note(&c, m, next, at, line, !before, base, h);
    h->every_call = 1;
  }
  free(c.v);
  return why;
}
