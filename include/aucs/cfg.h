/*
 * cfg: per-function control-flow facts (DESIGN.md section 3).
 *
 * Blocks are numbered by their position in the function (#0 is the entry).
 * The facts:
 *   - successors and predecessors (a switch with several cases to one block
 *     gives one edge);
 *   - loop edges: retreating edges of a depth-first search from the entry;
 *     the branch DAG is the CFG without them;
 *   - a topological order of the branch DAG (reverse post-order);
 *   - dominator and post-dominator trees (Cooper-Harvey-Kennedy); the
 *     post-dominator tree has a virtual exit joining every block that ends
 *     in ret (a block ending in unreachable is never reached by a defined
 *     execution, so it is no exit: its ipdom is AUCS_CFG_NONE);
 *   - natural loops (one per header, back edges to one header merged), their
 *     nesting, each block's loop depth;
 *   - irreducible cycles: a retreating edge whose target does not dominate
 *     its source; the strongly connected region holding it is recorded.
 * Unreachable blocks take part in nothing: no order, no dominator, no loop.
 *
 * All memory lives in one arena freed by aucs_cfg_free. Any edit to the
 * function invalidates the facts.
 */
#ifndef AUCS_CFG_H
#define AUCS_CFG_H

#include "aucs/util.h"
#include <llvm-c/Types.h>

enum {
  AUCS_CFG_EXIT = -1, /* ipdom: the virtual exit */
  AUCS_CFG_NONE = -2, /* idom/ipdom: none (entry, unreachable, no path out) */
};

typedef struct aucs_loop {
  int header;
  int parent;   /* index into aucs_cfg.loops of the enclosing loop, or -1 */
  int depth;    /* 1 for an outermost loop */
  int *blocks;  /* header first, then the others in block order */
  int nblocks;
  int *latches; /* sources of the back edges to header */
  int nlatches;
  int *exiting; /* blocks of the loop with a successor outside it */
  int nexiting;
} aucs_loop;

typedef struct aucs_cycle { /* an irreducible cycle */
  int *blocks;  /* the strongly connected region, in block order */
  int nblocks;
  int *entries; /* its blocks with a predecessor outside it */
  int nentries;
} aucs_cycle;

typedef struct aucs_cfg {
  LLVMValueRef fn;
  int nblocks;
  LLVMBasicBlockRef *blocks; /* by index */
  int **succ, *nsucc;
  int **pred, *npred;
  unsigned char **loop_edge; /* loop_edge[b][i]: succ[b][i] is a loop edge */
  unsigned char *reachable;
  int *topo;                 /* reachable blocks, branch-DAG topological order */
  int ntopo;
  int *topo_index;           /* block -> position in topo, -1 if unreachable */
  int *idom, *ipdom;         /* block index, AUCS_CFG_EXIT or AUCS_CFG_NONE */
  aucs_loop *loops;          /* outer loops before the loops they contain */
  int nloops;
  int *loop_of;              /* innermost loop of each block, or -1 */
  aucs_cycle *cycles;        /* irreducible cycles */
  int ncycles;
  aucs_arena *arena;
  aucs_ptrmap index;         /* LLVMBasicBlockRef -> block index */
} aucs_cfg;

/* Compute the facts of fn, which must have a body. Free with aucs_cfg_free. */
aucs_cfg *aucs_cfg_build(LLVMValueRef fn);
void aucs_cfg_free(aucs_cfg *cfg);

/* Index of bb in cfg, or -1 if bb is not a block of the function. */
int aucs_cfg_index(const aucs_cfg *cfg, LLVMBasicBlockRef bb);
/* 1 when a dominates b (every block dominates itself; unreachable: 0). */
int aucs_cfg_dominates(const aucs_cfg *cfg, int a, int b);
/* 1 when a post-dominates b (reflexive; 0 when either lacks a path out). */
int aucs_cfg_postdominates(const aucs_cfg *cfg, int a, int b);
/* Loop nesting depth of b: 0 outside every loop. */
int aucs_cfg_loop_depth(const aucs_cfg *cfg, int b);
/* 1 when block b belongs to loop l (or to a loop nested in it). */
int aucs_cfg_in_loop(const aucs_cfg *cfg, int l, int b);

#endif
