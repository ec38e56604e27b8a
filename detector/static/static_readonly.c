/*
 * static: loads of memory no thread of the kernel writes, as one function
 * of their address for both threads of a query
 * (the algorithm is in static.c, the shared types in static_impl.h).
 *
 * `first = d_box[blockIdx.x].offset; out = &d_fv[first];`: every thread
 * of a block reads one offset from a table the kernel only reads, then
 * writes out[tid]. Two threads of the block write out[tid] at distinct
 * places only when they read the same offset, which a fresh value per
 * thread does not say. Here:
 *   1. A read-only object is the root of a load (a pointer argument, a
 *      global variable, a pointer field of a byval parameter) that no
 *      write access of the kernel and its helpers may touch: no store,
 *      atomic, memory intrinsic, surface store or call through an unknown
 *      callee whose object may overlap it (the same rule as a pair's,
 *      st_may_overlap: an unknown object overlaps every object of its
 *      space; with --may-alias an argument overlaps other arguments and
 *      globals unless one is noalias).
 *   2. During one launch the bytes of such an object never change, so two
 *      loads of one width from one address read one value, in any thread,
 *      block and barrier interval: the load is ro<k>.<W>(address), an
 *      uninterpreted function per object k and width W, the same for both
 *      threads. A witness may choose the function freely (a run reads the
 *      buffer's fill): a SAT answer through it is a possible race until a
 *      run shows it.
 * Only plain loads (not volatile, not atomic) that are accesses of the
 * kernel (step 1: shared or global memory) are followed, and none in a
 * kernel that calls through a pointer or calls a defined function step 1
 * does not follow (deeper than its limit, recursive): such a callee may
 * write any global without an access of step 1.
 *
 * Limitation: functions the kernel only declares (not library calls) are
 * taken to write nothing, as the runs take them; an object written
 * anywhere in the kernel (even in another barrier interval) keeps its
 * loads fresh values per thread.
 */
#include "static_impl.h"

enum { RO_WRITTEN = -1 };

/* The access of load in frame f (step 1), or NULL. */
static const acc *access_of(const aucs_static *S, const frame *f,
                            LLVMValueRef load) {
  for (int i = 0; i < S->nacc; i++)
    if (S->accs[i].instr == load && S->accs[i].f == f)
      return &S->accs[i];
  return NULL;
}

/* Some write access of the kernel may touch root (of space sp). */
static int written(const aucs_static *S, LLVMValueRef root, int sp) {
  for (int i = 0; i < S->nacc; i++) {
    const acc *w = &S->accs[i];
    if (w->op != AUCS_OP_READ && (w->space & sp) &&
        st_may_overlap(S, w->root, root))
      return 1;
  }
  return 0;
}

/* A frame of S for the call I made in frame f. */
static int followed(const aucs_static *S, const frame *f, LLVMValueRef I) {
  for (int i = 0; i < S->nframes; i++)
    if (S->frames[i]->call == I && S->frames[i]->parent == f)
      return 1;
  return 0;
}

/* Some call of a frame may write memory step 1 has no access for: a call
 * through a pointer, or of a defined function step 1 did not follow (too
 * deep, recursive), which may write any global without a pointer
 * argument. Intrinsics, library calls and inline asm write through their
 * operands only (step 1's accesses); declared functions nothing. */
static int unfollowed_calls(const aucs_static *S) {
  for (int i = 0; i < S->nframes; i++) {
    const frame *f = S->frames[i];
    for (int b = 0; b < f->cfg->nblocks; b++) {
      if (!f->cfg->reachable[b])
        continue;
      for (LLVMValueRef I = LLVMGetFirstInstruction(f->cfg->blocks[b]); I;
           I = LLVMGetNextInstruction(I)) {
        if (!LLVMIsACallInst(I))
          continue;
        LLVMValueRef c = LLVMGetCalledValue(I);
        if (LLVMIsAInlineAsm(c))
          continue;
        if (!c || !LLVMIsAFunction(c) ||
            (st_defined_callee(I) && !followed(S, f, I)))
          return 1;
      }
    }
  }
  return 0;
}

/* k >= 2 of a read-only root, decided once per root; 0 when written. */
static long readonly_index(aucs_static *S, const acc *a) {
  intptr_t got;
  if (!S->nreadonly) /* decided once: index 1 means none is read only */
    S->nreadonly = unfollowed_calls(S) ? 1 : 2;
  if (S->nreadonly == 1)
    return 0;
  if (!aucs_ptrmap_get(&S->readonly, a->root, &got)) {
    got = written(S, a->root, a->space) ? RO_WRITTEN
                                        : (intptr_t)S->nreadonly++;
    aucs_ptrmap_put(&S->readonly, a->root, got);
  }
  return got == RO_WRITTEN ? 0 : (long)got;
}

/* A load of a read-only object: ro<k>.<W>(address) of sort s; NULL for any
 * other load. */
Z3_ast st_readonly_load(enc *e, frame *f, LLVMValueRef load, Z3_sort s) {
  if (LLVMGetVolatile(load) ||
      LLVMGetOrdering(load) != LLVMAtomicOrderingNotAtomic)
    return NULL;
  const acc *a = access_of(e->S, f, load);
  long k = a && a->root && !a->opaque ? readonly_index(e->S, a) : 0;
  Z3_ast addr = k ? st_val(e, f, LLVMGetOperand(load, 0)) : NULL;
  if (!addr)
    return NULL;
  char name[48];
  snprintf(name, sizeof name, "ro%ld.%u", k, Z3_get_bv_sort_size(e->z, s));
  return aucs_uf_apply(e->z, name, 1, &addr, s);
}
