/*
 * datadep: a finding computed from filled buffer contents is a warning
 * (datadep.h).
 *
 * Steps, per race, inter-block race, barrier divergence and out-of-bounds
 * finding:
 *   1. Replay the run that found it (same launch, arguments, seed and fill)
 *      with the interpreter's taint track; equal runs are replayed once.
 *   2. Find the same finding (kind, both instructions in either order) in
 *      the replay. When the replay marked it data_dependent, copy the
 *      buffers and load locations and make it a warning.
 *
 * Limitation: the replay is one run; what the taint track does not follow
 * (interp_taint.c) keeps a finding an error.
 */
#include "aucs/datadep.h"

#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

typedef struct replay {
  aucs_candidate c;
  aucs_findings found;
  int ok;
} replay;

typedef struct replays {
  replay *v;
  size_t n;
} replays;

static int classified(aucs_finding_kind k) {
  return k == AUCS_FINDING_RACE || k == AUCS_FINDING_INTER_BLOCK_RACE ||
         k == AUCS_FINDING_BARRIER_DIVERGENCE ||
         k == AUCS_FINDING_OUT_OF_BOUNDS;
}

static int same_finding(const aucs_finding *a, const aucs_finding *b) {
  return a->kind == b->kind &&
         ((a->a.instr == b->a.instr && a->b.instr == b->b.instr) ||
          (a->a.instr == b->b.instr && a->b.instr == b->a.instr));
}

static int same_input(const aucs_candidate *a, const aucs_candidate *b,
                      size_t nl) {
  return !memcmp(&a->launch, &b->launch, sizeof a->launch) &&
         a->seed == b->seed && a->fill == b->fill &&
         !memcmp(a->args, b->args, nl * sizeof *a->args);
}

static const replay *replay_of(aucs_datadep_replay run, void *ctx, size_t nl,
                               replays *rs, const aucs_candidate *c) {
  for (size_t i = 0; i < rs->n; i++)
    if (same_input(&rs->v[i].c, c, nl))
      return &rs->v[i];
  rs->v = aucs_xrealloc(rs->v, (rs->n + 1) * sizeof *rs->v);
  replay *r = &rs->v[rs->n++];
  *r = (replay){.c = *c};
  r->c.args = aucs_xcalloc(nl + 1, sizeof *r->c.args);
  memcpy(r->c.args, c->args, nl * sizeof *c->args);
  r->ok = run(ctx, &r->c, &r->found) == 0;
  return r;
}

static void replays_free(replays *rs) {
  for (size_t i = 0; i < rs->n; i++) {
    free(rs->v[i].c.args);
    aucs_findings_free(&rs->v[i].found);
  }
  free(rs->v);
}

static const aucs_finding *again(const replay *r, const aucs_finding *f) {
  for (size_t i = 0; r->ok && i < r->found.n; i++)
    if (same_finding(&r->found.v[i], f))
      return &r->found.v[i];
  return NULL;
}

size_t aucs_datadep_classify(aucs_datadep_replay replay, void *ctx,
                             size_t nleaves, aucs_findings *fs,
                             const aucs_candidate *runs, size_t nruns) {
  replays rs = {0};
  for (size_t i = 0; i < nruns && i < fs->n; i++) {
    aucs_finding *f = &fs->v[i];
    if (!classified(f->kind) || !runs[i].args || f->data_dependent)
      continue;
    const aucs_finding *g =
        again(replay_of(replay, ctx, nleaves, &rs, &runs[i]), f);
    if (!g || !g->data_dependent)
      continue;
    f->severity = AUCS_SEVERITY_WARNING;
    f->data_dependent = aucs_xstrdup(g->data_dependent);
    f->data_loads = aucs_xstrdup(g->data_loads ? g->data_loads : "");
  }
  size_t n = rs.n;
  replays_free(&rs);
  return n;
}
