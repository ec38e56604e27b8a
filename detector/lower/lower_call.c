/*
 * lower_call: calls, to bytecode (the lowering of everything else is in
 * lower.c). A callee resolves through intrinsics.def (intrinsics, barriers,
 * warp collectives, exact PTX texts of inline asm), then libcalls.def (the
 * math library and the CUDA __nv_* functions, aucs_libcalls_of), then to a
 * defined function of the module; a function the module only declares
 * gives an arbitrary value (OP_NONDET) and is listed for the findings'
 * note; a call through a pointer dispatches at run time. Inline asm: the
 * exact texts, then textures (lower_tex.c), then PTX read statement by
 * statement (lower_asm.c).
 */
#include "lower_impl.h"

#include "aucs/sync.h"

enum { EXACT, PREFIX };
enum {
  C_IGNORE,
  C_COPY,
  C_SREG,
  C_TRAP,
  C_BARRIER,
  C_WARP,
  C_WARP_SYNC,
  C_INT1,
  C_INT2,
  C_INT3,
  C_FP1,
  C_FP2,
  C_FP3,
  C_OVF,
  C_MEMCPY,
  C_MEMMOVE,
  C_MEMSET,
  C_ASSUME,
  C_GRID,
  C_REDUCE,
  C_FENCE,
  C_ATOMIC,
  C_LDST,
  C_PAIR
};

/* The compare-and-swap of the ATOMIC class; LDST's store bit. */
enum { ATOM_CAS = 255, AUCS_LDST_STORE = 1 << 16 };

/* The MEM_* flags of an ATOMIC or LDST param (scope in bits 8.. or 0..). */
static uint64_t asm_mem(int param, int scope) {
  return MEM_ATOMIC | MEM_WITH_SCOPE(scope & 0xf) |
         ((uint64_t)(param >> 12) & (MEM_ACQUIRE | MEM_RELEASE));
}

typedef struct intrin_row {
  int match;
  const char *spelling;
  int cls, param;
} intrin_row;

static const intrin_row intrinsics[] = {
#define AUCS_INTRIN(m, s, c, p) {m, s, C_##c, p},
#include "intrinsics.def"
};

static const intrin_row asm_rows[] = {
#define AUCS_ASM(ptx, c, p) {EXACT, ptx, C_##c, p},
#include "intrinsics.def"
};

/* ---- calls ---- */

static const intrin_row *find_intrinsic(const char *name) {
  for (size_t i = 0; i < sizeof(intrinsics) / sizeof(*intrinsics); i++) {
    const intrin_row *r = &intrinsics[i];
    size_t n = strlen(r->spelling);
    if (r->match == EXACT ? strcmp(name, r->spelling) == 0
                          : strncmp(name, r->spelling, n) == 0)
      return r;
  }
  return NULL;
}

static uint32_t arg_slot(lowerer *L, LLVMValueRef I, unsigned i, int *bad) {
  if (i >= (unsigned)LLVMGetNumArgOperands(I)) {
    *bad |= lw_fail(L, "%s", "a call has too few arguments");
    return 0;
  }
  return lw_op_slot(L, I, i, bad);
}

static int lower_warp(lowerer *L, LLVMValueRef I, uint32_t d, int param,
                      unsigned first) {
  int bad = 0;
  bc_insn in = {.op = OP_WARP, .x = (uint16_t)param, .d = d};
  if (param >= W_SHFL_IDX && param <= W_SHFL_BFLY) {
    in.a = arg_slot(L, I, first, &bad);
    in.b = arg_slot(L, I, first + 1, &bad);
    in.c = arg_slot(L, I, first + 2, &bad);
    in.imm = LLVMGetTypeKind(LLVMTypeOf(I)) == LLVMStructTypeKind ? W_PRED : 0;
  } else if (param >= W_VOTE_ALL && param <= W_VOTE_BALLOT) {
    in.a = arg_slot(L, I, first, &bad);
  }
  lw_emit(L, in);
  return bad;
}

static int lower_barrier(lowerer *L, LLVMValueRef I, uint32_t d, int kind) {
  int bad = 0;
  unsigned n = (unsigned)LLVMGetNumArgOperands(I);
  bc_insn in = {
      .op = OP_BARRIER, .x = (uint16_t)kind, .d = d, .imm = L->barriers.n};
  if (kind != BAR_PLAIN && n > 0)
    in.a = arg_slot(L, I, n - 1, &bad);
  VEC_PUSH(L->barriers, I);
  lw_emit(L, in);
  return bad;
}

/* Float intrinsics: FOO32, or FOO64 for double. */
static int lower_float(lowerer *L, LLVMValueRef I, uint32_t d,
                       const intrin_row *r) {
  LLVMTypeRef t = LLVMTypeOf(I);
  LLVMTypeKind k = LLVMGetTypeKind(lw_lane_type(t));
  if (k != LLVMFloatTypeKind && k != LLVMDoubleTypeKind)
    return lw_fail(L, "%s", lw_type_problem(t));
  int bad = 0;
  bc_insn in = {.op = (uint16_t)(r->param + lw_is_double(t)), .d = d};
  in.a = arg_slot(L, I, 0, &bad);
  if (r->cls != C_FP1)
    in.b = arg_slot(L, I, 1, &bad);
  if (r->cls == C_FP3)
    in.c = arg_slot(L, I, 2, &bad);
  lw_emit(L, in);
  return bad;
}

/* A grid sync step. The workspace is an object of its own, so its address
 * is a pointer the interpreter recognises (the halves are constants). */
static int lower_grid(lowerer *L, LLVMValueRef I, uint32_t d, int step) {
  if (!L->grid_ws)
    L->grid_ws = lw_add_object(L, (bc_object){.name = "grid workspace",
                                              .space = AUCS_MEM_CONSTANT,
                                              .size = 16});
  int bad = 0;
  if (step == GRID_WS_HI || step == GRID_WS_LO) {
    uint64_t p = AUCS_PTR(L->grid_ws, 0);
    uint32_t s = lw_new_slots(L, 1);
    L->image.v[s] = step == GRID_WS_HI ? p >> 32 : p & 0xffffffffu;
    lw_emit(L, (bc_insn){.op = OP_MOV, .d = d, .a = s});
    return 0;
  }
  lw_emit(L, (bc_insn){.op = OP_GRID,
                       .x = (uint16_t)step,
                       .d = d,
                       .a = arg_slot(L, I, 0, &bad)});
  return bad;
}

/* llvm.nvvm.atomic.*.{cta,sys}: a relaxed RMW or CAS of that scope. */
static int lower_nvvm_atomic(lowerer *L, LLVMValueRef I, uint32_t d,
                             int param) {
  unsigned size;
  if (lw_access_size(L, LLVMTypeOf(I), &size))
    return 1;
  int bad = 0, kind = param & 0xff;
  bc_insn in = {.op = OP_RMW,
                .d = d,
                .a = arg_slot(L, I, 0, &bad),
                .b = arg_slot(L, I, 1, &bad),
                .c = (uint32_t)kind,
                .x = (uint16_t)size,
                .imm = asm_mem(param, param >> 8)};
  if (kind != ATOM_CAS) {
    lw_emit(L, in);
    return bad;
  }
  in.op = OP_CMPXCHG; /* old value and success flag: two slots */
  in.d = lw_new_slots(L, 2);
  in.c = arg_slot(L, I, 2, &bad);
  lw_emit(L, in);
  lw_emit(L, (bc_insn){.op = OP_MOV, .d = d, .a = in.d});
  return bad;
}

/* A PTX ld/st with order and scope (libcu++): an atomic LOAD or STORE. */
static int lower_ldst(lowerer *L, LLVMValueRef I, uint32_t d, int param) {
  int bad = 0, st = (param & AUCS_LDST_STORE) != 0;
  unsigned size;
  LLVMTypeRef t = st ? LLVMTypeOf(LLVMGetOperand(I, 1)) : LLVMTypeOf(I);
  if (lw_access_size(L, t, &size))
    return 1;
  bc_insn in = {.op = st ? OP_STORE : OP_LOAD,
                .a = arg_slot(L, I, 0, &bad),
                .x = (uint16_t)size,
                .imm = asm_mem(param, param)};
  if (st)
    in.b = arg_slot(L, I, 1, &bad);
  else
    in.d = d;
  lw_emit(L, in);
  return bad;
}

static int lower_scalar_intrinsic(lowerer *L, LLVMValueRef I, uint32_t d,
                                  const intrin_row *r) {
  LLVMTypeRef t = LLVMTypeOf(I);
  int bad = 0;
  bc_insn in = {
      .d = d, .x = (uint16_t)lw_width(t), .imm = lw_mask_of(lw_width(t))};
  switch (r->cls) {
  case C_IGNORE:
    return 0;
  case C_COPY:
    in.op = OP_MOV;
    in.a = arg_slot(L, I, 0, &bad);
    break;
  case C_SREG:
    in.op = OP_SREG;
    in.x = (uint16_t)r->param;
    break;
  case C_TRAP:
    in.op = OP_TRAP;
    break;
  case C_ASSUME:
    in.op = OP_ASSUME;
    in.a = arg_slot(L, I, 0, &bad);
    break;
  case C_GRID:
    return lower_grid(L, I, d, r->param);
  case C_FENCE:
    lw_emit(L, (bc_insn){.op = OP_FENCE, .x = (uint16_t)r->param});
    return 0;
  case C_ATOMIC:
    return lower_nvvm_atomic(L, I, d, r->param);
  case C_LDST:
    return lower_ldst(L, I, d, r->param);
  case C_PAIR:
    lw_emit_mov(L, d, arg_slot(L, I, 0, &bad), 1);
    lw_emit_mov(L, d + 1, arg_slot(L, I, 1, &bad), 1);
    return bad;
  case C_BARRIER:
    return lower_barrier(L, I, d, r->param);
  case C_WARP:
  case C_WARP_SYNC:
    return lower_warp(L, I, d, r->param, r->cls == C_WARP_SYNC);
  case C_INT1:
  case C_INT2:
  case C_INT3:
  case C_OVF:
    if (r->cls == C_OVF) {
      t = LLVMTypeOf(LLVMGetOperand(I, 0));
      in.x = (uint16_t)lw_width(t);
      in.imm = lw_mask_of(lw_width(t));
    }
    if (LLVMGetTypeKind(lw_lane_type(t)) != LLVMIntegerTypeKind ||
        lw_width(t) > 64)
      return lw_fail(L, "%s", lw_type_problem(t));
    in.op = (uint16_t)(r->cls == C_OVF ? OP_OVF : r->param);
    in.a = arg_slot(L, I, 0, &bad);
    if (r->cls != C_INT1)
      in.b = arg_slot(L, I, 1, &bad);
    if (r->cls == C_INT3)
      in.c = arg_slot(L, I, 2, &bad);
    if (r->cls == C_OVF)
      in.c = (uint32_t)r->param;
    break;
  case C_FP1:
  case C_FP2:
  case C_FP3:
    return lower_float(L, I, d, r);
  case C_MEMCPY:
  case C_MEMMOVE:
  case C_MEMSET:
    in.op = r->cls == C_MEMCPY    ? OP_MEMCPY
            : r->cls == C_MEMMOVE ? OP_MEMMOVE
                                  : OP_MEMSET;
    in.a = arg_slot(L, I, 0, &bad);
    in.b = arg_slot(L, I, 1, &bad);
    in.c = arg_slot(L, I, 2, &bad);
    in.x = (uint16_t)lw_width(LLVMTypeOf(LLVMGetOperand(I, 2)));
    break;
  }
  lw_emit(L, in);
  return bad;
}

/* A value a library function takes or gives: an integer up to 64 bits, a
 * float or a double (or a pointer, for results stored through it). */
static int libcall_type(LLVMTypeRef t, int ptr_ok) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind:
    return lw_width(t) <= 64;
  case LLVMFloatTypeKind:
  case LLVMDoubleTypeKind:
    return 1;
  case LLVMPointerTypeKind:
    return ptr_ok;
  default:
    return 0;
  }
}

static void emit_libcall(lowerer *L, aucs_libcall_fn fn, uint32_t d,
                         uint32_t args, unsigned n, unsigned w) {
  lw_emit(L, (bc_insn){.op = OP_LIBCALL,
                       .d = d,
                       .b = args,
                       .c = n,
                       .x = (uint16_t)w,
                       .imm = (uint64_t)(uintptr_t)fn});
}

/* A row of libcalls.def: OP_LIBCALL with the host function, then a STORE
 * for each result the function writes through a pointer argument. */
static int lower_libcall(lowerer *L, LLVMValueRef I, uint32_t d,
                         const aucs_libcall *lc) {
  unsigned n = (unsigned)LLVMGetNumArgOperands(I);
  LLVMTypeRef t = LLVMTypeOf(I);
  int is_void = LLVMGetTypeKind(t) == LLVMVoidTypeKind;
  if (n != lc->arity || (lc->fn ? !libcall_type(t, 0) : !is_void))
    return lw_fail(L, "calls to '%s' of this signature are not supported",
                   lc->name);
  int bad = 0;
  uint32_t at = L->pool.n;
  for (unsigned i = 0; i < n; i++) {
    if (!libcall_type(LLVMTypeOf(LLVMGetOperand(I, i)), !lc->pure))
      return lw_fail(L, "calls to '%s' of this signature are not supported",
                     lc->name);
    VEC_PUSH(L->pool, lw_op_slot(L, I, i, &bad));
  }
  if (lc->fn && !is_void)
    emit_libcall(L, lc->fn, d, at, n, lw_width(t));
  for (int k = 0; k < AUCS_LIBCALL_MAX_OUTS; k++) {
    const aucs_libcall_out *o = &lc->out[k];
    if (o->arg < 0)
      continue;
    uint32_t tmp = lw_new_slots(L, 1);
    emit_libcall(L, o->fn, tmp, at, n, o->bytes * 8);
    lw_emit(L, (bc_insn){.op = OP_STORE,
                         .a = L->pool.v[at + (unsigned)o->arg],
                         .b = tmp,
                         .x = (uint16_t)o->bytes});
  }
  return bad;
}

/* llvm.vector.reduce.*: a chain of the scalar op over the lanes, after
 * the start value when the intrinsic has one (fadd, fmul: in order). */
static int lower_reduce(lowerer *L, LLVMValueRef I, uint32_t d, int op) {
  unsigned na = (unsigned)LLVMGetNumArgOperands(I);
  LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(I, na - 1));
  if (!lw_is_vector(t) || !lw_lane_wise(t))
    return lw_fail(L, "%s", lw_type_problem(t));
  int bad = 0;
  uint32_t v = lw_op_slot(L, I, na - 1, &bad);
  bc_insn in = {.op = (uint16_t)(op >= OP_FADD32 ? op + lw_is_double(t) : op),
                .d = d,
                .a = na == 2 ? lw_op_slot(L, I, 0, &bad) : v,
                .x = lw_width(t),
                .imm = lw_mask_of(lw_width(t))};
  unsigned i = na == 2 ? 0 : 1;
  if (i == lw_lanes(t))
    lw_emit_mov(L, d, v, 1);
  for (; i < lw_lanes(t); i++) {
    in.b = v + i;
    lw_emit(L, in);
    in.a = d;
  }
  return bad;
}

/* Element-wise intrinsics on vectors: the scalar form once per lane. */
static int lower_intrinsic(lowerer *L, LLVMValueRef I, uint32_t d,
                           const intrin_row *r) {
  LLVMTypeRef t = LLVMTypeOf(I);
  if (r->cls == C_REDUCE)
    return lower_reduce(L, I, d, r->param);
  if (!lw_is_vector(t))
    return lower_scalar_intrinsic(L, I, d, r);
  if (r->cls != C_COPY && (r->cls < C_INT1 || r->cls > C_FP3))
    return lw_fail(L, "%s", "this intrinsic is not supported on vectors");
  uint32_t first = L->code.n;
  if (lower_scalar_intrinsic(L, I, d, r))
    return 1;
  AUCS_ASSERT(L->code.n == first + 1);
  bc_insn in = L->code.v[first];
  L->code.n = L->instr.n = first;
  unsigned which = LANE_D, na = (unsigned)LLVMGetNumArgOperands(I);
  for (unsigned k = 0; k < 3 && k < na; k++)
    if (lw_is_vector(LLVMTypeOf(LLVMGetOperand(I, k))))
      which |= LANE_A << k;
  lw_emit_lanes(L, in, lw_lanes(t), which);
  return 0;
}

uint32_t lw_func_index(lowerer *L, LLVMValueRef fn) {
  intptr_t got;
  if (aucs_ptrmap_get(&L->fnidx, fn, &got))
    return (uint32_t)got - 1;
  VEC_PUSH(L->funcs, fn);
  aucs_ptrmap_put(&L->fnidx, fn, L->funcs.n);
  return L->funcs.n - 1;
}

static int lower_asm(lowerer *L, LLVMValueRef I, LLVMValueRef callee,
                     uint32_t d) {
  size_t n = 0;
  const char *text = LLVMGetInlineAsmAsmString(callee, &n);
  for (size_t i = 0; i < sizeof(asm_rows) / sizeof(*asm_rows); i++)
    if (strlen(asm_rows[i].spelling) == n &&
        memcmp(asm_rows[i].spelling, text, n) == 0)
      return lower_intrinsic(L, I, d, &asm_rows[i]);
  int tex = lw_lower_texture(L, I, d, text, n);
  if (tex >= 0)
    return tex;
  return lw_lower_ptx(L, I, d, text, n);
}

/* A call of a function the module only declares: an arbitrary value of
 * the result's width (OP_NONDET), no memory written; the callee is listed
 * for the findings' note. Not under strict, not for a pointer or an
 * aggregate result, nor for an LLVM intrinsic (whose meaning is known). */
static int lower_external(lowerer *L, LLVMValueRef I, uint32_t d,
                          LLVMValueRef callee) {
  size_t n = 0;
  const char *name = LLVMGetValueName2(callee, &n);
  LLVMTypeRef t = LLVMTypeOf(I);
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (L->strict || !strncmp(name, "llvm.", 5))
    return lw_fail(L, "calls to '%s' are not supported", name);
  if (k != LLVMVoidTypeKind && !libcall_type(t, 0))
    return lw_fail(L,
                   "'%s' is only declared and returns a value aucs cannot "
                   "invent (a pointer or an aggregate)",
                   name);
  uint32_t i = 0;
  while (i < L->externals.n && LLVMGetCalledValue(L->externals.v[i]) != callee)
    i++;
  if (i == L->externals.n)
    VEC_PUSH(L->externals, I);
  if (k != LLVMVoidTypeKind)
    lw_emit(L, (bc_insn){.op = OP_NONDET, .d = d, .x = (uint16_t)lw_width(t)});
  return 0;
}

/* Arguments of call I into the pool: their first index, or -1. */
static int64_t call_args(lowerer *L, LLVMValueRef I, int *bad) {
  unsigned nargs = (unsigned)LLVMGetNumArgOperands(I);
  uint32_t at = L->pool.n;
  for (unsigned i = 0; i < nargs; i++) {
    if (!lw_is_scalar(LLVMTypeOf(LLVMGetOperand(I, i)))) {
      lw_fail(L, "%s", "aggregate call arguments are not supported");
      return -1;
    }
    VEC_PUSH(L->pool, lw_op_slot(L, I, i, bad));
  }
  return at;
}

/* A call through a pointer: which function it reaches is known at run
 * time (a function object, see function_object). */
static int lower_indirect(lowerer *L, LLVMValueRef I, uint32_t d) {
  if (LLVMGetTypeKind(LLVMTypeOf(I)) != LLVMVoidTypeKind &&
      !lw_is_scalar(LLVMTypeOf(I)))
    return lw_fail(L, "%s", "calls returning aggregates are not supported");
  int bad = 0;
  unsigned nargs = (unsigned)LLVMGetNumArgOperands(I);
  uint32_t callee = lw_op_slot(L, I, (unsigned)LLVMGetNumOperands(I) - 1, &bad);
  int64_t at = call_args(L, I, &bad);
  if (at < 0)
    return 1;
  lw_emit(
      L,
      (bc_insn){
          .op = OP_CALLI, .d = d, .a = callee, .b = (uint32_t)at, .c = nargs});
  return bad;
}

int lw_lower_call(lowerer *L, LLVMValueRef I, uint32_t d) {
  LLVMValueRef callee = LLVMGetCalledValue(I);
  if (LLVMIsAInlineAsm(callee))
    return lower_asm(L, I, callee, d);
  if (!LLVMIsAFunction(callee))
    return lower_indirect(L, I, d);
  size_t n = 0;
  const char *name = LLVMGetValueName2(callee, &n);
  int tex = lw_lower_texture(L, I, d, name, n);
  if (tex >= 0)
    return tex;
  const intrin_row *r = find_intrinsic(name);
  if (r)
    return lower_intrinsic(L, I, d, r);
  const aucs_libcall *lc = aucs_libcalls_of(callee);
  if (lc)
    return lower_libcall(L, I, d, lc);
  if (LLVMIsDeclaration(callee))
    return lower_external(L, I, d, callee);
  int bad = 0;
  unsigned nargs = (unsigned)LLVMGetNumArgOperands(I), nslots = 0;
  uint32_t at = L->pool.n;
  /* every leaf of an aggregate or vector argument is one slot */
  for (unsigned i = 0; i < nargs; i++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(I, i));
    unsigned n = lw_leaves(t);
    if (!n)
      return lw_fail(L, "%s", lw_type_problem(t));
    uint32_t s = lw_op_slot(L, I, i, &bad);
    for (unsigned j = 0; j < n; j++)
      VEC_PUSH(L->pool, s + j);
    nslots += n;
  }
  lw_emit(L, (bc_insn){.op = OP_CALL,
                       .d = d,
                       .a = lw_func_index(L, callee),
                       .b = at,
                       .c = nslots});
  return bad;
}
