/*
 * static: step 4 - values, multiples, phis and guards as Z3 terms
 * over two symbolic threads
 * (the algorithm is in static.c, the shared types in static_impl.h).
 */
#include "static_impl.h"

/* ---- symbols and launch bounds ------------------------------------------*/

Z3_ast st_bv(Z3_context z, uint64_t v, unsigned w) {
  return Z3_mk_unsigned_int64(z, v, Z3_mk_bv_sort(z, w));
}

static Z3_ast sym(Z3_context z, const char *name, unsigned w) {
  Z3_sort s = w ? Z3_mk_bv_sort(z, w) : Z3_mk_bool_sort(z);
  return Z3_mk_const(z, Z3_mk_string_symbol(z, name), s);
}

void st_push_ast(Z3_ast **v, size_t *n, Z3_ast t) {
  *v = aucs_xrealloc(*v, (*n + 1) * sizeof **v);
  (*v)[(*n)++] = t;
}

static void in_range(aucs_static *S, Z3_ast x, uint64_t lo, uint64_t hi) {
  st_push_ast(&S->launch, &S->nlaunch,
              Z3_mk_bvuge(S->z, x, st_bv(S->z, lo, 32)));
  st_push_ast(&S->launch, &S->nlaunch,
              Z3_mk_bvule(S->z, x, st_bv(S->z, hi, 32)));
}

Z3_ast st_product(Z3_context z, Z3_ast *d) {
  return Z3_mk_bvmul(z, Z3_mk_bvmul(z, d[0], d[1]), d[2]);
}

void st_make_symbols(aucs_static *S) {
  static const char xyz[] = "xyz";
  static const uint64_t block_max[3] = {1024, 1024, 64};
  static const uint64_t grid_max[3] = {2147483647u, 65535, 65535};
  const aucs_launch *l = &S->o.launch;
  uint32_t g[3] = {l->grid.x, l->grid.y, l->grid.z};
  uint32_t b[3] = {l->block.x, l->block.y, l->block.z};
  char name[32];
  for (int d = 0; d < 3; d++) {
    /* a fixed launch is constants: thread_rank()'s products turn linear */
    snprintf(name, sizeof name, "ntid.%c", xyz[d]);
    S->ntid[d] = S->o.fixed_block ? st_bv(S->z, b[d], 32) : sym(S->z, name, 32);
    snprintf(name, sizeof name, "nctaid.%c", xyz[d]);
    S->nctaid[d] =
        S->o.fixed_grid ? st_bv(S->z, g[d], 32) : sym(S->z, name, 32);
    in_range(S, S->ntid[d], 1, block_max[d]);
    in_range(S, S->nctaid[d], 1, grid_max[d]);
    for (int t = 0; t < 2; t++) {
      snprintf(name, sizeof name, "tid.%c!%d", xyz[d], t + 1);
      S->tid[t][d] = sym(S->z, name, 32);
      snprintf(name, sizeof name, "ctaid.%c!%d", xyz[d], t + 1);
      S->ctaid[t][d] = sym(S->z, name, 32);
      st_push_ast(&S->launch, &S->nlaunch,
                  Z3_mk_bvult(S->z, S->tid[t][d], S->ntid[d]));
      st_push_ast(&S->launch, &S->nlaunch,
                  Z3_mk_bvult(S->z, S->ctaid[t][d], S->nctaid[d]));
    }
  }
  st_push_ast(
      &S->launch, &S->nlaunch,
      Z3_mk_bvule(S->z, st_product(S->z, S->ntid), st_bv(S->z, 1024, 32)));
  S->nparams = LLVMCountParams(S->fn);
  S->params = aucs_xcalloc(S->nparams + 1, sizeof *S->params);
  for (unsigned i = 0; i < S->nparams; i++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(S->fn, i));
    snprintf(name, sizeof name, "arg%u", i);
    if (LLVMGetTypeKind(t) == LLVMIntegerTypeKind)
      S->params[i] = sym(
          S->z, name, LLVMGetIntTypeWidth(t) == 1 ? 0 : LLVMGetIntTypeWidth(t));
    else if (LLVMGetTypeKind(t) == LLVMPointerTypeKind)
      S->params[i] = sym(S->z, name, 64);
    else if (aucs_uf_float_width(t))
      S->params[i] = sym(S->z, name, aucs_uf_float_width(t));
  }
}

/* A dimension the kernel never reads is 1, as in the input search. */
void st_unread_dims(aucs_static *S) {
  unsigned block, grid;
  aucs_nvvm_dims_read(S->fn, &block, &grid);
  for (int d = 1; d < 3; d++) {
    if (!(block & (1u << d)))
      st_push_ast(&S->launch, &S->nlaunch,
                  Z3_mk_eq(S->z, S->ntid[d], st_bv(S->z, 1, 32)));
    if (!(grid & (1u << d)))
      st_push_ast(&S->launch, &S->nlaunch,
                  Z3_mk_eq(S->z, S->nctaid[d], st_bv(S->z, 1, 32)));
  }
}

/* The user's fixed launch and arguments, and the host's bounds. */
void st_fix_inputs(aucs_static *S) {
  const aucs_static_options *o = &S->o;
  Z3_context z = S->z;
  uint32_t g[3] = {o->launch.grid.x, o->launch.grid.y, o->launch.grid.z};
  uint32_t b[3] = {o->launch.block.x, o->launch.block.y, o->launch.block.z};
  for (int d = 0; d < 3; d++) {
    if (o->fixed_grid)
      st_push_ast(&S->launch, &S->nlaunch,
                  Z3_mk_eq(z, S->nctaid[d], st_bv(z, g[d], 32)));
    if (o->fixed_block)
      st_push_ast(&S->launch, &S->nlaunch,
                  Z3_mk_eq(z, S->ntid[d], st_bv(z, b[d], 32)));
  }
  for (unsigned i = 0; o->fixed_arg && i < S->nparams; i++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(S->fn, i));
    if (!o->fixed_arg[i] || LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
      continue;
    unsigned w = LLVMGetIntTypeWidth(t);
    Z3_ast v = w == 1    ? (o->args[i] & 1 ? Z3_mk_true(z) : Z3_mk_false(z))
               : w <= 64 ? st_bv(z, o->args[i], w)
                         : NULL;
    if (v)
      st_push_ast(&S->launch, &S->nlaunch, Z3_mk_eq(z, S->params[i], v));
  }
  for (unsigned i = 0; o->ranged_arg && i < S->nparams; i++) {
    LLVMTypeRef t = LLVMTypeOf(LLVMGetParam(S->fn, i));
    if (!o->ranged_arg[i] || (o->fixed_arg && o->fixed_arg[i]) ||
        LLVMGetTypeKind(t) != LLVMIntegerTypeKind ||
        LLVMGetIntTypeWidth(t) < 2 || LLVMGetIntTypeWidth(t) > 64)
      continue;
    unsigned w = LLVMGetIntTypeWidth(t);
    st_push_ast(&S->launch, &S->nlaunch,
                Z3_mk_bvule(z, st_bv(z, o->arg_lo[i], w), S->params[i]));
    st_push_ast(&S->launch, &S->nlaunch,
                Z3_mk_bvule(z, S->params[i], st_bv(z, o->arg_hi[i], w)));
  }
}

/* ---- step 4: values -----------------------------------------------------*/

static Z3_ast ec(enc *e, frame *f, int b);

static Z3_sort sort_of(Z3_context z, LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) == LLVMPointerTypeKind)
    return Z3_mk_bv_sort(z, 64);
  if (aucs_uf_float_width(t)) /* a float's IEEE bits (uf.h) */
    return Z3_mk_bv_sort(z, aucs_uf_float_width(t));
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
    return NULL;
  unsigned w = LLVMGetIntTypeWidth(t);
  return w == 1 ? Z3_mk_bool_sort(z) : Z3_mk_bv_sort(z, w);
}

static Z3_ast fresh(enc *e, LLVMTypeRef t) {
  Z3_sort s = sort_of(e->z, t);
  return s ? Z3_mk_fresh_const(e->z, e->side ? "v2" : "v1", s) : NULL;
}

int st_is_bool(Z3_context z, Z3_ast t) {
  return Z3_get_sort_kind(z, Z3_get_sort(z, t)) == Z3_BOOL_SORT;
}

static unsigned width(Z3_context z, Z3_ast t) {
  return Z3_get_bv_sort_size(z, Z3_get_sort(z, t));
}

/* t as a w-bit vector: Booleans become 0/1 (-1/0 when sign), narrower
 * vectors are extended, wider ones truncated. */
static Z3_ast resize(Z3_context z, Z3_ast t, unsigned w, int sign) {
  if (st_is_bool(z, t))
    return Z3_mk_ite(z, t, st_bv(z, sign ? ~0ull : 1, w), st_bv(z, 0, w));
  unsigned cur = width(z, t);
  if (cur == w)
    return t;
  if (cur > w)
    return Z3_mk_extract(z, w - 1, 0, t);
  return sign ? Z3_mk_sign_ext(z, w - cur, t) : Z3_mk_zero_ext(z, w - cur, t);
}

Z3_ast st_and2(Z3_context z, Z3_ast a, Z3_ast b) {
  Z3_ast v[2] = {a, b};
  return Z3_mk_and(z, 2, v);
}

Z3_ast st_or2(Z3_context z, Z3_ast a, Z3_ast b) {
  Z3_ast v[2] = {a, b};
  return Z3_mk_or(z, 2, v);
}

static Z3_ast binop_bool(Z3_context z, LLVMOpcode op, Z3_ast a, Z3_ast b) {
  switch (op) {
  case LLVMAnd:
  case LLVMMul:
    return st_and2(z, a, b);
  case LLVMOr:
    return st_or2(z, a, b);
  case LLVMXor:
  case LLVMAdd:
  case LLVMSub:
    return Z3_mk_xor(z, a, b);
  default:
    return NULL;
  }
}

static Z3_ast binop(Z3_context z, LLVMOpcode op, Z3_ast a, Z3_ast b) {
  if (st_is_bool(z, a))
    return binop_bool(z, op, a, b);
  switch (op) {
  case LLVMAdd:
    return Z3_mk_bvadd(z, a, b);
  case LLVMSub:
    return Z3_mk_bvsub(z, a, b);
  case LLVMMul:
    return aucs_smt_mul(z, a, b); /* blockIdx * blockDim: one term either way */
  case LLVMUDiv:
    return Z3_mk_bvudiv(z, a, b);
  case LLVMSDiv:
    return Z3_mk_bvsdiv(z, a, b);
  case LLVMURem:
    return Z3_mk_bvurem(z, a, b);
  case LLVMSRem:
    return Z3_mk_bvsrem(z, a, b);
  case LLVMShl:
    return Z3_mk_bvshl(z, a, b);
  case LLVMLShr:
    return Z3_mk_bvlshr(z, a, b);
  case LLVMAShr:
    return Z3_mk_bvashr(z, a, b);
  case LLVMAnd:
    return Z3_mk_bvand(z, a, b);
  case LLVMOr:
    return Z3_mk_bvor(z, a, b);
  case LLVMXor:
    return Z3_mk_bvxor(z, a, b);
  default:
    return NULL;
  }
}

static Z3_ast compare(Z3_context z, LLVMIntPredicate p, Z3_ast a, Z3_ast b) {
  a = st_is_bool(z, a) ? resize(z, a, 1, 0) : a;
  b = st_is_bool(z, b) ? resize(z, b, 1, 0) : b;
  switch (p) {
  case LLVMIntEQ:
    return Z3_mk_eq(z, a, b);
  case LLVMIntNE:
    return Z3_mk_not(z, Z3_mk_eq(z, a, b));
  case LLVMIntUGT:
    return Z3_mk_bvugt(z, a, b);
  case LLVMIntUGE:
    return Z3_mk_bvuge(z, a, b);
  case LLVMIntULT:
    return Z3_mk_bvult(z, a, b);
  case LLVMIntULE:
    return Z3_mk_bvule(z, a, b);
  case LLVMIntSGT:
    return Z3_mk_bvsgt(z, a, b);
  case LLVMIntSGE:
    return Z3_mk_bvsge(z, a, b);
  case LLVMIntSLT:
    return Z3_mk_bvslt(z, a, b);
  default:
    return Z3_mk_bvsle(z, a, b);
  }
}

static Z3_ast gep(enc *e, frame *f, LLVMValueRef v) {
  Z3_context z = e->z;
  Z3_ast addr = st_val(e, f, LLVMGetOperand(v, 0));
  LLVMTypeRef t = LLVMGetGEPSourceElementType(v);
  int n = LLVMGetNumOperands(v);
  for (int i = 1; addr && i < n; i++) {
    LLVMValueRef ix = LLVMGetOperand(v, (unsigned)i);
    if (LLVMGetTypeKind(LLVMTypeOf(ix)) != LLVMIntegerTypeKind)
      return NULL;
    if (i > 1 && LLVMGetTypeKind(t) == LLVMStructTypeKind) {
      unsigned k = (unsigned)LLVMConstIntGetZExtValue(ix);
      addr = Z3_mk_bvadd(z, addr,
                         st_bv(z, LLVMOffsetOfElement(e->S->td, t, k), 64));
      t = LLVMStructGetTypeAtIndex(t, k);
      continue;
    }
    if (i > 1) {
      LLVMTypeKind k = LLVMGetTypeKind(t);
      if (k != LLVMArrayTypeKind && k != LLVMVectorTypeKind)
        return NULL;
      t = LLVMGetElementType(t);
    }
    Z3_ast x = st_val(e, f, ix);
    if (!x || !LLVMTypeIsSized(t))
      return NULL;
    Z3_ast scaled = Z3_mk_bvmul(z, resize(z, x, 64, 1),
                                st_bv(z, LLVMABISizeOfType(e->S->td, t), 64));
    addr = Z3_mk_bvadd(z, addr, scaled);
  }
  return addr;
}

static Z3_ast cast(enc *e, frame *f, LLVMValueRef v, LLVMOpcode op) {
  Z3_context z = e->z;
  Z3_ast x = st_val(e, f, LLVMGetOperand(v, 0));
  Z3_sort s = sort_of(z, LLVMTypeOf(v));
  if (!x || !s)
    return NULL;
  int to_bool = Z3_get_sort_kind(z, s) == Z3_BOOL_SORT;
  switch (op) {
  case LLVMZExt:
  case LLVMSExt:
  case LLVMPtrToInt:
  case LLVMIntToPtr:
  case LLVMTrunc:
    if (to_bool)
      return st_is_bool(z, x)
                 ? x
                 : Z3_mk_eq(z, Z3_mk_extract(z, 0, 0, x), st_bv(z, 1, 1));
    return resize(z, x, Z3_get_bv_sort_size(z, s), op == LLVMSExt);
  default: /* bitcast, addrspacecast, freeze */
    return Z3_get_sort(z, x) == s ? x : NULL;
  }
}

static Z3_ast minmax(enc *e, frame *f, LLVMValueRef v, const char *name) {
  Z3_context z = e->z;
  Z3_ast a = st_val(e, f, LLVMGetOperand(v, 0));
  Z3_ast b = st_val(e, f, LLVMGetOperand(v, 1));
  if (!a || !b || st_is_bool(z, a))
    return NULL;
  const char *k = name + strlen("llvm.");
  Z3_ast lt = k[0] == 'u' ? Z3_mk_bvult(z, a, b) : Z3_mk_bvslt(z, a, b);
  return !strncmp(k + 1, "min.", 4) ? Z3_mk_ite(z, lt, a, b)
                                    : Z3_mk_ite(z, lt, b, a);
}

/* The thread's linear index in its block: x + ntid.x * (y + ntid.y * z).
 * A warp is 32 threads of consecutive linear indices. */
Z3_ast st_linear_tid(const aucs_static *S, int side) {
  Z3_context z = S->z;
  const Z3_ast *t = S->tid[side], *n = S->ntid;
  Z3_ast yz = Z3_mk_bvadd(z, t[1], Z3_mk_bvmul(z, n[1], t[2]));
  return Z3_mk_bvadd(z, t[0], Z3_mk_bvmul(z, n[0], yz));
}

/* %laneid: the linear index modulo 32. */
static Z3_ast lane_id(enc *e) {
  return Z3_mk_bvand(e->z, st_linear_tid(e->S, e->side), st_bv(e->z, 31, 32));
}

static Z3_ast sreg(enc *e, LLVMValueRef v, const char *name) {
  static const char *const regs[] = {"tid.", "ctaid.", "ntid.", "nctaid."};
  const char *r = name + strlen("llvm.nvvm.read.ptx.sreg.");
  Z3_sort s = sort_of(e->z, LLVMTypeOf(v));
  if (!strcmp(r, "laneid") && s && Z3_get_sort_kind(e->z, s) == Z3_BV_SORT)
    return resize(e->z, lane_id(e), Z3_get_bv_sort_size(e->z, s), 0);
  for (int k = 0; k < 4; k++) {
    size_t n = strlen(regs[k]);
    if (strncmp(r, regs[k], n) || !r[n] || r[n + 1] || r[n] < 'x')
      continue;
    int d = r[n] - 'x';
    Z3_ast t = k == 0   ? e->S->tid[e->side][d]
               : k == 1 ? e->S->ctaid[e->block][d]
               : k == 2 ? e->S->ntid[d]
                        : e->S->nctaid[d];
    return s && Z3_get_sort_kind(e->z, s) == Z3_BV_SORT
               ? resize(e->z, t, Z3_get_bv_sort_size(e->z, s), 0)
               : NULL;
  }
  return NULL;
}

/* A field of the dim3 that the CUDA headers' `operator dim3()` of
 * threadIdx, blockIdx, blockDim or gridDim returns (what cooperative
 * groups' thread_rank() and size() read at -O0): that special register.
 * NULL for any other extractvalue. */
static Z3_ast builtin_dim3(enc *e, LLVMValueRef v) {
  static const char *const types[] = {"__cuda_builtin_threadIdx_t",
                                      "__cuda_builtin_blockIdx_t",
                                      "__cuda_builtin_blockDim_t",
                                      "__cuda_builtin_gridDim_t"};
  static const char *const regs[] = {"tid.", "ctaid.", "ntid.", "nctaid."};
  LLVMValueRef call = LLVMGetOperand(v, 0);
  const char *name = LLVMIsACallInst(call) ? st_callee_name(call) : NULL;
  if (!name || !strstr(name, "cv4dim3Ev") || LLVMGetNumIndices(v) != 1 ||
      LLVMGetIndices(v)[0] > 2)
    return NULL;
  for (int k = 0; k < 4; k++)
    if (strstr(name, types[k])) {
      char reg[48];
      snprintf(reg, sizeof reg, "llvm.nvvm.read.ptx.sreg.%s%c", regs[k],
               'x' + (int)LLVMGetIndices(v)[0]);
      return sreg(e, v, reg);
    }
  return NULL;
}

/* What a helper's call returns: the value of its one reachable `ret`, in
 * the call's frame. NULL when the call has no frame (too deep, recursive)
 * or the helper returns in more than one place. */
static Z3_ast helper_result(enc *e, frame *f, LLVMValueRef call) {
  frame *h = NULL;
  for (int i = 0; !h && i < e->S->nframes; i++)
    if (e->S->frames[i]->call == call && e->S->frames[i]->parent == f)
      h = e->S->frames[i];
  LLVMValueRef ret = NULL;
  for (int b = 0; h && b < h->cfg->nblocks; b++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(h->cfg->blocks[b]);
    if (!h->cfg->reachable[b] || !t || !LLVMIsAReturnInst(t))
      continue;
    if (ret || LLVMGetNumOperands(t) != 1)
      return NULL;
    ret = t;
  }
  return ret ? st_val(e, h, LLVMGetOperand(ret, 0)) : NULL;
}

static Z3_ast call_value(enc *e, frame *f, LLVMValueRef v) {
  const char *name = st_callee_name(v);
  if (st_starts_with(name, "llvm.nvvm.read.ptx.sreg."))
    return sreg(e, v, name);
  if (st_starts_with(name, "llvm.umin.") ||
      st_starts_with(name, "llvm.umax.") ||
      st_starts_with(name, "llvm.smin.") || st_starts_with(name, "llvm.smax."))
    return minmax(e, f, v, name);
  return st_defined_callee(v) ? helper_result(e, f, v) : NULL;
}

/* ---- multiples ----------------------------------------------------------*/

/* Record v = s + k * d for this side; 0 when it was recorded already. */
static int add_multiple(enc *e, Z3_ast v, Z3_ast s, Z3_ast k, Z3_ast d) {
  multiples *ms = e->mults;
  for (size_t i = 0; i < ms->n; i++)
    if (ms->m[i].v == v && ms->m[i].d == d)
      return 0;
  ms->m = aucs_xrealloc(ms->m, (ms->n + 1) * sizeof *ms->m);
  ms->m[ms->n++] = (multiple){v, s, k, d};
  return 1;
}

/* a + b when it is a global index, blockIdx.d * blockDim.d + threadIdx.d
 * (at 32 bits, or at 64 from zero-extended registers): it is recorded as a
 * multiple of blockDim.d, below gridDim.d * blockDim.d. Within the stated
 * bound (fewer than 2^31 threads of the grid along x, as int indices
 * need; y and z hold it anyway) the 32-bit sum does not wrap. */
static void global_index(enc *e, Z3_ast a, Z3_ast b, Z3_ast sum) {
  Z3_context z = e->z;
  const aucs_static *S = e->S;
  unsigned w = width(z, sum);
  if (w != 32 && w != 64)
    return;
  for (int d = 0; d < 3; d++) {
    Z3_ast t = resize(z, S->tid[e->side][d], w, 0);
    Z3_ast c = resize(z, S->ctaid[e->block][d], w, 0);
    Z3_ast n = resize(z, S->ntid[d], w, 0);
    Z3_ast block = aucs_smt_mul(z, c, n);
    if (!((a == block && b == t) || (a == t && b == block)))
      continue;
    if (!add_multiple(e, resize(z, sum, 64, 0), resize(z, t, 64, 0),
                      resize(z, c, 64, 0), resize(z, n, 64, 0)))
      return; /* its facts are in the query already */
    Z3_ast threads = aucs_smt_mul(z, n, resize(z, S->nctaid[d], w, 0));
    st_push_ast(e->cons, e->ncons, Z3_mk_bvult(z, sum, threads));
    if (w == 32)
      st_push_ast(e->cons, e->ncons,
                  Z3_mk_bvule(z, threads, st_bv(z, 0x7fffffff, 32)));
    return;
  }
}

/* For two threads' multiples of one d, each with 0 <= s < d: the smaller k
 * has the smaller v, and equal k's give v's that differ as their s's do.
 * Facts of the integers, so asserting them changes no answer; but they
 * spare the solver ordering products, which bit-blasting cannot do in
 * time (a grid-stride loop's i = gid + k * stride). */
size_t st_multiple_lemmas(Z3_context z, const multiples *a, const multiples *b,
                          Z3_ast **v, size_t *n) {
  size_t added = 0;
  for (size_t i = 0; i < a->n; i++)
    for (size_t j = 0; j < b->n; j++) {
      const multiple *x = &a->m[i], *y = &b->m[j];
      if (x->d != y->d)
        continue;
      Z3_ast zero = st_bv(z, 0, width(z, x->d));
      Z3_ast in[4] = {Z3_mk_bvsle(z, zero, x->s), Z3_mk_bvslt(z, x->s, x->d),
                      Z3_mk_bvsle(z, zero, y->s), Z3_mk_bvslt(z, y->s, y->d)};
      Z3_ast ranges = Z3_mk_and(z, 4, in);
      Z3_ast before = Z3_mk_implies(z, Z3_mk_bvslt(z, x->k, y->k),
                                    Z3_mk_bvslt(z, x->v, y->v));
      Z3_ast after = Z3_mk_implies(z, Z3_mk_bvslt(z, y->k, x->k),
                                   Z3_mk_bvslt(z, y->v, x->v));
      Z3_ast same = Z3_mk_implies(
          z, Z3_mk_eq(z, x->v, y->v),
          st_and2(z, Z3_mk_eq(z, x->k, y->k), Z3_mk_eq(z, x->s, y->s)));
      st_push_ast(v, n,
                  Z3_mk_implies(z, ranges,
                                st_and2(z, same, st_and2(z, before, after))));
      st_push_ast(v, n,
                  Z3_mk_implies(z, Z3_mk_eq(z, x->k, y->k),
                                Z3_mk_eq(z, Z3_mk_bvsub(z, x->v, x->s),
                                         Z3_mk_bvsub(z, y->v, y->s))));
      added++;
    }
  return added;
}

/* ---- phis ---------------------------------------------------------------*/

static int edge_is_loop(const aucs_cfg *cfg, int p, int b) {
  for (int i = 0; i < cfg->nsucc[p]; i++)
    if (cfg->succ[p][i] == b && cfg->loop_edge[p][i])
      return 1;
  return 0;
}

static int loop_of_header(const aucs_cfg *cfg, int b) {
  for (int l = 0; l < cfg->nloops; l++)
    if (cfg->loops[l].header == b)
      return l;
  return -1;
}

static int invariant(const aucs_cfg *cfg, int l, LLVMValueRef v) {
  if (!LLVMIsAInstruction(v))
    return 1;
  int b = st_block_of(cfg, v);
  return b >= 0 && !aucs_cfg_in_loop(cfg, l, b);
}

/* The header phi's start (the value from outside the loop, when all agree)
 * and its update (the value along back edges, when all agree). */
static void phi_parts(const aucs_cfg *cfg, LLVMValueRef phi, int b,
                      LLVMValueRef *start, LLVMValueRef *next) {
  *start = *next = NULL;
  int bad_start = 0, bad_next = 0;
  for (unsigned i = 0; i < LLVMCountIncoming(phi); i++) {
    int p = aucs_cfg_index(cfg, LLVMGetIncomingBlock(phi, i));
    LLVMValueRef v = LLVMGetIncomingValue(phi, i);
    if (p < 0 || !cfg->reachable[p])
      continue;
    LLVMValueRef *slot = edge_is_loop(cfg, p, b) ? next : start;
    int *bad = slot == next ? &bad_next : &bad_start;
    if (*slot && *slot != v)
      *bad = 1;
    *slot = v;
  }
  if (bad_start)
    *start = NULL;
  if (bad_next)
    *next = NULL;
}

/* An affine header phi: t = start + k * step (minus with sub), k >= 0 the
 * iteration; s and d are start and step at the phi's width w. */
typedef struct affine_phi {
  Z3_ast t, k, s, d;
  unsigned w;
  int sub, nsw, nuw;
} affine_phi;

/* i = start + k * step, k >= 0; with nsw/nuw the sum is taken wide and must
 * fit, so k counts real iterations. 0 when the phi is no such term. */
static int affine(enc *e, frame *f, LLVMValueRef phi, LLVMValueRef start,
                  LLVMValueRef step, affine_phi *a) {
  Z3_context z = e->z;
  Z3_ast s = st_val(e, f, start), d = st_val(e, f, step);
  Z3_sort ps = sort_of(z, LLVMTypeOf(phi));
  if (!s || !d || !ps || st_is_bool(z, s) ||
      Z3_get_sort_kind(z, ps) == Z3_BOOL_SORT)
    return 0;
  unsigned w = Z3_get_bv_sort_size(z, ps);
  a->w = w;
  a->s = s = resize(z, s, w, 0);
  a->d = d = resize(z, d, w, 1);
  a->k = Z3_mk_fresh_const(z, e->side ? "k2" : "k1", ps);
  if (!a->nsw && !a->nuw) {
    Z3_ast kd = Z3_mk_bvmul(z, a->k, d);
    a->t = a->sub ? Z3_mk_bvsub(z, s, kd) : Z3_mk_bvadd(z, s, kd);
    return 1;
  }
  unsigned W = 2 * w + 2;
  int nsw = a->nsw;
  Z3_ast sw = resize(z, s, W, nsw), dw = resize(z, d, W, nsw);
  Z3_ast kd = Z3_mk_bvmul(z, resize(z, a->k, W, 0), dw);
  Z3_ast wide = a->sub ? Z3_mk_bvsub(z, sw, kd) : Z3_mk_bvadd(z, sw, kd);
  Z3_ast lo =
      nsw ? resize(z, st_bv(z, 1ull << (w - 1), w), W, 1) : st_bv(z, 0, W);
  Z3_ast hi = nsw ? st_bv(z, (1ull << (w - 1)) - 1, W)
                  : resize(z, st_bv(z, ~0ull, w), W, 0);
  st_push_ast(e->cons, e->ncons,
              st_and2(z, Z3_mk_bvsge(z, wide, lo), Z3_mk_bvsle(z, wide, hi)));
  a->t = Z3_mk_extract(z, w - 1, 0, wide);
  if (!a->sub)
    add_multiple(e, wide, sw, resize(z, a->k, W, 0), dw);
  return 1;
}

static LLVMIntPredicate swapped(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntUGT:
    return LLVMIntULT;
  case LLVMIntUGE:
    return LLVMIntULE;
  case LLVMIntULT:
    return LLVMIntUGT;
  case LLVMIntULE:
    return LLVMIntUGE;
  case LLVMIntSGT:
    return LLVMIntSLT;
  case LLVMIntSGE:
    return LLVMIntSLE;
  case LLVMIntSLT:
    return LLVMIntSGT;
  case LLVMIntSLE:
    return LLVMIntSGE;
  default:
    return p; /* eq, ne */
  }
}

static LLVMIntPredicate inverse(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntEQ:
    return LLVMIntNE;
  case LLVMIntNE:
    return LLVMIntEQ;
  case LLVMIntUGT:
    return LLVMIntULE;
  case LLVMIntUGE:
    return LLVMIntULT;
  case LLVMIntULT:
    return LLVMIntUGE;
  case LLVMIntULE:
    return LLVMIntUGT;
  case LLVMIntSGT:
    return LLVMIntSLE;
  case LLVMIntSGE:
    return LLVMIntSLT;
  case LLVMIntSLT:
    return LLVMIntSGE;
  default:
    return LLVMIntSGT;
  }
}

/* The test that keeps loop l going, as rotated loops have it: the loop's
 * one latch ends in `br (icmp x, inv)` with x = next (the value the header
 * phi takes on the back edge) or x = phi, and inv invariant in l. *p is
 * the predicate with x on the left under which the back edge is taken. */
static int latch_test(const aucs_cfg *cfg, int l, LLVMValueRef phi,
                      LLVMValueRef next, LLVMIntPredicate *p, LLVMValueRef *inv,
                      int *on_phi) {
  const aucs_loop *lp = &cfg->loops[l];
  if (lp->nlatches != 1)
    return 0;
  LLVMValueRef br = LLVMGetBasicBlockTerminator(cfg->blocks[lp->latches[0]]);
  if (!br || LLVMGetInstructionOpcode(br) != LLVMBr || !LLVMIsConditional(br))
    return 0;
  LLVMValueRef c = LLVMGetCondition(br);
  if (!LLVMIsAICmpInst(c))
    return 0;
  int t = aucs_cfg_index(cfg, LLVMGetSuccessor(br, 0));
  int f = aucs_cfg_index(cfg, LLVMGetSuccessor(br, 1));
  if ((t == lp->header) == (f == lp->header))
    return 0;
  LLVMValueRef x = LLVMGetOperand(c, 0), y = LLVMGetOperand(c, 1);
  *p = LLVMGetICmpPredicate(c);
  if (x != next && x != phi) {
    LLVMValueRef tmp = x;
    x = y, y = tmp;
    *p = swapped(*p);
  }
  if ((x != next && x != phi) || !invariant(cfg, l, y))
    return 0;
  if (f == lp->header)
    *p = inverse(*p);
  *inv = y;
  *on_phi = x == phi;
  return 1;
}

/* What the latch test says of iteration k >= 1 of an affine phi: its last
 * back edge was taken, so the test held of x there (x = phi_k when x is
 * next, phi_(k-1) when x is the phi). With `!=` and a unit step that does
 * not wrap, every earlier back edge passed the test too: inv lies outside
 * the values x took. */
static void latch_bound(enc *e, frame *f, LLVMValueRef phi, int l,
                        LLVMValueRef next, const affine_phi *a) {
  Z3_context z = e->z;
  LLVMIntPredicate p;
  LLVMValueRef inv;
  int on_phi;
  if (!latch_test(f->cfg, l, phi, next, &p, &inv, &on_phi) ||
      LLVMTypeOf(inv) != LLVMTypeOf(phi))
    return;
  Z3_ast n = st_val(e, f, inv);
  if (!n || st_is_bool(z, n))
    return;
  Z3_ast first = Z3_mk_eq(z, a->k, st_bv(z, 0, a->w));
  Z3_ast x = !on_phi  ? a->t
             : a->sub ? Z3_mk_bvadd(z, a->t, a->d)
                      : Z3_mk_bvsub(z, a->t, a->d);
  st_push_ast(e->cons, e->ncons, st_or2(z, first, compare(z, p, x, n)));
  LLVMValueRef step = LLVMGetOperand(next, LLVMGetOperand(next, 0) == phi);
  if (p != LLVMIntNE || !(a->nsw || a->nuw) || !LLVMIsAConstantInt(step))
    return;
  long long d = LLVMConstIntGetSExtValue(step) * (a->sub ? -1 : 1);
  if (d != 1 && d != -1)
    return;
  /* x took start + j * d for j in [lo, hi]: [1, k] or [0, k - 1] */
  unsigned W = 2 * a->w + 2;
  Z3_ast sw = resize(z, a->s, W, a->nsw), nw = resize(z, n, W, a->nsw);
  Z3_ast kw = resize(z, a->k, W, 0), one = st_bv(z, 1, W);
  Z3_ast lo = on_phi ? st_bv(z, 0, W) : one;
  Z3_ast hi = on_phi ? Z3_mk_bvsub(z, kw, one) : kw;
  Z3_ast from = d > 0 ? Z3_mk_bvadd(z, sw, lo) : Z3_mk_bvsub(z, sw, hi);
  Z3_ast to = d > 0 ? Z3_mk_bvadd(z, sw, hi) : Z3_mk_bvsub(z, sw, lo);
  Z3_ast inside = st_and2(z, Z3_mk_bvsge(z, nw, from), Z3_mk_bvsle(z, nw, to));
  st_push_ast(e->cons, e->ncons, st_or2(z, first, Z3_mk_not(z, inside)));
}

static Z3_ast induction(enc *e, frame *f, LLVMValueRef phi, int l,
                        LLVMValueRef start, LLVMValueRef next) {
  const aucs_cfg *cfg = f->cfg;
  if (!start || !next || !LLVMIsAInstruction(next))
    return NULL;
  LLVMOpcode op = LLVMGetInstructionOpcode(next);
  LLVMValueRef x = LLVMGetOperand(next, 0);
  LLVMValueRef y =
      LLVMGetNumOperands(next) > 1 ? LLVMGetOperand(next, 1) : NULL;
  LLVMValueRef step = x == phi ? y : op == LLVMAdd && y == phi ? x : NULL;
  if ((op == LLVMAdd || op == LLVMSub) && step) {
    affine_phi a = {
        .sub = op == LLVMSub, .nsw = LLVMGetNSW(next), .nuw = LLVMGetNUW(next)};
    if (!invariant(cfg, l, step) || !affine(e, f, phi, start, step, &a))
      return NULL;
    latch_bound(e, f, phi, l, next, &a);
    return a.t;
  }
  LLVMValueRef other = x == phi ? y : y == phi ? x : NULL;
  if (((op == LLVMSub && y == phi) || op == LLVMXor) && other &&
      invariant(cfg, l, other)) {
    /* c - i, i ^ m: applied twice it gives i back, so the phi is its start
     * or the start's image (double buffering: cur = 1 - cur) */
    Z3_ast s = st_val(e, f, start), c = st_val(e, f, other);
    if (!s || !c || st_is_bool(e->z, s) || st_is_bool(e->z, c) ||
        width(e->z, s) != width(e->z, c))
      return NULL;
    Z3_ast image =
        op == LLVMSub ? Z3_mk_bvsub(e->z, c, s) : Z3_mk_bvxor(e->z, s, c);
    Z3_ast odd = Z3_mk_fresh_const(e->z, "odd", Z3_mk_bool_sort(e->z));
    return Z3_mk_ite(e->z, odd, image, s);
  }
  if ((op == LLVMLShr || op == LLVMUDiv) && x == phi) {
    /* s = s >> c, s / c: never above its start (unsigned) */
    Z3_ast s = st_val(e, f, start), i = fresh(e, LLVMTypeOf(phi));
    if (!s || !i || st_is_bool(e->z, s))
      return NULL;
    st_push_ast(e->cons, e->ncons, Z3_mk_bvule(e->z, i, s));
    return i;
  }
  return NULL;
}

/* The value of next in the iteration whose uniform phis hold the shared
 * values: next evaluated afresh with loop l shared and every other loop
 * free (the iteration before this side's). */
static Z3_ast next_of_shared(enc *e, frame *f, LLVMValueRef next, int l) {
  int nf = e->S->nframes, nl = e->S->cfg->nloops;
  aucs_ptrmap *maps = aucs_xcalloc((size_t)nf * 2 + 1, sizeof *maps);
  unsigned char *modes = aucs_xcalloc((size_t)nl + 1, 1);
  modes[l] = M_SHARED;
  enc before = *e;
  before.modes = modes, before.memo = maps, before.ecmemo = maps + nf;
  Z3_ast t = st_val(&before, f, next);
  for (int i = 0; i < nf * 2; i++)
    aucs_ptrmap_free(&maps[i]);
  free(maps);
  free(modes);
  return t;
}

static Z3_ast header_phi(enc *e, frame *f, LLVMValueRef phi, int b, int l) {
  LLVMValueRef start, next;
  phi_parts(f->cfg, phi, b, &start, &next);
  int mode = f->id == 0 ? e->modes[l] : M_FREE;
  if (mode == M_START && start)
    return st_val(e, f, start);
  int uniform = !aucs_uniform_varying(e->S->u, phi);
  if (mode == M_NEXT && uniform && next)
    return next_of_shared(e, f, next, l);
  int share = mode == M_SHARED && uniform;
  intptr_t got;
  if (share && aucs_ptrmap_get(e->shared, phi, &got))
    return (Z3_ast)got;
  Z3_ast t = induction(e, f, phi, l, start, next);
  if (!t)
    t = fresh(e, LLVMTypeOf(phi));
  if (share)
    aucs_ptrmap_put(e->shared, phi, (intptr_t)t);
  return t;
}

Z3_ast st_edge_cond(enc *e, frame *f, int p, int b);

static int undefined(LLVMValueRef v) {
  return LLVMIsUndef(v) || LLVMIsPoison(v);
}

/* A join's phi: the value of the incoming edge taken. An undef or poison
 * incoming may be any value, so it is taken to be the value of another
 * edge (as LLVM's own simplification does): a flattened region's values
 * reach its later guards as phi [v, ran], [poison, skipped], and a thread
 * that uses one under its guard ran the block that made v. */
static Z3_ast join_phi(enc *e, frame *f, LLVMValueRef phi, int b) {
  Z3_ast t = NULL;
  unsigned n = LLVMCountIncoming(phi), defined = 0;
  for (unsigned i = 0; i < n; i++)
    defined += !undefined(LLVMGetIncomingValue(phi, i));
  for (unsigned i = n; i-- > 0;) {
    int p = aucs_cfg_index(f->cfg, LLVMGetIncomingBlock(phi, i));
    LLVMValueRef in = LLVMGetIncomingValue(phi, i);
    if (p < 0 || !f->cfg->reachable[p] || (defined && undefined(in)))
      continue;
    Z3_ast v = st_val(e, f, in);
    if (!v)
      return NULL;
    t = t ? Z3_mk_ite(e->z,
                      st_and2(e->z, ec(e, f, p), st_edge_cond(e, f, p, b)), v,
                      t)
          : v;
  }
  return t;
}

static Z3_ast phi_value(enc *e, frame *f, LLVMValueRef phi) {
  const aucs_cfg *cfg = f->cfg;
  int b = st_block_of(cfg, phi), l = loop_of_header(cfg, b), back = 0;
  for (unsigned i = 0; i < LLVMCountIncoming(phi); i++) {
    int p = aucs_cfg_index(cfg, LLVMGetIncomingBlock(phi, i));
    back |= p >= 0 && cfg->reachable[p] && edge_is_loop(cfg, p, b);
  }
  if (!back)
    return join_phi(e, f, phi, b);
  return l >= 0 ? header_phi(e, f, phi, b, l) : NULL;
}

/* ---- values -------------------------------------------------------------*/

Z3_ast st_argument(enc *e, frame *f, LLVMValueRef v) {
  unsigned n = LLVMCountParams(f->fn), i = 0;
  while (i < n && LLVMGetParam(f->fn, i) != v)
    i++;
  if (i == n)
    return NULL;
  if (!f->call)
    return e->S->params[i];
  return st_val(e, f->parent, LLVMGetOperand(f->call, i));
}

Z3_ast st_global_base(enc *e, LLVMValueRef g) {
  intptr_t got;
  if (aucs_ptrmap_get(&e->S->gbase, g, &got))
    return (Z3_ast)got;
  size_t len;
  char *name = aucs_xasprintf("@%s", LLVMGetValueName2(g, &len));
  Z3_ast t = sym(e->z, name, 64);
  free(name);
  aucs_ptrmap_put(&e->S->gbase, g, (intptr_t)t);
  return t;
}

/* Where an access's object starts: a global's base, a pointer argument's
 * value, a pointer field's symbol (static_fields.c). */
Z3_ast st_root_base(enc *e, LLVMValueRef root) {
  if (LLVMIsAGlobalVariable(root))
    return st_global_base(e, root);
  if (LLVMIsAArgument(root))
    return st_argument(e, e->S->frames[0], root);
  return st_field_base(e->S, root);
}

/* `nsw`/`nuw` arithmetic that wraps is poison, and a poison address or
 * branch condition is undefined behaviour: proofs assume the kernel has
 * none, so a wrapping add, sub or mul in an address or guard is excluded. */
/* A product of two non-constant terms, one of them opaque (a value the
 * encoding could not follow, e.g. a dim3 field read back from a helper's
 * struct at -O0): such a product can be any value of its width as far as
 * the query knows, so it is one opaque symbol per product (the same
 * product, the same symbol). Over-approximating keeps UNSAT sound and
 * spares the solver nonlinear bit-vector arithmetic (cooperative groups'
 * thread_rank() is tid.z * ntid.y * ntid.x + tid.y * ntid.x + tid.x). */
static int opaque_factor(enc *e, Z3_ast a, Z3_ast b) {
  intptr_t got;
  if (Z3_is_numeral_ast(e->z, a) || Z3_is_numeral_ast(e->z, b))
    return 0;
  return aucs_ptrmap_get(&e->S->opaque, a, &got) ||
         aucs_ptrmap_get(&e->S->opaque, b, &got);
}

static Z3_ast opaque_product(enc *e, Z3_ast a, Z3_ast b) {
  Z3_ast key = aucs_smt_mul(e->z, a, b);
  intptr_t got;
  if (aucs_ptrmap_get(&e->S->products, key, &got))
    return (Z3_ast)got;
  Z3_ast t = Z3_mk_fresh_const(e->z, e->side ? "p2" : "p1",
                               Z3_get_sort(e->z, key));
  aucs_ptrmap_put(&e->S->products, key, (intptr_t)t);
  aucs_ptrmap_put(&e->S->opaque, t, 1);
  return t;
}

/* A cast t of an opaque operand counts as opaque (for opaque_factor). */
static Z3_ast opaque_cast(enc *e, LLVMValueRef operand, frame *f, Z3_ast t) {
  intptr_t got;
  Z3_ast x = t ? st_val(e, f, operand) : NULL;
  if (x && aucs_ptrmap_get(&e->S->opaque, x, &got))
    aucs_ptrmap_put(&e->S->opaque, t, 1);
  return t;
}

static void no_wrap(enc *e, LLVMValueRef v, LLVMOpcode op, Z3_ast a, Z3_ast b) {
  Z3_context z = e->z;
  if ((op != LLVMAdd && op != LLVMSub && op != LLVMMul) || st_is_bool(z, a))
    return;
  int nsw = LLVMGetNSW(v), nuw = LLVMGetNUW(v);
  for (int sign = 0; sign < 2; sign++) {
    if (!(sign ? nsw : nuw))
      continue;
    Z3_ast ok = op == LLVMAdd   ? Z3_mk_bvadd_no_overflow(z, a, b, sign)
                : op == LLVMSub ? Z3_mk_bvsub_no_underflow(z, a, b, sign)
                                : Z3_mk_bvmul_no_overflow(z, a, b, sign);
    if (sign)
      ok = st_and2(z, ok,
                   op == LLVMAdd   ? Z3_mk_bvadd_no_underflow(z, a, b)
                   : op == LLVMSub ? Z3_mk_bvsub_no_overflow(z, a, b)
                                   : Z3_mk_bvmul_no_underflow(z, a, b));
    st_push_ast(e->cons, e->ncons, ok);
  }
}

/* A pure function of v's operands (uf.h): one term for equal operands. */
static Z3_ast pure_value(enc *e, frame *f, LLVMValueRef v, const char *name) {
  unsigned n = aucs_uf_arity(v);
  Z3_ast args[8];
  if (n > 8)
    return NULL;
  for (unsigned i = 0; i < n; i++)
    if (!(args[i] = st_val(e, f, LLVMGetOperand(v, i))))
      return NULL;
  return aucs_uf_apply(e->z, name, n, args, sort_of(e->z, LLVMTypeOf(v)));
}

/* A leaf of a texture fetch's result (uf.h): a pure function of the
 * fetch's handle and coordinates. */
static Z3_ast texel(enc *e, frame *f, LLVMValueRef v) {
  LLVMValueRef call = LLVMGetOperand(v, 0);
  char buf[96];
  const char *name =
      LLVMGetNumIndices(v) == 1
          ? aucs_uf_texel_name(call, LLVMGetIndices(v)[0], buf, sizeof buf)
          : NULL;
  unsigned n = name ? (unsigned)LLVMGetNumArgOperands(call) : 0;
  Z3_ast args[8];
  if (!name || n > 8)
    return NULL;
  for (unsigned i = 0; i < n; i++)
    if (!(args[i] = st_val(e, f, LLVMGetOperand(call, i))))
      return NULL;
  return aucs_uf_apply(e->z, name, n, args, sort_of(e->z, LLVMTypeOf(v)));
}

/* A load: a field of a struct parameter is one symbol for both threads
 * (static_fields.c), a load of an object the kernel never writes one
 * function of its address (static_readonly.c); anything else a fresh
 * value (st_val). */
static Z3_ast loaded(enc *e, frame *f, LLVMValueRef v) {
  Z3_sort s = sort_of(e->z, LLVMTypeOf(v));
  if (!s || Z3_get_sort_kind(e->z, s) != Z3_BV_SORT)
    return NULL;
  Z3_ast t = st_field_value(e->S, f, v, Z3_get_bv_sort_size(e->z, s));
  if (!t)
    t = st_readonly_load(e, f, v, s);
  return t ? t : e->stable ? st_stable_load(e, f, v, s) : NULL;
}

static Z3_ast operation(enc *e, frame *f, LLVMValueRef v, LLVMOpcode op) {
  if (!sort_of(e->z, LLVMTypeOf(v)))
    return NULL;
  char buf[64];
  const char *uf = aucs_uf_name(v, buf, sizeof buf);
  if (uf)
    return pure_value(e, f, v, uf);
  switch (op) {
  case LLVMAdd:
  case LLVMSub:
  case LLVMMul:
  case LLVMUDiv:
  case LLVMSDiv:
  case LLVMURem:
  case LLVMSRem:
  case LLVMShl:
  case LLVMLShr:
  case LLVMAShr:
  case LLVMAnd:
  case LLVMOr:
  case LLVMXor: {
    Z3_ast a = st_val(e, f, LLVMGetOperand(v, 0));
    Z3_ast b = st_val(e, f, LLVMGetOperand(v, 1));
    if (!a || !b)
      return NULL;
    if (op == LLVMMul && opaque_factor(e, a, b))
      return opaque_product(e, a, b);
    if (LLVMIsAInstruction(v))
      no_wrap(e, v, op, a, b);
    Z3_ast r = binop(e->z, op, a, b);
    if (op == LLVMAdd && r && !st_is_bool(e->z, r))
      global_index(e, a, b, r);
    return r;
  }
  case LLVMICmp: {
    Z3_ast a = st_val(e, f, LLVMGetOperand(v, 0));
    Z3_ast b = st_val(e, f, LLVMGetOperand(v, 1));
    return a && b && LLVMIsAInstruction(v)
               ? compare(e->z, LLVMGetICmpPredicate(v), a, b)
               : NULL;
  }
  case LLVMSelect: {
    Z3_ast c = st_val(e, f, LLVMGetOperand(v, 0));
    Z3_ast a = st_val(e, f, LLVMGetOperand(v, 1));
    Z3_ast b = st_val(e, f, LLVMGetOperand(v, 2));
    return c && a && b && st_is_bool(e->z, c) ? Z3_mk_ite(e->z, c, a, b) : NULL;
  }
  case LLVMZExt:
  case LLVMSExt:
  case LLVMTrunc:
  case LLVMPtrToInt:
  case LLVMIntToPtr:
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
  case LLVMFreeze:
    return opaque_cast(e, LLVMGetOperand(v, 0), f, cast(e, f, v, op));
  case LLVMGetElementPtr:
    return gep(e, f, v);
  case LLVMLoad:
    return loaded(e, f, v);
  case LLVMPHI:
    return phi_value(e, f, v);
  case LLVMCall:
    return call_value(e, f, v);
  case LLVMExtractValue: {
    Z3_ast dim = builtin_dim3(e, v);
    return dim ? dim : texel(e, f, v);
  }
  case LLVMExtractElement: { /* other lanes: fresh (aucs/lanes.h) */
    LLVMValueRef s = aucs_lanes_extracted(v);
    return s ? st_val(e, f, s) : NULL;
  }
  default:
    return NULL;
  }
}

static Z3_ast compute(enc *e, frame *f, LLVMValueRef v) {
  Z3_context z = e->z;
  LLVMTypeRef t = LLVMTypeOf(v);
  if (LLVMIsAConstantInt(v)) {
    if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind) /* a vector splat */
      return NULL;
    unsigned w = LLVMGetIntTypeWidth(t);
    uint64_t x = LLVMConstIntGetZExtValue(v);
    return w == 1    ? (x ? Z3_mk_true(z) : Z3_mk_false(z))
           : w <= 64 ? st_bv(z, x, w)
                     : NULL;
  }
  if (LLVMIsAConstantPointerNull(v))
    return st_bv(z, 0, 64);
  if (LLVMIsAConstantFP(v))
    return aucs_uf_constant(z, v);
  if (LLVMIsAGlobalVariable(v))
    return st_global_base(e, v);
  if (LLVMIsAArgument(v))
    return st_argument(e, f, v);
  if (LLVMIsAConstantExpr(v))
    return operation(e, f, v, LLVMGetConstOpcode(v));
  if (LLVMIsAInstruction(v))
    return operation(e, f, v, LLVMGetInstructionOpcode(v));
  return NULL;
}

/* v's term in frame f for this side; a fresh symbol when it cannot be
 * followed (NULL only for types with no term: vectors, half, ...). */
Z3_ast st_val(enc *e, frame *f, LLVMValueRef v) {
  intptr_t got;
  if (aucs_ptrmap_get(&e->memo[f->id], v, &got))
    return (Z3_ast)got;
  Z3_ast t = compute(e, f, v);
  if (!t && (t = fresh(e, LLVMTypeOf(v))))
    aucs_ptrmap_put(&e->S->opaque, t, 1);
  aucs_ptrmap_put(&e->memo[f->id], v, (intptr_t)t);
  return t;
}

/* ---- guards -------------------------------------------------------------*/

Z3_ast st_edge_cond(enc *e, frame *f, int p, int b) {
  Z3_context z = e->z;
  LLVMValueRef term = LLVMGetBasicBlockTerminator(f->cfg->blocks[p]);
  LLVMBasicBlockRef to = f->cfg->blocks[b];
  if (LLVMIsABranchInst(term) && LLVMIsConditional(term)) {
    if (LLVMGetSuccessor(term, 0) == LLVMGetSuccessor(term, 1))
      return Z3_mk_true(z);
    Z3_ast c = st_val(e, f, LLVMGetCondition(term));
    if (!c || !st_is_bool(z, c))
      return Z3_mk_true(z);
    return LLVMGetSuccessor(term, 0) == to ? c : Z3_mk_not(z, c);
  }
  if (!LLVMIsASwitchInst(term))
    return Z3_mk_true(z);
  Z3_ast x = st_val(e, f, LLVMGetOperand(term, 0));
  if (!x)
    return Z3_mk_true(z);
  Z3_ast hit = Z3_mk_false(z), any = Z3_mk_false(z);
  for (unsigned i = 1; i < LLVMGetNumSuccessors(term); i++) {
    Z3_ast c = st_val(e, f, LLVMGetOperand(term, 2 * i));
    if (!c)
      return Z3_mk_true(z);
    Z3_ast eq = compare(z, LLVMIntEQ, x, c);
    any = st_or2(z, any, eq);
    if (LLVMGetSuccessor(term, i) == to)
      hit = st_or2(z, hit, eq);
  }
  if (LLVMGetSwitchDefaultDest(term) == to)
    hit = st_or2(z, hit, Z3_mk_not(z, any));
  return hit;
}

/* EC(b) = OR over DAG predecessors p of EC(p) AND cond(p -> b). */
static Z3_ast ec(enc *e, frame *f, int b) {
  Z3_context z = e->z;
  const aucs_cfg *cfg = f->cfg;
  intptr_t got;
  if (aucs_ptrmap_get(&e->ecmemo[f->id], cfg->blocks[b], &got))
    return (Z3_ast)got;
  Z3_ast t = b == 0 ? Z3_mk_true(z) : Z3_mk_false(z);
  for (int i = 0; b != 0 && i < cfg->npred[b]; i++) {
    int p = cfg->pred[b][i];
    if (!cfg->reachable[p] || edge_is_loop(cfg, p, b))
      continue;
    t = st_or2(z, t, st_and2(z, ec(e, f, p), st_edge_cond(e, f, p, b)));
  }
  t = Z3_simplify(z, t);
  aucs_ptrmap_put(&e->ecmemo[f->id], cfg->blocks[b], (intptr_t)t);
  return t;
}

Z3_ast st_entry_cond(enc *e, frame *f, int b) { return ec(e, f, b); }

Z3_ast st_guard(enc *e, const acc *a) {
  Z3_ast g = ec(e, a->f, st_block_of(a->f->cfg, a->instr));
  for (frame *f = a->f; f->call; f = f->parent)
    g = st_and2(e->z, g,
                ec(e, f->parent, st_block_of(f->parent->cfg, f->call)));
  return g;
}

Z3_ast st_address(enc *e, const acc *a) {
  Z3_ast p = st_val(e, a->f, a->ptr);
  return p ? p : Z3_mk_fresh_const(e->z, "p", Z3_mk_bv_sort(e->z, 64));
}

Z3_ast st_extent(enc *e, const acc *a) {
  if (a->len) {
    Z3_ast n = st_val(e, a->f, a->len);
    if (n && !st_is_bool(e->z, n))
      return resize(e->z, n, 64, 0);
  }
  if (a->len || a->opaque)
    return Z3_mk_fresh_const(e->z, "n", Z3_mk_bv_sort(e->z, 64));
  return st_bv(e->z, a->size, 64);
}
