/*
 * uniformize: run a loop with a thread-dependent trip count the same number
 * of times in every thread (the contract is aucs/uniformize.h; DESIGN.md
 * section 6.3 step 4).
 *
 * Algorithm, for the natural loop L with header H:
 *   1. Check: every terminator of L is br, switch, ret or unreachable; no
 *      irreducible cycle touches L; L calls no reduction barrier and no
 *      function that executes a barrier (guarding such a call under
 *      `active` would change who reaches that barrier).
 *   2. Per-thread slots (allocas in the entry block): `active` (i1), the
 *      exit taken (i32), the return value, one per phi of H, one per value
 *      of L used outside it.
 *   3. New blocks: uni.pre (every edge into H from outside now ends here:
 *      it stores the phis' entry values and active = true, or with absorb
 *      the preheader's branch condition), uni.head (a = load active;
 *      any = __syncthreads_or(a); br any, uni.body, uni.done), uni.body
 *      (br a, H, uni.head).
 *   4. Each back edge goes to a uni.cont block that stores the phis' values
 *      for the next iteration, then to uni.head. Each exit edge X -> T goes
 *      to a uni.exit block: active = false (written as the exit branch's
 *      condition, which is false on that edge, so `active` is seen to vary
 *      with it), exit = i, then uni.head. An early `return` is an exit
 *      edge to the return block (a ret is never inside a natural loop).
 *      uni.done
 *      switches on the exit taken to uni.out blocks that jump to T (T's
 *      phis now come from the uni.out block) or return the stored value.
 *   5. The phis of H become loads of their slots; each value of L used
 *      outside L is stored right after its definition and its outside uses
 *      load the slot (a use in a phi loads at the end of the incoming block).
 *   6. When the function had no promotable alloca before, mem2reg turns the
 *      slots back into SSA values (so nothing else of the function changes);
 *      then verify.
 * This is exact for each thread: while active, the thread runs the blocks
 * of its original run in order, with the same values (the slots hold the
 * last value each definition had); once it exits, it runs only uni.head
 * (a barrier, no memory access of the kernel) until every thread has
 * exited, then leaves by the exit it took, with the values that exit
 * carried. Every thread runs uni.head the same number of times (the
 * largest trip count plus one), so uni.head and uni.body are uniform.
 *
 *        pre                       pre
 *         |                         |
 *         v                       uni.pre: active = true (or c)
 *    +--> H -----> T1               |
 *    |    |                  +--> uni.head: any = __syncthreads_or(active)
 *    |  body ---> T2 (break) |      |        \
 *    |    |                  |    uni.body    uni.done: switch exit
 *    +- latch                |    active? H      |  \
 *                            |      |          T1    T2
 *                            |      H .. body .. latch
 *                            |      |  exits: active = false, exit = i
 *                            +------+  back edge: store the phis' values
 *
 * Limitation: a loop that calls a helper executing a barrier (inline it
 * first) or a reduction barrier, an irreducible loop, and terminators
 * other than br, switch, ret and unreachable are rejected with a reason.
 * Values live across the rewrite go through allocas; they are promoted
 * back only when the function had no promotable alloca of its own (-O0
 * code without sroa keeps them).
 */
#include "aucs/uniformize.h"

#include "aucs/nvvm.h"
#include "aucs/place.h"
#include "aucs/srcloc.h"
#include "aucs/util.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Error.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdlib.h>
#include <string.h>

/* ---- 1. check -----------------------------------------------------------*/

static LLVMValueRef callee(LLVMValueRef I) {
  if (!LLVMIsACallInst(I))
    return NULL;
  LLVMValueRef f = LLVMGetCalledValue(I);
  return f && LLVMIsAFunction(f) ? f : NULL;
}

static aucs_nvvm_kind nvvm_kind(LLVMValueRef f) {
  size_t len;
  return aucs_nvvm_classify(LLVMGetValueName2(f, &len));
}

static char *check_inst(LLVMValueRef I) {
  LLVMValueRef f = callee(I);
  size_t len;
  if (f && nvvm_kind(f) == AUCS_NVVM_BARRIER_REDUCE)
    return aucs_xstrdup("the loop holds a __syncthreads_or/and/count, whose "
                        "result would change once only active threads "
                        "reach it");
  if (f && LLVMCountBasicBlocks(f) && aucs_place_is_barrier(I))
    return aucs_xasprintf("the loop calls @%s, which executes a barrier: "
                          "guarding that call under `active` would make the "
                          "barrier divergent (inline the call first)",
                          LLVMGetValueName2(f, &len));
  if (LLVMIsATerminatorInst(I) && !LLVMIsABranchInst(I) &&
      !LLVMIsASwitchInst(I) && !LLVMIsAReturnInst(I) &&
      !LLVMIsAUnreachableInst(I))
    return aucs_xstrdup("the loop has a terminator other than br, switch, "
                        "ret or unreachable");
  return NULL;
}

static char *check_absorb(const aucs_cfg *cfg, int l) {
  const aucs_loop *L = &cfg->loops[l];
  int outside = 0, p = -1;
  for (int i = 0; i < cfg->npred[L->header]; i++)
    if (!aucs_cfg_in_loop(cfg, l, cfg->pred[L->header][i]))
      outside++, p = cfg->pred[L->header][i];
  LLVMValueRef t = p >= 0 ? LLVMGetBasicBlockTerminator(cfg->blocks[p]) : NULL;
  if (outside != 1 || !LLVMIsABranchInst(t))
    return aucs_xstrdup("the loop sits in a divergent region but is not "
                        "entered by one branch that the uniform loop can "
                        "absorb");
  if (LLVMIsConditional(t) &&
      LLVMGetSuccessor(t, 0) == LLVMGetSuccessor(t, 1))
    return aucs_xstrdup("the branch into the loop has one target twice");
  return NULL;
}

char *aucs_uniformize_check(const aucs_cfg *cfg, int l, int absorb) {
  const aucs_loop *L = &cfg->loops[l];
  for (int c = 0; c < cfg->ncycles; c++)
    for (int i = 0; i < cfg->cycles[c].nblocks; i++)
      if (aucs_cfg_in_loop(cfg, l, cfg->cycles[c].blocks[i]))
        return aucs_xstrdup("the loop is part of irreducible control flow");
  for (int i = 0; i < L->nblocks; i++)
    for (LLVMValueRef I = LLVMGetFirstInstruction(cfg->blocks[L->blocks[i]]);
         I; I = LLVMGetNextInstruction(I)) {
      char *why = check_inst(I);
      if (why)
        return why;
    }
  return absorb ? check_absorb(cfg, l) : NULL;
}

/* ---- the rewrite --------------------------------------------------------*/

typedef struct exit_edge {
  LLVMBasicBlockRef from, to;
  LLVMBasicBlockRef out;      /* uni.out block */
} exit_edge;

typedef struct uni {
  LLVMValueRef fn;
  LLVMContextRef cx;
  LLVMBuilderRef b;
  LLVMMetadataRef loc;
  aucs_ptrmap inside; /* loop blocks and uni.cont blocks */
  LLVMBasicBlockRef H, pre, head, body, done, entry, last;
  LLVMValueRef active, sel, a0;
  exit_edge *exits;
  int nexits;
  LLVMBasicBlockRef *latches;
  int nlatches;
  LLVMValueRef *hphis;
  int nhphis;
  LLVMValueRef *hslots;
} uni;

static LLVMValueRef first_non_phi(LLVMBasicBlockRef bb) {
  LLVMValueRef I = LLVMGetFirstInstruction(bb);
  while (I && LLVMIsAPHINode(I))
    I = LLVMGetNextInstruction(I);
  return I;
}

static int is_in(uni *u, LLVMBasicBlockRef bb) {
  return aucs_ptrmap_get(&u->inside, bb, NULL);
}

static LLVMTypeRef i1(uni *u) { return LLVMInt1TypeInContext(u->cx); }
static LLVMTypeRef i32(uni *u) { return LLVMInt32TypeInContext(u->cx); }

static LLVMValueRef slot(uni *u, LLVMTypeRef ty, const char *name) {
  LLVMPositionBuilderBefore(u->b, LLVMGetFirstInstruction(u->entry));
  return LLVMBuildAlloca(u->b, ty, name);
}

static LLVMBasicBlockRef block_after(uni *u, const char *name) {
  LLVMBasicBlockRef bb = LLVMAppendBasicBlockInContext(u->cx, u->fn, name);
  LLVMMoveBasicBlockAfter(bb, u->last);
  u->last = bb;
  return bb;
}

static void at_end(uni *u, LLVMBasicBlockRef bb) {
  LLVMPositionBuilderAtEnd(u->b, bb);
  LLVMSetCurrentDebugLocation2(u->b, u->loc);
}

static void store(uni *u, LLVMValueRef v, LLVMValueRef p) {
  LLVMBuildStore(u->b, v, p);
}

/* Successor slots of bb's terminator that go to `from` go to `to`. */
static void redirect(LLVMBasicBlockRef bb, LLVMBasicBlockRef from,
                     LLVMBasicBlockRef to) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
  for (unsigned i = 0; i < LLVMGetNumSuccessors(t); i++)
    if (LLVMGetSuccessor(t, i) == from)
      LLVMSetSuccessor(t, i, to);
}

/* The phis of bb take from `to` what they took from `from` (one entry). */
static void rename_incoming(uni *u, LLVMBasicBlockRef bb,
                            LLVMBasicBlockRef from, LLVMBasicBlockRef to) {
  LLVMValueRef next;
  for (LLVMValueRef phi = LLVMGetFirstInstruction(bb);
       phi && LLVMIsAPHINode(phi); phi = next) {
    next = LLVMGetNextInstruction(phi);
    LLVMPositionBuilderBefore(u->b, phi);
    LLVMValueRef np = LLVMBuildPhi(u->b, LLVMTypeOf(phi), "");
    int moved = 0;
    for (unsigned k = 0; k < LLVMCountIncoming(phi); k++) {
      LLVMBasicBlockRef ib = LLVMGetIncomingBlock(phi, k);
      LLVMValueRef v = LLVMGetIncomingValue(phi, k);
      if (ib == from && moved++)
        continue;
      LLVMAddIncoming(np, &v, ib == from ? &to : &ib, 1);
    }
    size_t len;
    const char *name = LLVMGetValueName2(phi, &len);
    char *keep = aucs_xstrdup(name);
    LLVMReplaceAllUsesWith(phi, np);
    LLVMInstructionEraseFromParent(phi);
    LLVMSetValueName2(np, keep, strlen(keep));
    free(keep);
  }
}

static void collect(uni *u, const aucs_cfg *cfg, int l) {
  const aucs_loop *L = &cfg->loops[l];
  for (int i = 0; i < L->nblocks; i++)
    aucs_ptrmap_put(&u->inside, cfg->blocks[L->blocks[i]], 1);
  for (int i = 0; i < L->nblocks; i++) {
    int x = L->blocks[i];
    LLVMBasicBlockRef X = cfg->blocks[x];
    for (int k = 0; k < cfg->nsucc[x]; k++) {
      LLVMBasicBlockRef T = cfg->blocks[cfg->succ[x][k]];
      if (T == u->H) {
        u->latches =
            aucs_xrealloc(u->latches, sizeof(*u->latches) * (u->nlatches + 1));
        u->latches[u->nlatches++] = X;
      } else if (!is_in(u, T)) {
        u->exits =
            aucs_xrealloc(u->exits, sizeof(exit_edge) * (u->nexits + 1));
        u->exits[u->nexits++] = (exit_edge){X, T, NULL};
      }
    }
  }
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(u->fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    if (is_in(u, bb))
      u->last = bb;
}

/* 3. uni.pre, uni.head, uni.body. absorb: the preheader's branch is the
 * entry condition and its other target the first exit. */
static void make_entry(uni *u, int absorb) {
  u->pre = LLVMInsertBasicBlockInContext(u->cx, u->H, "uni.pre");
  u->head = LLVMInsertBasicBlockInContext(u->cx, u->H, "uni.head");
  u->body = LLVMInsertBasicBlockInContext(u->cx, u->H, "uni.body");
  u->a0 = LLVMConstInt(i1(u), 1, 0);
  LLVMBasicBlockRef preds[64];
  int n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(u->fn); bb && n < 64;
       bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (is_in(u, bb) || !t || bb == u->pre)
      continue;
    for (unsigned i = 0; i < LLVMGetNumSuccessors(t); i++)
      if (LLVMGetSuccessor(t, i) == u->H) {
        preds[n++] = bb;
        break;
      }
  }
  if (absorb) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(preds[0]);
    if (LLVMIsConditional(t)) {
      int h0 = LLVMGetSuccessor(t, 0) == u->H;
      LLVMBasicBlockRef other = LLVMGetSuccessor(t, h0 ? 1 : 0);
      LLVMValueRef c = LLVMGetCondition(t);
      LLVMPositionBuilderBefore(u->b, t);
      u->a0 = h0 ? c : LLVMBuildNot(u->b, c, "uni.enter");
      u->exits = aucs_xrealloc(u->exits, sizeof(exit_edge) * (u->nexits + 1));
      memmove(u->exits + 1, u->exits, sizeof(exit_edge) * u->nexits);
      u->exits[0] = (exit_edge){preds[0], other, NULL};
      u->nexits++;
      LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(t);
      LLVMInstructionEraseFromParent(t);
      LLVMPositionBuilderAtEnd(u->b, preds[0]);
      LLVMValueRef br = LLVMBuildBr(u->b, u->H);
      if (loc)
        LLVMInstructionSetDebugLoc(br, loc);
    }
  }
  /* header phis: their entry values are stored in uni.pre */
  at_end(u, u->pre);
  for (int i = 0; i < u->nhphis; i++) {
    LLVMValueRef phi = u->hphis[i], np = NULL;
    for (unsigned k = 0; k < LLVMCountIncoming(phi); k++) {
      LLVMBasicBlockRef ib = LLVMGetIncomingBlock(phi, k);
      LLVMValueRef v = LLVMGetIncomingValue(phi, k);
      if (is_in(u, ib))
        continue;
      if (!np)
        np = LLVMBuildPhi(u->b, LLVMTypeOf(phi), "uni.init");
      LLVMAddIncoming(np, &v, &ib, 1);
    }
    if (np)
      store(u, np, u->hslots[i]);
  }
  store(u, u->a0, u->active);
  LLVMBuildBr(u->b, u->head);
  for (int i = 0; i < n; i++)
    redirect(preds[i], u->H, u->pre);
}

static LLVMValueRef reduce_or(uni *u, LLVMValueRef a) {
  LLVMModuleRef m = LLVMGetGlobalParent(u->fn);
  static const char *const names[] = {
      "llvm.nvvm.barrier.cta.red.or.aligned.all", "llvm.nvvm.barrier0.or"};
  LLVMValueRef f = NULL;
  for (int i = 0; i < 2 && !f; i++)
    f = LLVMGetNamedFunction(m, names[i]);
  if (!f) {
    unsigned id = LLVMLookupIntrinsicID(names[0], strlen(names[0]));
    AUCS_ASSERT(id);
    f = LLVMGetIntrinsicDeclaration(m, id, NULL, 0);
  }
  LLVMTypeRef ty = LLVMGlobalGetValueType(f);
  LLVMValueRef call;
  if (LLVMCountParamTypes(ty) == 2) {
    LLVMValueRef args[2] = {LLVMConstInt(i32(u), 0, 0), a};
    call = LLVMBuildCall2(u->b, ty, f, args, 2, "uni.any");
  } else {
    LLVMValueRef arg = LLVMBuildZExt(u->b, a, i32(u), "uni.a32");
    call = LLVMBuildCall2(u->b, ty, f, &arg, 1, "uni.any32");
  }
  if (u->loc)
    LLVMInstructionSetDebugLoc(call, u->loc);
  return call;
}

static LLVMValueRef make_head(uni *u) {
  at_end(u, u->head);
  LLVMValueRef a = LLVMBuildLoad2(u->b, i1(u), u->active, "uni.active");
  LLVMValueRef call = reduce_or(u, a), any = call;
  if (LLVMTypeOf(call) != i1(u))
    any = LLVMBuildICmp(u->b, LLVMIntNE, call, LLVMConstInt(i32(u), 0, 0),
                        "uni.any");
  u->done = block_after(u, "uni.done");
  LLVMBuildCondBr(u->b, any, u->body, u->done);
  at_end(u, u->body);
  LLVMBuildCondBr(u->b, a, u->H, u->head);
  return call;
}

/* 4. back edges through uni.cont blocks storing the phis' next values. */
static void make_conts(uni *u) {
  for (int j = 0; j < u->nlatches; j++) {
    LLVMBasicBlockRef X = u->latches[j];
    LLVMBasicBlockRef c = block_after(u, "uni.cont");
    aucs_ptrmap_put(&u->inside, c, 1);
    at_end(u, c);
    for (int i = 0; i < u->nhphis; i++)
      for (unsigned k = 0; k < LLVMCountIncoming(u->hphis[i]); k++)
        if (LLVMGetIncomingBlock(u->hphis[i], k) == X) {
          store(u, LLVMGetIncomingValue(u->hphis[i], k), u->hslots[i]);
          break;
        }
    LLVMBuildBr(u->b, u->head);
    redirect(X, u->H, c);
  }
}

/* false, computed from the exit's own branch condition (which is false or
 * true on that edge), so that the uniformity analysis sees `active` vary
 * with the condition that made the thread leave. */
static LLVMValueRef off(uni *u, const exit_edge *e) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(e->from);
  if (LLVMIsASwitchInst(t)) {
    LLVMValueRef v = LLVMGetCondition(t);
    return LLVMBuildICmp(u->b, LLVMIntNE, v, v, "uni.off");
  }
  if (!LLVMIsABranchInst(t) || !LLVMIsConditional(t) ||
      LLVMGetSuccessor(t, 0) == LLVMGetSuccessor(t, 1))
    return LLVMConstInt(i1(u), 0, 0);
  LLVMValueRef c = LLVMGetCondition(t);
  if (LLVMGetSuccessor(t, 1) == e->to)
    return c;
  return LLVMBuildXor(u->b, c, LLVMConstInt(i1(u), 1, 0), "uni.off");
}

/* 4. exits: clear active, record the exit, leave after the loop. */
static void make_exits(uni *u) {
  for (int i = 0; i < u->nexits; i++) {
    exit_edge *e = &u->exits[i];
    e->out = block_after(u, "uni.out");
    at_end(u, e->out);
    LLVMBuildBr(u->b, e->to);
    rename_incoming(u, e->to, e->from, e->out);
    if (!is_in(u, e->from)) /* absorbed entry branch: now goes to uni.pre */
      continue;
    LLVMBasicBlockRef x = block_after(u, "uni.exit");
    aucs_ptrmap_put(&u->inside, x, 1);
    at_end(u, x);
    store(u, off(u, e), u->active);
    if (u->nexits > 1)
      store(u, LLVMConstInt(i32(u), (unsigned)i, 0), u->sel);
    LLVMBuildBr(u->b, u->head);
    redirect(e->from, e->to, x);
  }
  at_end(u, u->done);
  if (u->nexits == 1) {
    LLVMBuildBr(u->b, u->exits[0].out);
    return;
  }
  LLVMValueRef s = LLVMBuildLoad2(u->b, i32(u), u->sel, "uni.exit");
  LLVMValueRef sw = LLVMBuildSwitch(u->b, s, u->exits[u->nexits - 1].out,
                                    (unsigned)u->nexits - 1);
  for (int i = 0; i + 1 < u->nexits; i++)
    LLVMAddCase(sw, LLVMConstInt(i32(u), (unsigned)i, 0), u->exits[i].out);
}

/* 5. the phis of H read their slots. */
static void demote_header_phis(uni *u) {
  LLVMValueRef first = first_non_phi(u->H);
  for (int i = 0; i < u->nhphis; i++) {
    LLVMPositionBuilderBefore(u->b, first);
    size_t len;
    char *name = aucs_xstrdup(LLVMGetValueName2(u->hphis[i], &len));
    LLVMValueRef ld =
        LLVMBuildLoad2(u->b, LLVMTypeOf(u->hphis[i]), u->hslots[i], "");
    LLVMReplaceAllUsesWith(u->hphis[i], ld);
    LLVMInstructionEraseFromParent(u->hphis[i]);
    LLVMSetValueName2(ld, name, strlen(name));
    free(name);
  }
}

static int used_outside(uni *u, LLVMValueRef v) {
  for (LLVMUseRef use = LLVMGetFirstUse(v); use; use = LLVMGetNextUse(use)) {
    LLVMValueRef user = LLVMGetUser(use);
    if (LLVMIsAInstruction(user) &&
        !is_in(u, LLVMGetInstructionParent(user)))
      return 1;
  }
  return 0;
}

static void reload_in(uni *u, LLVMValueRef v, LLVMValueRef p,
                      LLVMValueRef user) {
  LLVMTypeRef ty = LLVMTypeOf(v);
  if (LLVMIsAPHINode(user)) {
    for (unsigned k = 0; k < LLVMCountIncoming(user); k++)
      if (LLVMGetIncomingValue(user, k) == v) {
        LLVMBasicBlockRef ib = LLVMGetIncomingBlock(user, k);
        LLVMPositionBuilderBefore(u->b, LLVMGetBasicBlockTerminator(ib));
        LLVMSetOperand(user, k, LLVMBuildLoad2(u->b, ty, p, ""));
      }
    return;
  }
  LLVMPositionBuilderBefore(u->b, user);
  LLVMValueRef ld = LLVMBuildLoad2(u->b, ty, p, "");
  for (int k = 0; k < LLVMGetNumOperands(user); k++)
    if (LLVMGetOperand(user, (unsigned)k) == v)
      LLVMSetOperand(user, (unsigned)k, ld);
}

static void demote(uni *u, LLVMValueRef v) {
  LLVMValueRef p = slot(u, LLVMTypeOf(v), "uni.live");
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(v);
  LLVMValueRef after =
      LLVMIsAPHINode(v) ? first_non_phi(bb) : LLVMGetNextInstruction(v);
  size_t n = 0;
  LLVMValueRef users[256];
  for (LLVMUseRef use = LLVMGetFirstUse(v); use && n < 256;
       use = LLVMGetNextUse(use)) {
    LLVMValueRef user = LLVMGetUser(use);
    if (LLVMIsAInstruction(user) &&
        !is_in(u, LLVMGetInstructionParent(user))) {
      int dup = 0;
      for (size_t i = 0; i < n; i++)
        dup |= users[i] == user;
      if (!dup)
        users[n++] = user;
    }
  }
  LLVMPositionBuilderBefore(u->b, after);
  store(u, v, p);
  for (size_t i = 0; i < n; i++)
    reload_in(u, v, p, users[i]);
}

static void demote_live_outs(uni *u) {
  LLVMValueRef *vs = NULL;
  size_t n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(u->fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    if (is_in(u, bb))
      for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
           I = LLVMGetNextInstruction(I))
        if (used_outside(u, I)) {
          vs = aucs_xrealloc(vs, sizeof(*vs) * (n + 1));
          vs[n++] = I;
        }
  for (size_t i = 0; i < n; i++)
    demote(u, vs[i]);
  free(vs);
}

/* 6. promote the slots when nothing else would be promoted with them. */
static int promotable(LLVMValueRef a) {
  for (LLVMUseRef use = LLVMGetFirstUse(a); use; use = LLVMGetNextUse(use)) {
    LLVMValueRef I = LLVMGetUser(use);
    if (LLVMIsALoadInst(I) && !LLVMGetVolatile(I))
      continue;
    if (LLVMIsAStoreInst(I) && !LLVMGetVolatile(I) &&
        LLVMGetOperand(I, 0) != a)
      continue;
    return 0;
  }
  return 1;
}

static int has_promotable(LLVMValueRef fn) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I))
      if (LLVMIsAAllocaInst(I) && promotable(I))
        return 1;
  return 0;
}

static void promote(LLVMValueRef fn) {
  LLVMPassBuilderOptionsRef o = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPassesOnFunction(fn, "mem2reg", NULL, o);
  LLVMDisposePassBuilderOptions(o);
  if (e)
    LLVMConsumeError(e);
}

static LLVMMetadataRef header_loc(LLVMBasicBlockRef H) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(H);
  LLVMMetadataRef loc = t ? LLVMInstructionGetDebugLoc(t) : NULL;
  for (LLVMValueRef I = LLVMGetFirstInstruction(H); I && !loc;
       I = LLVMGetNextInstruction(I))
    loc = LLVMInstructionGetDebugLoc(I);
  return loc;
}

static void setup(uni *u, LLVMValueRef fn, LLVMBasicBlockRef H) {
  memset(u, 0, sizeof(*u));
  u->fn = fn;
  u->cx = LLVMGetModuleContext(LLVMGetGlobalParent(fn));
  u->b = LLVMCreateBuilderInContext(u->cx);
  u->H = H;
  u->entry = LLVMGetEntryBasicBlock(fn);
  u->loc = header_loc(H);
  for (LLVMValueRef phi = LLVMGetFirstInstruction(H);
       phi && LLVMIsAPHINode(phi); phi = LLVMGetNextInstruction(phi)) {
    u->hphis = aucs_xrealloc(u->hphis, sizeof(*u->hphis) * (u->nhphis + 1));
    u->hphis[u->nhphis++] = phi;
  }
}

static void teardown(uni *u) {
  LLVMDisposeBuilder(u->b);
  aucs_ptrmap_free(&u->inside);
  free(u->exits);
  free(u->latches);
  free(u->hphis);
  free(u->hslots);
}

static LLVMValueRef rewrite(LLVMValueRef fn, const aucs_cfg *cfg, int l,
                            int absorb) {
  uni u;
  setup(&u, fn, cfg->blocks[cfg->loops[l].header]);
  collect(&u, cfg, l);
  int promote_after = !has_promotable(fn);
  u.active = slot(&u, i1(&u), "uni.active.addr");
  u.sel = slot(&u, i32(&u), "uni.exit.addr");
  u.hslots = aucs_xcalloc((size_t)u.nhphis + 1, sizeof(*u.hslots));
  for (int i = 0; i < u.nhphis; i++)
    u.hslots[i] = slot(&u, LLVMTypeOf(u.hphis[i]), "uni.phi");
  make_entry(&u, absorb);
  LLVMValueRef any = make_head(&u);
  make_conts(&u);
  make_exits(&u);
  demote_header_phis(&u);
  demote_live_outs(&u);
  teardown(&u);
  if (promote_after)
    promote(fn);
  return any;
}

static LLVMValueRef counterpart(LLVMValueRef fn, LLVMModuleRef m) {
  size_t len;
  return LLVMGetNamedFunction(m, LLVMGetValueName2(fn, &len));
}

static int loop_of_header(const aucs_cfg *cfg, int header) {
  for (int l = 0; l < cfg->nloops; l++)
    if (cfg->loops[l].header == header)
      return l;
  return -1;
}

/* Rewrite fn's loop at header, or say why not. */
static int attempt(LLVMValueRef fn, int header, int absorb, LLVMValueRef *any,
                   char **err) {
  aucs_cfg *cfg = aucs_cfg_build(fn);
  int l = header >= 0 && header < cfg->nblocks ? loop_of_header(cfg, header)
                                               : -1;
  char *why = l < 0 ? aucs_xstrdup("the block is no loop header")
                    : aucs_uniformize_check(cfg, l, absorb);
  if (!why)
    *any = rewrite(fn, cfg, l, absorb);
  aucs_cfg_free(cfg);
  if (why) {
    *err = why;
    return 1;
  }
  if (LLVMVerifyFunction(fn, LLVMReturnStatusAction)) {
    *err = aucs_xstrdup("internal: the uniformized loop does not verify");
    return 1;
  }
  return 0;
}

/* Uniformize, first on a clone of fn's module when checked. */
static int uniformize_loop(LLVMValueRef fn, int header, int absorb,
                           aucs_uniformize_result *out, char **err,
                           int checked) {
  LLVMValueRef any = NULL;
  if (checked) {
    LLVMModuleRef clone = LLVMCloneModule(LLVMGetGlobalParent(fn));
    int bad = attempt(counterpart(fn, clone), header, absorb, &any, err);
    LLVMDisposeModule(clone);
    if (bad)
      return 1;
    AUCS_ASSERT(!attempt(fn, header, absorb, &any, err));
  } else if (attempt(fn, header, absorb, &any, err))
    return 1;
  if (out) {
    out->any = any;
    out->head = LLVMGetInstructionParent(any);
  }
  return 0;
}

int aucs_uniformize_loop(LLVMValueRef fn, int header, int absorb,
                         aucs_uniformize_result *out, char **err) {
  return uniformize_loop(fn, header, absorb, out, err, 1);
}

int aucs_uniformize_loop_unchecked(LLVMValueRef fn, int header, int absorb,
                                   aucs_uniformize_result *out, char **err) {
  return uniformize_loop(fn, header, absorb, out, err, 0);
}

char *aucs_uniformize_source(LLVMValueRef header_term, int absorb) {
  aucs_srcloc l = aucs_srcloc_of(header_term);
  const char *init = absorb ? "<the condition around the loop>" : "true";
  if (!l.line)
    return NULL;
  return aucs_xasprintf(
      "rewrite the loop at %.*s:%u as `bool active = %s; while "
      "(__syncthreads_or(active)) { if (active) { <body; each exit sets "
      "active = false> } }` and take the exit after the loop",
      (int)l.file_len, l.file, l.line, init);
}
