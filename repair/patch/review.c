/*
 * review: the repair as an annotated unified diff (`aucs fix --review`).
 *
 * Steps:
 *   1. Before the repair, print every defined function (llvm-dis text) and
 *      normalise it: debug records dropped, metadata attachments (`!dbg`,
 *      `!aucs.id`, ...) cut, so renumbered metadata never shows as a change.
 *      Record on which line each instruction with a stable id sits.
 *   2. After it, the same for the functions again; libgit2's
 *      git_diff_buffers gives the hunks (3 lines of context).
 *   3. Each edit of the log finds its line: an inserted barrier, a split
 *      or a flattened region by an id in the new text; a deleted barrier or
 *      an inlined call by its id in the old text. The hunk holding that line
 *      is preceded by `#` lines: the edit, the finding it answers, and the
 *      source edit or why the change needed restructuring.
 *   4. Then what the source patch's check said (`# source patch checked:
 *      recompiled, 0 findings`), and one `#` line per finding: fixed (by
 *      which edits), unfixable (why, and what to do instead), or not fixed
 *      (why). The review is the whole story, in order, on one stream: the
 *      caller prints only the summary line beside it.
 *
 * Limitation: functions are compared by name; a function the repair made
 * (none today) would not be shown.
 */
#include "aucs/review.h"

#include <git2.h>
#include <llvm-c/Core.h>
#include <stdlib.h>
#include <string.h>

/* One function's normalised IR and where its ids sit. */
typedef struct fn_text {
  char *name;
  char *text;
  unsigned *ids; /* ids[i] sits on line lines[i] (1-based) */
  int *lines;
  size_t nids;
} fn_text;

struct aucs_review {
  fn_text *fns;
  size_t n;
};

/* ---- normalised IR ------------------------------------------------------*/

static int ident(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
         c == '.' || (c >= '0' && c <= '9');
}

/* Length of a metadata attachment " !name !N" or ", !name !N" at s, or 0. */
static size_t attachment(const char *s) {
  const char *p = s;
  if (*p == ',')
    p++;
  if (*p != ' ' || p[1] != '!' || !ident(p[2]) || (p[2] >= '0' && p[2] <= '9'))
    return 0;
  p += 2;
  while (ident(*p))
    p++;
  if (p[0] != ' ' || p[1] != '!' || p[2] < '0' || p[2] > '9')
    return 0;
  p += 2;
  while (*p >= '0' && *p <= '9')
    p++;
  return (size_t)(p - s);
}

static void put_line(aucs_buf *out, const char *s, size_t len) {
  for (size_t i = 0; i < len;) {
    size_t a = attachment(s + i);
    if (a && i + a <= len) {
      i += a;
      continue;
    }
    aucs_buf_printf(out, "%c", s[i++]);
  }
  aucs_buf_puts(out, "\n");
}

/* An instruction's first line: two spaces, then not a space, not "]". */
static int instruction_line(const char *s, size_t len) {
  return len > 2 && s[0] == ' ' && s[1] == ' ' && s[2] != ' ' &&
         !(len == 3 && s[2] == ']');
}

static int debug_record(const char *s, size_t len) {
  size_t i = 0;
  while (i < len && s[i] == ' ')
    i++;
  return len - i > 4 && !strncmp(s + i, "#dbg", 4);
}

static void fn_text_make(fn_text *f, LLVMValueRef fn) {
  size_t len;
  memset(f, 0, sizeof(*f));
  f->name = aucs_xstrdup(LLVMGetValueName2(fn, &len));
  size_t n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I))
      n++;
  LLVMValueRef *insts = aucs_xcalloc(n + 1, sizeof(*insts));
  n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I))
      insts[n++] = I;
  f->ids = aucs_xcalloc(n + 1, sizeof(*f->ids));
  f->lines = aucs_xcalloc(n + 1, sizeof(*f->lines));
  char *raw = LLVMPrintValueToString(fn);
  aucs_buf out = {0};
  size_t k = 0;
  int line = 0;
  for (const char *s = raw; *s;) {
    const char *e = strchr(s, '\n');
    size_t l = e ? (size_t)(e - s) : strlen(s);
    if (!debug_record(s, l)) {
      line++;
      if (instruction_line(s, l) && k < n) {
        unsigned id = aucs_repair_id(insts[k++]);
        if (id) {
          f->ids[f->nids] = id;
          f->lines[f->nids++] = line;
        }
      }
      put_line(&out, s, l);
    }
    s += l + (e != NULL);
  }
  LLVMDisposeMessage(raw);
  free(insts);
  f->text = aucs_buf_take(&out);
}

static void fn_text_free(fn_text *f) {
  free(f->name);
  free(f->text);
  free(f->ids);
  free(f->lines);
}

static int line_of_id(const fn_text *f, unsigned id) {
  for (size_t i = 0; id && i < f->nids; i++)
    if (f->ids[i] == id)
      return f->lines[i];
  return 0;
}

aucs_review *aucs_review_begin(LLVMModuleRef m) {
  aucs_review *rv = aucs_xcalloc(1, sizeof(*rv));
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn;
       fn = LLVMGetNextFunction(fn))
    if (LLVMCountBasicBlocks(fn)) {
      rv->fns = aucs_xrealloc(rv->fns, (rv->n + 1) * sizeof(*rv->fns));
      fn_text_make(&rv->fns[rv->n++], fn);
    }
  return rv;
}

void aucs_review_free(aucs_review *rv) {
  if (!rv)
    return;
  for (size_t i = 0; i < rv->n; i++)
    fn_text_free(&rv->fns[i]);
  free(rv->fns);
  free(rv);
}

/* ---- hunks --------------------------------------------------------------*/

typedef struct hunk {
  int old_start, old_lines, new_start, new_lines;
  aucs_buf header, body;
} hunk;

typedef struct hunks {
  hunk *v;
  size_t n;
} hunks;

static int on_hunk(const git_diff_delta *d, const git_diff_hunk *h,
                   void *payload) {
  (void)d;
  hunks *hs = payload;
  hs->v = aucs_xrealloc(hs->v, (hs->n + 1) * sizeof(*hs->v));
  hunk *x = &hs->v[hs->n++];
  memset(x, 0, sizeof(*x));
  x->old_start = h->old_start;
  x->old_lines = h->old_lines;
  x->new_start = h->new_start;
  x->new_lines = h->new_lines;
  aucs_buf_printf(&x->header, "%.*s", (int)h->header_len, h->header);
  return 0;
}

static int on_line(const git_diff_delta *d, const git_diff_hunk *h,
                   const git_diff_line *l, void *payload) {
  (void)d, (void)h;
  hunks *hs = payload;
  if (!hs->n)
    return 0;
  char origin = l->origin;
  if (origin != ' ' && origin != '+' && origin != '-')
    return 0;
  aucs_buf_printf(&hs->v[hs->n - 1].body, "%c%.*s", origin, (int)l->content_len,
                  l->content);
  return 0;
}

static void diff(const fn_text *a, const fn_text *b, hunks *out) {
  git_diff_options o;
  git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
  o.context_lines = 3;
  git_diff_buffers(a->text, strlen(a->text), "a", b->text, strlen(b->text), "b",
                   &o, NULL, NULL, on_hunk, on_line, out);
}

/* ---- annotations --------------------------------------------------------*/

static int in_hunk(const hunk *h, const fn_text *a, const fn_text *b,
                   const aucs_edit *e) {
  int before =
      e->kind == AUCS_EDIT_DELETE_BARRIER || e->kind == AUCS_EDIT_INLINE_CALL;
  int line = before ? line_of_id(a, e->id) : line_of_id(b, e->id);
  if (!line)
    return 0;
  if (before)
    return line >= h->old_start && line < h->old_start + h->old_lines;
  return line >= h->new_start && line < h->new_start + h->new_lines;
}

/* The source form of an edit: its hunk of the checked patch, each line
 * behind "#   ", else the sentence (or why it is IR only). */
static void annotate_source(const aucs_edit *e, const char *src,
                            const char *also, aucs_buf *out) {
  if (src && !strncmp(src, "@@", 2)) {
    if (also)
      aucs_buf_printf(out,
                      "#   source patch (checked; one hunk for this edit "
                      "and edit%s %s):\n",
                      strchr(also, ',') ? "s" : "", also);
    else
      aucs_buf_puts(out, "#   source patch (checked):\n");
    for (const char *l = src; *l;) {
      const char *nl = strchr(l, '\n');
      size_t len = nl ? (size_t)(nl - l) : strlen(l);
      aucs_buf_printf(out, "#   %.*s\n", (int)len, l);
      l += len + (nl != NULL);
    }
  } else if (src)
    aucs_buf_printf(out, "#   source: %s\n", src);
  else if (e->source_edit)
    aucs_buf_printf(out, "#   source edit: %s\n", e->source_edit);
}

/* The checked hunk of edit k when it is a patch hunk ("@@"), else NULL. */
static const char *hunk_of(const aucs_patch *sp, size_t k) {
  const char *h = sp && k < sp->n ? sp->per_edit[k] : NULL;
  return h && !strncmp(h, "@@", 2) ? h : NULL;
}

/* One hunk answering several edits (the two __syncwarp() of one step) is
 * shown once, with the first of them, naming the others (*also); each
 * other edit points at it. 1 when edit k's source form was told so. */
static int shared_hunk(const aucs_patch *sp, size_t k, aucs_buf *also,
                       aucs_buf *out) {
  const char *h = hunk_of(sp, k);
  if (!h)
    return 0;
  for (size_t j = 0; j < k; j++)
    if (hunk_of(sp, j) && !strcmp(hunk_of(sp, j), h)) {
      aucs_buf_printf(out, "#   source patch (checked): the hunk shown with "
                           "edit %zu, which makes this edit too\n",
                      j + 1);
      return 1;
    }
  for (size_t j = k + 1; j < sp->n; j++)
    if (hunk_of(sp, j) && !strcmp(hunk_of(sp, j), h))
      aucs_buf_printf(also, "%s%zu", also->len ? ", " : "", j + 1);
  return 0;
}

/* Per edit: the source form first, then the reason and the evidence; the
 * IR hunk follows. */
static void annotate(const aucs_edit *e, size_t number, const aucs_patch *sp,
                     aucs_buf *out) {
  size_t k = number - 1;
  aucs_buf_printf(out, "# edit %zu: %s %s\n", number,
                  aucs_editlog_kind_name(e->kind), e->where ? e->where : "");
  aucs_buf also = {0};
  if (!shared_hunk(sp, k, &also, out))
    annotate_source(e, sp && k < sp->n ? sp->per_edit[k] : NULL, also.data,
                    out);
  aucs_buf_free(&also);
  if (sp && k < sp->n && sp->notes && sp->notes[k])
    aucs_buf_printf(out, "#   note: %s\n", sp->notes[k]);
  if (e->why)
    aucs_buf_printf(out, "#   why: %s\n", e->why);
  if (e->finding)
    aucs_buf_printf(out, "#   answers: %s\n", e->finding);
  if (e->source)
    aucs_buf_printf(out, "#   source line: %s\n", e->source);
}

static void print_fn(const fn_text *a, const fn_text *b,
                     const aucs_editlog *log, const aucs_patch *sp,
                     aucs_buf *out) {
  hunks hs = {0};
  diff(a, b, &hs);
  unsigned char *shown = aucs_xcalloc(log->n + 1, 1);
  aucs_buf_printf(out, "--- a/@%s\n+++ b/@%s\n", a->name, b->name);
  for (size_t i = 0; i < hs.n; i++) {
    for (size_t k = 0; k < log->n; k++)
      if (!shown[k] && !strcmp(log->v[k].function, a->name) &&
          in_hunk(&hs.v[i], a, b, &log->v[k])) {
        annotate(&log->v[k], k + 1, sp, out);
        shown[k] = 1;
      }
    aucs_buf_puts(out, hs.v[i].header.data ? hs.v[i].header.data : "@@\n");
    if (hs.v[i].body.data)
      aucs_buf_puts(out, hs.v[i].body.data);
    aucs_buf_free(&hs.v[i].header);
    aucs_buf_free(&hs.v[i].body);
  }
  for (size_t k = 0; k < log->n; k++)
    if (!shown[k] && !strcmp(log->v[k].function, a->name))
      annotate(&log->v[k], k + 1, sp, out);
  free(shown);
  free(hs.v);
}

static void summary(const aucs_repair_result *r, aucs_buf *out) {
  static const char *const label[] = {"fixed", "unfixable", "not fixed"};
  for (size_t i = 0; i < r->ndropped; i++)
    aucs_buf_printf(out, "# %s\n", r->dropped[i]);
  size_t listed =
      r->max_listed && r->nitems > r->max_listed ? r->max_listed : r->nitems;
  for (size_t i = 0; i < listed; i++) {
    const aucs_repair_item *it = &r->items[i];
    aucs_buf_printf(out, "# %s: %s: %s: %s\n", label[it->outcome],
                    it->location ? it->location : it->kernel,
                    it->headline ? it->headline : "?", it->how ? it->how : "");
    if (it->suggestion)
      aucs_buf_printf(out, "#   suggestion: %s\n", it->suggestion);
  }
  if (listed < r->nitems)
    aucs_buf_printf(out,
                    "# %zu more findings not listed; --max-findings to "
                    "list them\n",
                    r->nitems - listed);
}

/* The source patch's report lines ("aucs: source patch checked: ..."), as
 * comments. */
static void verdict_lines(const char *said, aucs_buf *out) {
  for (const char *l = said; l && *l;) {
    const char *nl = strchr(l, '\n');
    size_t len = nl ? (size_t)(nl - l) : strlen(l);
    if (len >= 6 && !strncmp(l, "aucs: ", 6))
      l += 6, len -= 6;
    aucs_buf_printf(out, "# %.*s\n", (int)len, l);
    l += len + (nl != NULL);
  }
}

void aucs_review_print(aucs_review *rv, LLVMModuleRef m,
                       const aucs_repair_result *r, aucs_buf *out) {
  aucs_review_print_source(rv, m, r, NULL, NULL, out);
}

void aucs_review_print_source(aucs_review *rv, LLVMModuleRef m,
                              const aucs_repair_result *r, const aucs_patch *sp,
                              const char *said, aucs_buf *out) {
  git_libgit2_init();
  for (size_t i = 0; i < rv->n; i++) {
    LLVMValueRef fn = LLVMGetNamedFunction(m, rv->fns[i].name);
    if (!fn || !LLVMCountBasicBlocks(fn))
      continue;
    fn_text now = {0};
    fn_text_make(&now, fn);
    if (strcmp(now.text, rv->fns[i].text))
      print_fn(&rv->fns[i], &now, &r->log, sp, out);
    fn_text_free(&now);
  }
  git_libgit2_shutdown();
  verdict_lines(said, out);
  summary(r, out);
}
