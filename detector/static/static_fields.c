/*
 * static: the fields of struct parameters passed by value (`byval`) as
 * symbolic inputs, like scalar parameters
 * (the algorithm is in static.c, the shared types in static_impl.h).
 *
 * A kernel that takes its tensors as structs reads their sizes, strides
 * and pointers from its byval parameters. Every thread reads the same
 * bytes there, so a field is one value per kernel, the same for both
 * threads of a query:
 *   1. A load reads a field when its address is a kernel byval parameter
 *      plus a constant offset (constant GEPs and casts; a helper's
 *      argument is followed to its call site, through byval copies too).
 *   2. The parameter, and every byval copy on the way, must be read only:
 *      each use, through constant or variable GEPs and casts, is a load, a
 *      memcpy's source, a byval argument of a call (the callee gets a
 *      copy) or an argument of a defined helper that only reads through
 *      it. A parameter written or escaping keeps its loads fresh values.
 *   3. The field's value is the symbol "argI+OFF:W" (parameter I, byte
 *      offset OFF, W bits), one per kernel; the user's --arg of a field
 *      fixes it (st_fix_fields).
 *   4. A pointer field is the base of an object of its own: the first load
 *      of (parameter, offset) is the root of every access through it, so
 *      two pointer fields, or a field and a pointer argument, are distinct
 *      buffers unless may_alias, as the interpreter gives each its own.
 *
 * Limitation: loads of a whole aggregate (a struct or vector value) and
 * fields read through a copy in an alloca (a struct assigned to a local at
 * -O0 without SROA) stay fresh values per thread.
 */
#include "static_impl.h"

#include "aucs/gep.h"

enum { MAX_USE_DEPTH = 16, READ_ONLY = 1, WRITTEN = 2 };

static int is_byval(LLVMValueRef fn, unsigned i) {
  static unsigned kind;
  if (!kind)
    kind = LLVMGetEnumAttributeKindForName("byval", 5);
  return LLVMGetEnumAttributeAtIndex(fn, i + 1, kind) != NULL;
}

static int param_index(LLVMValueRef fn, LLVMValueRef arg, unsigned *i) {
  unsigned n = LLVMCountParams(fn);
  for (*i = 0; *i < n; (*i)++)
    if (LLVMGetParam(fn, *i) == arg)
      return 1;
  return 0;
}

static int memory_copy(const char *name) {
  return st_starts_with(name, "llvm.memcpy") ||
         st_starts_with(name, "llvm.memmove");
}

static int reads_only(LLVMValueRef v, int depth);

/* Every operand of call that is v is a byval argument (the callee copies
 * it), a memcpy's source, or a parameter the defined callee only reads
 * through. */
static int call_reads(LLVMValueRef call, LLVMValueRef v, int depth) {
  static unsigned kind;
  if (!kind)
    kind = LLVMGetEnumAttributeKindForName("byval", 5);
  const char *name = st_callee_name(call);
  LLVMValueRef callee = LLVMGetCalledValue(call);
  unsigned n = LLVMGetNumArgOperands(call);
  if (callee == v)
    return 0;
  for (unsigned i = 0; i < n; i++) {
    if (LLVMGetOperand(call, i) != v)
      continue;
    if (memory_copy(name) && i == 1)
      continue;
    if (LLVMGetCallSiteEnumAttribute(call, i + 1, kind))
      continue;
    LLVMValueRef fn = st_defined_callee(call);
    if (!fn || i >= LLVMCountParams(fn))
      return 0;
    if (!is_byval(fn, i) && !reads_only(LLVMGetParam(fn, i), depth + 1))
      return 0;
  }
  return 1;
}

/* Every use of pointer v only reads through it (step 2). */
static int reads_only(LLVMValueRef v, int depth) {
  if (depth > MAX_USE_DEPTH)
    return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user))
      continue;
    if (LLVMIsACallInst(user)) {
      if (!call_reads(user, v, depth))
        return 0;
      continue;
    }
    LLVMOpcode op = LLVMIsAInstruction(user)    ? LLVMGetInstructionOpcode(user)
                    : LLVMIsAConstantExpr(user) ? LLVMGetConstOpcode(user)
                                                : LLVMRet;
    int derived = (op == LLVMGetElementPtr && LLVMGetOperand(user, 0) == v) ||
                  op == LLVMBitCast || op == LLVMAddrSpaceCast;
    if (!derived || !reads_only(user, depth + 1))
      return 0;
  }
  return 1;
}

static int read_only(aucs_static *S, LLVMValueRef arg) {
  intptr_t got;
  if (!aucs_ptrmap_get(&S->fieldmemo, arg, &got)) {
    got = reads_only(arg, 0) ? READ_ONLY : WRITTEN;
    aucs_ptrmap_put(&S->fieldmemo, arg, got);
  }
  return got == READ_ONLY;
}

/* Step 1: the kernel parameter and byte offset p points at in frame f. */
static int locate(aucs_static *S, frame *f, LLVMValueRef p, unsigned *param,
                  uint64_t *off) {
  *off = 0;
  for (int guard = 0; guard < 64; guard++) {
    if (LLVMIsAArgument(p)) {
      unsigned i;
      if (!param_index(f->fn, p, &i))
        return 0;
      if (is_byval(f->fn, i) && !read_only(S, p))
        return 0;
      if (!f->call) {
        *param = i;
        return is_byval(f->fn, i);
      }
      p = LLVMGetOperand(f->call, i);
      f = f->parent;
      continue;
    }
    LLVMOpcode op = LLVMIsAInstruction(p)    ? LLVMGetInstructionOpcode(p)
                    : LLVMIsAConstantExpr(p) ? LLVMGetConstOpcode(p)
                                             : LLVMRet;
    LLVMTypeRef bad;
    if (op == LLVMGetElementPtr &&
        aucs_gep_offset(S->td, p, off, &bad) != AUCS_GEP_OK)
      return 0;
    if (op != LLVMGetElementPtr && op != LLVMBitCast && op != LLVMAddrSpaceCast)
      return 0;
    p = LLVMGetOperand(p, 0);
  }
  return 0;
}

Z3_ast st_field_symbol(aucs_static *S, unsigned param, uint64_t off,
                       unsigned bits) {
  char name[64];
  snprintf(name, sizeof name, "arg%u+%llu:%u", param, (unsigned long long)off,
           bits);
  return Z3_mk_const(S->z, Z3_mk_string_symbol(S->z, name),
                     Z3_mk_bv_sort(S->z, bits));
}

Z3_ast st_field_value(aucs_static *S, frame *f, LLVMValueRef load,
                      unsigned bits) {
  unsigned param;
  uint64_t off;
  if (!bits || !LLVMIsALoadInst(load) || LLVMGetVolatile(load) ||
      LLVMGetOrdering(load) != LLVMAtomicOrderingNotAtomic ||
      !locate(S, f, LLVMGetOperand(load, 0), &param, &off))
    return NULL;
  return st_field_symbol(S, param, off, bits);
}

/* Step 4: the first load of the pointer field load reads stands for the
 * field's object. */
LLVMValueRef st_field_root(aucs_static *S, frame *f, LLVMValueRef load) {
  unsigned param;
  uint64_t off;
  if (LLVMGetTypeKind(LLVMTypeOf(load)) != LLVMPointerTypeKind ||
      !st_field_value(S, f, load, 64) ||
      !locate(S, f, LLVMGetOperand(load, 0), &param, &off))
    return NULL;
  for (size_t i = 0; i < S->nfields; i++)
    if (S->fields[i].param == param && S->fields[i].offset == off)
      return S->fields[i].root;
  S->fields = aucs_xrealloc(S->fields, (S->nfields + 1) * sizeof *S->fields);
  S->fields[S->nfields++] = (field){param, off, load};
  return load;
}

Z3_ast st_field_base(aucs_static *S, LLVMValueRef root) {
  for (size_t i = 0; i < S->nfields; i++)
    if (S->fields[i].root == root)
      return st_field_symbol(S, S->fields[i].param, S->fields[i].offset, 64);
  return NULL;
}

/* Step 3: the user's values of fields. */
void st_fix_fields(aucs_static *S) {
  const aucs_static_options *o = &S->o;
  for (size_t i = 0; i < o->nfields; i++) {
    const aucs_static_field *x = &o->fields[i];
    if (!x->bits || x->bits > 64 || x->param >= S->nparams ||
        !is_byval(S->fn, x->param))
      continue;
    st_push_ast(&S->launch, &S->nlaunch,
                Z3_mk_eq(S->z, st_field_symbol(S, x->param, x->offset, x->bits),
                         st_bv(S->z, x->value, x->bits)));
  }
}
