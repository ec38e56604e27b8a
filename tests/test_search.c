/*
 * test_search: the PRNG and the evolutionary input search, with a fake
 * evaluation in place of the interpreter.
 */
#include "support.h"

#include "aucs/search.h"
#include "aucs/util.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- PRNG ---------------------------------------------------------------*/

static void test_search_rng_same_seed_same_stream(void **state) {
  (void)state;
  aucs_rng a, b, c;
  aucs_search_rng_seed(&a, 42);
  aucs_search_rng_seed(&b, 42);
  aucs_search_rng_seed(&c, 43);
  int differs = 0;
  for (int i = 0; i < 100; i++) {
    uint64_t x = aucs_search_rng_next(&a);
    assert_int_equal(x, aucs_search_rng_next(&b));
    differs |= x != aucs_search_rng_next(&c);
  }
  assert_true(differs);
}

static void test_search_rng_splitmix_reference(void **state) {
  (void)state;
  /* splitmix64 from state 0: the published first output */
  uint64_t s = 0;
  assert_int_equal(aucs_search_splitmix(&s), 0xe220a8397b1dcdafull);
}

static void test_search_rng_ranges(void **state) {
  (void)state;
  aucs_rng r;
  aucs_search_rng_seed(&r, 7);
  int seen[5] = {0};
  for (int i = 0; i < 1000; i++) {
    uint64_t x = aucs_search_rng_below(&r, 5);
    assert_true(x < 5);
    seen[x]++;
    double u = aucs_search_rng_unit(&r);
    assert_true(u >= 0.0 && u < 1.0);
  }
  for (int i = 0; i < 5; i++)
    assert_true(seen[i] > 100);
}

static void test_search_rng_gauss_moments(void **state) {
  (void)state;
  aucs_rng r;
  aucs_search_rng_seed(&r, 1);
  double sum = 0, sq = 0;
  int n = 20000;
  for (int i = 0; i < n; i++) {
    double g = aucs_search_rng_gauss(&r);
    sum += g;
    sq += g * g;
  }
  double mean = sum / n, var = sq / n - mean * mean;
  assert_true(mean > -0.05 && mean < 0.05);
  assert_true(var > 0.9 && var < 1.1);
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static void test_search_rng_cauchy_quartiles(void **state) {
  (void)state;
  aucs_rng r;
  aucs_search_rng_seed(&r, 3);
  enum { N = 20001 };
  double *v = aucs_xmalloc(N * sizeof(double));
  for (int i = 0; i < N; i++)
    v[i] = aucs_search_rng_cauchy(&r);
  qsort(v, N, sizeof(double), cmp_double);
  /* standard Cauchy: quartiles -1, 0, 1 */
  assert_true(v[N / 2] > -0.05 && v[N / 2] < 0.05);
  assert_true(v[N / 4] > -1.1 && v[N / 4] < -0.9);
  assert_true(v[3 * N / 4] > 0.9 && v[3 * N / 4] < 1.1);
  free(v);
}

/* ---- search -------------------------------------------------------------*/

typedef struct log {
  aucs_candidate c[256];
  size_t n;
  size_t stop_at;      /* stop after this many runs; 0 never */
  int fitness_arg;     /* fitness = args[fitness_arg] / 1000 */
  int fail_fill;       /* runs with fill == fail_fill - 1 fail; 0 none */
  uint64_t assume_mod; /* args[0] % assume_mod != 0 is discarded; 0 none */
  uint64_t assume_eq;  /* args[0] != assume_eq is discarded; 0 none */
  uint32_t block_eq;   /* launch.block.x != block_eq is discarded; 0 none */
  uint64_t idle_unless; /* args[0] != idle_unless is an idle run; 0 none */
  int grow;            /* every run sets a coverage bit of its own */
  int sleep_ms;        /* every run takes this long (CPU time) */
} log;

/* The process's CPU seconds, the clock the search budget counts: a run
 * that spins for sleep_ms of it takes that long on a loaded machine too. */
static double cpu_now(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static aucs_search_verdict record(void *ctx, const aucs_candidate *c,
                                  aucs_fitness *fit) {
  log *l = ctx;
  assert_true(l->n < 256);
  aucs_candidate *copy = &l->c[l->n++];
  *copy = *c;
  copy->args = aucs_xmalloc(4 * sizeof(uint64_t));
  memcpy(copy->args, c->args, 4 * sizeof(uint64_t));
  fit->score = (double)c->args[l->fitness_arg] / 1000.0;
  fit->tie = 0;
  if (l->grow)
    fit->coverage[l->n / 64 % AUCS_COVERAGE_WORDS] |= UINT64_C(1)
                                                      << (l->n % 64);
  for (double t0 = cpu_now();
       l->sleep_ms && cpu_now() - t0 < l->sleep_ms / 1000.0;)
    ;
  if (l->stop_at && l->n >= l->stop_at)
    return AUCS_SEARCH_STOP;
  if (l->assume_mod && c->args[0] % l->assume_mod)
    return AUCS_SEARCH_DISCARDED;
  if ((l->assume_eq && c->args[0] != l->assume_eq) ||
      (l->block_eq && c->launch.block.x != l->block_eq))
    return AUCS_SEARCH_DISCARDED;
  fit->idle = l->idle_unless && c->args[0] != l->idle_unless;
  return (int)c->fill == l->fail_fill - 1 ? AUCS_SEARCH_FAILED
                                          : AUCS_SEARCH_NEXT;
}

static void log_free(log *l) {
  for (size_t i = 0; i < l->n; i++)
    free(l->c[i].args);
}

static const aucs_param params[4] = {
    {"n", AUCS_PARAM_INT, 32},
    {"a", AUCS_PARAM_POINTER, 64},
    {"x", AUCS_PARAM_FLOAT, 32},
    {"flag", AUCS_PARAM_INT, 1},
};

static aucs_search_space space(uint64_t seed) {
  return (aucs_search_space){.params = params, .nparams = 4, .seed = seed};
}

static void test_search_fixed_is_one_run(void **state) {
  (void)state;
  uint64_t vals[4] = {100, 0, 0x3f800000, 1};
  unsigned char fixed[4] = {1, 0, 1, 1};
  aucs_search_space s = space(99);
  s.fixed_grid = s.fixed_block = s.fixed_fill = 1;
  s.fill = AUCS_FILL_SMALL;
  s.launch = (aucs_launch){{2, 1, 1}, {64, 1, 1}};
  s.fixed_arg = fixed;
  s.args = vals;
  assert_true(aucs_search_fixed(&s));
  log l = {0};
  assert_int_equal(aucs_search_run(&s, record, &l), 1);
  assert_int_equal(l.n, 1);
  assert_int_equal(l.c[0].seed, 99);
  assert_int_equal(l.c[0].launch.grid.x, 2);
  assert_int_equal(l.c[0].launch.block.x, 64);
  assert_int_equal(l.c[0].args[0], 100);
  assert_int_equal(l.c[0].args[2], 0x3f800000);
  assert_int_equal(l.c[0].fill, AUCS_FILL_SMALL);
  log_free(&l);
}

/* Launch and arguments fixed, the fill free: one run per fill, the first
 * with the given seed (what `--fill random` alone would run). */
static void test_search_fill_is_searched(void **state) {
  (void)state;
  uint64_t vals[4] = {100, 0, 0x3f800000, 1};
  unsigned char fixed[4] = {1, 0, 1, 1};
  aucs_search_space s = space(99);
  s.fixed_grid = s.fixed_block = 1;
  s.launch = (aucs_launch){{1, 1, 1}, {64, 1, 1}};
  s.fixed_arg = fixed;
  s.args = vals;
  assert_false(aucs_search_fixed(&s));
  log l = {0};
  assert_int_equal(aucs_search_run(&s, record, &l), AUCS_FILL_NMODES);
  for (size_t i = 0; i < l.n; i++) {
    assert_int_equal(l.c[i].fill, i);
    assert_int_equal(l.c[i].launch.block.x, 64);
    assert_int_equal(l.c[i].args[0], 100);
  }
  assert_int_equal(l.c[0].seed, 99);
  assert_int_not_equal(l.c[1].seed, 99);
  log b = {0};
  aucs_search_run(&s, record, &b);
  for (size_t i = 0; i < l.n; i++)
    assert_int_equal(l.c[i].seed, b.c[i].seed);
  log_free(&l);
  log_free(&b);
}

/* A failed run is never a parent, but the search goes on without it. */
static void test_search_goes_on_after_a_failed_run(void **state) {
  (void)state;
  aucs_search_space s = space(8);
  log all = {0}, l = {.fail_fill = 1 + AUCS_FILL_RANDOM};
  aucs_search_run(&s, record, &all);
  assert_true(aucs_search_run(&s, record, &l) > AUCS_SEARCH_POPULATION);
  int fills[AUCS_FILL_NMODES] = {0};
  for (size_t i = 0; i < all.n; i++)
    fills[all.c[i].fill]++;
  for (int f = 0; f < AUCS_FILL_NMODES; f++)
    assert_true(fills[f] > 0); /* the free search tries every fill */
  log_free(&all);
  log_free(&l);
  /* no run finishes: the initial population, then no parents are left */
  s.population = 2;
  s.fixed_fill = 1;
  s.fill = AUCS_FILL_ZERO;
  log none = {.fail_fill = 1 + AUCS_FILL_ZERO};
  assert_int_equal(aucs_search_run(&s, record, &none), 2);
  log_free(&none);
}

/* A candidate violating the kernel's assumptions (n % 64 == 0 here) is
 * replaced by others with round sizes, so most runs are real ones. */
static void test_search_replaces_discarded_candidates(void **state) {
  (void)state;
  aucs_search_space s = space(8);
  log plain = {0}, l = {.assume_mod = 64};
  aucs_search_run(&s, record, &plain);
  aucs_search_run(&s, record, &l);
  size_t ok = 0, ok_plain = 0;
  for (size_t i = 0; i < l.n; i++)
    ok += l.c[i].args[0] % 64 == 0;
  for (size_t i = 0; i < plain.n; i++)
    ok_plain += plain.c[i].args[0] % 64 == 0;
  assert_true(ok > ok_plain);
  assert_true(2 * ok >= l.n); /* at least half of the candidates run */
  assert_true(ok >= AUCS_SEARCH_POPULATION);
  log_free(&plain);
  log_free(&l);
}

static void test_search_defaults_bounds(void **state) {
  (void)state;
  aucs_search_space s = space(5);
  assert_false(aucs_search_fixed(&s));
  log l = {0};
  size_t runs = aucs_search_run(&s, record, &l);
  assert_int_equal(runs, l.n);
  assert_true(runs > AUCS_SEARCH_POPULATION);
  assert_true(runs <=
              AUCS_SEARCH_POPULATION * (1 + 2 * AUCS_SEARCH_GENERATIONS));
  for (size_t i = 0; i < l.n; i++) {
    aucs_launch *L = &l.c[i].launch;
    uint32_t bx = L->block.x;
    assert_true(bx == 32 || bx == 64 || bx == 128 || bx == 256);
    assert_int_equal(L->block.y, 1);
    assert_int_equal(L->block.z, 1);
    assert_true(L->grid.x >= 1 && L->grid.x <= 4);
    assert_int_equal(L->grid.y, 1);
    uint64_t threads = (uint64_t)bx * L->grid.x;
    assert_true(l.c[i].args[0] <= 2 * threads);
    assert_true(l.c[i].args[3] <= 1);
    for (size_t j = 0; j < i; j++) /* never the same run twice */
      assert_false(!memcmp(&l.c[j].launch, L, sizeof *L) &&
                   l.c[j].fill == l.c[i].fill &&
                   !memcmp(l.c[j].args, l.c[i].args, 4 * sizeof(uint64_t)));
  }
  log_free(&l);
}

static void test_search_same_seed_same_runs(void **state) {
  (void)state;
  aucs_search_space s = space(11);
  log a = {0}, b = {0}, c = {0};
  aucs_search_run(&s, record, &a);
  aucs_search_run(&s, record, &b);
  s.seed = 12;
  aucs_search_run(&s, record, &c);
  assert_int_equal(a.n, b.n);
  int differs = a.n != c.n;
  for (size_t i = 0; i < a.n; i++) {
    assert_memory_equal(&a.c[i].launch, &b.c[i].launch, sizeof(aucs_launch));
    assert_memory_equal(a.c[i].args, b.c[i].args, 4 * sizeof(uint64_t));
    assert_int_equal(a.c[i].seed, b.c[i].seed);
    if (i < c.n)
      differs |= a.c[i].seed != c.c[i].seed;
  }
  assert_true(differs);
  log_free(&a);
  log_free(&b);
  log_free(&c);
}

static void test_search_keeps_what_user_fixed(void **state) {
  (void)state;
  uint64_t vals[4] = {7, 0, 0, 0};
  unsigned char fixed[4] = {1, 0, 0, 0};
  aucs_search_space s = space(3);
  s.fixed_block = 1;
  s.launch.block = (aucs_dim3){16, 2, 1};
  s.fixed_arg = fixed;
  s.args = vals;
  s.grid_dims = 2;
  log l = {0};
  aucs_search_run(&s, record, &l);
  int grid_y_varies = 0;
  for (size_t i = 0; i < l.n; i++) {
    assert_int_equal(l.c[i].launch.block.x, 16);
    assert_int_equal(l.c[i].launch.block.y, 2);
    assert_int_equal(l.c[i].args[0], 7);
    grid_y_varies |= l.c[i].launch.grid.y != 1;
  }
  assert_true(grid_y_varies);
  log_free(&l);
}

static void test_search_stops_when_asked(void **state) {
  (void)state;
  aucs_search_space s = space(8);
  log l = {.stop_at = 3};
  aucs_search_stats st;
  assert_int_equal(aucs_search_run_stats(&s, record, &l, &st), 3);
  assert_int_equal(st.end, AUCS_SEARCH_END_STOPPED);
  log_free(&l);
}

/* Population + one generation of two children each. */
#define ONE_GENERATION (3 * AUCS_SEARCH_POPULATION)
#define PLANNED (AUCS_SEARCH_POPULATION * (1 + 2 * AUCS_SEARCH_GENERATIONS))

static void test_search_stops_when_coverage_stalls(void **state) {
  (void)state;
  aucs_search_space s = space(5);
  log l = {0};
  aucs_search_stats st;
  assert_int_equal(aucs_search_run_stats(&s, record, &l, &st), ONE_GENERATION);
  assert_int_equal(st.end, AUCS_SEARCH_END_COVERAGE);
  assert_int_equal(st.planned, PLANNED);
  log_free(&l);
  /* the fixed schedule of old runs every generation */
  s.exhaustive = 1;
  log all = {0};
  assert_int_equal(aucs_search_run_stats(&s, record, &all, &st), PLANNED);
  assert_int_equal(st.end, AUCS_SEARCH_END_ALL);
  log_free(&all);
}

static void test_search_grows_while_coverage_grows(void **state) {
  (void)state;
  aucs_search_space s = space(5);
  log l = {.grow = 1};
  aucs_search_stats st;
  assert_int_equal(aucs_search_run_stats(&s, record, &l, &st), PLANNED);
  assert_int_equal(st.end, AUCS_SEARCH_END_ALL);
  log_free(&l);
}

static uint64_t launch_threads(const aucs_launch *l) {
  return (uint64_t)l->grid.x * l->grid.y * l->grid.z * l->block.x * l->block.y *
         l->block.z;
}

static void test_search_small_launch_first(void **state) {
  (void)state;
  for (uint64_t seed = 1; seed < 20; seed++) {
    aucs_search_space s = space(seed);
    log l = {0};
    aucs_search_run(&s, record, &l);
    for (size_t i = 1; i < AUCS_SEARCH_POPULATION; i++)
      assert_true(launch_threads(&l.c[i - 1].launch) <=
                  launch_threads(&l.c[i].launch));
    assert_int_equal(l.c[0].seed, seed); /* the first keeps the given seed */
    log_free(&l);
  }
}

static void test_search_time_budget(void **state) {
  (void)state;
  aucs_search_space s = space(5);
  s.budget_ms = 1;
  log l = {.grow = 1, .sleep_ms = 3};
  aucs_search_stats st;
  assert_int_equal(aucs_search_run_stats(&s, record, &l, &st), 1);
  assert_int_equal(st.end, AUCS_SEARCH_END_BUDGET);
  log_free(&l);
}

static void test_search_selection_improves(void **state) {
  (void)state;
  /* fitness = n / 1000: the search should find smaller n than it began with */
  aucs_search_space s = space(21);
  s.generations = 10;
  s.exhaustive = 1; /* the fixed schedule: every generation */
  log l = {0};
  aucs_search_run(&s, record, &l);
  uint64_t first = UINT64_MAX, best = UINT64_MAX;
  for (size_t i = 0; i < l.n; i++) {
    if (i < AUCS_SEARCH_POPULATION && l.c[i].args[0] < first)
      first = l.c[i].args[0];
    if (l.c[i].args[0] < best)
      best = l.c[i].args[0];
  }
  assert_true(best <= first);
  assert_true(best <= 2);
  log_free(&l);
}

/* ---- solved seeds -------------------------------------------------------*/

/* A solve that answers n = 777 on blocks of 96 threads (two seeds, the
 * second on 192 threads), or that no input exists. */
typedef struct solver {
  int calls;
  int unsat;
  aucs_launch launch[2];
  uint64_t a0[4], a1[4];
  uint64_t *args[2];
  unsigned char chosen[4];
  uint64_t dict[1];
} solver;

static void solve_777(void *ctx, aucs_search_seeds *out) {
  solver *v = ctx;
  v->calls++;
  v->launch[0] = (aucs_launch){{1, 1, 1}, {96, 1, 1}};
  v->launch[1] = (aucs_launch){{2, 1, 1}, {96, 1, 1}};
  v->a0[0] = v->a1[0] = 777;
  v->args[0] = v->a0, v->args[1] = v->a1;
  v->chosen[0] = 1;
  v->dict[0] = 777;
  *out = (aucs_search_seeds){.n = v->unsat ? 0 : 2,
                             .launch = v->launch,
                             .args = v->args,
                             .block = {1, 0, 0},
                             .chosen = v->chosen,
                             .dict = v->dict,
                             .ndict = 1,
                             .unsat = v->unsat};
}

static size_t valid_runs(const log *l) {
  size_t ok = 0;
  for (size_t i = 0; i < l->n; i++)
    ok += l->c[i].args[0] == 777 && l->c[i].launch.block.x == 96;
  return ok;
}

/* n == 777 on blocks of 96 threads: no searched candidate meets it; with
 * the solve (asked once, at the first discarded candidate) the retries and
 * children take n and block.x from the seeds, so most candidates run. */
static void test_search_seeds_from_solve(void **state) {
  (void)state;
  aucs_search_space s = space(3);
  log plain = {.assume_eq = 777, .block_eq = 96};
  aucs_search_run(&s, record, &plain);
  assert_int_equal(valid_runs(&plain), 0);
  solver v = {0};
  s.solve = solve_777, s.solve_ctx = &v;
  log l = {.assume_eq = 777, .block_eq = 96};
  aucs_search_stats st;
  aucs_search_run_stats(&s, record, &l, &st);
  assert_int_equal(v.calls, 1);
  assert_true(valid_runs(&l) >= AUCS_SEARCH_POPULATION);
  /* the other genes still vary: valid runs differ in fill or grid */
  unsigned seen = 0, kinds = 0;
  for (size_t i = 0; i < l.n; i++)
    if (l.c[i].args[0] == 777 && l.c[i].launch.block.x == 96) {
      unsigned bit = 1u << (l.c[i].fill * 8 + l.c[i].launch.grid.x % 8);
      kinds += !(seen & bit);
      seen |= bit;
    }
  assert_true(kinds >= 2);
  log_free(&plain);
  log_free(&l);
}

/* Every run of the initial population is idle (an early exit unless
 * n == 777): the solve is asked after it and each seed runs. */
static void test_search_seeds_after_idle_runs(void **state) {
  (void)state;
  aucs_search_space s = space(4);
  solver v = {0};
  s.solve = solve_777, s.solve_ctx = &v;
  log l = {.idle_unless = 777};
  aucs_search_run(&s, record, &l);
  assert_int_equal(v.calls, 1);
  size_t seeded = 0;
  for (size_t i = 0; i < l.n; i++)
    seeded += l.c[i].args[0] == 777;
  assert_true(seeded >= 2);
  /* a run that did work first: no solve */
  solver w = {0};
  s.solve_ctx = &w;
  log busy = {0};
  aucs_search_run(&s, record, &busy);
  assert_int_equal(w.calls, 0);
  log_free(&l);
  log_free(&busy);
}

/* The solve proves that no input exists: the search stops there. */
static void test_search_stops_when_unsat(void **state) {
  (void)state;
  aucs_search_space s = space(5);
  solver v = {.unsat = 1};
  s.solve = solve_777, s.solve_ctx = &v;
  log l = {.assume_eq = 777};
  aucs_search_stats st;
  aucs_search_run_stats(&s, record, &l, &st);
  assert_int_equal(v.calls, 1);
  assert_int_equal(l.n, 1);
  assert_int_equal(st.end, AUCS_SEARCH_END_UNSAT);
  log_free(&l);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_search_rng_same_seed_same_stream),
      cmocka_unit_test(test_search_stops_when_coverage_stalls),
      cmocka_unit_test(test_search_grows_while_coverage_grows),
      cmocka_unit_test(test_search_small_launch_first),
      cmocka_unit_test(test_search_time_budget),
      cmocka_unit_test(test_search_rng_splitmix_reference),
      cmocka_unit_test(test_search_rng_ranges),
      cmocka_unit_test(test_search_rng_gauss_moments),
      cmocka_unit_test(test_search_rng_cauchy_quartiles),
      cmocka_unit_test(test_search_fixed_is_one_run),
      cmocka_unit_test(test_search_fill_is_searched),
      cmocka_unit_test(test_search_goes_on_after_a_failed_run),
      cmocka_unit_test(test_search_replaces_discarded_candidates),
      cmocka_unit_test(test_search_defaults_bounds),
      cmocka_unit_test(test_search_same_seed_same_runs),
      cmocka_unit_test(test_search_keeps_what_user_fixed),
      cmocka_unit_test(test_search_stops_when_asked),
      cmocka_unit_test(test_search_selection_improves),
      cmocka_unit_test(test_search_seeds_from_solve),
      cmocka_unit_test(test_search_seeds_after_idle_runs),
      cmocka_unit_test(test_search_stops_when_unsat),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
