/*
 * repair_inline: a finding inside a __device__ helper made a finding of its
 * kernel (repair.c's step 2b, before the plan): the calls leading to its
 * instructions are inlined into the kernel (inline-call edits), and the
 * finding is pointed at its copy there: by repair id when each has one
 * copy, by a memo of an earlier trial's detection, or by detecting the
 * inlined kernel again, stopped at the first copy of the finding.
 */
#include "repair_impl.h"

static int inline_call(state *s, trial *t, LLVMValueRef call) {
  LLVMValueRef fn = rp_fn_of(call);
  aucs_edit e = {.kind = AUCS_EDIT_INLINE_CALL, .id = aucs_repair_id(call)};
  e.where = rp_where(call, ":");
  e.source = aucs_srcloc_format(call);
  e.why = aucs_xstrdup("the edit lands inside a __device__ helper: this "
                       "call is inlined so other callers keep the helper "
                       "as it is");
  rp_log_edit(s, t, e, fn);
  return rp_trial_op(t, (op){OP_INLINE, rp_pos_of(call), 0, 0, 0, {0, 0, 0}}) !=
         NULL;
}

/* ---- helpers: inline the calls that lead to an instruction ---------------*/

static LLVMValueRef defined_callee(LLVMValueRef I) {
  if (!LLVMIsACallInst(I))
    return NULL;
  LLVMValueRef f = LLVMGetCalledValue(I);
  return f && LLVMIsAFunction(f) && LLVMCountBasicBlocks(f) ? f : NULL;
}

static int leads_to(LLVMValueRef fn, LLVMValueRef target, aucs_ptrmap *seen) {
  if (fn == target)
    return 1;
  if (aucs_ptrmap_get(seen, fn, NULL))
    return 0;
  aucs_ptrmap_put(seen, fn, 1);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I)) {
      LLVMValueRef f = defined_callee(I);
      if (f && leads_to(f, target, seen))
        return 1;
    }
  return 0;
}

/* A call of kernel leading to target's function, or NULL. */
static LLVMValueRef call_towards(LLVMValueRef kernel, LLVMValueRef target) {
  if (!target || rp_fn_of(target) == kernel)
    return NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(kernel); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I)) {
      LLVMValueRef f = defined_callee(I);
      aucs_ptrmap seen = {0};
      int hit = f && leads_to(f, rp_fn_of(target), &seen);
      aucs_ptrmap_free(&seen);
      if (hit)
        return I;
    }
  return NULL;
}

/* The one instruction of fn with repair id `id` (inlining copies the
 * helper's ids), or NULL when there is none or more than one. */
LLVMValueRef rp_unique_id(LLVMValueRef fn, unsigned id) {
  LLVMValueRef found = NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I))
      if (id && aucs_repair_id(I) == id) {
        if (found)
          return NULL;
        found = I;
      }
  return found;
}

/* Point *f at its instructions' copies in kernel after inlining, when each
 * has exactly one: the same finding, found without detecting the inlined
 * kernel again (the trial's detection still checks the edit). 1 when
 * done. */
static int map_inlined(trial *t, LLVMValueRef kernel, const aucs_finding **f) {
  const aucs_finding *g = *f;
  LLVMValueRef a = rp_unique_id(kernel, aucs_repair_id(g->a.instr));
  LLVMValueRef b =
      g->b.instr ? rp_unique_id(kernel, aucs_repair_id(g->b.instr)) : NULL;
  if (!a || (g->b.instr && !b))
    return 0;
  t->inlined = (aucs_finding){.kind = g->kind,
                              .a = {.instr = a},
                              .b = {.instr = b},
                              .message = g->message};
  *f = &t->inlined;
  return 1;
}

/* Make f's instructions (in the clone) instructions of kernel: inline the
 * calls leading to them and point *f at the same finding there (by ids, or
 * else by detecting the inlined kernel again). 0 on success. */
static int same_pos(pos x, pos y) {
  return x.fn == y.fn && x.bb == y.bb && x.ins == y.ins;
}

static pos pos_or_none(LLVMValueRef I) {
  return I ? rp_pos_of(I) : (pos){-1, -1, -1};
}

/* The memo of t's item, from f, on the module as it is now, or NULL. */
static const prep_memo *memo_of(const state *s, const trial *t,
                                const aucs_finding *f) {
  pos a = pos_or_none(f->a.instr), b = pos_or_none(f->b.instr);
  for (size_t i = 0; i < s->nmemo; i++) {
    const prep_memo *m = &s->memo[i];
    if (m->item == t->item && m->version == s->version &&
        same_pos(m->from_a, a) && same_pos(m->from_b, b))
      return m;
  }
  return NULL;
}

/* A previous trial's detection of the inlined kernel answers this one: 0
 * with *f set, 1 when the finding was gone; -1 when there is none. */
static int recall_inlined(const state *s, trial *t, const aucs_finding **f) {
  const prep_memo *m = memo_of(s, t, *f);
  if (!m)
    return -1;
  if (!m->found) {
    t->why = aucs_xstrdup("the finding went away once its helper was inlined");
    return 1;
  }
  t->inlined =
      (aucs_finding){.kind = (*f)->kind,
                     .a = {.instr = rp_at_pos(t->c, m->a)},
                     .b = {.instr = m->has_b ? rp_at_pos(t->c, m->b) : NULL},
                     .message = (*f)->message};
  *f = &t->inlined;
  return 0;
}

static void remember_inlined(state *s, const trial *t, const aucs_finding *from,
                             const aucs_finding *f) {
  s->memo = aucs_xrealloc(s->memo, (s->nmemo + 1) * sizeof *s->memo);
  prep_memo *m = &s->memo[s->nmemo++];
  *m = (prep_memo){.item = t->item,
                   .version = s->version,
                   .from_a = pos_or_none(from->a.instr),
                   .from_b = pos_or_none(from->b.instr),
                   .found = f != NULL};
  if (f) {
    m->a = rp_pos_of(f->a.instr);
    m->has_b = f->b.instr != NULL;
    if (m->has_b)
      m->b = rp_pos_of(f->b.instr);
  }
}

int rp_prepare(state *s, trial *t, LLVMValueRef *kernel,
               const aucs_finding **f) {
  LLVMValueRef call;
  int inlined = 0;
  for (int i = 0; i < 32; i++) {
    call = call_towards(*kernel, (*f)->a.instr);
    if (!call)
      call = call_towards(*kernel, (*f)->b.instr);
    if (!call)
      break;
    if (!inline_call(s, t, call))
      return 1;
    inlined = 1;
  }
  if (!inlined)
    return 0;
  if (map_inlined(t, *kernel, f))
    return 0;
  int known = recall_inlined(s, t, f);
  if (known >= 0)
    return known;
  const aucs_finding *from = *f;
  if (t->has_prep) /* a later copy's plan (plan_copies) */
    aucs_detect_report_free(&t->prep);
  t->has_prep = 0;
  t->locating = 1;
  int rc = rp_detect_trial(s, t, &t->prep);
  t->locating = 0;
  if (rc)
    return 1;
  t->has_prep = 1;
  *f = rp_lookup(&t->prep, &s->r->items[t->item], kernel);
  if (rp_tracing())
    fprintf(stderr, "aucs: repair: item %d: located after inlining: %s\n",
            t->item,
            !*f          ? "gone"
            : t->stopped ? "stopped at its first copy"
                         : "found in a full detection");
  /* a stopped detection is partial: only what it found is remembered */
  if (!rp_cut_short(&t->prep) && (*f || !t->stopped))
    remember_inlined(s, t, from, *f);
  if (!*f) {
    t->why = aucs_xstrdup("the finding went away once its helper was inlined");
    return 1;
  }
  return 0;
}
