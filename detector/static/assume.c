/*
 * assume: the kernel's preconditions (assume.h) as the static checker uses
 * them.
 *
 *   1. Collect the llvm.assume calls of the kernel's blocks that run at
 *      most once per thread: reachable, in no loop and no irreducible
 *      cycle, with a condition that is not a constant (`i1 true` carries
 *      an operand bundle such as an alignment, not a condition).
 *   2. A call holds at instruction I when it precedes I on every path from
 *      the entry: its block strictly dominates I's, or it sits in I's
 *      block before I. A thread at I has passed the call, so the condition
 *      held for that thread's values (a false llvm.assume is undefined
 *      behaviour), and SSA values never change afterwards.
 *   3. The text of a condition: the argument of the `assume(` call at the
 *      call's !dbg line in the source file, when the file can be read and
 *      the parentheses close on that line; else the condition's IR.
 *
 * Limitation: see assume.h.
 */
#include "aucs/assume.h"

#include "aucs/srcloc.h"
#include "aucs/util.h"
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_assume(LLVMValueRef I) {
  if (!LLVMIsACallInst(I))
    return 0;
  LLVMValueRef callee = LLVMGetCalledValue(I);
  size_t n = 0;
  const char *name = LLVMIsAFunction(callee) ? LLVMGetValueName2(callee, &n)
                                              : "";
  return !strcmp(name, "llvm.assume") &&
         !LLVMIsAConstant(LLVMGetOperand(I, 0));
}

static int in_cycle(const aucs_cfg *cfg, int b) {
  for (int c = 0; c < cfg->ncycles; c++)
    for (int i = 0; i < cfg->cycles[c].nblocks; i++)
      if (cfg->cycles[c].blocks[i] == b)
        return 1;
  return 0;
}

size_t aucs_assume_collect(const aucs_cfg *cfg, LLVMValueRef **out) {
  size_t n = 0;
  *out = NULL;
  for (int b = 0; b < cfg->nblocks; b++) {
    if (!cfg->reachable[b] || cfg->loop_of[b] >= 0 || in_cycle(cfg, b))
      continue;
    for (LLVMValueRef I = LLVMGetFirstInstruction(cfg->blocks[b]); I;
         I = LLVMGetNextInstruction(I))
      if (is_assume(I)) {
        *out = aucs_xrealloc(*out, (n + 1) * sizeof **out);
        (*out)[n++] = I;
      }
  }
  return n;
}

static int before_in_block(LLVMValueRef a, LLVMValueRef b) {
  for (LLVMValueRef I = LLVMGetNextInstruction(a); I;
       I = LLVMGetNextInstruction(I))
    if (I == b)
      return 1;
  return 0;
}

int aucs_assume_precedes(const aucs_cfg *cfg, LLVMValueRef call,
                         LLVMValueRef I) {
  int a = aucs_cfg_index(cfg, LLVMGetInstructionParent(call));
  int b = aucs_cfg_index(cfg, LLVMGetInstructionParent(I));
  if (a < 0 || b < 0)
    return 0;
  if (a == b)
    return before_in_block(call, I);
  return aucs_cfg_dominates(cfg, a, b);
}

/* Line `line` (from 1) of the file (a regular file, as the debug info
 * names it), or NULL. Free with free(). */
static char *read_line(const char *file, unsigned line) {
  char *text = NULL, *why = NULL;
  size_t len;
  if (aucs_read_regular(file, (size_t)1 << 30, "a source file", "", &text, &len,
                        &why)) {
    free(why);
    return NULL;
  }
  const char *p = text;
  for (unsigned at = 1; p && at < line; at++)
    p = (p = strchr(p, '\n')) ? p + 1 : NULL;
  char *got = p ? aucs_xasprintf("%.*s", (int)strcspn(p, "\n"), p) : NULL;
  free(text);
  return got;
}

/* The text between the parentheses of the first "assume(" at or after
 * column col of s, when they close on the line. Free with free(). */
static char *assume_argument(const char *s, unsigned col) {
  const char *p = strstr(s + (col && col <= strlen(s) ? col - 1 : 0),
                         "assume(");
  if (!p)
    return NULL;
  p += strlen("assume(");
  int depth = 1;
  const char *q = p;
  for (; *q && depth; q++)
    depth += *q == '(' ? 1 : *q == ')' ? -1 : 0;
  if (depth)
    return NULL;
  return aucs_xasprintf("%.*s", (int)(q - 1 - p), p);
}

static char *from_source(LLVMValueRef call) {
  aucs_srcloc l = aucs_srcloc_of(call);
  if (!l.file || !l.line)
    return NULL;
  char *file = aucs_xasprintf("%.*s", (int)l.file_len, l.file);
  char *line = read_line(file, l.line);
  char *arg = line ? assume_argument(line, l.col) : NULL;
  free(file);
  free(line);
  return arg;
}

/* LLVMPrintValueToString's text without its leading blanks. */
static char *from_ir(LLVMValueRef v) {
  char *s = LLVMPrintValueToString(v);
  char *t = aucs_xstrdup(s + strspn(s, " "));
  LLVMDisposeMessage(s);
  return t;
}

char *aucs_assume_text(LLVMValueRef call) {
  char *s = from_source(call);
  return s ? s : from_ir(LLVMGetOperand(call, 0));
}

char *aucs_assume_describe(LLVMValueRef call) {
  char *loc = aucs_srcloc_format(call), *text = aucs_assume_text(call);
  char *d = aucs_xasprintf("%s `%s`", loc, text);
  free(loc);
  free(text);
  return d;
}
