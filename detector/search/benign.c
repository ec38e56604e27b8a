/*
 * benign: a write-write race storing one value is a warning (benign.h).
 *
 * Steps, per race that is still an error:
 *   1. Both sides plain writes whose stored bytes were equal on every
 *      conflict of every run that showed the race (values EQUAL).
 *   2. The static checker proves the values equal (aucs_static_same_value).
 *   3. The finding becomes a warning; `benign` says why.
 *
 * Limitation: races between blocks are not classified (the values a block
 * reads from its own shared memory differ between blocks).
 */
#include "aucs/benign.h"

#include "aucs/util.h"

static int same_value_race(const aucs_finding *f) {
  return f->kind == AUCS_FINDING_RACE && f->severity == AUCS_SEVERITY_ERROR &&
         f->a.op == AUCS_OP_WRITE && f->b.op == AUCS_OP_WRITE &&
         f->values == AUCS_VALUES_EQUAL;
}

static char *evidence(const aucs_finding *f) {
  unsigned n = f->runs ? f->runs : 1;
  return aucs_xasprintf(
      "both writes store the same value: equal in the %u run%s that showed "
      "the race, and proven equal for any two threads of a block (Z3: the "
      "values agree whenever the threads write one place in one barrier "
      "interval)",
      n, n == 1 ? "" : "s");
}

size_t aucs_benign_classify(aucs_static *st, aucs_findings *fs,
                            struct aucs_budget *budget) {
  size_t made = 0;
  for (size_t i = 0; st && i < fs->n; i++) {
    aucs_finding *f = &fs->v[i];
    if (!same_value_race(f) ||
        !aucs_static_same_value(st, f->a.instr, f->b.instr, budget))
      continue;
    f->severity = AUCS_SEVERITY_WARNING;
    f->benign = evidence(f);
    made++;
  }
  return made;
}
