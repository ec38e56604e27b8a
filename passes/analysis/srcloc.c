/*
 * srcloc: source locations of instructions (STYLE.md rule 7).
 *
 * An instruction's `!dbg` DILocation gives file, line and column; without
 * one (or with line 0, which LLVM uses for compiler-made code) a location
 * is `@kernel %block #n`: the function, the block as llvm-dis names it and
 * the block's 0-based index in the function.
 *
 * Inlined code: a location inlined into another has an `inlinedAt` chain
 * out to the code the user wrote the call in. The location reported is the
 * innermost one in the same file as the outermost: a helper the user wrote
 * beside the kernel shows its own line, while code inlined from a header
 * (threadIdx from clang's builtin vars, aucs_cuda.h, the CUDA SDK) shows
 * the user's line that used it.
 *
 * Limitation: debug records (`#dbg_value`, the non-intrinsic form) carry
 * their own locations, which LLVM-C does not expose: only instructions,
 * including old-style debug intrinsic calls, count for block lines.
 */
#include "aucs/srcloc.h"

#include "aucs/names.h"
#include "aucs/util.h"

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

static aucs_srcloc from_di(LLVMMetadataRef loc) {
  aucs_srcloc out = {0};
  LLVMMetadataRef file = LLVMDIScopeGetFile(LLVMDILocationGetScope(loc));
  if (file)
    out.file = LLVMDIFileGetFilename(file, &out.file_len);
  if (file)
    out.dir = LLVMDIFileGetDirectory(file, &out.dir_len);
  out.line = LLVMDILocationGetLine(loc);
  out.col = LLVMDILocationGetColumn(loc);
  return out;
}

static int same_file(aucs_srcloc a, aucs_srcloc b) {
  return a.file && b.file && a.file_len == b.file_len &&
         memcmp(a.file, b.file, a.file_len) == 0;
}

aucs_srcloc aucs_srcloc_of(LLVMValueRef I) {
  aucs_srcloc none = {0};
  if (!I || !LLVMIsAInstruction(I))
    return none;
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(I);
  if (!loc)
    return none;
  LLVMMetadataRef outer = loc;
  for (LLVMMetadataRef up; (up = LLVMDILocationGetInlinedAt(outer));)
    outer = up;
  aucs_srcloc user = from_di(outer);
  for (LLVMMetadataRef l = loc; l != outer; l = LLVMDILocationGetInlinedAt(l))
    if (same_file(from_di(l), user))
      return from_di(l);
  return user;
}

static unsigned block_index(LLVMBasicBlockRef bb) {
  unsigned n = 0;
  for (LLVMBasicBlockRef b = LLVMGetPreviousBasicBlock(bb); b;
       b = LLVMGetPreviousBasicBlock(b))
    n++;
  return n;
}

static char *fallback(LLVMValueRef I) {
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(I);
  if (!bb)
    return aucs_xstrdup("<detached instruction>");
  LLVMValueRef fn = LLVMGetBasicBlockParent(bb);
  aucs_names *names = aucs_names_build(fn);
  char *s = aucs_xasprintf("%s %s #%u", aucs_names_value(names, fn),
                           aucs_names_block(names, bb), block_index(bb));
  aucs_names_free(names);
  return s;
}

char *aucs_srcloc_format(LLVMValueRef I) {
  aucs_srcloc loc = aucs_srcloc_of(I);
  if (!loc.file || loc.file_len == 0 || loc.line == 0)
    return fallback(I);
  if (loc.col == 0)
    return aucs_xasprintf("%.*s:%u", (int)loc.file_len, loc.file, loc.line);
  return aucs_xasprintf("%.*s:%u:%u", (int)loc.file_len, loc.file, loc.line,
                        loc.col);
}

void aucs_srcloc_block_lines(LLVMBasicBlockRef bb, unsigned *first,
                             unsigned *last) {
  *first = *last = 0;
  for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
       I = LLVMGetNextInstruction(I)) {
    unsigned line = aucs_srcloc_of(I).line;
    if (line == 0)
      continue;
    if (*first == 0 || line < *first)
      *first = line;
    if (line > *last)
      *last = line;
  }
}

LLVMMetadataRef aucs_md_operand(LLVMContextRef cx, LLVMMetadataRef md,
                                unsigned i) {
  if (!md)
    return NULL;
  LLVMValueRef v = LLVMMetadataAsValue(cx, md);
  unsigned n = LLVMGetMDNodeNumOperands(v);
  if (i >= n)
    return NULL;
  LLVMValueRef *ops = aucs_xcalloc(n, sizeof *ops);
  LLVMGetMDNodeOperands(v, ops);
  LLVMMetadataRef r = ops[i] ? LLVMValueAsMetadata(ops[i]) : NULL;
  free(ops);
  return r;
}

/* Up through lexical blocks (operand 1: scope) to the DISubprogram, whose
 * operand 2 is its name: the LLVM-C debug-info API has no accessor. */
const char *aucs_srcloc_scope_name(LLVMContextRef cx, LLVMMetadataRef scope,
                                   unsigned *len) {
  *len = 0;
  for (int i = 0; scope && i < 64; i++) {
    LLVMMetadataKind k = LLVMGetMetadataKind(scope);
    if (k == LLVMDISubprogramMetadataKind) {
      LLVMMetadataRef name = aucs_md_operand(cx, scope, 2);
      const char *r =
          name ? LLVMGetMDString(LLVMMetadataAsValue(cx, name), len) : NULL;
      return r && *len ? r : NULL;
    }
    if (k != LLVMDILexicalBlockMetadataKind &&
        k != LLVMDILexicalBlockFileMetadataKind)
      return NULL;
    scope = aucs_md_operand(cx, scope, 1);
  }
  return NULL;
}
