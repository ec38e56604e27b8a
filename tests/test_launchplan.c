/*
 * test_launchplan: the launch a kernel is checked at (detector/launchplan.c)
 * from the user's options and its host code's launches, built by hand here
 * (test_hostlaunch reads real host code), and the host's computations that
 * tie the grid and arguments to the arguments the search chooses.
 */
#include "support.h"

#include "aucs/launchplan.h"
#include "aucs/options.h"

#include <stdlib.h>
#include <string.h>

static aucs_host_arg args2[2] = {{.known = 1, .bits = 4096}, {.known = 0}};

/* k: <<<?, 256>>> at k.cu:7 with n=4096; m: (2048 threads) then (32,4);
 * s: 1 block of 64 with 1024 dynamic shared bytes. */
static aucs_host_launch launches[] = {
    {.kernel = "k", .where = "k.cu:7", .grid = {0, 1, 1},
     .grid_known = 6, .block = {256, 1, 1}, .block_known = 7,
     .args = args2, .nargs = 2},
    {.kernel = "m", .where = "k.cu:9", .grid = {4, 1, 1}, .grid_known = 7,
     .block = {2048, 1, 1}, .block_known = 7},
    {.kernel = "m", .where = "k.cu:10", .grid = {4, 1, 1}, .grid_known = 7,
     .block = {32, 4, 1}, .block_known = 7},
    {.kernel = "s", .where = "k.cu:12", .grid = {1, 1, 1}, .grid_known = 7,
     .block = {64, 1, 1}, .block_known = 7, .shared_known = 1,
     .shared = 1024},
};
static const aucs_host_launches host = {launches, 4};

static void test_launchplan_host_fixes_what_it_knows(void **state) {
  (void)state;
  aucs_detect_options o = {.host = &host};
  aucs_launchplan p;
  aucs_launchplan_of(&o, "k", &p);
  assert_int_equal(p.has_block, 1);
  assert_int_equal(p.block.x, 256);
  assert_int_equal(p.has_grid, 0); /* its x is computed at run time */
  assert_string_equal(p.from, "host k.cu:7 <<<?, 256>>>; grid searched");
  uint64_t v = 0;
  assert_int_equal(aucs_launchplan_arg(&p, 0, &v), 1);
  assert_int_equal(v, 4096);
  assert_int_equal(aucs_launchplan_arg(&p, 1, &v), 0); /* not a constant */
  assert_int_equal(aucs_launchplan_arg(&p, 2, &v), 0); /* no such param */
  assert_int_equal(p.dynamic_shared, 0);
  aucs_launchplan_free(&p);
}

/* Of two launches, the first one CUDA can make; a block over 1024 threads
 * is never fixed. */
static void test_launchplan_picks_a_launch(void **state) {
  (void)state;
  aucs_detect_options o = {.host = &host};
  aucs_launchplan p;
  aucs_launchplan_of(&o, "m", &p);
  assert_ptr_equal(p.host, &launches[1]); /* its block is wholly known */
  assert_int_equal(p.has_grid, 1);
  assert_int_equal(p.grid.x, 4);
  assert_int_equal(p.has_block, 0);
  assert_string_equal(p.from, "host k.cu:9 <<<4, 2048>>>; block searched; 1 "
                              "other launch not checked");
  aucs_launchplan_free(&p);
  launches[1].block_known = 5; /* y unknown: the second is chosen */
  aucs_launchplan_of(&o, "m", &p);
  assert_ptr_equal(p.host, &launches[2]);
  assert_int_equal(p.has_block, 1);
  assert_int_equal(p.block.x, 32);
  assert_int_equal(p.block.y, 4);
  assert_string_equal(
      p.from, "host k.cu:10 <<<4, (32,4,1)>>>; 1 other launch not checked");
  aucs_launchplan_free(&p);
  launches[1].block_known = 7;
}

static void test_launchplan_shared_bytes(void **state) {
  (void)state;
  aucs_detect_options o = {.host = &host};
  aucs_launchplan p;
  aucs_launchplan_of(&o, "s", &p);
  assert_int_equal(p.dynamic_shared, 1024);
  assert_string_equal(p.from, "host k.cu:12 <<<1, 64, 1024>>>");
  aucs_launchplan_free(&p);
  o.user.has_dynamic_shared = 1; /* the user's bytes win */
  o.user.dynamic_shared = 4096;
  aucs_launchplan_of(&o, "s", &p);
  assert_int_equal(p.dynamic_shared, 0);
  aucs_launchplan_free(&p);
}

/* The user's launch wins: part of it over the host's, all of it alone. */
static void test_launchplan_user_wins(void **state) {
  (void)state;
  aucs_detect_options o = {.host = &host, .has_block = 1,
                           .block = {64, 2, 1}};
  aucs_launchplan p;
  aucs_launchplan_of(&o, "k", &p);
  assert_int_equal(p.has_block, 1);
  assert_int_equal(p.block.x, 64);
  assert_int_equal(p.block.y, 2);
  assert_string_equal(
      p.from, "host k.cu:7 <<<?, 256>>>; grid searched; block given");
  aucs_launchplan_free(&p);
  o.has_grid = 1;
  o.grid = (aucs_dim3){3, 1, 1};
  aucs_launchplan_of(&o, "k", &p);
  assert_null(p.host);
  assert_int_equal(p.grid.x, 3);
  assert_string_equal(p.from, "given");
  uint64_t v;
  assert_int_equal(aucs_launchplan_arg(&p, 0, &v), 0);
  aucs_launchplan_free(&p);
}

static void test_launchplan_without_host_launch(void **state) {
  (void)state;
  aucs_detect_options o = {.host = &host};
  aucs_launchplan p;
  aucs_launchplan_of(&o, "other", &p);
  assert_null(p.host);
  assert_int_equal(p.has_grid, 0);
  assert_int_equal(p.has_block, 0);
  assert_string_equal(p.from, "searched; no launch in the host code");
  aucs_launchplan_free(&p);
  o.host = NULL; /* no host code looked at (a .bc) */
  aucs_launchplan_of(&o, "k", &p);
  assert_string_equal(p.from, "searched");
  aucs_launchplan_free(&p);
}

/* (n + 255) / 256 over argument 1, and argument 2 the same value as 1:
 * `k<<<(n + 255) / 256, 256>>>(p, n, n)`. */
static aucs_host_op ceil_div[] = {
    {AUCS_HX_ARG, 32, 1, 0},   {AUCS_HX_CONST, 32, 0, 255},
    {AUCS_HX_ADD, 32, 0, 0},   {AUCS_HX_CONST, 32, 0, 256},
    {AUCS_HX_SDIV, 32, 0, 0},  {AUCS_HX_TRUNC, 32, 0, 0}};

static void test_launchplan_eval(void **state) {
  (void)state;
  aucs_host_expr e = {ceil_div, 6};
  uint64_t args[2] = {0, 257}, v = 0;
  assert_int_equal(aucs_hostlaunch_eval(&e, args, 2, &v), 0);
  assert_int_equal(v, 2);
  args[1] = (uint32_t)-300; /* (-300 + 255) / 256 rounds toward 0 */
  assert_int_equal(aucs_hostlaunch_eval(&e, args, 2, &v), 0);
  assert_int_equal(v, 0);
  assert_int_equal(aucs_hostlaunch_eval(&e, args, 1, &v), -1); /* no arg 1 */
  aucs_host_op div0[] = {{AUCS_HX_CONST, 32, 0, 7}, {AUCS_HX_ARG, 32, 0, 0},
                         {AUCS_HX_UREM, 32, 0, 0}};
  e = (aucs_host_expr){div0, 3};
  args[0] = 0;
  assert_int_equal(aucs_hostlaunch_eval(&e, args, 1, &v), -1);
  aucs_host_op wide[] = {{AUCS_HX_CONST, 32, 0, 1}, {AUCS_HX_ARG, 32, 0, 0},
                         {AUCS_HX_SHL, 32, 0, 0}};
  e = (aucs_host_expr){wide, 3};
  args[0] = 32; /* shifting an i32 by 32 is not a value */
  assert_int_equal(aucs_hostlaunch_eval(&e, args, 1, &v), -1);
  aucs_host_op ext[] = {{AUCS_HX_ARG, 8, 0, 0}, {AUCS_HX_SEXT, 32, 0, 8},
                        {AUCS_HX_CONST, 32, 0, 1}, {AUCS_HX_ASHR, 32, 0, 0}};
  e = (aucs_host_expr){ext, 4};
  args[0] = 0xfe; /* -2 as i8: -1 after >> 1 */
  assert_int_equal(aucs_hostlaunch_eval(&e, args, 1, &v), 0);
  assert_int_equal(v, 0xffffffffu);
}

/* The search's grid picks n (the smallest that gives it); the tied
 * argument follows n; a grid CUDA cannot launch is refused. */
static void test_launchplan_derive_ties(void **state) {
  (void)state;
  aucs_host_arg a3[3] = {{.known = 0}, {.known = 0}, {.same_as = 2}};
  aucs_host_launch t = {.kernel = "t", .where = "t.cu:3",
                        .grid = {0, 1, 1}, .grid_known = 6,
                        .block = {256, 1, 1}, .block_known = 7,
                        .args = a3, .nargs = 3,
                        .grid_expr = {{ceil_div, 6}, {NULL, 0}, {NULL, 0}}};
  aucs_host_launches one = {&t, 1};
  aucs_detect_options o = {.host = &one};
  aucs_launchplan p;
  aucs_launchplan_of(&o, "t", &p);
  assert_int_equal(p.grid_tied, 1);
  assert_int_equal(p.args_tied, 1);
  assert_int_equal(p.has_grid, 0);
  assert_string_equal(p.from, "host t.cu:3 <<<?, 256>>>; grid from the "
                              "arguments");
  uint64_t args[3] = {0, 5, 9};
  aucs_dim3 grid = {3, 1, 1};
  assert_int_equal(aucs_launchplan_derive(&p, args, 3, &grid), 0);
  assert_int_equal(args[1], 513);
  assert_int_equal(args[2], 513);
  assert_int_equal(grid.x, 3);
  grid = (aucs_dim3){3, 2, 1}; /* y is the host's constant */
  assert_int_equal(aucs_launchplan_derive(&p, args, 3, &grid), 0);
  assert_int_equal(grid.y, 1);
  t.grid_known = 4; /* y open, not computed: the search's stays */
  grid = (aucs_dim3){1, 7, 1};
  assert_int_equal(aucs_launchplan_derive(&p, args, 3, &grid), 0);
  assert_int_equal(args[1], 1);
  assert_int_equal(grid.y, 7);
  t.grid_known = 6;
  aucs_host_op zero[] = {{AUCS_HX_ARG, 32, 1, 0}, {AUCS_HX_CONST, 32, 0, 0},
                         {AUCS_HX_MUL, 32, 0, 0}};
  t.grid_expr[0] = (aucs_host_expr){zero, 3}; /* always 0 blocks */
  grid = (aucs_dim3){2, 1, 1};
  assert_int_equal(aucs_launchplan_derive(&p, args, 3, &grid), -1);
  aucs_launchplan_free(&p);
}

/* `k<<<4, 64>>>(p, i % 256, n)`: off is bounded, n open. bind marks off
 * ranged and says so; derive maps the search's values into [0, 255] and
 * leaves one inside alone; the user's --arg takes off out of the range. */
static void test_launchplan_host_bounds_an_argument(void **state) {
  (void)state;
  aucs_host_arg a[3] = {
      {.known = 0}, {.ranged = 1, .lo = 0, .hi = 255}, {.known = 0}};
  aucs_host_launch r = {.kernel = "r",
                        .where = "r.cu:5",
                        .grid = {4, 1, 1},
                        .grid_known = 7,
                        .block = {64, 1, 1},
                        .block_known = 7,
                        .args = a,
                        .nargs = 3};
  aucs_host_launches one = {&r, 1};
  aucs_detect_options o = {.host = &one};
  aucs_input leaves[3] = {
      {.p = {.name = "p", .kind = AUCS_PARAM_POINTER, .bits = 64}, .param = 0},
      {.p = {.name = "off", .kind = AUCS_PARAM_INT, .bits = 32}, .param = 1},
      {.p = {.name = "n", .kind = AUCS_PARAM_INT, .bits = 32}, .param = 2}};
  aucs_inputs in = {.nparams = 3, .n = 3, .v = leaves};
  uint64_t vals[3] = {0};
  unsigned char fixed[3] = {0};
  aucs_inputs_values iv = {.n = 3, .vals = vals, .fixed = fixed};
  aucs_launchplan p;
  aucs_launchplan_of(&o, "r", &p);
  aucs_launchplan_bind(&p, &in, &iv);
  assert_string_equal(p.from, "host r.cu:5 <<<4, 64>>>; off in [0, 255]");
  uint64_t lo = 1, hi = 0;
  assert_int_equal(aucs_launchplan_range(&p, 1, &lo, &hi), 1);
  assert_int_equal(lo, 0);
  assert_int_equal(hi, 255);
  assert_int_equal(aucs_launchplan_range(&p, 2, &lo, &hi), 0);
  uint64_t args[3] = {0, 256, 4096};
  aucs_dim3 grid = {4, 1, 1};
  assert_int_equal(aucs_launchplan_derive(&p, args, 3, &grid), 0);
  assert_int_equal(args[1], 0);    /* 256 wraps to 0 */
  assert_int_equal(args[2], 4096); /* not bounded */
  args[1] = 0xffffffffu;           /* -1 as a 32-bit int */
  assert_int_equal(aucs_launchplan_derive(&p, args, 3, &grid), 0);
  assert_true(args[1] <= 255);
  args[1] = 17;
  assert_int_equal(aucs_launchplan_derive(&p, args, 3, &grid), 0);
  assert_int_equal(args[1], 17);
  aucs_launchplan_free(&p);
  fixed[1] = 1; /* the user's --arg off=300 */
  aucs_launchplan_of(&o, "r", &p);
  aucs_launchplan_bind(&p, &in, &iv);
  assert_int_equal(aucs_launchplan_range(&p, 1, &lo, &hi), 0);
  assert_string_equal(p.from, "host r.cu:5 <<<4, 64>>>");
  aucs_launchplan_free(&p);
}

/* `k<<<g, 32 * warps>>>`: the searched block.x is rounded to whole
 * warps (up; down when up would pass 1024 threads). */
static void test_launchplan_block_of_whole_warps(void **state) {
  (void)state;
  aucs_host_launch w = {.kernel = "w", .where = "w.cu:4",
                        .grid = {0, 1, 1}, .grid_known = 6,
                        .block = {0, 1, 1}, .block_known = 6,
                        .block_multiple = 32};
  aucs_host_launches one = {&w, 1};
  aucs_detect_options o = {.host = &one};
  aucs_launchplan p;
  aucs_launchplan_of(&o, "w", &p);
  assert_int_equal(p.block_multiple, 32);
  assert_string_equal(p.from, "host w.cu:4 <<<?, ?>>>; grid searched; block "
                              "searched (x a multiple of 32)");
  aucs_inputs in = {0};
  aucs_candidate c = {.launch = {{2, 1, 1}, {17, 1, 1}}}, d;
  assert_int_equal(aucs_launchplan_candidate(&p, &in, 0, &c, &d), 0);
  assert_int_equal(d.launch.block.x, 32);
  free(d.args);
  c.launch.block = (aucs_dim3){1000, 1, 1};
  assert_int_equal(aucs_launchplan_candidate(&p, &in, 0, &c, &d), 0);
  assert_int_equal(d.launch.block.x, 1024);
  free(d.args);
  c.launch.block = (aucs_dim3){330, 3, 1}; /* 352 x 3 is too many */
  assert_int_equal(aucs_launchplan_candidate(&p, &in, 0, &c, &d), 0);
  assert_int_equal(d.launch.block.x, 320);
  free(d.args);
  c.launch.block = (aucs_dim3){64, 1, 1}; /* whole warps: kept */
  assert_int_equal(aucs_launchplan_candidate(&p, &in, 0, &c, &d), 0);
  assert_int_equal(d.launch.block.x, 64);
  free(d.args);
  aucs_launchplan_free(&p);
  o.has_block = 1; /* the user's block: no rounding */
  o.block = (aucs_dim3){16, 1, 1};
  aucs_launchplan_of(&o, "w", &p);
  assert_int_equal(p.block_multiple, 0);
  aucs_launchplan_free(&p);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_launchplan_host_fixes_what_it_knows),
      cmocka_unit_test(test_launchplan_picks_a_launch),
      cmocka_unit_test(test_launchplan_shared_bytes),
      cmocka_unit_test(test_launchplan_user_wins),
      cmocka_unit_test(test_launchplan_without_host_launch),
      cmocka_unit_test(test_launchplan_host_bounds_an_argument),
      cmocka_unit_test(test_launchplan_block_of_whole_warps),
      cmocka_unit_test(test_launchplan_eval),
      cmocka_unit_test(test_launchplan_derive_ties),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
