/*
 * uniform: block uniformity and thread-varying values (DESIGN.md section 4).
 *
 * A worklist taint analysis over the reachable blocks of one function:
 *   1. Every instruction is evaluated; one that becomes varying queues its
 *      users (and, through users that vary already and whose varying bits
 *      uniform_bytes.c follows, theirs). A bit-field operation (and, or,
 *      shift, trunc, extractvalue) of a varying operand varies only when
 *      some bit of its result can. Seeds: the VARYING, WARP, ATOMIC and
 *      SYNC_OTHER lines of nvvm.def, atomicrmw, cmpxchg, atomic loads,
 *      inline asm, indirect calls, calls to external functions and
 *      convergent `llvm.*` intrinsics. Other `llvm.*` intrinsics, and
 *      libdevice's `__nv_*` math functions (declared when libdevice is not
 *      linked: `__log2f` is `__nv_fast_log2f`), vary with their arguments.
 *   2. Private memory: an alloca whose address escapes (into a call, a
 *      stored value, ptrtoint, ...) holds varying data, and so does one a
 *      store writes a varying value to, through a varying address or from
 *      a non-uniform block. A load from such an alloca (its address
 *      followed through GEPs, casts, phis and selects) varies. Where the
 *      address is the alloca plus a constant offset, only the bytes the
 *      store writes are tainted, and of a varying value only those whose
 *      bits vary (uniform_bytes.c; memcpy copies the taint byte by byte),
 *      and a load at a constant offset varies only when it reads a
 *      tainted byte.
 *   3. A call to a defined function varies when an argument does or when
 *      the callee, analysed with uniform arguments, returns a varying
 *      value; summaries are cached per function for the whole computation
 *      and a recursive call counts as varying.
 *   4. A divergent branch B makes every successor S and the post-dominators
 *      of S up to ipdom(B) non-uniform (BRANCH); a branch of a non-uniform
 *      block does the same (NONUNIFORM). Phis vary in blocks, up to and
 *      including ipdom(B), that non-loop edges from two different
 *      successors of B reach, unless every incoming value is the same.
 *   5. A loop that holds B but not ipdom(B) has a divergent exit: all its
 *      blocks are non-uniform (LOOP) and its values used outside it vary.
 * Where steps 4 and 5 say ipdom(B), successors of B that cannot reach a
 * ret (every path ends in `unreachable`: a trap, or the impossible default
 * of a switch) are left out: the threads there never reach the join.
 * A block with several reasons reports the strongest: LOOP, then BRANCH,
 * then NONUNIFORM.
 *
 *     entry: br (tid < 4), then, join     entry  uniform, divergent branch
 *     then:  br join                      then   BRANCH (entry)
 *     join:  phi [1, entry], [2, then]    join   uniform; the phi varies
 *
 * Limitation: pointers to private memory are followed through GEPs, casts,
 * phis and selects, not through memory or integers; shared and global
 * memory read through a uniform address is uniform (see uniform.h). A path
 * into `unreachable` that starts deeper than B's own successors still
 * counts in cfg's post-dominators: blocks after it may be reported
 * non-uniform (safe, not precise).
 */
#include "aucs/uniform.h"

#include "aucs/nvvm.h"
#include "uniform_bytes.h"
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

enum { IN_PROGRESS = 1, SAME = 2, VARIES = 3 }; /* callee summaries */

typedef struct vec { /* growable list of values */
  LLVMValueRef *v;
  size_t n, cap;
} vec;

struct aucs_uniformity {
  const aucs_cfg *cfg;
  aucs_arena *arena;
  aucs_ptrmap varying; /* value -> origin (const char *) */
  aucs_ptrmap slots;   /* alloca -> origin of the varying data it holds */
  aucs_ptrmap bytes;   /* alloca -> its varying bytes (part *), when only
                          some are (uniform_bytes.h) */
  aucs_ptrmap whole;   /* values that vary by control, in every bit */
  LLVMTargetDataRef td; /* the module's, not owned */
  aucs_why *why;
  int *why_block, *why_aux;
  unsigned char *divergent; /* block ends in a divergent branch */
  unsigned char *spread;    /* branch of a non-uniform block handled */
  unsigned char *loop_divergent;
  unsigned char *returns; /* block has a path to a ret */
  /* Only during aucs_uniform_compute: */
  vec work;
  size_t head;
  aucs_ptrmap queued;
  aucs_ptrmap *summaries; /* function -> IN_PROGRESS, SAME or VARIES */
};

static aucs_uniformity *compute(const aucs_cfg *cfg, aucs_ptrmap *summaries);

static void vec_push(vec *s, LLVMValueRef v) {
  if (s->n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 32;
    s->v = aucs_xrealloc(s->v, s->cap * sizeof *s->v);
  }
  s->v[s->n++] = v;
}

/* ---- values, blocks and the worklist ---- */

static const char *origin_of(const aucs_uniformity *u, LLVMValueRef v) {
  intptr_t o;
  return v && aucs_ptrmap_get(&u->varying, v, &o) ? (const char *)o : NULL;
}

static int block_of(const aucs_uniformity *u, LLVMValueRef inst) {
  return aucs_cfg_index(u->cfg, LLVMGetInstructionParent(inst));
}

static int is_void(LLVMValueRef v) {
  return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMVoidTypeKind;
}

static void push(aucs_uniformity *u, LLVMValueRef user) {
  if (!LLVMIsAInstruction(user))
    return;
  int b = block_of(u, user);
  intptr_t queued = 0;
  if (b < 0 || !u->cfg->reachable[b])
    return;
  if (aucs_ptrmap_get(&u->queued, user, &queued) && queued)
    return;
  aucs_ptrmap_put(&u->queued, user, 1);
  vec_push(&u->work, user);
}

static LLVMValueRef pop(aucs_uniformity *u) {
  if (u->head == u->work.n)
    return NULL;
  LLVMValueRef v = u->work.v[u->head++];
  aucs_ptrmap_put(&u->queued, v, 0);
  return v;
}

static void push_block(aucs_uniformity *u, int b) {
  LLVMBasicBlockRef bb = u->cfg->blocks[b];
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
       i = LLVMGetNextInstruction(i))
    push(u, i);
}

/* Opcodes whose varying bits uniform_bytes.c follows. */
static int bit_op(LLVMValueRef v) {
  switch (LLVMIsAInstruction(v) ? LLVMGetInstructionOpcode(v) : LLVMRet) {
  case LLVMAnd:
  case LLVMOr:
  case LLVMXor:
  case LLVMShl:
  case LLVMLShr:
  case LLVMAShr:
  case LLVMZExt:
  case LLVMSExt:
  case LLVMTrunc:
  case LLVMPtrToInt:
  case LLVMIntToPtr:
  case LLVMBitCast:
  case LLVMExtractValue:
  case LLVMInsertValue:
    return 1;
  default:
    return 0;
  }
}

/* v's users, and through users that already vary and whose varying bits
 * are followed (bit_op), theirs: such a user may have more varying bits
 * now, so its users (a bit_op that kept none, a store) are looked at again
 * (steps 1 and 2). */
static void push_chain(aucs_uniformity *u, LLVMValueRef v) {
  vec stack = {0};
  aucs_ptrmap seen = {0};
  vec_push(&stack, v);
  while (stack.n) {
    LLVMValueRef x = stack.v[--stack.n];
    for (LLVMUseRef use = LLVMGetFirstUse(x); use; use = LLVMGetNextUse(use)) {
      LLVMValueRef user = LLVMGetUser(use);
      push(u, user);
      if (bit_op(user) && origin_of(u, user) &&
          !aucs_ptrmap_get(&seen, user, NULL)) {
        aucs_ptrmap_put(&seen, user, 1);
        vec_push(&stack, user);
      }
    }
  }
  free(stack.v);
  aucs_ptrmap_free(&seen);
}

static void make_varying(aucs_uniformity *u, LLVMValueRef v,
                         const char *origin) {
  if (!origin || is_void(v) || origin_of(u, v))
    return;
  aucs_ptrmap_put(&u->varying, v, (intptr_t)origin);
  push_chain(u, v);
}

/* v varies by control (a divergent join, a value leaving a loop with a
 * divergent exit): in every bit, even where it already varied in some
 * through its operands. */
static void make_whole(aucs_uniformity *u, LLVMValueRef v, const char *origin) {
  if (is_void(v) || aucs_ptrmap_get(&u->whole, v, NULL))
    return;
  aucs_ptrmap_put(&u->whole, v, 1);
  if (origin_of(u, v))
    push_chain(u, v);
  else
    make_varying(u, v, origin);
}

static int rank(aucs_why why) {
  switch (why) {
  case AUCS_WHY_UNIFORM:
    return 0;
  case AUCS_WHY_NONUNIFORM:
    return 1;
  case AUCS_WHY_BRANCH:
    return 2;
  case AUCS_WHY_LOOP:
    return 3;
  case AUCS_WHY_UNREACHABLE:
    break;
  }
  return 4;
}

/* Block b is not uniform for reason why; a stronger reason replaces a
 * weaker one. A block that stops being uniform is evaluated again. */
static void mark_block(aucs_uniformity *u, int b, aucs_why why, int block,
                       int aux) {
  if (!u->cfg->reachable[b] || rank(why) <= rank(u->why[b]))
    return;
  int was_uniform = u->why[b] == AUCS_WHY_UNIFORM;
  u->why[b] = why;
  u->why_block[b] = block;
  u->why_aux[b] = aux;
  if (was_uniform)
    push_block(u, b);
}

/* ---- private memory ---- */

static int derives_pointer(LLVMValueRef user, LLVMValueRef p) {
  if (LLVMIsAGetElementPtrInst(user))
    return LLVMGetOperand(user, 0) == p;
  return LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user) ||
         LLVMIsAPHINode(user) || LLVMIsASelectInst(user);
}

static void push_unseen(vec *stack, aucs_ptrmap *seen, LLVMValueRef v) {
  if (aucs_ptrmap_get(seen, v, NULL))
    return;
  aucs_ptrmap_put(seen, v, 1);
  vec_push(stack, v);
}

static void push_bases(vec *stack, aucs_ptrmap *seen, LLVMValueRef p) {
  if (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p) ||
      LLVMIsAAddrSpaceCastInst(p)) {
    push_unseen(stack, seen, LLVMGetOperand(p, 0));
  } else if (LLVMIsAPHINode(p)) {
    for (unsigned i = 0; i < LLVMCountIncoming(p); i++)
      push_unseen(stack, seen, LLVMGetIncomingValue(p, i));
  } else if (LLVMIsASelectInst(p)) {
    push_unseen(stack, seen, LLVMGetOperand(p, 1));
    push_unseen(stack, seen, LLVMGetOperand(p, 2));
  }
}

/* The allocas pointer p may point into. Free roots->v. */
static void allocas_under(LLVMValueRef p, vec *roots) {
  vec stack = {0};
  aucs_ptrmap seen = {0};
  push_unseen(&stack, &seen, p);
  while (stack.n) {
    LLVMValueRef v = stack.v[--stack.n];
    if (LLVMIsAAllocaInst(v))
      vec_push(roots, v);
    else
      push_bases(&stack, &seen, v);
  }
  free(stack.v);
  aucs_ptrmap_free(&seen);
}

/* Every use of a pointer derived from alloca a (through GEPs, casts, phis
 * and selects) that derives no further pointer: users[i] uses ptrs[i]. */
static void uses_of_alloca(LLVMValueRef a, vec *users, vec *ptrs) {
  vec stack = {0};
  aucs_ptrmap seen = {0};
  push_unseen(&stack, &seen, a);
  while (stack.n) {
    LLVMValueRef p = stack.v[--stack.n];
    for (LLVMUseRef use = LLVMGetFirstUse(p); use; use = LLVMGetNextUse(use)) {
      LLVMValueRef user = LLVMGetUser(use);
      if (derives_pointer(user, p)) {
        push_unseen(&stack, &seen, user);
        continue;
      }
      vec_push(users, user);
      vec_push(ptrs, p);
    }
  }
  free(stack.v);
  aucs_ptrmap_free(&seen);
}

/* Some bytes of an alloca hold varying data. */
typedef struct part {
  const char *origin;
  uint64_t size;
  unsigned char *v; /* v[i]: byte i varies */
} part;

static part *part_of(const aucs_uniformity *u, LLVMValueRef a) {
  intptr_t p;
  return aucs_ptrmap_get(&u->bytes, a, &p) ? (part *)p : NULL;
}

/* The origin of varying data in the whole of alloca a or in some of its
 * bytes, or NULL. */
static const char *alloca_origin(const aucs_uniformity *u, LLVMValueRef a) {
  intptr_t o;
  if (aucs_ptrmap_get(&u->slots, a, &o))
    return (const char *)o;
  part *p = part_of(u, a);
  return p ? p->origin : NULL;
}

static const char *slot_origin(const aucs_uniformity *u, LLVMValueRef p) {
  vec roots = {0};
  const char *origin = NULL;
  allocas_under(p, &roots);
  for (size_t i = 0; i < roots.n && !origin; i++)
    origin = alloca_origin(u, roots.v[i]);
  free(roots.v);
  return origin;
}

/* The origin of varying data among the n bytes p points to in private
 * memory, or NULL. */
static const char *range_origin(const aucs_uniformity *u, LLVMValueRef p,
                                uint64_t n) {
  LLVMValueRef a;
  uint64_t off;
  intptr_t o;
  if (!ub_const_offset(u->td, p, &a, &off))
    return slot_origin(u, p);
  if (aucs_ptrmap_get(&u->slots, a, &o))
    return (const char *)o;
  part *x = part_of(u, a);
  for (uint64_t i = 0; x && i < n; i++)
    if (off + i >= x->size || x->v[off + i])
      return x->origin;
  return NULL;
}

static void taint_alloca(aucs_uniformity *u, LLVMValueRef a,
                         const char *origin) {
  if (aucs_ptrmap_get(&u->slots, a, NULL))
    return;
  aucs_ptrmap_put(&u->slots, a, (intptr_t)origin);
  vec users = {0}, ptrs = {0};
  uses_of_alloca(a, &users, &ptrs);
  for (size_t i = 0; i < users.n; i++)
    push(u, users.v[i]);
  free(users.v);
  free(ptrs.v);
}

/* Memory p points to now holds data that varies with origin. */
static void taint_memory(aucs_uniformity *u, LLVMValueRef p,
                         const char *origin) {
  vec roots = {0};
  allocas_under(p, &roots);
  for (size_t i = 0; i < roots.n; i++)
    taint_alloca(u, roots.v[i], origin);
  free(roots.v);
}

static void push_alloca_users(aucs_uniformity *u, LLVMValueRef a) {
  vec users = {0}, ptrs = {0};
  uses_of_alloca(a, &users, &ptrs);
  for (size_t i = 0; i < users.n; i++)
    push(u, users.v[i]);
  free(users.v);
  free(ptrs.v);
}

/* Byte off + i of alloca a, for each i < n that vary[i] (NULL: all) says,
 * now holds data that varies with origin. */
static void taint_bytes(aucs_uniformity *u, LLVMValueRef a, uint64_t off,
                        uint64_t n, const unsigned char *vary,
                        const char *origin) {
  uint64_t size = ub_alloca_size(u->td, a);
  if (aucs_ptrmap_get(&u->slots, a, NULL))
    return;
  if (!size || off > size || n > size - off) {
    taint_alloca(u, a, origin);
    return;
  }
  part *x = part_of(u, a);
  if (!x) {
    x = AUCS_ANEW(u->arena, part, 1);
    *x = (part){origin, size, AUCS_ANEW(u->arena, unsigned char, size)};
    aucs_ptrmap_put(&u->bytes, a, (intptr_t)x);
  }
  int grew = 0;
  for (uint64_t i = 0; i < n; i++)
    if ((!vary || vary[i]) && !x->v[off + i])
      grew = x->v[off + i] = 1;
  if (grew)
    push_alloca_users(u, a);
}

/* A store of n bytes through p, the bytes i with bit i of mask (n > 64:
 * all when mask is nonzero) varying with origin. */
static void taint_store(aucs_uniformity *u, LLVMValueRef p, uint64_t n,
                        uint64_t mask, const char *origin) {
  LLVMValueRef a;
  uint64_t off;
  if (!mask)
    return;
  if (!ub_const_offset(u->td, p, &a, &off) || n > UB_MAX_BYTES) {
    taint_memory(u, p, origin);
    return;
  }
  unsigned char vary[64];
  for (uint64_t i = 0; i < n && i < 64; i++)
    vary[i] = (unsigned char)((mask >> i) & 1);
  taint_bytes(u, a, off, n, n > 64 ? NULL : vary, origin);
}

static const char *callee_name(LLVMValueRef call) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  size_t len;
  return LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &len) : "";
}

static int starts(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

static int is_mem_intrinsic(const char *name) {
  return starts(name, "llvm.memset.") || starts(name, "llvm.memcpy.") ||
         starts(name, "llvm.memmove.");
}

static int is_marker(const char *name) {
  return starts(name, "llvm.lifetime.") || starts(name, "llvm.dbg.");
}

/* 1 when a pointer derived from an alloca leaks: the alloca's data can then
 * change in ways the analysis does not follow. */
static int escapes(LLVMValueRef user, LLVMValueRef p) {
  if (LLVMIsALoadInst(user) || LLVMIsAICmpInst(user))
    return 0;
  if (LLVMIsAStoreInst(user))
    return LLVMGetOperand(user, 0) == p;
  if (LLVMIsACallInst(user)) {
    const char *name = callee_name(user);
    return !is_marker(name) && !is_mem_intrinsic(name);
  }
  return 1;
}

static void seed_escaped(aucs_uniformity *u, LLVMValueRef a) {
  vec users = {0}, ptrs = {0};
  uses_of_alloca(a, &users, &ptrs);
  for (size_t i = 0; i < users.n; i++)
    if (escapes(users.v[i], ptrs.v[i])) {
      taint_alloca(u, a, "alloca");
      break;
    }
  free(users.v);
  free(ptrs.v);
}

/* ---- instructions ---- */

static const char *value_origin(const aucs_uniformity *u, LLVMValueRef v) {
  const char *o = origin_of(u, v);
  if (o || LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMPointerTypeKind)
    return o;
  return slot_origin(u, v);
}

/* The first argument that varies or points to private varying data. */
static const char *arg_origin(const aucs_uniformity *u, LLVMValueRef call,
                              unsigned skip) {
  unsigned n = LLVMGetNumArgOperands(call);
  for (unsigned i = 0; i < n; i++) {
    const char *o = i == skip ? NULL : value_origin(u, LLVMGetOperand(call, i));
    if (o)
      return o;
  }
  return NULL;
}

static const char *divergent_store(const aucs_uniformity *u, LLVMValueRef st) {
  int b = block_of(u, st);
  return u->why[b] == AUCS_WHY_UNIFORM ? NULL : "alloca";
}

/* uniform_bytes.h's verdict: 2 for a value that varies by control
 * (make_whole), in every bit whatever its operands. */
static int varies(const void *ctx, LLVMValueRef v) {
  const aucs_uniformity *u = ctx;
  if (aucs_ptrmap_get(&u->whole, v, NULL))
    return 2;
  return origin_of(u, v) != NULL;
}

/* A store through a varying address taints the alloca(s) whole; else the
 * bytes it writes: all of them from a non-uniform block, those whose bits
 * vary from a uniform one. */
static void eval_store(aucs_uniformity *u, LLVMValueRef st) {
  LLVMValueRef value = LLVMGetOperand(st, 0), ptr = LLVMGetOperand(st, 1);
  const char *o = origin_of(u, ptr);
  if (o) {
    taint_memory(u, ptr, o);
    return;
  }
  uint64_t n = LLVMStoreSizeOfType(u->td, LLVMTypeOf(value));
  o = divergent_store(u, st);
  uint64_t mask = o ? ~(uint64_t)0 : ub_varying_bytes(u->td, value, varies, u);
  taint_store(u, ptr, n, mask, o ? o : origin_of(u, value));
}

static uint64_t const_len(LLVMValueRef call) {
  LLVMValueRef n = LLVMGetOperand(call, 2);
  return LLVMIsAConstantInt(n) ? LLVMConstIntGetZExtValue(n) : UINT64_MAX;
}

/* memcpy/memmove of n constant bytes from src to alloca a at off: the
 * source's taint moves byte by byte (all of it when src is not an alloca
 * at a constant offset: memory outside private memory is uniform when its
 * address is, see uniform.h). */
static void copy_taint(aucs_uniformity *u, LLVMValueRef a, uint64_t off,
                       LLVMValueRef src, uint64_t n) {
  LLVMValueRef s;
  uint64_t soff;
  const char *o = slot_origin(u, src);
  if (!o)
    return;
  if (!ub_const_offset(u->td, src, &s, &soff) ||
      aucs_ptrmap_get(&u->slots, s, NULL)) {
    taint_bytes(u, a, off, n, NULL, o);
    return;
  }
  part *x = part_of(u, s);
  unsigned char *vary = aucs_xcalloc(n ? n : 1, 1);
  for (uint64_t i = 0; i < n; i++)
    vary[i] = soff + i >= x->size || x->v[soff + i];
  taint_bytes(u, a, off, n, vary, o);
  free(vary);
}

/* memcpy/memmove/memset of a constant length into alloca memory at a
 * constant offset, from a uniform block, through uniform operands: the
 * bytes it writes take the source's taint (memset: the value's). 1 when
 * handled. */
static int eval_mem_bytes(aucs_uniformity *u, LLVMValueRef call,
                          const char *name) {
  LLVMValueRef dest = LLVMGetOperand(call, 0), a;
  uint64_t off, n = const_len(call);
  if (n > UB_MAX_BYTES || origin_of(u, dest) || divergent_store(u, call) ||
      !ub_const_offset(u->td, dest, &a, &off))
    return 0;
  LLVMValueRef src = LLVMGetOperand(call, 1);
  if (starts(name, "llvm.memset.")) {
    if (origin_of(u, src))
      taint_bytes(u, a, off, n, NULL, origin_of(u, src));
    return 1;
  }
  if (origin_of(u, src))
    taint_bytes(u, a, off, n, NULL, origin_of(u, src));
  else
    copy_taint(u, a, off, src, n);
  return 1;
}

/* memset/memcpy/memmove: a store to the first argument of data that varies
 * when any other argument does or points to varying private data. */
static void eval_mem(aucs_uniformity *u, LLVMValueRef call) {
  if (eval_mem_bytes(u, call, callee_name(call)))
    return;
  LLVMValueRef dest = LLVMGetOperand(call, 0);
  const char *o = arg_origin(u, call, 0);
  if (!o)
    o = origin_of(u, dest);
  if (!o)
    o = divergent_store(u, call);
  if (o)
    taint_memory(u, dest, o);
}

static void eval_load(aucs_uniformity *u, LLVMValueRef ld) {
  if (LLVMGetOrdering(ld) != LLVMAtomicOrderingNotAtomic) {
    make_varying(u, ld, "atomic");
    return;
  }
  LLVMValueRef p = LLVMGetOperand(ld, 0);
  const char *o = origin_of(u, p);
  make_varying(
      u, ld,
      o ? o : range_origin(u, p, LLVMStoreSizeOfType(u->td, LLVMTypeOf(ld))));
}

/* bit_op instructions that may drop an operand's varying bits (the
 * others keep some when an operand has some). */
static int narrows(LLVMValueRef v) {
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAnd:
  case LLVMOr:
  case LLVMShl:
  case LLVMLShr:
  case LLVMAShr:
  case LLVMTrunc:
  case LLVMExtractValue:
    return 1;
  default:
    return 0;
  }
}

/* A value varies with its first varying operand; one whose varying bits
 * are followed (bit_op) only when some bit of it does: the type and size
 * bit-fields taken out of a word whose other bits hold the thread's rank
 * stay uniform. */
static void eval_operands(aucs_uniformity *u, LLVMValueRef inst) {
  int n = LLVMGetNumOperands(inst);
  const char *o = NULL;
  for (int i = 0; i < n && !o; i++)
    o = origin_of(u, LLVMGetOperand(inst, i));
  if (o && narrows(inst) && !ub_value_bits(u->td, inst, varies, u))
    return;
  make_varying(u, inst, o);
}

static int is_convergent(LLVMValueRef fn) {
  unsigned kind = LLVMGetEnumAttributeKindForName("convergent", 10);
  return LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, kind) !=
         NULL;
}

static const char *call_seed(aucs_uniformity *u, const char *name) {
  char *s = aucs_xasprintf("call @%s", name);
  char *o = aucs_arena_strdup(u->arena, s);
  free(s);
  return o;
}

/* 1 when some ret of u's function returns a value that varies. */
static int returns_vary(const aucs_uniformity *u) {
  const aucs_cfg *cfg = u->cfg;
  for (int b = 0; b < cfg->nblocks; b++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->blocks[b]);
    if (!cfg->reachable[b] || !t || LLVMGetInstructionOpcode(t) != LLVMRet ||
        LLVMGetNumOperands(t) == 0)
      continue;
    if (origin_of(u, LLVMGetOperand(t, 0)) || u->why[b] != AUCS_WHY_UNIFORM)
      return 1;
  }
  return 0;
}

/* 1 when defined function fn returns a varying value given uniform
 * arguments. */
static int summary_varies(aucs_uniformity *u, LLVMValueRef fn) {
  intptr_t state;
  if (aucs_ptrmap_get(u->summaries, fn, &state))
    return state != SAME;
  aucs_ptrmap_put(u->summaries, fn, IN_PROGRESS);
  aucs_cfg *cfg = aucs_cfg_build(fn);
  aucs_uniformity *callee = compute(cfg, u->summaries);
  int varies = returns_vary(callee);
  aucs_uniform_free(callee);
  aucs_cfg_free(cfg);
  aucs_ptrmap_put(u->summaries, fn, varies ? VARIES : SAME);
  return varies;
}

static const char *nvvm_origin(aucs_uniformity *u, LLVMValueRef call,
                               const char *name) {
  switch (aucs_nvvm_classify(name)) {
  case AUCS_NVVM_VARYING:
  case AUCS_NVVM_WARP:
  case AUCS_NVVM_ATOMIC:
  case AUCS_NVVM_SYNC_OTHER:
    return aucs_nvvm_origin(name);
  case AUCS_NVVM_LOAD:
  case AUCS_NVVM_PURE:
    return arg_origin(u, call, ~0u);
  default:
    return NULL;
  }
}

static const char *call_origin(aucs_uniformity *u, LLVMValueRef call,
                               LLVMValueRef fn, const char *name) {
  if (aucs_nvvm_classify(name) != AUCS_NVVM_NONE)
    return nvvm_origin(u, call, name);
  if (starts(name, "llvm."))
    return is_convergent(fn) ? call_seed(u, name) : arg_origin(u, call, ~0u);
  const char *o = arg_origin(u, call, ~0u);
  if (o || starts(name, "__nv_"))
    return o;
  if (LLVMIsDeclaration(fn) || summary_varies(u, fn))
    return call_seed(u, name);
  return NULL;
}

static void eval_call(aucs_uniformity *u, LLVMValueRef call) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (LLVMIsAInlineAsm(callee)) {
    make_varying(u, call, "asm");
    return;
  }
  if (!LLVMIsAFunction(callee)) {
    make_varying(u, call, "indirect call");
    return;
  }
  const char *name = callee_name(call);
  if (is_mem_intrinsic(name))
    eval_mem(u, call);
  else if (!is_void(call) && !origin_of(u, call))
    make_varying(u, call, call_origin(u, call, callee, name));
}

/* ---- control dependence, joins and loops ---- */

static uint64_t side_bit(int i) { return (uint64_t)1 << (i < 63 ? i : 63); }

/* The nearest common post-dominator of a and c (AUCS_CFG_EXIT if none). */
static int common_postdom(const aucs_cfg *cfg, int a, int c) {
  unsigned char *seen = aucs_xcalloc((size_t)cfg->nblocks, 1);
  int r = AUCS_CFG_EXIT;
  for (int x = a; x >= 0; x = cfg->ipdom[x])
    seen[x] = 1;
  for (int x = c; x >= 0 && r == AUCS_CFG_EXIT; x = cfg->ipdom[x])
    if (seen[x])
      r = x;
  free(seen);
  return r;
}

/* Where threads split at b meet again. A successor from which every path
 * ends in `unreachable` (a trap, a switch default clang proved impossible)
 * is left out: no thread that gets there lives on to the join. */
static int reconverge(const aucs_uniformity *u, int b) {
  const aucs_cfg *cfg = u->cfg;
  int stop = AUCS_CFG_NONE;
  for (int i = 0; i < cfg->nsucc[b]; i++) {
    int s = cfg->succ[b][i];
    if (u->returns[s])
      stop = stop == AUCS_CFG_NONE ? s : common_postdom(cfg, stop, s);
  }
  return stop == AUCS_CFG_NONE ? cfg->ipdom[b] : stop;
}

/* Marks every block reachable from b's successors (used when b has no
 * post-dominator: it cannot reach the exit). */
static void mark_reachable(aucs_uniformity *u, int b, aucs_why why) {
  const aucs_cfg *cfg = u->cfg;
  unsigned char *seen = aucs_xcalloc((size_t)cfg->nblocks, 1);
  int *stack = aucs_xmalloc(sizeof(int) * (size_t)cfg->nblocks);
  int n = 0;
  stack[n++] = b;
  while (n) {
    int x = stack[--n];
    for (int i = 0; i < cfg->nsucc[x]; i++) {
      int s = cfg->succ[x][i];
      if (!seen[s]) {
        seen[s] = 1;
        stack[n++] = s;
        mark_block(u, s, why, b, -1);
      }
    }
  }
  free(stack);
  free(seen);
}

/* The blocks control-dependent on b's branch become non-uniform. */
static void mark_dependents(aucs_uniformity *u, int b, aucs_why why) {
  const aucs_cfg *cfg = u->cfg;
  int stop = reconverge(u, b);
  if (stop == AUCS_CFG_NONE) {
    mark_reachable(u, b, why);
    return;
  }
  for (int i = 0; i < cfg->nsucc[b]; i++)
    for (int x = cfg->succ[b][i]; x >= 0 && x != stop; x = cfg->ipdom[x])
      mark_block(u, x, why, b, -1);
}

/* mask[x]: which successors of b reach block x by non-loop edges without
 * passing stop, where they reconverge (bit i for successor i). Free with
 * free(). */
static uint64_t *sides(const aucs_cfg *cfg, int b, int stop) {
  uint64_t *mask = aucs_xcalloc((size_t)cfg->nblocks, sizeof *mask);
  for (int i = 0; i < cfg->nsucc[b]; i++)
    if (!cfg->loop_edge[b][i])
      mask[cfg->succ[b][i]] |= side_bit(i);
  for (int p = cfg->topo_index[b] + 1; p < cfg->ntopo; p++) {
    int x = cfg->topo[p];
    if (x == stop || !mask[x])
      continue;
    for (int i = 0; i < cfg->nsucc[x]; i++)
      if (!cfg->loop_edge[x][i])
        mask[cfg->succ[x][i]] |= mask[x];
  }
  return mask;
}

static int succ_index(const aucs_cfg *cfg, int p, int x) {
  for (int i = 0; i < cfg->nsucc[p]; i++)
    if (cfg->succ[p][i] == x)
      return i;
  return -1;
}

/* The sides of b that the edge p -> x carries, 0 for none. */
static uint64_t edge_sides(const aucs_cfg *cfg, int b, int stop,
                           const uint64_t *mask, int p, int x) {
  int i = succ_index(cfg, p, x);
  if (i < 0 || cfg->loop_edge[p][i] || p == stop)
    return 0;
  return p == b ? side_bit(i) : mask[p];
}

/* 1 when threads split at b may enter x by different edges. */
static int is_join(const aucs_cfg *cfg, int b, int stop, const uint64_t *mask,
                   int x) {
  uint64_t all = 0;
  int edges = 0;
  for (int i = 0; i < cfg->npred[x]; i++) {
    uint64_t m = edge_sides(cfg, b, stop, mask, cfg->pred[x][i], x);
    all |= m;
    edges += m != 0;
  }
  int many = (all & (all - 1)) != 0 || cfg->nsucc[b] > 63;
  return edges >= 2 && many;
}

static int same_incoming(LLVMValueRef phi) {
  unsigned n = LLVMCountIncoming(phi);
  for (unsigned i = 1; i < n; i++)
    if (LLVMGetIncomingValue(phi, i) != LLVMGetIncomingValue(phi, 0))
      return 0;
  return 1;
}

static void vary_phis(aucs_uniformity *u, int x) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(u->cfg->blocks[x]);
       i && LLVMIsAPHINode(i); i = LLVMGetNextInstruction(i))
    if (!same_incoming(i))
      make_whole(u, i, "divergent join");
}

static void join_phis(aucs_uniformity *u, int b, int stop,
                      const uint64_t *mask) {
  for (int x = 0; x < u->cfg->nblocks; x++)
    if (mask[x] && x != b && is_join(u->cfg, b, stop, mask, x))
      vary_phis(u, x);
}

static int used_outside(const aucs_uniformity *u, int l, LLVMValueRef v) {
  for (LLVMUseRef use = LLVMGetFirstUse(v); use; use = LLVMGetNextUse(use)) {
    LLVMValueRef user = LLVMGetUser(use);
    int b = LLVMIsAInstruction(user) ? block_of(u, user) : -1;
    if (b >= 0 && !aucs_cfg_in_loop(u->cfg, l, b))
      return 1;
  }
  return 0;
}

static void loop_diverges(aucs_uniformity *u, int l, int exit) {
  const aucs_cfg *cfg = u->cfg;
  if (u->loop_divergent[l])
    return;
  u->loop_divergent[l] = 1;
  for (int b = 0; b < cfg->nblocks; b++) {
    if (!aucs_cfg_in_loop(cfg, l, b))
      continue;
    mark_block(u, b, AUCS_WHY_LOOP, cfg->loops[l].header, exit);
    for (LLVMValueRef i = LLVMGetFirstInstruction(cfg->blocks[b]); i;
         i = LLVMGetNextInstruction(i))
      if (used_outside(u, l, i))
        make_whole(u, i, "divergent loop exit");
  }
}

/* The exiting block of loop l to blame for b's divergence. */
static int blamed_exit(const aucs_cfg *cfg, int l, int b,
                       const uint64_t *mask) {
  const aucs_loop *loop = &cfg->loops[l];
  for (int i = 0; i < loop->nexiting; i++)
    if (loop->exiting[i] == b)
      return b;
  for (int i = 0; i < loop->nexiting; i++)
    if (mask[loop->exiting[i]])
      return loop->exiting[i];
  return b;
}

static void divergent_loops(aucs_uniformity *u, int b, int stop,
                            const uint64_t *mask) {
  const aucs_cfg *cfg = u->cfg;
  for (int l = 0; l < cfg->nloops; l++) {
    if (!aucs_cfg_in_loop(cfg, l, b))
      continue;
    if (stop >= 0 && aucs_cfg_in_loop(cfg, l, stop))
      continue;
    loop_diverges(u, l, blamed_exit(cfg, l, b, mask));
  }
}

static void diverge(aucs_uniformity *u, int b) {
  int stop = reconverge(u, b);
  uint64_t *mask = sides(u->cfg, b, stop);
  mark_dependents(u, b, AUCS_WHY_BRANCH);
  join_phis(u, b, stop, mask);
  divergent_loops(u, b, stop, mask);
  free(mask);
}

static LLVMValueRef branch_condition(LLVMValueRef term) {
  switch (LLVMGetInstructionOpcode(term)) {
  case LLVMBr:
    return LLVMIsConditional(term) ? LLVMGetCondition(term) : NULL;
  case LLVMSwitch:
  case LLVMIndirectBr:
    return LLVMGetOperand(term, 0);
  default:
    return NULL;
  }
}

static void eval_branch(aucs_uniformity *u, LLVMValueRef term) {
  int b = block_of(u, term);
  if (u->cfg->nsucc[b] < 2)
    return;
  if (!u->divergent[b] && origin_of(u, branch_condition(term))) {
    u->divergent[b] = 1;
    diverge(u, b);
  }
  if (!u->spread[b] && u->why[b] != AUCS_WHY_UNIFORM) {
    u->spread[b] = 1;
    mark_dependents(u, b, AUCS_WHY_NONUNIFORM);
  }
}

static void eval(aucs_uniformity *u, LLVMValueRef inst) {
  switch (LLVMGetInstructionOpcode(inst)) {
  case LLVMAtomicRMW:
  case LLVMAtomicCmpXchg:
    make_varying(u, inst, "atomic");
    break;
  case LLVMLoad:
    eval_load(u, inst);
    break;
  case LLVMStore:
    eval_store(u, inst);
    break;
  case LLVMCall:
    eval_call(u, inst);
    break;
  case LLVMBr:
  case LLVMSwitch:
  case LLVMIndirectBr:
    eval_branch(u, inst);
    break;
  case LLVMAlloca:
    break;
  default:
    if (!is_void(inst))
      eval_operands(u, inst);
  }
}

/* ---- driver ---- */

static int is_ret(LLVMBasicBlockRef bb) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
  return t && LLVMGetInstructionOpcode(t) == LLVMRet;
}

/* returns[b]: some path from b reaches a ret (backwards from the rets). */
static unsigned char *find_returns(const aucs_cfg *cfg, aucs_arena *a) {
  unsigned char *returns = AUCS_ANEW(a, unsigned char, cfg->nblocks);
  int *stack = aucs_xmalloc(sizeof(int) * (size_t)cfg->nblocks), n = 0;
  for (int b = 0; b < cfg->nblocks; b++)
    if (is_ret(cfg->blocks[b])) {
      returns[b] = 1;
      stack[n++] = b;
    }
  while (n) {
    int x = stack[--n];
    for (int i = 0; i < cfg->npred[x]; i++) {
      int p = cfg->pred[x][i];
      if (!returns[p]) {
        returns[p] = 1;
        stack[n++] = p;
      }
    }
  }
  free(stack);
  return returns;
}

static aucs_uniformity *alloc(const aucs_cfg *cfg) {
  aucs_arena *a = aucs_arena_new();
  aucs_uniformity *u = AUCS_ANEW(a, aucs_uniformity, 1);
  int n = cfg->nblocks;
  u->cfg = cfg;
  u->arena = a;
  u->td = LLVMGetModuleDataLayout(LLVMGetGlobalParent(cfg->fn));
  u->why = AUCS_ANEW(a, aucs_why, n);
  u->why_block = AUCS_ANEW(a, int, n);
  u->why_aux = AUCS_ANEW(a, int, n);
  u->divergent = AUCS_ANEW(a, unsigned char, n);
  u->spread = AUCS_ANEW(a, unsigned char, n);
  u->loop_divergent = AUCS_ANEW(a, unsigned char, cfg->nloops);
  u->returns = find_returns(cfg, a);
  for (int b = 0; b < n; b++) {
    u->why[b] = cfg->reachable[b] ? AUCS_WHY_UNIFORM : AUCS_WHY_UNREACHABLE;
    u->why_block[b] = u->why_aux[b] = -1;
  }
  return u;
}

static void seed(aucs_uniformity *u) {
  const aucs_cfg *cfg = u->cfg;
  for (int t = 0; t < cfg->ntopo; t++) {
    LLVMBasicBlockRef bb = cfg->blocks[cfg->topo[t]];
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i)) {
      if (LLVMIsAAllocaInst(i))
        seed_escaped(u, i);
      push(u, i);
    }
  }
}

static aucs_uniformity *compute(const aucs_cfg *cfg, aucs_ptrmap *summaries) {
  aucs_uniformity *u = alloc(cfg);
  u->summaries = summaries;
  if (!aucs_ptrmap_get(summaries, cfg->fn, NULL))
    aucs_ptrmap_put(summaries, cfg->fn, IN_PROGRESS);
  seed(u);
  for (LLVMValueRef i = pop(u); i; i = pop(u))
    eval(u, i);
  free(u->work.v);
  u->work = (vec){0};
  aucs_ptrmap_free(&u->queued);
  u->summaries = NULL;
  return u;
}

aucs_uniformity *aucs_uniform_compute(const aucs_cfg *cfg) {
  aucs_ptrmap summaries = {0};
  aucs_uniformity *u = compute(cfg, &summaries);
  aucs_ptrmap_free(&summaries);
  return u;
}

void aucs_uniform_free(aucs_uniformity *u) {
  if (!u)
    return;
  aucs_ptrmap_free(&u->varying);
  aucs_ptrmap_free(&u->slots);
  aucs_ptrmap_free(&u->bytes);
  aucs_ptrmap_free(&u->whole);
  aucs_arena_free(u->arena);
}

static void check_block(const aucs_uniformity *u, int b) {
  AUCS_ASSERT(b >= 0 && b < u->cfg->nblocks);
}

int aucs_uniform_block(const aucs_uniformity *u, int b) {
  check_block(u, b);
  return u->why[b] == AUCS_WHY_UNIFORM;
}

aucs_why aucs_uniform_why(const aucs_uniformity *u, int b, int *block,
                          int *aux) {
  check_block(u, b);
  if (block)
    *block = u->why_block[b];
  if (aux)
    *aux = u->why_aux[b];
  return u->why[b];
}

int aucs_uniform_branch_divergent(const aucs_uniformity *u, int b) {
  check_block(u, b);
  return u->divergent[b];
}

int aucs_uniform_varying(const aucs_uniformity *u, LLVMValueRef v) {
  return origin_of(u, v) != NULL;
}

const char *aucs_uniform_origin(const aucs_uniformity *u, LLVMValueRef v) {
  return origin_of(u, v);
}
