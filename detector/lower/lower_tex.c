/*
 * lower_tex: texture fetches and surface accesses, to bytecode (TEX, SURF;
 * interp_tex.c runs them).
 *
 * Steps:
 *   1. The callee's name, or the first word of an inline asm text (the CUDA
 *      SDK headers fetch through `tex.2d.v4.f32.f32 {..}, [h, {x, y}]`
 *      asm; clang's own headers and older bitcode through
 *      llvm.nvvm.tex.unified.*), is matched against texture.def, then
 *      split at the dots: a geometry token gives the coordinate count, a
 *      `clamp` / `zero` token the surface boundary mode (else trap), a
 *      `b32` / `i8` / `v4i16` token the surface element size.
 *   2. The operands, in PTX order, are the handle, the coordinates (the
 *      first a layer for layered geometries), and for a surface write the
 *      values: an intrinsic's in argument order, an asm's in the order its
 *      text names them (`[$4, {$7, $5, $6, $6}]`: the SDK passes a layer
 *      last). Anything after the coordinates of a fetch (a level,
 *      gradients) is ignored.
 *   3. The first surface operation creates the surface objects: one per
 *      kernel parameter (a handle equal to the parameter's value is that
 *      surface) and one for any other handle.
 *
 * Limitation: queries (txq, suq) and the sampler-less `tex.base` forms are
 * not recognised; they stay unsupported by name.
 */
#include "lower_impl.h"

#include <ctype.h>
#include <llvm-c/DebugInfo.h>

enum { FETCH, LOAD, STORE, HANDLE };

typedef struct tex_op {
  const char *prefix;
  int kind, sampler;
} tex_op;

static const tex_op ops[] = {
#define AUCS_TEX_OP(p, k, s) {p, k, s},
#include "aucs/texture.def"
};

typedef struct geom {
  const char *token;
  unsigned coords, layered;
} geom;

static const geom geoms[] = {
#define AUCS_TEX_GEOM(t, c, l) {t, c, l},
#include "aucs/texture.def"
};

/* What the dotted name says beyond its operation. */
typedef struct parsed {
  const geom *g;
  unsigned bytes; /* surface element size, 0 unknown */
  uint64_t mode;  /* TEX_CLAMP, TEX_ZERO or 0 (trap) */
} parsed;

static const tex_op *find_op(const char *name, size_t n) {
  for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
    size_t k = strlen(ops[i].prefix);
    if (k <= n && !memcmp(name, ops[i].prefix, k))
      return &ops[i];
  }
  return NULL;
}

/* An element-size token: b32, i8, v4i16, v2.b32 is two tokens. */
static unsigned token_bytes(const char *t, size_t n) {
  if (n >= 2 && t[0] == 'v' && isdigit((unsigned char)t[1]))
    t += 2, n -= 2;
  if (n < 2 || (t[0] != 'b' && t[0] != 'i') || !isdigit((unsigned char)t[1]))
    return 0;
  unsigned bits = (unsigned)atoi(t + 1);
  return bits % 8 || bits > 64 ? 0 : bits / 8;
}

static void parse_token(parsed *p, const char *t, size_t n) {
  for (size_t i = 0; i < sizeof geoms / sizeof *geoms; i++)
    if (strlen(geoms[i].token) == n && !memcmp(t, geoms[i].token, n))
      p->g = &geoms[i];
  if (n == 5 && !memcmp(t, "clamp", 5))
    p->mode = TEX_CLAMP;
  if (n == 4 && !memcmp(t, "zero", 4))
    p->mode = TEX_ZERO;
  if (token_bytes(t, n))
    p->bytes = token_bytes(t, n);
}

/* Tokens of name[0..n) up to the first blank. */
static parsed parse(const char *name, size_t n) {
  parsed p = {0};
  size_t i = 0;
  while (i < n && !isspace((unsigned char)name[i])) {
    size_t j = i;
    while (j < n && name[j] != '.' && !isspace((unsigned char)name[j]))
      j++;
    parse_token(&p, name + i, j - i);
    i = j < n && name[j] == '.' ? j + 1 : j;
  }
  return p;
}

/* The surface objects, made at the first surface operation. */
static void add_surfaces(lowerer *L) {
  if (L->surf0)
    return;
  const aucs_inputs *in = L->inputs;
  size_t np = in ? in->nparams : 0;
  for (size_t i = 0; i <= np; i++) {
    uint32_t id = lw_add_object(
        L, (bc_object){.name = i < np ? in->param_names[i] : "surface",
                       .space = AUCS_MEM_GLOBAL,
                       .sparse = 1,
                       .surface = 1});
    if (!i)
      L->surf0 = id;
  }
}

/* The call's operands in PTX order: the handle, the coordinates (a layer
 * first), then a write's values; n of them. */
typedef struct operands {
  unsigned ix[16], n, coords;
} operands;

/* An intrinsic's: in order, after the sampler when it has one. */
static void intrinsic_operands(LLVMValueRef I, const tex_op *op, operands *o) {
  unsigned na = (unsigned)LLVMGetNumArgOperands(I);
  o->n = 0;
  for (unsigned i = 0; i < na && o->n < 16; i++)
    if (i != 1 || !op->sampler)
      o->ix[o->n++] = i;
}

/* The "$N" numbers of text from *at up to stop, as argument indices (N
 * minus the outputs); *at moves past them. */
static void asm_numbers(const char *text, size_t len, size_t *at, char stop,
                        unsigned outs, operands *o, unsigned max) {
  unsigned got = 0;
  for (; *at < len && text[*at] != stop; ++*at) {
    if (text[*at] != '$' || !isdigit((unsigned char)text[*at + 1]))
      continue;
    unsigned v = (unsigned)atoi(text + *at + 1);
    if (got++ < max && o->n < 16 && v >= outs)
      o->ix[o->n++] = v - outs;
  }
}

/* Inline asm's, from its text: `[$h, {$x, $y}]` then, for a write,
 * `{$v, ...}` (the SDK's headers put a layer's operand last among the
 * arguments and first in the coordinates). */
static void asm_operands(LLVMValueRef I, const char *text, size_t len,
                         const parsed *p, operands *o) {
  size_t cn = 0;
  const char *cons =
      LLVMGetInlineAsmConstraintString(LLVMGetCalledValue(I), &cn);
  unsigned outs = 0;
  for (size_t i = 0; i < cn; i++)
    outs += cons[i] == '=' && (i == 0 || cons[i - 1] == ',');
  size_t at = 0;
  o->n = 0;
  while (at < len && text[at] != '[')
    at++;
  asm_numbers(text, len, &at, '{', outs, o, 1);
  asm_numbers(text, len, &at, '}', outs, o, p->g->coords);
  while (at < len && text[at] != ']')
    at++;
  asm_numbers(text, len, &at, '}', outs, o, 16);
}

/* Operands ix[first .. first + n - 1] into the pool; their index. */
static uint32_t pool_args(lowerer *L, LLVMValueRef I, const operands *o,
                          unsigned first, unsigned n, int *bad) {
  uint32_t at = L->pool.n;
  for (unsigned i = 0; i < n; i++)
    VEC_PUSH(L->pool, lw_op_slot(L, I, o->ix[first + i], bad));
  return at;
}

static int lower_fetch(lowerer *L, LLVMValueRef I, uint32_t d, const parsed *p,
                       const operands *o) {
  LLVMTypeRef t = LLVMTypeOf(I);
  unsigned nres = lw_leaves(t);
  if (o->n < 1 + p->g->coords || nres == 0 || nres > 4)
    return lw_fail(L, "%s", "a texture fetch of this form is not supported");
  LLVMTypeRef lane = LLVMGetTypeKind(t) == LLVMStructTypeKind
                         ? LLVMStructGetTypeAtIndex(t, 0)
                         : lw_lane_type(t);
  uint64_t imm =
      nres |
      (LLVMGetTypeKind(lane) == LLVMFloatTypeKind ? (uint64_t)TEX_FLOAT : 0);
  imm |= p->g->layered ? (uint64_t)TEX_LAYERED : 0;
  for (unsigned i = 0; i < p->g->coords; i++) {
    LLVMValueRef c = LLVMGetOperand(I, o->ix[1 + i]);
    if (LLVMGetTypeKind(LLVMTypeOf(c)) == LLVMFloatTypeKind)
      imm |= UINT64_C(1) << (TEX_FLOAT_COORDS + i);
  }
  int bad = 0;
  bc_insn in = {.op = OP_TEX, .d = d, .c = p->g->coords, .imm = imm};
  in.a = lw_op_slot(L, I, o->ix[0], &bad);
  in.b = pool_args(L, I, o, 1, p->g->coords, &bad);
  lw_emit(L, in);
  return bad;
}

static int lower_surface(lowerer *L, LLVMValueRef I, uint32_t d,
                         const tex_op *op, const parsed *p, const operands *o) {
  unsigned nc = p->g->coords, store = op->kind == STORE;
  unsigned nval = store ? o->n - 1 - nc : lw_leaves(LLVMTypeOf(I));
  if (o->n < 1 + nc || !p->bytes || nval == 0 || nval > 4 ||
      (!store && o->n != 1 + nc))
    return lw_fail(L, "%s", "a surface access of this form is not supported");
  add_surfaces(L);
  int bad = 0;
  bc_insn in = {.op = OP_SURF,
                .d = d,
                .x = (uint16_t)p->bytes,
                .c = nc | nval << 8,
                .imm = p->mode};
  in.imm |= store ? (uint64_t)TEX_STORE : 0;
  in.imm |= p->g->layered ? (uint64_t)TEX_LAYERED : 0;
  in.a = lw_op_slot(L, I, o->ix[0], &bad);
  in.b = pool_args(L, I, o, 1, store ? o->n - 1 : nc, &bad);
  lw_emit(L, in);
  return bad;
}

int lw_lower_texture(lowerer *L, LLVMValueRef I, uint32_t d, const char *name,
                     size_t n) {
  const tex_op *op = find_op(name, n);
  if (!op)
    return -1;
  if (op->kind == HANDLE) {
    int bad = 0;
    lw_emit_mov(L, d, lw_op_slot(L, I, 0, &bad), 1);
    return bad;
  }
  parsed p = parse(name + strlen(op->prefix), n - strlen(op->prefix));
  if (!p.g)
    return lw_fail(L, "%s", "a texture or surface geometry is not supported");
  operands o;
  if (LLVMIsAInlineAsm(LLVMGetCalledValue(I)))
    asm_operands(I, name, n, &p, &o);
  else
    intrinsic_operands(I, op, &o);
  for (unsigned i = 0; i < o.n; i++)
    if (o.ix[i] >= (unsigned)LLVMGetNumArgOperands(I))
      return lw_fail(L, "%s", "a texture or surface operand is missing");
  return op->kind == FETCH ? lower_fetch(L, I, d, &p, &o)
                           : lower_surface(L, I, d, op, &p, &o);
}

/* The headers whose helpers wrap the fetches: a finding names their caller. */
static const char *const headers[] = {"__clang_cuda_texture_intrinsics.h",
                                      "texture_indirect_functions.h",
                                      "surface_indirect_functions.h",
                                      "texture_fetch_functions.h",
                                      "surface_functions.h",
                                      "aucs_texture.h"};

int lw_texture_header(LLVMValueRef fn) {
  LLVMMetadataRef sp = fn ? LLVMGetSubprogram(fn) : NULL;
  LLVMMetadataRef file = sp ? LLVMDIScopeGetFile(sp) : NULL;
  unsigned n = 0;
  const char *name = file ? LLVMDIFileGetFilename(file, &n) : NULL;
  for (size_t i = 0; name && i < sizeof headers / sizeof *headers; i++) {
    size_t k = strlen(headers[i]);
    if (n >= k && !memcmp(name + n - k, headers[i], k))
      return 1;
  }
  return 0;
}
