/*
 * cleanup: sroa and simplifycfg over a module whose functions may be
 * optnone.
 *
 * Steps:
 *   1. Take `optnone` off every defined function that has it (remember
 *      which).
 *   2. LLVMRunPasses(m, "function(sroa,simplifycfg)").
 *   3. Put `optnone` back on the functions remembered.
 *
 * Limitation: see cleanup.h.
 */
#include "aucs/cleanup.h"

#include "aucs/util.h"
#include <llvm-c/Core.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <stdlib.h>

static unsigned optnone_kind(void) {
  return LLVMGetEnumAttributeKindForName("optnone", 7);
}

/* Step 1: the functions that had optnone, NULL-terminated. */
static LLVMValueRef *strip_optnone(LLVMModuleRef m) {
  unsigned kind = optnone_kind();
  size_t n = 0, cap = 8;
  LLVMValueRef *had = aucs_xcalloc(cap, sizeof *had);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
       f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f) ||
        !LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind))
      continue;
    LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, kind);
    if (n + 1 == cap)
      had = aucs_xrealloc(had, (cap *= 2) * sizeof *had);
    had[n++] = f;
    had[n] = NULL;
  }
  return had;
}

static void restore_optnone(LLVMModuleRef m, LLVMValueRef *had) {
  LLVMAttributeRef a =
      LLVMCreateEnumAttribute(LLVMGetModuleContext(m), optnone_kind(), 0);
  for (size_t i = 0; had[i]; i++)
    LLVMAddAttributeAtIndex(had[i], LLVMAttributeFunctionIndex, a);
}

int aucs_cleanup_run(LLVMModuleRef m, char **err) {
  LLVMValueRef *had = strip_optnone(m);
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(m, "function(sroa,simplifycfg)", NULL, po);
  LLVMDisposePassBuilderOptions(po);
  restore_optnone(m, had);
  free(had);
  if (!e)
    return 0;
  char *msg = LLVMGetErrorMessage(e);
  *err = aucs_xasprintf("sroa,simplifycfg failed: %s", msg);
  LLVMDisposeErrorMessage(msg);
  return 1;
}
