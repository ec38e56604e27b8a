/*
 * atomic_rmw: a racy read-modify-write statement made one atomic (the
 * repair loop plans it: repair_sync.c, rp_plan_atomic).
 *
 *   before:  %v = load i32, ptr %p          after:
 *            %n = add nsw i32 %v, %x          %r = atomicrmw add ptr %p,
 *            store i32 %n, ptr %p                    i32 %x seq_cst
 *
 * Steps:
 *   1. The finding's store (the store racing with itself, or the store of a
 *      load/store pair) stores a binary operation of a load of the same
 *      address (one pointer, or one computed twice the same pure way), in
 *      the same block, with nothing touching memory between the
 *      load and the store (match).
 *   2. The operation is one an atomicrmw does (add, sub, or, and, xor on
 *      i32/i64; fadd on float/double), the load's value feeds only it and
 *      it feeds only the store (no `x = h[i]++`).
 *   3. One atomicrmw, seq_cst of default scope as clang emits atomicAdd,
 *      takes the store's place, location and repair id; the store, the
 *      operation and the load go.
 * The trial's detection then checks it like any edit.
 *
 * Limitation: `h[i] = max(h[i], v)` (a call, or a select of a compare) is
 * not matched, nor a read-modify-write split over blocks or helpers the
 * loop did not inline, nor one whose old value is used.
 */
#include "aucs/atomic_rmw.h"

#include "aucs/util.h"
#include <llvm-c/DebugInfo.h>
#include <string.h>

typedef struct rmw_form {
  LLVMOpcode opcode;
  int fp; /* float/double operands, else i32/i64 */
  int commutes;
  LLVMAtomicRMWBinOp bin;
  const char *cuda;
} rmw_form;

static const rmw_form forms[] = {
    {LLVMAdd, 0, 1, LLVMAtomicRMWBinOpAdd, "atomicAdd"},
    {LLVMSub, 0, 0, LLVMAtomicRMWBinOpSub, "atomicSub"},
    {LLVMOr, 0, 1, LLVMAtomicRMWBinOpOr, "atomicOr"},
    {LLVMAnd, 0, 1, LLVMAtomicRMWBinOpAnd, "atomicAnd"},
    {LLVMXor, 0, 1, LLVMAtomicRMWBinOpXor, "atomicXor"},
    {LLVMFAdd, 1, 1, LLVMAtomicRMWBinOpFAdd, "atomicAdd"},
};

static const rmw_form *form_of(LLVMValueRef op) {
  if (!op || !LLVMIsABinaryOperator(op))
    return NULL;
  LLVMOpcode k = LLVMGetInstructionOpcode(op);
  LLVMTypeRef ty = LLVMTypeOf(op);
  LLVMTypeKind tk = LLVMGetTypeKind(ty);
  int fp = tk == LLVMFloatTypeKind || tk == LLVMDoubleTypeKind;
  int in = tk == LLVMIntegerTypeKind &&
           (LLVMGetIntTypeWidth(ty) == 32 || LLVMGetIntTypeWidth(ty) == 64);
  for (size_t i = 0; i < sizeof forms / sizeof *forms; i++)
    if (forms[i].opcode == k && (forms[i].fp ? fp : in))
      return &forms[i];
  return NULL;
}

static int one_use_by(LLVMValueRef v, LLVMValueRef user) {
  LLVMUseRef u = LLVMGetFirstUse(v);
  return u && !LLVMGetNextUse(u) && LLVMGetUser(u) == user;
}

static int plain(LLVMValueRef I) {
  return !LLVMGetVolatile(I) &&
         LLVMGetOrdering(I) == LLVMAtomicOrderingNotAtomic;
}

/* I touches memory (an sreg read or a debug call does not). */
static int touches(LLVMValueRef I) {
  if (LLVMIsACallInst(I)) {
    LLVMValueRef f = LLVMGetCalledValue(I);
    size_t n = 0;
    const char *name = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &n) : "";
    return strncmp(name, "llvm.nvvm.read.ptx.sreg.", 24) &&
           strncmp(name, "llvm.dbg.", 9);
  }
  return LLVMIsALoadInst(I) || LLVMIsAStoreInst(I) || LLVMIsAAtomicRMWInst(I) ||
         LLVMIsAAtomicCmpXchgInst(I) || LLVMIsAFenceInst(I);
}

/* load reaches store in one block with nothing touching memory between. */
static int adjacent(LLVMValueRef load, LLVMValueRef store) {
  if (LLVMGetInstructionParent(load) != LLVMGetInstructionParent(store))
    return 0;
  for (LLVMValueRef I = LLVMGetNextInstruction(load); I;
       I = LLVMGetNextInstruction(I)) {
    if (I == store)
      return 1;
    if (touches(I))
      return 0;
  }
  return 0;
}

/* p and q compute the same address: one value, or the same pure
 * instruction (a GEP, a cast, arithmetic) of the same operands, as
 * `c[b] = c[b] + 1` computes `&c[b]` twice at -O0. */
static int same_address(LLVMValueRef p, LLVMValueRef q, int depth) {
  if (p == q)
    return 1;
  if (!depth || !LLVMIsAInstruction(p) || !LLVMIsAInstruction(q) ||
      LLVMGetInstructionOpcode(p) != LLVMGetInstructionOpcode(q) ||
      LLVMTypeOf(p) != LLVMTypeOf(q) ||
      LLVMGetNumOperands(p) != LLVMGetNumOperands(q))
    return 0;
  int gep = LLVMIsAGetElementPtrInst(p) != NULL;
  if (!gep && !LLVMIsACastInst(p) && !LLVMIsABinaryOperator(p))
    return 0;
  if (gep && LLVMGetGEPSourceElementType(p) != LLVMGetGEPSourceElementType(q))
    return 0;
  for (int i = 0; i < LLVMGetNumOperands(p); i++)
    if (!same_address(LLVMGetOperand(p, (unsigned)i),
                      LLVMGetOperand(q, (unsigned)i), depth - 1))
      return 0;
  return 1;
}

/* The load of store's address that op reads (as its first operand when op
 * does not commute), or NULL. */
static LLVMValueRef load_in(LLVMValueRef op, const rmw_form *f,
                            LLVMValueRef ptr, unsigned *which) {
  for (unsigned i = 0; i < (f->commutes ? 2u : 1u); i++) {
    LLVMValueRef v = LLVMGetOperand(op, i);
    if (LLVMIsALoadInst(v) && same_address(LLVMGetOperand(v, 0), ptr, 8)) {
      *which = i;
      return v;
    }
  }
  return NULL;
}

static int match_store(LLVMValueRef store, aucs_atomic_rmw *out) {
  if (!store || !LLVMIsAStoreInst(store) || !plain(store))
    return 0;
  LLVMValueRef op = LLVMGetOperand(store, 0), ptr = LLVMGetOperand(store, 1);
  const rmw_form *f = form_of(op);
  unsigned which = 0;
  LLVMValueRef load = f ? load_in(op, f, ptr, &which) : NULL;
  if (!load || !plain(load) || !one_use_by(load, op) ||
      !one_use_by(op, store) || !adjacent(load, store) ||
      LLVMGetPointerAddressSpace(LLVMTypeOf(ptr)) == 5)
    return 0;
  *out = (aucs_atomic_rmw){.load = load, .op = op, .store = store};
  out->operand = LLVMGetOperand(op, 1 - which);
  out->bin = f->bin;
  out->cuda = f->cuda;
  return 1;
}

int aucs_atomic_rmw_match(LLVMValueRef a, LLVMValueRef b,
                          aucs_atomic_rmw *out) {
  if (!a || !b)
    return 0;
  LLVMValueRef store = LLVMIsAStoreInst(a) ? a : b;
  LLVMValueRef other = store == a ? b : a;
  if (!match_store(store, out))
    return 0;
  return other == store || other == out->load;
}

static void copy_marks(LLVMValueRef from, LLVMValueRef to) {
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(from));
  unsigned id = LLVMGetMDKindIDInContext(cx, "aucs.id", 7);
  LLVMValueRef md = LLVMGetMetadata(from, id);
  if (md)
    LLVMSetMetadata(to, id, md);
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(from);
  if (loc)
    LLVMInstructionSetDebugLoc(to, loc);
}

LLVMValueRef aucs_atomic_rmw_apply(LLVMValueRef store, char **err) {
  aucs_atomic_rmw r;
  if (!match_store(store, &r)) {
    *err = aucs_xstrdup("not a read-modify-write aucs can make atomic");
    return NULL;
  }
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(store));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(cx);
  LLVMPositionBuilderBefore(b, store);
  LLVMValueRef rmw =
      LLVMBuildAtomicRMW(b, r.bin, LLVMGetOperand(store, 1), r.operand,
                         LLVMAtomicOrderingSequentiallyConsistent, 0);
  LLVMDisposeBuilder(b);
  LLVMSetAlignment(rmw, LLVMGetAlignment(store));
  copy_marks(store, rmw);
  LLVMInstructionEraseFromParent(store);
  LLVMInstructionEraseFromParent(r.op);
  LLVMInstructionEraseFromParent(r.load);
  return rmw;
}

/* The nearest instruction before (dir < 0) or after I in its block that
 * touches memory, or NULL. */
static LLVMValueRef toucher(LLVMValueRef I, int dir) {
  for (I = dir < 0 ? LLVMGetPreviousInstruction(I) : LLVMGetNextInstruction(I);
       I;
       I = dir < 0 ? LLVMGetPreviousInstruction(I) : LLVMGetNextInstruction(I))
    if (touches(I))
      return I;
  return NULL;
}

int aucs_atomic_rmw_around(LLVMValueRef I, aucs_atomic_rmw *out) {
  LLVMValueRef load = toucher(I, -1), store = toucher(I, 1);
  const rmw_form *f = store && LLVMIsAStoreInst(store)
                          ? form_of(LLVMGetOperand(store, 0))
                          : NULL;
  unsigned which;
  if (!load || !f ||
      load_in(LLVMGetOperand(store, 0), f, LLVMGetOperand(store, 1),
              &which) != load)
    return 0;
  *out = (aucs_atomic_rmw){.load = load,
                           .op = LLVMGetOperand(store, 0),
                           .store = store,
                           .operand = LLVMGetOperand(LLVMGetOperand(store, 0),
                                                     1 - which),
                           .bin = f->bin,
                           .cuda = f->cuda};
  return 1;
}
