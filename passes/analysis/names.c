/*
 * names: values and blocks printed the way `llvm-dis` prints them.
 *
 * Slot numbering follows LLVM's SlotTracker for a function:
 *   1. each unnamed argument, in order, takes the next number;
 *   2. then for each block in layout order: the block if it is unnamed,
 *      then each unnamed instruction of non-void type.
 * Names are quoted and escaped like the AsmWriter does: a name that starts
 * with a digit or holds a byte outside [A-Za-z0-9-._] is printed as
 * "..." with `\XX` escapes for '"', '\\' and unprintable bytes.
 * Unnamed globals and functions are numbered module-wide, globals first.
 */
#include "aucs/names.h"

#include "aucs/util.h"

#include <ctype.h>
#include <llvm-c/Core.h>
#include <stdlib.h>
#include <string.h>

struct aucs_names {
  LLVMValueRef fn;
  aucs_ptrmap slots;   /* unnamed local value -> slot number */
  aucs_ptrmap printed; /* value -> its string, allocated in mem */
  aucs_arena *mem;
};

static void number(aucs_names *n, LLVMValueRef v, intptr_t *next) {
  size_t len;
  LLVMGetValueName2(v, &len);
  if (len == 0)
    aucs_ptrmap_put(&n->slots, v, (*next)++);
}

static void number_block(aucs_names *n, LLVMBasicBlockRef bb, intptr_t *next) {
  number(n, LLVMBasicBlockAsValue(bb), next);
  for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
       I = LLVMGetNextInstruction(I))
    if (LLVMGetTypeKind(LLVMTypeOf(I)) != LLVMVoidTypeKind)
      number(n, I, next);
}

aucs_names *aucs_names_build(LLVMValueRef fn) {
  aucs_names *n = aucs_xcalloc(1, sizeof *n);
  n->fn = fn;
  n->mem = aucs_arena_new();
  intptr_t next = 0;
  for (LLVMValueRef a = LLVMGetFirstParam(fn); a; a = LLVMGetNextParam(a))
    number(n, a, &next);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    number_block(n, bb, &next);
  return n;
}

void aucs_names_free(aucs_names *n) {
  if (!n)
    return;
  aucs_ptrmap_free(&n->slots);
  aucs_ptrmap_free(&n->printed);
  aucs_arena_free(n->mem);
  free(n);
}

static int needs_quotes(const char *s, size_t len) {
  if (isdigit((unsigned char)s[0]))
    return 1;
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (!isalnum(c) && c != '-' && c != '.' && c != '_')
      return 1;
  }
  return 0;
}

static void print_name(aucs_buf *b, char sigil, const char *s, size_t len) {
  aucs_buf_printf(b, "%c", sigil);
  if (!needs_quotes(s, len)) {
    aucs_buf_printf(b, "%.*s", (int)len, s);
    return;
  }
  aucs_buf_puts(b, "\"");
  for (size_t i = 0; i < len; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
      aucs_buf_printf(b, "%c", c);
    else
      aucs_buf_printf(b, "\\%02X", c);
  }
  aucs_buf_puts(b, "\"");
}

/* The module-wide number of an unnamed global or function. */
static intptr_t global_slot(LLVMValueRef g) {
  LLVMModuleRef m = LLVMGetGlobalParent(g);
  intptr_t next = 0;
  size_t len;
  for (LLVMValueRef v = LLVMGetFirstGlobal(m); v; v = LLVMGetNextGlobal(v)) {
    if (v == g)
      return next;
    LLVMGetValueName2(v, &len);
    next += len == 0;
  }
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
       f = LLVMGetNextFunction(f)) {
    if (f == g)
      return next;
    LLVMGetValueName2(f, &len);
    next += len == 0;
  }
  return -1;
}

static char *render(aucs_names *n, LLVMValueRef v) {
  aucs_buf b = {0};
  size_t len;
  const char *name = LLVMGetValueName2(v, &len);
  intptr_t slot;
  if (LLVMIsAGlobalValue(v) && len)
    print_name(&b, '@', name, len);
  else if (LLVMIsAGlobalValue(v))
    aucs_buf_printf(&b, "@%ld", (long)global_slot(v));
  else if (len)
    print_name(&b, '%', name, len);
  else if (aucs_ptrmap_get(&n->slots, v, &slot))
    aucs_buf_printf(&b, "%%%ld", (long)slot);
  else if (LLVMIsAConstant(v)) {
    char *text = LLVMPrintValueToString(v);
    aucs_buf_puts(&b, text);
    LLVMDisposeMessage(text);
  } else
    aucs_buf_puts(&b, "%<unnumbered>");
  return aucs_buf_take(&b);
}

const char *aucs_names_value(aucs_names *n, LLVMValueRef v) {
  intptr_t s;
  if (aucs_ptrmap_get(&n->printed, v, &s))
    return (const char *)s;
  char *text = render(n, v);
  char *kept = aucs_arena_strdup(n->mem, text);
  free(text);
  aucs_ptrmap_put(&n->printed, v, (intptr_t)kept);
  return kept;
}

const char *aucs_names_block(aucs_names *n, LLVMBasicBlockRef bb) {
  return aucs_names_value(n, LLVMBasicBlockAsValue(bb));
}
