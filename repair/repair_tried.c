/*
 * repair_tried: why the simple forms lost (issue 29). The variants of a
 * finding are tried cheapest first (one barrier at a statement boundary,
 * the same with the threads of the race, a barrier moved out of its `if`)
 * and the structural ones (flattening, uniformizing a loop, keeping exited
 * threads in) last; when a structural trial is kept, its first structural
 * edit says which simpler edits were tried and what their checks found,
 * so the review and the report tell the developer why the patch is big.
 *
 *   1. rp_tried_reset when a trial is kept: the clauses gather the
 *      rejected trials since the last kept one (a race's simple trials may
 *      fail where the divergence next to it is what the kept trial fixes).
 *   2. rp_tried_note after a rejected trial that planned edits: one
 *      clause, "insert __syncthreads(); before k.cu:13 (the edit made a
 *      new finding appear (...))".
 *   3. rp_tried_explain before a kept trial is committed: the clauses
 *      go on the why of its first structural edit.
 */
#include "repair_impl.h"

enum { MAX_TRIED = 1200 }; /* characters of clauses kept per finding */

void rp_tried_reset(state *s) {
  free(s->tried);
  s->tried = NULL;
}

static int structural(aucs_edit_kind k) {
  return k == AUCS_EDIT_FLATTEN_REGION || k == AUCS_EDIT_UNIFORMIZE_LOOP ||
         k == AUCS_EDIT_FLATTEN_EXIT || k == AUCS_EDIT_SPLIT_BLOCK;
}

void rp_tried_note(state *s, const trial *t) {
  if (!t->edits.n || (s->tried && strlen(s->tried) > MAX_TRIED))
    return;
  aucs_buf b = {0};
  if (s->tried)
    aucs_buf_printf(&b, "%s; ", s->tried);
  for (size_t i = 0; i < t->edits.n; i++) {
    const aucs_edit *e = &t->edits.v[i];
    if (structural(e->kind)) { /* a structural try: not a simple form */
      free(b.data);
      return;
    }
    aucs_buf_printf(&b, "%s%s", i ? " and " : "",
                    e->source_edit ? e->source_edit
                                   : aucs_editlog_kind_name(e->kind));
  }
  aucs_buf_printf(&b, " (%s)", t->why ? t->why : "rejected by its check");
  free(s->tried);
  s->tried = aucs_buf_take(&b);
}

void rp_tried_explain(state *s, trial *t) {
  for (size_t i = 0; s->tried && i < t->edits.n; i++) {
    aucs_edit *e = &t->edits.v[i];
    if (!structural(e->kind))
      continue;
    char *why = aucs_xasprintf(
        "%s%ssimpler edits were tried first and rejected: %s",
        e->why ? e->why : "", e->why ? "; " : "", s->tried);
    free(e->why);
    e->why = why;
    return;
  }
}
