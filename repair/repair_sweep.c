/*
 * repair_sweep: delete, in the trial that made them so, the barriers a
 * divergence repair's edits leave redundant (issue 14: time).
 *
 * Keeping exited threads in uniformizes the loops around a barrier: each
 * such loop's header gets an or-barrier (__syncthreads_or), and a plain
 * barrier at the end of the loop body, or just before the loop, then
 * orders nothing the or-barrier does not. A race's placement that
 * uniformizes the loop the race sits in (repair_plan.c place_one,
 * rp_sweep_after_place) leaves the same. The next round used to find each
 * such barrier by its dynamic evidence and spend a trial on it (a module
 * clone, a proof and a detection). Now, once the trial's divergence edits
 * (or the race's placement through a uniformized loop) are planned:
 *   1. each plain barrier of the kernel with no finding of its own (no
 *      item: a redundant barrier the first detection reported keeps its
 *      own trial) is a candidate when one side of it is empty: every path
 *      from it (or to it) meets another barrier before any memory access;
 *   2. in block order, a candidate is deleted on a completed static proof
 *      (repair_plan.c's redundancy proof, on the kernel as the earlier
 *      deletions left it), never on dynamic evidence alone;
 *   3. the trial's one detection checks the edits and the deletions
 *      together; the final fresh-seed check still covers everything. A
 *      trial rejected after such deletions is made once more without them
 *      (repair.c, attempt), so a deletion never costs the edits their
 *      trial.
 *
 *   before (edits planned)          after (same trial)
 *     uni.head: or-barrier            uni.head: or-barrier
 *     body: red[t] += ...             body: red[t] += ...
 *     guard: __syncthreads()  -->     guard:
 *     latch: s >>= 1 -> uni.head      latch: s >>= 1 -> uni.head
 *
 * Limitation: a barrier with memory accesses on both sides is not tried
 * here (its proof may be costly and fail); the next round's detection
 * reports it, as before, when no input needs it.
 */
#include "repair_impl.h"

enum { MAX_SWEPT = 32 }; /* candidates tried in one trial */

/* I may touch memory another thread sees: a load, store, atomic, or a call
 * other than a barrier and a non-memory LLVM intrinsic. */
static int touches_memory(LLVMValueRef I) {
  if (LLVMIsALoadInst(I) || LLVMIsAStoreInst(I) || LLVMIsAAtomicRMWInst(I) ||
      LLVMIsAAtomicCmpXchgInst(I))
    return 1;
  if (!LLVMIsACallInst(I) || aucs_place_is_barrier_call(I))
    return 0;
  LLVMValueRef f = LLVMGetCalledValue(I);
  size_t len = 0;
  const char *name = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &len) : "";
  if (strncmp(name, "llvm.", 5))
    return 1;
  return !strncmp(name, "llvm.mem", 8) ||
         !strncmp(name, "llvm.nvvm.atom", 14) ||
         !strncmp(name, "llvm.nvvm.ld", 12) ||
         !strncmp(name, "llvm.nvvm.st", 12);
}

/* Scan from I (forward or backward) to the end of its block: 1 at a
 * memory access, 0 at a barrier, -1 when the block's end is reached. */
static int scan(LLVMValueRef I, int forward) {
  for (; I; I = forward ? LLVMGetNextInstruction(I)
                        : LLVMGetPreviousInstruction(I)) {
    if (aucs_place_is_barrier_call(I))
      return 0;
    if (touches_memory(I))
      return 1;
  }
  return -1;
}

/* Every path from bar (forward) or to bar (backward) meets a barrier
 * before any memory access. */
static int side_empty(const aucs_cfg *g, LLVMValueRef bar, int forward) {
  int b0 = aucs_cfg_index(g, LLVMGetInstructionParent(bar));
  int *stack = aucs_xmalloc((size_t)g->nblocks * sizeof *stack), n = 0;
  unsigned char *seen = aucs_xcalloc((size_t)g->nblocks, 1);
  int r = scan(forward ? LLVMGetNextInstruction(bar)
                       : LLVMGetPreviousInstruction(bar),
               forward);
  if (r < 0)
    stack[n++] = b0; /* its block's edges next */
  while (r <= 0 && n) {
    int b = stack[--n];
    int cnt = forward ? g->nsucc[b] : g->npred[b];
    for (int i = 0; i < cnt && r <= 0; i++) {
      int c = forward ? g->succ[b][i] : g->pred[b][i];
      if (seen[c])
        continue;
      seen[c] = 1;
      LLVMBasicBlockRef bb = g->blocks[c];
      r = scan(forward ? LLVMGetFirstInstruction(bb)
                       : LLVMGetLastInstruction(bb),
               forward);
      if (r < 0)
        stack[n++] = c;
    }
  }
  free(stack);
  free(seen);
  return r <= 0;
}

/* bar is a plain barrier of kernel with no item of its own. */
static int unclaimed(state *s, LLVMValueRef kernel, LLVMValueRef bar) {
  if (!aucs_place_is_barrier_call(bar) || LLVMGetFirstUse(bar) ||
      !aucs_repair_id(bar))
    return 0;
  size_t len;
  const char *name = LLVMGetValueName2(kernel, &len);
  aucs_finding f = {.kind = AUCS_FINDING_REDUNDANT_BARRIER,
                    .a = {.instr = bar}};
  return rp_find_item(s, name, &f) < 0;
}

/* The candidates of step 1, in block order. */
static size_t candidates(state *s, LLVMValueRef kernel, LLVMValueRef *out) {
  aucs_cfg *g = aucs_cfg_build(kernel);
  size_t n = 0;
  for (int b = 0; b < g->nblocks && n < MAX_SWEPT; b++)
    for (LLVMValueRef I = LLVMGetFirstInstruction(g->blocks[b]);
         I && n < MAX_SWEPT && g->reachable[b]; I = LLVMGetNextInstruction(I))
      if (unclaimed(s, kernel, I) &&
          (side_empty(g, I, 1) || side_empty(g, I, 0)))
        out[n++] = I;
  aucs_cfg_free(g);
  return n;
}

/* Why a swept barrier goes, as rp_plan_redundant says it for a proof;
 * after: what the trial's edits did. */
static char *sweep_why(const state *s, const char *after) {
  const aucs_detect_options *d = s->o->detect;
  return aucs_xasprintf(
      "redundant once %s (the barriers around it order all it ordered), "
      "deleted in the same trial on a static proof: Z3 shows every pair of "
      "accesses it separates can never race, %s%s",
      after,
      d && d->may_alias ? "even with pointer arguments overlapping"
                        : "with distinct pointer arguments not overlapping "
                          "(--may-alias keeps barriers an in-place launch "
                          "needs)",
      d && (d->has_grid || d->has_block)
          ? "; the proof holds for the launch given (--grid, --block)"
          : "");
}

static void sweep(state *s, trial *t, LLVMValueRef kernel, const char *after) {
  LLVMValueRef bars[MAX_SWEPT];
  size_t n = s->no_sweep ? 0 : candidates(s, kernel, bars);
  char *why = NULL;
  for (size_t i = 0; i < n && !aucs_budget_check(&s->budget); i++) {
    int ran_out = 0;
    if (!rp_proven_redundant(s, kernel, bars[i], &ran_out))
      continue;
    if (rp_tracing())
      fprintf(stderr,
              "aucs: repair: item %d: a barrier the edits left redundant is "
              "deleted in the same trial\n",
              t->item);
    if (!why)
      why = sweep_why(s, after);
    rp_delete(s, t, bars[i], why);
    s->swept++;
  }
  free(why);
}

void rp_sweep_redundant(state *s, trial *t, LLVMValueRef kernel) {
  sweep(s, t, kernel, "the threads are kept in");
}

/* A race's placement that uniformized a loop leaves the plain barrier just
 * before it (or at the end of its body) ordering nothing the loop's
 * or-barrier does not: the same sweep, once the placement succeeded, when
 * fn is the kernel itself (helpers are inlined before a placement). */
int rp_sweep_after_place(state *s, trial *t, LLVMValueRef fn, int uniformized,
                         int failed) {
  if (!failed && uniformized && aucs_kernel_is(fn))
    sweep(s, t, fn, "the loop is uniformized");
  return failed;
}
