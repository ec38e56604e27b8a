/*
 * uf: uninterpreted functions for the static encoding (aucs/uf.h).
 *
 * Steps:
 *   1. aucs_uf_name classifies a value: a call of a pure libcalls.def row
 *      (aucs_libcalls_of, the interpreter's lowering's rule: __nv_* and
 *      llvm.* even when defined, plain C names and their mangled forward
 *      declarations only when declared), a call of one of the pure LLVM
 *      intrinsics below, or a floating-point instruction; its name is the
 *      row's (`_ZL5roundf` is roundf), the intrinsic's, or the opcode's
 *      (with the predicate for fcmp).
 *   2. aucs_uf_apply declares name : sorts of the arguments -> range and
 *      applies it; Z3 returns one declaration for one name and signature,
 *      so equal arguments give one term.
 *
 * Limitation: nothing is known about the functions beyond determinism:
 * not even fabs(x) >= 0 or that fadd commutes; a proof that would need
 * such a fact stays SAT (the dynamic result decides).
 */
#include "aucs/uf.h"

#include "aucs/libcalls.h"
#include <stdio.h>
#include <string.h>

/* LLVM intrinsics whose value is a function of their arguments alone and
 * that the encoding does not model otherwise (prefixes of their names). */
static const char *const pure_intrinsics[] = {
    "llvm.fabs.",       "llvm.nvvm.fabs.",  "llvm.fma.",
    "llvm.fmuladd.",    "llvm.minnum.",     "llvm.maxnum.",
    "llvm.minimum.",    "llvm.maximum.",    "llvm.minimumnum.",
    "llvm.maximumnum.", "llvm.copysign.",   "llvm.ctpop.",
    "llvm.ctlz.",       "llvm.cttz.",       "llvm.abs.",
    "llvm.bitreverse.", "llvm.bswap.",      "llvm.fshl.",
    "llvm.fshr.",       "llvm.is.fpclass.", "llvm.lround.",
    "llvm.llround.",    "llvm.lrint.",      "llvm.llrint.",
    "llvm.uadd.sat.",   "llvm.sadd.sat.",   "llvm.usub.sat.",
    "llvm.ssub.sat.",
};

static int pure_intrinsic(const char *name) {
  for (size_t i = 0; i < sizeof pure_intrinsics / sizeof *pure_intrinsics; i++)
    if (!strncmp(name, pure_intrinsics[i], strlen(pure_intrinsics[i])))
      return 1;
  return 0;
}

static const char *call_name(LLVMValueRef v) {
  LLVMValueRef callee = LLVMGetCalledValue(v);
  if (!callee || !LLVMIsAFunction(callee) ||
      LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVoidTypeKind)
    return NULL;
  size_t len;
  const char *name = LLVMGetValueName2(callee, &len);
  if (pure_intrinsic(name))
    return name;
  const aucs_libcall *lc = aucs_libcalls_of(callee);
  return lc && lc->pure ? lc->name : NULL;
}

static const char *opcode_name(LLVMOpcode op) {
  switch (op) {
  case LLVMFAdd:
    return "fadd";
  case LLVMFSub:
    return "fsub";
  case LLVMFMul:
    return "fmul";
  case LLVMFDiv:
    return "fdiv";
  case LLVMFRem:
    return "frem";
  case LLVMFNeg:
    return "fneg";
  case LLVMFPToSI:
    return "fptosi";
  case LLVMFPToUI:
    return "fptoui";
  case LLVMSIToFP:
    return "sitofp";
  case LLVMUIToFP:
    return "uitofp";
  case LLVMFPTrunc:
    return "fptrunc";
  case LLVMFPExt:
    return "fpext";
  default:
    return NULL;
  }
}

const char *aucs_uf_name(LLVMValueRef v, char *buf, size_t n) {
  if (!LLVMIsAInstruction(v))
    return NULL;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  const char *name = op == LLVMCall ? call_name(v) : opcode_name(op);
  if (op == LLVMFCmp) {
    snprintf(buf, n, "fcmp.%d", (int)LLVMGetFCmpPredicate(v));
    return buf;
  }
  if (!name)
    return NULL;
  snprintf(buf, n, "%s", name);
  return buf;
}

unsigned aucs_uf_arity(LLVMValueRef v) {
  return LLVMIsACallInst(v) ? (unsigned)LLVMGetNumArgOperands(v)
                            : (unsigned)LLVMGetNumOperands(v);
}

Z3_ast aucs_uf_apply(Z3_context z, const char *name, unsigned n,
                     const Z3_ast *args, Z3_sort range) {
  Z3_sort dom[8];
  if (n > sizeof dom / sizeof *dom)
    return NULL;
  for (unsigned i = 0; i < n; i++)
    dom[i] = Z3_get_sort(z, args[i]);
  Z3_func_decl f =
      Z3_mk_func_decl(z, Z3_mk_string_symbol(z, name), n, dom, range);
  return Z3_mk_app(z, f, n, args);
}

unsigned aucs_uf_float_width(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMFloatTypeKind:
    return 32;
  case LLVMDoubleTypeKind:
    return 64;
  default:
    return 0;
  }
}

Z3_ast aucs_uf_constant(Z3_context z, LLVMValueRef v) {
  unsigned w = aucs_uf_float_width(LLVMTypeOf(v));
  if (!w || !LLVMIsAConstantFP(v))
    return NULL;
  LLVMBool loses = 0;
  double d = LLVMConstRealGetDouble(v, &loses);
  uint64_t bits = 0;
  if (w == 32) {
    float f = (float)d;
    uint32_t b;
    memcpy(&b, &f, 4);
    bits = b;
  } else {
    memcpy(&bits, &d, 8);
  }
  return Z3_mk_unsigned_int64(z, bits, Z3_mk_bv_sort(z, w));
}

/* ---- textures and surfaces ---- */

enum { FETCH = AUCS_UF_TEX_FETCH, LOAD, STORE, HANDLE };

static const struct {
  const char *prefix;
  int kind;
} tex_ops[] = {
#define AUCS_TEX_OP(p, k, s) {p, k},
#include "aucs/texture.def"
};

/* The callee's name or the asm text of call I, its length in *n. */
static const char *callee_text(LLVMValueRef I, size_t *n) {
  if (!LLVMIsACallInst(I))
    return NULL;
  LLVMValueRef c = LLVMGetCalledValue(I);
  if (c && LLVMIsAInlineAsm(c))
    return LLVMGetInlineAsmAsmString(c, n);
  return c && LLVMIsAFunction(c) ? LLVMGetValueName2(c, n) : NULL;
}

aucs_uf_texture aucs_uf_texture_kind(LLVMValueRef I) {
  size_t n = 0;
  const char *t = callee_text(I, &n);
  for (size_t i = 0; t && i < sizeof tex_ops / sizeof *tex_ops; i++) {
    size_t k = strlen(tex_ops[i].prefix);
    if (k <= n && !memcmp(t, tex_ops[i].prefix, k))
      return tex_ops[i].kind == HANDLE ? AUCS_UF_NOT_TEXTURE
                                       : (aucs_uf_texture)tex_ops[i].kind;
  }
  return AUCS_UF_NOT_TEXTURE;
}

const char *aucs_uf_texel_name(LLVMValueRef I, unsigned k, char *buf,
                               size_t n) {
  if (aucs_uf_texture_kind(I) != AUCS_UF_TEX_FETCH)
    return NULL;
  size_t len = 0;
  const char *t = callee_text(I, &len);
  size_t w = 0;
  while (w < len && t[w] != ' ' && t[w] != '\t')
    w++;
  snprintf(buf, n, "texel.%.*s#%u", (int)w, t, k);
  return buf;
}
