/*
 * repair_fold: the repair's edits made on the module as it was given, when the
 * helpers the repair inlined to place them can keep their calls (issue 14).
 *
 * A finding inside a __device__ helper is repaired on its kernel with the
 * calls leading to it inlined (repair.c, prepare). Often the barrier then
 * lands outside every inlined copy, or at the same place in every copy: the
 * inlining was only a means, and checking (and writing) a kernel with two
 * copies of a helper costs twice. The rounds edit a clone; before the final
 * fresh-seed check:
 *   1. Replay the committed ops on another clone of the caller's module,
 *      noting per op the repair id (!aucs.id) of the instruction it is made
 *      at (the call inlined, the instruction a barrier goes before, the
 *      barrier deleted), that instruction's function, an inline's callee.
 *   2. A delete of a barrier the repair inserted cancels that insert.
 *   3. Each other insert or delete names, by its id, one instruction of
 *      the caller's module (an insert: the first instruction with an id at
 *      or after its place, past code with no memory access or call). In
 *      the function edited: kept as it is. In a helper that only direct
 *      calls reach, none of them left on a kernel's path once the ops are
 *      made: made once in the helper, when every copy in the kernels (one
 *      per call path from a kernel) got it (same id, same finding), or
 *      got it or lies in a uniform block (an insert; see every_copy).
 *   4. Make the folded edits, by id, on a clone; verify it; detect it in
 *      full with the fresh seed. Clean: make them on the caller's module
 *      and rewrite the log (no inline-call edits; one edit per folded
 *      insert or delete, its where and source made again where it is now).
 *
 *   before                      rounds (clone)          folded (written)
 *   @k: call @h; call @h        @k: [h: bar; %x]        @k: call @h; call @h
 *   @h: ...; %x                     [h: bar; %x]        @h: ...; bar; %x
 *
 * Anything else (an op of another kind, an instruction without an id, a
 * helper with another caller, a copy without the edit in a divergent block,
 * a delete not in every copy) does not fold:
 * repair.c replays the ops as they are on the caller's module and checks
 * that, as without this file.
 *
 * Limitation: copies whose edits answer different findings (one edit
 * answers one finding in the log) do not fold, nor does a barrier before
 * code the inlining made (the branch that replaced a helper's `ret`), nor
 * an edit in a template helper with other instances (the source patch
 * writes those from the copies, repair/patch/patch_shared.c).
 */
#include "repair_impl.h"

#include <llvm-c/DebugInfo.h>

/* One committed op, as replayed. */
typedef struct rec {
  op_kind kind;
  unsigned id;    /* its instruction's repair id; 0 none */
  unsigned newid; /* OP_INSERT: the new barrier's */
  unsigned back;  /* OP_INSERT: pure instructions between it and `id` */
  char *fn;       /* the function its instruction is in */
  char *callee;   /* OP_INLINE: the helper */
  int own;        /* OP_INSERT: made before the kernel's own code (its
                     debug location inlined from nowhere) */
  int dead;       /* an insert a later delete cancels, or that delete */
  int done;       /* taken into a folded edit */
} rec;

/* One edit on the module as given, made by id. */
typedef struct folded {
  op_kind kind;   /* OP_INSERT or OP_DELETE */
  unsigned id;    /* the anchor's (insert) or the barrier's (delete) */
  unsigned newid; /* insert: the new barrier's */
  unsigned back;  /* insert: before this many pure instructions before id */
  int logged;     /* its edit is in the rewritten log */
} folded;

typedef struct fold {
  rec *r;
  size_t n;
  folded *f;
  size_t nf;
  unsigned calls;  /* inlined calls undone */
  const char *why; /* why there is no fold */
} fold;

static const char *name_of(LLVMValueRef fn) {
  size_t len;
  return LLVMGetValueName2(fn, &len);
}

/* The first instruction of m with repair id `id`; *count of them. */
static LLVMValueRef find_id(LLVMModuleRef m, unsigned id, size_t *count) {
  LLVMValueRef found = NULL;
  *count = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); id && fn;
       fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
         bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
           I = LLVMGetNextInstruction(I))
        if (aucs_repair_id(I) == id && !(*count)++)
          found = I;
  return found;
}

static LLVMValueRef one_id(LLVMModuleRef m, unsigned id) {
  size_t n;
  LLVMValueRef I = find_id(m, id, &n);
  return n == 1 ? I : NULL;
}

/* ---- 1, 2: replay the ops, cancel inserts deleted later -----------------*/

/* Code a barrier moves past with the same meaning: no memory access, call,
 * fence or terminator (the first four and terminators carry repair ids in
 * the module as given). */
static int pure(LLVMValueRef I) {
  return !aucs_place_effectful(I) && !LLVMIsAFenceInst(I) &&
         !LLVMIsATerminatorInst(I);
}

/* The repair id of the instruction a barrier before I is before, up to
 * pure code (an `extractvalue` a placement chose has no id): I's, or the
 * next one's in its block past pure instructions; 0 none. */
static unsigned anchor_id(LLVMValueRef I, unsigned *back) {
  for (*back = 0; I; I = LLVMGetNextInstruction(I), ++*back)
    if (aucs_repair_id(I) || !pure(I))
      return aucs_repair_id(I);
  return 0;
}

/* Where a barrier before `back` pure instructions before I goes: as far
 * back as the instructions there are pure (a copy and its helper have the
 * same ones). */
static LLVMValueRef back_from(LLVMValueRef I, unsigned back) {
  for (LLVMValueRef p; back-- && (p = LLVMGetPreviousInstruction(I)) &&
                       pure(p) && !LLVMIsAPHINode(p);)
    I = p;
  return I;
}

/* I has a debug location that no inlining made. */
static int own_code(LLVMValueRef I) {
  LLVMMetadataRef l = LLVMInstructionGetDebugLoc(I);
  return l && !LLVMDILocationGetInlinedAt(l);
}

static int foldable_op(op_kind k) {
  return k == OP_INLINE || k == OP_INSERT || k == OP_DELETE;
}

static int replay(const state *s, fold *F, LLVMModuleRef R) {
  F->r = aucs_xcalloc(s->nops ? s->nops : 1, sizeof(rec));
  for (size_t i = 0; i < s->nops; i++) {
    const op *o = &s->ops[i];
    if (!foldable_op(o->kind)) {
      F->why = "an edit other than an inline, insert or delete";
      return 1;
    }
    LLVMValueRef I = rp_at_pos(R, o->at);
    rec *r = &F->r[F->n++];
    *r = (rec){.kind = o->kind, .id = aucs_repair_id(I), .newid = o->id};
    if (o->kind == OP_INSERT) {
      r->id = anchor_id(I, &r->back);
      r->own = own_code(I);
    }
    r->fn = aucs_xstrdup(name_of(rp_fn_of(I)));
    if (o->kind == OP_INLINE) {
      r->callee = aucs_xstrdup(name_of(LLVMGetCalledValue(I)));
      F->calls++;
    }
    char *err = NULL;
    if (!rp_apply_op(R, o, &err)) {
      free(err);
      F->why = "an edit failed when replayed";
      return 1;
    }
  }
  return 0;
}

static void cancel(fold *F) {
  for (size_t d = 0; d < F->n; d++)
    for (size_t i = 0; F->r[d].kind == OP_DELETE && i < d; i++)
      if (F->r[i].kind == OP_INSERT && !F->r[i].dead &&
          F->r[i].newid == F->r[d].id) {
        F->r[i].dead = F->r[d].dead = 1;
        break;
      }
}

/* ---- 3: where each edit goes on the module as given ---------------------*/

enum { MAX_DEPTH = 16 }; /* of the call paths followed */

/* The call paths from kernels to fn through direct calls (a helper called
 * by a helper the kernel calls twice has two); -1 when fn, or a function
 * on the way, has another use or no caller, or the paths are too deep. */
static long paths(LLVMValueRef fn, int depth) {
  if (aucs_kernel_is(fn))
    return 1;
  if (depth > MAX_DEPTH || !LLVMGetFirstUse(fn))
    return -1;
  long n = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef c = LLVMGetUser(u);
    if (!LLVMIsACallInst(c) || LLVMGetCalledValue(c) != fn)
      return -1;
    long p = paths(rp_fn_of(c), depth + 1);
    if (p < 0)
      return -1;
    n += p;
  }
  return n;
}

/* A kernel still reaches fn through calls (or may: another use). */
static int reached(LLVMValueRef fn, int depth) {
  if (aucs_kernel_is(fn) || depth > MAX_DEPTH)
    return 1;
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef c = LLVMGetUser(u);
    if (!LLVMIsACallInst(c) || LLVMGetCalledValue(c) != fn ||
        reached(rp_fn_of(c), depth + 1))
      return 1;
  }
  return 0;
}

/* The number of copies of helper the kernels had, when the repair inlined
 * every one of them (R: every op made); else 0. */
static unsigned inlined_everywhere(LLVMModuleRef m, const char *helper,
                                   LLVMModuleRef R) {
  LLVMValueRef h = LLVMGetNamedFunction(m, helper),
               hr = LLVMGetNamedFunction(R, helper);
  long n =
      h && hr && !aucs_kernel_is(h) && !aucs_kernel_template_shared(helper, m)
          ? paths(h, 0)
          : -1;
  return n > 0 && !reached(hr, 0) ? (unsigned)n : 0;
}

/* The repair's finding that the log's edit of kind k and id answers; -2
 * when edits of that id answer different ones, -3 when there is none. */
static int answered(const state *s, aucs_edit_kind k, unsigned id) {
  int item = -3;
  for (size_t i = 0; i < s->r->log.n; i++) {
    const aucs_edit *e = &s->r->log.v[i];
    if (e->kind != k || e->id != id)
      continue;
    if (item != -3 && item != e->finding_index)
      return -2;
    item = e->finding_index;
  }
  return item;
}

static int in_group(const rec *a, const rec *b, const char *helper) {
  return b->kind == a->kind && b->id == a->id && !b->dead && !b->done &&
         strcmp(b->fn, helper);
}

/* The barriers the repair inserted just before I (pure code aside) include
 * one of the group's (the insert recs like g). */
static int preceded(const fold *F, const rec *g, const char *helper,
                    LLVMValueRef I) {
  for (LLVMValueRef p = LLVMGetPreviousInstruction(I); p;
       p = LLVMGetPreviousInstruction(p)) {
    unsigned id = aucs_repair_id(p);
    int past = !id && pure(p); /* pure code, or another inserted barrier */
    for (size_t i = 0; id && i < F->n; i++)
      if (F->r[i].kind == OP_INSERT && F->r[i].newid == id) {
        if (in_group(g, &F->r[i], helper))
          return 1;
        past = 1;
      }
    if (!past)
      return 0;
  }
  return 0;
}

/* I's block is uniform in its function (every thread of a block reaches
 * it the same number of times). */
static int uniform_at(LLVMValueRef I) {
  aucs_cfg *g = aucs_cfg_build(rp_fn_of(I));
  aucs_uniformity *u = aucs_uniform_compute(g);
  int yes =
      aucs_uniform_block(u, aucs_cfg_index(g, LLVMGetInstructionParent(I)));
  aucs_uniform_free(u);
  aucs_cfg_free(g);
  return yes;
}

/* In R (every op made), each copy of the helper's instruction outside the
 * helper is in a kernel and has the group's edit: a barrier of the group
 * before it (insert), or it is gone (delete). An insert also folds when
 * some copies lack it but each of those is in a uniform block: in the
 * helper, every call runs the barrier, and the calls that did not need it
 * reach it without divergence (as the source patch writes such a barrier
 * in the helper, repair/patch/patch_shared.c); the fresh-seed check of the
 * folded module then decides. */
static int every_copy(const fold *F, const rec *g, const char *helper,
                      LLVMModuleRef R, unsigned calls) {
  unsigned copies = 0, barred = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(R); fn;
       fn = LLVMGetNextFunction(fn))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn);
         strcmp(name_of(fn), helper) && bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
           I = LLVMGetNextInstruction(I)) {
        if (aucs_repair_id(I) != g->id)
          continue;
        if (g->kind == OP_DELETE || !aucs_kernel_is(fn))
          return 0;
        if (preceded(F, g, helper, I))
          barred++;
        else if (!uniform_at(I))
          return 0;
        copies++;
      }
  return g->kind == OP_DELETE || (copies == calls && barred);
}

static void push(fold *F, const rec *r) {
  F->f = aucs_xrealloc(F->f, (F->nf + 1) * sizeof(folded));
  F->f[F->nf++] = (folded){r->kind, r->id, r->newid, r->back, 0};
}

/* Fold the edits like F->r[i] in the copies of helper into one. */
static int group(const state *s, fold *F, size_t i, const char *helper,
                 LLVMModuleRef R, unsigned calls) {
  const rec *g = &F->r[i];
  aucs_edit_kind k = g->kind == OP_INSERT ? AUCS_EDIT_INSERT_BARRIER
                                          : AUCS_EDIT_DELETE_BARRIER;
  unsigned n = 0;
  int item = answered(s, k, g->kind == OP_INSERT ? g->newid : g->id);
  for (size_t j = i; j < F->n; j++)
    if (in_group(g, &F->r[j], helper)) {
      n++;
      if (g->kind == OP_INSERT && answered(s, k, F->r[j].newid) != item)
        return 0;
    }
  if ((g->kind == OP_DELETE ? n != calls : !n || n > calls) || item < -1 ||
      !every_copy(F, g, helper, R, calls))
    return 0;
  push(F, g);
  for (size_t j = F->n; j-- > i;)
    if (in_group(g, &F->r[j], helper))
      F->r[j].done = 1;
  return 1;
}

static int decide(const state *s, fold *F, LLVMModuleRef R) {
  for (size_t i = 0; i < F->n; i++) {
    rec *r = &F->r[i];
    if (r->kind == OP_INLINE || r->dead || r->done)
      continue;
    LLVMValueRef P = one_id(s->user, r->id);
    if (!P) {
      F->why = "an edit is at an instruction the input has not once";
      return 1;
    }
    const char *home = name_of(rp_fn_of(P));
    if (!strcmp(home, r->fn)) {
      r->done = 1;
      push(F, r);
      continue;
    }
    if (r->own) { /* kernel code before a copy: the barrier is the
                     kernel's, before the call, not the helper's */
      F->why = "a barrier before the kernel's own code maps into a helper";
      return 1;
    }
    unsigned calls = inlined_everywhere(s->user, home, R);
    if (!calls) {
      F->why = "a helper has a call the repair did not inline";
      return 1;
    }
    if (!group(s, F, i, home, R, calls)) {
      F->why = "an edit is not in every inlined copy of its helper";
      return 1;
    }
  }
  return 0;
}

static int log_kinds_fold(const aucs_editlog *l) {
  for (size_t i = 0; i < l->n; i++)
    if (l->v[i].kind != AUCS_EDIT_INLINE_CALL &&
        l->v[i].kind != AUCS_EDIT_INSERT_BARRIER &&
        l->v[i].kind != AUCS_EDIT_DELETE_BARRIER)
      return 0;
  return 1;
}

static int plan(const state *s, fold *F) {
  if (!log_kinds_fold(&s->r->log)) {
    F->why = "an edit other than an inline, insert or delete";
    return 1;
  }
  size_t i = 0; /* before cloning and replaying: replay counts F->calls */
  while (i < s->nops && s->ops[i].kind != OP_INLINE)
    i++;
  if (i == s->nops) {
    F->why = "no call was inlined";
    return 1;
  }
  LLVMModuleRef R = LLVMCloneModule(s->user);
  int bad = replay(s, F, R);
  if (!bad) {
    cancel(F);
    bad = decide(s, F, R);
  }
  LLVMDisposeModule(R);
  return bad;
}

/* ---- 4: make the folded edits, check, rewrite the log -------------------*/

/* The folded inserts (deletes: the deletes) on m; 0 when all were made. */
static int make(LLVMModuleRef m, const fold *F, op_kind kind) {
  for (size_t i = 0; i < F->nf; i++) {
    const folded *f = &F->f[i];
    if (f->kind != kind)
      continue;
    LLVMValueRef I = one_id(m, f->id);
    if (!I || (kind == OP_DELETE && LLVMGetFirstUse(I)))
      return 1;
    if (kind == OP_INSERT)
      rp_set_id(aucs_place_insert_barrier(back_from(I, f->back)), f->newid);
    else
      LLVMInstructionEraseFromParent(I);
  }
  return 0;
}

static int checked(state *s, fold *F) {
  LLVMModuleRef c = LLVMCloneModule(s->user);
  int bad = make(c, F, OP_INSERT) || make(c, F, OP_DELETE);
  char *msg = NULL;
  if (!bad && LLVMVerifyModule(c, LLVMReturnStatusAction, &msg))
    bad = 1;
  LLVMDisposeMessage(msg);
  if (bad)
    F->why = "the folded edits could not be made, or do not verify";
  aucs_report full;
  int rc = bad ? -1 : rp_final_check(s, c, &full);
  if (rc > 0) {
    aucs_detect_report_free(&full);
    F->why = "the folded module's full detection found something new";
  } else if (rc < 0 && !bad)
    F->why = "the folded module's full detection failed";
  LLVMDisposeModule(c);
  return rc == 0;
}

static int same_text(const char *a, const char *b) {
  return a == b || (a && b && !strcmp(a, b));
}

static void set_text(char **slot, char *text) {
  free(*slot);
  *slot = text;
}

/* e, an insert-barrier edit, made again at its barrier in m. Its `why` is
 * kept when the edit's maker gave its own (not the source edit's). */
static void redo_insert(state *s, aucs_edit *e, LLVMModuleRef m,
                        const folded *f) {
  LLVMValueRef bar = one_id(m, f->newid), at = LLVMGetNextInstruction(bar),
               old = one_id(s->m, f->newid);
  char *w0 = NULL, *why = NULL;
  free(old ? aucs_place_source_edit(old, &w0) : NULL);
  int own_why = !old || !same_text(w0, e->why);
  free(w0);
  set_text(&e->function, aucs_xstrdup(name_of(rp_fn_of(bar))));
  set_text(&e->where, rp_where(at, ", before"));
  set_text(&e->source, aucs_srcloc_format(bar));
  set_text(&e->source_edit, aucs_place_source_edit(bar, &why));
  if (own_why)
    free(why);
  else
    set_text(&e->why, why);
}

static void redo_delete(aucs_edit *e, LLVMModuleRef m, const folded *f) {
  LLVMValueRef bar = one_id(m, f->id);
  set_text(&e->function, aucs_xstrdup(name_of(rp_fn_of(bar))));
  set_text(&e->where, rp_where(bar, ":"));
  set_text(&e->source, aucs_srcloc_format(bar));
  set_text(&e->source_edit, rp_delete_source_edit(bar));
}

/* The folded edit that e, the first of its group, stands for, or NULL. */
static folded *stands_for(fold *F, const aucs_edit *e) {
  for (size_t i = 0; i < F->nf; i++) {
    folded *f = &F->f[i];
    if (!f->logged && e->kind == AUCS_EDIT_INSERT_BARRIER &&
        f->kind == OP_INSERT && f->newid == e->id)
      return f;
    if (!f->logged && e->kind == AUCS_EDIT_DELETE_BARRIER &&
        f->kind == OP_DELETE && f->id == e->id)
      return f;
  }
  return NULL;
}

/* The log as the folded edits on m (inserts made, deletes not yet). */
static void rewrite(state *s, fold *F, LLVMModuleRef m) {
  aucs_editlog *log = &s->r->log, out = {0};
  for (size_t i = 0; i < log->n; i++) {
    aucs_edit *e = &log->v[i];
    folded *f = stands_for(F, e);
    if (!f) {
      aucs_edit_free(e);
      continue;
    }
    f->logged = 1;
    if (f->kind == OP_INSERT)
      redo_insert(s, e, m, f);
    else
      redo_delete(e, m, f);
    aucs_editlog_push(&out, e);
  }
  free(log->v);
  *log = out;
}

static void fold_free(fold *F) {
  for (size_t i = 0; i < F->n; i++) {
    free(F->r[i].fn);
    free(F->r[i].callee);
  }
  free(F->r);
  free(F->f);
}

int rp_fold_run(state *s) {
  fold F = {0};
  int ok = s->m != s->user && !plan(s, &F) && checked(s, &F);
  if (ok) {
    AUCS_ASSERT(!make(s->user, &F, OP_INSERT));
    rewrite(s, &F, s->user);
    AUCS_ASSERT(!make(s->user, &F, OP_DELETE));
    s->r->stats.folded = F.calls;
  }
  if (rp_tracing() && ok)
    fprintf(stderr, "aucs: repair: folded: %u inlined call%s undone\n", F.calls,
            F.calls == 1 ? "" : "s");
  else if (rp_tracing())
    fprintf(stderr, "aucs: repair: not folded: %s\n",
            F.why ? F.why : "nothing to fold");
  fold_free(&F);
  return ok;
}
