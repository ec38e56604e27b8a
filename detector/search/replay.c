/*
 * replay: one run per distinct input of the findings a classification
 * replays, and the memo of a repair trial's replayed runs (replay.h).
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

/* c with its first nl argument values copied (the copy owns them). */
static aucs_candidate own_copy(const aucs_candidate *c, size_t nl) {
  aucs_candidate r = *c;
  r.args = aucs_xcalloc(nl + 1, sizeof *r.args);
  memcpy(r.args, c->args, nl * sizeof *c->args);
  return r;
}

const aucs_replay *aucs_replays_get(aucs_replays *rs, size_t nleaves,
                                    const aucs_candidate *c,
                                    aucs_replay_fn run, void *ctx) {
  for (size_t i = 0; i < rs->n; i++)
    if (same_input(&rs->v[i].c, c, nleaves))
      return &rs->v[i];
  rs->v = aucs_xrealloc(rs->v, (rs->n + 1) * sizeof *rs->v);
  aucs_replay *r = &rs->v[rs->n++];
  *r = (aucs_replay){.c = own_copy(c, nleaves)};
  r->ok = run(ctx, &r->c, &r->found) == 0;
  r->next = aucs_xcalloc(r->found.n + 1, sizeof *r->next);
  for (size_t i = r->found.n; i-- > 0;) { /* chains in finding order */
    const void *key = aucs_finding_key(&r->found.v[i]);
    intptr_t first = 0;
    aucs_ptrmap_get(&r->index, key, &first);
    r->next[i] = (size_t)first;
    aucs_ptrmap_put(&r->index, key, (intptr_t)(i + 1));
  }
  return r;
}

const aucs_finding *aucs_replay_find(const aucs_replay *r,
                                     const aucs_finding *f) {
  intptr_t first = 0;
  if (!r->ok || !aucs_ptrmap_get(&r->index, aucs_finding_key(f), &first))
    return NULL;
  for (size_t j = (size_t)first; j; j = r->next[j - 1])
    if (aucs_finding_same(&r->found.v[j - 1], f))
      return &r->found.v[j - 1];
  return NULL;
}

void aucs_replays_free(aucs_replays *rs) {
  for (size_t i = 0; i < rs->n; i++) {
    free(rs->v[i].c.args);
    free(rs->v[i].next);
    aucs_ptrmap_free(&rs->v[i].index);
    aucs_findings_free(&rs->v[i].found);
  }
  free(rs->v);
  *rs = (aucs_replays){0};
}

/* ---- a trial's replays, for its search ----------------------------------*/

void aucs_replay_memo_put(aucs_replay_memo *m, size_t nleaves,
                          const aucs_candidate *c, aucs_search_verdict verdict,
                          const aucs_fitness *fit) {
  aucs_search_verdict v;
  aucs_fitness f;
  if (aucs_replay_memo_get(m, nleaves, c, &v, &f))
    return;
  m->v = aucs_xrealloc(m->v, (m->n + 1) * sizeof *m->v);
  m->v[m->n++] = (aucs_replay_memo_entry){
      .c = own_copy(c, nleaves), .verdict = verdict, .fit = *fit};
}

int aucs_replay_memo_get(const aucs_replay_memo *m, size_t nleaves,
                         const aucs_candidate *c, aucs_search_verdict *verdict,
                         aucs_fitness *fit) {
  for (size_t i = 0; i < m->n; i++)
    if (same_input(&m->v[i].c, c, nleaves)) {
      *verdict = m->v[i].verdict;
      *fit = m->v[i].fit;
      return 1;
    }
  return 0;
}

void aucs_replay_memo_free(aucs_replay_memo *m) {
  for (size_t i = 0; i < m->n; i++)
    free(m->v[i].c.args);
  free(m->v);
  *m = (aucs_replay_memo){0};
}
