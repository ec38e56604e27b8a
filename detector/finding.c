/*
 * finding: names of finding kinds, memory spaces and operations, and the
 * finding list.
 */
#include "aucs/finding.h"

#include "aucs/util.h"
#include <stdint.h>
#include <stdlib.h>

static const char *const kind_names[] = {
#define AUCS_FINDING(e, name) name,
#include "aucs/finding.def"
#undef AUCS_FINDING
};

const char *aucs_finding_kind_name(aucs_finding_kind k) {
  AUCS_ASSERT(k < AUCS_FINDING_NKINDS);
  return kind_names[k];
}

const char *aucs_memspace_name(aucs_memspace m) {
  static const char *const names[] = {"none", "shared", "global", "constant",
                                      "local"};
  AUCS_ASSERT(m <= AUCS_MEM_LOCAL);
  return names[m];
}

const char *aucs_op_name(aucs_op op) {
  static const char *const names[] = {"read", "write", "atomic"};
  AUCS_ASSERT(op <= AUCS_OP_ATOMIC);
  return names[op];
}

const char *aucs_severity_name(aucs_severity s) {
  return s == AUCS_SEVERITY_WARNING ? "warning" : "error";
}

aucs_severity aucs_finding_severity(const aucs_finding *f) {
  return f->kind == AUCS_FINDING_REDUNDANT_BARRIER ? AUCS_SEVERITY_WARNING
                                                   : f->severity;
}

int aucs_finding_counts(const aucs_finding *f, int strict) {
  if (f->kind == AUCS_FINDING_REDUNDANT_BARRIER)
    return strict || f->proven;
  return strict || f->severity == AUCS_SEVERITY_ERROR;
}

aucs_finding *aucs_findings_push(aucs_findings *l, const aucs_finding *f) {
  if (l->n == l->cap) {
    l->cap = l->cap ? l->cap * 2 : 8;
    l->v = aucs_xrealloc(l->v, l->cap * sizeof(*l->v));
  }
  l->v[l->n] = *f;
  return &l->v[l->n++];
}

int aucs_finding_same(const aucs_finding *a, const aucs_finding *b) {
  return a->kind == b->kind &&
         ((a->a.instr == b->a.instr && a->b.instr == b->b.instr) ||
          (a->a.instr == b->b.instr && a->b.instr == b->a.instr));
}

const void *aucs_finding_key(const aucs_finding *f) {
  uintptr_t a = (uintptr_t)f->a.instr, b = (uintptr_t)f->b.instr;
  uintptr_t lo = a < b ? a : b, hi = a < b ? b : a;
  uintptr_t h = (lo * 0x9e3779b97f4a7c15u) ^ (hi + (uintptr_t)f->kind);
  return (const void *)((h ^ (h >> 29)) | 1);
}

void aucs_finding_dup_text(aucs_finding *g, const aucs_finding *f) {
  g->message = f->message ? aucs_xstrdup(f->message) : NULL;
  g->lock = f->lock ? aucs_xstrdup(f->lock) : NULL;
}

void aucs_findings_free(aucs_findings *l) {
  for (size_t i = 0; i < l->n; i++) {
    free(l->v[i].object);
    free(l->v[i].args);
    free(l->v[i].shown_args);
    free(l->v[i].message);
    free(l->v[i].searched);
    free(l->v[i].natural);
    free(l->v[i].data_dependent);
    free(l->v[i].data_loads);
    free(l->v[i].benign);
    free(l->v[i].lock);
  }
  free(l->v);
  *l = (aucs_findings){0};
}
