/*
 * candidates: blocks "with the threads" of a set of reference blocks, the
 * places the repair tries before it restructures anything (see
 * include/aucs/candidates.h for the rule and its two steps).
 *
 *   if (gid >= n) return;       d1: arm "go on" holds everything below
 *   for (..) {                  uniform exit
 *     if (t < m)                d2: arm "then" holds A only
 *       A: s[t] = ..;
 *     X                         on d1's arm, as A and B are: with the threads
 *     B: .. = s[t + 1];
 *   }
 */
#include "aucs/candidates.h"

#include "aucs/util.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_ARMS = 1024 }; /* divergent arms followed per function */

typedef struct arms {
  unsigned char **on; /* per arm: per block, 1 when the arm leads there */
  int n;
} arms;

/* The blocks arm s of divergent block d leads to before d's join. */
static unsigned char *walk(const aucs_cfg *g, int d, int s, int *queue) {
  unsigned char *on = aucs_xcalloc((size_t)g->nblocks + 1, 1);
  int join = g->ipdom[d], head = 0, tail = 0;
  if (s == join)
    return on;
  queue[tail++] = s;
  on[s] = 1;
  while (head < tail) {
    int y = queue[head++];
    for (int i = 0; i < g->nsucc[y]; i++) {
      int z = g->succ[y][i];
      if (z != join && !on[z]) {
        on[z] = 1;
        queue[tail++] = z;
      }
    }
  }
  return on;
}

static arms arms_of(const aucs_cfg *g, const aucs_uniformity *u) {
  arms a = {aucs_xcalloc(MAX_ARMS, sizeof(unsigned char *)), 0};
  int *queue = aucs_xcalloc((size_t)g->nblocks + 1, sizeof(int));
  for (int d = 0; d < g->nblocks; d++) {
    if (!g->reachable[d] || !aucs_uniform_branch_divergent(u, d))
      continue;
    for (int i = 0; i < g->nsucc[d] && a.n < MAX_ARMS; i++)
      a.on[a.n++] = walk(g, d, g->succ[d][i], queue);
  }
  free(queue);
  return a;
}

static void arms_free(arms *a) {
  for (int i = 0; i < a->n; i++)
    free(a->on[i]);
  free(a->on);
}

/* Whether some loop around b exits through a divergent branch. */
static int in_divergent_loop(const aucs_cfg *g, const aucs_uniformity *u,
                             int b) {
  for (int l = g->loop_of[b]; l >= 0; l = g->loops[l].parent)
    for (int i = 0; i < g->loops[l].nexiting; i++)
      if (aucs_uniform_branch_divergent(u, g->loops[l].exiting[i]))
        return 1;
  return 0;
}

/* Every arm that leads to b leads to each of refs[0..n). */
static int with(const arms *a, int b, const int *refs, int n) {
  for (int k = 0; k < a->n; k++) {
    if (!a->on[k][b])
      continue;
    for (int i = 0; i < n; i++)
      if (!a->on[k][refs[i]])
        return 0;
  }
  return 1;
}

unsigned char *aucs_candidates_with_threads(const aucs_cfg *g,
                                            const aucs_uniformity *u,
                                            const int *refs, int n) {
  unsigned char *ok = aucs_xcalloc((size_t)g->nblocks + 1, 1);
  arms a = arms_of(g, u);
  for (int b = 0; b < g->nblocks; b++)
    ok[b] = g->reachable[b] &&
            (aucs_uniform_block(u, b) ||
             (!in_divergent_loop(g, u, b) && with(&a, b, refs, n)));
  arms_free(&a);
  return ok;
}

/* Some arm leads to b but not to p: p is under fewer conditions. */
static int fewer(const arms *a, int b, int p) {
  for (int k = 0; k < a->n; k++)
    if (a->on[k][b] && !a->on[k][p])
      return 1;
  return 0;
}

/* Every loop around b holds p too. */
static int same_loops(const aucs_cfg *g, int b, int p) {
  for (int l = g->loop_of[b]; l >= 0; l = g->loops[l].parent)
    if (!aucs_cfg_in_loop(g, l, p))
      return 0;
  return 1;
}

int aucs_candidates_join_after(const aucs_cfg *g, const aucs_uniformity *u,
                               int b) {
  arms a = arms_of(g, u);
  int p = g->ipdom[b], found = -1;
  for (; p >= 0 && found < 0 && same_loops(g, b, p); p = g->ipdom[p])
    if (g->reachable[p] &&
        (aucs_uniform_block(u, p) ||
         (!in_divergent_loop(g, u, p) && with(&a, p, &b, 1) &&
          fewer(&a, b, p))))
      found = p;
  arms_free(&a);
  return found;
}
