/*
 * patch_cost: what a kernel's repair costs, the way a reviewer and the GPU
 * see it (issue 29): the edits, the barriers added and removed (a
 * uniformized loop's `__syncthreads_or` counts as one added), the
 * `__syncwarp()` calls added (shown only when there are any), the
 * restructuring edits, and when the checked source patch was written, its
 * nonblank lines added and removed in that kernel's hunks.
 *
 *   aucs: fix: cost in 'tree(float*, float const*)': 2 edits, barriers
 *   +1/-1, no restructuring, source +1/-1 lines
 *
 * Steps: 1. group the log's edits by function (a helper's edit, folded
 * back, counts for the helper); 2. count by kind; 3. count the `+`/`-`
 * lines of each edit's own hunk (patch.h per_edit).
 *
 * Limitation: barriers executed per thread are not counted (the
 * interpreter would have to run the repaired kernel once more on the
 * checked inputs); the static counts are what the report gives.
 */
#include "aucs/patch.h"

#include "aucs/demangle.h"
#include "aucs/editlog.h"

#include <stdlib.h>
#include <string.h>

/* Nonblank `+` and `-` lines of one hunk ("@@ ..."). */
static void hunk_lines(const char *h, unsigned *add, unsigned *del) {
  if (!h || strncmp(h, "@@", 2))
    return;
  for (const char *l = strchr(h, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
    const char *s = l + 1;
    size_t n = strcspn(s, "\n");
    size_t k = strspn(s + 1, " \t");
    if (n > 1 + k && (*s == '+' || *s == '-'))
      ++*(*s == '+' ? add : del);
  }
}

/* Edit i's hunk is an earlier edit's too (the two __syncwarp() of one
 * step share the hunk that splits it): its lines count once. */
static int same_hunk_before(const aucs_patch *p, size_t i) {
  for (size_t j = 0; p->per_edit[i] && j < i; j++)
    if (p->per_edit[j] && !strcmp(p->per_edit[j], p->per_edit[i]))
      return 1;
  return 0;
}

static void count(const aucs_edit *e, aucs_patch_cost *c) {
  c->edits++;
  switch (e->kind) {
  case AUCS_EDIT_INSERT_BARRIER:
    c->barriers_added++;
    break;
  case AUCS_EDIT_DELETE_BARRIER:
    c->barriers_removed++;
    break;
  case AUCS_EDIT_INSERT_WARP_SYNC:
    c->warp_syncs++;
    break;
  case AUCS_EDIT_UNIFORMIZE_LOOP:
    c->barriers_added++; /* its __syncthreads_or */
    c->restructured++;
    break;
  case AUCS_EDIT_FLATTEN_REGION:
  case AUCS_EDIT_FLATTEN_EXIT:
  case AUCS_EDIT_SPLIT_BLOCK:
    c->restructured++;
    break;
  default:
    break;
  }
}

size_t aucs_patch_cost_of(const aucs_repair_result *r, const aucs_patch *p,
                          aucs_patch_cost **out) {
  aucs_patch_cost *v = NULL;
  size_t n = 0;
  for (size_t i = 0; i < r->log.n; i++) {
    const aucs_edit *e = &r->log.v[i];
    const char *fn = e->function ? e->function : "?";
    size_t k = 0;
    while (k < n && strcmp(v[k].function, fn))
      k++;
    if (k == n) {
      v = aucs_xrealloc(v, (n + 1) * sizeof *v);
      v[n++] = (aucs_patch_cost){.function = fn};
    }
    count(e, &v[k]);
    if (p && p->diff && i < p->n) {
      v[k].patched = 1;
      if (!same_hunk_before(p, i))
        hunk_lines(p->per_edit[i], &v[k].lines_added, &v[k].lines_removed);
    }
  }
  *out = v;
  return n;
}

void aucs_patch_cost_print(const aucs_repair_result *r, const aucs_patch *p,
                           aucs_buf *out) {
  aucs_patch_cost *v;
  size_t n = aucs_patch_cost_of(r, p, &v);
  for (size_t k = 0; k < n; k++) {
    char *d = aucs_demangle(v[k].function);
    aucs_buf_printf(out,
                    "aucs: fix: cost in '%s': %u edit%s, barriers +%u/-%u, ",
                    d ? d : v[k].function, v[k].edits,
                    v[k].edits == 1 ? "" : "s", v[k].barriers_added,
                    v[k].barriers_removed);
    if (v[k].warp_syncs)
      aucs_buf_printf(out, "__syncwarp +%u, ", v[k].warp_syncs);
    if (v[k].restructured)
      aucs_buf_printf(out, "%u restructuring edit%s", v[k].restructured,
                      v[k].restructured == 1 ? "" : "s");
    else
      aucs_buf_puts(out, "no restructuring");
    if (v[k].patched)
      aucs_buf_printf(out, ", source +%u/-%u lines", v[k].lines_added,
                      v[k].lines_removed);
    aucs_buf_puts(out, "\n");
    free(d);
  }
  free(v);
}

json_t *aucs_patch_cost_json(const aucs_patch_cost *c) {
  json_t *j = json_pack("{s:i,s:i,s:i,s:i}", "edits", (json_int_t)c->edits,
                        "barriersAdded", (json_int_t)c->barriers_added,
                        "barriersRemoved", (json_int_t)c->barriers_removed,
                        "restructuringEdits", (json_int_t)c->restructured);
  if (c->warp_syncs)
    json_object_set_new(j, "warpSyncsAdded", json_integer(c->warp_syncs));
  if (c->patched) {
    json_object_set_new(j, "sourceLinesAdded", json_integer(c->lines_added));
    json_object_set_new(j, "sourceLinesRemoved",
                        json_integer(c->lines_removed));
  }
  return j;
}
