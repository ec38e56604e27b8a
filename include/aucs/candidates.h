/*
 * candidates: the cheap places a barrier may go before the repair restructures
 * anything (issue 29: the smallest edit first).
 *
 * A block is "with the threads" of a set of reference blocks (the two
 * accesses of a race, or a divergent barrier) when every thread-dependent
 * condition that decides whether a thread reaches it also decides, the same
 * way, whether the thread reaches every reference block: a barrier there is
 * reached by the threads that run the references (and maybe by more), not
 * by a subset of them. So after `if (gid >= n) return;` the rest of the
 * kernel is with the threads of any access there; the body of an
 * `if (t < m)` around one access only is not with the threads of a pair
 * whose other access lies outside it.
 *
 *   1. For each block d whose branch is divergent (uniform.h), and each arm
 *      s of it: the blocks the arm leads to before d's join (its immediate
 *      post-dominator): a walk from s that does not enter the join.
 *   2. A block b is with the threads when, for every such arm, b on the
 *      arm implies every reference on it, and no loop around b has an
 *      exit whose branch is divergent (its trip count differs by thread).
 * Uniform blocks are always with the threads.
 *
 * Limitation: the rule reads the CFG only: threads that take the same arm
 * may still differ at run time (a condition uniform in fact but not in the
 * analysis is what makes these places worth trying), so a barrier placed by
 * it is a candidate the repair's detection must accept, not a proof.
 */
#ifndef AUCS_CANDIDATES_H
#define AUCS_CANDIDATES_H

#include "aucs/cfg.h"
#include "aucs/uniform.h"

/* Per block of cfg: 1 when it is with the threads of blocks refs[0..n)
 * (above), reachable blocks only. The caller frees the array (free). */
unsigned char *aucs_candidates_with_threads(const aucs_cfg *cfg,
                                            const aucs_uniformity *u,
                                            const int *refs, int n);

/* The nearest block post-dominating block b, in every loop b is in (a
 * barrier run on each iteration stays in the loop), that is uniform, or
 * with the threads of b under fewer thread-dependent conditions (out of
 * an `if` around b): where a divergent barrier in b moves first. -1: none
 * (after an early return, every block below is under its condition). */
int aucs_candidates_join_after(const aucs_cfg *cfg, const aucs_uniformity *u,
                               int b);

#endif
