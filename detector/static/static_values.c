/*
 * static: whether two racing stores write the same value (static.h,
 * aucs_static_same_value; the algorithm is in static.c, the shared types
 * in static_impl.h).
 *
 * `if (valid) out[blockIdx.x] = s_idx[0];` after a reduction: every thread
 * of the block writes one value, read from shared memory after the last
 * barrier, to one address. The race is benign when the two values are
 * equal whenever two threads write one place:
 *   1. Epochs agree: every barrier of the kernel lies in a uniform block
 *      (none in a helper, no __syncwarp), so every thread passes the same
 *      barriers before an instruction that no loop holding a barrier
 *      holds: every thread runs it in one and the same barrier interval
 *      (however often: the loops around it hold no barrier).
 *   2. A load is stable when it runs in that one interval (in the kernel,
 *      or in a helper whose call sites up to the kernel are such), is
 *      plain, and reads memory no thread writes there: every pair of it
 *      with a write is UNSAT (a writer of the address would race with one
 *      of two readers), or it reads constant memory. Two threads that load
 *      from equal addresses then read equal values: in the value queries a
 *      stable load is one uninterpreted function of its address for both
 *      threads ("mem<k>", one per load and frame), other loads stay fresh.
 *   3. Each query of the stores' pair that is not UNSAT (the pair's ways
 *      of meeting: loop modes, warps, regions) is asked again with the two
 *      stored values different (static_query.c, st_ask_values). All UNSAT
 *      proves the values equal.
 * The queries spend the kernel's solver budget, plus AUCS_STATIC_VALUES_MS
 * once for them all.
 *
 * Limitation: a value read in a loop that holds a barrier, or in a kernel
 * with barriers in divergent blocks, in helpers or __syncwarp calls is
 * not followed (not proven); stores of different widths or of vectors are
 * not compared.
 */
#include "static_impl.h"

/* Block b of the kernel lies in no loop that holds one of its barriers. */
static int outside_barrier_loops(const aucs_static *S, int b) {
  const aucs_cfg *cfg = S->cfg;
  for (int l = 0; l < cfg->nloops; l++) {
    if (!aucs_cfg_in_loop(cfg, l, b))
      continue;
    for (size_t i = 0; i < S->nbar; i++)
      if (aucs_cfg_in_loop(cfg, l, st_block_of(cfg, S->bars[i])))
        return 0;
  }
  return 1;
}

/* Every thread runs I (of frame f) in one barrier interval, the same for
 * all (step 1): its kernel-level instruction lies outside the kernel's
 * loops that hold a barrier (helpers hold none). */
static int one_interval(const aucs_static *S, const frame *f, LLVMValueRef I) {
  for (; f->call; f = f->parent)
    I = f->call;
  int b = st_block_of(S->cfg, I);
  return b >= 0 && outside_barrier_loops(S, b);
}

static int has_barrier(LLVMValueRef fn) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b;
       b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef I = LLVMGetFirstInstruction(b); I;
         I = LLVMGetNextInstruction(I))
      if (LLVMIsACallInst(I) &&
          aucs_nvvm_is_barrier(aucs_nvvm_classify(st_callee_name(I))))
        return 1;
  return 0;
}

/* Step 1. */
static int epochs_agree(const aucs_static *S) {
  if (S->nwarp)
    return 0;
  for (size_t i = 0; i < S->nbar; i++)
    if (!S->bar_sep[i])
      return 0;
  for (int i = 1; i < S->nframes; i++)
    if (has_barrier(S->frames[i]->fn))
      return 0;
  return 1;
}

/* Read-only memory: the constant address space, or a constant global. */
static int constant_memory(LLVMValueRef p) {
  for (int guard = 0; guard < 64; guard++) {
    if (LLVMGetTypeKind(LLVMTypeOf(p)) == LLVMPointerTypeKind &&
        LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == 4)
      return 1;
    if (LLVMIsAGlobalVariable(p))
      return LLVMIsGlobalConstant(p);
    LLVMOpcode op = LLVMIsAInstruction(p)    ? LLVMGetInstructionOpcode(p)
                    : LLVMIsAConstantExpr(p) ? LLVMGetConstOpcode(p)
                                             : LLVMRet;
    if (op != LLVMGetElementPtr && op != LLVMAddrSpaceCast && op != LLVMBitCast)
      return 0;
    p = LLVMGetOperand(p, 0);
  }
  return 0;
}

/* Every pair of load with a write is UNSAT (step 2); 0 when the load is
 * no access of shared or global memory. */
static int never_written(const aucs_static *S, LLVMValueRef load) {
  int access = 0;
  for (int i = 0; i < S->nacc && !access; i++)
    access = S->accs[i].instr == load;
  if (!access)
    return 0;
  for (size_t i = 0; i < S->npairs; i++) {
    const aucs_static_pair *p = &S->pairs[i];
    if ((p->a.instr == load || p->b.instr == load) &&
        p->verdict != AUCS_STATIC_UNSAT)
      return 0;
  }
  return 1;
}

static int stable(aucs_static *S, frame *f, LLVMValueRef load) {
  if (LLVMGetVolatile(load) ||
      LLVMGetOrdering(load) != LLVMAtomicOrderingNotAtomic ||
      !one_interval(S, f, load))
    return 0;
  return constant_memory(LLVMGetOperand(load, 0)) || never_written(S, load);
}

/* The k of load in frame f (its function mem<k>), 0 when it is not
 * stable; decided once per load and frame. */
static long stable_index(aucs_static *S, frame *f, LLVMValueRef load) {
  for (size_t i = 0; i < S->nstable; i++)
    if (S->stable[i].load == load && S->stable[i].f == f)
      return S->stable[i].k;
  S->stable = aucs_xrealloc(S->stable, (S->nstable + 1) * sizeof *S->stable);
  long k = stable(S, f, load) ? (long)S->nstable + 1 : 0;
  S->stable[S->nstable++] = (stable_load){f, load, k};
  return k;
}

/* Step 2: a stable load's value (of sort s), mem<k>(address), or NULL. */
Z3_ast st_stable_load(enc *e, frame *f, LLVMValueRef load, Z3_sort s) {
  long k = stable_index(e->S, f, load);
  Z3_ast addr = k ? st_val(e, f, LLVMGetOperand(load, 0)) : NULL;
  if (!addr)
    return NULL;
  char name[32];
  snprintf(name, sizeof name, "mem%ld", k);
  return aucs_uf_apply(e->z, name, 1, &addr, s);
}

static int is_pair(const aucs_static *S, const query *q, LLVMValueRef a,
                   LLVMValueRef b) {
  LLVMValueRef x = S->accs[q->a].instr, y = S->accs[q->b].instr;
  return (x == a && y == b) || (x == b && y == a);
}

int aucs_static_same_value(aucs_static *S, LLVMValueRef a, LLVMValueRef b,
                           struct aucs_budget *budget) {
  if (S->cut || !LLVMIsAStoreInst(a) || !LLVMIsAStoreInst(b) ||
      !epochs_agree(S))
    return 0;
  if (!S->values_budget) {
    S->values_budget = 1;
    S->o.budget_ms += AUCS_STATIC_VALUES_MS;
  }
  struct aucs_budget *own = S->o.budget;
  if (budget)
    S->o.budget = budget;
  int asked = 0, proven = 1;
  for (size_t i = 0; proven && i < S->base.n; i++) {
    const query *q = &S->qs[S->base.v[i]];
    if (q->inter || !is_pair(S, q, a, b) || q->verdict == AUCS_STATIC_UNSAT)
      continue;
    asked++;
    proven = st_ask_values(S, q) == AUCS_SMT_UNSAT;
  }
  S->o.budget = own;
  return proven && asked;
}
