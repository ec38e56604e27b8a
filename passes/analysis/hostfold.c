/*
 * hostfold: constants the host code always passes (hostfold.h).
 *
 * A global's constant: walk every use of the global, through constant
 * offsets (GEP constant expressions and instructions with constant
 * indices), keeping the byte offset. Loads are fine anywhere; a store is
 * fine only inside a static constructor (a function @llvm.global_ctors
 * lists), and the one that writes exactly the loaded bytes with a constant
 * of the loaded type gives the value; memcpy/memset in a constructor are
 * fine when they miss those bytes. Any other use (a store elsewhere, the
 * address passed to a call or stored, a variable index) means no constant.
 */
#include "hostfold.h"

#include "aucs/gep.h"

#include <llvm-c/Core.h>
#include <string.h>

enum { HF_DEPTH = 4, HF_USES = 4096 };

/* fn is listed in its module's @llvm.global_ctors. */
static int is_ctor(LLVMValueRef fn) {
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  LLVMValueRef g = LLVMGetNamedGlobal(m, "llvm.global_ctors");
  LLVMValueRef init = g ? LLVMGetInitializer(g) : NULL;
  if (!init || !LLVMIsAConstantArray(init))
    return 0;
  for (int i = 0; i < LLVMGetNumOperands(init); i++) {
    LLVMValueRef e = LLVMGetOperand(init, (unsigned)i);
    if (LLVMIsAConstantStruct(e) && LLVMGetNumOperands(e) >= 2 &&
        LLVMGetOperand(e, 1) == fn)
      return 1;
  }
  return 0;
}

static LLVMValueRef fn_of(LLVMValueRef I) {
  return LLVMGetBasicBlockParent(LLVMGetInstructionParent(I));
}

static int is_gep(LLVMValueRef u) {
  return LLVMIsAGetElementPtrInst(u) ||
         (LLVMIsAConstantExpr(u) &&
          LLVMGetConstOpcode(u) == LLVMGetElementPtr);
}

static int is_cast(LLVMValueRef u) {
  return LLVMIsABitCastInst(u) || LLVMIsAAddrSpaceCastInst(u) ||
         (LLVMIsAConstantExpr(u) &&
          (LLVMGetConstOpcode(u) == LLVMBitCast ||
           LLVMGetConstOpcode(u) == LLVMAddrSpaceCast));
}

/* A memory intrinsic's name prefix ("llvm.memcpy", "llvm.memset"). */
static int calls_intrinsic(LLVMValueRef call, const char *prefix) {
  LLVMValueRef f = LLVMGetCalledValue(call);
  size_t len;
  const char *name = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &len)
                                             : NULL;
  return name && strncmp(name, prefix, strlen(prefix)) == 0;
}

typedef struct walk {
  LLVMTargetDataRef td;
  uint64_t off, size; /* the loaded bytes */
  LLVMTypeRef type;
  LLVMValueRef value; /* the constant stored there, so far */
  unsigned uses;
  int bad;
} walk;

static int overlaps(const walk *w, uint64_t off, uint64_t size) {
  return off < w->off + w->size && w->off < off + size;
}

/* The uses of p, which points at the global plus off. */
static void uses(walk *w, LLVMValueRef p, uint64_t off, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(p); u && !w->bad;
       u = LLVMGetNextUse(u)) {
    LLVMValueRef I = LLVMGetUser(u);
    if (++w->uses > HF_USES || depth > 8) {
      w->bad = 1;
    } else if (is_gep(I) && LLVMGetOperand(I, 0) == p) {
      uint64_t o = off;
      LLVMTypeRef badt;
      if (aucs_gep_offset(w->td, I, &o, &badt) != AUCS_GEP_OK)
        w->bad = 1;
      else
        uses(w, I, o, depth + 1);
    } else if (is_cast(I)) {
      uses(w, I, off, depth + 1);
    } else if (LLVMIsALoadInst(I)) {
      continue;
    } else if (LLVMIsAStoreInst(I) && LLVMGetOperand(I, 1) == p &&
               is_ctor(fn_of(I))) {
      LLVMValueRef v = LLVMGetOperand(I, 0);
      uint64_t size = LLVMStoreSizeOfType(w->td, LLVMTypeOf(v));
      if (!overlaps(w, off, size))
        continue;
      if (off != w->off || LLVMTypeOf(v) != w->type ||
          !(LLVMIsAConstantInt(v) || LLVMIsAConstantFP(v)) ||
          (w->value && w->value != v))
        w->bad = 1;
      else
        w->value = v;
    } else if (LLVMIsACallInst(I) && LLVMGetNumArgOperands(I) >= 3 &&
               LLVMGetOperand(I, 1) == p && LLVMGetOperand(I, 0) != p &&
               (calls_intrinsic(I, "llvm.memcpy") ||
                calls_intrinsic(I, "llvm.memmove"))) {
      continue; /* a copy out of it: a read */
    } else if (LLVMIsACallInst(I) && LLVMGetNumArgOperands(I) >= 3 &&
               LLVMGetOperand(I, 0) == p && is_ctor(fn_of(I)) &&
               (calls_intrinsic(I, "llvm.memcpy") ||
                calls_intrinsic(I, "llvm.memset"))) {
      LLVMValueRef n = LLVMGetOperand(I, 2);
      if (!LLVMIsAConstantInt(n) ||
          overlaps(w, off, LLVMConstIntGetZExtValue(n)))
        w->bad = 1;
    } else {
      w->bad = 1; /* written elsewhere, or its address escapes */
    }
  }
}

/* A load of the internal global g at a constant offset. */
static LLVMValueRef global_constant(LLVMTargetDataRef td, LLVMValueRef load) {
  LLVMValueRef p = LLVMGetOperand(load, 0);
  uint64_t off = 0;
  for (int i = 0; i < 8 && !LLVMIsAGlobalVariable(p); i++) {
    LLVMTypeRef bad;
    if (is_cast(p))
      p = LLVMGetOperand(p, 0);
    else if (is_gep(p) && aucs_gep_offset(td, p, &off, &bad) == AUCS_GEP_OK)
      p = LLVMGetOperand(p, 0);
    else
      return NULL;
  }
  LLVMLinkage l = LLVMIsAGlobalVariable(p) ? LLVMGetLinkage(p)
                                            : LLVMExternalLinkage;
  if (l != LLVMInternalLinkage && l != LLVMPrivateLinkage)
    return NULL;
  LLVMTypeRef t = LLVMTypeOf(load);
  walk w = {.td = td, .off = off, .size = LLVMStoreSizeOfType(td, t),
            .type = t};
  uses(&w, p, 0, 0);
  return w.bad ? NULL : w.value;
}

static LLVMValueRef fold(LLVMTargetDataRef td, LLVMValueRef v, int depth);

/* Parameter a of a function that is only called: the constant every call
 * passes. */
static LLVMValueRef param_constant(LLVMTargetDataRef td, LLVMValueRef a,
                                   int depth) {
  LLVMValueRef fn = LLVMGetParamParent(a), got = NULL;
  unsigned idx = 0, n = LLVMCountParams(fn);
  while (idx < n && LLVMGetParam(fn, idx) != a)
    idx++;
  if (idx == n || depth >= HF_DEPTH)
    return NULL;
  unsigned calls = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef c = LLVMGetUser(u);
    if (!(LLVMIsACallInst(c) || LLVMIsAInvokeInst(c)) ||
        LLVMGetCalledValue(c) != fn || idx >= LLVMGetNumArgOperands(c) ||
        ++calls > 64)
      return NULL;
    LLVMValueRef k = fold(td, LLVMGetOperand(c, idx), depth + 1);
    if (!k || (got && k != got))
      return NULL;
    got = k;
  }
  return got;
}

static LLVMValueRef fold(LLVMTargetDataRef td, LLVMValueRef v, int depth) {
  if (!v)
    return NULL;
  if (LLVMIsAConstantInt(v) || LLVMIsAConstantFP(v))
    return v;
  if (LLVMIsALoadInst(v) && !LLVMGetVolatile(v))
    return global_constant(td, v);
  if (LLVMIsAArgument(v))
    return param_constant(td, v, depth);
  return NULL;
}

LLVMValueRef hf_constant(LLVMTargetDataRef td, LLVMValueRef v) {
  return fold(td, v, 0);
}
