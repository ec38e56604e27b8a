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
 *      statement is shared (other calls, other template instances).
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

static inner inner_of(LLVMValueRef I, const char *base) {
  inner r = {0};
  LLVMMetadataRef loc = I ? LLVMInstructionGetDebugLoc(I) : NULL;
  if (!loc)
    return r;
  r.line = LLVMDILocationGetLine(loc);
  r.at = LLVMDILocationGetInlinedAt(loc);
  LLVMMetadataRef file = LLVMDIScopeGetFile(LLVMDILocationGetScope(loc));
  unsigned len = 0;
  const char *name = file ? LLVMDIFileGetFilename(file, &len) : NULL;
  r.here = name && same_base(name, len, base);
  return r;
}

static int located(LLVMValueRef I) {
  return LLVMInstructionGetDebugLoc(I) && !aucs_place_is_barrier_call(I);
}

static int touches_memory(LLVMValueRef I) {
  switch (LLVMGetInstructionOpcode(I)) {
  case LLVMLoad:
  case LLVMStore:
  case LLVMAtomicRMW:
  case LLVMAtomicCmpXchg:
  case LLVMCall:
    return 1;
  default:
    return 0;
  }
}

/* The next located instruction after I, through unconditional jumps. */
static LLVMValueRef next_located(LLVMValueRef I) {
  for (int steps = 0; I && steps < 256; steps++) {
    LLVMValueRef n = LLVMGetNextInstruction(I);
    if (!n && LLVMGetNumSuccessors(I) == 1)
      n = LLVMGetFirstInstruction(LLVMGetSuccessor(I, 0));
    if (!n || located(n))
      return n;
    I = n;
  }
  return NULL;
}

/* The only predecessor of bb when it ends in an unconditional jump. */
static LLVMBasicBlockRef single_jump_pred(LLVMBasicBlockRef bb) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(bb);
  LLVMBasicBlockRef only = NULL;
  int preds = 0;
  for (LLVMBasicBlockRef x = LLVMGetFirstBasicBlock(fn); x;
       x = LLVMGetNextBasicBlock(x)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(x);
    for (unsigned i = 0; t && i < LLVMGetNumSuccessors(t); i++)
      if (LLVMGetSuccessor(t, i) == bb)
        preds++, only = x;
  }
  if (preds != 1 ||
      LLVMGetNumSuccessors(LLVMGetBasicBlockTerminator(only)) != 1)
    return NULL;
  return only;
}

/* The previous located instruction before I that touches memory. */
static LLVMValueRef prev_access(LLVMValueRef I) {
  for (int steps = 0; I && steps < 256; steps++) {
    LLVMValueRef p = LLVMGetPreviousInstruction(I);
    if (!p) {
      LLVMBasicBlockRef pred = single_jump_pred(LLVMGetInstructionParent(I));
      p = pred ? LLVMGetBasicBlockTerminator(pred) : NULL;
    }
    if (!p || (located(p) && touches_memory(p)))
      return p;
    I = p;
  }
  return NULL;
}

static int called(LLVMValueRef fn) {
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u; u = LLVMGetNextUse(u))
    if (LLVMIsACallInst(LLVMGetUser(u)))
      return 1;
  return 0;
}

/* Whether line `line` of this file is built only into the inlined copy
 * `at` (or into definitions nothing calls and no kernel is). */
static int only_copy(LLVMModuleRef m, unsigned line, LLVMMetadataRef at,
                     const char *base) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
       f = LLVMGetNextFunction(f)) {
    if (!LLVMCountBasicBlocks(f) || (!called(f) && !aucs_kernel_is(f)))
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

int pt_in_helper(LLVMValueRef bar, const char *base) {
  LLVMValueRef next = bar ? next_located(bar) : NULL;
  inner n = inner_of(next, base);
  return n.line && n.at;
}

const char *pt_form_helper(const pt_text *t, LLVMModuleRef m, LLVMValueRef bar,
                           const char *base, pt_names *names, pt_hunk *h) {
  LLVMValueRef next = next_located(bar), prev = prev_access(bar);
  inner n = inner_of(next, base), p = inner_of(prev, base);
  if (!n.here)
    return "the barrier sits in inlined code of another file (a header)";
  if (!only_copy(m, n.line, n.at, base))
    return "the barrier sits in a __device__ helper whose statement is also "
           "built into other calls or template instances: its source edit "
           "would change them too";
  if (prev && p.at == n.at && p.here && p.line == n.line)
    return pt_form_split(t, n.line, bar, names, h);
  if (prev && p.at == n.at && p.here && p.line > n.line)
    return pt_form_after(t, p.line, n.line, h);
  return pt_form_insert(t, n.line, h);
}
