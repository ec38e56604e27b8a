/*
 * syncfix: repairs for synchronization beyond barriers (syncfix.h). The
 * repair loop plans them (repair_sync.c, rp_plan_scope and rp_plan_fence):
 * it tries the variants below in order and keeps the first whose
 * re-detection answers the finding without a new one.
 *
 * scope-race (two atomics, one of block scope, used by two blocks):
 *   0. widen every block-scoped atomic of the kernel on the base object of
 *      the finding's accesses (a lock is taken by one atomic and released
 *      by another: widening one alone leaves the other too narrow);
 *   1. widen only the finding's block-scoped accesses;
 *   2. widen every block-scoped atomic of the kernel.
 *   Widened, `llvm.nvvm.atomic.<op>.gen.<t>.cta` (atomicCAS_block) becomes
 *   what clang emits for the unscoped call (atomicCAS): a seq_cst
 *   atomicrmw or cmpxchg of default scope; an atomicrmw/cmpxchg of
 *   syncscope("block") gets syncscope("device").
 *
 * missing-fence (a hand-off A -> B ordered only if its strong accesses were
 * release and acquire): A's side publishes, B's side reads.
 *   0. release side: __threadfence() before the first strong write after A
 *      (the flag store, the unlock), or right after A when there is none;
 *   1. acquire side: __threadfence() right before B;
 *   2. both.
 *   The fence is `llvm.nvvm.membar.gl`, as clang emits __threadfence().
 *
 *   before:  data = 7;  flag = 1;        after:  data = 7;
 *                                                __threadfence();
 *                                                flag = 1;
 *
 * Limitation: the flag store is searched in the function of A only (a
 * helper on the path is inlined by the loop only when A or B is in it);
 * the acquire-side fence goes right before B, inside a loop if B is in one
 * (correct, not the cheapest). Source forms: the CUDA call name at the
 * atomic's column; a fence on a statement boundary; else IR only.
 */
#include "aucs/syncfix.h"

#include "aucs/place.h"
#include "aucs/srcloc.h"
#include "aucs/util.h"

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

/* ---- which atomics are narrow ---------------------------------------------*/

static const char *callee_name(LLVMValueRef I) {
  if (!LLVMIsACallInst(I))
    return NULL;
  LLVMValueRef f = LLVMGetCalledValue(I);
  if (!f || !LLVMIsAFunction(f))
    return NULL;
  size_t n;
  return LLVMGetValueName2(f, &n);
}

static const char NVVM_ATOMIC[] = "llvm.nvvm.atomic.";

static int nvvm_atomic(const char *name, const char *scope) {
  return name && !strncmp(name, NVVM_ATOMIC, sizeof NVVM_ATOMIC - 1) &&
         strstr(name, scope);
}

static int scope_is(LLVMValueRef I, const char *name) {
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(I));
  return LLVMGetAtomicSyncScopeID(I) ==
         LLVMGetSyncScopeID(cx, name, strlen(name));
}

/* A libcu++ PTX atomic, load or store of block scope (cuda::atomic_ref
 * with cuda::thread_scope_block): its asm text, else NULL. */
static const char *ptx_cta(LLVMValueRef I, size_t *n) {
  LLVMValueRef f = LLVMIsACallInst(I) ? LLVMGetCalledValue(I) : NULL;
  if (!f || !LLVMIsAInlineAsm(f))
    return NULL;
  const char *s = LLVMGetInlineAsmAsmString(f, n);
  int op = *n > 5 && (!strncmp(s, "atom.", 5) || !strncmp(s, "ld.", 3) ||
                      !strncmp(s, "st.", 3));
  return op && memchr(s, ';', *n) && strstr(s, ".cta.") ? s : NULL;
}

int aucs_syncfix_narrow(LLVMValueRef I) {
  size_t n;
  if (LLVMIsAAtomicRMWInst(I) || LLVMIsAAtomicCmpXchgInst(I))
    return scope_is(I, "block") || scope_is(I, "cluster");
  return nvvm_atomic(callee_name(I), ".cta.") || ptx_cta(I, &n);
}

/* The PTX text of I with .gpu for .cta: the same operation, device scope. */
static LLVMValueRef widen_ptx(LLVMValueRef I, const char *s, size_t n) {
  LLVMValueRef f = LLVMGetCalledValue(I);
  char *text = aucs_xasprintf("%.*s", (int)n, s);
  memcpy(strstr(text, ".cta."), ".gpu.", 5);
  size_t cn;
  const char *cons = LLVMGetInlineAsmConstraintString(f, &cn);
  LLVMValueRef g = LLVMGetInlineAsm(
      LLVMGetInlineAsmFunctionType(f), text, n, cons, cn,
      LLVMGetInlineAsmHasSideEffects(f), LLVMGetInlineAsmNeedsAlignedStack(f),
      LLVMGetInlineAsmDialect(f), LLVMGetInlineAsmCanUnwind(f));
  free(text);
  LLVMSetOperand(I, (unsigned)LLVMGetNumOperands(I) - 1, g);
  return I;
}

/* ---- widening ---------------------------------------------------------*/

typedef struct rmw_row {
  const char *op, *type; /* "max", "ui": llvm.nvvm.atomic.max.gen.ui.cta */
  LLVMAtomicRMWBinOp bin;
  const char *cuda; /* the CUDA call: atomicMax */
} rmw_row;

static const rmw_row rmw_rows[] = {
    {"add", "i", LLVMAtomicRMWBinOpAdd, "atomicAdd"},
    {"add", "f", LLVMAtomicRMWBinOpFAdd, "atomicAdd"},
    {"exch", "i", LLVMAtomicRMWBinOpXchg, "atomicExch"},
    {"max", "i", LLVMAtomicRMWBinOpMax, "atomicMax"},
    {"max", "ui", LLVMAtomicRMWBinOpUMax, "atomicMax"},
    {"min", "i", LLVMAtomicRMWBinOpMin, "atomicMin"},
    {"min", "ui", LLVMAtomicRMWBinOpUMin, "atomicMin"},
    {"inc", "i", LLVMAtomicRMWBinOpUIncWrap, "atomicInc"},
    {"dec", "i", LLVMAtomicRMWBinOpUDecWrap, "atomicDec"},
    {"and", "i", LLVMAtomicRMWBinOpAnd, "atomicAnd"},
    {"or", "i", LLVMAtomicRMWBinOpOr, "atomicOr"},
    {"xor", "i", LLVMAtomicRMWBinOpXor, "atomicXor"},
    {"cas", "i", LLVMAtomicRMWBinOpXchg, "atomicCAS"}, /* bin unused */
};

/* The row of an NVVM atomic's name, or NULL. */
static const rmw_row *row_of(const char *name) {
  if (!nvvm_atomic(name, "."))
    return NULL;
  const char *op = name + sizeof NVVM_ATOMIC - 1;
  for (size_t i = 0; i < sizeof rmw_rows / sizeof *rmw_rows; i++) {
    const rmw_row *r = &rmw_rows[i];
    size_t n = strlen(r->op), k = strlen(r->type);
    if (!strncmp(op, r->op, n) && !strncmp(op + n, ".gen.", 5) &&
        !strncmp(op + n + 5, r->type, k) && op[n + 5 + k] == '.')
      return r;
  }
  return NULL;
}

static void copy_marks(LLVMValueRef from, LLVMValueRef to, int with_id) {
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(from));
  unsigned id = LLVMGetMDKindIDInContext(cx, "aucs.id", 7);
  LLVMValueRef md = LLVMGetMetadata(from, id);
  if (md && with_id)
    LLVMSetMetadata(to, id, md);
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(from);
  if (loc)
    LLVMInstructionSetDebugLoc(to, loc);
}

/* The NVVM call I as clang's unscoped atomic: the new access. */
static LLVMValueRef widen_call(LLVMValueRef I, const rmw_row *r) {
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(I));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cx);
  LLVMPositionBuilderBefore(b, I);
  LLVMAtomicOrdering sc = LLVMAtomicOrderingSequentiallyConsistent;
  LLVMValueRef p = LLVMGetOperand(I, 0), access, value;
  if (!strcmp(r->op, "cas")) {
    access = LLVMBuildAtomicCmpXchg(b, p, LLVMGetOperand(I, 1),
                                    LLVMGetOperand(I, 2), sc, sc, 0);
    value = LLVMBuildExtractValue(b, access, 0, "");
    copy_marks(I, value, 0);
  } else
    value = access =
        LLVMBuildAtomicRMW(b, r->bin, p, LLVMGetOperand(I, 1), sc, 0);
  LLVMDisposeBuilder(b);
  copy_marks(I, access, 1);
  LLVMReplaceAllUsesWith(I, value);
  LLVMInstructionEraseFromParent(I);
  return access;
}

LLVMValueRef aucs_syncfix_widen(LLVMValueRef I, char **err) {
  if (LLVMIsAAtomicRMWInst(I) || LLVMIsAAtomicCmpXchgInst(I)) {
    LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(I));
    LLVMSetAtomicSyncScopeID(I, LLVMGetSyncScopeID(cx, "device", 6));
    return I;
  }
  size_t n;
  const char *ptx = ptx_cta(I, &n);
  if (ptx)
    return widen_ptx(I, ptx, n);
  const rmw_row *r = row_of(callee_name(I));
  if (!r || !aucs_syncfix_narrow(I)) {
    *err = aucs_xstrdup("not a block-scoped atomic aucs can widen");
    return NULL;
  }
  return widen_call(I, r);
}

/* ---- fences -------------------------------------------------------------*/

LLVMValueRef aucs_syncfix_fence(LLVMValueRef before) {
  LLVMModuleRef m = LLVMGetGlobalParent(
      LLVMGetBasicBlockParent(LLVMGetInstructionParent(before)));
  LLVMContextRef cx = LLVMGetModuleContext(m);
  LLVMTypeRef ty = LLVMFunctionType(LLVMVoidTypeInContext(cx), NULL, 0, 0);
  LLVMValueRef f = LLVMGetNamedFunction(m, "llvm.nvvm.membar.gl");
  if (!f)
    f = LLVMAddFunction(m, "llvm.nvvm.membar.gl", ty);
  return aucs_place_call_before(before, ty, f, NULL, 0);
}

static int strong_write(LLVMValueRef I) {
  if (LLVMIsAAtomicRMWInst(I) || LLVMIsAAtomicCmpXchgInst(I))
    return 1;
  if (LLVMIsAStoreInst(I))
    return LLVMGetVolatile(I) ||
           LLVMGetOrdering(I) != LLVMAtomicOrderingNotAtomic;
  return nvvm_atomic(callee_name(I), ".");
}

/* Breadth first over the blocks after A's: the nearest strong write. */
LLVMValueRef aucs_syncfix_flag_store(LLVMValueRef a) {
  for (LLVMValueRef I = LLVMGetNextInstruction(a); I;
       I = LLVMGetNextInstruction(I))
    if (strong_write(I))
      return I;
  LLVMBasicBlockRef q[256];
  size_t head = 0, tail = 0;
  aucs_ptrmap seen = {0};
  LLVMValueRef found = NULL;
  q[tail++] = LLVMGetInstructionParent(a);
  while (head < tail && !found) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(q[head++]);
    for (unsigned i = 0; t && i < LLVMGetNumSuccessors(t) && !found; i++) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(t, i);
      if (aucs_ptrmap_get(&seen, s, NULL) || tail == 256)
        continue;
      aucs_ptrmap_put(&seen, s, 1);
      q[tail++] = s;
      for (LLVMValueRef I = LLVMGetFirstInstruction(s); I && !found;
           I = LLVMGetNextInstruction(I))
        if (strong_write(I))
          found = I;
    }
  }
  aucs_ptrmap_free(&seen);
  return found;
}

/* ---- source forms -------------------------------------------------------*/

char *aucs_syncfix_widen_source(LLVMValueRef I, char **why) {
  const rmw_row *r = row_of(callee_name(I));
  aucs_srcloc l = aucs_srcloc_of(I);
  *why = NULL;
  size_t n;
  if (!r && ptx_cta(I, &n)) {
    *why = aucs_xstrdup("the atomic is libcu++'s (cuda::atomic_ref or "
                        "cuda::atomic of cuda::thread_scope_block): give its "
                        "type cuda::thread_scope_device in the source");
    return NULL;
  }
  if (!r) {
    *why = aucs_xstrdup("the atomic is not a CUDA atomic*_block call (an "
                        "atomicrmw of block scope): widen its scope in the "
                        "source by hand");
    return NULL;
  }
  if (!l.line || !l.col) {
    *why = aucs_xasprintf("no source location for %s_block (compile with -g "
                          "for a source edit)",
                          r->cuda);
    return NULL;
  }
  return aucs_xasprintf("use %s (device scope) instead of %s_block at "
                        "%.*s:%u:%u",
                        r->cuda, r->cuda, (int)l.file_len, l.file, l.line,
                        l.col);
}

/* Touches memory (an sreg read or a debug call does not). */
static int touches(LLVMValueRef I) {
  const char *n = callee_name(I);
  if (n)
    return strncmp(n, "llvm.nvvm.read.ptx.sreg.", 24) &&
           strncmp(n, "llvm.dbg.", 9);
  return LLVMIsALoadInst(I) || LLVMIsAStoreInst(I) || LLVMIsAAtomicRMWInst(I) ||
         LLVMIsAAtomicCmpXchgInst(I);
}

char *aucs_syncfix_fence_source(LLVMValueRef fence, const char *what,
                                char **why) {
  aucs_srcloc at = aucs_srcloc_of(fence);
  *why = NULL;
  if (!at.line) {
    *why = aucs_xstrdup("no source location follows the fence (compile with "
                        "-g for a source edit)");
    return NULL;
  }
  for (LLVMValueRef p = LLVMGetPreviousInstruction(fence); p;
       p = LLVMGetPreviousInstruction(p))
    if (touches(p) && aucs_srcloc_of(p).line == at.line) {
      *why = aucs_xasprintf("the fence falls inside the statement at "
                            "%.*s:%u, between its accesses",
                            (int)at.file_len, at.file, at.line);
      return NULL;
    }
  return aucs_xasprintf("insert __threadfence(); before %s at %.*s:%u", what,
                        (int)at.file_len, at.file, at.line);
}
