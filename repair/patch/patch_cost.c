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
 * and, for a kernel, the barriers its threads execute on the checked
 * inputs before and after the repair (mean per thread, repair_cost.c):
 *
 *   aucs: fix: cost in 'tree(float*, float const*)': 2 edits, barriers
 *   +1/-1, no restructuring, source +1/-1 lines, barriers per thread
 *   3 -> 3 (2 checked runs)
 *
 * Steps: 1. group the log's edits by function (a helper's edit, folded
 * back, counts for the helper); 2. count by kind; 3. count the `+`/`-`
 * lines of each edit's own hunk (patch.h per_edit); 4. attach each
 * kernel's measure (a kernel whose edits are all in helpers gets an entry
 * of its own, with the measure alone).
 */
#include "aucs/patch.h"

#include "aucs/demangle.h"
#include "aucs/editlog.h"

#include <stdio.h>
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
  for (size_t j = 0; j < r->nper_thread; j++) {
    const aucs_repair_per_thread *pt = &r->per_thread[j];
    size_t k = 0;
    while (k < n && strcmp(v[k].function, pt->kernel))
      k++;
    if (k == n) {
      v = aucs_xrealloc(v, (n + 1) * sizeof *v);
      v[n++] = (aucs_patch_cost){.function = pt->kernel};
    }
    v[k].per_thread = pt;
  }
  *out = v;
  return n;
}

static double mean(uint64_t sum, uint64_t threads) {
  return threads ? (double)sum / (double)threads : 0;
}

/* "3", "2.5", "0.03": two decimals at most. */
static void put_mean(aucs_buf *out, double x) {
  char b[64];
  snprintf(b, sizeof b, "%.2f", x);
  char *e = b + strlen(b);
  while (e[-1] == '0')
    *--e = '\0';
  if (e[-1] == '.')
    e[-1] = '\0';
  aucs_buf_puts(out, b);
}

static void print_per_thread(const aucs_repair_per_thread *pt, aucs_buf *out) {
  aucs_buf_puts(out, "barriers per thread ");
  put_mean(out, mean(pt->barriers_before, pt->threads));
  aucs_buf_puts(out, " -> ");
  put_mean(out, mean(pt->barriers_after, pt->threads));
  if (pt->warp_before || pt->warp_after) {
    aucs_buf_puts(out, ", __syncwarp per thread ");
    put_mean(out, mean(pt->warp_before, pt->threads));
    aucs_buf_puts(out, " -> ");
    put_mean(out, mean(pt->warp_after, pt->threads));
  }
  aucs_buf_printf(out, " (%llu checked run%s)", (unsigned long long)pt->runs,
                  pt->runs == 1 ? "" : "s");
}

void aucs_patch_cost_print(const aucs_repair_result *r, const aucs_patch *p,
                           aucs_buf *out) {
  aucs_patch_cost *v;
  size_t n = aucs_patch_cost_of(r, p, &v);
  for (size_t k = 0; k < n; k++) {
    char *d = aucs_demangle(v[k].function);
    aucs_buf_printf(out, "aucs: fix: cost in '%s': ", d ? d : v[k].function);
    free(d);
    if (!v[k].edits) { /* a kernel whose helpers hold the edits */
      print_per_thread(v[k].per_thread, out);
      aucs_buf_puts(out, "\n");
      continue;
    }
    aucs_buf_printf(out, "%u edit%s, barriers +%u/-%u, ", v[k].edits,
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
    if (v[k].per_thread) {
      aucs_buf_puts(out, ", ");
      print_per_thread(v[k].per_thread, out);
    }
    aucs_buf_puts(out, "\n");
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
  const aucs_repair_per_thread *pt = c->per_thread;
  if (!pt)
    return j;
  json_object_set_new(j, "barriersPerThreadBefore",
                      json_real(mean(pt->barriers_before, pt->threads)));
  json_object_set_new(j, "barriersPerThreadAfter",
                      json_real(mean(pt->barriers_after, pt->threads)));
  json_object_set_new(j, "warpSyncsPerThreadBefore",
                      json_real(mean(pt->warp_before, pt->threads)));
  json_object_set_new(j, "warpSyncsPerThreadAfter",
                      json_real(mean(pt->warp_after, pt->threads)));
  json_object_set_new(j, "checkedRuns", json_integer((json_int_t)pt->runs));
  return j;
}
