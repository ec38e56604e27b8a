/*
 * patch: the repair as a checked unified diff of the CUDA source
 * (`aucs fix k.cu --patch FILE`).
 *
 * Steps:
 *   1. Read the .cu; split it into lines.
 *   2. Each edit of the log gets a source form, or a reason it has none:
 *      - insert-barrier whose source edit is "insert __syncthreads(); before
 *        k.cu:L" (place.c: no memory access of line L precedes the barrier)
 *        is exact when L is in this file and begins a statement: the line
 *        above ends a statement or opens a block (`;`, `{`, `}`), and L does
 *        not start with `}`, `{`, `else`, `case`, `default` or `#`. The new
 *        line is indented like L.
 *      - delete-barrier is exact when `__syncthreads();` is alone on its
 *        line: the line goes.
 *      - anything else (flattening, loops, splits, inlined helpers, code in
 *        another file, a template kernel instantiated more than once) is
 *        "IR only", and so is every edit answering the same finding as an
 *        IR-only edit, or a finding an IR-only edit left.
 *   3. Apply the exact edits to a copy of the text; libgit2's buffer diff
 *      gives the unified diff (`--- a/k.cu`, paths relative to the current
 *      directory, so `git apply` and `patch -p1` take it).
 *   4. Check it: write the copy under the same basename in a temporary
 *      directory, compile it with the same options plus `-I` of the
 *      original's directory, detect with the same launches and seed + 1.
 *      It passes when no finding maps (by kind and original line) to a
 *      finding the patch answers, and every race or divergence maps to one
 *      that was there before.
 *
 * Limitation: an input outside the current directory keeps its path as
 * given in the diff headers.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "aucs/patch.h"

#include "aucs/kernel.h"
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

/* ---- the source text ----------------------------------------------------*/

typedef struct text {
  char *data;
  size_t len;
  size_t *start; /* start[i]: offset of line i + 1 (1-based lines) */
  size_t n;      /* lines */
} text;

static int text_read(text *t, const char *path) {
  memset(t, 0, sizeof(*t));
  FILE *f = fopen(path, "rb");
  if (!f)
    return 1;
  aucs_buf b = {0};
  char chunk[4096];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, f)))
    aucs_buf_printf(&b, "%.*s", (int)got, chunk);
  fclose(f);
  t->len = b.len;
  t->data = b.data ? aucs_buf_take(&b) : aucs_xstrdup("");
  t->start = aucs_xcalloc(t->len + 2, sizeof(size_t));
  for (size_t i = 0; i < t->len; i++)
    if (i == 0 || t->data[i - 1] == '\n')
      t->start[t->n++] = i;
  t->start[t->n] = t->len;
  return 0;
}

static void text_free(text *t) {
  free(t->data);
  free(t->start);
}

/* Line l (1-based) without its indentation and line end, in *len. */
static const char *trimmed(const text *t, size_t l, size_t *len) {
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

static int starts(const char *s, size_t len, const char *word) {
  size_t w = strlen(word);
  return len >= w && !strncmp(s, word, w);
}

/* ---- step 2: the source form of each edit -------------------------------*/

typedef enum { ACT_NONE, ACT_INSERT, ACT_DELETE, ACT_FENCE, ACT_WIDEN } act;

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
  if (*end)
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

/* The length of "_Z<len><name>I" when mangled names a template instance,
 * else 0. */
static size_t template_prefix(const char *mangled) {
  if (!mangled || strncmp(mangled, "_Z", 2))
    return 0;
  char *end;
  unsigned long n = strtoul(mangled + 2, &end, 10);
  if (end == mangled + 2 || strlen(end) <= n || end[n] != 'I')
    return 0;
  return (size_t)(end + n + 1 - mangled);
}

/* A template kernel instantiated more than once in m (or, without m, at
 * all): one source edit would change every instantiation. */
static int shared_template(const char *mangled, LLVMModuleRef m) {
  size_t n = template_prefix(mangled), count = 0;
  if (!n || !m)
    return n != 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
       f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    if (LLVMCountBasicBlocks(f) && len > n && !strncmp(name, mangled, n))
      count++;
  }
  return count > 1;
}

static const char *insert_why(const text *t, unsigned l) {
  if (!l || l > t->n)
    return "the barrier does not precede a statement of this file";
  size_t n;
  const char *s = trimmed(t, l, &n);
  static const char *const bad[] = {"}", "{", "else", "case", "default", "#"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++)
    if (!n || starts(s, n, bad[i]))
      return "the line the barrier precedes does not begin a statement";
  size_t p = l - 1;
  const char *above = NULL;
  while (p > 0 && !(above = trimmed(t, p, &n), n))
    p--;
  if (!above || !n)
    return NULL;
  char last = above[n - 1];
  if (last != ';' && last != '{' && last != '}')
    return "the line the barrier precedes continues the statement above it";
  return NULL;
}

static const char *delete_why(const text *t, unsigned l) {
  size_t n;
  const char *s = l && l <= t->n ? trimmed(t, l, &n) : NULL;
  if (!s || n != strlen("__syncthreads();") ||
      strncmp(s, "__syncthreads();", n))
    return "the barrier is not a `__syncthreads();` alone on its line";
  return NULL;
}

static const char *kind_why(aucs_edit_kind k) {
  switch (k) {
  case AUCS_EDIT_FLATTEN_REGION:
    return "flattening a divergent region has no exact source form here";
  case AUCS_EDIT_UNIFORMIZE_LOOP:
    return "a loop made uniform has no exact source form here";
  case AUCS_EDIT_SPLIT_BLOCK:
    return "the barrier splits a statement";
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

static act classify_sync(const aucs_edit *e, const text *t, const char *base,
                         unsigned *line, unsigned *col, const char **why) {
  if (e->kind == AUCS_EDIT_WIDEN_SCOPE) {
    size_t len = 0;
    const char *name = parse_widen(e->source_edit, base, &len, line, col);
    *why = name ? widen_why(t, *line, *col, name, len)
                : (e->why ? e->why : "the atomic is not in this file");
    return *why ? ACT_NONE : ACT_WIDEN;
  }
  const char *at = e->source_edit ? strstr(e->source_edit, " at ") : NULL;
  *line = at ? parse_at(at + 4, "", base) : 0;
  if (*line && loc_line(e->source) != *line)
    *line = 0;
  *why = *line ? insert_why(t, *line)
               : (e->why ? e->why : "no statement of this file follows it");
  return *why ? ACT_NONE : ACT_FENCE;
}

/* The action of e on t (line in *line), or ACT_NONE with *why. */
static act classify(const aucs_edit *e, const text *t, const char *base,
                    LLVMModuleRef m, unsigned *line, unsigned *col,
                    const char **why) {
  *why = NULL;
  if (shared_template(e->function, m))
    return *why = "a template kernel instantiated more than once: the "
                  "source edit would change every instantiation",
           ACT_NONE;
  if (e->kind == AUCS_EDIT_INSERT_BARRIER) {
    *line = parse_at(e->source_edit, "insert __syncthreads(); before ", base);
    if (*line && loc_line(e->source) != *line)
      return *why = "the barrier sits in code inlined into the statement "
                    "(a helper or a macro), not before it",
             ACT_NONE;
    *why = *line ? insert_why(t, *line)
                 : (e->why ? e->why
                           : "no statement of this file follows "
                             "the barrier");
    return *why ? ACT_NONE : ACT_INSERT;
  }
  if (e->kind == AUCS_EDIT_DELETE_BARRIER) {
    *line = parse_at(e->source_edit, "delete the __syncthreads(); at ", base);
    if (*line && loc_line(e->source) != *line)
      *line = 0;
    *why = *line ? delete_why(t, *line)
                 : "the barrier is not in this file (a header or a macro)";
    return *why ? ACT_NONE : ACT_DELETE;
  }
  if (e->kind == AUCS_EDIT_WIDEN_SCOPE || e->kind == AUCS_EDIT_INSERT_FENCE)
    return classify_sync(e, t, base, line, col, why);
  *why = kind_why(e->kind);
  return ACT_NONE;
}

typedef struct plan {
  act *acts;                /* per edit */
  unsigned *at;             /* per edit: its source line */
  unsigned *col;            /* per edit: ACT_WIDEN: the call's column */
  const char **name;        /* per edit: ACT_WIDEN: the new call name */
  size_t *name_len;
  size_t nedits;
  char *ins; /* per line (1-based): insert before it (1: __syncthreads,
                2: __threadfence, both bits: the fence first) */
  char *del;                /* per line: delete it */
  unsigned char *addressed; /* per repair item: an exact edit answers it */
  const char **why;         /* per edit: why it is IR only (static text) */
  size_t exact;
} plan;

static void plan_free(plan *p) {
  free(p->acts);
  free(p->at);
  free(p->col);
  free(p->name);
  free(p->name_len);
  free(p->ins);
  free(p->del);
  free(p->addressed);
  free(p->why);
}

static int left_by_edit(const aucs_repair_result *r, const aucs_edit *e) {
  return e->finding_index >= 0 && (size_t)e->finding_index < r->nitems &&
         r->items[e->finding_index].introduced;
}

/* Mark edit i of p in the line tables of q. */
static void mark(const plan *p, size_t i, plan *q) {
  if (p->acts[i] == ACT_INSERT)
    q->ins[p->at[i]] |= 1;
  else if (p->acts[i] == ACT_FENCE)
    q->ins[p->at[i]] |= 2;
  else if (p->acts[i] == ACT_DELETE)
    q->del[p->at[i]] = 1;
}

static void plan_make(const aucs_repair_result *r, const text *t,
                      const char *base, LLVMModuleRef m, plan *p,
                      aucs_buf *report) {
  const aucs_editlog *log = &r->log;
  p->acts = aucs_xcalloc(log->n + 1, sizeof(act));
  p->at = aucs_xcalloc(log->n + 1, sizeof(unsigned));
  p->col = aucs_xcalloc(log->n + 1, sizeof(unsigned));
  p->name = aucs_xcalloc(log->n + 1, sizeof(char *));
  p->name_len = aucs_xcalloc(log->n + 1, sizeof(size_t));
  p->nedits = log->n;
  const char **why = p->why = aucs_xcalloc(log->n + 1, sizeof(char *));
  for (size_t i = 0; i < log->n; i++) {
    p->acts[i] =
        classify(&log->v[i], t, base, m, &p->at[i], &p->col[i], &why[i]);
    if (p->acts[i] == ACT_WIDEN)
      p->name[i] = parse_widen(log->v[i].source_edit, base, &p->name_len[i],
                               &p->at[i], &p->col[i]);
  }
  /* An edit is exact only when every edit of its finding is, and, when
   * its finding was left by earlier edits, when those were. */
  for (size_t i = 0; i < log->n; i++)
    for (size_t k = 0; k < i && p->acts[i] && left_by_edit(r, &log->v[i]);
         k++)
      if (!p->acts[k]) {
        p->acts[i] = ACT_NONE;
        why[i] = "it answers a finding left by an edit that is IR only";
      }
  for (size_t i = 0; i < log->n; i++)
    for (size_t k = 0; k < log->n && p->acts[i]; k++)
      if (!p->acts[k] && log->v[k].finding_index == log->v[i].finding_index &&
          log->v[i].finding_index >= 0) {
        p->acts[i] = ACT_NONE;
        why[i] = "it goes with an edit that is IR only";
      }
  p->ins = aucs_xcalloc(t->n + 2, 1);
  p->del = aucs_xcalloc(t->n + 2, 1);
  p->addressed = aucs_xcalloc(r->nitems + 1, 1);
  for (size_t i = 0; i < log->n; i++) {
    const aucs_edit *e = &log->v[i];
    if (!p->acts[i]) {
      aucs_buf_printf(report,
                      "aucs: source patch: edit %zu (%s): IR only: %s\n", i + 1,
                      aucs_editlog_kind_name(e->kind), why[i]);
      continue;
    }
    mark(p, i, p);
    if (e->finding_index >= 0 && (size_t)e->finding_index < r->nitems)
      p->addressed[e->finding_index] = 1;
    p->exact++;
  }
}

/* ---- step 3: the patched text and its diff -----------------------------*/

/* Line l (len bytes at s) with the widened call names of p. */
static void put_line(aucs_buf *b, const plan *p, size_t l, const char *s,
                     size_t len) {
  for (size_t c = 0; c < len; c++) {
    size_t i = 0;
    while (i < p->nedits &&
           !(p->acts[i] == ACT_WIDEN && p->at[i] == l && p->col[i] == c + 1))
      i++;
    if (i == p->nedits) {
      aucs_buf_printf(b, "%c", s[c]);
      continue;
    }
    aucs_buf_printf(b, "%.*s", (int)p->name_len[i], p->name[i]);
    c += p->name_len[i] + strlen("_block") - 1;
  }
}

/* The patched text; map[new line] = old line (0 for an inserted one). */
static char *patched(const text *t, const plan *p, unsigned **map) {
  aucs_buf b = {0};
  *map = aucs_xcalloc(3 * t->n + 2, sizeof(unsigned));
  unsigned nl = 0;
  for (size_t l = 1; l <= t->n; l++) {
    const char *s = t->data + t->start[l - 1];
    size_t len = t->start[l] - t->start[l - 1];
    size_t ind = 0;
    while (ind < len && (s[ind] == ' ' || s[ind] == '\t'))
      ind++;
    if (p->ins[l] & 2) {
      aucs_buf_printf(&b, "%.*s__threadfence();\n", (int)ind, s);
      (*map)[++nl] = 0;
    }
    if (p->ins[l] & 1) {
      aucs_buf_printf(&b, "%.*s__syncthreads();\n", (int)ind, s);
      (*map)[++nl] = 0;
    }
    if (p->del[l])
      continue;
    put_line(&b, p, l, s, len);
    (*map)[++nl] = (unsigned)l;
  }
  return b.data ? aucs_buf_take(&b) : aucs_xstrdup("");
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

/* Why finding f of the recompiled patch refuses it, or NULL. */
static char *judge(const aucs_finding *f, const aucs_repair_result *r,
                   const plan *p, const unsigned *map, unsigned nlines) {
  unsigned now = f->a.instr ? aucs_srcloc_of(f->a.instr).line : 0;
  unsigned was = now && now <= nlines ? map[now] : 0;
  for (size_t i = 0; i < r->nitems; i++)
    if (r->items[i].kind == f->kind && was && item_line(&r->items[i]) == was)
      return p->addressed[i]
                 ? aucs_xasprintf("%s at line %u is still there",
                                  aucs_finding_kind_name(f->kind), was)
                 : NULL;
  return is_order_bug(f->kind)
             ? aucs_xasprintf("a new %s at line %u of the patched file",
                              aucs_finding_kind_name(f->kind), now)
             : NULL;
}

static char *verdict(const aucs_report *rep, const aucs_repair_result *r,
                     const plan *p, const unsigned *map, unsigned nlines,
                     size_t *count) {
  *count = 0;
  for (size_t k = 0; k < rep->nkernels; k++) {
    const aucs_report_kernel *rk = &rep->kernels[k];
    if (rk->status != AUCS_KERNEL_CHECKED)
      return aucs_xasprintf("kernel '%s' of the patched file could not be "
                            "checked: %s",
                            rk->demangled, rk->reason ? rk->reason : "");
    for (size_t i = 0; i < rk->findings.n; i++) {
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
    LLVMValueRef *ks = NULL;
    size_t n = aucs_kernel_list(aucs_module_llvm(mod), &ks);
    aucs_report rep = {0};
    if (aucs_detect_run(aucs_module_llvm(mod), ks, n, &d, &rep, &err))
      why = aucs_xasprintf("the patched file cannot be detected: %s", err);
    else
      why = verdict(&rep, r, p, map, nlines, count);
    if (!err)
      aucs_detect_report_free(&rep);
    free(ks);
  }
  free(err);
  aucs_module_free(mod);
  free(args);
  unlink(file);
  rmdir(dir);
  free(file), free(inc), free(b1), free(d1), free(dir);
  return why;
}

/* ---- the whole ----------------------------------------------------------*/

/* The hunk of edit i alone (no file header), one line of context. */
static char *edit_hunk(const text *t, const plan *p, size_t i) {
  plan one = *p;
  one.ins = aucs_xcalloc(t->n + 2, 1);
  one.del = aucs_xcalloc(t->n + 2, 1);
  one.acts = aucs_xcalloc(p->nedits + 1, sizeof(act));
  one.acts[i] = p->acts[i];
  mark(p, i, &one);
  unsigned *map;
  char *now = patched(t, &one, &map);
  aucs_buf b = {0};
  git_diff_options o;
  git_libgit2_init();
  git_diff_options_init(&o, GIT_DIFF_OPTIONS_VERSION);
  o.context_lines = 1;
  git_diff_buffers(t->data, t->len, "a", now, strlen(now), "b", &o, NULL, NULL,
                   on_hunk, on_line, &b);
  git_libgit2_shutdown();
  free(one.ins), free(one.del), free(one.acts), free(map), free(now);
  return b.data ? aucs_buf_take(&b) : NULL;
}

/* Per edit: its hunk when checked, else "IR only: ..." (or NULL). */
static void per_edit(const aucs_repair_result *r, const text *t, const plan *p,
                     int checked, aucs_patch *out) {
  out->n = r->log.n;
  out->per_edit = aucs_xcalloc(out->n + 1, sizeof(char *));
  for (size_t i = 0; i < out->n; i++)
    if (!p->acts[i])
      out->per_edit[i] = aucs_xasprintf("IR only: %s", p->why[i]);
    else if (checked)
      out->per_edit[i] = edit_hunk(t, p, i);
}

static int build(const aucs_repair_result *r, const aucs_patch_options *o,
                 const text *t, const plan *p, aucs_patch *out,
                 aucs_buf *report) {
  unsigned *map;
  char *now = patched(t, p, &map);
  size_t count = 0;
  char *why = check(o, now, r, p, map, (unsigned)(2 * t->n + 1), &count);
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
                    count ? " (none new, none the patch answers)" : "");
    out->diff = unified(t, now, o->cu);
  }
  free(why);
  free(now);
  free(map);
  return out->diff != NULL;
}

int aucs_patch_make(const aucs_repair_result *r, const aucs_patch_options *o,
                    aucs_patch *out, aucs_buf *report) {
  memset(out, 0, sizeof(*out));
  text t;
  if (text_read(&t, o->cu)) {
    aucs_buf_printf(report, "aucs: source patch not written: cannot read %s\n",
                    o->cu);
    return 0;
  }
  char *b = aucs_xstrdup(o->cu);
  plan p = {0};
  plan_make(r, &t, basename(b), o->module, &p, report);
  int ok = 0;
  if (!p.exact)
    aucs_buf_printf(report, "aucs: source patch not written: %s\n",
                    r->log.n ? "no edit has an exact source form" : "no edit");
  else
    ok = build(r, o, &t, &p, out, report);
  per_edit(r, &t, &p, ok, out);
  plan_free(&p);
  free(b);
  text_free(&t);
  return ok;
}

void aucs_patch_free(aucs_patch *p) {
  for (size_t i = 0; i < p->n; i++)
    free(p->per_edit[i]);
  free(p->per_edit);
  free(p->diff);
  memset(p, 0, sizeof(*p));
}

static int write_atomic(const char *path, const char *data) {
  char *tmp = aucs_xasprintf("%s.tmpXXXXXX", path);
  int fd = mkstemp(tmp), bad = fd < 0;
  if (!bad) {
    close(fd);
    bad = write_file(tmp, data) || rename(tmp, path);
    if (bad)
      unlink(tmp);
  }
  free(tmp);
  return bad;
}

int aucs_patch_write(const aucs_patch *p, const char *to, aucs_buf *out,
                     aucs_buf *diag) {
  if (!p->diff)
    return 0;
  if (!strcmp(to, "-")) {
    aucs_buf_puts(out, p->diff);
    return 0;
  }
  if (write_atomic(to, p->diff)) {
    aucs_buf_printf(diag, "aucs: error: cannot write the patch to %s\n", to);
    return 1;
  }
  aucs_buf_printf(diag, "aucs: source patch written to %s\n", to);
  return 0;
}
