/*
 * search: the seeded PRNG and Simulee-style evolutionary input search.
 *
 * Algorithm (one kernel):
 *   1. If the user fixed everything, run that one candidate with the given
 *      seed and stop.
 *   2. Make `population` initial candidates: block.x drawn from
 *      {32, 64, 128, 256} (each size once before any repeats), grid.x from
 *      1..4, higher dims (only when the kernel reads them) from {1, 2, 4};
 *      integer arguments alternate between sizes matching the launch
 *      (block.x or every thread of the grid) and small values (1..16); the
 *      fill takes each mode in turn (random, small, zero, random, ...).
 *   3. Each generation, every parent makes two children: every free gene
 *      moves by a Gaussian step, then by a Cauchy step (heavy tail: an
 *      occasional far jump). Dimensions and the fill move by index in their
 *      value list.
 *   4. Parents and children are ranked by fitness (score, then tie, then
 *      age) and the best `population` survive; a run that failed is never a
 *      parent.
 *   5. Adaptive stopping: a run grows coverage when its signature (interp.h:
 *      accesses per barrier interval, branch directions, conflicting pairs)
 *      has a bit no earlier run set, or it added a finding or a barrier
 *      fact. After the initial population, the search stops once `patience`
 *      generations in a row grew nothing, when the evaluation says STOP
 *      (detect.c: every pair proven and no barrier in question), or when
 *      its budget of CPU time is spent (not wall clock: under load the
 *      same runs happen). The initial population runs the
 *      smallest launch first, so a search stopped after one run ran the
 *      cheapest.
 *   6. Solved seeds (search.h): at the first discarded candidate, or
 *      after an initial population in which no run made a memory access,
 *      ask the solve once. Then a discarded candidate's retries take the
 *      solver's genes from the seeds in turn (odd retries on a new launch
 *      and round sizes for the other genes), half the children take them
 *      from a random seed, round sizes come from the conditions'
 *      constants too, and after an idle initial population each seed is
 *      run on one of its candidates.
 *   A candidate equal to one already run is not run again. Every run gets
 *   its own seed from the PRNG, for the memory it leaves uninitialised,
 *   except the first, which keeps the given seed: with all but the fill
 *   fixed, it is the very run that fixing `--fill random` would make.
 *
 * Limitation: see search.h (integer range, no pointer contents).
 */
#include "aucs/search.h"

#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- PRNG: xoshiro256** seeded by splitmix64 ----------------------------*/

uint64_t aucs_search_splitmix(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

void aucs_search_rng_seed(aucs_rng *r, uint64_t seed) {
  for (int i = 0; i < 4; i++)
    r->s[i] = aucs_search_splitmix(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t aucs_search_rng_next(aucs_rng *r) {
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

uint64_t aucs_search_rng_below(aucs_rng *r, uint64_t n) {
  AUCS_ASSERT(n > 0);
  uint64_t limit = UINT64_MAX - UINT64_MAX % n, x;
  do /* rejection keeps every value equally likely */
    x = aucs_search_rng_next(r);
  while (x >= limit);
  return x % n;
}

double aucs_search_rng_unit(aucs_rng *r) {
  return (double)(aucs_search_rng_next(r) >> 11) * 0x1.0p-53;
}

/* Irwin-Hall: the sum of 12 uniforms less 6 has mean 0 and variance 1 and
 * is close enough to normal for a mutation step; no libm needed. */
double aucs_search_rng_gauss(aucs_rng *r) {
  double sum = 0;
  for (int i = 0; i < 12; i++)
    sum += aucs_search_rng_unit(r);
  return sum - 6.0;
}

/* x / y for a point uniform in the unit disk is exactly standard Cauchy
 * (the tangent of a uniform angle), without calling tan. */
double aucs_search_rng_cauchy(aucs_rng *r) {
  for (;;) {
    double x = 2 * aucs_search_rng_unit(r) - 1;
    double y = 2 * aucs_search_rng_unit(r) - 1;
    if (y != 0 && x * x + y * y <= 1)
      return x / y;
  }
}

/* ---- candidates ---------------------------------------------------------*/

static const uint32_t block_sizes[] = {32, 64, 128, 256};
static const uint32_t minor_sizes[] = {1, 2, 4, 8};
#define NBLOCK_SIZES 4
#define NMINOR_SIZES 4
#define MAX_GRID 4
#define MAX_THREADS 1024
#define DISCARD_RETRIES 4

typedef struct member {
  aucs_candidate c;
  aucs_fitness fit;
  size_t age; /* order of creation: the last tie-break */
  int discarded; /* it violated the kernel's assumptions */
} member;

typedef struct search {
  const aucs_search_space *s;
  aucs_rng rng;
  aucs_search_eval eval;
  void *ctx;
  member *done; /* every candidate run, in order */
  size_t ndone, capdone;
  int stopped;
  int discarded; /* the last try_run's candidate was discarded */
  int assumes;   /* some candidate was: children take round sizes too */
  int solved;    /* the solve ran: seeds holds its seeds */
  aucs_search_seeds seeds;
  size_t next_seed;                   /* the seed of the next retry */
  int worked;                         /* some run made a memory access */
  uint64_t seen[AUCS_COVERAGE_WORDS]; /* union of the runs' coverage */
  int grew;        /* some run grew coverage since it was last cleared */
  double deadline; /* cpu_seconds() at which the budget runs out */
  aucs_search_end end;
} search;

static unsigned dims(unsigned d) { return d == 0 ? 1 : d > 3 ? 3 : d; }

static uint32_t *dim(aucs_dim3 *d, unsigned i) {
  return i == 0 ? &d->x : i == 1 ? &d->y : &d->z;
}

static uint32_t dim_of(const aucs_dim3 *d, unsigned i) {
  return i == 0 ? d->x : i == 1 ? d->y : d->z;
}

static uint64_t threads(const aucs_launch *l) {
  return (uint64_t)l->grid.x * l->grid.y * l->grid.z * l->block.x * l->block.y *
         l->block.z;
}

static int64_t int_max(const aucs_param *p, const aucs_launch *l) {
  int64_t hi = (int64_t)(2 * threads(l));
  if (hi < 16)
    hi = 16;
  if (p->bits == 1)
    return 1;
  if (p->bits < 63 && hi > ((int64_t)1 << (p->bits - 1)) - 1)
    hi = ((int64_t)1 << (p->bits - 1)) - 1;
  return hi;
}

static int searched(const aucs_search_space *s, size_t i) {
  aucs_param_kind k = s->params[i].kind;
  return (k == AUCS_PARAM_INT || k == AUCS_PARAM_FLOAT) &&
         !(s->fixed_arg && s->fixed_arg[i]);
}

static uint64_t float_bits(const aucs_param *p, double v) {
  uint64_t bits = 0;
  if (p->bits == 32) {
    float f = (float)v;
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    bits = b;
  } else
    memcpy(&bits, &v, sizeof bits);
  return bits;
}

static double float_value(const aucs_param *p, uint64_t bits) {
  if (p->bits == 32) {
    uint32_t b = (uint32_t)bits;
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
  }
  double d;
  memcpy(&d, &bits, sizeof d);
  return d;
}

static aucs_candidate fresh(const aucs_search_space *s) {
  aucs_candidate c = {.launch = s->launch,
                      .fill = s->fixed_fill ? s->fill : AUCS_FILL_RANDOM};
  c.args = aucs_xcalloc(s->nparams ? s->nparams : 1, sizeof(uint64_t));
  for (size_t i = 0; i < s->nparams; i++)
    if (s->fixed_arg && s->fixed_arg[i] && s->args)
      c.args[i] = s->args[i];
  return c;
}

static aucs_candidate copy(const aucs_search_space *s,
                           const aucs_candidate *from) {
  aucs_candidate c = fresh(s);
  c.launch = from->launch;
  c.fill = from->fill;
  if (s->nparams)
    memcpy(c.args, from->args, s->nparams * sizeof(uint64_t));
  return c;
}

static int same(const aucs_search_space *s, const aucs_candidate *a,
                const aucs_candidate *b) {
  return memcmp(&a->launch, &b->launch, sizeof a->launch) == 0 &&
         a->fill == b->fill &&
         (!s->nparams ||
          memcmp(a->args, b->args, s->nparams * sizeof(uint64_t)) == 0);
}

int aucs_search_fixed(const aucs_search_space *s) {
  if (!s->fixed_grid || !s->fixed_block || !s->fixed_fill)
    return 0;
  for (size_t i = 0; i < s->nparams; i++)
    if (searched(s, i))
      return 0;
  return 1;
}

/* ---- initial population -------------------------------------------------*/

static void initial_launch(search *x, aucs_launch *l, size_t i,
                           unsigned first) {
  const aucs_search_space *s = x->s;
  if (!s->fixed_block) {
    l->block = (aucs_dim3){block_sizes[(first + i) % NBLOCK_SIZES], 1, 1};
    for (unsigned d = 1; d < dims(s->block_dims); d++)
      *dim(&l->block, d) = minor_sizes[aucs_search_rng_below(&x->rng, 3)];
    while (l->block.x * l->block.y * l->block.z > MAX_THREADS)
      l->block.x /= 2;
  }
  if (!s->fixed_grid) {
    l->grid = (aucs_dim3){1, 1, 1};
    for (unsigned d = 0; d < dims(s->grid_dims); d++)
      *dim(&l->grid, d) = 1 + (uint32_t)aucs_search_rng_below(&x->rng, 4);
  }
}

static int in_range(const aucs_search_space *s, size_t p) {
  return s->ranged && s->ranged[p] && s->params[p].kind == AUCS_PARAM_INT;
}

/* v kept within p's bounds when it has them (clamped). */
static uint64_t bounded(const aucs_search_space *s, size_t p, uint64_t v) {
  if (!in_range(s, p))
    return v;
  return v < s->lo[p] ? s->lo[p] : v > s->hi[p] ? s->hi[p] : v;
}

static void initial_arg(search *x, aucs_candidate *c, size_t p, size_t i) {
  const aucs_param *par = &x->s->params[p];
  if (par->kind == AUCS_PARAM_FLOAT) {
    double v = i % 2 ? 8.0 * aucs_search_rng_unit(&x->rng) : 1.0;
    c->args[p] = float_bits(par, v);
    return;
  }
  int64_t v;
  if (in_range(x->s, p)) { /* the host's bounds: the ends, then within */
    const aucs_search_space *s = x->s;
    uint64_t w = s->hi[p] - s->lo[p];
    c->args[p] = i == 0 ? s->hi[p]
                 : i == 1
                     ? s->lo[p]
                     : s->lo[p] + (w == UINT64_MAX
                                       ? aucs_search_rng_next(&x->rng)
                                       : aucs_search_rng_below(&x->rng, w + 1));
    return;
  }
  if (i % 2 == 0) /* a size matching the launch */
    v = aucs_search_rng_below(&x->rng, 2) ? (int64_t)c->launch.block.x
                                          : (int64_t)threads(&c->launch);
  else
    v = 1 + (int64_t)aucs_search_rng_below(&x->rng, 16);
  int64_t hi = int_max(par, &c->launch);
  c->args[p] = (uint64_t)(v > hi ? hi : v);
}

static aucs_candidate initial(search *x, size_t i, unsigned first) {
  aucs_candidate c = fresh(x->s);
  initial_launch(x, &c.launch, i, first);
  if (!x->s->fixed_fill)
    c.fill = (aucs_fill)(i % AUCS_FILL_NMODES);
  for (size_t p = 0; p < x->s->nparams; p++)
    if (searched(x->s, p))
      initial_arg(x, &c, p, i);
  return c;
}

/* ---- mutation -----------------------------------------------------------*/

typedef double (*step_fn)(aucs_rng *r);

static long clampl(double v, long lo, long hi) {
  if (!(v > (double)lo)) /* also NaN */
    return lo;
  return v > (double)hi ? hi : (long)(v + 0.5);
}

static size_t index_of(const uint32_t *list, size_t n, uint32_t v) {
  for (size_t i = 0; i < n; i++)
    if (list[i] >= v)
      return i;
  return n - 1;
}

static uint32_t step_list(search *x, step_fn step, const uint32_t *list,
                          size_t n, uint32_t v) {
  double at = (double)index_of(list, n, v) + step(&x->rng);
  return list[clampl(at, 0, (long)n - 1)];
}

static void mutate_launch(search *x, step_fn step, aucs_launch *l) {
  const aucs_search_space *s = x->s;
  if (!s->fixed_block) {
    l->block.x = step_list(x, step, block_sizes, NBLOCK_SIZES, l->block.x);
    for (unsigned d = 1; d < dims(s->block_dims); d++)
      *dim(&l->block, d) =
          step_list(x, step, minor_sizes, NMINOR_SIZES, *dim(&l->block, d));
    while (l->block.x * l->block.y * l->block.z > MAX_THREADS)
      l->block.y > 1 ? (l->block.y /= 2) : (l->block.z /= 2);
  }
  if (!s->fixed_grid)
    for (unsigned d = 0; d < dims(s->grid_dims); d++) {
      double v = *dim(&l->grid, d) + step(&x->rng);
      *dim(&l->grid, d) = (uint32_t)clampl(v, 1, MAX_GRID);
    }
}

static void mutate_arg(search *x, step_fn step, aucs_candidate *c, size_t p) {
  const aucs_param *par = &x->s->params[p];
  if (par->kind == AUCS_PARAM_FLOAT) {
    double v = float_value(par, c->args[p]);
    double mag = v < 0 ? -v : v, sigma = mag / 2 > 1 ? mag / 2 : 1;
    v += sigma * step(&x->rng);
    v = v > 1e6 ? 1e6 : v < -1e6 ? -1e6 : v;
    c->args[p] = float_bits(par, v);
    return;
  }
  double v = (double)(int64_t)c->args[p];
  double sigma = v / 2 > 2 ? v / 2 : 2;
  c->args[p] = bounded(
      x->s, p,
      (uint64_t)clampl(v + sigma * step(&x->rng), 0, int_max(par, &c->launch)));
}

/* A round size for an integer argument: assumptions such as n % 64 == 0
 * or n % blockDim.x == 0 hold for these. */
static uint64_t round_size(search *x, const aucs_param *par,
                           const aucs_launch *l) {
  uint64_t v;
  switch (aucs_search_rng_below(&x->rng, x->seeds.ndict ? 5 : 4)) {
  case 0:
    v = l->block.x;
    break;
  case 1:
    v = threads(l);
    break;
  case 2:
    v = (uint64_t)l->block.x * (1 + aucs_search_rng_below(&x->rng, 4));
    break;
  case 3:
    v = 64u << aucs_search_rng_below(&x->rng, 4);
    break;
  default: /* a constant of the conditions, or a multiple of it */
    v = x->seeds.dict[aucs_search_rng_below(&x->rng, x->seeds.ndict)];
    if (aucs_search_rng_below(&x->rng, 2))
      v *= 2 + aucs_search_rng_below(&x->rng, 3);
    break;
  }
  int64_t hi = int_max(par, l);
  return v > (uint64_t)hi ? (uint64_t)hi : v;
}

/* ---- solved seeds -------------------------------------------------------*/

static uint64_t block_threads(const aucs_dim3 *b) {
  return (uint64_t)b->x * b->y * b->z;
}

/* Seed k's chosen genes on c; a block dimension the solver did not choose
 * halves while the block has too many threads. */
static void overlay(search *x, aucs_candidate *c, size_t k) {
  const aucs_search_space *s = x->s;
  const aucs_search_seeds *sd = &x->seeds;
  for (unsigned d = 0; d < 3; d++) {
    if (!s->fixed_grid && sd->grid[d])
      *dim(&c->launch.grid, d) = dim_of(&sd->launch[k].grid, d);
    if (!s->fixed_block && sd->block[d])
      *dim(&c->launch.block, d) = dim_of(&sd->launch[k].block, d);
  }
  for (unsigned d = 0; d < 3 && !s->fixed_block; d++)
    while (block_threads(&c->launch.block) > MAX_THREADS && !sd->block[d] &&
           *dim(&c->launch.block, d) > 1)
      *dim(&c->launch.block, d) /= 2;
  for (size_t p = 0; p < s->nparams; p++)
    if (searched(s, p) && sd->chosen && sd->chosen[p])
      c->args[p] = sd->args[k][p];
}

/* Ask the search space's solve, once. */
static void solve_once(search *x) {
  if (x->solved || !x->s->solve)
    return;
  x->solved = 1;
  x->s->solve(x->s->solve_ctx, &x->seeds);
  if (x->seeds.unsat && !x->stopped) {
    x->stopped = 1;
    x->end = AUCS_SEARCH_END_UNSAT;
  }
}

static aucs_candidate child(search *x, step_fn step,
                            const aucs_candidate *parent) {
  aucs_candidate c = copy(x->s, parent);
  mutate_launch(x, step, &c.launch);
  if (!x->s->fixed_fill)
    c.fill = (aucs_fill)clampl(c.fill + step(&x->rng), 0, AUCS_FILL_NMODES - 1);
  for (size_t p = 0; p < x->s->nparams; p++) {
    if (!searched(x->s, p))
      continue;
    if (x->assumes && x->s->params[p].kind == AUCS_PARAM_INT &&
        aucs_search_rng_below(&x->rng, 2))
      c.args[p] = bounded(x->s, p, round_size(x, &x->s->params[p], &c.launch));
    else
      mutate_arg(x, step, &c, p);
  }
  if (x->seeds.n && aucs_search_rng_below(&x->rng, 2))
    overlay(x, &c, aucs_search_rng_below(&x->rng, x->seeds.n));
  return c;
}

/* ---- the loop -----------------------------------------------------------*/

static const member *find_done(const search *x, const aucs_candidate *c) {
  for (size_t i = 0; i < x->ndone; i++)
    if (same(x->s, &x->done[i].c, c))
      return &x->done[i];
  return NULL;
}

/* Fold a run's coverage into the union: 1 when it grew. */
static int grow(search *x, const aucs_fitness *fit) {
  int grew = fit->news > 0;
  for (size_t i = 0; i < AUCS_COVERAGE_WORDS; i++) {
    grew |= (fit->coverage[i] & ~x->seen[i]) != 0;
    x->seen[i] |= fit->coverage[i];
  }
  return grew;
}

/* The process's CPU time: the search budget counts the work done, not
 * the machine's load (a loaded machine must not change the verdict). */
static double cpu_seconds(void) {
  struct timespec t;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t))
    return aucs_seconds();
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void over_budget(search *x) {
  if (!x->stopped && cpu_seconds() >= x->deadline) {
    x->stopped = 1;
    x->end = AUCS_SEARCH_END_BUDGET;
  }
}

/* Run c (taking ownership of its args) unless it ran before; the member it
 * became, or NULL when it is a repeat, its run failed or the search has
 * stopped. */
static const member *try_run(search *x, aucs_candidate c, uint64_t seed) {
  over_budget(x);
  const member *old = x->stopped ? NULL : find_done(x, &c);
  x->discarded = old && old->discarded;
  if (x->stopped || old) {
    free(c.args);
    return NULL;
  }
  if (x->ndone == x->capdone) {
    x->capdone = x->capdone ? 2 * x->capdone : 16;
    x->done = aucs_xrealloc(x->done, x->capdone * sizeof(*x->done));
  }
  member *m = &x->done[x->ndone];
  *m = (member){.c = c, .age = x->ndone};
  m->c.seed = seed;
  x->ndone++;
  aucs_search_verdict v = x->eval(x->ctx, &m->c, &m->fit);
  if (v == AUCS_SEARCH_NEXT || v == AUCS_SEARCH_FAILED) {
    x->grew |= grow(x, &m->fit);
    x->worked |= !m->fit.idle;
  }
  x->stopped = v == AUCS_SEARCH_STOP;
  if (x->stopped)
    x->end = AUCS_SEARCH_END_STOPPED;
  x->discarded = m->discarded = v == AUCS_SEARCH_DISCARDED;
  x->assumes |= x->discarded;
  return v == AUCS_SEARCH_NEXT ? m : NULL;
}

/* Retry k of a discarded candidate: round integer arguments, and on odd
 * retries another launch; with seeds, the next seed's genes over that
 * (over the candidate itself on even retries). */
static aucs_candidate retry(search *x, const aucs_candidate *from,
                            unsigned k) {
  aucs_candidate c = copy(x->s, from);
  if (k % 2)
    mutate_launch(x, aucs_search_rng_cauchy, &c.launch);
  for (size_t p = 0; (k % 2 || !x->seeds.n) && p < x->s->nparams; p++)
    if (searched(x->s, p) && x->s->params[p].kind == AUCS_PARAM_INT)
      c.args[p] = bounded(x->s, p, round_size(x, &x->s->params[p], &c.launch));
  if (x->seeds.n)
    overlay(x, &c, x->next_seed++ % x->seeds.n);
  return c;
}

/* try_run, and when the candidate is discarded (it violates the kernel's
 * assumptions: not a run), up to DISCARD_RETRIES others in its place. */
static const member *try_valid(search *x, aucs_candidate c, uint64_t seed) {
  aucs_candidate base = copy(x->s, &c);
  const member *m = try_run(x, c, seed);
  if (!m && x->discarded)
    solve_once(x);
  for (unsigned k = 0; !m && x->discarded && k < DISCARD_RETRIES; k++)
    m = try_run(x, retry(x, &base, k), aucs_search_rng_next(&x->rng));
  free(base.args);
  return m;
}

static int better(const member *a, const member *b) {
  if (a->fit.score != b->fit.score)
    return a->fit.score < b->fit.score;
  if (a->fit.tie != b->fit.tie)
    return a->fit.tie < b->fit.tie;
  return a->age < b->age;
}

/* Keep the best n of pool[0..len) in pool[0..n); returns how many remain. */
static size_t select_best(const member **pool, size_t len, size_t n) {
  for (size_t i = 1; i < len; i++) /* insertion sort: len is tiny */
    for (size_t j = i; j > 0 && better(pool[j], pool[j - 1]); j--) {
      const member *t = pool[j];
      pool[j] = pool[j - 1];
      pool[j - 1] = t;
    }
  return len < n ? len : n;
}

/* Indexes into x->done rather than pointers: try_run may move the array. */
static size_t generation(search *x, size_t *parents, size_t nparents,
                         size_t mu) {
  size_t cap = 3 * nparents, len = 0;
  size_t *pool = aucs_xmalloc((cap ? cap : 1) * sizeof(size_t));
  for (size_t i = 0; i < nparents; i++)
    pool[len++] = parents[i];
  for (size_t i = 0; i < nparents && !x->stopped; i++) {
    aucs_candidate p = copy(x->s, &x->done[parents[i]].c);
    step_fn steps[2] = {aucs_search_rng_gauss, aucs_search_rng_cauchy};
    for (int k = 0; k < 2; k++) {
      aucs_candidate c = child(x, steps[k], &p);
      if (try_valid(x, c, aucs_search_rng_next(&x->rng)))
        pool[len++] = x->ndone - 1;
    }
    free(p.args);
  }
  const member **ranked = aucs_xmalloc((len ? len : 1) * sizeof(*ranked));
  for (size_t i = 0; i < len; i++)
    ranked[i] = &x->done[pool[i]];
  size_t n = select_best(ranked, len, mu);
  for (size_t i = 0; i < n; i++)
    parents[i] = (size_t)(ranked[i] - x->done);
  free(ranked);
  free(pool);
  return n;
}

static size_t population(const aucs_search_space *s) {
  return s->population ? s->population : AUCS_SEARCH_POPULATION;
}

static unsigned generations(const aucs_search_space *s) {
  return s->generations ? s->generations : AUCS_SEARCH_GENERATIONS;
}

/* Smallest launch first (stable: equal sizes keep their order). */
static void small_first(aucs_candidate *c, size_t n) {
  for (size_t i = 1; i < n; i++)
    for (size_t j = i;
         j > 0 && threads(&c[j].launch) < threads(&c[j - 1].launch); j--) {
      aucs_candidate t = c[j];
      c[j] = c[j - 1];
      c[j - 1] = t;
    }
}

/* After a generation: stop when coverage stopped growing. */
static void stale(search *x, unsigned *quiet) {
  const aucs_search_space *s = x->s;
  unsigned patience = s->patience ? s->patience : AUCS_SEARCH_PATIENCE;
  *quiet = x->grew ? 0 : *quiet + 1;
  x->grew = 0;
  if (!x->stopped && !s->exhaustive && *quiet >= patience) {
    x->stopped = 1;
    x->end = AUCS_SEARCH_END_COVERAGE;
  }
}

/* No run of the initial population made an access: run each seed (up to
 * mu) over one of the candidates run; the best mu of them and the parents
 * are the parents. */
static void seeded_runs(search *x, size_t *parents, size_t *n, size_t mu) {
  int was = x->solved;
  solve_once(x);
  size_t ran = x->ndone, len = 0;
  if (was || !ran)
    return;
  size_t cap = *n + mu;
  const member **pool = aucs_xmalloc((cap ? cap : 1) * sizeof *pool);
  size_t *idx = aucs_xmalloc((cap ? cap : 1) * sizeof *idx);
  for (size_t i = 0; i < *n; i++)
    idx[len++] = parents[i];
  for (size_t k = 0; k < x->seeds.n && k < mu && !x->stopped; k++) {
    aucs_candidate c = copy(x->s, &x->done[k % ran].c);
    overlay(x, &c, k);
    if (try_valid(x, c, aucs_search_rng_next(&x->rng)))
      idx[len++] = x->ndone - 1;
  }
  for (size_t i = 0; i < len; i++) /* x->done may have moved: index now */
    pool[i] = &x->done[idx[i]];
  *n = select_best(pool, len, mu);
  for (size_t i = 0; i < *n; i++)
    parents[i] = (size_t)(pool[i] - x->done);
  free(pool);
  free(idx);
}

static void evolve(search *x) {
  const aucs_search_space *s = x->s;
  size_t mu = population(s), n = 0;
  unsigned gens = generations(s), quiet = 0;
  size_t *parents = aucs_xmalloc(mu * sizeof(size_t));
  aucs_candidate *init = aucs_xmalloc(mu * sizeof *init);
  uint64_t *seeds = aucs_xmalloc(mu * sizeof *seeds);
  unsigned first = (unsigned)aucs_search_rng_below(&x->rng, NBLOCK_SIZES);
  for (size_t i = 0; i < mu; i++) {
    init[i] = initial(x, i, first);
    seeds[i] = aucs_search_rng_next(&x->rng);
  }
  small_first(init, mu);
  for (size_t i = 0; i < mu; i++)
    if (try_valid(x, init[i], i == 0 ? s->seed : seeds[i]))
      parents[n++] = x->ndone - 1;
  if (!x->worked && !x->stopped)
    seeded_runs(x, parents, &n, mu);
  x->grew = 0;
  for (unsigned g = 0; g < gens && n && !x->stopped; g++) {
    n = generation(x, parents, n, mu);
    stale(x, &quiet);
  }
  free(seeds);
  free(init);
  free(parents);
}

const char *aucs_search_end_name(aucs_search_end e) {
  switch (e) {
  case AUCS_SEARCH_END_COVERAGE:
    return "coverage stopped growing";
  case AUCS_SEARCH_END_STOPPED:
    return "every pair proven, no barrier in question";
  case AUCS_SEARCH_END_BUDGET:
    return "time budget spent";
  case AUCS_SEARCH_END_UNSAT:
    return "no input satisfies the kernel's assumptions";
  default:
    return "every generation ran";
  }
}

size_t aucs_search_run_stats(const aucs_search_space *s, aucs_search_eval eval,
                             void *ctx, aucs_search_stats *stats) {
  unsigned ms = s->budget_ms ? s->budget_ms : AUCS_SEARCH_BUDGET_MS;
  search x = {.s = s, .eval = eval, .ctx = ctx};
  x.deadline = cpu_seconds() + ms / 1000.0;
  aucs_search_rng_seed(&x.rng, s->seed);
  int fixed = aucs_search_fixed(s);
  if (fixed)
    try_run(&x, fresh(s), s->seed);
  else
    evolve(&x);
  for (size_t i = 0; i < x.ndone; i++)
    free(x.done[i].c.args);
  free(x.done);
  if (stats)
    *stats = (aucs_search_stats){
        .runs = x.ndone,
        .planned = fixed ? 1 : population(s) * (1 + 2 * (size_t)generations(s)),
        .end = x.end};
  return x.ndone;
}

size_t aucs_search_run(const aucs_search_space *s, aucs_search_eval eval,
                       void *ctx) {
  return aucs_search_run_stats(s, eval, ctx, NULL);
}
