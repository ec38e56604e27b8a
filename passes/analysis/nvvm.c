/*
 * nvvm: classify NVVM intrinsics by name through the table in nvvm.def.
 *
 * A linear scan of the table; the first exact or prefix match wins.
 * Limitation: the table is written by hand against IntrinsicsNVVM.td of
 * LLVM 22; a spelling it lacks is AUCS_NVVM_NONE.
 */
#include "aucs/nvvm.h"

#include "aucs/util.h"
#include <llvm-c/Core.h>
#include <stddef.h>
#include <string.h>

enum match { EXACT, PREFIX };

typedef struct entry {
  enum match match;
  const char *spelling;
  aucs_nvvm_kind kind;
  const char *origin;
} entry;

static const entry table[] = {
#define AUCS_NVVM(match, spelling, kind, origin)                               \
  {match, spelling, AUCS_NVVM_##kind, origin},
#include "aucs/nvvm.def"
};

static const char *const kind_names[] = {
#define AUCS_NVVM_KIND(kind, name, doc) name,
#include "aucs/nvvm.def"
};

static int matches(const entry *e, const char *name) {
  if (e->match == EXACT)
    return strcmp(name, e->spelling) == 0;
  return strncmp(name, e->spelling, strlen(e->spelling)) == 0;
}

static const entry *lookup(const char *name) {
  if (!name || strncmp(name, "llvm.nvvm.", 10) != 0)
    return NULL;
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
    if (matches(&table[i], name))
      return &table[i];
  return NULL;
}

const char *aucs_nvvm_callee(LLVMValueRef I) {
  if (!LLVMIsACallInst(I))
    return "";
  LLVMValueRef f = LLVMGetCalledValue(I);
  size_t n;
  return f && LLVMIsAFunction(f) ? LLVMGetValueName2(f, &n) : "";
}

aucs_nvvm_kind aucs_nvvm_classify(const char *callee_name) {
  const entry *e = lookup(callee_name);
  return e ? e->kind : AUCS_NVVM_NONE;
}

const char *aucs_nvvm_origin(const char *callee_name) {
  const entry *e = lookup(callee_name);
  return e ? e->origin : NULL;
}

const char *aucs_nvvm_kind_name(aucs_nvvm_kind kind) {
  if ((int)kind < 0 || kind >= AUCS_NVVM_NKINDS)
    return "?";
  return kind_names[kind];
}

int aucs_nvvm_is_barrier(aucs_nvvm_kind kind) {
  return kind == AUCS_NVVM_BARRIER || kind == AUCS_NVVM_BARRIER_REDUCE;
}

static int starts(const char *s, const char *prefix) {
  return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* The dimension bit of special register r ("tid.y" -> 2), into *block or
 * *grid. */
static void sreg_dim(const char *r, unsigned *block, unsigned *grid) {
  size_t n = strlen(r);
  char d = n ? r[n - 1] : 0;
  unsigned bit = d == 'x' ? 1 : d == 'y' ? 2 : d == 'z' ? 4 : 0;
  if (starts(r, "tid.") || starts(r, "ntid."))
    *block |= bit;
  else if (starts(r, "ctaid.") || starts(r, "nctaid."))
    *grid |= bit;
}

static void dims_read(LLVMValueRef fn, aucs_ptrmap *seen, unsigned *block,
                      unsigned *grid) {
  static const char sreg[] = "llvm.nvvm.read.ptx.sreg.";
  if (aucs_ptrmap_get(seen, fn, NULL))
    return;
  aucs_ptrmap_put(seen, fn, 1);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I)) {
      LLVMValueRef callee = LLVMIsACallInst(I) ? LLVMGetCalledValue(I) : NULL;
      if (!callee || !LLVMIsAFunction(callee))
        continue;
      size_t len;
      const char *name = LLVMGetValueName2(callee, &len);
      if (LLVMCountBasicBlocks(callee))
        dims_read(callee, seen, block, grid);
      else if (starts(name, sreg))
        sreg_dim(name + strlen(sreg), block, grid);
    }
}

void aucs_nvvm_dims_read(LLVMValueRef fn, unsigned *block, unsigned *grid) {
  aucs_ptrmap seen = {0};
  *block = *grid = 0;
  dims_read(fn, &seen, block, grid);
  aucs_ptrmap_free(&seen);
}
