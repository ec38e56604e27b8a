/*
 * patch_json: `aucs fix --format=json`, the detect JSON report of the
 * repair's first detection (report.h, docs/detect.md "JSON report") with
 * what the repair made of it:
 *
 *   {"tool": "aucs", ..., "kernels": [{"name": "_Z4treePfPKf", ...,
 *      "findings": [{"kind": "barrier-divergence", ...,
 *                    "repair": {"outcome": "fixed", "how": "edit 1 ..."}}],
 *      "repair_cost": {"edits": 2, "barriersAdded": 1, ...}}],
 *    "repair": {"summary": {"findings": 1, "fixed": 1, ...},
 *               "edits": [{"number": 1, "kind": "insert-barrier", ...}],
 *               "introduced": [...], "costs": [...], "patch": "--- a/..."}}
 *
 * Steps:
 *   1. The repair hands over its first detection's report before it
 *      leaves out the findings that do not count (aucs_patch_json_first):
 *      the document is made then, and each finding object listed is
 *      remembered with its key (kernel, kind, the repair ids of its two
 *      instructions), the key the repair's items carry.
 *   2. After the repair: each remembered finding gets "repair" (its item's
 *      outcome, how, suggestion; null when the repair did not act on it, a
 *      warning), each kernel "repair_cost" (patch_cost.c, as SARIF's
 *      `properties.repair.cost`; null when not edited), and the root
 *      "repair": the summary, the edits, the findings edits left behind,
 *      every function's cost, and the checked source patch.
 *
 * Limitation: the findings past --max-findings are counted, not listed, so
 * their repair shows in the summary only.
 */
#include "aucs/demangle.h"
#include "aucs/patch.h"

#include <stdlib.h>
#include <string.h>

typedef struct key {
  char *kernel;
  int kind;
  unsigned ida, idb;
  json_t *obj; /* borrowed from the document */
} key;

struct aucs_patch_json {
  json_t *doc;
  key *keys;
  size_t n;
};

aucs_patch_json *aucs_patch_json_new(void) {
  return aucs_xcalloc(1, sizeof(aucs_patch_json));
}

void aucs_patch_json_free(aucs_patch_json *j) {
  if (!j)
    return;
  for (size_t i = 0; i < j->n; i++)
    free(j->keys[i].kernel);
  free(j->keys);
  json_decref(j->doc);
  free(j);
}

static void remember(aucs_patch_json *j, const char *kernel,
                     const aucs_finding *f, json_t *obj) {
  j->keys = aucs_xrealloc(j->keys, (j->n + 1) * sizeof *j->keys);
  j->keys[j->n++] = (key){.kernel = aucs_xstrdup(kernel),
                          .kind = (int)f->kind,
                          .ida = aucs_repair_id(f->a.instr),
                          .idb = aucs_repair_id(f->b.instr),
                          .obj = obj};
}

void aucs_patch_json_first(void *ctx, const aucs_report *rep) {
  aucs_patch_json *j = ctx;
  if (j->doc)
    return;
  j->doc = aucs_report_json_doc(rep);
  json_t *ks = json_object_get(j->doc, "kernels");
  for (size_t k = 0; k < rep->nkernels; k++) {
    const aucs_report_kernel *K = &rep->kernels[k];
    json_t *kj = json_array_get(ks, k);
    json_t *arr[2] = {json_object_get(kj, "warnings"),
                      json_object_get(kj, "findings")};
    size_t at[2] = {0, 0}, nf = aucs_report_listed(rep, K->findings.n);
    for (size_t i = 0; i < nf; i++) {
      const aucs_finding *f = &K->findings.v[i];
      int c = aucs_finding_counts(f, rep->strict) != 0;
      json_t *obj = json_array_get(arr[c], at[c]++);
      if (obj)
        remember(j, K->name, f, obj);
    }
  }
}

/* The item with key x, or NULL. */
static const aucs_repair_item *item_of(const key *x,
                                       const aucs_repair_result *r) {
  for (size_t i = 0; i < r->nitems; i++) {
    const aucs_repair_item *it = &r->items[i];
    if ((int)it->kind == x->kind && !strcmp(it->kernel, x->kernel) &&
        ((it->ida == x->ida && it->idb == x->idb) ||
         (it->ida == x->idb && it->idb == x->ida)))
      return it;
  }
  return NULL;
}

static json_t *str_or_null(const char *s) {
  return s ? json_string(s) : json_null();
}

static json_t *note(const aucs_repair_item *it) {
  json_t *j =
      json_pack("{s:s}", "outcome", aucs_repair_outcome_name(it->outcome));
  json_object_set_new(j, "how", str_or_null(it->how));
  json_object_set_new(j, "suggestion", str_or_null(it->suggestion));
  return j;
}

static json_t *kernel_cost(const char *name, const aucs_patch_cost *v,
                           size_t n) {
  for (size_t k = 0; name && k < n; k++)
    if (!strcmp(v[k].function, name))
      return aucs_patch_cost_json(&v[k]);
  return json_null();
}

static json_t *edits(const aucs_repair_result *r, const aucs_patch *p) {
  json_t *a = json_array();
  for (size_t i = 0; i < r->log.n; i++) {
    const aucs_edit *e = &r->log.v[i];
    json_t *o = json_pack("{s:I,s:s}", "number", (json_int_t)(i + 1), "kind",
                          aucs_editlog_kind_name(e->kind));
    json_object_set_new(o, "function", str_or_null(e->function));
    json_object_set_new(o, "where", str_or_null(e->where));
    json_object_set_new(o, "source", str_or_null(e->source));
    json_object_set_new(o, "source_edit", str_or_null(e->source_edit));
    json_object_set_new(
        o, "source_patch",
        str_or_null(p && i < p->n && p->per_edit ? p->per_edit[i] : NULL));
    json_object_set_new(o, "why", str_or_null(e->why));
    json_object_set_new(o, "answers", str_or_null(e->finding));
    json_array_append_new(a, o);
  }
  return a;
}

/* The findings an edit left behind (not in the first detection). */
static json_t *introduced(const aucs_repair_result *r) {
  json_t *a = json_array();
  for (size_t i = 0; i < r->nitems; i++) {
    const aucs_repair_item *it = &r->items[i];
    if (!it->introduced)
      continue;
    json_t *o = json_pack("{s:s,s:s}", "kind", aucs_finding_kind_name(it->kind),
                          "kernel", it->kernel);
    json_object_set_new(o, "location", str_or_null(it->location));
    json_object_set_new(o, "headline", str_or_null(it->headline));
    json_object_set_new(o, "repair", note(it));
    json_array_append_new(a, o);
  }
  return a;
}

static json_t *costs(const aucs_patch_cost *v, size_t n) {
  json_t *a = json_array();
  for (size_t k = 0; k < n; k++) {
    json_t *c = aucs_patch_cost_json(&v[k]);
    char *d = aucs_demangle(v[k].function);
    json_object_set_new(c, "function", json_string(v[k].function));
    json_object_set_new(c, "demangled", json_string(d ? d : v[k].function));
    free(d);
    json_array_append_new(a, c);
  }
  return a;
}

static json_t *summary(const aucs_repair_result *r) {
  json_t *s = json_pack(
      "{s:I,s:I,s:I,s:I,s:I,s:I,s:I}", "findings",
      (json_int_t)(r->nitems - r->kept), "fixed", (json_int_t)r->fixed,
      "unfixable", (json_int_t)r->unfixable, "not_fixed",
      (json_int_t)r->remaining, "kept_warnings", (json_int_t)r->kept, "edits",
      (json_int_t)r->log.n, "rounds", (json_int_t)r->rounds);
  json_object_set_new(s, "budget", str_or_null(r->budget));
  return s;
}

void aucs_patch_json_print(aucs_patch_json *j, const aucs_repair_result *r,
                           const aucs_patch *p, aucs_buf *out) {
  if (!j || !j->doc)
    return;
  for (size_t i = 0; i < j->n; i++) {
    const aucs_repair_item *it = item_of(&j->keys[i], r);
    json_object_set_new(j->keys[i].obj, "repair", it ? note(it) : json_null());
  }
  aucs_patch_cost *v;
  size_t n = aucs_patch_cost_of(r, p, &v);
  size_t k;
  json_t *kj;
  json_array_foreach(json_object_get(j->doc, "kernels"), k, kj) {
    const char *name = json_string_value(json_object_get(kj, "name"));
    json_object_set_new(kj, "repair_cost", kernel_cost(name, v, n));
  }
  json_t *rep = json_pack("{s:o,s:o,s:o,s:o}", "summary", summary(r), "edits",
                          edits(r, p), "introduced", introduced(r), "costs",
                          costs(v, n));
  json_t *dropped = json_array();
  for (size_t i = 0; i < r->ndropped; i++)
    json_array_append_new(dropped, json_string(r->dropped[i]));
  json_object_set_new(rep, "dropped", dropped);
  json_object_set_new(rep, "patch", str_or_null(p ? p->diff : NULL));
  json_object_set_new(j->doc, "repair", rep);
  free(v);
  aucs_report_json_put(out, j->doc);
  j->doc = NULL;
}
