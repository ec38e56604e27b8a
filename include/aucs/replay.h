/*
 * replay: runs a finding's input again, once per distinct input, and finds
 * the finding in what the replay found. Shared by the classifications that
 * replay findings (natural.c: natural inputs; datadep.c: the taint track).
 */
#ifndef AUCS_REPLAY_H
#define AUCS_REPLAY_H

#include "aucs/finding.h"
#include "aucs/search.h"
#include "aucs/util.h"
#include <stddef.h>

/* Run c: 0 when the run finished, its findings appended to out (the caller
 * frees them). */
typedef int (*aucs_replay_fn)(void *ctx, const aucs_candidate *c,
                              aucs_findings *out);

/* One replay: its input (arguments owned) and what it found. */
typedef struct aucs_replay {
  aucs_candidate c;
  aucs_findings found;
  int ok;             /* the run finished */
  aucs_ptrmap index;  /* aucs_finding_key -> first such finding's index + 1 */
  size_t *next;       /* per finding: the next of its key's chain, + 1 */
} aucs_replay;

typedef struct aucs_replays {
  aucs_replay *v;
  size_t n;
} aucs_replays;

/* The kinds a replay classifies: race, inter-block race, barrier
 * divergence, out-of-bounds access. */
int aucs_replay_kind(aucs_finding_kind k);

/* The replay of c (nleaves argument values), run now with run(ctx, ...)
 * unless an equal input (launch, seed, fill, arguments) ran before. */
const aucs_replay *aucs_replays_get(aucs_replays *rs, size_t nleaves,
                                    const aucs_candidate *c,
                                    aucs_replay_fn run, void *ctx);

/* f again among r's findings (same kind, same two instructions in either
 * order), or NULL (also when r did not finish). */
const aucs_finding *aucs_replay_find(const aucs_replay *r,
                                     const aucs_finding *f);

void aucs_replays_free(aucs_replays *rs);

/* What a repair trial's replays told the search (issue 14): the search of
 * a trial starts from the usual first candidate, which is often a run the
 * trial replayed just before; the run is deterministic, so its verdict and
 * fitness answer the search without running it again. */
typedef struct aucs_replay_memo_entry {
  aucs_candidate c; /* arguments owned */
  aucs_search_verdict verdict;
  aucs_fitness fit;
} aucs_replay_memo_entry;

typedef struct aucs_replay_memo {
  aucs_replay_memo_entry *v;
  size_t n;
} aucs_replay_memo;

/* Remember that c (nleaves argument values) gave verdict and *fit. */
void aucs_replay_memo_put(aucs_replay_memo *m, size_t nleaves,
                          const aucs_candidate *c, aucs_search_verdict verdict,
                          const aucs_fitness *fit);
/* 1 with *verdict and *fit when an equal input (launch, seed, fill,
 * arguments) was remembered, else 0. */
int aucs_replay_memo_get(const aucs_replay_memo *m, size_t nleaves,
                         const aucs_candidate *c, aucs_search_verdict *verdict,
                         aucs_fitness *fit);
void aucs_replay_memo_free(aucs_replay_memo *m);

#endif
