/*
 * patch_loop: the source form of a loop made uniform (DESIGN.md section 6.3
 * step 4; repair/uniformize.c) for the checked source patch (patch.c). The
 * loop's hunk also holds the edits the repair made inside the loop
 * afterwards (barriers kept outside a guard, inserted or deleted), so they
 * are one source edit.
 *
 * Steps, for the uniformize-loop edit at line L:
 *   1. Line L is `for (INIT; COND; STEP) {` or `while (COND) {`, and its
 *      braced body closes at a `}` line of its own (or, with no `{`, its
 *      body is one statement on the next line).
 *   2. The body is cut into top-level statements (lines at the body's
 *      depth, up to the line where the depth comes back and a `;` or `}`
 *      ends it with no `else` after). Each is a barrier line
 *      (`__syncthreads();`), an exit (`if (C) break;`, the same with the
 *      jump on the next line, or `if (C) { ...; break; }`; `return` in
 *      place of `break` when the loop is the kernel's last statement), or
 *      a plain statement with no jump and no barrier (a nested loop or
 *      `switch` may hold its own `break`/`continue`).
 *   3. The other edits inside the loop's lines are taken in: a barrier
 *      kept outside a guard (flatten-exit at a barrier line), a barrier
 *      inserted before the loop (unless deleted again), before a
 *      statement or at the end of the body (with the flattening of the
 *      body under `active` and its block splits; where the IR barrier
 *      falls between the reads and the one write of an assignment on one
 *      line, the statement is split through temporaries declared at the
 *      top of the while body: `x op= e;` through `decltype(&(x)) ref;`
 *      and `decltype(*ref op (e)) val;`, `x = e;` through `decltype(&(x))
 *      ref;` and `decltype(+*ref) val;` (the lhs's type after promotion,
 *      not a reference; `*ref = val;` converts back as `x = e;` did), and
 *      where it follows the statement's last access, it goes before the
 *      next statement), a deleted barrier
 *      line (or the barrier a flatten-exit kept, by its id; else one only
 *      the IR rewrite had). Any other edit there refuses the form.
 *   4. The loop becomes (INIT and its braces only when there is one):
 *
 *        for (INIT; COND; STEP) {         {
 *          int x = e;                       INIT;
 *          if (C) break;                    bool active = COND;
 *          s[t] = x;                        while (__syncthreads_or(active)) {
 *          __syncthreads();                   int x;
 *          out[t] = s[t + 1] + x;             if (active) {
 *        }                                      x = e;
 *                                               if (C) active = false;
 *                                             }
 *                                             if (active) {
 *                                               s[t] = x;
 *                                             }
 *                                             __syncthreads();
 *                                             if (active) {
 *                                               out[t] = s[t + 1] + x;
 *                                               STEP;
 *                                               active = COND;
 *                                             }
 *                                           }
 *                                         }
 *
 *      Guarded runs end at each barrier and after each exit; declarations
 *      a later run uses are declared at the top of the while body.
 *
 * Limitation: a `continue`, a `goto`, a `return` with code after the loop,
 * a jump nested deeper than an exit `if`, a barrier not on a line of its
 * own at the body's level, a `do` loop, a header over several lines, a
 * loop inside a divergent `if` (absorbed by the repair; pt_form_loop_under
 * takes one in the code an early return or an `if (C) {` block guards,
 * and patch_active.c one in a `__device__` helper a caller's return made
 * divergent, the flag passed in), a barrier between the reads and the
 * write of a statement that is not one assignment on one line (or of a
 * plain assignment that stores a vector, an aggregate, a half or a
 * possible bool, read from the IR store: `decltype(+*ref)` would not name
 * its type, or an int temporary would drop the fraction a bool keeps),
 * and preprocessor lines in the body refuse the form (the edit stays "IR
 * only").
 */
#include "patch_impl.h"

#include "aucs/repair.h"

#include <llvm-c/Core.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

typedef enum { ST_PLAIN, ST_BARRIER, ST_EXIT } stmt_kind;

typedef struct stmt {
  size_t from, to;
  stmt_kind kind;
  size_t jump;     /* ST_EXIT: the line holding the `break;`/`return;` */
  int cut_before;  /* a barrier inserted before it */
  int deleted;     /* ST_BARRIER: the repair deleted it */
  int hoist;       /* a declaration a later run uses: declared above */
  int split;       /* a barrier between its reads and its write */
  pt_assign a;     /* split: the compound assignment */
  char *ref, *val; /* split: the temporaries' names */
  char *name;      /* hoist: the declared name; its type is the text before */
  size_t type_len; /* hoist: of the trimmed line */
} stmt;

typedef struct loop {
  size_t head, end; /* the header line and the body's closing `}` line */
  const char *init, *cond, *step;
  size_t init_len, cond_len, step_len;
  int last; /* the loop is the kernel's last statement */
  stmt *v;
  size_t n;
  int cut_end; /* a barrier inserted at the end of the body */
  int pre;     /* barriers inserted before the loop, less those deleted */
  int braceless;   /* the body is the one line `end` */
  LLVMModuleRef m; /* the repaired module (the barriers by id) */
} loop;

static int word_char(char c) { return isalnum((unsigned char)c) || c == '_'; }

static int line_has_word(const pt_text *t, size_t l, const char *w) {
  return pt_has_word(t->code + t->start[l - 1], t->start[l] - t->start[l - 1],
                     w);
}

static int line_has(const pt_text *t, size_t l, const char *s) {
  size_t n = t->start[l] - t->start[l - 1];
  char *line = aucs_xasprintf("%.*s", (int)n, t->code + t->start[l - 1]);
  int has = strstr(line, s) != NULL;
  free(line);
  return has;
}

/* Comments are blanked out of t->code: a line with one differs there. */
static int has_comment(const pt_text *t, size_t l) {
  size_t at = t->start[l - 1];
  return memcmp(t->data + at, t->code + at, t->start[l] - at) != 0;
}

static void trim(const char **s, size_t *n) {
  while (*n && isspace((unsigned char)**s))
    (*s)++, (*n)--;
  while (*n && isspace((unsigned char)(*s)[*n - 1]))
    (*n)--;
}

/* ---- 1. the header --------------------------------------------------------*/

/* `for (A; B; C) {` or `while (B) {` at line l into lp. */
static const char *parse_head(const pt_text *t, size_t l, loop *lp) {
  size_t n;
  const char *s = pt_trimmed(t, l, &n);
  int is_for = n > 3 && !strncmp(s, "for", 3) && !word_char(s[3]);
  int is_while = n > 5 && !strncmp(s, "while", 5) && !word_char(s[5]);
  size_t o = is_for ? 3 : 5;
  while (o < n && s[o] == ' ')
    o++;
  if ((!is_for && !is_while) || o >= n || s[o] != '(' || has_comment(t, l))
    return "the loop does not begin at a `for` or `while` line of this file "
           "(a macro, a `do` loop or a comment on its line)";
  int d = 0;
  size_t close = 0, semi[2] = {0, 0}, ns = 0;
  for (size_t i = o; i < n && !close; i++) {
    d += s[i] == '(' || s[i] == '[' || s[i] == '{';
    d -= s[i] == ')' || s[i] == ']' || s[i] == '}';
    if (s[i] == ';' && d == 1 && ns < 2)
      semi[ns++] = i;
    if (!d)
      close = i;
  }
  const char *rest = s + close + 1;
  size_t rest_n = close ? n - close - 1 : 0;
  trim(&rest, &rest_n);
  if (!close || rest_n > 1 || (rest_n && *rest != '{') || (is_for && ns != 2) ||
      (is_while && ns))
    return "the loop's header is not `for (init; cond; step) {` or "
           "`while (cond) {` on one line";
  lp->braceless = !rest_n;
  lp->cond = is_for ? s + semi[0] + 1 : s + o + 1;
  lp->cond_len = is_for ? semi[1] - semi[0] - 1 : close - o - 1;
  lp->init = s + o + 1;
  lp->init_len = is_for ? semi[0] - o - 1 : 0;
  lp->step = is_for ? s + semi[1] + 1 : s;
  lp->step_len = is_for ? close - semi[1] - 1 : 0;
  trim(&lp->init, &lp->init_len);
  trim(&lp->cond, &lp->cond_len);
  trim(&lp->step, &lp->step_len);
  return NULL;
}

/* ---- 2. the body's statements ---------------------------------------------*/

static char last_char(const pt_text *t, size_t l) {
  size_t n;
  const char *s = pt_trimmed(t, l, &n);
  return n ? s[n - 1] : 0;
}

static int starts(const pt_text *t, size_t l, const char *word) {
  size_t n, w = strlen(word);
  const char *s = pt_trimmed(t, l, &n);
  return n >= w && !strncmp(s, word, w) && (n == w || !word_char(s[w]));
}

/* The last line of the statement at body depth d starting at line l. */
static size_t stmt_end(const pt_text *t, size_t l, size_t end, int d) {
  for (size_t e = l; e < end; e++) {
    char c = last_char(t, e);
    size_t b = pt_below(t, e);
    if (t->depth[e + 1] == d && (c == ';' || c == '}') &&
        !(b && (starts(t, b, "else") || pt_line_is(t, b, "{") ||
                (c == '}' && starts(t, b, "while")))))
      return e;
  }
  return 0;
}

static const char *const jumps[] = {"break", "continue", "return", "goto"};

/* The jump words of lines from..to: bit i for jumps[i]; *line: the last. */
static unsigned jumps_in(const pt_text *t, size_t from, size_t to,
                         size_t *line) {
  unsigned m = 0;
  for (size_t l = from; l <= to; l++)
    for (unsigned i = 0; i < 4; i++)
      if (line_has_word(t, l, jumps[i]))
        m |= 1u << i, *line = l;
  return m;
}

/* Whether line l ends with `break;` or `return;` (the jump of an exit). */
static int ends_in_jump(const pt_text *t, size_t l) {
  size_t n;
  const char *s = pt_trimmed(t, l, &n);
  return (n >= 6 && !strncmp(s + n - 6, "break;", 6) &&
          (n == 6 || !word_char(s[n - 7]))) ||
         (n >= 7 && !strncmp(s + n - 7, "return;", 7) &&
          (n == 7 || !word_char(s[n - 8])));
}

/* An exit `if` at lines st->from..to with its one jump at line j. */
static int exit_if(const pt_text *t, const stmt *st, size_t j) {
  if (!starts(t, st->from, "if") || !ends_in_jump(t, j) || has_comment(t, j))
    return 0;
  if (st->from == st->to || (j == st->to && j == st->from + 1))
    return j == st->to;
  return last_char(t, st->from) == '{' && pt_line_is(t, st->to, "}") &&
         pt_below(t, j) == st->to && t->depth[j] == t->depth[st->from] + 1 &&
         pt_block_end(t, st->from) == st->to;
}

static const char *classify(const pt_text *t, const loop *lp, stmt *st) {
  for (size_t l = st->from; l <= st->to; l++) {
    size_t n;
    const char *x = pt_trimmed(t, l, &n);
    if (n && *x == '#')
      return "a preprocessor line in the loop's body";
  }
  if (st->from == st->to && pt_line_is(t, st->from, "__syncthreads();")) {
    st->kind = ST_BARRIER;
    return NULL;
  }
  for (size_t l = st->from; l <= st->to; l++)
    if (line_has(t, l, "__syncthreads") || line_has(t, l, "sync("))
      return "a barrier of the loop's body is not a `__syncthreads();` line "
             "of its own at the body's level";
  size_t j = 0;
  unsigned m = jumps_in(t, st->from, st->to, &j);
  int nested = starts(t, st->from, "for") || starts(t, st->from, "while") ||
               starts(t, st->from, "do") || starts(t, st->from, "switch");
  if (nested && !(m & ~3u))
    return NULL;
  if (m & 2u)
    return "the loop's body has a `continue` (the rewrite would have to "
           "skip to the step under `active`)";
  if (!m)
    return NULL;
  size_t j2 = 0;
  if ((m & 8u) || jumps_in(t, st->from, j - 1, &j2) || !exit_if(t, st, j))
    return "a `break`, `return` or `goto` of the loop's body is not the "
           "last statement of an `if` at the body's level";
  if ((m & 4u) && !lp->last)
    return "a `return` in the loop's body would skip code after the loop";
  st->kind = ST_EXIT;
  st->jump = j;
  return NULL;
}

static const char *cut_body(const pt_text *t, loop *lp) {
  int d = t->depth[lp->head] + 1;
  lp->v = aucs_xcalloc(lp->end - lp->head + 1, sizeof(stmt));
  if (lp->braceless) {
    lp->v[lp->n++] = (stmt){.from = lp->end, .to = lp->end};
    return classify(t, lp, &lp->v[0]);
  }
  for (size_t l = lp->head + 1; l < lp->end;) {
    size_t n;
    if (pt_trimmed(t, l, &n), !n) {
      l++;
      continue;
    }
    size_t e = t->depth[l] == d ? stmt_end(t, l, lp->end, d) : 0;
    if (!e)
      return "a statement of the loop's body does not end on a line at the "
             "body's level";
    stmt *st = &lp->v[lp->n++];
    st->from = l, st->to = e;
    const char *why = classify(t, lp, st);
    if (why)
      return why;
    l = e + 1;
  }
  return NULL;
}

/* ---- 3. the edits inside the loop -----------------------------------------*/

static stmt *stmt_at(loop *lp, size_t l) {
  for (size_t i = 0; i < lp->n; i++)
    if (lp->v[i].from == l)
      return &lp->v[i];
  return NULL;
}

typedef enum { AT_START, AT_WRITE, AT_END } cut_kind;

/* What line l does after barrier `bar` (through the guards the flattening
 * put between, first successors) until another line begins: its one store
 * and nothing else that touches memory (the barrier falls between the
 * statement's reads and its write), nothing that touches memory (its
 * end), or more (its start). */
static cut_kind after_barrier(LLVMValueRef bar, unsigned l,
                              LLVMValueRef *store) {
  int stores = 0, others = 0, hops = 0;
  for (LLVMValueRef I = bar ? LLVMGetNextInstruction(bar) : NULL; I;) {
    if (LLVMIsATerminatorInst(I)) {
      if (LLVMGetInstructionOpcode(I) != LLVMBr || hops++ == 8)
        return AT_START;
      I = LLVMGetFirstInstruction(LLVMGetSuccessor(I, 0));
      continue;
    }
    unsigned at = LLVMIsAIntrinsicInst(I) ? 0 : LLVMGetDebugLocLine(I);
    if (at && at != l)
      return others        ? AT_START
             : stores == 1 ? AT_WRITE
             : stores      ? AT_START
                           : AT_END;
    if (at == l && pt_touches_memory(I))
      *(LLVMGetInstructionOpcode(I) == LLVMStore ? &stores : &others) += 1;
    if (at == l && LLVMGetInstructionOpcode(I) == LLVMStore)
      *store = I;
    I = LLVMGetNextInstruction(I);
  }
  return AT_START;
}

/* Whether v is (through the phis the flattening adds) a bool widened to
 * a byte: `zext i1`. */
static int from_bool(LLVMValueRef v, int depth) {
  if (LLVMIsAZExtInst(v))
    return LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(v, 0))) == 1;
  if (!LLVMIsAPHINode(v) || depth > 4)
    return 0;
  for (unsigned i = 0; i < LLVMCountIncoming(v); i++)
    if (from_bool(LLVMGetIncomingValue(v, i), depth + 1))
      return 1;
  return 0;
}

/* Why `*ref = val;` with `decltype(+*ref) val` would not store exactly
 * what `x = e;` stores (the IR store's value type), or NULL: a scalar
 * (unary + promotes an integer, and the assignment converts back), not a
 * bool (a fraction of e would be dropped before the conversion to bool),
 * not a vector or an aggregate (no unary +). */
static const char *plain_store_why(LLVMValueRef store) {
  LLVMValueRef v = store ? LLVMGetOperand(store, 0) : NULL;
  LLVMTypeKind k = v ? LLVMGetTypeKind(LLVMTypeOf(v)) : LLVMVoidTypeKind;
  if (k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind ||
      k == LLVMPointerTypeKind)
    return NULL;
  if (k != LLVMIntegerTypeKind)
    return "a barrier inserted in the loop falls between the reads and the "
           "write of a plain assignment whose value is not a scalar (a "
           "vector such as float4, a struct, or a half): its temporary "
           "cannot be declared exactly as `decltype(+*ref)`";
  if (LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 1 || from_bool(v, 0))
    return "a barrier inserted in the loop falls between the reads and the "
           "write of a plain assignment that may store a bool: its "
           "temporary `decltype(+*ref)` (an int) would drop a fraction the "
           "conversion to bool keeps";
  return NULL;
}

/* A barrier inserted before statement st (plain): between its reads and
 * its write (a split through temporaries), after its last access (before
 * the next statement), or before it. */
static const char *cut_at(const pt_text *t, const aucs_edit *e, loop *lp,
                          stmt *st) {
  LLVMValueRef bar = pt_by_id(lp->m, e->function, e->id), store = NULL;
  cut_kind k = bar ? after_barrier(bar, (unsigned)st->from, &store) : AT_START;
  if (k == AT_END && st->from == st->to)
    return st + 1 < lp->v + lp->n ? (st[1].cut_before = 1, NULL)
                                  : (lp->cut_end = 1, NULL);
  if (k != AT_WRITE)
    return st->cut_before = 1, NULL;
  if (st->from == st->to && pt_compound(t, st->from, &st->a))
    return st->split = 1, NULL;
  if (st->from != st->to || !pt_plain_assign(t, st->from, &st->a))
    return "a barrier inserted in the loop falls between the reads and the "
           "write of a statement that is not one assignment (`x = e;`, "
           "`x op= e;`, `x++;`) on one line";
  const char *why = plain_store_why(store);
  return why ? why : (st->split = 1, NULL);
}

static const char *take_insert(const pt_text *t, const aucs_edit *e,
                               const char *base, loop *lp) {
  unsigned before = pt_edit_at(e, "insert __syncthreads(); before ", base);
  unsigned after = pt_edit_at(e, "insert __syncthreads(); after ", base);
  stmt *st = before ? stmt_at(lp, before) : NULL;
  if (before && before == lp->head)
    return lp->pre++, NULL;
  if (st && st->kind == ST_PLAIN && !st->split && !st->cut_before)
    return cut_at(t, e, lp, st);
  if (st && st->kind != ST_BARRIER)
    return st->cut_before = 1, NULL;
  if (after && lp->n && lp->v[lp->n - 1].to == after)
    return lp->cut_end = 1, NULL;
  return "a barrier inserted in the loop does not precede a statement at "
         "the body's level";
}

/* The barrier line a flatten-exit edit of log kept the barrier `id` of
 * (the barrier moved into a guard keeps its id), or NULL. */
static stmt *kept_barrier(const aucs_editlog *log, unsigned id,
                          const char *base, loop *lp) {
  for (size_t k = 0; k < log->n && id; k++)
    if (log->v[k].kind == AUCS_EDIT_FLATTEN_EXIT && log->v[k].id == id) {
      stmt *st = stmt_at(lp, pt_edit_line(&log->v[k], base));
      return st && st->kind == ST_BARRIER ? st : NULL;
    }
  return NULL;
}

/* Whether the barrier `id` is one an edit of log inserted before the loop
 * (its header line). */
static int inserted_before(const aucs_editlog *log, unsigned id,
                           const char *base, const loop *lp) {
  for (size_t k = 0; k < log->n && id; k++)
    if (log->v[k].kind == AUCS_EDIT_INSERT_BARRIER && log->v[k].id == id)
      return pt_edit_at(&log->v[k], "insert __syncthreads(); before ", base) ==
             lp->head;
  return 0;
}

static const char *take_edit(const pt_text *t, const aucs_editlog *log,
                             const aucs_edit *e, const char *base, loop *lp) {
  unsigned l = pt_edit_line(e, base);
  stmt *st = stmt_at(lp, l);
  int bar = st && st->kind == ST_BARRIER;
  switch (e->kind) {
  case AUCS_EDIT_FLATTEN_EXIT:
    return bar ? NULL
               : "a region inside the loop was flattened apart from the "
                 "loop's barriers";
  case AUCS_EDIT_DELETE_BARRIER:
    if (l == lp->head && inserted_before(log, e->id, base, lp))
      return lp->pre--, NULL;
    if (!bar)
      st = kept_barrier(log, e->id, base, lp), bar = st != NULL;
    if (bar)
      return st->deleted = 1, NULL;
    return line_has(t, l, "__syncthreads") || line_has(t, l, "sync(")
               ? "a barrier deleted in the loop is not a `__syncthreads();` "
                 "line at the body's level"
               : NULL; /* a barrier of the IR rewrite only */
  case AUCS_EDIT_INSERT_BARRIER:
    return take_insert(t, e, base, lp);
  case AUCS_EDIT_SPLIT_BLOCK:
    return NULL;
  case AUCS_EDIT_FLATTEN_REGION: /* the body under `active`: the runs */
    return e->where && !strncmp(e->where, "region %uni.body", 16)
               ? NULL
               : "a region inside the loop was flattened apart from the "
                 "loop's guard";
  default:
    return "another edit changes the loop (a loop inside it made uniform, "
           "a region flattened, a fence or an atomic)";
  }
}

/* ---- 4. the rewrite -------------------------------------------------------*/

static const char *const not_types[] = {
    "return", "if",         "for",   "while",  "do",     "else",
    "switch", "goto",       "break", "throw",  "delete", "static",
    "auto",   "__shared__", "case",  "extern", NULL};

/* `T... name = e;` or `T... name;` on line l: name, type length. */
static int declaration(const pt_text *t, size_t l, char **name, size_t *tlen) {
  size_t n;
  const char *s = pt_trimmed(t, l, &n);
  for (const char *const *k = not_types; *k; k++)
    if (starts(t, l, *k))
      return 0;
  size_t words, last, last_len, i = pt_decl_head(s, n, 0, &words, &last,
                                                &last_len);
  if (words < 2 || i >= n || (s[i] != '=' && s[i] != ';') ||
      (s[i] == '=' && i + 1 < n && s[i + 1] == '='))
    return 0;
  *name = aucs_xasprintf("%.*s", (int)last_len, s + last);
  *tlen = last;
  return 1;
}

/* Whether line l declares several names (a comma outside brackets). */
static int several(const pt_text *t, size_t l) {
  size_t n;
  const char *s = pt_trimmed(t, l, &n);
  int d = 0;
  for (size_t i = 0; i < n; i++) {
    d += s[i] == '(' || s[i] == '[' || s[i] == '{' || s[i] == '<';
    d -= s[i] == ')' || s[i] == ']' || s[i] == '}' || s[i] == '>';
    if (s[i] == ',' && !d)
      return 1;
  }
  return 0;
}

/* The guarded runs: run r of statement i (a new run after each barrier,
 * inserted barrier and exit). */
static size_t *runs(const loop *lp) {
  size_t *r = aucs_xcalloc(lp->n + 1, sizeof(size_t)), k = 0;
  for (size_t i = 0; i < lp->n; i++) {
    const stmt *st = &lp->v[i];
    int bar = st->kind == ST_BARRIER && !st->deleted;
    if (st->cut_before || bar)
      k++;
    r[i] = k;
    if (bar || st->kind == ST_EXIT || st->split)
      k++;
  }
  return r;
}

/* Declarations used by a later run are declared at the top (hoist). */
static const char *hoist_all(const pt_text *t, loop *lp) {
  size_t *r = runs(lp);
  const char *why = NULL;
  for (size_t i = 0; i < lp->n && !why; i++) {
    stmt *st = &lp->v[i];
    char *name = NULL;
    size_t tlen = 0;
    if (st->kind != ST_PLAIN || !declaration(t, st->from, &name, &tlen))
      continue;
    for (size_t k = i + 1; k < lp->n && !st->hoist; k++)
      for (size_t l = lp->v[k].from; l <= lp->v[k].to && r[k] != r[i]; l++)
        st->hoist |= line_has_word(t, l, name);
    if (st->hoist &&
        (st->from != st->to || line_has_word(t, st->from, "const") ||
         several(t, st->from)))
      why = "a declaration a later part of the loop's body uses cannot be "
            "declared above the guards";
    st->name = name;
    st->type_len = tlen;
  }
  free(r);
  return why;
}

typedef struct out {
  const pt_text *t;
  pt_hunk *h;
  const char *extra;  /* added before each copied line */
  const char *in;     /* the while body's indentation */
  const char *active; /* the flag's name */
  int open;           /* inside `if (active) {` */
} out;

static void open_run(out *o) {
  if (!o->open)
    pt_hunk_line(o->h, 0, "%sif (%s) {", o->in, o->active);
  o->open = 1;
}

static void close_run(out *o) {
  if (o->open)
    pt_hunk_line(o->h, 0, "%s}", o->in);
  o->open = 0;
}

static void copy_blank(out *o, size_t from, size_t to) {
  for (size_t l = from; l <= to; l++)
    pt_hunk_copy(o->h, o->t, (unsigned)l, "");
}

static void copy_stmt(out *o, const stmt *st) {
  const pt_text *t = o->t;
  for (size_t l = st->from; l <= st->to; l++) {
    size_t n, in;
    const char *s = pt_trimmed(t, l, &n), *w = pt_indent(t, l, &in);
    if (l == st->from && st->hoist) {
      if (strchr(s, '='))
        pt_hunk_line(o->h, (unsigned)l, "%s%.*s%.*s", o->extra, (int)in, w,
                     (int)(n - st->type_len), s + st->type_len);
      continue;
    }
    if (st->kind == ST_EXIT && l == st->jump) {
      size_t j = n >= 6 && !strncmp(s + n - 6, "break;", 6) ? 6 : 7;
      pt_hunk_line(o->h, (unsigned)l, "%s%.*s%.*s%s = false;", o->extra,
                   (int)in, w, (int)(n - j), s, o->active);
      continue;
    }
    pt_hunk_copy(o->h, t, (unsigned)l, o->extra);
  }
}

static int bare(const char *s, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (!word_char(s[i]) && s[i] != '.')
      return 0;
  return 1;
}

/* `x op= e;` split at its barrier: `ref = &(x); val = *ref op (e);`, then
 * the barrier, then `*ref = val;` in the next run; `x = e;` the same with
 * `val = e;` (no parentheses: `x = a, b;` assigns a). */
static void copy_split(out *o, const stmt *st) {
  size_t in;
  const char *w = pt_indent(o->t, st->from, &in);
  const pt_assign *a = &st->a;
  int b = bare(a->rhs, a->rhs_len);
  unsigned L = (unsigned)st->from;
  pt_hunk_line(o->h, L, "%s%.*s%s = &(%.*s);", o->extra, (int)in, w, st->ref,
               (int)a->lhs_len, a->lhs);
  if (!a->op_len)
    pt_hunk_line(o->h, L, "%s%.*s%s = %.*s;", o->extra, (int)in, w, st->val,
                 (int)a->rhs_len, a->rhs);
  else
    pt_hunk_line(o->h, L, "%s%.*s%s = *%s %.*s %s%.*s%s;", o->extra, (int)in, w,
                 st->val, st->ref, (int)a->op_len, a->op, b ? "" : "(",
                 (int)a->rhs_len, a->rhs, b ? "" : ")");
  close_run(o);
  pt_hunk_line(o->h, 0, "%s__syncthreads();", o->in);
  open_run(o);
  pt_hunk_line(o->h, L, "%s%.*s*%s = %s;", o->extra, (int)in, w, st->ref,
               st->val);
}

/* The temporaries of the split statements, declared at the top of the
 * while body (decltype: nothing evaluated). */
static void split_decls(const pt_text *t, const loop *lp, const char *ind,
                        pt_hunk *h) {
  (void)t;
  for (size_t i = 0; i < lp->n; i++) {
    const stmt *st = &lp->v[i];
    const pt_assign *a = &st->a;
    int b = bare(a->rhs, a->rhs_len);
    if (!st->split)
      continue;
    pt_hunk_line(h, (unsigned)st->from, "%sdecltype(&(%.*s)) %s;", ind,
                 (int)a->lhs_len, a->lhs, st->ref);
    if (!a->op_len) /* the lhs's type, promoted: not a reference */
      pt_hunk_line(h, (unsigned)st->from, "%sdecltype(+*%s) %s;", ind, st->ref,
                   st->val);
    else
      pt_hunk_line(h, (unsigned)st->from, "%sdecltype(*%s %.*s %s%.*s%s) %s;",
                   ind, st->ref, (int)a->op_len, a->op, b ? "" : "(",
                   (int)a->rhs_len, a->rhs, b ? "" : ")", st->val);
  }
}

/* The statements in guarded runs; blank lines before a barrier stay
 * outside the runs. */
static void emit_body(out *o, const loop *lp) {
  size_t prev = lp->head;
  for (size_t i = 0; i < lp->n; i++) {
    const stmt *st = &lp->v[i];
    if (st->cut_before || (st->kind == ST_BARRIER && !st->deleted))
      close_run(o);
    if (st->kind != ST_BARRIER || !st->deleted)
      copy_blank(o, prev + 1, st->from - 1);
    if (st->cut_before)
      pt_hunk_line(o->h, 0, "%s__syncthreads();", o->in);
    prev = st->to;
    if (st->kind == ST_BARRIER) {
      if (!st->deleted)
        pt_hunk_line(o->h, (unsigned)st->from, "%s__syncthreads();", o->in);
      continue;
    }
    open_run(o);
    if (st->split)
      copy_split(o, st);
    else
      copy_stmt(o, st);
    if (st->kind == ST_EXIT)
      close_run(o);
  }
}

static void emit(const pt_text *t, const loop *lp, const char *active,
                 const char *guard, pt_hunk *h) {
  size_t in, bn = 0;
  const char *ind = pt_indent(t, lp->head, &in);
  if (lp->n)
    pt_indent(t, lp->v[0].from, &bn);
  const char *body = lp->n ? t->data + t->start[lp->v[0].from - 1] : "  ";
  size_t un = bn > in ? bn - in : 2;
  char *unit = aucs_xasprintf("%.*s", (int)un, bn > in ? body + in : "  ");
  int braces = lp->init_len != 0;
  char *i1 = aucs_xasprintf("%.*s%s", (int)in, ind, braces ? unit : "");
  char *i2 = aucs_xasprintf("%s%s", i1, unit);
  char *i3 = aucs_xasprintf("%s%s", i2, unit);
  char *extra = aucs_xasprintf("%s%s", unit, braces ? unit : "");
  unsigned L = (unsigned)lp->head;
  h->from = L, h->to = (unsigned)lp->end;
  for (int k = 0; k < lp->pre; k++)
    pt_hunk_line(h, 0, "%.*s__syncthreads();", (int)in, ind);
  if (braces)
    pt_hunk_line(h, 0, "%.*s{", (int)in, ind);
  if (braces)
    pt_hunk_line(h, L, "%s%.*s;", i1, (int)lp->init_len, lp->init);
  if (guard && lp->cond_len)
    pt_hunk_line(h, L, "%sbool %s = %s && (%.*s);", i1, active, guard,
                 (int)lp->cond_len, lp->cond);
  else if (guard)
    pt_hunk_line(h, L, "%sbool %s = %s;", i1, active, guard);
  else
    pt_hunk_line(h, L, "%sbool %s = %.*s;", i1, active,
                 lp->cond_len ? (int)lp->cond_len : 4,
                 lp->cond_len ? lp->cond : "true");
  pt_hunk_line(h, L, "%swhile (__syncthreads_or(%s)) {", i1, active);
  for (size_t i = 0; i < lp->n; i++)
    if (lp->v[i].hoist)
      pt_hunk_line(h, (unsigned)lp->v[i].from, "%s%.*s%s;", i2,
                   (int)lp->v[i].type_len,
                   pt_trimmed(t, lp->v[i].from, &(size_t){0}), lp->v[i].name);
  split_decls(t, lp, i2, h);
  out o = {.t = t, .h = h, .extra = extra, .in = i2, .active = active};
  emit_body(&o, lp);
  if (lp->cut_end) {
    close_run(&o);
    pt_hunk_line(h, 0, "%s__syncthreads();", i2);
  }
  if (lp->step_len || lp->cond_len) {
    open_run(&o);
    if (lp->step_len)
      pt_hunk_line(h, L, "%s%.*s;", i3, (int)lp->step_len, lp->step);
    if (lp->cond_len)
      pt_hunk_line(h, L, "%s%s = %.*s;", i3, active, (int)lp->cond_len,
                   lp->cond);
  }
  close_run(&o);
  pt_hunk_line(h, lp->braceless ? 0 : (unsigned)lp->end, "%s}", i1);
  if (braces)
    pt_hunk_line(h, 0, "%.*s}", (int)in, ind);
  free(unit), free(i1), free(i2), free(i3), free(extra);
}

/* ---- the whole ------------------------------------------------------------*/

/* Whether the loop ending at line e is the last statement of its kernel. */
static int last_statement(const pt_text *t, size_t head, size_t e) {
  size_t b = pt_below(t, e);
  return t->depth[head] == 1 && b && pt_line_is(t, b, "}") &&
         t->depth[b] == 1 && t->shut[b] == 0;
}

static const char *take_edits(const pt_text *t, const aucs_editlog *log,
                              size_t i, const char *base, loop *lp,
                              const char *guard, unsigned char *carry) {
  const aucs_edit *u = &log->v[i];
  for (size_t k = 0; k < log->n; k++) {
    const aucs_edit *e = &log->v[k];
    unsigned l = pt_edit_line(e, base);
    if (k == i || l < lp->head || l > lp->end || !e->function || !u->function ||
        strcmp(e->function, u->function) || e->kind == AUCS_EDIT_INLINE_CALL)
      continue;
    if (guard && l == lp->head && e->kind == AUCS_EDIT_FLATTEN_EXIT &&
        e->source_edit &&
        !strncmp(e->source_edit, "replace the `return` at ", 24))
      continue; /* the early return's flag carried on past the loop */
    const char *why = take_edit(t, log, e, base, lp);
    if (why)
      return why;
    carry[k] = 1;
  }
  return NULL;
}

static void loop_free(loop *lp) {
  for (size_t i = 0; i < lp->n; i++)
    free(lp->v[i].name), free(lp->v[i].ref), free(lp->v[i].val);
  free(lp->v);
}

/* Whether INIT is empty or a declaration `T k = e` whose e reads no
 * memory and calls nothing: every thread may run it. */
static int pure_init(const loop *lp) {
  const char *s = lp->init;
  size_t n = lp->init_len, eq = 0;
  for (size_t i = 0; i < n; i++) {
    char c = s[i], nx = i + 1 < n ? s[i + 1] : 0;
    if (strchr("[*&(,;\"'", c) || (c == '-' && (nx == '>' || nx == '-')) ||
        (c == '+' && nx == '+'))
      return 0;
    if (c == '=' && !eq)
      eq = i;
    else if (c == '=' && nx != '=' && !strchr("=!<>", s[i - 1]))
      return 0;
  }
  if (!n)
    return 1;
  if (!eq || strchr("=!<>+-/%|^", s[eq - 1]))
    return 0;
  size_t words = 0;
  for (size_t i = 0; i < eq; i++)
    words += word_char(s[i]) && (!i || !word_char(s[i - 1]));
  return words >= 2;
}

/* Whether line l is in a `__device__` function (the nearest header above
 * it at the top level says `__device__` before any says `__global__`). */
static int in_device_function(const pt_text *t, size_t l) {
  for (size_t k = l; k > 0; k--)
    if (t->depth[k] == 0 && line_has_word(t, k, "__global__"))
      return 0;
    else if (t->depth[k] == 0 && line_has_word(t, k, "__device__"))
      return 1;
  return 0;
}

/* Fresh names for the temporaries of the split statements. */
static void split_names(loop *lp, pt_names *names) {
  for (size_t i = 0; i < lp->n; i++)
    if (lp->v[i].split) {
      lp->v[i].ref = pt_fresh(names, "ref");
      lp->v[i].val = pt_fresh(names, "val");
    }
}

/* The line after the last statement above the loop at line head that
 * ends a loop (`}` of a braced `for`/`while` body at head's depth), with
 * only one-line statements free of calls, subscripts and barriers between:
 * the loop is entered right after that loop's exit. 0 when not. */
size_t pt_after_loop(const pt_text *t, size_t head) {
  int d = t->depth[head];
  for (size_t l = head - 1; l > 0 && t->depth[l] >= d; l--) {
    size_t n;
    const char *s = pt_trimmed(t, l, &n);
    if (!n)
      continue;
    if (n == 1 && *s == '}' && t->depth[l] == d + 1) {
      size_t o = l - 1;
      while (o > 0 && t->depth[o] > d)
        o--;
      return o && pt_loop_end(t, o) == l &&
                     (starts(t, o, "for") || starts(t, o, "while"))
                 ? o
                 : 0;
    }
    if (t->depth[l] != d || !pt_one_statement(t, l) || memchr(s, '(', n) ||
        memchr(s, '[', n) || line_has(t, l, "sync"))
      return 0;
  }
  return 0;
}

static const char *form_loop(const pt_text *t, const aucs_editlog *log,
                             size_t i, const char *base, LLVMModuleRef m,
                             pt_names *names, const char *guard, pt_hunk *h,
                             unsigned char *carry) {
  const aucs_edit *u = &log->v[i];
  loop lp = {.head = pt_edit_line(u, base), .m = m};
  if (!lp.head || lp.head > t->n)
    return "the loop made uniform does not begin in this file";
  int entry = guard && !*guard; /* pt_form_loop_entry */
  if (entry)
    guard = NULL;
  if (!guard && !entry && u->source_edit &&
      strstr(u->source_edit, "<the condition around"))
    return in_device_function(t, lp.head)
               ? "the loop is in a __device__ helper that a caller's early "
                 "return or divergent `if` made divergent, and the flag "
                 "cannot be passed into it (patch_active.c takes a helper "
                 "of this file defined on one header line, called in a "
                 "one-line "
                 "statement below an early return at the kernel's top "
                 "level)"
               : "the loop sits in a divergent region the repair "
                 "flattened around it, neither after an early return nor "
                 "in an `if (C) {` block at the kernel's top level; the "
                 "rewrite of both has no exact source form here";
  const char *why = parse_head(t, lp.head, &lp);
  if (!why && guard && !pure_init(&lp))
    why = "the initialisation of a loop under a guard reads memory or has "
          "side effects (every thread would run it)";
  lp.end = why ? 0 : pt_loop_end(t, lp.head);
  if (!why && (!lp.end || lp.braceless == pt_line_is(t, lp.end, "}")))
    why = "the loop's body is not a braced block closed by a `}` line "
          "(nor one line)";
  lp.last = !why && last_statement(t, lp.head, lp.end);
  if (!why)
    why = cut_body(t, &lp);
  if (!why)
    why = take_edits(t, log, i, base, &lp, guard, carry);
  if (!why)
    why = hoist_all(t, &lp);
  if (!why) {
    split_names(&lp, names);
    char *active = pt_fresh(names, "active");
    emit(t, &lp, active, guard, h);
    free(active);
  }
  loop_free(&lp);
  return why;
}

const char *pt_form_loop(const pt_text *t, const aucs_editlog *log, size_t i,
                         const char *base, LLVMModuleRef m, pt_names *names,
                         pt_hunk *h, unsigned char *carry) {
  return form_loop(t, log, i, base, m, names, NULL, h, carry);
}

const char *pt_form_loop_entry(const pt_text *t, const aucs_editlog *log,
                               size_t i, const char *base, LLVMModuleRef m,
                               pt_names *names, pt_hunk *h,
                               unsigned char *carry) {
  return form_loop(t, log, i, base, m, names, "", h, carry);
}

const char *pt_form_loop_under(const pt_text *t, const aucs_editlog *log,
                               size_t i, const char *base, LLVMModuleRef m,
                               pt_names *names, const char *guard, pt_hunk *h,
                               unsigned char *carry) {
  return form_loop(t, log, i, base, m, names, guard, h, carry);
}
