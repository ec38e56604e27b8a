/*
 * patch_helper: the source form of a barrier the repair put into code it
 * had inlined from a __device__ helper (patch.c, `fix --patch`).
 *
 * The repair inlines a helper into the kernel before it edits the
 * helper's code (DESIGN.md 6.3, "Calls"), so the barrier's place is a
 * statement of the helper's body, not of the kernel line that calls it.
 * When that inlined copy is the only code of the module built from the
 * helper's statement, the helper's source edit is the IR edit:
 *
 *   1. Find the instructions around the barrier that carry a source line:
 *      the next one (through unconditional jumps) and the previous one
 *      that touches memory (through a single unconditional predecessor);
 *      read their innermost (helper) locations.
 *   2. The next one must be in this file and in inlined code; every
 *      instruction of the module on its line must be in that same inlined
 *      copy (or in an out-of-line definition nothing calls): otherwise the
 *      statement is shared (other calls, other template instances), and a
 *      barrier before it takes the every-call form of patch_shared.c.
 *   3. As for a barrier of the kernel's own code: the previous access on
 *      the same line of the same copy means the barrier splits that
 *      statement (split form), on a later line of it that the barrier ends
 *      a loop body (after form), else it goes before the next statement
 *      (insert form).
 *
 * Limitation: a helper whose statement spans lines or shares its line
 * with another statement gets the reasons of the forms in patch_forms.c.
 */
#include "patch_impl.h"

#include "aucs/cfg.h"
#include "aucs/kernel.h"
#include "aucs/place.h"

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>

#include <string.h>

/* The innermost location of I: line, its inlinedAt, and whether its file's
 * basename is base. */
typedef struct inner {
  unsigned line;
  LLVMMetadataRef at; /* the call site it was inlined at, NULL if none */
  int here;
} inner;

static int same_base(const char *file, unsigned len, const char *base) {
  const char *slash = file;
  for (unsigned i = 0; i < len; i++)
    if (file[i] == '/')
      slash = file + i + 1;
  size_t n = (size_t)(file + len - slash);
  return n == strlen(base) && !strncmp(slash, base, n);
}

static int loc_here(LLVMMetadataRef loc, const char *base) {
  LLVMMetadataRef file = LLVMDIScopeGetFile(LLVMDILocationGetScope(loc));
  unsigned len = 0;
  const char *name = file ? LLVMDIFileGetFilename(file, &len) : NULL;
  return name && same_base(name, len, base);
}

/* The innermost location of I in this file (code inlined from a header
 * counts as the statement of this file that calls it). */
static inner inner_of(LLVMValueRef I, const char *base) {
  inner r = {0};
  LLVMMetadataRef loc = I ? LLVMInstructionGetDebugLoc(I) : NULL;
  for (; loc && !loc_here(loc, base); loc = LLVMDILocationGetInlinedAt(loc))
    ;
  if (!loc)
    return r;
  r.line = LLVMDILocationGetLine(loc);
  r.at = LLVMDILocationGetInlinedAt(loc);
  r.here = 1;
  return r;
}

/* The line of I in the copy inlined at `at` (NULL: the function's own
 * code) when that is in this file, else 0. */
static unsigned line_in(LLVMValueRef I, LLVMMetadataRef at, const char *base) {
  for (LLVMMetadataRef loc = I ? LLVMInstructionGetDebugLoc(I) : NULL; loc;
       loc = LLVMDILocationGetInlinedAt(loc))
    if (LLVMDILocationGetInlinedAt(loc) == at)
      return loc_here(loc, base) ? LLVMDILocationGetLine(loc) : 0;
  return 0;
}

static int located(LLVMValueRef I) {
  return LLVMInstructionGetDebugLoc(I) && !aucs_place_is_barrier_call(I);
}

int pt_live(LLVMValueRef f);

/* Whether f reaches a kernel up its callers (seen: the path so far). */
static int live_from(LLVMValueRef f, LLVMValueRef *seen, size_t *n) {
  if (aucs_kernel_is(f))
    return 1;
  for (size_t i = 0; i < *n; i++)
    if (seen[i] == f)
      return 0;
  if (*n == 64)
    return 1; /* too deep to tell: count it live */
  seen[(*n)++] = f;
  int live = 0;
  for (LLVMUseRef u = LLVMGetFirstUse(f); u && !live; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    live = LLVMIsACallInst(user) &&
           live_from(LLVMGetBasicBlockParent(LLVMGetInstructionParent(user)),
                     seen, n);
  }
  (*n)--;
  return live;
}

/* Whether f is a kernel, or called (through calls) from one. */
int pt_live(LLVMValueRef f) {
  LLVMValueRef seen[64];
  size_t n = 0;
  return live_from(f, seen, &n);
}

/* Whether line `line` of this file is built only into the inlined copy
 * `at` (or into definitions no kernel reaches, pt_live). */
static int only_copy(LLVMModuleRef m, unsigned line, LLVMMetadataRef at,
                     const char *base) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
       f = LLVMGetNextFunction(f)) {
    if (!LLVMCountBasicBlocks(f) || !pt_live(f))
      continue;
    for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(f); b;
         b = LLVMGetNextBasicBlock(b))
      for (LLVMValueRef I = LLVMGetFirstInstruction(b); I;
           I = LLVMGetNextInstruction(I)) {
        inner w = located(I) ? inner_of(I, base) : (inner){0};
        if (w.here && w.line == line && w.at != at)
          return 0;
      }
  }
  return 1;
}

int pt_located(LLVMValueRef I) { return located(I); }

unsigned pt_inner_line(LLVMValueRef I, const char *base, LLVMMetadataRef *at) {
  inner r = inner_of(I, base);
  if (at)
    *at = r.at;
  return r.here ? r.line : 0;
}

int pt_in_helper(LLVMValueRef bar, const char *base) {
  LLVMValueRef next = bar ? aucs_place_next_where(bar, located) : NULL;
  inner n = inner_of(next, base);
  return n.line && n.at && n.here;
}

/* A statement built into several copies: the insert form when the barrier
 * precedes it (after at most accesses of it that commute), else the split
 * form, patch_shared.c. prev: the line of the previous access in the same
 * copy, 0 if none. */
static const char *shared(const pt_text *t, LLVMModuleRef m, LLVMValueRef bar,
                          const char *base, unsigned prev, unsigned line,
                          LLVMMetadataRef at, pt_names *names, pt_hunk *h) {
  size_t from = line, to;
  if (pt_loop_top(bar, 0) || prev > line)
    return "the barrier sits in a __device__ helper whose statement is also "
           "built into other calls or template instances, and it does not "
           "precede that statement: its source edit would change them too";
  if (prev == line) {
    const char *why = pt_form_inside(t, bar, line, at, base, h);
    pt_hunk_free(h);
    if (why) /* the split form, in every copy */
      return pt_form_shared(t, m, bar, base, 0, names, h);
    if (!pt_statement_lines(t, line, &from, &to))
      return "the statement the barrier sits in is unclear";
  }
  return pt_form_shared(t, m, bar, base, (unsigned)from, names, h);
}

const char *pt_form_helper(const pt_text *t, LLVMModuleRef m, LLVMValueRef bar,
                           const char *base, pt_names *names, pt_hunk *h) {
  LLVMValueRef next = aucs_place_next_where(bar, located),
               prev = aucs_place_prev_access_where(bar, located);
  inner n = inner_of(next, base), p = inner_of(prev, base);
  if (!only_copy(m, n.line, n.at, base))
    return shared(t, m, bar, base, prev && p.at == n.at && p.here ? p.line : 0,
                  n.line, n.at, names, h);
  if (pt_loop_top(bar, 0))
    return "the barrier sits at the top of a loop header in a __device__ "
           "helper";
  if (prev && p.at == n.at && p.here && p.line == n.line) {
    const char *why = pt_form_inside(t, bar, n.line, n.at, base, h);
    return why ? pt_form_split(t, n.line, bar, names, h) : NULL;
  }
  if (prev && p.at == n.at && p.here && p.line > n.line)
    return pt_form_after(t, p.line, n.line, h);
  return pt_form_insert(t, n.line, h);
}

/* ---- a barrier inside a statement that touches no shared memory before it */

/* Whether pointer p is a thread's own alloca or read-only memory (a
 * constant global, `__constant__`), through GEPs and casts. */
static int private_ptr(LLVMValueRef p) {
  for (int steps = 0; p && steps < 32; steps++) {
    if (LLVMIsAAllocaInst(p))
      return 1;
    if (LLVMIsAGlobalVariable(p))
      return LLVMIsGlobalConstant(p) ||
             LLVMGetPointerAddressSpace(LLVMTypeOf(p)) == 4;
    if (LLVMIsAConstantExpr(p) && (LLVMGetConstOpcode(p) == LLVMAddrSpaceCast ||
                                   LLVMGetConstOpcode(p) == LLVMGetElementPtr ||
                                   LLVMGetConstOpcode(p) == LLVMBitCast)) {
      p = LLVMGetOperand(p, 0);
      continue;
    }
    if (!LLVMIsAGetElementPtrInst(p) && !LLVMIsABitCastInst(p) &&
        !LLVMIsAAddrSpaceCastInst(p))
      return 0;
    p = LLVMGetOperand(p, 0);
  }
  return 0;
}

static int prefixed(const char *name, size_t len, const char *pre) {
  return len >= strlen(pre) && !strncmp(name, pre, strlen(pre));
}

/* A call that reads a special register (threadIdx, blockDim, ...) or
 * only annotates: nothing another thread sees. */
static int pure_call(LLVMValueRef I) {
  LLVMValueRef f = LLVMGetCalledValue(I);
  size_t len = 0;
  const char *name = f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &len) : "";
  static const char *const pure[] = {"llvm.nvvm.read.ptx.sreg.", "llvm.dbg.",
                                     "llvm.lifetime.", "llvm.assume"};
  for (size_t i = 0; i < sizeof pure / sizeof *pure; i++)
    if (prefixed(name, len, pure[i]))
      return 1;
  return len > 4 && strstr(name, "__cuda_builtin_") &&
         strstr(name, "cv4dim3Ev"); /* threadIdx & co. as a dim3 */
}

/* Whether a barrier commutes with I: I touches no memory another thread
 * can see. */
static int commutes(LLVMValueRef I) {
  switch (LLVMGetInstructionOpcode(I)) {
  case LLVMLoad:
    return private_ptr(LLVMGetOperand(I, 0));
  case LLVMStore:
    return private_ptr(LLVMGetOperand(I, 1));
  case LLVMCall:
    return pure_call(I);
  case LLVMAtomicRMW:
  case LLVMAtomicCmpXchg:
  case LLVMFence:
  case LLVMInvoke:
    return 0;
  default:
    return 1;
  }
}

const char *pt_form_inside(const pt_text *t, LLVMValueRef bar, unsigned l,
                           LLVMMetadataRef at, const char *base, pt_hunk *h) {
  static const char *const why =
      "the barrier falls after an access of the statement it sits in";
  size_t from, to;
  if (!pt_statement_lines(t, l, &from, &to))
    return "the statement the barrier sits in does not end on a line of its "
           "own within a few lines";
  LLVMValueRef I = bar ? LLVMGetPreviousInstruction(bar) : NULL;
  for (; I; I = LLVMGetPreviousInstruction(I)) {
    unsigned in = located(I) ? line_in(I, at, base) : from;
    if (in < from || in > to)
      return pt_form_insert(t, (unsigned)from, h);
    if (!commutes(I))
      return why;
  }
  LLVMBasicBlockRef bb = bar ? LLVMGetInstructionParent(bar) : NULL;
  LLVMValueRef fn = bb ? LLVMGetBasicBlockParent(bb) : NULL;
  for (LLVMBasicBlockRef x = fn ? LLVMGetFirstBasicBlock(fn) : NULL; x;
       x = LLVMGetNextBasicBlock(x)) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(x);
    unsigned in = term ? line_in(term, at, base) : 0;
    for (unsigned i = 0; term && i < LLVMGetNumSuccessors(term); i++)
      if (LLVMGetSuccessor(term, i) == bb && in >= from && in <= to)
        return "the statement the barrier sits in begins in another block";
  }
  return bb ? pt_form_insert(t, (unsigned)from, h) : why;
}

/* ---- a barrier at the top of a loop header --------------------------------*/

/* Whether every instruction of line l outside block skip commutes. */
static int line_commutes(LLVMValueRef fn, unsigned l, LLVMBasicBlockRef skip) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b;
       b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef I = b == skip ? NULL : LLVMGetFirstInstruction(b); I;
         I = LLVMGetNextInstruction(I))
      if (aucs_place_line_of(I) == l && !commutes(I))
        return 0;
  return 1;
}

int pt_loop_top(LLVMValueRef bar, unsigned l) {
  LLVMBasicBlockRef bb = bar ? LLVMGetInstructionParent(bar) : NULL;
  LLVMValueRef fn = bb ? LLVMGetBasicBlockParent(bb) : NULL;
  if (!fn)
    return 0;
  aucs_cfg *cfg = aucs_cfg_build(fn);
  int b = aucs_cfg_index(cfg, bb), header = 0;
  for (int i = 0; i < cfg->nloops; i++)
    header |= cfg->loops[i].header == b;
  aucs_cfg_free(cfg);
  if (!header)
    return 0;
  for (LLVMValueRef I = LLVMGetPreviousInstruction(bar); I;
       I = LLVMGetPreviousInstruction(I))
    if (!commutes(I))
      return -1;
  return line_commutes(fn, l, bb) ? 1 : -1;
}
