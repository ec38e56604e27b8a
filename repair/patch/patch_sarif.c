/*
 * patch_sarif: `aucs fix --format=sarif`, the repair's part of the SARIF
 * log. The results come from the repair's first detection (sarif.h); this
 * file adds to each result what became of its finding and, when the
 * checked source patch answers it, that patch as a SARIF `fix`:
 *
 *   "properties": {"repair": {"outcome": "fixed", "how": "edit 1 (...)",
 *                             "cost": {"edits": 1, "barriersAdded": 1,
 *                                      ...}}},
 *   "fixes": [{"description": {"text": "checked source patch ..."},
 *              "artifactChanges": [{"artifactLocation": {"uri": "k.cu"},
 *                "replacements": [{"deletedRegion": {"charOffset": 120,
 *                                                    "charLength": 0},
 *                                  "insertedContent": {"text": "..."}}]}]}]
 *
 * Steps: 1. match each result to the repair item of the same rule whose
 * first access has the same line and column; 2. add the outcome; 3. when
 * the patch was checked and one of its edits answers the item, add the
 * whole patch (its edits were checked together, not one by one).
 *
 * Limitation: regions are byte offsets into the original .cu (charOffset
 * counts bytes, which equals characters for ASCII sources).
 */
#include "aucs/patch.h"
#include "aucs/sarif.h"

#include <stdlib.h>
#include <string.h>

/* Line and column of "k.cu:12:5" (0 when absent). */
static void line_col(const char *loc, unsigned *line, unsigned *col) {
  *line = *col = 0;
  const char *c2 = loc ? strrchr(loc, ':') : NULL, *c1 = c2;
  while (c1 && c1 > loc && c1[-1] != ':')
    c1--;
  if (c2 && c1 > loc) {
    *line = (unsigned)strtoul(c1, NULL, 10);
    *col = (unsigned)strtoul(c2 + 1, NULL, 10);
  }
}

/* The repair item result j reports, or -1. */
static long item_of(json_t *j, const aucs_repair_result *r) {
  const char *rule = json_string_value(json_object_get(j, "ruleId"));
  json_t *region = json_object_get(
      json_object_get(json_array_get(json_object_get(j, "locations"), 0),
                      "physicalLocation"),
      "region");
  json_int_t line = json_integer_value(json_object_get(region, "startLine"));
  json_int_t col = json_integer_value(json_object_get(region, "startColumn"));
  for (size_t i = 0; rule && line && i < r->nitems; i++) {
    unsigned l, c;
    line_col(r->items[i].location, &l, &c);
    if (!r->items[i].introduced &&
        !strcmp(rule, aucs_finding_kind_name(r->items[i].kind)) && l == line &&
        c == col)
      return (long)i;
  }
  return -1;
}

/* The cost of the repair of the item's kernel (patch_cost.c), or NULL
 * when the log edits it not. */
static json_t *cost_of(const aucs_repair_item *it, const aucs_patch_cost *v,
                       size_t n) {
  for (size_t k = 0; it->kernel && k < n; k++)
    if (!strcmp(v[k].function, it->kernel))
      return aucs_patch_cost_json(&v[k]);
  return NULL;
}

static json_t *repair_note(const aucs_repair_item *it, json_t *cost) {
  json_t *j = json_pack("{s:s}", "outcome", aucs_repair_outcome_name(it->outcome));
  if (it->how)
    json_object_set_new(j, "how", json_string(it->how));
  if (it->suggestion)
    json_object_set_new(j, "suggestion", json_string(it->suggestion));
  if (cost)
    json_object_set_new(j, "cost", cost);
  return j;
}

static json_t *fix(const aucs_patch *p, const char *cu) {
  json_t *reps = json_array();
  for (size_t i = 0; i < p->nchanges; i++)
    json_array_append_new(
        reps, json_pack("{s:{s:I,s:I},s:{s:s}}", "deletedRegion", "charOffset",
                        (json_int_t)p->changes[i].offset, "charLength",
                        (json_int_t)p->changes[i].length, "insertedContent",
                        "text", p->changes[i].text));
  json_t *change = json_pack("{s:o,s:o}", "artifactLocation",
                             aucs_sarif_artifact(cu), "replacements", reps);
  return json_pack("{s:{s:s},s:[o]}", "description", "text",
                   "the checked source patch (recompiled and detected "
                   "again: none of the findings it answers is left)",
                   "artifactChanges", change);
}

void aucs_patch_sarif(const aucs_patch *p, const aucs_repair_result *r,
                      const char *cu, json_t *results) {
  size_t i;
  json_t *j;
  aucs_patch_cost *costs;
  size_t ncosts = aucs_patch_cost_of(r, p, &costs);
  json_array_foreach(results, i, j) {
    long it = item_of(j, r);
    if (it < 0)
      continue;
    json_t *props = json_object_get(j, "properties");
    if (!props)
      json_object_set_new(j, "properties", props = json_object());
    json_object_set_new(
        props, "repair",
        repair_note(&r->items[it], cost_of(&r->items[it], costs, ncosts)));
    if (p && p->diff && p->nchanges && (size_t)it < p->nitems &&
        p->addressed[it])
      json_object_set_new(j, "fixes", json_pack("[o]", fix(p, cu)));
  }
  free(costs);
}
