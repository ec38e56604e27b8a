/*
 * seeds: a kernel's leaves as the solver's inputs, the solved inputs as
 * the search's seeds, and the reason of a kernel nothing of which ran.
 *
 *   1. The leaves that are integers of 1 to 64 bits a run writes become
 *      precond.h's leaves: fixed with their value when the search does not
 *      vary them, chosen otherwise.
 *   2. aucs_precond_solve, once; its inputs back as one value per leaf
 *      (the others 0, not chosen).
 *   3. The reason: UNSAT names the culprit and the launch it was proven
 *      for; otherwise the inputs tried and what to give.
 *
 * Limitation: see seeds.h.
 */
#include "aucs/seeds.h"

#include "aucs/precond.h"
#include "aucs/util.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct aucs_seeds {
  aucs_precond_result r;
  size_t nleaves;        /* of the kernel */
  uint64_t **args;       /* per seed, per leaf */
  unsigned char *chosen; /* per leaf */
  char *launch;          /* "grid (1,1,1) block (32,1,1)": what was fixed */
  char *given;           /* "n=3 t.len=4": the fixed leaves, or "" */
};

static int solvable(const aucs_seeds_kernel *k, size_t j) {
  const aucs_param *p = &k->in->v[j].p;
  return p->kind == AUCS_PARAM_INT && p->bits >= 1 && p->bits <= 64 &&
         k->lset[j];
}

static char *launch_text(const aucs_seeds_kernel *k) {
  const aucs_dim3 g = k->launch.grid, b = k->launch.block;
  char grid[64] = "any grid", block[64] = "any block";
  if (k->fixed_grid)
    snprintf(grid, sizeof grid, "grid (%u,%u,%u)", g.x, g.y, g.z);
  if (k->fixed_block)
    snprintf(block, sizeof block, "block (%u,%u,%u)", b.x, b.y, b.z);
  return aucs_xasprintf("%s, %s", grid, block);
}

static char *given_text(const aucs_seeds_kernel *k) {
  aucs_buf b = {0};
  aucs_buf_puts(&b, "");
  for (size_t j = 0; j < k->in->n; j++) {
    if (!solvable(k, j) || !k->lfixed[j])
      continue;
    char *v = aucs_inputs_value_text(&k->in->v[j].p, k->iv->vals[j]);
    aucs_buf_printf(&b, "%s%s=%s", b.len ? " " : "", k->in->v[j].p.name, v);
    free(v);
  }
  return aucs_buf_take(&b);
}

static void trace(const aucs_seeds_kernel *k, const aucs_seeds *s,
                  double secs) {
  static const char *const names[] = {"no condition", "sat", "unsat",
                                      "unknown"};
  const char *dbg = getenv("AUCS_DEBUG");
  if (!dbg || !strstr(dbg, "precond"))
    return;
  fprintf(stderr,
          "aucs: precond: kernel '%s': %zu condition%s, %s, %zu input%s, "
          "%zu constant%s, %zu quer%s, %.3f s\n",
          k->name ? k->name : "?", s->r.conditions,
          s->r.conditions == 1 ? "" : "s", names[s->r.verdict], s->r.n,
          s->r.n == 1 ? "" : "s", s->r.nconstants,
          s->r.nconstants == 1 ? "" : "s", s->r.queries,
          s->r.queries == 1 ? "y" : "ies", secs);
}

aucs_seeds *aucs_seeds_solve(const aucs_seeds_kernel *k) {
  double t0 = aucs_seconds();
  aucs_seeds *s = aucs_xcalloc(1, sizeof *s);
  size_t n = k->in->n, m = 0;
  aucs_precond_leaf *leaves = aucs_xcalloc(n + 1, sizeof *leaves);
  size_t *at = aucs_xcalloc(n + 1, sizeof *at); /* precond leaf -> leaf */
  for (size_t j = 0; j < n; j++) {
    if (!solvable(k, j))
      continue;
    const aucs_input *x = &k->in->v[j];
    at[m] = j;
    leaves[m++] = (aucs_precond_leaf){.param = x->param,
                                      .field = x->field,
                                      .offset = x->offset,
                                      .bits = x->p.bits,
                                      .fixed = k->lfixed[j],
                                      .value = k->iv->vals[j]};
  }
  aucs_precond_query q = {.fixed_grid = k->fixed_grid,
                          .fixed_block = k->fixed_block,
                          .launch = k->launch,
                          .leaves = leaves,
                          .nleaves = m,
                          .want = AUCS_SEEDS_WANT};
  aucs_precond_solve(k->fn, &q, &s->r);
  s->nleaves = n;
  s->chosen = aucs_xcalloc(n + 1, 1);
  for (size_t i = 0; i < m; i++)
    s->chosen[at[i]] = s->r.leaf[i];
  s->args = aucs_xcalloc(s->r.n + 1, sizeof *s->args);
  for (size_t k2 = 0; k2 < s->r.n; k2++) {
    s->args[k2] = aucs_xcalloc(n + 1, sizeof **s->args);
    for (size_t i = 0; i < m; i++)
      s->args[k2][at[i]] = s->r.vals[k2][i];
  }
  s->launch = launch_text(k);
  s->given = given_text(k);
  free(leaves);
  free(at);
  trace(k, s, aucs_seconds() - t0);
  return s;
}

void aucs_seeds_free(aucs_seeds *s) {
  if (!s)
    return;
  for (size_t i = 0; i < s->r.n; i++)
    free(s->args[i]);
  free(s->args);
  free(s->chosen);
  free(s->launch);
  free(s->given);
  aucs_precond_result_free(&s->r);
  free(s);
}

uint64_t aucs_seeds_count(const aucs_seeds *s) { return s ? s->r.n : 0; }

void aucs_seeds_get(const aucs_seeds *s, aucs_search_seeds *out) {
  *out = (aucs_search_seeds){.n = s->r.n,
                             .launch = s->r.launch,
                             .args = s->args,
                             .chosen = s->chosen,
                             .dict = s->r.constants,
                             .ndict = s->r.nconstants,
                             .unsat = s->r.verdict == AUCS_PRECOND_UNSAT};
  memcpy(out->grid, s->r.grid, sizeof out->grid);
  memcpy(out->block, s->r.block, sizeof out->block);
}

char *aucs_seeds_reason(const aucs_seeds *s, const char *kernel,
                        uint64_t discarded, const char *assumption) {
  if (s && s->r.verdict == AUCS_PRECOND_UNSAT) {
    char *what = aucs_precond_describe(s->r.culprit);
    char *r = aucs_xasprintf(
        "kernel '%s': no input satisfies the kernel's assumptions: the solver "
        "proved %s unsatisfiable for this launch (%s%s%s)%s%s%s; nothing ran "
        "(%llu input%s tried); give a launch and inputs that satisfy it",
        kernel, what, s->launch, *s->given ? "; given " : "", s->given,
        s->r.before ? ", together with the " : "",
        s->r.before ? (s->r.before == 1 ? "condition" : "conditions") : "",
        s->r.before ? " before it" : "", (unsigned long long)discarded,
        discarded == 1 ? "" : "s");
    free(what);
    return r;
  }
  return aucs_xasprintf(
      "kernel '%s': every input tried (%llu) violated the kernel's "
      "assumptions (%s)%s: nothing ran; give inputs that satisfy them (--arg, "
      "--grid, --block)",
      kernel, (unsigned long long)discarded, assumption ? assumption : "?",
      s && s->r.n ? ", the solver's inputs for them included (it takes values "
                    "it cannot follow, such as loaded data, as free)"
                  : "");
}
