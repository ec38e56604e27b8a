/*
 * static: step 1 - the accesses of a kernel and its helpers, and its
 * barriers
 * (the algorithm is in static.c, the shared types in static_impl.h).
 */
#include "static_impl.h"

#include "aucs/warpuni.h"

/* ---- small helpers ------------------------------------------------------*/

const char *st_callee_name(LLVMValueRef call) {
  LLVMValueRef c = LLVMGetCalledValue(call);
  size_t len;
  return c && LLVMIsAFunction(c) ? LLVMGetValueName2(c, &len) : NULL;
}

LLVMValueRef st_defined_callee(LLVMValueRef call) {
  LLVMValueRef c = LLVMGetCalledValue(call);
  return c && LLVMIsAFunction(c) && LLVMCountBasicBlocks(c) ? c : NULL;
}

static int is_barrier_call(LLVMValueRef I) {
  return LLVMIsACallInst(I) &&
         aucs_nvvm_is_barrier(aucs_nvvm_classify(st_callee_name(I)));
}

int st_starts_with(const char *s, const char *p) {
  return s && !strncmp(s, p, strlen(p));
}

static int all_ones(LLVMValueRef mask) {
  return LLVMIsAConstantInt(mask) &&
         LLVMConstIntGetZExtValue(mask) == 0xffffffffu;
}

static int calls_warp_sync(LLVMValueRef I) {
  const char *name = I && LLVMIsACallInst(I) ? st_callee_name(I) : NULL;
  return name && !strcmp(name, "llvm.nvvm.bar.warp.sync");
}

/* The mask of call I when it is llvm.nvvm.bar.warp.sync, or calls a helper
 * whose body is only that call (the CUDA SDK's __syncwarp at -O0): then the
 * helper's constant mask or the call site's operand for its parameter.
 * NULL otherwise. */
static LLVMValueRef warp_sync_mask(LLVMValueRef I) {
  if (calls_warp_sync(I))
    return LLVMGetOperand(I, 0);
  LLVMValueRef f = st_defined_callee(I);
  LLVMValueRef c = f && LLVMCountBasicBlocks(f) == 1
                       ? LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f))
                       : NULL;
  LLVMValueRef r = c ? LLVMGetNextInstruction(c) : NULL;
  if (!calls_warp_sync(c) || !r || !LLVMIsAReturnInst(r))
    return NULL;
  LLVMValueRef m = LLVMGetOperand(c, 0);
  for (unsigned i = 0; i < LLVMCountParams(f); i++)
    if (LLVMGetParam(f, i) == m)
      return LLVMGetOperand(I, i);
  return LLVMIsAConstant(m) ? m : NULL;
}

/* A __syncwarp() of the whole warp: a warp sync with the all-ones mask. */
static int is_full_warp_sync(LLVMValueRef I) {
  LLVMValueRef mask = LLVMIsACallInst(I) ? warp_sync_mask(I) : NULL;
  return mask && all_ones(mask);
}

int st_block_of(const aucs_cfg *cfg, LLVMValueRef I) {
  return aucs_cfg_index(cfg, LLVMGetInstructionParent(I));
}

static uint64_t store_size(const aucs_static *S, LLVMTypeRef t) {
  return LLVMTypeIsSized(t) ? LLVMStoreSizeOfType(S->td, t) : 0;
}

/* ---- step 1: accesses ---------------------------------------------------*/

static int space_of_as(unsigned as) {
  switch (as) {
  case 3:
    return SP_SHARED;
  case 1:
    return SP_GLOBAL;
  case 0:
    return SP_ANY;
  default: /* constant (read-only), local, parameter space */
    return 0;
  }
}

/* A `byval` parameter of fn: the callee's (or the kernel's parameter
 * space's) own copy, private to the thread. */
static int is_byval(LLVMValueRef fn, unsigned i) {
  static unsigned kind;
  if (!kind)
    kind = LLVMGetEnumAttributeKindForName("byval", 5);
  return LLVMGetEnumAttributeAtIndex(fn, i + 1, kind) != NULL;
}

/* Memory no other thread sees: per-thread allocas (the interpreter does
 * not track them either) and byval copies. */
static int private_root(LLVMValueRef root) {
  if (!root)
    return 0;
  if (LLVMIsAAllocaInst(root))
    return 1;
  if (!LLVMIsAArgument(root))
    return 0;
  LLVMValueRef owner = LLVMGetParamParent(root);
  for (unsigned k = 0, n = LLVMCountParams(owner); k < n; k++)
    if (LLVMGetParam(owner, k) == root)
      return is_byval(owner, k);
  return 0;
}

static LLVMValueRef root_of(aucs_static *S, frame *f, LLVMValueRef p);
static int depth_of(const frame *f, LLVMValueRef fn);

/* The object every `ret` of the defined helper called by `call` (in frame
 * f) points into, when they all agree (SharedMemory<T>()'s operator that
 * returns an extern __shared__ array); NULL otherwise. */
static LLVMValueRef returned_root(aucs_static *S, frame *f, LLVMValueRef call) {
  LLVMValueRef fn = st_defined_callee(call), root = NULL;
  if (!fn || depth_of(f, fn) > MAX_DEPTH)
    return NULL;
  frame in = {.fn = fn, .call = call, .parent = f};
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b;
       b = LLVMGetNextBasicBlock(b)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(b);
    if (!t || !LLVMIsAReturnInst(t))
      continue;
    LLVMValueRef r =
        LLVMGetNumOperands(t) ? root_of(S, &in, LLVMGetOperand(t, 0)) : NULL;
    if (!r || (root && r != root))
      return NULL;
    root = r;
  }
  return root;
}

/* The object p points into: a global variable, kernel argument, a pointer
 * field of a byval parameter (static_fields.c), or a thread's own memory
 * (an alloca, a byval parameter: add_acc skips it); NULL when unknown.
 * Helper arguments are followed to their call sites, a helper's result
 * into its body. */
static LLVMValueRef root_of(aucs_static *S, frame *f, LLVMValueRef p) {
  for (int guard = 0; guard < 64; guard++) {
    if (LLVMIsAGlobalVariable(p) || private_root(p))
      return p;
    if (LLVMIsACallInst(p))
      return returned_root(S, f, p);
    if (LLVMIsALoadInst(p))
      return st_field_root(S, f, p);
    if (LLVMIsAArgument(p)) {
      if (!f->call)
        return p;
      LLVMValueRef fn = f->fn;
      unsigned n = LLVMCountParams(fn), i = 0;
      while (i < n && LLVMGetParam(fn, i) != p)
        i++;
      if (i == n)
        return NULL;
      p = LLVMGetOperand(f->call, i);
      f = f->parent;
      continue;
    }
    LLVMOpcode op = LLVMIsAInstruction(p)    ? LLVMGetInstructionOpcode(p)
                    : LLVMIsAConstantExpr(p) ? LLVMGetConstOpcode(p)
                                             : LLVMRet;
    if (op != LLVMGetElementPtr && op != LLVMAddrSpaceCast && op != LLVMBitCast)
      return NULL;
    p = LLVMGetOperand(p, 0);
  }
  return NULL;
}

static int space_of(LLVMValueRef root, LLVMValueRef ptr) {
  if (root && LLVMIsAGlobalVariable(root)) {
    if (LLVMIsGlobalConstant(root))
      return 0;
    return space_of_as(LLVMGetPointerAddressSpace(LLVMTypeOf(root)));
  }
  if (root) /* a kernel argument: host memory is global */
    return LLVMGetPointerAddressSpace(LLVMTypeOf(root)) == 3 ? SP_SHARED
                                                             : SP_GLOBAL;
  return space_of_as(LLVMGetPointerAddressSpace(LLVMTypeOf(ptr)));
}

/* Chain the access just written at S->accs[S->nacc] to its anchor's. */
static void link_acc(aucs_static *S, LLVMValueRef anchor) {
  intptr_t first;
  if (aucs_ptrmap_get(&S->anchors, anchor, &first)) {
    int i = (int)first - 1;
    while (S->accs[i].next >= 0)
      i = S->accs[i].next;
    S->accs[i].next = S->nacc;
  } else
    aucs_ptrmap_put(&S->anchors, anchor, S->nacc + 1);
  S->nacc++;
}

static void add_acc(aucs_static *S, frame *f, LLVMValueRef I,
                    LLVMValueRef anchor, LLVMValueRef ptr, aucs_op op,
                    uint64_t size, LLVMValueRef len, int opaque) {
  if (LLVMGetTypeKind(LLVMTypeOf(ptr)) != LLVMPointerTypeKind)
    return;
  LLVMValueRef root = root_of(S, f, ptr);
  int sp = space_of(root, ptr);
  if (!sp || private_root(root))
    return;
  S->accs = aucs_xrealloc(S->accs, (size_t)(S->nacc + 1) * sizeof *S->accs);
  S->accs[S->nacc] = (acc){.instr = I,
                           .ptr = ptr,
                           .len = len,
                           .f = f,
                           .op = op,
                           .size = size,
                           .opaque = opaque,
                           .root = root,
                           .space = sp,
                           .anchor = anchor,
                           .next = -1};
  link_acc(S, anchor);
}

void st_collect_fn(aucs_static *S, frame *f, LLVMValueRef anchor);

frame *st_new_frame(aucs_static *S, LLVMValueRef fn, LLVMValueRef call,
                    frame *parent) {
  frame *f = aucs_xcalloc(1, sizeof *f);
  *f = (frame){.fn = fn, .call = call, .parent = parent, .id = S->nframes};
  f->cfg = parent ? aucs_cfg_build(fn) : S->cfg;
  S->frames =
      aucs_xrealloc(S->frames, (size_t)(S->nframes + 1) * sizeof *S->frames);
  S->frames[S->nframes++] = f;
  return f;
}

static int depth_of(const frame *f, LLVMValueRef fn) {
  int d = 0;
  for (; f; f = f->parent, d++)
    if (f->fn == fn)
      return MAX_DEPTH + 1; /* recursion */
  return d;
}

/* A call: a helper's accesses in a new frame, an intrinsic's memory
 * operands, or unknown-extent accesses through an unknown callee's
 * pointer arguments. */
/* A surface access (uf.h): global memory at the handle, at an offset the
 * encoding does not follow (opaque: it may meet any other of the handle). */
static int collect_surface(aucs_static *S, frame *f, LLVMValueRef I,
                           LLVMValueRef anchor) {
  aucs_uf_texture k = aucs_uf_texture_kind(I);
  if (k != AUCS_UF_SURF_LOAD && k != AUCS_UF_SURF_STORE)
    return k == AUCS_UF_TEX_FETCH; /* a fetch touches no memory */
  S->accs = aucs_xrealloc(S->accs, (size_t)(S->nacc + 1) * sizeof *S->accs);
  S->accs[S->nacc] =
      (acc){.instr = I,
            .ptr = LLVMGetOperand(I, 0),
            .f = f,
            .op = k == AUCS_UF_SURF_STORE ? AUCS_OP_WRITE : AUCS_OP_READ,
            .opaque = 1,
            .space = SP_GLOBAL,
            .anchor = anchor,
            .next = -1};
  link_acc(S, anchor);
  return 1;
}

/* Inline asm the lowering reads as PTX (aucs/ptx.h): its ld and st
 * statements through an input operand, of their size (at an offset: of an
 * extent not followed); other statements touch no memory. 0 for any other
 * text, or an address that is not an operand: the caller's fallback. */
static int collect_asm(aucs_static *S, frame *f, LLVMValueRef I,
                       LLVMValueRef anchor) {
  LLVMValueRef c = LLVMGetCalledValue(I);
  size_t n = 0, cn = 0;
  const char *text = LLVMGetInlineAsmAsmString(c, &n);
  const char *cons = LLVMGetInlineAsmConstraintString(c, &cn);
  aucs_ptx_constraints con;
  aucs_ptx_constraints_of(cons, cn, &con);
  aucs_ptx *p = aucs_xcalloc(1, sizeof *p);
  int ok = !aucs_ptx_parse(text, n, p) && aucs_ptx_known(p);
  unsigned nargs = (unsigned)LLVMGetNumArgOperands(I);
  for (unsigned i = 0; ok && i < p->n; i++) {
    aucs_ptx_access a;
    if (!aucs_ptx_access_of(&p->s[i], &a))
      continue;
    ok = a.addr.kind == AUCS_PTX_ARG && a.addr.n >= con.outs &&
         a.addr.n - con.outs < nargs;
    if (ok)
      add_acc(S, f, I, anchor, LLVMGetOperand(I, a.addr.n - con.outs),
              a.atomic  ? AUCS_OP_ATOMIC
              : a.store ? AUCS_OP_WRITE
                        : AUCS_OP_READ,
              a.bytes, NULL, a.offset != 0);
  }
  free(p);
  return ok;
}

static void collect_call(aucs_static *S, frame *f, LLVMValueRef I,
                         LLVMValueRef anchor) {
  if (collect_surface(S, f, I, anchor))
    return;
  if (LLVMIsAInlineAsm(LLVMGetCalledValue(I)) && collect_asm(S, f, I, anchor))
    return;
  const char *name = st_callee_name(I);
  LLVMValueRef callee = st_defined_callee(I);
  unsigned n = LLVMGetNumArgOperands(I);
  aucs_nvvm_kind k = aucs_nvvm_classify(name);
  if (callee && depth_of(f, callee) <= MAX_DEPTH) {
    st_collect_fn(S, st_new_frame(S, callee, I, f), anchor);
    return;
  }
  if (k == AUCS_NVVM_ATOMIC || k == AUCS_NVVM_LOAD) {
    add_acc(S, f, I, anchor, LLVMGetOperand(I, 0),
            k == AUCS_NVVM_ATOMIC ? AUCS_OP_ATOMIC : AUCS_OP_READ,
            store_size(S, LLVMTypeOf(I)), NULL, 0);
    return;
  }
  if (st_starts_with(name, "llvm.memcpy") ||
      st_starts_with(name, "llvm.memmove") ||
      st_starts_with(name, "llvm.memset")) {
    LLVMValueRef len = LLVMGetOperand(I, 2);
    add_acc(S, f, I, anchor, LLVMGetOperand(I, 0), AUCS_OP_WRITE, 0, len, 0);
    if (!st_starts_with(name, "llvm.memset"))
      add_acc(S, f, I, anchor, LLVMGetOperand(I, 1), AUCS_OP_READ, 0, len, 0);
    return;
  }
  if (st_starts_with(name, "llvm.") && !callee)
    return; /* other intrinsics touch no shared or global memory */
  LLVMValueRef fn = LLVMGetCalledValue(I);
  if (name && !callee && !aucs_libcalls_of(fn))
    return; /* only declared: assumed to write nothing, as the runs do
               (aucs_interp_lower_with; --strict leaves it unsupported) */
  for (unsigned i = 0; i < n; i++)
    add_acc(S, f, I, anchor, LLVMGetOperand(I, i), AUCS_OP_WRITE, 0, NULL, 1);
}

static void collect_instr(aucs_static *S, frame *f, LLVMValueRef I,
                          LLVMValueRef anchor) {
  if (LLVMIsALoadInst(I))
    add_acc(S, f, I, anchor, LLVMGetOperand(I, 0),
            LLVMGetOrdering(I) != LLVMAtomicOrderingNotAtomic ? AUCS_OP_ATOMIC
                                                              : AUCS_OP_READ,
            store_size(S, LLVMTypeOf(I)), NULL, 0);
  else if (LLVMIsAStoreInst(I))
    add_acc(S, f, I, anchor, LLVMGetOperand(I, 1),
            LLVMGetOrdering(I) != LLVMAtomicOrderingNotAtomic ? AUCS_OP_ATOMIC
                                                              : AUCS_OP_WRITE,
            store_size(S, LLVMTypeOf(LLVMGetOperand(I, 0))), NULL, 0);
  else if (LLVMIsAAtomicRMWInst(I) || LLVMIsAAtomicCmpXchgInst(I))
    add_acc(S, f, I, anchor, LLVMGetOperand(I, 0), AUCS_OP_ATOMIC,
            store_size(S, LLVMTypeOf(LLVMGetOperand(I, 1))), NULL, 0);
  else if (LLVMIsACallInst(I) && !is_barrier_call(I))
    collect_call(S, f, I, anchor);
}

void st_collect_fn(aucs_static *S, frame *f, LLVMValueRef anchor) {
  for (int b = 0; b < f->cfg->nblocks; b++) {
    if (!f->cfg->reachable[b])
      continue;
    for (LLVMValueRef I = LLVMGetFirstInstruction(f->cfg->blocks[b]); I;
         I = LLVMGetNextInstruction(I))
      collect_instr(S, f, I, anchor ? anchor : I);
  }
}

static void add_barrier(aucs_static *S, LLVMValueRef I, int uniform) {
  S->bars = aucs_xrealloc(S->bars, (S->nbar + 1) * sizeof *S->bars);
  S->bar_sep = aucs_xrealloc(S->bar_sep, S->nbar + 1);
  S->bar_sep[S->nbar] = (unsigned char)uniform;
  S->bars[S->nbar++] = I;
  aucs_ptrmap_put(&S->barmap, I, (intptr_t)S->nbar);
}

static void add_warp_sync(aucs_static *S, LLVMValueRef I) {
  S->warps = aucs_xrealloc(S->warps, (S->nwarp + 1) * sizeof *S->warps);
  S->warps[S->nwarp++] = I;
  aucs_ptrmap_put(&S->warpmap, I, 1);
}

/* A call of a one-block helper whose last act before returning is a
 * barrier (a load_tile(...) that fills a tile and waits): every call runs
 * the barrier after all of the helper's accesses. */
static int ends_in_barrier(LLVMValueRef I) {
  LLVMValueRef f = LLVMIsACallInst(I) ? st_defined_callee(I) : NULL;
  if (!f || LLVMCountBasicBlocks(f) != 1)
    return 0;
  LLVMValueRef ret = LLVMGetLastInstruction(LLVMGetEntryBasicBlock(f));
  LLVMValueRef last = ret ? LLVMGetPreviousInstruction(ret) : NULL;
  return LLVMIsAReturnInst(ret) && last && is_barrier_call(last);
}

static void add_tail(aucs_static *S, LLVMValueRef I) {
  S->tails = aucs_xrealloc(S->tails, (S->ntail + 1) * sizeof *S->tails);
  S->tails[S->ntail++] = I;
  aucs_ptrmap_put(&S->tailmap, I, 1);
}

/* Block b is reached by every lane of a warp together, the same number of
 * times: uniform, or warp-uniform for the given block shape (warpuni.h:
 * `if (tid < 32)` with tid the linear thread id). */
static int warp_together(const aucs_static *S, int b, int uniform) {
  if (uniform)
    return 1;
  if (!S->o.fixed_block)
    return 0;
  const aucs_dim3 *d = &S->o.launch.block;
  unsigned block[3] = {d->x, d->y, d->z};
  return aucs_warpuni_block(S->cfg, S->u, block, b);
}

/* The kernel's barriers, its full-warp __syncwarp calls in blocks every
 * lane of a warp reaches together (any other __syncwarp separates
 * nothing) and its calls in uniform blocks of helpers that end in a
 * barrier. */
void st_collect_barriers(aucs_static *S) {
  for (int b = 0; b < S->cfg->nblocks; b++) {
    if (!S->cfg->reachable[b])
      continue;
    int uniform = aucs_uniform_block(S->u, b);
    for (LLVMValueRef I = LLVMGetFirstInstruction(S->cfg->blocks[b]); I;
         I = LLVMGetNextInstruction(I)) {
      if (is_barrier_call(I))
        add_barrier(S, I, uniform);
      else if (is_full_warp_sync(I) && warp_together(S, b, uniform))
        add_warp_sync(S, I);
      else if (uniform && ends_in_barrier(I))
        add_tail(S, I);
    }
  }
  S->bar_red = aucs_xcalloc(S->nbar + 1, 1);
}
