/*
 * search: the seeded PRNG and the input search of the detector (DESIGN.md
 * section 5.2).
 *
 * One PRNG (xoshiro256**, seeded through splitmix64) makes every random
 * choice, so the same seed gives the same runs and the same report.
 *
 * The search chooses launch dimensions, scalar arguments and the fill of
 * uninitialised memory (interp.h: random, small or zero) for the runs of
 * one kernel, in the style of Simulee: an evolutionary search where each
 * parent makes a Gaussian-step and a Cauchy-step child and the fittest
 * survive. Fitness is distinct addresses / accesses of a run (lower is
 * better: threads crowding the same addresses is where races hide); ties go
 * to the denser access range. What the user fixed (--grid, --block, --arg,
 * --fill) is never changed; when everything is fixed the search is one run
 * whose seed is the given seed, which is how a reproduce command replays
 * exactly the run that found a bug. A run that fails (a budget, a trap) is
 * kept out of the parents and the search goes on. A candidate that
 * violates the kernel's assumptions is discarded, and up to four others
 * (round integer sizes such as blockDim.x or 64 << k, another launch) are
 * tried in its place. At the first discarded candidate, or when no run of
 * the initial population made a memory access (each took an early exit or
 * trapped), the search asks once for inputs solved from the kernel's
 * preconditions (aucs_search_space.solve, precond.h): the retries and half
 * the children then take the genes the solver chose from them, and round
 * sizes from the constants the conditions compare inputs with.
 *
 * The parameters are the kernel's inputs (inputs.h): integer fields of
 * structs passed by value are searched like integer arguments.
 *
 * Limitation: the contents of pointer parameters are searched only through
 * the fill (no value is chosen per element); integers stay in
 * [0, 2 * threads of the
 * launch] (at least 16, at most the type's maximum): a negative or huge
 * value must come from --arg.
 */
#ifndef AUCS_SEARCH_H
#define AUCS_SEARCH_H

#include "aucs/finding.h"
#include "aucs/interp.h"
#include <stddef.h>
#include <stdint.h>

/* ---- PRNG ---------------------------------------------------------------*/

typedef struct aucs_rng {
  uint64_t s[4];
} aucs_rng;

/* The splitmix64 step: advances *state, returns the next output. */
uint64_t aucs_search_splitmix(uint64_t *state);
void aucs_search_rng_seed(aucs_rng *r, uint64_t seed);
uint64_t aucs_search_rng_next(aucs_rng *r);
/* Uniform in [0, n); n > 0. */
uint64_t aucs_search_rng_below(aucs_rng *r, uint64_t n);
/* Uniform in [0, 1). */
double aucs_search_rng_unit(aucs_rng *r);
/* Standard normal (Irwin-Hall, 12 uniforms) and standard Cauchy variates. */
double aucs_search_rng_gauss(aucs_rng *r);
double aucs_search_rng_cauchy(aucs_rng *r);

/* ---- search -------------------------------------------------------------*/

/* Defaults, documented in docs/inputs.md ("Input search"). */
#define AUCS_SEARCH_POPULATION 4
#define AUCS_SEARCH_GENERATIONS 6
#define AUCS_SEARCH_SEED 1
/* Generations in a row that add no coverage before the search stops. */
#define AUCS_SEARCH_PATIENCE 1
/* The search's own budget of CPU time per kernel, in ms (--search-budget). */
#define AUCS_SEARCH_BUDGET_MS 10000

/* One run's inputs. */
typedef struct aucs_candidate {
  aucs_launch launch;
  uint64_t *args; /* one raw value per parameter (see aucs_run_config) */
  uint64_t seed;  /* the run's seed */
  aucs_fill fill; /* what uninitialised memory reads as */
} aucs_candidate;

/* What a run tells the search. Both lower is better; score first. */
typedef struct aucs_fitness {
  double score; /* distinct addresses / accesses; 1 when no access */
  double tie;   /* the denser access range wins a tie */
  /* Coverage: the run's signature (aucs_run_result.coverage) and how many
   * facts it added to the kernel's (findings, barriers passed or ordered
   * for the first time). Either new makes the run one that grew coverage. */
  uint64_t coverage[AUCS_COVERAGE_WORDS];
  unsigned news;
  int idle; /* the run made no memory access */
} aucs_fitness;

/* Inputs solved from the kernel's preconditions (precond.h) that seed the
 * search: overlaid on a candidate, seed k replaces the launch dimensions
 * and parameters the solver chose. Owned by the solve's caller, valid
 * until the search ends. */
typedef struct aucs_search_seeds {
  size_t n;
  const aucs_launch *launch;       /* per seed */
  uint64_t *const *args;           /* per seed, one value per parameter */
  unsigned char grid[3], block[3]; /* the dimensions the solver chose */
  const unsigned char *chosen;     /* per parameter; NULL: none */
  const uint64_t *dict; /* constants compared with inputs (round sizes) */
  size_t ndict;
  int unsat; /* the solver proved that no input satisfies the kernel's
                assumptions: the search stops */
} aucs_search_seeds;

/* Fill *out with the seeds (n = 0 when there are none). */
typedef void (*aucs_search_solve)(void *ctx, aucs_search_seeds *out);

typedef struct aucs_search_space {
  const aucs_param *params; /* nparams entries */
  size_t nparams;
  /* What the user fixed: launch.grid when fixed_grid, launch.block when
   * fixed_block, fill when fixed_fill, args[i] when fixed_arg[i] (fixed_arg
   * may be NULL). */
  int fixed_grid, fixed_block, fixed_fill;
  aucs_launch launch;
  aucs_fill fill;
  const unsigned char *fixed_arg;
  const uint64_t *args;
  /* Integer args[i] with ranged[i] stay within lo[i]..hi[i] (unsigned; the
   * host code bounds them), their ends tried first (ranged may be NULL). */
  const unsigned char *ranged;
  const uint64_t *lo, *hi;
  /* How many of x, y, z the search varies (1..3; 0 means 1): a kernel that
   * never reads tid.y gets block.y = 1. */
  unsigned grid_dims, block_dims;
  unsigned population, generations; /* 0: the defaults above */
  uint64_t seed;
  /* Adaptive stopping: after the initial population, the search stops once
   * `patience` generations in a row grew no coverage (0: the default;
   * exhaustive: never, every generation runs), or once it has spent
   * budget_ms of wall clock (0: the default). */
  unsigned patience;
  int exhaustive;
  unsigned budget_ms;
  /* Called at most once per search, when candidates violate the kernel's
   * assumptions or no run does anything (NULL: never). */
  aucs_search_solve solve;
  void *solve_ctx;
} aucs_search_space;

/* Why a search ended. */
typedef enum aucs_search_end {
  AUCS_SEARCH_END_ALL,      /* every generation ran (or one fixed run) */
  AUCS_SEARCH_END_COVERAGE, /* coverage stopped growing */
  AUCS_SEARCH_END_STOPPED,  /* the evaluation said STOP (e.g. all proven) */
  AUCS_SEARCH_END_BUDGET,   /* the time budget ran out */
  AUCS_SEARCH_END_UNSAT,    /* no input satisfies the kernel's assumptions */
} aucs_search_end;

typedef struct aucs_search_stats {
  size_t runs;    /* candidates evaluated (discarded ones included) */
  size_t planned; /* what the fixed schedule would evaluate: population *
                     (1 + 2 * generations), or 1 */
  aucs_search_end end;
} aucs_search_stats;

/* "all generations", "coverage stopped growing", ... */
const char *aucs_search_end_name(aucs_search_end e);

/* What the evaluation of one candidate tells the search. */
typedef enum aucs_search_verdict {
  AUCS_SEARCH_NEXT,   /* *fit is set; the candidate competes */
  AUCS_SEARCH_FAILED, /* the run failed: never a parent; the search goes on */
  AUCS_SEARCH_STOP,   /* end the search now */
  /* the input violates the kernel's assumptions (llvm.assume): not a run;
   * the search tries other candidates in its place */
  AUCS_SEARCH_DISCARDED,
} aucs_search_verdict;

/* Run one candidate and say how it went (filling *fit for NEXT). The
 * candidate is valid during the call. */
typedef aucs_search_verdict (*aucs_search_eval)(void *ctx,
                                                const aucs_candidate *c,
                                                aucs_fitness *fit);

/* 1 when s leaves nothing to choose (one run, seeded with s->seed). */
int aucs_search_fixed(const aucs_search_space *s);
/* Search s, calling eval once per distinct candidate, in a deterministic
 * order for a given seed. Returns the number of runs made. */
size_t aucs_search_run(const aucs_search_space *s, aucs_search_eval eval,
                       void *ctx);
/* aucs_search_run, also saying how it ended (stats may be NULL). */
size_t aucs_search_run_stats(const aucs_search_space *s, aucs_search_eval eval,
                             void *ctx, aucs_search_stats *stats);

#endif
