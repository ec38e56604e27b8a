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

#include "aucs/replay.h"
#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>

size_t aucs_datadep_classify(aucs_datadep_replay replay, void *ctx,
                             size_t nleaves, aucs_findings *fs,
                             const aucs_candidate *runs, size_t nruns) {
  aucs_replays rs = {0};
  for (size_t i = 0; i < nruns && i < fs->n; i++) {
    aucs_finding *f = &fs->v[i];
    if (!aucs_replay_kind(f->kind) || !runs[i].args || f->data_dependent)
      continue;
    const aucs_finding *g = aucs_replay_find(
        aucs_replays_get(&rs, nleaves, &runs[i], replay, ctx), f);
    if (!g || !g->data_dependent)
      continue;
    f->severity = AUCS_SEVERITY_WARNING;
    f->data_dependent = aucs_xstrdup(g->data_dependent);
    f->data_loads = aucs_xstrdup(g->data_loads ? g->data_loads : "");
  }
  size_t n = rs.n;
  aucs_replays_free(&rs);
  return n;
}
