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
 *   2. The operands are the handle, the coordinates (the first a layer for
 *      layered geometries), and for a surface write the values; anything
 *      after the coordinates of a fetch (a level, gradients) is ignored.
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
#include "texture.def"
};

typedef struct geom {
  const char *token;
  unsigned coords, layered;
} geom;

static const geom geoms[] = {
#define AUCS_TEX_GEOM(t, c, l) {t, c, l},
#include "texture.def"
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

/* Operands first .. first + n - 1 into the pool; their index. */
static uint32_t pool_args(lowerer *L, LLVMValueRef I, unsigned first,
                          unsigned n, int *bad) {
  uint32_t at = L->pool.n;
  for (unsigned i = 0; i < n; i++)
    VEC_PUSH(L->pool, lw_op_slot(L, I, first + i, bad));
  return at;
}

static int lower_fetch(lowerer *L, LLVMValueRef I, uint32_t d,
                       const tex_op *op, const parsed *p) {
  unsigned na = (unsigned)LLVMGetNumArgOperands(I), first = 1 + op->sampler;
  LLVMTypeRef t = LLVMTypeOf(I);
  unsigned nres = lw_leaves(t);
  if (na < first + p->g->coords || nres == 0 || nres > 4)
    return lw_fail(L, "%s", "a texture fetch of this form is not supported");
  LLVMTypeRef lane = LLVMGetTypeKind(t) == LLVMStructTypeKind
                         ? LLVMStructGetTypeAtIndex(t, 0)
                         : lw_lane_type(t);
  uint64_t imm = nres | (LLVMGetTypeKind(lane) == LLVMFloatTypeKind
                             ? (uint64_t)TEX_FLOAT
                             : 0);
  imm |= p->g->layered ? (uint64_t)TEX_LAYERED : 0;
  for (unsigned i = 0; i < p->g->coords; i++) {
    LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(I, first + i)));
    if (k == LLVMFloatTypeKind)
      imm |= UINT64_C(1) << (TEX_FLOAT_COORDS + i);
  }
  int bad = 0;
  bc_insn in = {.op = OP_TEX, .d = d, .c = p->g->coords, .imm = imm};
  in.a = lw_op_slot(L, I, 0, &bad);
  in.b = pool_args(L, I, first, p->g->coords, &bad);
  lw_emit(L, in);
  return bad;
}

static int lower_surface(lowerer *L, LLVMValueRef I, uint32_t d,
                         const tex_op *op, const parsed *p) {
  unsigned na = (unsigned)LLVMGetNumArgOperands(I), nc = p->g->coords;
  unsigned nval = op->kind == STORE ? na - 1 - nc : lw_leaves(LLVMTypeOf(I));
  if (na < 1 + nc || !p->bytes || nval == 0 || nval > 4 ||
      (op->kind == LOAD && na != 1 + nc))
    return lw_fail(L, "%s", "a surface access of this form is not supported");
  add_surfaces(L);
  int bad = 0;
  bc_insn in = {.op = OP_SURF,
                .d = d,
                .x = (uint16_t)p->bytes,
                .c = nc | nval << 8,
                .imm = p->mode};
  in.imm |= op->kind == STORE ? (uint64_t)TEX_STORE : 0;
  in.imm |= p->g->layered ? (uint64_t)TEX_LAYERED : 0;
  in.a = lw_op_slot(L, I, 0, &bad);
  in.b = pool_args(L, I, 1, op->kind == STORE ? na - 1 : nc, &bad);
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
  return op->kind == FETCH ? lower_fetch(L, I, d, op, &p)
                           : lower_surface(L, I, d, op, &p);
}

/* The headers whose helpers wrap the fetches: a finding names their caller. */
static const char *const headers[] = {
    "__clang_cuda_texture_intrinsics.h", "texture_indirect_functions.h",
    "surface_indirect_functions.h",      "texture_fetch_functions.h",
    "surface_functions.h",               "aucs_texture.h"};

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
