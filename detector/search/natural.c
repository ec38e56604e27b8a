/*
 * natural: which inputs are size-like, their natural values, and the
 * replay that tells a bug of natural inputs from one of odd inputs.
 *
 * Steps:
 *   1. Analyze (once per kernel): for each integer leaf, its rule: an
 *      argument compared with a thread-index expression takes the axis and
 *      scope of that index (walk its uses forward through casts,
 *      arithmetic, selects and phis to an icmp, then the icmp's other
 *      operand backward to the tid/ctaid reads); else its name's words
 *      (natural.def) give an axis, a dims index or a strides index.
 *   2. Classify each finding a run found: compute the natural value of
 *      every size-like leaf the user left free, in the finding's launch;
 *      when none differs from the run's, it stays an error. Else replay
 *      the run (same launch, seed, fill) with those values, once per
 *      distinct input: the same finding again (kind, both instructions in
 *      either order) keeps it an error, a replay that does not finish
 *      too; otherwise it is a warning naming the leaves that differ.
 *
 * Limitation: the walks are bounded (depth 8, 4096 values per input), so
 * an index computed through more steps, a load or a call is not seen and
 * rule 2 decides.
 */
#include "aucs/natural.h"

#include "aucs/replay.h"
#include "aucs/util.h"
#include <ctype.h>
#include <llvm-c/Core.h>
#include <stdlib.h>
#include <string.h>

enum { DEPTH = 8, BUDGET = 4096 };

typedef enum axis { X, Y, Z, NONE } axis;
typedef enum array_rule { SAME, DIMS, STRIDES } array_rule;

typedef enum rule {
  NOT_SIZE,
  LOCAL,   /* blockDim along axis */
  GLOBAL,  /* gridDim * blockDim along axis */
  DIM_K,   /* the size along axis k (1 beyond z) */
  STRIDE_K /* the product of the sizes along the axes before k */
} rule;

typedef struct leaf_rule {
  rule r;
  unsigned axis; /* LOCAL, GLOBAL: the axis; DIM_K, STRIDE_K: k */
} leaf_rule;

struct aucs_natural {
  size_t n;
  leaf_rule *v;
};

static const struct word {
  const char *w;
  axis axis;
  array_rule array;
} words[] = {
#define AUCS_NATURAL_WORD(w, axis, array) {w, axis, array},
#include "natural.def"
#undef AUCS_NATURAL_WORD
};

/* ---- names --------------------------------------------------------------*/

static const struct word *find_word(const char *w, size_t len) {
  for (size_t i = 0; i < sizeof words / sizeof *words; i++)
    if (strlen(words[i].w) == len && !strncmp(words[i].w, w, len))
      return &words[i];
  if (len > 1 && w[0] == 'n') /* "nrows", "nelems" */
    return find_word(w + 1, len - 1);
  return NULL;
}

/* The words of name[0..len) in lower case, each looked up: the last
 * size-like one ("nRows": rows), or NULL when none is or a NONE word
 * vetoes. */
static const struct word *name_word(const char *name, size_t len) {
  char w[64];
  size_t k = 0;
  const struct word *last = NULL;
  for (size_t i = 0; i <= len; i++) {
    int split = i == len || !isalnum((unsigned char)name[i]) ||
                (i > 0 && islower((unsigned char)name[i - 1]) &&
                 isupper((unsigned char)name[i]));
    if (split && k) {
      const struct word *x = find_word(w, k);
      if (x && x->axis == NONE)
        return NULL;
      if (x)
        last = x;
      k = 0;
    }
    if (i < len && isalnum((unsigned char)name[i]) && k < sizeof w)
      w[k++] = (char)tolower((unsigned char)name[i]);
  }
  return last;
}

/* The rule of a leaf named like "t.dims[1]" or "n" (its last component). */
static leaf_rule by_name(const char *name) {
  const char *last = strrchr(name, '.');
  last = last ? last + 1 : name;
  const char *br = strchr(last, '[');
  size_t len = br ? (size_t)(br - last) : strlen(last);
  const struct word *w = name_word(last, len);
  if (!w)
    return (leaf_rule){NOT_SIZE, 0};
  unsigned k = br ? (unsigned)strtoul(br + 1, NULL, 10) : 0;
  if (br && w->array == DIMS)
    return (leaf_rule){DIM_K, k};
  if (br && w->array == STRIDES)
    return (leaf_rule){STRIDE_K, k};
  return (leaf_rule){GLOBAL, (unsigned)w->axis};
}

/* ---- code ---------------------------------------------------------------*/

typedef struct sources {
  unsigned tid, ctaid; /* axis bits */
  unsigned budget;     /* values the walks may still visit */
} sources;

static void sreg(LLVMValueRef call, sources *s) {
  static const char prefix[] = "llvm.nvvm.read.ptx.sreg.";
  LLVMValueRef callee = LLVMGetCalledValue(call);
  size_t len;
  const char *name = callee ? LLVMGetValueName2(callee, &len) : "";
  if (strncmp(name, prefix, sizeof prefix - 1))
    return;
  name += sizeof prefix - 1;
  size_t n = strlen(name);
  unsigned bit = n && name[n - 1] >= 'x' && name[n - 1] <= 'z'
                     ? 1u << (name[n - 1] - 'x')
                     : 0;
  if (!strncmp(name, "tid.", 4))
    s->tid |= bit;
  else if (!strncmp(name, "ctaid.", 6))
    s->ctaid |= bit;
}

/* The thread and block index reads v is computed from (bounded walk; a
 * load or another call ends it). */
static void sources_of(LLVMValueRef v, int depth, sources *s) {
  if (depth == 0 || !s->budget || !LLVMIsAInstruction(v) || LLVMIsALoadInst(v))
    return;
  s->budget--;
  if (LLVMIsACallInst(v)) {
    sreg(v, s);
    return;
  }
  int n = LLVMGetNumOperands(v);
  for (int i = 0; i < n; i++)
    sources_of(LLVMGetOperand(v, i), depth - 1, s);
}

static int passes_value(LLVMValueRef u) {
  return LLVMIsACastInst(u) || LLVMIsABinaryOperator(u) ||
         LLVMIsASelectInst(u) || LLVMIsAPHINode(u);
}

/* What the values v flows into (bounded walk) are compared with. */
static void compared(LLVMValueRef v, int depth, sources *s) {
  for (LLVMUseRef use = LLVMGetFirstUse(v); depth && s->budget && use;
       use = LLVMGetNextUse(use)) {
    LLVMValueRef u = LLVMGetUser(use);
    s->budget--;
    if (LLVMIsAICmpInst(u)) {
      LLVMValueRef other = LLVMGetOperand(u, 0) == v ? LLVMGetOperand(u, 1)
                                                     : LLVMGetOperand(u, 0);
      sources_of(other, DEPTH, s);
    } else if (passes_value(u))
      compared(u, depth - 1, s);
  }
}

static unsigned lowest(unsigned bits) {
  return bits & 1 ? 0 : bits & 2 ? 1 : 2;
}

static leaf_rule by_code(LLVMValueRef fn, const aucs_input *x) {
  sources s = {.budget = BUDGET};
  if (!x->field && x->param < LLVMCountParams(fn))
    compared(LLVMGetParam(fn, x->param), DEPTH, &s);
  if (s.ctaid)
    return (leaf_rule){GLOBAL, lowest(s.ctaid)};
  if (s.tid)
    return (leaf_rule){LOCAL, lowest(s.tid)};
  return (leaf_rule){NOT_SIZE, 0};
}

aucs_natural *aucs_natural_analyze(LLVMValueRef fn, const aucs_inputs *in) {
  aucs_natural *n = aucs_xcalloc(1, sizeof *n);
  n->n = in->n;
  n->v = aucs_xcalloc(in->n + 1, sizeof *n->v);
  for (size_t i = 0; i < in->n; i++) {
    const aucs_input *x = &in->v[i];
    if (x->p.kind != AUCS_PARAM_INT || x->p.bits <= 1)
      continue;
    n->v[i] = by_code(fn, x);
    if (n->v[i].r == NOT_SIZE)
      n->v[i] = by_name(x->p.name);
  }
  return n;
}

void aucs_natural_free(aucs_natural *n) {
  if (!n)
    return;
  free(n->v);
  free(n);
}

/* ---- values -------------------------------------------------------------*/

static uint64_t along(aucs_dim3 d, unsigned axis) {
  return axis == 0 ? d.x : axis == 1 ? d.y : d.z;
}

static uint64_t total(aucs_launch l, unsigned axis) {
  return along(l.grid, axis) * along(l.block, axis);
}

int aucs_natural_value(const aucs_natural *n, size_t i, aucs_launch l,
                       uint64_t *v) {
  if (i >= n->n || n->v[i].r == NOT_SIZE)
    return 0;
  leaf_rule r = n->v[i];
  switch (r.r) {
  case LOCAL:
    *v = along(l.block, r.axis);
    break;
  case GLOBAL:
    *v = total(l, r.axis);
    break;
  case DIM_K:
    *v = r.axis < 3 ? total(l, r.axis) : 1;
    break;
  default:
    *v = 1;
    for (unsigned k = 0; k < r.axis && k < 3; k++)
      *v *= total(l, k);
  }
  return 1;
}

/* v as an input of `bits` bits: at most its largest positive value. */
static uint64_t fit(uint64_t v, unsigned bits) {
  uint64_t max = bits < 64 ? (UINT64_C(1) << (bits - 1)) - 1 : INT64_MAX;
  return v > max ? max : v;
}

static uint64_t masked(uint64_t v, unsigned bits) {
  return bits < 64 ? v & ((UINT64_C(1) << bits) - 1) : v;
}

/* ---- classification -----------------------------------------------------*/

/* Natural values of run's free size-like leaves into nat (a copy of the
 * run's); changed[j] marks those that differ. How many do. */
static size_t naturalize(const aucs_natural_kernel *k,
                         const aucs_candidate *run, uint64_t *nat,
                         unsigned char *changed) {
  size_t n = 0;
  for (size_t j = 0; j < k->in->n; j++) {
    const aucs_param *p = &k->in->v[j].p;
    uint64_t v;
    nat[j] = run->args[j];
    changed[j] = 0;
    if (k->iv->fixed[j] || !k->lset[j] || p->kind != AUCS_PARAM_INT ||
        !aucs_natural_value(k->n, j, run->launch, &v))
      continue;
    v = fit(v, p->bits);
    if (masked(v, p->bits) == masked(run->args[j], p->bits))
      continue;
    nat[j] = v;
    changed[j] = 1;
    n++;
  }
  return n;
}

/* "n=3 stride=0": the changed leaves with vals. */
static char *inputs_text(const aucs_inputs *in, const unsigned char *changed,
                         const uint64_t *vals) {
  aucs_buf b = {0};
  aucs_buf_puts(&b, "");
  for (size_t j = 0; j < in->n; j++) {
    if (!changed[j])
      continue;
    char *t = aucs_inputs_value_text(&in->v[j].p, vals[j]);
    aucs_buf_printf(&b, "%s%s=%s", b.len ? " " : "", in->v[j].p.name, t);
    free(t);
  }
  return aucs_buf_take(&b);
}

/* Whether r found f again; a replay that did not finish tells nothing. */
static int found_again(const aucs_replay *r, const aucs_finding *f) {
  return !r->ok || aucs_replay_find(r, f);
}

size_t aucs_natural_classify(const aucs_natural_kernel *k, aucs_findings *fs,
                             const aucs_candidate *runs, size_t nruns) {
  aucs_replays rs = {0};
  uint64_t *nat = aucs_xcalloc(k->in->n + 1, sizeof *nat);
  unsigned char *changed = aucs_xcalloc(k->in->n + 1, 1);
  for (size_t i = 0; i < nruns && i < fs->n; i++) {
    aucs_finding *f = &fs->v[i];
    if (!aucs_replay_kind(f->kind) || !runs[i].args ||
        !naturalize(k, &runs[i], nat, changed))
      continue;
    aucs_candidate c = runs[i];
    c.args = nat;
    if (found_again(aucs_replays_get(&rs, k->in->n, &c, k->replay, k->ctx), f))
      continue;
    f->severity = AUCS_SEVERITY_WARNING;
    f->searched = inputs_text(k->in, changed, runs[i].args);
    f->natural = inputs_text(k->in, changed, nat);
  }
  size_t n = rs.n;
  aucs_replays_free(&rs);
  free(nat);
  free(changed);
  return n;
}
