/*
 * corpus: checks the expectations written in one kernel file of
 * tests/kernels (format: tests/kernels/README.md).
 *
 *   corpus -O0|-O2 file.cu
 *
 * In steps:
 *   1. Read the file's `AUCS-EXPECT[-O0|-O2]: <kind> <line>...` and
 *      `AUCS-LAUNCH[-O0|-O2]: <detect options>` comments and keep those for
 *      this level. A uniformity expectation is one per asserted line; a
 *      detection expectation (race, ..., clean) is one per comment.
 *   2. Compile the file with aucs_module_load at that level, with the
 *      shipped CUDA header (no SDK), so results do not depend on the machine.
 *   3. Uniformity: for every kernel build the CFG and the block uniformity;
 *      for each expectation, find the reachable kernel blocks holding an
 *      instruction (not a terminator, phi or debug intrinsic) whose !dbg
 *      names that line of this file; check there is one and each is uniform
 *      (resp. divergent).
 *   4. Detection: run aucs_detect_run on every kernel with the file's
 *      launch options and a fixed seed. Each finding must match a detection
 *      expectation (same kind, same source lines) and each expectation must
 *      be matched by a finding: exact-set semantics, so an unexpected
 *      finding, a missed one and a kernel the detector could not check are
 *      all failures.
 *   5. Static (only when the file has AUCS-EXPECT-STATIC lines at this
 *      level): detect again with --static under the same options; check
 *      each kernel's proof, and that the races replayed from solver
 *      witnesses are exactly the `confirmed` ones.
 * Prints one line per failure, then `N passed, M failed`. Exit 0 when
 * nothing failed and something was checked, 1 otherwise (including any
 * malformed expectation or a file without uniformity or detection
 * expectations at this level).
 *
 * Limitation: lines are matched by the file's base name, so an included
 * header of the same base name would be mistaken for the kernel file.
 */
#include "aucs/cfg.h"
#include "aucs/detect.h"
#include "aucs/kernel.h"
#include "aucs/module.h"
#include "aucs/names.h"
#include "aucs/nvvm.h"
#include "aucs/srcloc.h"
#include "aucs/static.h"
#include "aucs/uniform.h"
#include "aucs/util.h"

#include <llvm-c/Core.h>

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* STATIC_BUDGET_MS: the checker's time per kernel in the --static run,
 * unless the file's AUCS-LAUNCH sets --static-budget. */
enum { LEVEL_ANY = -1, SEED = 1, STATIC_BUDGET_MS = 10000 };

/* Expectation kinds: two about uniformity, then the detector's finding kinds
 * (by their names in finding.def, unsupported excluded), then clean. */
typedef enum kind {
  KIND_UNIFORM,
  KIND_DIVERGENT,
  KIND_FINDING,
  KIND_CLEAN,
  KIND_DEADLOCK,        /* deadlock L: the run ends in a spin at line L */
  KIND_UNSATISFIABLE,   /* unsatisfiable L: no input meets the assumption
                           at line L (the solver's proof) */
  KIND_PROOF,           /* AUCS-EXPECT-STATIC: proof race-free|partial|none */
  KIND_NEVER_PROVEN,    /* AUCS-EXPECT-STATIC: never-proven */
  KIND_CONFIRMED,       /* AUCS-EXPECT-STATIC: confirmed A B */
  KIND_PROVEN_REDUNDANT /* AUCS-EXPECT-STATIC: proven-redundant L */
} kind;

typedef struct expect {
  unsigned at; /* line of the comment */
  kind kind;
  aucs_finding_kind finding; /* KIND_FINDING */
  const char *proof;         /* KIND_PROOF: aucs_static_proof_name's */
  unsigned line[2];          /* asserted source lines */
  unsigned nline;
  int warning; /* KIND_FINDING: "warning <kind>": only for searched inputs */
  int benign;  /* KIND_FINDING: "benign-race A B": a race storing one value */
  int matched;
} expect;

typedef struct expects {
  expect *v;
  int n, cap;
  int uniformity, detection; /* at every level, for "no expectation" */
  int nstatic;               /* static expectations at this level */
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
  unsigned launch_at; /* line of the AUCS-LAUNCH kept, 0 when none */
  int sdk; /* AUCS-SDK: or AUCS-REQUIRES: cuda-sdk: compiled with the CUDA
              SDK's headers, skipped where none is installed */
  aucs_detect_options opts;
  char *command; /* reproduce-command prefix */
  LLVMValueRef *fns;
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

static const char *kind_name(const expect *x) {
  switch (x->kind) {
  case KIND_UNIFORM:
    return "uniform";
  case KIND_DIVERGENT:
    return "divergent";
  case KIND_CLEAN:
    return "clean";
  case KIND_DEADLOCK:
    return "deadlock";
  case KIND_UNSATISFIABLE:
    return "unsatisfiable";
  default:
    return aucs_finding_kind_name(x->finding);
  }
}

static int is_detection(kind k) {
  return k == KIND_FINDING || k == KIND_CLEAN || k == KIND_DEADLOCK ||
         k == KIND_UNSATISFIABLE;
}

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

/* After the tag: "-O0:", "-O2:" or ":". Sets *level; returns the text after
 * the colon, or NULL when malformed. */
static const char *parse_level(const char *s, int *level) {
  *level = LEVEL_ANY;
  if (s[0] == '-' && s[1] == 'O' && (s[2] == '0' || s[2] == '2')) {
    *level = s[2] - '0';
    s += 3;
  }
  return *s == ':' ? s + 1 : NULL;
}

static int word_is(const char *s, size_t len, const char *word) {
  return strlen(word) == len && !strncmp(s, word, len);
}

/* The kind word at *s, up to blank or end; advances *s past it. */
static int parse_kind(const corpus *c, const char **s, const char *end,
                      expect *x) {
  while (*s < end && (**s == ' ' || **s == '\t'))
    (*s)++;
  size_t len = 0;
  while (*s + len < end && !isspace((unsigned char)(*s)[len]))
    len++;
  const char *w = *s;
  *s += len;
  if (word_is(w, len, "warning") && !x->warning) {
    x->warning = 1;
    if (parse_kind(c, s, end, x))
      return 1;
    return x->kind == KIND_FINDING ? 0
                                   : bad(c, x->at, "warning needs a finding");
  }
  if (word_is(w, len, "uniform") || word_is(w, len, "divergent"))
    return x->kind = w[0] == 'u' ? KIND_UNIFORM : KIND_DIVERGENT, 0;
  if (word_is(w, len, "clean"))
    return x->kind = KIND_CLEAN, 0;
  if (word_is(w, len, "benign-race") && !x->warning) {
    x->benign = 1;
    x->finding = AUCS_FINDING_RACE;
    return x->kind = KIND_FINDING, 0;
  }
  if (word_is(w, len, "deadlock"))
    return x->kind = KIND_DEADLOCK, 0;
  if (word_is(w, len, "unsatisfiable"))
    return x->kind = KIND_UNSATISFIABLE, 0;
  for (int k = 0; k < AUCS_FINDING_NKINDS; k++)
    if (k != AUCS_FINDING_UNSUPPORTED &&
        word_is(w, len, aucs_finding_kind_name((aucs_finding_kind)k))) {
      x->kind = KIND_FINDING;
      x->finding = (aucs_finding_kind)k;
      return 0;
    }
  return bad(c, x->at, "unknown expectation kind '%.*s'", (int)len, w);
}

/* How many lines a detection expectation names: [*lo, *hi]. */
static void arity(const expect *x, unsigned *lo, unsigned *hi) {
  *lo = *hi = 1;
  if (x->kind == KIND_CLEAN)
    *lo = *hi = 0;
  else if (x->kind == KIND_DEADLOCK || x->kind == KIND_UNSATISFIABLE)
    return;
  else if (x->finding == AUCS_FINDING_RACE ||
           x->finding == AUCS_FINDING_INTER_BLOCK_RACE ||
           x->finding == AUCS_FINDING_SCOPE_RACE ||
           x->finding == AUCS_FINDING_MISSING_FENCE ||
           x->finding == AUCS_FINDING_TEXTURE_INCOHERENT)
    *lo = *hi = 2;
  else if (x->finding == AUCS_FINDING_BARRIER_DIVERGENCE)
    *hi = 2;
}

/* A detection expectation: its lines, checked against its kind. */
static int parse_detection(corpus *c, const unsigned *v, unsigned n, expect x,
                           int keep) {
  unsigned lo, hi;
  arity(&x, &lo, &hi);
  if (n < lo || n > hi)
    return bad(c, x.at, "%s takes %u%s line%s, not %u", kind_name(&x), lo,
               hi > lo ? " or 2" : "", hi == 1 ? "" : "s", n);
  for (unsigned i = 0; i < n; i++)
    x.line[i] = v[i];
  x.nline = n;
  c->ex.detection++;
  if (keep)
    push(&c->ex, x);
  return 0;
}

/* The asserted lines after the kind, up to end. Pushes them when keep. */
static int parse_lines(corpus *c, const char *s, const char *end, expect x,
                       unsigned nlines, int keep) {
  unsigned v[3], n = 0;
  for (;;) {
    while (s < end && (*s == ' ' || *s == '\t' || *s == '\r'))
      s++;
    if (s == end)
      break;
    if (!isdigit((unsigned char)*s))
      return bad(c, x.at, "expected a source line number");
    char *next;
    unsigned long line = strtoul(s, &next, 10);
    s = next;
    if (line == 0 || line > nlines)
      return bad(c, x.at, "line number outside the file");
    if (x.kind != KIND_UNIFORM && x.kind != KIND_DIVERGENT) {
      if (n == 3)
        return bad(c, x.at, "too many lines");
      v[n++] = (unsigned)line;
      continue;
    }
    x.line[0] = (unsigned)line;
    x.nline = 1;
    n++;
    c->ex.uniformity++;
    if (keep)
      push(&c->ex, x);
  }
  if (x.kind != KIND_UNIFORM && x.kind != KIND_DIVERGENT)
    return parse_detection(c, v, n, x, keep);
  return n ? 0 : bad(c, x.at, "expectation names no line");
}

static int parse_expect(corpus *c, const char *s, const char *end, unsigned at,
                        unsigned nlines) {
  int level;
  expect x = {.at = at};
  s = parse_level(s, &level);
  if (!s)
    return bad(c, at, "malformed AUCS-EXPECT (want -O0:, -O2: or :)");
  if (parse_kind(c, &s, end, &x))
    return 1;
  int keep = level == LEVEL_ANY || level == c->level;
  return parse_lines(c, s, end, x, nlines, keep);
}

/* ---- parsing: static expectations --------------------------------------- */

/* The next blank-separated word in [*s, end): its start, length in *len. */
static const char *next_word(const char **s, const char *end, size_t *len) {
  while (*s < end && isspace((unsigned char)**s))
    (*s)++;
  const char *w = *s;
  while (*s < end && !isspace((unsigned char)**s))
    (*s)++;
  *len = (size_t)(*s - w);
  return w;
}

static int parse_proof(const corpus *c, const char **s, const char *end,
                       expect *x) {
  size_t len;
  const char *w = next_word(s, end, &len);
  for (int p = AUCS_PROOF_NONE; p <= AUCS_PROOF_RACE_FREE; p++)
    if (word_is(w, len, aucs_static_proof_name((aucs_static_proof)p))) {
      x->proof = aucs_static_proof_name((aucs_static_proof)p);
      return 0;
    }
  return bad(c, x->at, "proof takes race-free, partial or none, not '%.*s'",
             (int)len, w);
}

static int parse_confirmed(const corpus *c, const char **s, const char *end,
                           expect *x, unsigned nlines) {
  for (x->nline = 0; x->nline < 2; x->nline++) {
    size_t len;
    const char *w = next_word(s, end, &len);
    char *stop;
    unsigned long line = len ? strtoul(w, &stop, 10) : 0;
    if (!len || stop != w + len)
      return bad(c, x->at, "confirmed takes 2 source line numbers");
    if (line == 0 || line > nlines)
      return bad(c, x->at, "line number outside the file");
    x->line[x->nline] = (unsigned)line;
  }
  return 0;
}

/* proven-redundant's line: one source line. */
static int parse_barrier(corpus *c, const char **s, const char *end, expect *x,
                         unsigned nlines) {
  size_t len;
  const char *w = next_word(s, end, &len);
  char *stop;
  unsigned long line = len ? strtoul(w, &stop, 10) : 0;
  if (!len || stop != w + len)
    return bad(c, x->at, "proven-redundant takes 1 source line number");
  if (line == 0 || line > nlines)
    return bad(c, x->at, "line number outside the file");
  x->line[0] = (unsigned)line;
  x->nline = 1;
  return 0;
}

/* `AUCS-EXPECT-STATIC[-O0|-O2]: proof P | never-proven | confirmed A B |
 * proven-redundant L`. */
static int parse_static(corpus *c, const char *s, const char *end, unsigned at,
                        unsigned nlines) {
  int level;
  expect x = {.at = at};
  size_t len;
  s = parse_level(s, &level);
  if (!s)
    return bad(c, at, "malformed AUCS-EXPECT-STATIC (want -O0:, -O2: or :)");
  const char *w = next_word(&s, end, &len);
  int rc = 0;
  if (word_is(w, len, "proof"))
    x.kind = KIND_PROOF, rc = parse_proof(c, &s, end, &x);
  else if (word_is(w, len, "never-proven"))
    x.kind = KIND_NEVER_PROVEN;
  else if (word_is(w, len, "confirmed"))
    x.kind = KIND_CONFIRMED, rc = parse_confirmed(c, &s, end, &x, nlines);
  else if (word_is(w, len, "proven-redundant"))
    x.kind = KIND_PROVEN_REDUNDANT, rc = parse_barrier(c, &s, end, &x, nlines);
  else
    return bad(c, at, "unknown static expectation '%.*s'", (int)len, w);
  if (rc)
    return 1;
  if (next_word(&s, end, &len), len)
    return bad(c, at, "trailing text after the static expectation");
  if (level == LEVEL_ANY || level == c->level) {
    push(&c->ex, x);
    c->ex.nstatic++;
  }
  return 0;
}

static int parse_launch(corpus *c, const char *s, const char *end,
                        unsigned at) {
  int level;
  s = parse_level(s, &level);
  if (!s)
    return bad(c, at, "malformed AUCS-LAUNCH (want -O0:, -O2: or :)");
  if (level != LEVEL_ANY && level != c->level)
    return 0;
  if (c->launch_at)
    return bad(c, at, "a second AUCS-LAUNCH for -O%d (first at line %u)",
               c->level, c->launch_at);
  c->launch_at = at;
  char *text = aucs_xasprintf("%.*s", (int)(end - s), s), *err = NULL;
  int rc = aucs_options_parse(&c->opts, text, &err);
  free(text);
  if (rc) {
    bad(c, at, "bad AUCS-LAUNCH: %s", err);
    free(err);
  }
  return rc;
}

static unsigned count_lines(const char *text) {
  unsigned n = 0;
  for (const char *p = text; *p; p++)
    n += *p == '\n';
  return n + (*text && text[strlen(text) - 1] != '\n');
}

static int parse_line(corpus *c, const char *s, const char *end, unsigned at,
                      unsigned nlines) {
  static const char expect_tag[] = "AUCS-EXPECT", launch_tag[] = "AUCS-LAUNCH";
  static const char static_tag[] = "AUCS-EXPECT-STATIC";
  if (strstr(s, "AUCS-REQUIRES: cuda-sdk") || strstr(s, "AUCS-SDK:"))
    c->sdk = 1;
  const char *t = strstr(s, static_tag);
  if (t && t < end)
    return parse_static(c, t + sizeof static_tag - 1, end, at, nlines);
  t = strstr(s, expect_tag);
  if (t && t < end)
    return parse_expect(c, t + sizeof expect_tag - 1, end, at, nlines);
  t = strstr(s, launch_tag);
  if (t && t < end)
    return parse_launch(c, t + sizeof launch_tag - 1, end, at);
  return 0;
}

static int parse_file(corpus *c, const char *text) {
  unsigned nlines = count_lines(text), at = 1;
  for (const char *s = text; *s; at++) {
    const char *end = strchr(s, '\n');
    if (!end)
      end = s + strlen(s);
    char *line = aucs_xasprintf("%.*s", (int)(end - s), s);
    int rc = parse_line(c, line, line + (end - s), at, nlines);
    free(line);
    if (rc)
      return 1;
    s = *end ? end + 1 : end;
  }
  if (!c->ex.uniformity)
    return bad(c, 1, "no uniformity expectation (uniform, divergent)");
  if (!c->ex.detection)
    return bad(c, 1, "no detection expectation (race, ..., clean)");
  return 0;
}

/* ---- analysis ----------------------------------------------------------- */

static void analyse(corpus *c, LLVMModuleRef m) {
  c->nk = aucs_kernel_list(m, &c->fns);
  c->k = aucs_xcalloc(c->nk + 1, sizeof *c->k);
  for (size_t i = 0; i < c->nk; i++) {
    c->k[i].fn = c->fns[i];
    c->k[i].cfg = aucs_cfg_build(c->fns[i]);
    c->k[i].u = aucs_uniform_compute(c->k[i].cfg);
    c->k[i].names = aucs_names_build(c->fns[i]);
  }
}

static void release(corpus *c) {
  for (size_t i = 0; i < c->nk; i++) {
    aucs_names_free(c->k[i].names);
    aucs_uniform_free(c->k[i].u);
    aucs_cfg_free(c->k[i].cfg);
  }
  free(c->k);
  free(c->fns);
  free(c->ex.v);
  free(c->command);
  aucs_options_free(&c->opts);
}

static int is_debug(LLVMValueRef I) {
  return LLVMIsADbgInfoIntrinsic(I) != NULL;
}

/* The line of I in the corpus file, 0 when I has none there. */
static unsigned line_of(const corpus *c, LLVMValueRef I) {
  size_t blen = strlen(c->base);
  aucs_srcloc loc = aucs_srcloc_of(I);
  if (!loc.file || loc.file_len < blen)
    return 0;
  const char *tail = loc.file + loc.file_len - blen;
  if (memcmp(tail, c->base, blen) || (tail != loc.file && tail[-1] != '/'))
    return 0;
  return loc.line;
}

/* 1 when an instruction of bb is on line of the corpus file. Terminators
 * and phis do not count: they sit on block boundaries (a branch carries the
 * line of its if/for, a phi that of a value merged from elsewhere). */
static int holds_line(const corpus *c, LLVMBasicBlockRef bb, unsigned line) {
  for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
       I = LLVMGetNextInstruction(I)) {
    if (LLVMIsATerminatorInst(I) || LLVMIsAPHINode(I) || is_debug(I))
      continue;
    if (line_of(c, I) == line)
      return 1;
  }
  return 0;
}

/* ---- uniformity: reporting ---------------------------------------------- */

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
  aucs_buf_printf(&b, "%s:%u: expected %s, block ", c->path, x->line[0],
                  kind_name(x));
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

/* ---- uniformity: checking ----------------------------------------------- */

/* 0 when the expectation holds; otherwise prints why and returns 1. */
static int check_uniformity(const corpus *c, const expect *x) {
  int found = 0;
  for (size_t i = 0; i < c->nk; i++) {
    const kernel *k = &c->k[i];
    for (int b = 0; b < k->cfg->nblocks; b++) {
      if (!k->cfg->reachable[b] ||
          !holds_line(c, k->cfg->blocks[b], x->line[0]))
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
           c->path, x->line[0], kind_name(x), c->level, x->at);
  return !found;
}

/* ---- detection ---------------------------------------------------------- */

/* The source lines a finding is matched by, sorted, in out[0..2): both
 * accesses of a race; the barriers (not a returned thread's exit) of a
 * barrier divergence; the one instruction of the other kinds. */
static unsigned finding_lines(const corpus *c, const aucs_finding *f,
                              unsigned out[2]) {
  const LLVMValueRef side[2] = {f->a.instr, f->b.instr};
  unsigned n = 0;
  for (int i = 0; i < 2; i++) {
    if (!side[i] || (i == 1 && f->kind != AUCS_FINDING_RACE &&
                     f->kind != AUCS_FINDING_INTER_BLOCK_RACE &&
                     f->kind != AUCS_FINDING_SCOPE_RACE &&
                     f->kind != AUCS_FINDING_MISSING_FENCE &&
                     f->kind != AUCS_FINDING_TEXTURE_INCOHERENT &&
                     f->kind != AUCS_FINDING_BARRIER_DIVERGENCE))
      continue;
    LLVMValueRef callee =
        LLVMIsACallInst(side[i]) ? LLVMGetCalledValue(side[i]) : NULL;
    size_t len;
    const char *name = callee ? LLVMGetValueName2(callee, &len) : NULL;
    if (f->kind == AUCS_FINDING_BARRIER_DIVERGENCE &&
        !aucs_nvvm_is_barrier(aucs_nvvm_classify(name)))
      continue;
    out[n++] = line_of(c, side[i]);
  }
  if (n == 2 && out[0] > out[1]) {
    unsigned t = out[0];
    out[0] = out[1];
    out[1] = t;
  }
  /* Two barriers of one line (an unrolled loop) are that line once. */
  if (n == 2 && f->kind == AUCS_FINDING_BARRIER_DIVERGENCE && out[0] == out[1])
    n = 1;
  return n;
}

static int matches(const expect *x, const aucs_finding *f,
                   const unsigned *lines, unsigned n) {
  if (x->kind != KIND_FINDING || x->finding != f->kind || x->nline != n ||
      x->warning != (f->searched != NULL) || x->benign != (f->benign != NULL))
    return 0;
  unsigned want[2] = {x->line[0], x->line[1]};
  if (n == 2 && want[0] > want[1]) {
    want[0] = x->line[1];
    want[1] = x->line[0];
  }
  for (unsigned i = 0; i < n; i++)
    if (want[i] != lines[i])
      return 0;
  return 1;
}

static void put_thread(aucs_buf *b, const aucs_access *a) {
  aucs_buf_printf(b, "thread (%u,%u,%u) block (%u,%u,%u)", a->thread.x,
                  a->thread.y, a->thread.z, a->block.x, a->block.y, a->block.z);
}

static void unexpected(const corpus *c, const aucs_report_kernel *k, size_t i,
                       const unsigned *lines, unsigned n) {
  const aucs_finding *f = &k->findings.v[i];
  aucs_buf b = {0};
  aucs_buf_printf(&b, "%s:%u: unexpected %s%s", c->path, n ? lines[0] : 0,
                  f->searched ? "warning " : "",
                  f->benign ? "benign-race" : aucs_finding_kind_name(f->kind));
  for (unsigned j = 0; j < n; j++)
    aucs_buf_printf(&b, " %u", lines[j]);
  aucs_buf_printf(&b, " in %s (", k->demangled);
  put_thread(&b, &f->a);
  if (f->b.instr) {
    aucs_buf_puts(&b, "; ");
    put_thread(&b, &f->b);
  }
  aucs_buf_printf(&b, "): %s; reproduce with: %s", f->message ? f->message : "",
                  k->reproduce[i]);
  puts(b.data);
  aucs_buf_free(&b);
}

/* The first line of this file that the reason names ("<base>:L:C") after
 * `from` in it, when the reason has `has`; else 0. */
static unsigned reason_line(const corpus *c, const aucs_report_kernel *k,
                            const char *has, const char *from) {
  const char *r = k->reason;
  if (!r || !strstr(r, has) || !(r = strstr(r, from)))
    return 0;
  size_t n = strlen(c->base);
  for (const char *p = strstr(r, c->base); p; p = strstr(p + 1, c->base))
    if (p[n] == ':' && isdigit((unsigned char)p[n + 1]))
      return (unsigned)strtoul(p + n + 1, NULL, 10);
  return 0;
}

/* A deadlock expectation that k's run matches (the reason names
 * "<base>:L:C: ... deadlocks"), or an unsatisfiable one that k's reason
 * proves ("the solver proved <base>:L:C ... unsatisfiable"), marking it:
 * 1. */
static int expected_error(corpus *c, const aucs_report_kernel *k) {
  unsigned dead = reason_line(c, k, "the launch deadlocks", "");
  unsigned unsat = reason_line(c, k, "unsatisfiable", "the solver proved ");
  int hit = 0;
  for (int e = 0; e < c->ex.n; e++) {
    expect *x = &c->ex.v[e];
    if ((x->kind == KIND_DEADLOCK && dead && x->line[0] == dead) ||
        (x->kind == KIND_UNSATISFIABLE && unsat && x->line[0] == unsat))
      hit = x->matched = 1;
  }
  return hit;
}

/* Match every finding of k to the expectations; each unmatched one fails. */
static void match_kernel(corpus *c, const aucs_report_kernel *k) {
  if (k->status != AUCS_KERNEL_CHECKED && !expected_error(c, k)) {
    printf("%s:1: kernel %s not checked at -O%d: %s\n", c->path, k->demangled,
           c->level, k->reason ? k->reason : "(no reason)");
    c->failed++;
  }
  for (size_t i = 0; i < k->findings.n; i++) {
    unsigned lines[2] = {0, 0};
    unsigned n = finding_lines(c, &k->findings.v[i], lines);
    int hit = 0;
    for (int e = 0; e < c->ex.n; e++)
      if (matches(&c->ex.v[e], &k->findings.v[i], lines, n))
        hit = c->ex.v[e].matched = 1;
    if (!hit) {
      unexpected(c, k, i, lines, n);
      c->failed++;
    }
  }
}

static void check_expectation(corpus *c, const expect *x, size_t findings) {
  int ok = x->kind == KIND_CLEAN ? findings == 0 : x->matched;
  if (ok) {
    c->passed++;
    return;
  }
  c->failed++;
  if (x->kind == KIND_CLEAN) {
    printf("%s:%u: expected clean, the detector reported %zu finding%s at "
           "-O%d\n",
           c->path, x->at, findings, findings == 1 ? "" : "s", c->level);
    return;
  }
  printf("%s:%u: missed %s%s", c->path, x->line[0],
         x->warning ? "warning " : "",
         x->benign ? "benign-race" : kind_name(x));
  for (unsigned i = 0; i < x->nline; i++)
    printf(" %u", x->line[i]);
  printf(" at -O%d (expectation at line %u)\n", c->level, x->at);
}

static void detect(corpus *c, LLVMModuleRef m) {
  if (!c->opts.has_seed)
    c->opts.has_seed = 1, c->opts.seed = SEED;
  c->command = aucs_xasprintf("aucs detect %s -O%d", c->path, c->level);
  c->opts.input = c->path;
  c->opts.command = c->command;
  aucs_report r;
  char *err = NULL;
  if (aucs_detect_run(m, c->fns, c->nk, &c->opts, &r, &err)) {
    printf("%s:%u: the detector refused the launch options: %s\n", c->path,
           c->launch_at, err);
    free(err);
    c->failed++;
    return;
  }
  size_t findings = 0;
  for (size_t i = 0; i < r.nkernels; i++) {
    match_kernel(c, &r.kernels[i]);
    findings += r.kernels[i].findings.n;
  }
  for (int e = 0; e < c->ex.n; e++)
    if (is_detection(c->ex.v[e].kind))
      check_expectation(c, &c->ex.v[e], findings);
  aucs_detect_report_free(&r);
}

/* ---- static expectations ------------------------------------------------ */

static int is_race(const aucs_finding *f) {
  return f->kind == AUCS_FINDING_RACE ||
         f->kind == AUCS_FINDING_INTER_BLOCK_RACE;
}

/* Races of k that a solver witness replayed: each must match a `confirmed`
 * expectation (marking it) or is a failure. */
static void match_confirmed(corpus *c, const aucs_report_kernel *k) {
  for (size_t i = 0; k->st.witness && i < k->findings.n; i++) {
    const aucs_finding *f = &k->findings.v[i];
    if (!is_race(f) || !k->st.witness[i])
      continue;
    unsigned lines[2] = {0, 0};
    finding_lines(c, f, lines);
    int hit = 0;
    for (int e = 0; e < c->ex.n; e++) {
      expect *x = &c->ex.v[e];
      unsigned lo = x->line[0] < x->line[1] ? x->line[0] : x->line[1];
      unsigned hi = x->line[0] ^ x->line[1] ^ lo;
      if (x->kind == KIND_CONFIRMED && lo == lines[0] && hi == lines[1])
        hit = x->matched = 1;
    }
    if (!hit) {
      printf("%s:%u: unexpected confirmed race %u %u in %s at -O%d (the "
             "solver's witness replays it; reproduce with: %s)\n",
             c->path, lines[0], lines[0], lines[1], k->demangled, c->level,
             k->reproduce[i] ? k->reproduce[i] : "-");
      c->failed++;
    }
  }
}

/* A proof or never-proven expectation against one kernel; 0 when it holds. */
static int check_proof(const corpus *c, const expect *x,
                       const aucs_report_kernel *k) {
  const aucs_report_static *st = &k->st;
  int ok =
      st->ran && (x->kind == KIND_PROOF ? !strcmp(st->proof, x->proof)
                                        : strcmp(st->proof, "race-free") != 0);
  if (!ok)
    printf("%s:%u: expected %s%s at -O%d, kernel %s has proof %s (%zu pairs: "
           "%zu unsat, %zu sat, %zu unknown; %.2f s in the solver)\n",
           c->path, x->at, x->kind == KIND_PROOF ? "proof " : "never-proven",
           x->kind == KIND_PROOF ? x->proof : "", c->level, k->demangled,
           st->ran ? st->proof : "(not run)", st->pairs, st->unsat, st->sat,
           st->unknown, st->seconds);
  return !ok;
}

/* A redundant-barrier finding of the --static run on line L: one Z3
 * proved (with --static those are the only ones). */
static int proven_barrier(corpus *c, const aucs_report *r, unsigned line) {
  for (size_t i = 0; i < r->nkernels; i++)
    for (size_t j = 0; j < r->kernels[i].findings.n; j++) {
      const aucs_finding *f = &r->kernels[i].findings.v[j];
      unsigned lines[2] = {0, 0};
      if (f->kind == AUCS_FINDING_REDUNDANT_BARRIER && f->proven &&
          finding_lines(c, f, lines) && lines[0] == line)
        return 1;
    }
  return 0;
}

static void count_static(corpus *c, const aucs_report *r, const expect *x) {
  int failed = 0;
  if (x->kind == KIND_PROVEN_REDUNDANT) {
    failed = !proven_barrier(c, r, x->line[0]);
    if (failed)
      printf("%s:%u: missed proven-redundant %u at -O%d: the static checker "
             "did not prove the barrier redundant (expectation at line %u)\n",
             c->path, x->line[0], x->line[0], c->level, x->at);
    failed ? c->failed++ : c->passed++;
    return;
  }
  if (x->kind == KIND_CONFIRMED) {
    failed = !x->matched;
    if (failed)
      printf("%s:%u: missed confirmed %u %u at -O%d: no race on those lines "
             "replayed from a solver witness (expectation at line %u)\n",
             c->path, x->line[0], x->line[0], x->line[1], c->level, x->at);
  }
  for (size_t i = 0; x->kind != KIND_CONFIRMED && i < r->nkernels; i++)
    failed |= check_proof(c, x, &r->kernels[i]);
  failed ? c->failed++ : c->passed++;
}

/* Detect again with --static (the checker alone, its witnesses replayed)
 * under the same launch options, and check the static expectations. */
static void check_static(corpus *c, LLVMModuleRef m) {
  if (!c->ex.nstatic)
    return;
  aucs_detect_options o = c->opts;
  o.static_only = 1, o.no_static = 0;
  if (!o.static_budget)
    o.static_budget = STATIC_BUDGET_MS;
  aucs_report r;
  char *err = NULL;
  if (aucs_detect_run(m, c->fns, c->nk, &o, &r, &err)) {
    printf("%s:%u: the detector refused the launch options: %s\n", c->path,
           c->launch_at, err);
    free(err);
    c->failed++;
    return;
  }
  for (size_t i = 0; i < r.nkernels; i++)
    match_confirmed(c, &r.kernels[i]);
  for (int e = 0; e < c->ex.n; e++)
    if (c->ex.v[e].kind >= KIND_PROOF)
      count_static(c, &r, &c->ex.v[e]);
  aucs_detect_report_free(&r);
}

/* ---- driver ------------------------------------------------------------- */

/* AUCS-SDK: the SDK root ($CUDA_PATH, else /usr/local/cuda) when it has
 * libcu++ (include/cccl); NULL otherwise. */
static const char *sdk_root(void) {
  const char *root = getenv("CUDA_PATH");
  if (!root || !*root)
    root = "/usr/local/cuda";
  char *probe = aucs_xasprintf("%s/include/cccl/cuda/atomic", root);
  FILE *f = fopen(probe, "r");
  free(probe);
  if (f)
    fclose(f);
  return f ? root : NULL;
}

enum { SKIPPED = 77 }; /* CTest's SKIP_RETURN_CODE for corpus tests */

static int load(corpus *c, aucs_module **m) {
  aucs_load_options o = {.no_cuda_sdk = 1, .opt_level = c->level};
  char *inc = NULL;
  const char *args[2];
  if (c->sdk) {
    o.no_cuda_sdk = 0;
    o.cuda_path = sdk_root();
    if (!o.cuda_path) {
      printf("skipped: %s needs a CUDA SDK with its libcu++ headers "
             "($CUDA_PATH or /usr/local/cuda, include/cccl)\n",
             c->path);
      return SKIPPED;
    }
    inc = aucs_xasprintf("%s/include/cccl", o.cuda_path);
    args[0] = "-I", args[1] = inc;
    o.extra_args = args, o.n_extra_args = 2;
  }
  char *err = NULL;
  int rc = aucs_module_load(c->path, &o, m, &err);
  free(inc);
  if (!rc)
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

static int has_kind(const corpus *c, int detection) {
  for (int i = 0; i < c->ex.n; i++)
    if (is_detection(c->ex.v[i].kind) == detection)
      return 1;
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
  if (!r && !has_kind(c, 0))
    r = bad(c, 1, "no uniformity expectation applies at -O%d", c->level);
  if (!r && !has_kind(c, 1))
    r = bad(c, 1, "no detection expectation applies at -O%d", c->level);
  return r;
}

int main(int argc, char **argv) {
  corpus c = {0};
  aucs_module *m = NULL;
  int rc = parse_args(&c, argc, argv) || read_expectations(&c);
  if (rc || (rc = load(&c, &m))) {
    release(&c);
    return rc;
  }
  analyse(&c, aucs_module_llvm(m));
  for (int i = 0; i < c.ex.n; i++)
    if (c.ex.v[i].kind == KIND_UNIFORM || c.ex.v[i].kind == KIND_DIVERGENT)
      check_uniformity(&c, &c.ex.v[i]) ? c.failed++ : c.passed++;
  detect(&c, aucs_module_llvm(m));
  check_static(&c, aucs_module_llvm(m));
  printf("%d passed, %d failed\n", c.passed, c.failed);
  release(&c);
  aucs_module_free(m);
  return c.failed || !c.passed;
}
