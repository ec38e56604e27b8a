/*
 * nvvm: classify NVVM intrinsics by name through the table in nvvm.def.
 *
 * A linear scan of the table; the first exact or prefix match wins.
 * Limitation: the table is written by hand against IntrinsicsNVVM.td of
 * LLVM 22; a spelling it lacks is AUCS_NVVM_NONE.
 */
#include "aucs/nvvm.h"

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
