/*
 * corpus: checks the expectations written in one kernel file of
 * tests/kernels (format: tests/kernels/README.md).
 *
 *   corpus -O0|-O2 file.cu
 *
 * In steps:
 *   1. Read the file's `AUCS-EXPECT[-O0|-O2]: <kind> <line>...` comments and
 *      keep those for this level; one asserted line is one expectation.
 *   2. Compile the file with aucs_module_load at that level, with the
 *      shipped CUDA header (no SDK), so results do not depend on the machine.
 *   3. For every kernel build the CFG and the block uniformity.
 *   4. For each expectation, find the reachable kernel blocks holding an
 *      instruction (not a terminator, phi or debug intrinsic) whose !dbg
 *      names that line of this file; check there is one and each is uniform
 *      (resp. divergent).
 * Prints one line per failed expectation, then `N passed, M failed`. Exit 0
 * when nothing failed and something was checked, 1 otherwise (including any
 * malformed expectation or a file without one).
 *
 * Limitation: lines are matched by the file's base name, so an included
 * header of the same base name would be mistaken for the kernel file.
 */
#include "aucs/cfg.h"
#include "aucs/kernel.h"
#include "aucs/module.h"
#include "aucs/names.h"
#include "aucs/srcloc.h"
#include "aucs/uniform.h"
#include "aucs/util.h"

#include <llvm-c/Core.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LEVEL_ANY = -1 };

/* Expectation kinds; a detector kind (race, ...) is one more row. */
typedef enum kind { KIND_UNIFORM, KIND_DIVERGENT, KIND_COUNT } kind;
static const char *const kind_names[KIND_COUNT] = {"uniform", "divergent"};

typedef struct expect {
  unsigned at;   /* line of the comment */
  unsigned line; /* the asserted source line */
  kind kind;
} expect;

typedef struct expects {
  expect *v;
  int n, cap;
  int total; /* at every level, for "file has no expectation" */
} expects;

/* One analysed kernel. */
typedef struct kernel {
  LLVMValueRef fn;
  aucs_cfg *cfg;
  aucs_uniformity *u;
  aucs_names *names;
} kernel;

typedef struct corpus {
  const char *path;
  const char *base; /* base name of path */
  int level;
  expects ex;
  kernel *k;
  size_t nk;
  int passed, failed;
} corpus;

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  aucs_buf b = {0};
  aucs_buf_puts(&b, "");
  char chunk[4096];
  size_t n;
  while ((n = fread(chunk, 1, sizeof chunk - 1, f)) > 0) {
    chunk[n] = '\0';
    aucs_buf_puts(&b, chunk);
  }
  fclose(f);
  return aucs_buf_take(&b);
}

/* ---- parsing ------------------------------------------------------------ */

static void push(expects *e, expect x) {
  if (e->n == e->cap) {
    e->cap = e->cap ? 2 * e->cap : 16;
    e->v = aucs_xrealloc(e->v, sizeof *e->v * (size_t)e->cap);
  }
  e->v[e->n++] = x;
}

static int bad(const corpus *c, unsigned at, const char *fmt, ...)
    AUCS_PRINTF(3, 4);
static int bad(const corpus *c, unsigned at, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s:%u: error: ", c->path, at);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  return 1;
}

/* After "AUCS-EXPECT": "-O0: ", "-O2: " or ": ". Sets *level; returns the
 * text after the colon, or NULL when malformed. */
static const char *parse_level(const char *s, int *level) {
  *level = LEVEL_ANY;
  if (s[0] == '-' && s[1] == 'O' && (s[2] == '0' || s[2] == '2')) {
    *level = s[2] - '0';
    s += 3;
  }
  return *s == ':' ? s + 1 : NULL;
}

/* The kind word at *s, up to blank or end; advances *s past it. */
static int parse_kind(const corpus *c, unsigned at, const char **s,
                      const char *end, kind *out) {
  while (*s < end && (**s == ' ' || **s == '\t'))
    (*s)++;
  size_t len = 0;
  while (*s + len < end && !isspace((unsigned char)(*s)[len]))
    len++;
  for (int k = 0; k < KIND_COUNT; k++) {
    if (strlen(kind_names[k]) == len && !strncmp(*s, kind_names[k], len)) {
      *s += len;
      *out = (kind)k;
      return 0;
    }
  }
  return bad(c, at, "unknown expectation kind '%.*s'", (int)len, *s);
}

/* The asserted lines after the kind, up to end. Pushes them when keep. */
static int parse_lines(corpus *c, const char *s, const char *end, expect x,
                       unsigned nlines, int keep) {
  int count = 0;
  for (;;) {
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
      s++;
    if (s == end)
      break;
    if (!isdigit((unsigned char)*s))
      return bad(c, x.at, "expected a source line number");
    char *next;
    unsigned long v = strtoul(s, &next, 10);
    s = next;
    if (v == 0 || v > nlines)
      return bad(c, x.at, "line number outside the file");
    x.line = (unsigned)v;
    count++;
    if (keep)
      push(&c->ex, x);
  }
  if (!count)
    return bad(c, x.at, "expectation names no line");
  c->ex.total += count;
  return 0;
}

static int parse_one(corpus *c, const char *s, const char *end, unsigned at,
                     unsigned nlines) {
  int level;
  expect x = {.at = at};
  s = parse_level(s, &level);
  if (!s)
    return bad(c, at, "malformed AUCS-EXPECT (want -O0:, -O2: or :)");
  if (parse_kind(c, at, &s, end, &x.kind))
    return 1;
  int keep = level == LEVEL_ANY || level == c->level;
  return parse_lines(c, s, end, x, nlines, keep);
}

static unsigned count_lines(const char *text) {
  unsigned n = 0;
  for (const char *p = text; *p; p++)
    n += *p == '\n';
  return n + (*text && text[strlen(text) - 1] != '\n');
}

static int parse_file(corpus *c, const char *text) {
  static const char tag[] = "AUCS-EXPECT";
  unsigned nlines = count_lines(text), at = 1;
  for (const char *s = text; *s; at++) {
    const char *end = strchr(s, '\n');
    if (!end)
      end = s + strlen(s);
    const char *t = strstr(s, tag);
    if (t && t < end && parse_one(c, t + sizeof tag - 1, end, at, nlines))
      return 1;
    s = *end ? end + 1 : end;
  }
  if (!c->ex.total)
    return bad(c, 1, "no AUCS-EXPECT line in the file");
  return 0;
}

/* ---- analysis ----------------------------------------------------------- */

static void analyse(corpus *c, LLVMModuleRef m) {
  LLVMValueRef *fns;
  c->nk = aucs_kernel_list(m, &fns);
  c->k = aucs_xcalloc(c->nk, sizeof *c->k);
  for (size_t i = 0; i < c->nk; i++) {
    c->k[i].fn = fns[i];
    c->k[i].cfg = aucs_cfg_build(fns[i]);
    c->k[i].u = aucs_uniform_compute(c->k[i].cfg);
    c->k[i].names = aucs_names_build(fns[i]);
  }
  free(fns);
}

static void release(corpus *c) {
  for (size_t i = 0; i < c->nk; i++) {
    aucs_names_free(c->k[i].names);
    aucs_uniform_free(c->k[i].u);
    aucs_cfg_free(c->k[i].cfg);
  }
  free(c->k);
  free(c->ex.v);
}

static int is_debug(LLVMValueRef I) {
  return LLVMIsADbgInfoIntrinsic(I) != NULL;
}

/* 1 when an instruction of bb is on line of the corpus file. Terminators
 * and phis do not count: they sit on block boundaries (a branch carries the
 * line of its if/for, a phi that of a value merged from elsewhere). */
static int holds_line(const corpus *c, LLVMBasicBlockRef bb, unsigned line) {
  size_t blen = strlen(c->base);
  for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
       I = LLVMGetNextInstruction(I)) {
    if (LLVMIsATerminatorInst(I) || LLVMIsAPHINode(I) || is_debug(I))
      continue;
    aucs_srcloc loc = aucs_srcloc_of(I);
    if (!loc.file || loc.line != line || loc.file_len < blen)
      continue;
    const char *tail = loc.file + loc.file_len - blen;
    if (!memcmp(tail, c->base, blen) && (tail == loc.file || tail[-1] == '/'))
      return 1;
  }
  return 0;
}

/* ---- reporting ---------------------------------------------------------- */

static void put_block(aucs_buf *b, const kernel *k, int blk) {
  aucs_buf_printf(b, "%s #%d", aucs_names_block(k->names, k->cfg->blocks[blk]),
                  blk);
}

/* Where the divergent condition ending block blk comes from. */
static void put_origin(aucs_buf *b, const kernel *k, int blk) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(k->cfg->blocks[blk]);
  if (!t || LLVMGetNumOperands(t) < 2)
    return;
  const char *o = aucs_uniform_origin(k->u, LLVMGetOperand(t, 0));
  if (o)
    aucs_buf_printf(b, ", condition from %s", o);
}

static void put_why(aucs_buf *b, const kernel *k, int blk) {
  int at = -1, aux = -1;
  switch (aucs_uniform_why(k->u, blk, &at, &aux)) {
  case AUCS_WHY_UNIFORM:
    aucs_buf_puts(b, "uniform");
    return;
  case AUCS_WHY_UNREACHABLE:
    aucs_buf_puts(b, "unreachable");
    return;
  case AUCS_WHY_BRANCH:
    aucs_buf_puts(b, "control-dependent on the divergent branch of ");
    put_block(b, k, at);
    put_origin(b, k, at);
    return;
  case AUCS_WHY_NONUNIFORM:
    aucs_buf_puts(b, "control-dependent on a branch of non-uniform ");
    put_block(b, k, at);
    return;
  case AUCS_WHY_LOOP:
    aucs_buf_puts(b, "in the loop at ");
    put_block(b, k, at);
    aucs_buf_puts(b, " whose exit at ");
    put_block(b, k, aux);
    aucs_buf_puts(b, " is divergent");
    return;
  }
}

static void report(const corpus *c, const expect *x, const kernel *k, int blk) {
  aucs_buf b = {0};
  aucs_buf_printf(&b, "%s:%u: expected %s, block ", c->path, x->line,
                  kind_names[x->kind]);
  put_block(&b, k, blk);
  aucs_buf_printf(&b, " of %s is ", aucs_names_value(k->names, k->fn));
  if (aucs_uniform_block(k->u, blk)) {
    aucs_buf_puts(&b, "uniform");
  } else {
    aucs_buf_puts(&b, "divergent (");
    put_why(&b, k, blk);
    aucs_buf_puts(&b, ")");
  }
  printf("%s (expectation at line %u)\n", b.data, x->at);
  aucs_buf_free(&b);
}

/* ---- checking ----------------------------------------------------------- */

/* 0 when the expectation holds; otherwise prints why and returns 1. */
static int check(const corpus *c, const expect *x) {
  int found = 0;
  for (size_t i = 0; i < c->nk; i++) {
    const kernel *k = &c->k[i];
    for (int b = 0; b < k->cfg->nblocks; b++) {
      if (!k->cfg->reachable[b] || !holds_line(c, k->cfg->blocks[b], x->line))
        continue;
      found = 1;
      if (aucs_uniform_block(k->u, b) != (x->kind == KIND_UNIFORM)) {
        report(c, x, k, b);
        return 1;
      }
    }
  }
  if (!found)
    printf("%s:%u: expected %s, but no reachable kernel block holds the line "
           "at -O%d (expectation at line %u)\n",
           c->path, x->line, kind_names[x->kind], c->level, x->at);
  return !found;
}

static int load(corpus *c, aucs_module **m) {
  aucs_load_options o = {.no_cuda_sdk = 1, .opt_level = c->level};
  char *err = NULL;
  if (!aucs_module_load(c->path, &o, m, &err))
    return 0;
  fprintf(stderr, "%s\n", err);
  free(err);
  return 1;
}

static int parse_args(corpus *c, int argc, char **argv) {
  if (argc != 3 || (strcmp(argv[1], "-O0") && strcmp(argv[1], "-O2"))) {
    fprintf(stderr, "usage: corpus -O0|-O2 file.cu\n");
    return 1;
  }
  c->level = argv[1][2] - '0';
  c->path = argv[2];
  c->base = base_name(c->path);
  return 0;
}

static int read_expectations(corpus *c) {
  char *text = read_text(c->path);
  if (!text) {
    fprintf(stderr, "%s: cannot read the file\n", c->path);
    return 1;
  }
  int r = parse_file(c, text);
  free(text);
  if (!r && !c->ex.n)
    r = bad(c, 1,
            c->level ? "no expectation applies at -O2"
                     : "no expectation applies at -O0");
  return r;
}

int main(int argc, char **argv) {
  corpus c = {0};
  aucs_module *m = NULL;
  if (parse_args(&c, argc, argv) || read_expectations(&c) || load(&c, &m)) {
    free(c.ex.v);
    return 1;
  }
  analyse(&c, aucs_module_llvm(m));
  for (int i = 0; i < c.ex.n; i++)
    check(&c, &c.ex.v[i]) ? c.failed++ : c.passed++;
  printf("%d passed, %d failed\n", c.passed, c.failed);
  release(&c);
  aucs_module_free(m);
  return c.failed || !c.passed;
}
