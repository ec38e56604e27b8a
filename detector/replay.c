/*
 * replay: one run per distinct input of the findings a classification
 * replays (replay.h).
 */
#include "aucs/replay.h"

#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

int aucs_replay_kind(aucs_finding_kind k) {
  return k == AUCS_FINDING_RACE || k == AUCS_FINDING_INTER_BLOCK_RACE ||
         k == AUCS_FINDING_BARRIER_DIVERGENCE ||
         k == AUCS_FINDING_OUT_OF_BOUNDS;
}

static int same_input(const aucs_candidate *a, const aucs_candidate *b,
                      size_t nl) {
  return !memcmp(&a->launch, &b->launch, sizeof a->launch) &&
         a->seed == b->seed && a->fill == b->fill &&
         !memcmp(a->args, b->args, nl * sizeof *a->args);
}

const aucs_replay *aucs_replays_get(aucs_replays *rs, size_t nleaves,
                                    const aucs_candidate *c,
                                    aucs_replay_fn run, void *ctx) {
  for (size_t i = 0; i < rs->n; i++)
    if (same_input(&rs->v[i].c, c, nleaves))
      return &rs->v[i];
  rs->v = aucs_xrealloc(rs->v, (rs->n + 1) * sizeof *rs->v);
  aucs_replay *r = &rs->v[rs->n++];
  *r = (aucs_replay){.c = *c};
  r->c.args = aucs_xcalloc(nleaves + 1, sizeof *r->c.args);
  memcpy(r->c.args, c->args, nleaves * sizeof *c->args);
  r->ok = run(ctx, &r->c, &r->found) == 0;
  return r;
}

const aucs_finding *aucs_replay_find(const aucs_replay *r,
                                     const aucs_finding *f) {
  for (size_t i = 0; r->ok && i < r->found.n; i++)
    if (aucs_finding_same(&r->found.v[i], f))
      return &r->found.v[i];
  return NULL;
}

void aucs_replays_free(aucs_replays *rs) {
  for (size_t i = 0; i < rs->n; i++) {
    free(rs->v[i].c.args);
    aucs_findings_free(&rs->v[i].found);
  }
  free(rs->v);
  *rs = (aucs_replays){0};
}
