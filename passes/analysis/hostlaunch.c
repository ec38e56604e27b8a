/*
 * hostlaunch: the kernel launches a translation unit's host code makes.
 *
 * The host side comes from aucs_module_load_host (clang --cuda-host-only at
 * -O2: macros, template parameters, dim3 variables and helpers inlined into
 * their callers are folded to constants). A launch has one of three shapes:
 *
 *   k<<<g, b, sh, st>>>(a...)            k<<<g, b, sh, st>>>(a...), the stub
 *                                        inlined (what -O2 makes)
 *   %c = call @__cudaPushCallConfiguration(i64 gXY, i32 gZ, i64 bXY, i32 bZ,
 *                                          i64 sh, ptr st)   (both)
 *   br (%c == 0) -> ok                   br (%c == 0) -> ok
 *   ok:                                  ok: store a_i -> %p_i
 *   call @_Z..__device_stub__k(a...)         store %p_i -> %array[i]
 *                                            call @__cudaPopCallConfiguration
 *                                            call @cudaLaunchKernel(@stub,
 *                                                 <popped>, %array, ...)
 *
 *   cudaLaunchKernel(k, g, b, args, sh, st) as the user writes it:
 *   call @cudaLaunchKernel(ptr @stub, i64 gXY, i32 gZ, i64 bXY, i32 bZ,
 *                          ptr %array, i64 sh, ptr st)
 *
 * In steps, over every function but the stubs, in module order:
 *   1. Pair each push with the call it configures: the first stub call or
 *      cudaLaunch*Kernel call on the path where the push returned 0.
 *   2. A launch is a push with its paired call, or a cudaLaunchKernel or
 *      cudaLaunchCooperativeKernel (or their _ptsz forms) on a stub that no
 *      push configures. Its configuration is read from the push, else from
 *      the call: a dim3 is an i64 (x low, y high) and an i32 z; a half is
 *      known when it is constant (in `or %v, C`, the halves %v leaves zero).
 *   3. The kernel's parameters come from the stub's body: slot i of the
 *      argument array it hands cudaLaunchKernel points to an alloca holding
 *      a scalar parameter j of the stub, or to something else (a struct).
 *   4. Argument values: for a stub call, operand j; for an array, the
 *      pointer last stored into slot i before the launch, and the constant
 *      last stored to it (both on the path to the launch: its block and
 *      the single predecessors before it).
 *   5. The kernel is named by the stub (aucs_hostlaunch_kernel_of_stub).
 *   6. Ties: an argument whose host value is an earlier free argument's is
 *      tied to it; a grid that is not constant is kept as a program over
 *      the free arguments (integer arithmetic, extensions) when it is one.
 *
 * Limitation: what is neither a constant nor computed from the arguments is
 * open; an argument is known only when stored on the straight path to the
 * launch (its block and up to 8 single predecessors); a non-static helper
 * that launches and is inlined into its caller shows twice (the folded copy, and its own body's, open).
 */
#include "aucs/hostlaunch.h"

#include "hostfold.h"

#include "aucs/gep.h"
#include "aucs/srcloc.h"
#include "aucs/util.h"

#include <llvm-c/Core.h>
#include <llvm-c/Target.h>

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static const char push_name[] = "__cudaPushCallConfiguration";
static const char stub_word[] = "__device_stub__";
enum { STUB_LEN = sizeof stub_word - 1, MAX_SLOTS = 4096 };

/* ---- the kernel a stub stands for ---- */

/* A source name `<len><id>` at *p: 1 with *id and *len, *p moved past it. */
static int source_name(const char **p, const char **id, size_t *len) {
  if (!isdigit((unsigned char)**p))
    return 0;
  char *end;
  unsigned long n = strtoul(*p, &end, 10);
  if (n == 0 || strnlen(end, n) < n)
    return 0;
  *id = end;
  *len = n;
  *p = end + n;
  return 1;
}

/* 1 when the source name at p is "__device_stub__" and more. */
static int stub_source_name(const char *p) {
  const char *id;
  size_t len;
  return source_name(&p, &id, &len) && len > STUB_LEN &&
         strncmp(id, stub_word, STUB_LEN) == 0;
}

/* In mangled name m, where the function's own source name starts when it
 * is a stub's (`_Z[L]<name>` or `_ZN...<name>E`), else NULL. */
static const char *stub_at(const char *m) {
  if (strncmp(m, "_Z", 2))
    return NULL;
  const char *p = m + 2 + (m[2] == 'L');
  if (*p != 'N')
    return stub_source_name(p) ? p : NULL;
  for (p++; *p && strchr("rVKRO", *p); p++)
    ;
  while (*p && *p != 'E' && *p != 'I') {
    if (!strncmp(p, "St", 2)) {
      p += 2;
      continue;
    }
    p += *p == 'L';
    const char *at = p, *id;
    size_t len;
    if (!source_name(&p, &id, &len))
      return NULL;
    if (stub_source_name(at) && (*p == 'E' || *p == 'I'))
      return at;
  }
  return NULL;
}

char *aucs_hostlaunch_kernel_of_stub(const char *mangled) {
  if (!strncmp(mangled, stub_word, STUB_LEN))
    return mangled[STUB_LEN] ? aucs_xstrdup(mangled + STUB_LEN) : NULL;
  const char *at = stub_at(mangled);
  if (!at)
    return NULL;
  char *end;
  unsigned long len = strtoul(at, &end, 10);
  return aucs_xasprintf("%.*s%lu%s", (int)(at - mangled), mangled,
                        len - STUB_LEN, end + STUB_LEN);
}

/* ---- calls ---- */

typedef struct finder {
  LLVMTargetDataRef td;
  unsigned ptr_size;
  aucs_ptrmap paired; /* the launcher calls a push configures */
  aucs_host_launches *out;
  size_t cap;
} finder;

/* A call, or an invoke (host code built with C++ exceptions). */
static int is_call(LLVMValueRef I) {
  return LLVMIsACallInst(I) || LLVMIsAInvokeInst(I);
}

/* The instruction after I on its normal path: an invoke goes on at its
 * normal destination. */
static LLVMValueRef next_of(LLVMValueRef I) {
  return LLVMIsAInvokeInst(I)
             ? LLVMGetFirstInstruction(LLVMGetNormalDest(I))
             : LLVMGetNextInstruction(I);
}

static LLVMValueRef called_fn(LLVMValueRef I) {
  return is_call(I) ? LLVMIsAFunction(LLVMGetCalledValue(I)) : NULL;
}

static int named(LLVMValueRef fn, const char *name) {
  return fn && strcmp(LLVMGetValueName(fn), name) == 0;
}

/* The kernel stub fn stands for (free with free()), or NULL. */
static char *kernel_of(LLVMValueRef fn) {
  return fn ? aucs_hostlaunch_kernel_of_stub(LLVMGetValueName(fn)) : NULL;
}

static int is_stub(LLVMValueRef fn) {
  char *k = kernel_of(fn);
  free(k);
  return k != NULL;
}

/* 1 for cudaLaunchKernel, 2 for cudaLaunchCooperativeKernel, else 0. */
static int launcher(LLVMValueRef fn) {
  static const char *const names[] = {
      "cudaLaunchKernel", "cudaLaunchKernel_ptsz",
      "cudaLaunchCooperativeKernel", "cudaLaunchCooperativeKernel_ptsz"};
  for (int i = 0; i < 4; i++)
    if (named(fn, names[i]))
      return 1 + i / 2;
  return 0;
}

/* The stub a launcher call launches (operand 0), or NULL. */
static LLVMValueRef launched_stub(LLVMValueRef call) {
  if (!launcher(called_fn(call)) || LLVMGetNumArgOperands(call) < 8)
    return NULL;
  LLVMValueRef fn = LLVMIsAFunction(LLVMGetOperand(call, 0));
  return is_stub(fn) ? fn : NULL;
}

/* The successor of br taken when push returned 0, or NULL. */
static LLVMBasicBlockRef ok_target(LLVMValueRef br, LLVMValueRef push) {
  if (!LLVMIsConditional(br))
    return LLVMGetSuccessor(br, 0);
  LLVMValueRef c = LLVMGetCondition(br);
  if (!LLVMIsAICmpInst(c) || LLVMGetOperand(c, 0) != push ||
      !LLVMIsAConstantInt(LLVMGetOperand(c, 1)) ||
      LLVMConstIntGetZExtValue(LLVMGetOperand(c, 1)) != 0)
    return NULL;
  LLVMIntPredicate p = LLVMGetICmpPredicate(c);
  return p == LLVMIntEQ   ? LLVMGetSuccessor(br, 0)
         : p == LLVMIntNE ? LLVMGetSuccessor(br, 1)
                          : NULL;
}

/* Step 1: the stub call or launcher call push configures, or NULL. */
static LLVMValueRef paired_call(LLVMValueRef push) {
  LLVMValueRef I = next_of(push);
  for (int hops = 0; I && hops <= 4;) {
    LLVMValueRef fn = called_fn(I);
    if (named(fn, push_name))
      return NULL;
    if (launched_stub(I) || is_stub(fn))
      return I;
    if (LLVMIsAInvokeInst(I)) {
      I = next_of(I);
      hops++;
      continue;
    }
    if (!LLVMIsABranchInst(I)) {
      I = LLVMGetNextInstruction(I);
      continue;
    }
    LLVMBasicBlockRef next = ok_target(I, push);
    I = next ? LLVMGetFirstInstruction(next) : NULL;
    hops++;
  }
  return NULL;
}

/* ---- configuration (step 2) ---- */

/* The 32-bit halves of v known to be zero: bit 0 the low, bit 1 the high. */
static unsigned zero_halves(LLVMValueRef v) {
  if (LLVMIsAZExtInst(v))
    return LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(v, 0))) <= 32 ? 2 : 0;
  if (!LLVMIsAInstruction(v) || LLVMGetInstructionOpcode(v) != LLVMShl)
    return 0;
  LLVMValueRef s = LLVMGetOperand(v, 1);
  return LLVMIsAConstantInt(s) && LLVMConstIntGetZExtValue(s) >= 32 ? 1 : 0;
}

/* v, or the constant the host always passes as v (hostfold.h). */
static LLVMValueRef folded(LLVMTargetDataRef td, LLVMValueRef v) {
  LLVMValueRef k = hf_constant(td, v);
  return k && LLVMIsAConstantInt(k) ? k : v;
}

/* The value of 32 bits or fewer that one half of a dim3's packed i64 v
 * holds: x of `zext x` (the low half) or of `shl (zext x), 32` (the high
 * half: *high = 1); NULL when v is neither. */
static LLVMValueRef half_of(LLVMValueRef v, int *high) {
  *high = LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMShl &&
          LLVMIsAConstantInt(LLVMGetOperand(v, 1)) &&
          LLVMConstIntGetZExtValue(LLVMGetOperand(v, 1)) == 32;
  if (*high)
    v = LLVMGetOperand(v, 0);
  if (!LLVMIsAZExtInst(v) ||
      LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(v, 0))) > 32)
    return NULL;
  return LLVMGetOperand(v, 0);
}

/* The half of a packed dim3 v holds (half_of), when it is a constant the
 * host always passes. */
static void read_half(LLVMTargetDataRef td, LLVMValueRef v, uint32_t *d,
                      unsigned *known) {
  int high;
  LLVMValueRef x = half_of(v, &high);
  x = x ? folded(td, x) : NULL;
  if (x && LLVMIsAConstantInt(x))
    d[high] = (uint32_t)LLVMConstIntGetZExtValue(x), *known |= 1u << high;
}

/* x (low half) and y (high half) of a dim3's packed i64 into d[0], d[1]. */
static void read_xy(LLVMTargetDataRef td, LLVMValueRef v, uint32_t *d,
                    unsigned *known) {
  unsigned halves = 3;
  v = folded(td, v);
  if (LLVMIsAInstruction(v) && LLVMGetInstructionOpcode(v) == LLVMOr &&
      LLVMIsAConstantInt(LLVMGetOperand(v, 1))) {
    halves = zero_halves(LLVMGetOperand(v, 0));
    read_half(td, LLVMGetOperand(v, 0), d, known);
    v = LLVMGetOperand(v, 1);
  }
  if (!LLVMIsAConstantInt(v) || LLVMGetIntTypeWidth(LLVMTypeOf(v)) != 64)
    return;
  uint64_t c = LLVMConstIntGetZExtValue(v);
  if (halves & 1)
    d[0] = (uint32_t)c, *known |= 1;
  if (halves & 2)
    d[1] = (uint32_t)(c >> 32), *known |= 2;
}

static void read_z(LLVMTargetDataRef td, LLVMValueRef v, uint32_t *d,
                   unsigned *known) {
  v = folded(td, v);
  if (LLVMIsAConstantInt(v) && LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 32)
    d[2] = (uint32_t)LLVMConstIntGetZExtValue(v), *known |= 4;
}

/* What v, an i32 the host computes, is always a multiple of: 2^k for
 * `x << k`, C for `x * C` (0: nothing known; at most 1024). */
static uint32_t multiple_of(LLVMValueRef v) {
  if (!LLVMIsAInstruction(v))
    return 0;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  LLVMValueRef k = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
  if (op == LLVMMul && k && !LLVMIsAConstantInt(k))
    k = LLVMGetOperand(v, 0);
  if (!k || !LLVMIsAConstantInt(k))
    return 0;
  uint64_t c = LLVMConstIntGetZExtValue(k);
  if (op == LLVMShl && c <= 10)
    return 1u << c;
  return op == LLVMMul && c >= 2 && c <= 1024 ? (uint32_t)c : 0;
}

/* The multiple block.x is of, from the packed block's low half. */
static uint32_t block_multiple(LLVMValueRef xy) {
  if (LLVMIsAInstruction(xy) && LLVMGetInstructionOpcode(xy) == LLVMOr &&
      LLVMIsAConstantInt(LLVMGetOperand(xy, 1)))
    xy = LLVMGetOperand(xy, 0);
  int high;
  LLVMValueRef x = half_of(xy, &high);
  return x && !high && LLVMGetIntTypeWidth(LLVMTypeOf(x)) == 32
             ? multiple_of(x)
             : 0;
}

/* grid and block from operands first..first+3 of call, the shared bytes
 * from operand shared. */
static void read_config(const finder *f, aucs_host_launch *l,
                        LLVMValueRef call, unsigned first, unsigned shared) {
  read_xy(f->td, LLVMGetOperand(call, first), l->grid, &l->grid_known);
  read_z(f->td, LLVMGetOperand(call, first + 1), l->grid, &l->grid_known);
  read_xy(f->td, LLVMGetOperand(call, first + 2), l->block, &l->block_known);
  read_z(f->td, LLVMGetOperand(call, first + 3), l->block, &l->block_known);
  if (!(l->block_known & 1))
    l->block_multiple = block_multiple(LLVMGetOperand(call, first + 2));
  LLVMValueRef sh = folded(f->td, LLVMGetOperand(call, shared));
  if (LLVMIsAConstantInt(sh) && LLVMGetIntTypeWidth(LLVMTypeOf(sh)) <= 64)
    l->shared_known = 1, l->shared = LLVMConstIntGetZExtValue(sh);
}

/* ---- arguments (steps 3 and 4) ---- */

static int scalar(LLVMTypeRef t) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return k == LLVMFloatTypeKind || k == LLVMDoubleTypeKind ||
         (k == LLVMIntegerTypeKind && LLVMGetIntTypeWidth(t) <= 64);
}

/* The terminator of the one block that branches to b (an invoke's normal
 * destination, a fall-through), or NULL when none or several do. */
static LLVMValueRef only_pred(LLVMBasicBlockRef b) {
  LLVMValueRef found = NULL;
  LLVMValueRef fn = LLVMGetBasicBlockParent(b);
  for (LLVMBasicBlockRef p = LLVMGetFirstBasicBlock(fn); p;
       p = LLVMGetNextBasicBlock(p)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(p);
    for (unsigned i = 0; t && i < LLVMGetNumSuccessors(t); i++)
      if (LLVMGetSuccessor(t, i) == b) {
        if (found && found != t)
          return NULL;
        found = t;
      }
  }
  return found;
}

/* The instruction before I on the path to it: in I's block, else the
 * terminator of its one predecessor (at most 8 blocks back: the calls
 * host code with exceptions makes invokes end a block each). */
static LLVMValueRef prev_on_path(LLVMValueRef I, int *hops) {
  LLVMValueRef p = LLVMGetPreviousInstruction(I);
  if (p || ++*hops > 8)
    return p;
  return only_pred(LLVMGetInstructionParent(I));
}

/* The value last stored to p before at, on the path to at (prev_on_path);
 * NULL when there is none or a call before it that is not an intrinsic may
 * write p. */
static LLVMValueRef stored_before(LLVMValueRef p, LLVMValueRef at) {
  int hops = 0;
  for (LLVMValueRef I = prev_on_path(at, &hops); I;
       I = prev_on_path(I, &hops)) {
    if (LLVMIsAStoreInst(I) && LLVMGetOperand(I, 1) == p)
      return LLVMGetOperand(I, 0);
    LLVMValueRef fn = called_fn(I);
    if (!is_call(I) || (fn && LLVMGetIntrinsicID(fn)))
      continue;
    for (unsigned i = 0; i < LLVMGetNumArgOperands(I); i++)
      if (LLVMGetOperand(I, i) == p)
        return NULL;
  }
  return NULL;
}

/* The scalar last stored to alloca p before at, of p's type, or NULL. */
static LLVMValueRef scalar_stored(LLVMValueRef p, LLVMValueRef at) {
  if (!p || !LLVMIsAAllocaInst(p) || !scalar(LLVMGetAllocatedType(p)))
    return NULL;
  LLVMValueRef v = stored_before(p, at);
  return v && LLVMTypeOf(v) == LLVMGetAllocatedType(p) ? v : NULL;
}

/* 1 with *slot when store I puts a pointer in a slot of array. */
static int slot_of(const finder *f, LLVMValueRef I, LLVMValueRef array,
                   size_t *slot) {
  if (!LLVMIsAStoreInst(I) ||
      LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(I, 0))) != LLVMPointerTypeKind)
    return 0;
  LLVMValueRef p = LLVMGetOperand(I, 1);
  uint64_t off = 0;
  LLVMTypeRef bad;
  if (LLVMIsAGetElementPtrInst(p) && LLVMGetOperand(p, 0) == array) {
    if (aucs_gep_offset(f->td, p, &off, &bad) != AUCS_GEP_OK)
      return 0;
  } else if (p != array)
    return 0;
  *slot = off / f->ptr_size;
  return off % f->ptr_size == 0 && *slot < MAX_SLOTS;
}

/* The pointers last stored into the slots of the argument array of
 * launcher call at, before it in its block: *out (entries NULL where none;
 * free with free()); returns the highest slot stored + 1. */
static size_t array_slots(const finder *f, LLVMValueRef at,
                          LLVMValueRef **out) {
  LLVMValueRef array = LLVMGetOperand(at, 5), *v = NULL;
  size_t n = 0, slot;
  int hops = 0;
  for (LLVMValueRef I = prev_on_path(at, &hops); I;
       I = prev_on_path(I, &hops)) {
    if (!slot_of(f, I, array, &slot))
      continue;
    if (slot >= n) {
      v = aucs_xrealloc(v, (slot + 1) * sizeof *v);
      memset(v + n, 0, (slot + 1 - n) * sizeof *v);
      n = slot + 1;
    }
    if (!v[slot])
      v[slot] = LLVMGetOperand(I, 0);
  }
  *out = v;
  return n;
}

/* The stub parameter alloca p holds at at, when a scalar; else -1. */
static int param_in(LLVMValueRef stub, LLVMValueRef p, LLVMValueRef at) {
  LLVMValueRef v = scalar_stored(p, at);
  if (v && LLVMIsAZExtInst(v)) /* bool: zext i1 to i8 */
    v = LLVMGetOperand(v, 0);
  for (unsigned j = 0; v && j < LLVMCountParams(stub); j++)
    if (LLVMGetParam(stub, j) == v)
      return (int)j;
  return -1;
}

/* Step 3: per kernel parameter, the stub parameter holding it when it is a
 * scalar, else -1; *n the count. A stub without a body: its parameters.
 * Free with free(). */
static int *stub_params(const finder *f, LLVMValueRef stub, size_t *n) {
  LLVMValueRef at = NULL;
  LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(stub);
  for (; b && !at; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef I = LLVMGetFirstInstruction(b); I && !at;
         I = LLVMGetNextInstruction(I))
      at = launched_stub(I) == stub ? I : NULL;
  LLVMValueRef *slots = NULL;
  *n = at ? array_slots(f, at, &slots) : LLVMCountParams(stub);
  int *param = aucs_xmalloc((*n + 1) * sizeof *param);
  for (size_t i = 0; i < *n; i++)
    param[i] = at ? param_in(stub, slots[i], at)
               : scalar(LLVMTypeOf(LLVMGetParam(stub, (unsigned)i))) ? (int)i
                                                                     : -1;
  free(slots);
  return param;
}

/* A constant int (zero-extended from its width) or float/double (bits). */
static void const_bits(LLVMValueRef v, aucs_host_arg *a) {
  LLVMTypeRef t = v ? LLVMTypeOf(v) : NULL;
  if (v && LLVMIsAConstantInt(v) && LLVMGetIntTypeWidth(t) <= 64) {
    unsigned w = LLVMGetIntTypeWidth(t);
    a->bits = LLVMConstIntGetZExtValue(v) & (w < 64 ? (1ull << w) - 1 : ~0ull);
    a->known = 1;
  } else if (v && LLVMIsAConstantFP(v) && scalar(t)) {
    LLVMBool loses;
    double d = LLVMConstRealGetDouble(v, &loses);
    float x = (float)d;
    uint32_t b32;
    memcpy(&b32, &x, 4);
    if (LLVMGetTypeKind(t) == LLVMDoubleTypeKind)
      memcpy(&a->bits, &d, 8);
    else
      a->bits = b32;
    a->known = 1;
  }
}

/* Step 4's bounds: the unsigned range [lo, hi] an integer v the host
 * computes at run time always lies in, by its last operation: `x & C`
 * (0..C), `x urem C` (0..C-1), `x lshr C` (0..max >> C), a zero extension
 * from k bits (0..2^k-1), `select c, C1, C2` (C1..C2, ordered); a->ranged
 * when that is narrower than the type. */
static void arg_range(LLVMValueRef v, aucs_host_arg *a) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (!LLVMIsAInstruction(v) || LLVMGetTypeKind(t) != LLVMIntegerTypeKind ||
      LLVMGetIntTypeWidth(t) > 64)
    return;
  unsigned w = LLVMGetIntTypeWidth(t);
  uint64_t top = w >= 64 ? ~0ull : (1ull << w) - 1, lo = 0, hi = top;
  LLVMValueRef x = LLVMGetNumOperands(v) > 0 ? LLVMGetOperand(v, 0) : NULL;
  LLVMValueRef y = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
  int cy = y && LLVMIsAConstantInt(y);
  uint64_t k = cy ? LLVMConstIntGetZExtValue(y) & top : 0;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAnd:
    if (cy)
      hi = k;
    else if (x && LLVMIsAConstantInt(x))
      hi = LLVMConstIntGetZExtValue(x) & top;
    break;
  case LLVMURem:
    if (cy && k)
      hi = k - 1;
    break;
  case LLVMLShr:
    if (cy && k < w)
      hi = top >> k;
    break;
  case LLVMZExt: {
    unsigned from = LLVMGetIntTypeWidth(LLVMTypeOf(x));
    hi = from >= 64 ? top : (1ull << from) - 1;
    break;
  }
  case LLVMSelect: {
    LLVMValueRef b = LLVMGetOperand(v, 2);
    if (cy && LLVMIsAConstantInt(b)) {
      uint64_t kb = LLVMConstIntGetZExtValue(b) & top;
      lo = k < kb ? k : kb;
      hi = k < kb ? kb : k;
    }
    break;
  }
  default:
    break;
  }
  if (lo > 0 || hi < top)
    a->ranged = 1, a->lo = lo, a->hi = hi;
}

/* Step 4 at call, a stub call or a launcher call: the host value of each
 * scalar argument into vals[i] (NULL: none), its bits when a constant. */
static void read_args(const finder *f, aucs_host_launch *l, const int *param,
                      LLVMValueRef call, LLVMValueRef *vals) {
  if (!launcher(called_fn(call))) {
    for (size_t i = 0; i < l->nargs; i++)
      if (param[i] >= 0 && (unsigned)param[i] < LLVMGetNumArgOperands(call))
        vals[i] = LLVMGetOperand(call, (unsigned)param[i]);
  } else {
    LLVMValueRef *slots;
    size_t n = array_slots(f, call, &slots);
    for (size_t i = 0; i < l->nargs && i < n; i++)
      if (param[i] >= 0)
        vals[i] = scalar_stored(slots[i], call);
    free(slots);
  }
  for (size_t i = 0; i < l->nargs; i++) {
    LLVMValueRef k = vals[i] ? hf_constant(f->td, vals[i]) : NULL;
    const_bits(k ? k : vals[i], &l->args[i]);
    if (vals[i] && !l->args[i].known)
      arg_range(vals[i], &l->args[i]);
  }
}

/* ---- ties (step 6) ---- */

/* The argument below `below` that is the host value v, free (not a
 * constant, not tied itself); -1 when none. */
static int arg_of(const aucs_host_launch *l, LLVMValueRef const *vals,
                  LLVMValueRef v, size_t below) {
  for (size_t i = 0; i < below && i < l->nargs; i++)
    if (vals[i] == v && !l->args[i].known && !l->args[i].same_as)
      return (int)i;
  return -1;
}

static void push_op(aucs_host_expr *e, aucs_host_op o) {
  e->ops = aucs_xrealloc(e->ops, (e->n + 1) * sizeof *e->ops);
  e->ops[e->n++] = o;
}

static const struct {
  LLVMOpcode llvm;
  aucs_host_opcode op;
} binops[] = {
    {LLVMAdd, AUCS_HX_ADD},   {LLVMSub, AUCS_HX_SUB},   {LLVMMul, AUCS_HX_MUL},
    {LLVMUDiv, AUCS_HX_UDIV}, {LLVMSDiv, AUCS_HX_SDIV}, {LLVMURem, AUCS_HX_UREM},
    {LLVMSRem, AUCS_HX_SREM}, {LLVMShl, AUCS_HX_SHL},   {LLVMLShr, AUCS_HX_LSHR},
    {LLVMAShr, AUCS_HX_ASHR}, {LLVMAnd, AUCS_HX_AND},   {LLVMOr, AUCS_HX_OR},
    {LLVMXor, AUCS_HX_XOR},   {LLVMZExt, AUCS_HX_ZEXT}, {LLVMSExt, AUCS_HX_SEXT},
    {LLVMTrunc, AUCS_HX_TRUNC}};

/* v as a program over the free arguments below `below`, appended to e;
 * -1 when it is not one (a value the host reads or computes otherwise). */
static int expr_of(const aucs_host_launch *l, LLVMValueRef const *vals,
                   LLVMValueRef v, size_t below, aucs_host_expr *e,
                   int depth) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (depth > 24 || e->n > 64 || LLVMGetTypeKind(t) != LLVMIntegerTypeKind ||
      LLVMGetIntTypeWidth(t) > 64)
    return -1;
  unsigned char w = (unsigned char)LLVMGetIntTypeWidth(t);
  int a = arg_of(l, vals, v, below);
  for (size_t i = 0; a < 0 && i < l->nargs; i++)
    if (vals[i] == v && l->args[i].known) /* hostfold.h's constant */
      return push_op(e, (aucs_host_op){AUCS_HX_CONST, w, 0,
                                       l->args[i].bits}),
             0;
  if (LLVMIsAConstantInt(v))
    return push_op(e, (aucs_host_op){AUCS_HX_CONST, w, 0,
                                     LLVMConstIntGetZExtValue(v)}),
           0;
  if (a >= 0)
    return push_op(e, (aucs_host_op){AUCS_HX_ARG, w, (unsigned)a, 0}), 0;
  if (!LLVMIsAInstruction(v))
    return -1;
  LLVMOpcode opc = LLVMGetInstructionOpcode(v);
  for (size_t i = 0; i < sizeof binops / sizeof *binops; i++) {
    if (binops[i].llvm != opc)
      continue;
    int cast = binops[i].op >= AUCS_HX_ZEXT;
    LLVMValueRef x = LLVMGetOperand(v, 0);
    if (expr_of(l, vals, x, below, e, depth + 1) ||
        (!cast &&
         expr_of(l, vals, LLVMGetOperand(v, 1), below, e, depth + 1)))
      return -1;
    uint64_t from = LLVMGetIntTypeWidth(LLVMTypeOf(x));
    push_op(e, (aucs_host_op){binops[i].op, w, 0, cast ? from : 0});
    return 0;
  }
  return -1;
}

/* Grid dimension i (x: the low half of v, y: its high half, z: v) as a
 * program over the free arguments into *e, when it is not known and is
 * one. */
static void dim_expr(aucs_host_launch *l, LLVMValueRef const *vals,
                     LLVMValueRef v, int i, aucs_host_expr *e) {
  if (l->grid_known >> i & 1 || expr_of(l, vals, v, l->nargs, e, 0)) {
    free(e->ops);
    *e = (aucs_host_expr){0};
    return;
  }
  if (i == 1 && LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 64) {
    push_op(e, (aucs_host_op){AUCS_HX_CONST, 64, 0, 32});
    push_op(e, (aucs_host_op){AUCS_HX_LSHR, 64, 0, 0});
  }
  push_op(e, (aucs_host_op){AUCS_HX_TRUNC, 32, 0, 0});
  uint64_t c;
  int args = 0;
  for (size_t k = 0; k < e->n; k++)
    args |= e->ops[k].op == AUCS_HX_ARG;
  if (!args && !aucs_hostlaunch_eval(e, NULL, 0, &c)) { /* all constants */
    l->grid[i] = (uint32_t)c;
    l->grid_known |= 1u << i;
    free(e->ops);
    *e = (aucs_host_expr){0};
  }
}

/* Step 6: an argument passing the same host value as an earlier free one
 * is tied to it; a grid the host computes from free arguments is kept as
 * that computation. */
static void read_ties(aucs_host_launch *l, LLVMValueRef const *vals,
                      LLVMValueRef config, unsigned first) {
  for (size_t i = 0; i < l->nargs; i++) {
    int j = vals[i] && !l->args[i].known ? arg_of(l, vals, vals[i], i) : -1;
    l->args[i].same_as = j >= 0 ? (unsigned)j + 1 : 0;
  }
  LLVMValueRef xy = LLVMGetOperand(config, first), hi = xy, lo = xy;
  if (LLVMIsAInstruction(xy) && LLVMGetInstructionOpcode(xy) == LLVMOr) {
    LLVMValueRef a = LLVMGetOperand(xy, 0), b = LLVMGetOperand(xy, 1);
    unsigned za = zero_halves(a), zb = zero_halves(b);
    if (za & 1 && zb & 2)
      hi = a, lo = b;
    else if (za & 2 && zb & 1)
      hi = b, lo = a;
  }
  dim_expr(l, vals, lo, 0, &l->grid_expr[0]);
  dim_expr(l, vals, hi, 1, &l->grid_expr[1]);
  dim_expr(l, vals, LLVMGetOperand(config, first + 1), 2, &l->grid_expr[2]);
}

static uint64_t mask(uint64_t v, unsigned w) {
  return w >= 64 ? v : v & ((1ull << w) - 1);
}

static int64_t sext(uint64_t v, unsigned w) {
  return w >= 64 ? (int64_t)v
                 : (int64_t)(v << (64 - w)) >> (64 - w);
}

/* One binary op on x, y of width w; -1 when undefined. */
static int binary(unsigned char op, unsigned w, uint64_t x, uint64_t y,
                  uint64_t *r) {
  int64_t sx = sext(x, w), sy = sext(y, w);
  if ((op == AUCS_HX_UDIV || op == AUCS_HX_SDIV || op == AUCS_HX_UREM ||
       op == AUCS_HX_SREM) && !y)
    return -1;
  if ((op == AUCS_HX_SHL || op == AUCS_HX_LSHR || op == AUCS_HX_ASHR) &&
      y >= w)
    return -1;
  if ((op == AUCS_HX_SDIV || op == AUCS_HX_SREM) && sy == -1)
    sy = 1, sx = op == AUCS_HX_SDIV ? -sx : 0; /* no INT_MIN / -1 trap */
  switch (op) {
  case AUCS_HX_ADD: *r = x + y; break;
  case AUCS_HX_SUB: *r = x - y; break;
  case AUCS_HX_MUL: *r = x * y; break;
  case AUCS_HX_UDIV: *r = x / y; break;
  case AUCS_HX_SDIV: *r = (uint64_t)(sx / sy); break;
  case AUCS_HX_UREM: *r = x % y; break;
  case AUCS_HX_SREM: *r = (uint64_t)(sx % sy); break;
  case AUCS_HX_SHL: *r = x << y; break;
  case AUCS_HX_LSHR: *r = x >> y; break;
  case AUCS_HX_ASHR: *r = (uint64_t)(sx >> y); break;
  case AUCS_HX_AND: *r = x & y; break;
  case AUCS_HX_OR: *r = x | y; break;
  default: *r = x ^ y; break;
  }
  *r = mask(*r, w);
  return 0;
}

int aucs_hostlaunch_eval(const aucs_host_expr *e, const uint64_t *args,
                         size_t nargs, uint64_t *out) {
  uint64_t st[80];
  size_t sp = 0;
  for (size_t i = 0; i < e->n; i++) {
    const aucs_host_op *o = &e->ops[i];
    int unary = o->op >= AUCS_HX_ZEXT, leaf = o->op <= AUCS_HX_ARG;
    if (sp >= 80 || (leaf && o->op == AUCS_HX_ARG && o->arg >= nargs) ||
        (!leaf && sp < (unary ? 1u : 2u)))
      return -1;
    if (o->op == AUCS_HX_CONST || o->op == AUCS_HX_ARG)
      st[sp++] = mask(o->op == AUCS_HX_CONST ? o->k : args[o->arg], o->width);
    else if (o->op == AUCS_HX_SEXT)
      st[sp - 1] = mask((uint64_t)sext(st[sp - 1], (unsigned)o->k), o->width);
    else if (unary)
      st[sp - 1] = mask(st[sp - 1], o->width);
    else if (binary(o->op, o->width, st[sp - 2], st[sp - 1], &st[sp - 2]))
      return -1;
    else
      sp--;
  }
  if (sp != 1)
    return -1;
  *out = st[0];
  return 0;
}

/* ---- launches ---- */

static char *where(LLVMValueRef I) {
  aucs_srcloc s = aucs_srcloc_of(I);
  return s.file && s.line
             ? aucs_xasprintf("%.*s:%u", (int)s.file_len, s.file, s.line)
             : NULL;
}

/* Appends the launch of stub by call, configured by config (operands
 * first.. and shared), located at config. */
static void add_launch(finder *f, LLVMValueRef stub, LLVMValueRef call,
                       LLVMValueRef config, unsigned first, unsigned shared) {
  aucs_host_launches *out = f->out;
  if (out->n == f->cap) {
    f->cap = f->cap ? 2 * f->cap : 8;
    out->v = aucs_xrealloc(out->v, f->cap * sizeof *out->v);
  }
  aucs_host_launch *l = &out->v[out->n++];
  *l = (aucs_host_launch){.kernel = kernel_of(stub), .where = where(config)};
  l->cooperative = launcher(called_fn(call)) == 2;
  read_config(f, l, config, first, shared);
  int *param = stub_params(f, stub, &l->nargs);
  l->args = aucs_xcalloc(l->nargs + 1, sizeof *l->args);
  LLVMValueRef *vals = aucs_xcalloc(l->nargs + 1, sizeof *vals);
  read_args(f, l, param, call, vals);
  read_ties(l, vals, config, first);
  free(vals);
  free(param);
}

/* Step 1 at I: a launcher call a push configures is remembered. */
static void pair(finder *f, LLVMValueRef I) {
  LLVMValueRef call = named(called_fn(I), push_name) ? paired_call(I) : NULL;
  if (call && launcher(called_fn(call)))
    aucs_ptrmap_put(&f->paired, call, 1);
}

/* Step 2 at I: a push with its call, or a launcher call of its own. */
static void launch_at(finder *f, LLVMValueRef I) {
  if (named(called_fn(I), push_name) && LLVMGetNumArgOperands(I) >= 6) {
    LLVMValueRef call = paired_call(I);
    LLVMValueRef stub = call ? launched_stub(call) : NULL;
    if (call)
      add_launch(f, stub ? stub : called_fn(call), call, I, 0, 4);
  } else if (launched_stub(I) && !aucs_ptrmap_get(&f->paired, I, NULL))
    add_launch(f, launched_stub(I), I, I, 1, 6);
}

/* visit at every call of every defined function but the stubs. */
static void walk(finder *f, LLVMModuleRef m,
                 void (*visit)(finder *, LLVMValueRef)) {
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn;
       fn = LLVMGetNextFunction(fn)) {
    if (is_stub(fn))
      continue;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b;
         b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef I = LLVMGetFirstInstruction(b); I;
           I = LLVMGetNextInstruction(I))
        if (is_call(I))
          visit(f, I);
  }
}

int aucs_hostlaunch_find(LLVMModuleRef host, aucs_host_launches *out) {
  *out = (aucs_host_launches){0};
  finder f = {.out = out};
  f.td = LLVMCreateTargetData(LLVMGetDataLayoutStr(host));
  f.ptr_size = LLVMPointerSize(f.td);
  walk(&f, host, pair);
  walk(&f, host, launch_at);
  aucs_ptrmap_free(&f.paired);
  LLVMDisposeTargetData(f.td);
  return 0;
}

/* ---- from a .cu ---- */

/* aucs_module_load_host's message in one line: its first line, and the
 * first error clang printed. */
static char *one_line(char *err) {
  char *nl = strchr(err, '\n');
  if (!nl)
    return err;
  const char *e = strstr(nl, "error: ");
  char *s = e ? aucs_xasprintf("%.*s (host side): %.*s", (int)(nl - err), err,
                               (int)strcspn(e + 7, "\n"), e + 7)
              : aucs_xasprintf("%.*s", (int)(nl - err), err);
  free(err);
  return s;
}

/* Whether text (of the file at path) or a header it includes with quotes,
 * resolved against its folder, writes a launch ("<<<", "cudaLaunch"): a
 * launch in the project's own header counts; SDK headers are not read.
 * At most *budget files are read. */
static int mentions_launch(const char *path, const char *text, int *budget) {
  if (strstr(text, "<<<") || strstr(text, "cudaLaunch"))
    return 1;
  const char *slash = strrchr(path, '/');
  for (const char *l = text; l && *l && *budget > 0; l = strchr(l, '\n')) {
    l += *l == '\n';
    const char *name;
    size_t len;
    if (!aucs_quoted_include(l, &name, &len))
      continue;
    char *inc = aucs_xasprintf("%.*s%.*s", slash ? (int)(slash - path + 1) : 0,
                               path, (int)len, name);
    char *t = NULL, *e = NULL;
    size_t n;
    --*budget;
    int found = !aucs_read_regular(inc, 1 << 24, "a header", "", &t, &n, &e) &&
                mentions_launch(inc, t, budget);
    free(t);
    free(e);
    free(inc);
    if (found)
      return 1;
  }
  return 0;
}

int aucs_hostlaunch_load(const char *path, const aucs_load_options *o,
                         aucs_host_launches *out, char **err) {
  static const aucs_load_options defaults = {0};
  o = o ? o : &defaults;
  *out = (aucs_host_launches){0};
  *err = NULL;
  char *text;
  size_t len;
  size_t max = o->max_input_size ? o->max_input_size : AUCS_MAX_INPUT_DEFAULT;
  if (aucs_read_regular(path, max, "a CUDA file", "--max-input-size", &text,
                        &len, err))
    return 1;
  int budget = 64, launches = mentions_launch(path, text, &budget);
  free(text);
  if (!launches)
    return 0;
  aucs_module *m;
  if (aucs_module_load_host(path, o, &m, err)) {
    *err = one_line(*err);
    return 1;
  }
  aucs_hostlaunch_find(aucs_module_llvm(m), out);
  aucs_module_free(m);
  return 0;
}

void aucs_hostlaunch_free(aucs_host_launches *l) {
  for (size_t i = 0; i < l->n; i++) {
    free(l->v[i].kernel);
    free(l->v[i].where);
    free(l->v[i].args);
    for (int d = 0; d < 3; d++)
      free(l->v[i].grid_expr[d].ops);
  }
  free(l->v);
  *l = (aucs_host_launches){0};
}

size_t aucs_hostlaunch_next(const aucs_host_launches *l, const char *kernel,
                            size_t from) {
  for (size_t i = from; i < l->n; i++)
    if (strcmp(l->v[i].kernel, kernel) == 0)
      return i;
  return l->n;
}
