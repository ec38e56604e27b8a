/*
 * repair_sync: the repair loop's plans for findings that a barrier does not
 * answer: a race on one read-modify-write statement made atomic
 * (rp_plan_atomic, and rp_splits_rmw, which refuses a barrier placed inside
 * such a statement), a scope-race widened to device scope (rp_plan_scope)
 * and a missing fence inserted (rp_plan_fence). Each plan logs its edits
 * and records the ops a trial replays; the IR transforms themselves are
 * atomic_rmw.c and syncfix.c, which know nothing of the loop.
 *
 * The variants of rp_plan_scope and rp_plan_fence are syncfix.c's (its
 * banner lists them); the loop tries them in order.
 */
#include "repair_impl.h"

#include "aucs/atomic_rmw.h"
#include "aucs/syncfix.h"

/* ---- plans: read-modify-write -------------------------------------------*/

int rp_plan_atomic(state *s, trial *t, LLVMValueRef kernel,
                   const aucs_finding *f) {
  (void)kernel;
  aucs_atomic_rmw r;
  if (f->kind != AUCS_FINDING_RACE ||
      !aucs_atomic_rmw_match(f->a.instr, f->b.instr, &r)) {
    t->why = aucs_xstrdup("the race is not one read-modify-write statement");
    return 1;
  }
  LLVMValueRef fn = rp_fn_of(r.store);
  aucs_edit e = {.kind = AUCS_EDIT_MAKE_ATOMIC, .id = aucs_repair_id(r.store)};
  e.where = rp_where(r.store, ":");
  e.source = aucs_srcloc_format(r.store);
  char *at = rp_file_line(r.store);
  if (at)
    e.source_edit =
        aucs_xasprintf("use %s for the read-modify-write at %s", r.cuda, at);
  e.why = aucs_xasprintf(
      "threads that reach this read-modify-write with the same address "
      "race on it, and a barrier cannot order two threads at one statement: "
      "one %s does the load, the operation and the store as one access%s",
      r.cuda, at ? "" : " (IR only: no source location; compile with -g)");
  free(at);
  rp_log_edit(s, t, e, fn);
  rp_trial_op(t, (op){OP_ATOMIC, rp_pos_of(r.store), 0, 0, 0, {0, 0, 0}});
  return t->why != NULL;
}

/* A barrier the trial inserted (repair id above `first`, the ids the trial
 * began with) between the load and the store of one read-modify-write on
 * which threads meet (self_rmw_race): every thread would load, wait, then
 * store, so updates to one address are lost with no race left to see. A
 * statement whose slot is each thread's own (`s[t] += s[t + 1]`) may be
 * split. 1, with t->why, when there is one. */
/* The current report has a race between two threads' runs of the
 * read-modify-write load -> store itself (its load against its store, or
 * its store against itself): threads meet at one address there. */
static int self_rmw_race(const state *s, LLVMValueRef load,
                         LLVMValueRef store) {
  unsigned ld = aucs_repair_id(load), st = aucs_repair_id(store);
  for (size_t k = 0; k < s->cur.nkernels; k++)
    for (size_t i = 0; i < s->cur.kernels[k].findings.n; i++) {
      const aucs_finding *g = &s->cur.kernels[k].findings.v[i];
      unsigned a = g->a.instr ? aucs_repair_id(g->a.instr) : 0,
               b = g->b.instr ? aucs_repair_id(g->b.instr) : 0;
      if (g->kind == AUCS_FINDING_RACE && a && b &&
          ((a == st && b == st) || (a == ld && b == st) ||
           (a == st && b == ld)))
        return 1;
    }
  return 0;
}

int rp_splits_rmw(const state *s, trial *t, LLVMValueRef kernel,
                  unsigned first) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(kernel); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I)) {
      if (aucs_repair_id(I) <= first || !aucs_place_is_barrier(I))
        continue;
      aucs_atomic_rmw r;
      if (!aucs_atomic_rmw_around(I, &r) || !self_rmw_race(s, r.load, r.store))
        continue;
      char *at = rp_file_line(r.store);
      free(t->why);
      t->why = aucs_xasprintf(
          "a barrier inside the read-modify-write at %s would lose updates "
          "(every thread loads, waits, then stores): %s does it as one access",
          at ? at : "its statement", r.cuda);
      free(at);
      return 1;
    }
  return 0;
}

/* ---- plans: scope-race --------------------------------------------------*/

static LLVMValueRef base_of(LLVMValueRef p) {
  for (int i = 0; p && i < 64; i++) {
    if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) ||
        LLVMIsAAddrSpaceCastInst(p))
      p = LLVMGetOperand(p, 0);
    else if (LLVMIsAConstantExpr(p) && LLVMGetNumOperands(p) > 0 &&
             LLVMTypeOf(LLVMGetOperand(p, 0)) == LLVMTypeOf(p))
      p = LLVMGetOperand(p, 0);
    else
      break;
  }
  return p;
}

static LLVMValueRef pointer_of(LLVMValueRef I) {
  return I && LLVMGetNumOperands(I) ? base_of(LLVMGetOperand(I, 0)) : NULL;
}

/* The narrow atomics to widen for variant v (at most cap). */
static size_t to_widen(LLVMValueRef kernel, const aucs_finding *f, int v,
                       LLVMValueRef *out, size_t cap) {
  size_t n = 0;
  LLVMValueRef pa = pointer_of(f->a.instr), pb = pointer_of(f->b.instr);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(kernel); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I && n < cap;
         I = LLVMGetNextInstruction(I)) {
      if (!aucs_syncfix_narrow(I))
        continue;
      LLVMValueRef p = pointer_of(I);
      int mine = I == f->a.instr || I == f->b.instr;
      if (v == 2 || mine || (v == 0 && p && (p == pa || p == pb)))
        out[n++] = I;
    }
  return n;
}

static void widen_one(state *s, trial *t, LLVMValueRef I) {
  LLVMValueRef fn = rp_fn_of(I);
  aucs_edit e = {.kind = AUCS_EDIT_WIDEN_SCOPE, .id = aucs_repair_id(I)};
  e.where = rp_where(I, ":");
  e.source = aucs_srcloc_format(I);
  e.source_edit = aucs_syncfix_widen_source(I, &e.why);
  if (!e.why)
    e.why = aucs_xstrdup("a block-scoped atomic synchronizes only the threads "
                         "of its own block, and blocks share this one: at "
                         "device scope it orders them all");
  rp_log_edit(s, t, e, fn);
  rp_trial_op(t, (op){OP_WIDEN, rp_pos_of(I), 0, 0, 0, {0, 0, 0}});
}

int rp_plan_scope(state *s, trial *t, LLVMValueRef kernel,
                  const aucs_finding *f, int variant) {
  LLVMValueRef v[64];
  size_t n = to_widen(kernel, f, variant, v, 64);
  if (!n) {
    t->why = aucs_xstrdup("no block-scoped atomic of the kernel to widen");
    return 1;
  }
  for (size_t i = 0; i < n && !t->why; i++)
    widen_one(s, t, v[i]);
  return t->why != NULL;
}

/* ---- plans: missing-fence -----------------------------------------------*/

static char *line_text(LLVMValueRef I) {
  aucs_srcloc l = aucs_srcloc_of(I);
  return l.line ? aucs_xasprintf("%.*s:%u", (int)l.file_len, l.file, l.line)
                : aucs_srcloc_format(I);
}

static void fence_before(state *s, trial *t, LLVMValueRef before,
                         const char *what, char *why) {
  LLVMValueRef fn = rp_fn_of(before);
  aucs_edit e = {.kind = AUCS_EDIT_INSERT_FENCE};
  e.where = rp_where(before, ", before");
  LLVMValueRef fence = rp_trial_op(
      t, (op){OP_FENCE, rp_pos_of(before), ++t->next_id, 0, 0, {0, 0, 0}});
  e.id = t->next_id;
  char *form_why = NULL;
  if (fence) {
    e.source = aucs_srcloc_format(fence);
    e.source_edit = aucs_syncfix_fence_source(fence, what, &form_why);
  }
  e.why = form_why ? aucs_xasprintf("%s; IR only: %s", why, form_why) : why;
  if (form_why)
    free(why);
  free(form_why);
  rp_log_edit(s, t, e, fn);
}

/* Release side: before the flag store after a (else right after a). */
static void release_fence(state *s, trial *t, LLVMValueRef a) {
  LLVMValueRef flag = aucs_syncfix_flag_store(a);
  char *at = line_text(a), *fl = flag ? line_text(flag) : NULL;
  char *why = aucs_xasprintf(
      "the access at %s is published by the strong write at %s (the flag) "
      "without a fence between them: a thread that sees the flag may still "
      "miss it (PTX: a release needs a fence before the strong write)",
      at, flag ? fl : "?");
  LLVMValueRef before = flag ? flag : LLVMGetNextInstruction(a);
  fence_before(s, t, before, flag ? "the flag store" : "the next statement",
               why);
  free(at);
  free(fl);
}

static void acquire_fence(state *s, trial *t, LLVMValueRef b) {
  char *at = line_text(b);
  char *why = aucs_xasprintf(
      "the access at %s follows the read of the flag without a fence: it "
      "may be served before the flag's new value (PTX: an acquire needs a "
      "fence after the strong read)",
      at);
  fence_before(s, t, b, "the access", why);
  free(at);
}

int rp_plan_fence(state *s, trial *t, LLVMValueRef kernel,
                  const aucs_finding *f, int variant) {
  (void)kernel;
  if (!f->a.instr || !f->b.instr) {
    t->why = aucs_xstrdup("the finding names no pair of accesses");
    return 1;
  }
  if (variant != 1)
    release_fence(s, t, f->a.instr);
  if (variant != 0 && !t->why)
    acquire_fence(s, t, f->b.instr);
  return t->why != NULL;
}
