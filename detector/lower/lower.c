/*
 * lower: a kernel and every function it calls, to bytecode (bytecode.h).
 *
 * Algorithm, per function (the kernel first, callees as calls are found):
 *   1. Give every parameter and every instruction with a value its register
 *      slots (one per scalar leaf of its type), so forward uses resolve.
 *   2. Emit each block in order. Constants get slots of their own whose
 *      initial values go into the function's image. GEPs fold to a chain of
 *      `base + sext(index) * scale + offset` using the module's data layout.
 *      Calls resolve through intrinsics.def, then libcalls.def (library
 *      functions run on the host), else to a defined function.
 *   3. Phis become copies on the edges into their block: inline before an
 *      unconditional branch, in a small edge block for the other branches.
 *      The copies have parallel semantics: when a source is also a
 *      destination, everything goes through fresh temporaries first.
 *   4. Patch branch targets, then copy everything into the program's arena.
 * Module globals and pointer parameters become memory objects with fixed
 * ids; global initializers are serialised to bytes with the data layout.
 *
 * Vectors get one slot per lane and are lowered lane by lane; a vector or
 * aggregate load/store is one access of its full size (ALOAD/ASTORE with
 * the leaves' byte layout in the pool). Helpers take and return aggregates
 * and vectors leaf by leaf; a byval parameter is copied on entry.
 *
 * A call of a function the module only declares returns an arbitrary value
 * (OP_NONDET) and writes nothing; the kernel's program lists such callees
 * (aucs_prog_external) so that its findings say so. Under strict lowering
 * (aucs_lower_options) such a call is unsupported instead.
 *
 * Limitation: i128 and wider integers, half, scalable vectors, vectors of
 * pointers built by GEPs, vectors of i1 in memory, llvm.masked.*, inline
 * asm outside intrinsics.def, texture.def and ptx.def, and declared
 * functions returning a pointer or an aggregate are not lowered; the first
 * one met is reported as an UNSUPPORTED finding naming the instruction.
 */
#include "lower_impl.h"

#include "aucs/demangle.h"
#include "aucs/gep.h"
#include "aucs/sync.h"

int lw_fail(lowerer *L, const char *fmt, const char *arg) {
  if (!L->bad) {
    L->bad = L->cur;
    L->why = aucs_xasprintf(fmt, arg);
  }
  return 1;
}

/* ---- types ---- */

enum { MAX_LEAVES = 256 };

static unsigned leaves_of(LLVMTypeRef t);

/* Scalar leaves of t, or 0 when the interpreter cannot hold it in
 * registers (unsupported scalars, more than MAX_LEAVES leaves). */
unsigned lw_leaves(LLVMTypeRef t) {
  unsigned n = leaves_of(t);
  return n <= MAX_LEAVES ? n : 0;
}

static unsigned leaves_of(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind:
    return LLVMGetIntTypeWidth(t) <= 64;
  case LLVMFloatTypeKind:
  case LLVMDoubleTypeKind:
  case LLVMPointerTypeKind:
    return 1;
  case LLVMStructTypeKind: {
    unsigned n = 0;
    for (unsigned i = 0; i < LLVMCountStructElementTypes(t); i++) {
      unsigned k = lw_leaves(LLVMStructGetTypeAtIndex(t, i));
      if (!k)
        return 0;
      n += k;
    }
    return n;
  }
  case LLVMArrayTypeKind: {
    uint64_t n = LLVMGetArrayLength2(t);
    return n > MAX_LEAVES ? MAX_LEAVES + 1
                          : lw_leaves(LLVMGetElementType(t)) * (unsigned)n;
  }
  case LLVMVectorTypeKind: /* one slot per lane */
    return lw_leaves(LLVMGetElementType(t)) == 1 ? LLVMGetVectorSize(t)
                                                 : MAX_LEAVES + 1;
  default:
    return 0;
  }
}

int lw_is_scalar(LLVMTypeRef t) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return k != LLVMStructTypeKind && k != LLVMArrayTypeKind &&
         k != LLVMVectorTypeKind && lw_leaves(t) == 1;
}

int lw_is_vector(LLVMTypeRef t) {
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind;
}

/* Lanes of a vector type; 1 for a scalar. */
unsigned lw_lanes(LLVMTypeRef t) {
  return lw_is_vector(t) ? LLVMGetVectorSize(t) : 1;
}

/* The element type of a vector; t itself for a scalar. */
LLVMTypeRef lw_lane_type(LLVMTypeRef t) {
  return lw_is_vector(t) ? LLVMGetElementType(t) : t;
}

unsigned lw_width(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMVectorTypeKind:
    return lw_width(LLVMGetElementType(t));
  case LLVMIntegerTypeKind:
    return LLVMGetIntTypeWidth(t);
  case LLVMFloatTypeKind:
    return 32;
  default:
    return 64;
  }
}

uint64_t lw_mask_of(unsigned w) {
  return w >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << w) - 1;
}

int lw_is_double(LLVMTypeRef t) {
  return LLVMGetTypeKind(lw_lane_type(t)) == LLVMDoubleTypeKind;
}

const char *lw_type_problem(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind:
    return "integers wider than 64 bits are not supported";
  case LLVMHalfTypeKind:
  case LLVMBFloatTypeKind:
    return "half-precision floats are not supported";
  case LLVMVectorTypeKind:
    if (lw_leaves(LLVMGetElementType(t)) != 1)
      return lw_type_problem(LLVMGetElementType(t));
    if (!lw_leaves(t))
      return "vectors of more than 256 lanes are not supported";
    return "vector values are not supported here";
  case LLVMScalableVectorTypeKind:
    return "scalable vectors are not supported";
  default:
    return "values of this type are not supported";
  }
}

/* ---- objects ---- */

uint32_t lw_add_object(lowerer *L, bc_object o) {
  VEC_PUSH(L->objs, o);
  return L->objs.n - 1;
}

static aucs_memspace space_of(unsigned as) {
  switch (as) {
  case 3:
    return AUCS_MEM_SHARED;
  case 4:
    return AUCS_MEM_CONSTANT;
  case 5:
    return AUCS_MEM_LOCAL;
  default:
    return AUCS_MEM_GLOBAL;
  }
}

static int const_bits(lowerer *L, LLVMValueRef c, uint64_t *out);

static void put_le(unsigned char *p, uint64_t v, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    p[i] = (unsigned char)(v >> (8 * i));
}

/* Serialise constant c of type t into buf (its alloc size). */
static int const_bytes(lowerer *L, LLVMValueRef c, LLVMTypeRef t,
                       unsigned char *buf) {
  if (!c)
    return 1;
  if (LLVMIsNull(c) || LLVMIsUndef(c) || LLVMIsPoison(c))
    return 0;
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (k == LLVMStructTypeKind) {
    for (unsigned i = 0; i < LLVMCountStructElementTypes(t); i++)
      if (const_bytes(L, LLVMGetAggregateElement(c, i),
                      LLVMStructGetTypeAtIndex(t, i),
                      buf + LLVMOffsetOfElement(L->td, t, i)))
        return 1;
    return 0;
  }
  if (k == LLVMArrayTypeKind) {
    LLVMTypeRef e = LLVMGetElementType(t);
    uint64_t stride = LLVMABISizeOfType(L->td, e);
    for (uint64_t i = 0; i < LLVMGetArrayLength2(t); i++)
      if (const_bytes(L, LLVMGetAggregateElement(c, (unsigned)i), e,
                      buf + i * stride))
        return 1;
    return 0;
  }
  if (k == LLVMVectorTypeKind) {
    LLVMTypeRef e = LLVMGetElementType(t);
    if (lw_width(e) % 8)
      return 1;
    for (unsigned i = 0; i < LLVMGetVectorSize(t); i++)
      if (const_bytes(L, LLVMGetAggregateElement(c, i), e,
                      buf + i * (lw_width(e) / 8)))
        return 1;
    return 0;
  }
  uint64_t v;
  if (!lw_is_scalar(t) || const_bits(L, c, &v))
    return 1;
  put_le(buf, v, (unsigned)LLVMStoreSizeOfType(L->td, t));
  return 0;
}

static const char *value_name(lowerer *L, LLVMValueRef v, const char *dflt) {
  size_t n = 0;
  const char *s = LLVMGetValueName2(v, &n);
  return aucs_arena_strdup(L->arena, n ? s : dflt);
}

/* A function's name as messages show it: demangled (demangle.h). */
const char *lw_shown_name(lowerer *L, LLVMValueRef fn) {
  const char *name = value_name(L, fn, "function");
  char *d = aucs_demangle(name);
  if (d) {
    name = aucs_arena_strdup(L->arena, d);
    free(d);
  }
  return name;
}

static int global_object(lowerer *L, LLVMValueRef g, uint32_t *id) {
  intptr_t got;
  if (aucs_ptrmap_get(&L->objidx, g, &got)) {
    *id = (uint32_t)got;
    return 0;
  }
  LLVMTypeRef t = LLVMGlobalGetValueType(g);
  bc_object o = {0};
  o.name = value_name(L, g, "global");
  o.space = space_of(LLVMGetPointerAddressSpace(LLVMTypeOf(g)));
  o.size = LLVMABISizeOfType(L->td, t);
  LLVMValueRef init = LLVMGetInitializer(g);
  o.dynamic_shared = o.space == AUCS_MEM_SHARED && !init && o.size == 0;
  if (init && !LLVMIsUndef(init) && !LLVMIsPoison(init)) {
    unsigned char *buf = aucs_arena_alloc(L->arena, o.size ? o.size : 1);
    if (const_bytes(L, init, t, buf))
      return lw_fail(L, "the initializer of @%s is not supported", o.name);
    o.init = buf;
  }
  *id = lw_add_object(L, o);
  aucs_ptrmap_put(&L->objidx, g, *id);
  return 0;
}

uint32_t lw_func_index(lowerer *L, LLVMValueRef fn);

/* A function whose address is taken is an object of size 0 (an access
 * through its address is out of bounds) that an indirect call resolves to
 * the function, lowered with the others. */
static int function_object(lowerer *L, LLVMValueRef fn, uint32_t *id) {
  intptr_t got;
  if (aucs_ptrmap_get(&L->objidx, fn, &got)) {
    *id = (uint32_t)got;
    return 0;
  }
  const char *name = value_name(L, fn, "function");
  if (LLVMIsDeclaration(fn))
    return lw_fail(L,
                   "a pointer to '%s', a function only declared in the module, "
                   "is not supported",
                   lw_shown_name(L, fn));
  bc_object o = {.name = name, .space = AUCS_MEM_GLOBAL};
  o.func = lw_func_index(L, fn) + 1;
  *id = lw_add_object(L, o);
  aucs_ptrmap_put(&L->objidx, fn, *id);
  return 0;
}

/* ---- constants ---- */

static int gep_offset(lowerer *L, LLVMValueRef gep, int64_t *off);

static int const_expr_bits(lowerer *L, LLVMValueRef c, uint64_t *out) {
  LLVMOpcode op = LLVMGetConstOpcode(c);
  switch (op) {
  case LLVMGetElementPtr: {
    int64_t off;
    if (const_bits(L, LLVMGetOperand(c, 0), out) || gep_offset(L, c, &off))
      return 1;
    *out += (uint64_t)off;
    return 0;
  }
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
  case LLVMIntToPtr:
  case LLVMPtrToInt:
  case LLVMTrunc:
    if (const_bits(L, LLVMGetOperand(c, 0), out))
      return 1;
    *out &= lw_mask_of(lw_width(LLVMTypeOf(c)));
    return 0;
  default:
    return lw_fail(L, "a constant expression is not supported%s", "");
  }
}

/* The value of scalar constant c as slot bits. */
static int const_bits(lowerer *L, LLVMValueRef c, uint64_t *out) {
  LLVMTypeRef t = LLVMTypeOf(c);
  *out = 0;
  if (!lw_is_scalar(t))
    return lw_fail(L, "%s", lw_type_problem(t));
  if (LLVMIsUndef(c) || LLVMIsPoison(c) || LLVMIsNull(c))
    return 0;
  if (LLVMIsAConstantInt(c)) {
    *out = LLVMConstIntGetZExtValue(c) & lw_mask_of(lw_width(t));
  } else if (LLVMIsAConstantFP(c)) {
    LLVMBool loses;
    double d = LLVMConstRealGetDouble(c, &loses);
    if (lw_is_double(t)) {
      memcpy(out, &d, 8);
    } else {
      float f = (float)d;
      uint32_t u;
      memcpy(&u, &f, 4);
      *out = u;
    }
  } else if (LLVMIsAGlobalVariable(c)) {
    uint32_t id = 0;
    if (global_object(L, c, &id))
      return 1;
    *out = AUCS_PTR(id, 0);
  } else if (LLVMIsAConstantExpr(c)) {
    return const_expr_bits(L, c, out);
  } else if (LLVMIsAFunction(c)) {
    uint32_t id = 0;
    if (function_object(L, c, &id))
      return 1;
    *out = AUCS_PTR(id, 0);
  } else {
    return lw_fail(L, "this constant is not supported%s", "");
  }
  return 0;
}

uint32_t lw_new_slots(lowerer *L, unsigned n) {
  uint32_t s = L->image.n;
  for (unsigned i = 0; i < n; i++)
    VEC_PUSH(L->image, 0);
  return s;
}

static int const_leaves(lowerer *L, LLVMValueRef c, LLVMTypeRef t,
                        uint64_t *out) {
  if (lw_is_scalar(t))
    return const_bits(L, c, out);
  unsigned n = LLVMGetTypeKind(t) == LLVMStructTypeKind
                   ? LLVMCountStructElementTypes(t)
               : lw_is_vector(t) ? LLVMGetVectorSize(t)
                                 : (unsigned)LLVMGetArrayLength2(t);
  for (unsigned i = 0; i < n; i++) {
    LLVMTypeRef e = LLVMGetTypeKind(t) == LLVMStructTypeKind
                        ? LLVMStructGetTypeAtIndex(t, i)
                        : LLVMGetElementType(t);
    LLVMValueRef ci = LLVMGetAggregateElement(c, i);
    if (!ci)
      return lw_fail(L, "this constant is not supported%s", "");
    if (const_leaves(L, ci, e, out))
      return 1;
    out += lw_leaves(e);
  }
  return 0;
}

/* The first slot of v; constants are materialised on first use. */
static int slot(lowerer *L, LLVMValueRef v, uint32_t *s) {
  intptr_t got;
  if (aucs_ptrmap_get(&L->slots, v, &got)) {
    *s = (uint32_t)got - 1;
    return 0;
  }
  if (!LLVMIsConstant(v))
    return lw_fail(L, "an operand is not supported%s", "");
  LLVMTypeRef t = LLVMTypeOf(v);
  unsigned n = lw_leaves(t);
  if (!n)
    return lw_fail(L, "%s", lw_type_problem(t));
  uint64_t *tmp = aucs_xcalloc(n, sizeof(uint64_t));
  int bad = const_leaves(L, v, t, tmp);
  *s = lw_new_slots(L, n);
  memcpy(L->image.v + *s, tmp, n * sizeof(uint64_t));
  free(tmp);
  aucs_ptrmap_put(&L->slots, v, (intptr_t)*s + 1);
  return bad;
}

uint32_t lw_op_slot(lowerer *L, LLVMValueRef I, unsigned i, int *bad) {
  uint32_t s = 0;
  *bad |= slot(L, LLVMGetOperand(I, i), &s);
  return s;
}

/* ---- emission ---- */

uint32_t lw_emit(lowerer *L, bc_insn in) {
  VEC_PUSH(L->code, in);
  VEC_PUSH(L->instr, L->cur);
  return L->code.n - 1;
}

void lw_emit_mov(lowerer *L, uint32_t d, uint32_t a, unsigned n) {
  for (unsigned i = 0; i < n; i++)
    lw_emit(L, (bc_insn){.op = OP_MOV, .d = d + i, .a = a + i});
}

/* in once per lane: lane i adds i to the slots named in which. */
void lw_emit_lanes(lowerer *L, bc_insn in, unsigned n, unsigned which) {
  for (unsigned i = 0; i < n; i++) {
    bc_insn k = in;
    k.d += which & LANE_D ? i : 0;
    k.a += which & LANE_A ? i : 0;
    k.b += which & LANE_B ? i : 0;
    k.c += which & LANE_C ? i : 0;
    lw_emit(L, k);
  }
}

/* A scalar, or a vector of scalars: lowered lane by lane. */
int lw_lane_wise(LLVMTypeRef t) {
  return lw_is_scalar(lw_lane_type(t)) && lw_leaves(t) > 0;
}

static void add_fix(lowerer *L, uint32_t at, int field, LLVMBasicBlockRef bb,
                    LLVMBasicBlockRef pred) {
  VEC_PUSH(L->fix, ((fixup){at, field, bb, pred}));
}

/* Phi copies on the edge pred -> succ, with parallel-copy semantics. */
static int edge_copies(lowerer *L, LLVMBasicBlockRef pred,
                       LLVMBasicBlockRef succ) {
  uint32_t dst[64], src[64], len[64];
  unsigned n = 0;
  int bad = 0;
  for (LLVMValueRef phi = LLVMGetFirstInstruction(succ);
       phi && LLVMGetInstructionOpcode(phi) == LLVMPHI;
       phi = LLVMGetNextInstruction(phi)) {
    if (n == 64)
      return lw_fail(L, "more than 64 phis in one block are not supported%s",
                     "");
    for (unsigned i = 0; i < LLVMCountIncoming(phi); i++)
      if (LLVMGetIncomingBlock(phi, i) == pred) {
        bad |= slot(L, phi, &dst[n]);
        bad |= slot(L, LLVMGetIncomingValue(phi, i), &src[n]);
        len[n++] = lw_leaves(LLVMTypeOf(phi));
        break;
      }
  }
  int overlap = 0;
  for (unsigned i = 0; i < n; i++)
    for (unsigned j = 0; j < n; j++)
      if (src[i] < dst[j] + len[j] && dst[j] < src[i] + len[i])
        overlap = 1;
  for (unsigned i = 0; i < n && overlap; i++) {
    uint32_t t = lw_new_slots(L, len[i]);
    lw_emit_mov(L, t, src[i], len[i]);
    src[i] = t;
  }
  for (unsigned i = 0; i < n; i++)
    lw_emit_mov(L, dst[i], src[i], len[i]);
  return bad;
}

static int has_phis(LLVMBasicBlockRef bb) {
  LLVMValueRef first = LLVMGetFirstInstruction(bb);
  return first && LLVMGetInstructionOpcode(first) == LLVMPHI;
}

/* Patch every target; edges into blocks with phis get an edge block. */
static int resolve_fixups(lowerer *L) {
  int bad = 0;
  for (uint32_t i = 0; i < L->fix.n; i++) {
    fixup f = L->fix.v[i];
    intptr_t pc;
    if (f.pred && has_phis(f.bb)) {
      pc = L->code.n;
      bad |= edge_copies(L, f.pred, f.bb);
      uint32_t br = lw_emit(L, (bc_insn){.op = OP_BR});
      add_fix(L, br, 'd', f.bb, NULL);
    } else if (!aucs_ptrmap_get(&L->blockpc, f.bb, &pc)) {
      AUCS_ASSERT(0);
    }
    if (f.field == 'p')
      L->pool.v[f.at] = (uint32_t)pc;
    else if (f.field == 'b')
      L->code.v[f.at].b = (uint32_t)pc;
    else
      L->code.v[f.at].d = (uint32_t)pc;
  }
  return bad;
}

/* Constant byte offset of a GEP whose indices are all constants. */
static int gep_offset(lowerer *L, LLVMValueRef gep, int64_t *off) {
  uint64_t u = 0;
  LLVMTypeRef bad = NULL;
  aucs_gep_status st = aucs_gep_offset(L->td, gep, &u, &bad);
  *off = (int64_t)u;
  if (st == AUCS_GEP_VARIABLE)
    return lw_fail(L, "a non-constant index in a constant GEP%s", "");
  if (st == AUCS_GEP_TYPE)
    return lw_fail(L, "%s", lw_type_problem(bad));
  return 0;
}

static int lower_gep(lowerer *L, LLVMValueRef I, uint32_t d) {
  if (lw_is_vector(LLVMTypeOf(I)))
    return lw_fail(L, "%s", "GEPs over vectors of pointers are not supported");
  if (LLVMGetTypeKind(LLVMTypeOf(I)) != LLVMPointerTypeKind)
    return lw_fail(L, "%s", lw_type_problem(LLVMTypeOf(I)));
  int bad = 0;
  uint32_t base = lw_op_slot(L, I, 0, &bad);
  LLVMTypeRef t = LLVMGetGEPSourceElementType(I);
  int64_t off = 0;
  unsigned n = (unsigned)LLVMGetNumOperands(I);
  for (unsigned i = 1; i < n && !bad; i++) {
    LLVMValueRef ix = LLVMGetOperand(I, i);
    uint64_t scale;
    if (i == 1) {
      scale = LLVMABISizeOfType(L->td, t);
    } else if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      unsigned k = (unsigned)LLVMConstIntGetZExtValue(ix);
      off += (int64_t)LLVMOffsetOfElement(L->td, t, k);
      t = LLVMStructGetTypeAtIndex(t, k);
      continue;
    } else if (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
      t = LLVMGetElementType(t);
      scale = LLVMABISizeOfType(L->td, t);
    } else {
      return lw_fail(L, "%s", lw_type_problem(t));
    }
    if (LLVMIsAConstantInt(ix)) {
      off += LLVMConstIntGetSExtValue(ix) * (int64_t)scale;
      continue;
    }
    if (scale > UINT32_MAX)
      return lw_fail(L, "a GEP scale above 4 GiB is not supported%s", "");
    uint32_t is = 0;
    bad |= slot(L, ix, &is);
    lw_emit(L, (bc_insn){.op = OP_GEP,
                         .d = d,
                         .a = base,
                         .b = is,
                         .c = (uint32_t)scale,
                         .x = lw_width(LLVMTypeOf(ix))});
    base = d;
  }
  lw_emit(L, (bc_insn){.op = OP_ADDI, .d = d, .a = base, .imm = (uint64_t)off});
  return bad;
}

static bc_op int_binop(LLVMOpcode op) {
  switch (op) {
  case LLVMAdd:
    return OP_ADD;
  case LLVMSub:
    return OP_SUB;
  case LLVMMul:
    return OP_MUL;
  case LLVMUDiv:
    return OP_UDIV;
  case LLVMSDiv:
    return OP_SDIV;
  case LLVMURem:
    return OP_UREM;
  case LLVMSRem:
    return OP_SREM;
  case LLVMShl:
    return OP_SHL;
  case LLVMLShr:
    return OP_LSHR;
  case LLVMAShr:
    return OP_ASHR;
  case LLVMAnd:
    return OP_AND;
  case LLVMOr:
    return OP_OR;
  case LLVMXor:
    return OP_XOR;
  case LLVMFAdd:
    return OP_FADD32;
  case LLVMFSub:
    return OP_FSUB32;
  case LLVMFMul:
    return OP_FMUL32;
  case LLVMFDiv:
    return OP_FDIV32;
  case LLVMFRem:
    return OP_FREM32;
  default:
    return OP_NOPS;
  }
}

static bc_op icmp_op(LLVMIntPredicate p) {
  static const bc_op ops[] = {
      [LLVMIntEQ] = OP_ICMP_EQ,   [LLVMIntNE] = OP_ICMP_NE,
      [LLVMIntUGT] = OP_ICMP_UGT, [LLVMIntUGE] = OP_ICMP_UGE,
      [LLVMIntULT] = OP_ICMP_ULT, [LLVMIntULE] = OP_ICMP_ULE,
      [LLVMIntSGT] = OP_ICMP_SGT, [LLVMIntSGE] = OP_ICMP_SGE,
      [LLVMIntSLT] = OP_ICMP_SLT, [LLVMIntSLE] = OP_ICMP_SLE};
  return ops[p];
}

static int lower_binop(lowerer *L, LLVMValueRef I, uint32_t d) {
  LLVMTypeRef t = LLVMTypeOf(I);
  bc_op op = int_binop(LLVMGetInstructionOpcode(I));
  if (!lw_lane_wise(t))
    return lw_fail(L, "%s", lw_type_problem(t));
  int bad = 0;
  bc_insn in = {.d = d,
                .a = lw_op_slot(L, I, 0, &bad),
                .b = lw_op_slot(L, I, 1, &bad),
                .x = lw_width(t),
                .imm = lw_mask_of(lw_width(t))};
  in.op = (uint16_t)(op >= OP_FADD32 ? op + lw_is_double(t) : op);
  lw_emit_lanes(L, in, lw_lanes(t), LANE_D | LANE_A | LANE_B);
  return bad;
}

/* A bitcast that regroups bits: <2 x i32> <-> i64, <4 x i8> <-> i32. */
static int lower_repack(lowerer *L, LLVMValueRef I, uint32_t d) {
  LLVMTypeRef to = LLVMTypeOf(I), from = LLVMTypeOf(LLVMGetOperand(I, 0));
  unsigned bits = lw_lanes(to) * lw_width(to);
  if (bits > MAX_LEAVES * 64)
    return lw_fail(L, "a bitcast of more than %s bits is not supported",
                   "16384");
  int bad = 0;
  lw_emit(L, (bc_insn){.op = OP_REPACK,
                       .d = d,
                       .a = lw_op_slot(L, I, 0, &bad),
                       .b = bits,
                       .x = (uint16_t)lw_width(from),
                       .imm = lw_width(to)});
  return bad;
}

static int lower_cast(lowerer *L, LLVMValueRef I, uint32_t d) {
  LLVMTypeRef to = LLVMTypeOf(I), from = LLVMTypeOf(LLVMGetOperand(I, 0));
  if (!lw_lane_wise(to))
    return lw_fail(L, "%s", lw_type_problem(to));
  if (!lw_lane_wise(from))
    return lw_fail(L, "%s", lw_type_problem(from));
  if (LLVMGetInstructionOpcode(I) == LLVMBitCast &&
      (lw_lanes(to) != lw_lanes(from) || lw_width(to) != lw_width(from)))
    return lower_repack(L, I, d);
  int bad = 0;
  unsigned wt = lw_width(to), wf = lw_width(from);
  int dt = lw_is_double(to), df = lw_is_double(from);
  bc_insn in = {.op = OP_MOV,
                .d = d,
                .a = lw_op_slot(L, I, 0, &bad),
                .imm = lw_mask_of(wt)};
  switch (LLVMGetInstructionOpcode(I)) {
  case LLVMTrunc:
  case LLVMPtrToInt:
    in.op = OP_TRUNC;
    break;
  case LLVMSExt:
    in.op = OP_SEXT;
    in.x = (uint16_t)wf;
    break;
  case LLVMFPToSI:
    in.op = df ? OP_F64TOSI : OP_F32TOSI;
    in.x = (uint16_t)wt;
    break;
  case LLVMFPToUI:
    in.op = df ? OP_F64TOUI : OP_F32TOUI;
    in.x = (uint16_t)wt;
    break;
  case LLVMSIToFP:
    in.op = dt ? OP_SITOF64 : OP_SITOF32;
    in.x = (uint16_t)wf;
    break;
  case LLVMUIToFP:
    in.op = dt ? OP_UITOF64 : OP_UITOF32;
    in.x = (uint16_t)wf;
    break;
  case LLVMFPTrunc:
    in.op = OP_F64TOF32;
    break;
  case LLVMFPExt:
    in.op = OP_F32TOF64;
    break;
  default: /* zext, bitcast, inttoptr, addrspacecast: the bits stay */
    break;
  }
  lw_emit_lanes(L, in, lw_lanes(to), LANE_D | LANE_A);
  return bad;
}

static int lower_cmp(lowerer *L, LLVMValueRef I, uint32_t d) {
  LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(I, 0));
  if (!lw_lane_wise(t))
    return lw_fail(L, "%s", lw_type_problem(t));
  int bad = 0;
  bc_insn in = {.d = d,
                .a = lw_op_slot(L, I, 0, &bad),
                .b = lw_op_slot(L, I, 1, &bad),
                .x = lw_width(t)};
  if (LLVMGetInstructionOpcode(I) == LLVMICmp) {
    in.op = icmp_op(LLVMGetICmpPredicate(I));
  } else {
    in.op = lw_is_double(t) ? OP_FCMP64 : OP_FCMP32;
    in.x = (uint16_t)LLVMGetFCmpPredicate(I);
  }
  lw_emit_lanes(L, in, lw_lanes(t), LANE_D | LANE_A | LANE_B);
  return bad;
}

int lw_access_size(lowerer *L, LLVMTypeRef t, unsigned *size) {
  if (!lw_is_scalar(t))
    return lw_fail(L, "%s", lw_type_problem(t));
  *size = (unsigned)LLVMStoreSizeOfType(L->td, t);
  if (*size != 1 && *size != 2 && *size != 4 && *size != 8)
    return lw_fail(L, "memory accesses of odd sizes are not supported%s", "");
  return 0;
}

/* The scope of an atomic or fence I (syncscope "block", "cluster",
 * "device", or none: system). */
static int sync_scope(LLVMValueRef I) {
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(I));
  unsigned id = LLVMGetAtomicSyncScopeID(I);
  if (id == LLVMGetSyncScopeID(cx, "block", 5) ||
      id == LLVMGetSyncScopeID(cx, "cluster", 7) ||
      id == LLVMGetSyncScopeID(cx, "singlethread", 12))
    return AUCS_SCOPE_BLOCK; /* cluster: the narrower, safe side */
  if (id == LLVMGetSyncScopeID(cx, "device", 6))
    return AUCS_SCOPE_DEVICE;
  return AUCS_SCOPE_SYSTEM;
}

/* Acquire / release semantics of an ordering. */
static uint64_t order_flags(LLVMAtomicOrdering o) {
  uint64_t f = 0;
  if (o == LLVMAtomicOrderingAcquire || o == LLVMAtomicOrderingAcquireRelease ||
      o == LLVMAtomicOrderingSequentiallyConsistent)
    f |= MEM_ACQUIRE;
  if (o == LLVMAtomicOrderingRelease || o == LLVMAtomicOrderingAcquireRelease ||
      o == LLVMAtomicOrderingSequentiallyConsistent)
    f |= MEM_RELEASE;
  return f;
}

/* MEM_* flags, ordering and scope of an atomic read-modify-write. clang's
 * CUDA atomics (atomicAdd ...) are seq_cst at system scope in the IR but
 * relaxed in CUDA's semantics: without a syncscope, an RMW is relaxed. */
static uint64_t rmw_flags(LLVMValueRef I, LLVMAtomicOrdering o) {
  int sc = sync_scope(I);
  uint64_t f = MEM_ATOMIC | MEM_WITH_SCOPE(sc);
  return sc == AUCS_SCOPE_SYSTEM ? f : f | order_flags(o);
}

static uint64_t mem_flags(LLVMValueRef I) {
  uint64_t f = LLVMGetVolatile(I) ? MEM_VOLATILE : 0;
  LLVMAtomicOrdering o = LLVMGetOrdering(I);
  if (o != LLVMAtomicOrderingNotAtomic)
    f |= MEM_ATOMIC | order_flags(o) | MEM_WITH_SCOPE(sync_scope(I));
  else if (f)
    f |= MEM_WITH_SCOPE(AUCS_SCOPE_SYSTEM); /* PTX: volatile is relaxed.sys */
  return f;
}

/* Pool triples (byte offset, bytes, bits) of each leaf of t at base. */
static int leaf_layout(lowerer *L, LLVMTypeRef t, uint64_t base) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (k == LLVMStructTypeKind) {
    for (unsigned i = 0; i < LLVMCountStructElementTypes(t); i++)
      if (leaf_layout(L, LLVMStructGetTypeAtIndex(t, i),
                      base + LLVMOffsetOfElement(L->td, t, i)))
        return 1;
    return 0;
  }
  if (k == LLVMArrayTypeKind || k == LLVMVectorTypeKind) {
    LLVMTypeRef e = LLVMGetElementType(t);
    unsigned n = k == LLVMVectorTypeKind ? LLVMGetVectorSize(t)
                                         : (unsigned)LLVMGetArrayLength2(t);
    /* vectors are packed: lane i at i * its bytes */
    uint64_t stride =
        k == LLVMVectorTypeKind ? lw_width(e) / 8 : LLVMABISizeOfType(L->td, e);
    if (k == LLVMVectorTypeKind && lw_width(e) % 8)
      return lw_fail(L, "%s", "vectors of i1 in memory are not supported");
    for (unsigned i = 0; i < n; i++)
      if (leaf_layout(L, e, base + i * stride))
        return 1;
    return 0;
  }
  VEC_PUSH(L->pool, (uint32_t)base);
  VEC_PUSH(L->pool, (uint32_t)LLVMStoreSizeOfType(L->td, t));
  VEC_PUSH(L->pool, lw_width(t));
  return 0;
}

/* A vector or aggregate load/store: one access of the value's full size. */
static int lower_multi(lowerer *L, LLVMValueRef I, LLVMTypeRef t, uint32_t d) {
  uint64_t size = LLVMStoreSizeOfType(L->td, t);
  if (!lw_leaves(t))
    return lw_fail(L, "%s", lw_type_problem(t));
  if (size > BC_MAX_ACCESS)
    return lw_fail(L, "%s", "memory accesses above 4 KiB are not supported");
  uint32_t at = L->pool.n;
  if (leaf_layout(L, t, 0))
    return 1;
  int bad = 0, load = LLVMGetInstructionOpcode(I) == LLVMLoad;
  bc_insn in = {.op = load ? OP_ALOAD : OP_ASTORE,
                .c = lw_leaves(t),
                .x = (uint16_t)size,
                .imm = mem_flags(I)};
  in.a = lw_op_slot(L, I, load ? 0 : 1, &bad);
  in.b = load ? at : lw_op_slot(L, I, 0, &bad);
  in.d = load ? d : at;
  lw_emit(L, in);
  return bad;
}

static int lower_load(lowerer *L, LLVMValueRef I, uint32_t d) {
  LLVMTypeRef t = LLVMTypeOf(I);
  unsigned size;
  if (!lw_is_scalar(t))
    return lower_multi(L, I, t, d);
  if (lw_access_size(L, t, &size))
    return 1;
  int bad = 0;
  lw_emit(L, (bc_insn){.op = OP_LOAD,
                       .d = d,
                       .a = lw_op_slot(L, I, 0, &bad),
                       .x = (uint16_t)size,
                       .imm = mem_flags(I)});
  if (lw_width(t) < size * 8)
    lw_emit(
        L, (bc_insn){
               .op = OP_TRUNC, .d = d, .a = d, .imm = lw_mask_of(lw_width(t))});
  return bad;
}

static int lower_store(lowerer *L, LLVMValueRef I) {
  unsigned size;
  LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(I, 0));
  if (!lw_is_scalar(t))
    return lower_multi(L, I, t, 0);
  if (lw_access_size(L, t, &size))
    return 1;
  int bad = 0;
  lw_emit(L, (bc_insn){.op = OP_STORE,
                       .a = lw_op_slot(L, I, 1, &bad),
                       .b = lw_op_slot(L, I, 0, &bad),
                       .x = (uint16_t)size,
                       .imm = mem_flags(I)});
  return bad;
}

static int lower_rmw(lowerer *L, LLVMValueRef I, uint32_t d) {
  unsigned size;
  LLVMAtomicRMWBinOp k = LLVMGetAtomicRMWBinOp(I);
  if (lw_access_size(L, LLVMTypeOf(I), &size))
    return 1;
  if (k > LLVMAtomicRMWBinOpUDecWrap)
    return lw_fail(L, "this atomicrmw operation is not supported%s", "");
  int bad = 0;
  lw_emit(L, (bc_insn){.op = OP_RMW,
                       .d = d,
                       .a = lw_op_slot(L, I, 0, &bad),
                       .b = lw_op_slot(L, I, 1, &bad),
                       .c = (uint32_t)k,
                       .x = (uint16_t)size,
                       .imm = rmw_flags(I, LLVMGetOrdering(I))});
  return bad;
}

static int lower_cmpxchg(lowerer *L, LLVMValueRef I, uint32_t d) {
  unsigned size;
  if (lw_access_size(L, LLVMTypeOf(LLVMGetOperand(I, 1)), &size))
    return 1;
  int bad = 0;
  lw_emit(L, (bc_insn){.op = OP_CMPXCHG,
                       .d = d,
                       .a = lw_op_slot(L, I, 0, &bad),
                       .b = lw_op_slot(L, I, 1, &bad),
                       .c = lw_op_slot(L, I, 2, &bad),
                       .x = (uint16_t)size,
                       .imm = rmw_flags(I, LLVMGetCmpXchgSuccessOrdering(I))});
  return bad;
}

static int lower_alloca(lowerer *L, LLVMValueRef I, uint32_t d) {
  int bad = 0;
  LLVMValueRef n = LLVMGetOperand(I, 0);
  lw_emit(L,
          (bc_insn){.op = OP_ALLOCA,
                    .d = d,
                    .a = lw_op_slot(L, I, 0, &bad),
                    .x = (uint16_t)lw_width(LLVMTypeOf(n)),
                    .c = LLVMGetAlignment(I),
                    .imm = LLVMABISizeOfType(L->td, LLVMGetAllocatedType(I))});
  return bad;
}

static int lower_select(lowerer *L, LLVMValueRef I, uint32_t d) {
  int bad = 0;
  uint32_t c = lw_op_slot(L, I, 0, &bad), a = lw_op_slot(L, I, 1, &bad),
           b = lw_op_slot(L, I, 2, &bad);
  /* a vector condition picks lane by lane */
  unsigned step = lw_is_vector(LLVMTypeOf(LLVMGetOperand(I, 0)));
  for (unsigned i = 0; i < lw_leaves(LLVMTypeOf(I)); i++)
    lw_emit(L, (bc_insn){.op = OP_SELECT,
                         .d = d + i,
                         .a = a + i,
                         .b = b + i,
                         .c = c + i * step});
  return bad;
}

/* Leaf offset and type of the element an extractvalue/insertvalue names. */
static LLVMTypeRef leaf_path(LLVMValueRef I, LLVMTypeRef t, unsigned *off) {
  const unsigned *ix = LLVMGetIndices(I);
  *off = 0;
  for (unsigned i = 0; i < LLVMGetNumIndices(I); i++) {
    if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      for (unsigned j = 0; j < ix[i]; j++)
        *off += lw_leaves(LLVMStructGetTypeAtIndex(t, j));
      t = LLVMStructGetTypeAtIndex(t, ix[i]);
    } else {
      t = LLVMGetElementType(t);
      *off += ix[i] * lw_leaves(t);
    }
  }
  return t;
}

static int lower_aggregate(lowerer *L, LLVMValueRef I, uint32_t d) {
  int bad = 0;
  uint32_t agg = lw_op_slot(L, I, 0, &bad);
  LLVMTypeRef at = LLVMTypeOf(LLVMGetOperand(I, 0));
  unsigned off;
  LLVMTypeRef et = leaf_path(I, at, &off);
  if (LLVMGetInstructionOpcode(I) == LLVMExtractValue) {
    lw_emit_mov(L, d, agg + off, lw_leaves(et));
    return bad;
  }
  uint32_t v = lw_op_slot(L, I, 1, &bad);
  lw_emit_mov(L, d, agg, lw_leaves(at));
  lw_emit_mov(L, d + off, v, lw_leaves(et));
  return bad;
}

/* d = 0 (a poison lane or element). */
static void emit_zero(lowerer *L, uint32_t d) {
  lw_emit(L, (bc_insn){.op = OP_TRUNC, .d = d, .a = d, .imm = 0});
}

static int lower_extract(lowerer *L, LLVMValueRef I, uint32_t d) {
  int bad = 0;
  unsigned n = lw_lanes(LLVMTypeOf(LLVMGetOperand(I, 0)));
  uint32_t v = lw_op_slot(L, I, 0, &bad);
  LLVMValueRef ix = LLVMGetOperand(I, 1);
  if (!LLVMIsAConstantInt(ix)) {
    lw_emit(L, (bc_insn){.op = OP_VEXTRACT,
                         .d = d,
                         .a = v,
                         .b = lw_op_slot(L, I, 1, &bad),
                         .c = n});
  } else if (LLVMConstIntGetZExtValue(ix) < n) {
    lw_emit_mov(L, d, v + (uint32_t)LLVMConstIntGetZExtValue(ix), 1);
  } else {
    emit_zero(L, d);
  }
  return bad;
}

static int lower_insert(lowerer *L, LLVMValueRef I, uint32_t d) {
  int bad = 0;
  unsigned n = lw_lanes(LLVMTypeOf(I));
  uint32_t v = lw_op_slot(L, I, 0, &bad), e = lw_op_slot(L, I, 1, &bad);
  LLVMValueRef ix = LLVMGetOperand(I, 2);
  lw_emit_mov(L, d, v, n);
  if (!LLVMIsAConstantInt(ix))
    lw_emit(L, (bc_insn){.op = OP_VINSERT,
                         .d = d,
                         .a = e,
                         .b = lw_op_slot(L, I, 2, &bad),
                         .c = n});
  else if (LLVMConstIntGetZExtValue(ix) < n)
    lw_emit_mov(L, d + (uint32_t)LLVMConstIntGetZExtValue(ix), e, 1);
  return bad;
}

static int lower_shuffle(lowerer *L, LLVMValueRef I, uint32_t d) {
  int bad = 0;
  unsigned n = lw_lanes(LLVMTypeOf(LLVMGetOperand(I, 0)));
  uint32_t a = lw_op_slot(L, I, 0, &bad), b = lw_op_slot(L, I, 1, &bad);
  for (unsigned i = 0; i < LLVMGetNumMaskElements(I); i++) {
    int m = LLVMGetMaskValue(I, i);
    if (m == LLVMGetUndefMaskElem())
      emit_zero(L, d + i);
    else
      lw_emit_mov(L, d + i, (unsigned)m < n ? a + m : b + (m - n), 1);
  }
  return bad;
}

static int lower_br(lowerer *L, LLVMValueRef I) {
  LLVMBasicBlockRef self = LLVMGetInstructionParent(I);
  if (!LLVMIsConditional(I)) {
    LLVMBasicBlockRef succ = LLVMGetSuccessor(I, 0);
    int bad = edge_copies(L, self, succ);
    add_fix(L, lw_emit(L, (bc_insn){.op = OP_BR}), 'd', succ, NULL);
    return bad;
  }
  int bad = 0;
  uint32_t pc =
      lw_emit(L, (bc_insn){.op = OP_CBR, .a = lw_op_slot(L, I, 0, &bad)});
  add_fix(L, pc, 'd', LLVMGetSuccessor(I, 0), self);
  add_fix(L, pc, 'b', LLVMGetSuccessor(I, 1), self);
  return bad;
}

static int lower_switch(lowerer *L, LLVMValueRef I) {
  LLVMBasicBlockRef self = LLVMGetInstructionParent(I);
  unsigned n = LLVMGetNumSuccessors(I) - 1;
  int bad = 0;
  if (lw_width(LLVMTypeOf(LLVMGetOperand(I, 0))) > 64)
    return lw_fail(L, "%s", lw_type_problem(LLVMTypeOf(LLVMGetOperand(I, 0))));
  uint32_t pc = lw_emit(L, (bc_insn){.op = OP_SWITCH,
                                     .a = lw_op_slot(L, I, 0, &bad),
                                     .b = L->pool.n,
                                     .c = n,
                                     .imm = L->pool64.n});
  add_fix(L, pc, 'd', LLVMGetSwitchDefaultDest(I), self);
  for (unsigned i = 0; i < n; i++) {
    uint64_t v;
    bad |= const_bits(L, LLVMGetSwitchCaseValue(I, i + 1), &v);
    VEC_PUSH(L->pool64, v);
    add_fix(L, L->pool.n, 'p', LLVMGetSuccessor(I, i + 1), self);
    VEC_PUSH(L->pool, 0);
  }
  return bad;
}

static int lower_ret(lowerer *L, LLVMValueRef I) {
  int bad = 0;
  bc_insn in = {.op = OP_RET};
  if (LLVMGetNumOperands(I) == 1) { /* x: the leaves returned */
    in.a = lw_op_slot(L, I, 0, &bad);
    in.x = (uint16_t)lw_leaves(LLVMTypeOf(LLVMGetOperand(I, 0)));
  }
  lw_emit(L, in);
  return bad;
}

/* ---- instructions, functions ---- */

static int is_cast(LLVMOpcode op) {
  switch (op) {
  case LLVMTrunc:
  case LLVMZExt:
  case LLVMSExt:
  case LLVMFPToUI:
  case LLVMFPToSI:
  case LLVMUIToFP:
  case LLVMSIToFP:
  case LLVMFPTrunc:
  case LLVMFPExt:
  case LLVMPtrToInt:
  case LLVMIntToPtr:
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
    return 1;
  default:
    return 0;
  }
}

static int lower_instr(lowerer *L, LLVMValueRef I) {
  uint32_t d = 0;
  LLVMOpcode op = LLVMGetInstructionOpcode(I);
  if (LLVMGetTypeKind(LLVMTypeOf(I)) != LLVMVoidTypeKind && slot(L, I, &d))
    return 1;
  switch (op) {
  case LLVMPHI:
    return 0;
  case LLVMFence:
    lw_emit(L, (bc_insn){.op = OP_FENCE, .x = (uint16_t)sync_scope(I)});
    return 0;
  case LLVMRet:
    return lower_ret(L, I);
  case LLVMBr:
    return lower_br(L, I);
  case LLVMSwitch:
    return lower_switch(L, I);
  case LLVMUnreachable:
    lw_emit(L, (bc_insn){.op = OP_UNREACHABLE});
    return 0;
  case LLVMFNeg: {
    int bad = 0;
    LLVMTypeRef t = LLVMTypeOf(I);
    if (!lw_lane_wise(t))
      return lw_fail(L, "%s", lw_type_problem(t));
    lw_emit_lanes(L,
                  (bc_insn){.op = (uint16_t)(OP_FNEG32 + lw_is_double(t)),
                            .d = d,
                            .a = lw_op_slot(L, I, 0, &bad)},
                  lw_lanes(t), LANE_D | LANE_A);
    return bad;
  }
  case LLVMICmp:
  case LLVMFCmp:
    return lower_cmp(L, I, d);
  case LLVMSelect:
    return lower_select(L, I, d);
  case LLVMGetElementPtr:
    return lower_gep(L, I, d);
  case LLVMLoad:
    return lower_load(L, I, d);
  case LLVMStore:
    return lower_store(L, I);
  case LLVMAtomicRMW:
    return lower_rmw(L, I, d);
  case LLVMAtomicCmpXchg:
    return lower_cmpxchg(L, I, d);
  case LLVMAlloca:
    return lower_alloca(L, I, d);
  case LLVMCall:
    return lw_lower_call(L, I, d);
  case LLVMExtractValue:
  case LLVMInsertValue:
    return lower_aggregate(L, I, d);
  case LLVMExtractElement:
    return lower_extract(L, I, d);
  case LLVMInsertElement:
    return lower_insert(L, I, d);
  case LLVMShuffleVector:
    return lower_shuffle(L, I, d);
  case LLVMFreeze: {
    int bad = 0;
    lw_emit_mov(L, d, lw_op_slot(L, I, 0, &bad), lw_leaves(LLVMTypeOf(I)));
    return bad;
  }
  default:
    break;
  }
  if (is_cast(op))
    return lower_cast(L, I, d);
  if (int_binop(op) != OP_NOPS)
    return lower_binop(L, I, d);
  return lw_fail(L, "%s", "this instruction is not supported");
}

/* Step 1: slots for parameters and every instruction with a value. A
 * helper's aggregate or vector parameter takes one params entry per leaf. */
static int assign_slots(lowerer *L, LLVMValueRef fn, bc_func *f) {
  unsigned np = LLVMCountParams(fn), k = 0;
  f->nparams = 0;
  for (unsigned i = 0; i < np; i++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(fn, i));
    unsigned n = fn == L->funcs.v[0] && !lw_is_scalar(t) ? 0 : lw_leaves(t);
    if (!n)
      return lw_fail(L, "%s", lw_type_problem(t));
    f->nparams += n;
  }
  f->params = AUCS_ANEW(L->arena, uint32_t, f->nparams);
  for (unsigned i = 0; i < np; i++) {
    LLVMValueRef a = LLVMGetParam(fn, i);
    unsigned n = lw_leaves(LLVMTypeOf(a));
    uint32_t s = lw_new_slots(L, n);
    aucs_ptrmap_put(&L->slots, a, (intptr_t)s + 1);
    for (unsigned j = 0; j < n; j++)
      f->params[k++] = s + j;
  }
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I)) {
      LLVMTypeRef t = LLVMTypeOf(I);
      if (LLVMGetTypeKind(t) == LLVMVoidTypeKind)
        continue;
      L->cur = I;
      unsigned n = lw_leaves(t);
      if (!n)
        return lw_fail(L, "%s", lw_type_problem(t));
      aucs_ptrmap_put(&L->slots, I, (intptr_t)lw_new_slots(L, n) + 1);
    }
  return 0;
}

static LLVMTypeRef byval_type(LLVMValueRef fn, unsigned i);

/* The alignment of byval parameter i: its `align`, else its type's. */
static unsigned param_align(lowerer *L, LLVMValueRef fn, unsigned i,
                            LLVMTypeRef t) {
  unsigned kind = LLVMGetEnumAttributeKindForName("align", 5);
  LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(fn, i + 1, kind);
  unsigned abi = LLVMABIAlignmentOfType(L->td, t);
  uint64_t al = a ? LLVMGetEnumAttributeValue(a) : 0;
  return al > abi ? (unsigned)al : abi;
}

/* A helper's byval parameters: on entry it copies the caller's bytes into
 * an alloca of its own, so its writes never reach the caller's object. */
static int copy_byval(lowerer *L, LLVMValueRef fn) {
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(fn));
  int bad = 0;
  for (unsigned i = 0; i < LLVMCountParams(fn); i++) {
    LLVMTypeRef bv = byval_type(fn, i);
    if (!bv)
      continue;
    uint64_t size = LLVMABISizeOfType(L->td, bv);
    uint32_t p = 0, one = 0, n = 0, tmp = lw_new_slots(L, 1);
    bad |= slot(L, LLVMGetParam(fn, i), &p);
    bad |= slot(L, LLVMConstInt(LLVMInt32TypeInContext(cx), 1, 0), &one);
    bad |= slot(L, LLVMConstInt(LLVMInt64TypeInContext(cx), size, 0), &n);
    lw_emit(L, (bc_insn){.op = OP_ALLOCA,
                         .d = tmp,
                         .a = one,
                         .x = 32,
                         .c = param_align(L, fn, i, bv),
                         .imm = size});
    lw_emit(L, (bc_insn){.op = OP_MEMCPY, .a = tmp, .b = p, .c = n, .x = 64});
    lw_emit_mov(L, p, tmp, 1);
  }
  return bad;
}

static int lower_function(lowerer *L, LLVMValueRef fn, bc_func *f) {
  aucs_ptrmap_free(&L->slots);
  aucs_ptrmap_free(&L->blockpc);
  L->image.n = 0;
  L->fix.n = 0;
  lw_new_slots(L, 1); /* slot 0: the sink of results nobody reads */
  f->fn = fn;
  f->entry = L->code.n;
  if (assign_slots(L, fn, f))
    return 1;
  L->cur = LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn));
  if (fn != L->funcs.v[0] && copy_byval(L, fn))
    return 1;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb)) {
    aucs_ptrmap_put(&L->blockpc, bb, L->code.n);
    L->cur = LLVMGetFirstInstruction(bb);
    lw_marks_emit(L, fn == L->funcs.v[0] ? L->marks : NULL, bb);
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I)) {
      L->cur = I;
      if (lower_instr(L, I))
        return 1;
    }
  }
  if (resolve_fixups(L))
    return 1;
  f->nslots = L->image.n;
  f->image = AUCS_ANEW(L->arena, uint64_t, f->nslots);
  memcpy(f->image, L->image.v, f->nslots * sizeof(uint64_t));
  return 0;
}

/* ---- the kernel's parameters ---- */

static LLVMTypeRef byval_type(LLVMValueRef fn, unsigned i) {
  unsigned kind = LLVMGetEnumAttributeKindForName("byval", 5);
  LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(fn, i + 1, kind);
  return a ? LLVMGetTypeAttributeValue(a) : NULL;
}

/* Parameters and their leaves (inputs.h): a pointer leaf, argument or
 * field, gets a buffer of its own; a byval aggregate a constant object its
 * fields are written into. */
static void lower_params(lowerer *L, LLVMValueRef fn, aucs_prog *p) {
  p->inputs = aucs_inputs_describe(fn);
  p->nparams = LLVMCountParams(fn);
  p->params = AUCS_ANEW(L->arena, aucs_param, p->nparams);
  p->param_obj = AUCS_ANEW(L->arena, uint32_t, p->nparams);
  p->leaf_obj = AUCS_ANEW(L->arena, uint32_t, p->inputs->n);
  for (unsigned i = 0; i < p->nparams; i++) {
    LLVMValueRef a = LLVMGetParam(fn, i);
    LLVMTypeRef t = LLVMTypeOf(a), bv = byval_type(fn, i);
    aucs_param *pa = &p->params[i];
    pa->name = p->inputs->param_names[i];
    pa->bits = lw_width(t);
    pa->kind = LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? AUCS_PARAM_INT
               : LLVMGetTypeKind(t) == LLVMPointerTypeKind
                   ? (bv ? AUCS_PARAM_AGGREGATE : AUCS_PARAM_POINTER)
                   : AUCS_PARAM_FLOAT;
    if (pa->kind == AUCS_PARAM_AGGREGATE)
      p->param_obj[i] =
          lw_add_object(L, (bc_object){.name = pa->name,
                                       .space = AUCS_MEM_CONSTANT,
                                       .size = LLVMABISizeOfType(L->td, bv)});
    for (size_t j = 0; j < p->inputs->n; j++) {
      const aucs_input *x = &p->inputs->v[j];
      if (x->param != i || x->p.kind != AUCS_PARAM_POINTER)
        continue;
      p->leaf_obj[j] = lw_add_object(L, (bc_object){.name = x->p.name,
                                                    .space = AUCS_MEM_GLOBAL,
                                                    .sparse = 1});
      if (!x->field)
        p->param_obj[i] = p->leaf_obj[j];
    }
  }
}

#define ARENA_COPY(L, dst, vec)                                                \
  do {                                                                         \
    (dst) = aucs_arena_alloc((L)->arena, ((vec).n + 1) * sizeof(*(vec).v));    \
    if ((vec).n)                                                               \
      memcpy((dst), (vec).v, (vec).n * sizeof(*(vec).v));                      \
  } while (0)

static aucs_prog *finish(lowerer *L, LLVMValueRef kernel, aucs_prog *p) {
  p->kernel = kernel;
  p->kernel_name = lw_shown_name(L, kernel);
  ARENA_COPY(L, p->code, L->code);
  ARENA_COPY(L, p->instr, L->instr);
  p->ncode = L->code.n;
  ARENA_COPY(L, p->funcs, L->fdone);
  p->nfuncs = L->fdone.n;
  ARENA_COPY(L, p->pool, L->pool);
  ARENA_COPY(L, p->pool64, L->pool64);
  ARENA_COPY(L, p->objs, L->objs);
  p->nobjs = L->objs.n;
  ARENA_COPY(L, p->barriers, L->barriers);
  p->nbarriers = L->barriers.n;
  ARENA_COPY(L, p->externals, L->externals);
  p->nexternals = L->externals.n;
  p->grid_ws = L->grid_ws;
  p->surf0 = L->surf0;
  for (uint32_t i = 0; i < p->nfuncs; i++)
    p->funcs[i].tex_header = lw_texture_header(p->funcs[i].fn);
  return p;
}

static void lowerer_free(lowerer *L) {
  free(L->code.v);
  free(L->instr.v);
  free(L->pool.v);
  free(L->pool64.v);
  free(L->funcs.v);
  free(L->fdone.v);
  free(L->objs.v);
  free(L->barriers.v);
  free(L->externals.v);
  free(L->image.v);
  free(L->fix.v);
  free(L->why);
  lw_marks_free(L->marks);
  aucs_ptrmap_free(&L->fnidx);
  aucs_ptrmap_free(&L->objidx);
  aucs_ptrmap_free(&L->slots);
  aucs_ptrmap_free(&L->blockpc);
  LLVMDisposeTargetData(L->td);
}

static void report(lowerer *L, LLVMValueRef kernel, aucs_findings *diag) {
  char *text = LLVMPrintValueToString(L->bad);
  char *nl = strchr(text, '\n');
  if (nl)
    *nl = '\0';
  const char *s = text;
  while (*s == ' ')
    s++;
  aucs_finding f = {.kind = AUCS_FINDING_UNSUPPORTED};
  f.a.instr = L->bad;
  size_t n = 0;
  const char *kn = LLVMGetValueName2(kernel, &n);
  f.message = aucs_xasprintf("cannot interpret `%s` in @%.*s: %s", s, (int)n,
                             kn, L->why);
  LLVMDisposeMessage(text);
  if (diag)
    aucs_findings_push(diag, &f);
  else
    free(f.message);
}

int aucs_interp_lower(LLVMValueRef kernel, aucs_prog **out,
                      aucs_findings *diag) {
  return aucs_interp_lower_with(kernel, NULL, out, diag);
}

int aucs_interp_lower_with(LLVMValueRef kernel, const aucs_lower_options *o,
                           aucs_prog **out, aucs_findings *diag) {
  LLVMModuleRef m = LLVMGetGlobalParent(kernel);
  lowerer L = {.strict = o && o->strict};
  L.td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m));
  aucs_prog *p = aucs_xcalloc(1, sizeof(aucs_prog));
  p->arena = L.arena = aucs_arena_new();
  *out = NULL;
  lw_add_object(&L, (bc_object){.name = "null"});
  L.cur = kernel;
  lower_params(&L, kernel, p);
  L.inputs = p->inputs;
  L.marks = lw_marks_build(kernel);
  lw_func_index(&L, kernel);
  int bad = 0;
  for (uint32_t i = 0; i < L.funcs.n && !bad; i++) {
    bc_func f = {0};
    bad = lower_function(&L, L.funcs.v[i], &f);
    VEC_PUSH(L.fdone, f);
  }
  if (!bad && L.code.n > AUCS_SHADOW_MAX_PC) {
    L.cur = kernel;
    bad = lw_fail(&L, "%s", "the kernel has too many instructions");
  }
  if (bad) {
    report(&L, kernel, diag);
    lowerer_free(&L);
    aucs_prog_free(p);
    return 1;
  }
  *out = finish(&L, kernel, p);
  lowerer_free(&L);
  return 0;
}

void aucs_prog_free(aucs_prog *p) {
  if (!p)
    return;
  aucs_arena_free(p->arena);
  aucs_inputs_free(p->inputs);
  free(p);
}

const aucs_inputs *aucs_prog_inputs(const aucs_prog *p) { return p->inputs; }

size_t aucs_prog_nparams(const aucs_prog *p) { return p->nparams; }

const aucs_param *aucs_prog_param(const aucs_prog *p, size_t i) {
  AUCS_ASSERT(i < p->nparams);
  return &p->params[i];
}

size_t aucs_prog_nbarriers(const aucs_prog *p) { return p->nbarriers; }

int aucs_prog_grid_sync(const aucs_prog *p) { return p->grid_ws != 0; }

LLVMValueRef aucs_prog_barrier(const aucs_prog *p, size_t i) {
  AUCS_ASSERT(i < p->nbarriers);
  return p->barriers[i];
}

size_t aucs_prog_nexternals(const aucs_prog *p) { return p->nexternals; }

LLVMValueRef aucs_prog_external(const aucs_prog *p, size_t i) {
  AUCS_ASSERT(i < p->nexternals);
  return p->externals[i];
}
