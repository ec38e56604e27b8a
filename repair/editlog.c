/*
 * editlog: the ordered record of the repair's edits, and its text form.
 *
 *   edit 1: insert-barrier in @k before %mul in %entry (k.cu:24:3)
 *     answers: k.cu:17:10: data race on 'buf[2]' (shared)
 *     source: insert __syncthreads(); before k.cu:24
 */
#include "aucs/editlog.h"

#include <stdlib.h>
#include <string.h>

static const char *const kind_names[] = {
#define AUCS_EDIT(e, name) name,
#include "aucs/editlog.def"
#undef AUCS_EDIT
};

const char *aucs_editlog_kind_name(aucs_edit_kind k) {
  return k < AUCS_EDIT_NKINDS ? kind_names[k] : "?";
}

aucs_edit *aucs_editlog_push(aucs_editlog *l, const aucs_edit *e) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 8;
    l->v = aucs_xrealloc(l->v, l->cap * sizeof(*l->v));
  }
  l->v[l->n] = *e;
  return &l->v[l->n++];
}

void aucs_edit_free(aucs_edit *e) {
  free(e->function);
  free(e->where);
  free(e->finding);
  free(e->source);
  free(e->source_edit);
  free(e->why);
}

void aucs_editlog_truncate(aucs_editlog *l, size_t n) {
  while (l->n > n)
    aucs_edit_free(&l->v[--l->n]);
}

void aucs_editlog_free(aucs_editlog *l) {
  aucs_editlog_truncate(l, 0);
  free(l->v);
  memset(l, 0, sizeof(*l));
}

void aucs_editlog_print_edit(const aucs_edit *e, size_t number, aucs_buf *out) {
  aucs_buf_printf(out, "edit %zu: %s in @%s %s", number,
                  aucs_editlog_kind_name(e->kind), e->function,
                  e->where ? e->where : "");
  if (e->source)
    aucs_buf_printf(out, " (%s)", e->source);
  aucs_buf_puts(out, "\n");
  if (e->finding)
    aucs_buf_printf(out, "  answers: %s\n", e->finding);
  if (e->source_edit)
    aucs_buf_printf(out, "  source: %s\n", e->source_edit);
  if (e->why)
    aucs_buf_printf(out, "  why: %s\n", e->why);
}

void aucs_editlog_print(const aucs_editlog *l, aucs_buf *out) {
  for (size_t i = 0; i < l->n; i++)
    aucs_editlog_print_edit(&l->v[i], i + 1, out);
}
