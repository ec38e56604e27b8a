/*
 * test_cfg: control-flow facts on small inline kernels, one shape a test,
 * plus a long loop nest that a recursive search would not survive.
 */
#include "support.h"

#include "aucs/cfg.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fixture {
  LLVMModuleRef m;
  LLVMValueRef fn;
  aucs_cfg *cfg;
} fixture;

static int B(const fixture *f, const char *name) {
  return aucs_cfg_index(f->cfg, support_block(f->fn, name));
}

/* Every non-loop edge between reachable blocks goes forward in topo; every
 * loop edge goes back (or to itself). */
static void check_topo(const aucs_cfg *cfg) {
  int seen = 0;
  for (int u = 0; u < cfg->nblocks; u++) {
    if (!cfg->reachable[u])
      continue;
    seen++;
    assert_int_equal(cfg->topo[cfg->topo_index[u]], u);
    for (int i = 0; i < cfg->nsucc[u]; i++) {
      int v = cfg->succ[u][i];
      if (cfg->loop_edge[u][i])
        assert_true(cfg->topo_index[v] <= cfg->topo_index[u]);
      else
        assert_true(cfg->topo_index[u] < cfg->topo_index[v]);
    }
  }
  assert_int_equal(seen, cfg->ntopo);
  assert_int_equal(cfg->topo[0], 0);
}

static fixture load(const char *ir) {
  fixture f;
  f.m = support_parse(ir);
  f.fn = support_fn(f.m, "k");
  f.cfg = aucs_cfg_build(f.fn);
  check_topo(f.cfg);
  return f;
}

static void unload(fixture *f) {
  aucs_cfg_free(f->cfg);
  support_free(f->m);
}

/* list[0..n) names exactly the blocks in want, e.g. "then else". */
static void expect(const fixture *f, const int *list, int n, const char *want) {
  char *copy = strdup(want), *save = NULL;
  int k = 0;
  for (char *w = strtok_r(copy, " ", &save); w;
       w = strtok_r(NULL, " ", &save)) {
    assert_true(k < n);
    assert_int_equal(list[k++], B(f, w));
  }
  free(copy);
  assert_int_equal(k, n);
}

static int is_loop_edge(const fixture *f, const char *from, const char *to) {
  int u = B(f, from), v = B(f, to);
  for (int i = 0; i < f->cfg->nsucc[u]; i++)
    if (f->cfg->succ[u][i] == v)
      return f->cfg->loop_edge[u][i];
  fail_msg("no edge %%%s -> %%%s", from, to);
  return 0;
}

static int count_loop_edges(const aucs_cfg *cfg) {
  int k = 0;
  for (int u = 0; u < cfg->nblocks; u++)
    for (int i = 0; i < cfg->nsucc[u]; i++)
      k += cfg->loop_edge[u][i];
  return k;
}

static void test_cfg_straight_line(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %a) {\n"
                   "entry:\n  br label %mid\n"
                   "mid:\n  store i32 1, ptr %a\n  br label %end\n"
                   "end:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  assert_int_equal(cfg->nblocks, 3);
  assert_int_equal(cfg->ntopo, 3);
  expect(&f, cfg->topo, cfg->ntopo, "entry mid end");
  expect(&f, cfg->succ[0], cfg->nsucc[0], "mid");
  expect(&f, cfg->pred[B(&f, "end")], cfg->npred[B(&f, "end")], "mid");
  assert_int_equal(cfg->npred[0], 0);
  assert_int_equal(cfg->idom[0], AUCS_CFG_NONE);
  assert_int_equal(cfg->idom[B(&f, "end")], B(&f, "mid"));
  assert_int_equal(cfg->ipdom[0], B(&f, "mid"));
  assert_int_equal(cfg->ipdom[B(&f, "end")], AUCS_CFG_EXIT);
  assert_int_equal(cfg->nloops, 0);
  assert_int_equal(cfg->ncycles, 0);
  assert_int_equal(count_loop_edges(cfg), 0);
  unload(&f);
}

static void test_cfg_diamond(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %a, i1 %c) {\n"
                   "entry:\n  br i1 %c, label %then, label %else\n"
                   "then:\n  store i32 1, ptr %a\n  br label %join\n"
                   "else:\n  store i32 2, ptr %a\n  br label %join\n"
                   "join:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  int join = B(&f, "join");
  expect(&f, cfg->succ[0], cfg->nsucc[0], "then else");
  expect(&f, cfg->pred[join], cfg->npred[join], "then else");
  assert_int_equal(cfg->idom[join], 0);
  assert_int_equal(cfg->idom[B(&f, "then")], 0);
  assert_int_equal(cfg->ipdom[0], join);
  assert_int_equal(cfg->ipdom[B(&f, "else")], join);
  assert_int_equal(cfg->ipdom[join], AUCS_CFG_EXIT);
  assert_false(aucs_cfg_dominates(cfg, B(&f, "then"), join));
  assert_true(aucs_cfg_postdominates(cfg, join, 0));
  assert_int_equal(cfg->topo_index[join], 3);
  unload(&f);
}

static void test_cfg_if_without_else(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %a, i1 %c) {\n"
                   "entry:\n  br i1 %c, label %then, label %join\n"
                   "then:\n  store i32 1, ptr %a\n  br label %join\n"
                   "join:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  int then = B(&f, "then"), join = B(&f, "join");
  expect(&f, cfg->topo, cfg->ntopo, "entry then join");
  expect(&f, cfg->pred[join], cfg->npred[join], "entry then");
  assert_int_equal(cfg->idom[join], 0);
  assert_int_equal(cfg->ipdom[0], join);
  assert_int_equal(cfg->ipdom[then], join);
  assert_false(aucs_cfg_postdominates(cfg, then, 0));
  assert_true(aucs_cfg_dominates(cfg, 0, then));
  unload(&f);
}

static void test_cfg_nested_ifs(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %a, i1 %c, i1 %d) {\n"
                   "entry:\n  br i1 %c, label %outer, label %join\n"
                   "outer:\n  br i1 %d, label %inner, label %ojoin\n"
                   "inner:\n  store i32 1, ptr %a\n  br label %ojoin\n"
                   "ojoin:\n  store i32 2, ptr %a\n  br label %join\n"
                   "join:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  int outer = B(&f, "outer"), inner = B(&f, "inner"), ojoin = B(&f, "ojoin");
  int join = B(&f, "join");
  assert_int_equal(cfg->idom[inner], outer);
  assert_int_equal(cfg->idom[ojoin], outer);
  assert_int_equal(cfg->idom[join], 0);
  assert_int_equal(cfg->ipdom[outer], ojoin);
  assert_int_equal(cfg->ipdom[inner], ojoin);
  assert_int_equal(cfg->ipdom[ojoin], join);
  assert_int_equal(cfg->ipdom[0], join);
  assert_true(aucs_cfg_dominates(cfg, outer, inner));
  assert_false(aucs_cfg_dominates(cfg, inner, ojoin));
  assert_true(aucs_cfg_postdominates(cfg, ojoin, outer));
  assert_false(aucs_cfg_postdominates(cfg, ojoin, 0));
  unload(&f);
}

static void test_cfg_switch_duplicate_targets(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %a, i32 %n) {\n"
                   "entry:\n  switch i32 %n, label %def [\n"
                   "    i32 0, label %one\n    i32 1, label %one\n"
                   "    i32 2, label %two\n    i32 3, label %def\n"
                   "    i32 4, label %one\n  ]\n"
                   "one:\n  store i32 1, ptr %a\n  br label %join\n"
                   "two:\n  br i1 true, label %join, label %join\n"
                   "def:\n  br label %join\n"
                   "join:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  int one = B(&f, "one"), two = B(&f, "two"), join = B(&f, "join");
  expect(&f, cfg->succ[0], cfg->nsucc[0], "def one two");
  expect(&f, cfg->pred[one], cfg->npred[one], "entry");
  expect(&f, cfg->pred[B(&f, "def")], cfg->npred[B(&f, "def")], "entry");
  expect(&f, cfg->succ[two], cfg->nsucc[two], "join");
  expect(&f, cfg->pred[join], cfg->npred[join], "one two def");
  assert_int_equal(cfg->idom[join], 0);
  assert_int_equal(cfg->ipdom[0], join);
  unload(&f);
}

static void test_cfg_for_loop(void **state) {
  (void)state;
  fixture f =
      load("define ptx_kernel void @k(ptr %a, i32 %n) {\n"
           "entry:\n  br label %head\n"
           "head:\n  %i = phi i32 [ 0, %entry ], [ %i1, %inc ]\n"
           "  %c = icmp slt i32 %i, %n\n  br i1 %c, label %body, label %exit\n"
           "body:\n  store i32 %i, ptr %a\n  br label %inc\n"
           "inc:\n  %i1 = add i32 %i, 1\n  br label %head\n"
           "exit:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  int head = B(&f, "head"), exit = B(&f, "exit");
  assert_int_equal(cfg->nloops, 1);
  aucs_loop *l = &cfg->loops[0];
  assert_int_equal(l->header, head);
  assert_int_equal(l->parent, -1);
  assert_int_equal(l->depth, 1);
  expect(&f, l->blocks, l->nblocks, "head body inc");
  expect(&f, l->latches, l->nlatches, "inc");
  expect(&f, l->exiting, l->nexiting, "head");
  assert_true(is_loop_edge(&f, "inc", "head"));
  assert_false(is_loop_edge(&f, "entry", "head"));
  assert_int_equal(count_loop_edges(cfg), 1);
  assert_int_equal(cfg->loop_of[B(&f, "body")], 0);
  assert_int_equal(cfg->loop_of[exit], -1);
  assert_int_equal(cfg->loop_of[0], -1);
  assert_int_equal(cfg->ipdom[B(&f, "inc")], head);
  assert_int_equal(cfg->ipdom[head], exit);
  assert_int_equal(cfg->idom[exit], head);
  assert_int_equal(cfg->ncycles, 0);
  unload(&f);
}

static void test_cfg_while_break_continue(void **state) {
  (void)state;
  fixture f = load(
      "define ptx_kernel void @k(ptr %a, i1 %c, i1 %brk, i1 %cont) {\n"
      "entry:\n  br label %head\n"
      "head:\n  br i1 %c, label %body, label %exit\n"
      "body:\n  br i1 %brk, label %exit, label %next\n"
      "next:\n  store i32 1, ptr %a\n  br i1 %cont, label %head, label %tail\n"
      "tail:\n  store i32 2, ptr %a\n  br label %head\n"
      "exit:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  int head = B(&f, "head"), exit = B(&f, "exit");
  assert_int_equal(cfg->nloops, 1);
  aucs_loop *l = &cfg->loops[0];
  expect(&f, l->blocks, l->nblocks, "head body next tail");
  expect(&f, l->latches, l->nlatches, "next tail");
  expect(&f, l->exiting, l->nexiting, "head body");
  assert_true(is_loop_edge(&f, "next", "head"));
  assert_true(is_loop_edge(&f, "tail", "head"));
  assert_false(is_loop_edge(&f, "body", "exit"));
  expect(&f, cfg->pred[exit], cfg->npred[exit], "head body");
  assert_int_equal(cfg->idom[exit], head);
  assert_int_equal(cfg->ipdom[B(&f, "body")], exit);
  assert_int_equal(cfg->ipdom[B(&f, "next")], head);
  assert_int_equal(cfg->ipdom[head], exit);
  unload(&f);
}

static const char *nested_ir =
    "define ptx_kernel void @k(ptr %a, i1 %c, i1 %d, i1 %e) {\n"
    "entry:\n  br label %oh\n"
    "oh:\n  br i1 %c, label %ih, label %exit\n"
    "ih:\n  br label %ib\n"
    "ib:\n  store i32 1, ptr %a\n  br i1 %e, label %exit, label %il\n"
    "il:\n  br i1 %d, label %ih, label %ol\n"
    "ol:\n  br label %oh\n"
    "exit:\n  ret void\n}\n";

static void test_cfg_nested_loops(void **state) {
  (void)state;
  fixture f = load(nested_ir);
  aucs_cfg *cfg = f.cfg;
  int oh = B(&f, "oh"), ih = B(&f, "ih"), ib = B(&f, "ib"), ol = B(&f, "ol");
  assert_int_equal(cfg->nloops, 2);
  aucs_loop *outer = &cfg->loops[0], *inner = &cfg->loops[1];
  assert_int_equal(outer->header, oh);
  assert_int_equal(inner->header, ih);
  assert_int_equal(outer->parent, -1);
  assert_int_equal(inner->parent, 0);
  assert_int_equal(outer->depth, 1);
  assert_int_equal(inner->depth, 2);
  expect(&f, outer->blocks, outer->nblocks, "oh ih ib il ol");
  expect(&f, inner->blocks, inner->nblocks, "ih ib il");
  expect(&f, outer->latches, outer->nlatches, "ol");
  expect(&f, inner->latches, inner->nlatches, "il");
  expect(&f, outer->exiting, outer->nexiting, "oh ib");
  expect(&f, inner->exiting, inner->nexiting, "ib il");
  assert_int_equal(cfg->loop_of[ib], 1);
  assert_int_equal(cfg->loop_of[ih], 1);
  assert_int_equal(cfg->loop_of[ol], 0);
  assert_int_equal(cfg->loop_of[oh], 0);
  assert_int_equal(aucs_cfg_loop_depth(cfg, ib), 2);
  assert_int_equal(aucs_cfg_loop_depth(cfg, ol), 1);
  assert_int_equal(aucs_cfg_loop_depth(cfg, B(&f, "exit")), 0);
  assert_int_equal(count_loop_edges(cfg), 2);
  unload(&f);
}

static void test_cfg_two_back_edges(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %a, i1 %c, i1 %d) {\n"
                   "entry:\n  br label %head\n"
                   "head:\n  br i1 %c, label %left, label %right\n"
                   "left:\n  store i32 1, ptr %a\n  br label %head\n"
                   "right:\n  br i1 %d, label %head, label %exit\n"
                   "exit:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  assert_int_equal(cfg->nloops, 1);
  aucs_loop *l = &cfg->loops[0];
  assert_int_equal(l->header, B(&f, "head"));
  expect(&f, l->latches, l->nlatches, "left right");
  expect(&f, l->blocks, l->nblocks, "head left right");
  expect(&f, l->exiting, l->nexiting, "right");
  assert_true(is_loop_edge(&f, "left", "head"));
  assert_true(is_loop_edge(&f, "right", "head"));
  assert_int_equal(cfg->ipdom[B(&f, "left")], B(&f, "head"));
  assert_int_equal(cfg->ipdom[B(&f, "head")], B(&f, "right"));
  unload(&f);
}

static void test_cfg_self_loop(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(i1 %c) {\n"
                   "entry:\n  br label %spin\n"
                   "spin:\n  br i1 %c, label %spin, label %exit\n"
                   "exit:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  int spin = B(&f, "spin");
  assert_int_equal(cfg->nloops, 1);
  expect(&f, cfg->loops[0].blocks, cfg->loops[0].nblocks, "spin");
  expect(&f, cfg->loops[0].latches, cfg->loops[0].nlatches, "spin");
  expect(&f, cfg->loops[0].exiting, cfg->loops[0].nexiting, "spin");
  expect(&f, cfg->pred[spin], cfg->npred[spin], "entry spin");
  assert_true(is_loop_edge(&f, "spin", "spin"));
  assert_int_equal(cfg->ipdom[spin], B(&f, "exit"));
  unload(&f);
}

static void test_cfg_irreducible_cycle(void **state) {
  (void)state;
  fixture f =
      load("define ptx_kernel void @k(ptr %a, i1 %c, i1 %d) {\n"
           "entry:\n  br i1 %c, label %x, label %y\n"
           "x:\n  store i32 1, ptr %a\n  br i1 %d, label %y, label %exit\n"
           "y:\n  store i32 2, ptr %a\n  br i1 %d, label %x, label %exit\n"
           "exit:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  int x = B(&f, "x"), y = B(&f, "y");
  assert_int_equal(cfg->nloops, 0);
  assert_int_equal(cfg->ncycles, 1);
  expect(&f, cfg->cycles[0].blocks, cfg->cycles[0].nblocks, "x y");
  expect(&f, cfg->cycles[0].entries, cfg->cycles[0].nentries, "x y");
  assert_int_equal(count_loop_edges(cfg), 1);
  assert_int_equal(cfg->idom[x], 0);
  assert_int_equal(cfg->idom[y], 0);
  assert_int_equal(cfg->loop_of[x], -1);
  assert_int_equal(aucs_cfg_loop_depth(cfg, y), 0);
  unload(&f);
}

/* A cycle with two entries inside a natural loop: the region is the loop
 * minus its header, not the whole strongly connected loop. */
static void test_cfg_irreducible_in_loop(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %a, i1 %c, i1 %d) {\n"
                   "entry:\n  br label %head\n"
                   "head:\n  br i1 %c, label %x, label %y\n"
                   "x:\n  br i1 %d, label %y, label %latch\n"
                   "y:\n  br i1 %d, label %x, label %latch\n"
                   "latch:\n  br i1 %c, label %head, label %exit\n"
                   "exit:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  assert_int_equal(cfg->nloops, 1);
  expect(&f, cfg->loops[0].blocks, cfg->loops[0].nblocks, "head x y latch");
  assert_int_equal(cfg->ncycles, 1);
  expect(&f, cfg->cycles[0].blocks, cfg->cycles[0].nblocks, "x y");
  expect(&f, cfg->cycles[0].entries, cfg->cycles[0].nentries, "x y");
  assert_int_equal(count_loop_edges(cfg), 2);
  unload(&f);
}

/* A natural loop inside a two-entry cycle belongs to the cycle. */
static void test_cfg_loop_in_irreducible(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %a, i1 %c, i1 %d) {\n"
                   "entry:\n  br i1 %c, label %x, label %y\n"
                   "x:\n  br label %y\n"
                   "y:\n  br label %z\n"
                   "z:\n  br i1 %d, label %y, label %w\n"
                   "w:\n  br i1 %d, label %x, label %exit\n"
                   "exit:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  assert_int_equal(cfg->ncycles, 1);
  expect(&f, cfg->cycles[0].blocks, cfg->cycles[0].nblocks, "x y z w");
  expect(&f, cfg->cycles[0].entries, cfg->cycles[0].nentries, "x y");
  assert_int_equal(cfg->nloops, 1);
  assert_int_equal(cfg->loops[0].header, B(&f, "y"));
  expect(&f, cfg->loops[0].blocks, cfg->loops[0].nblocks, "y z");
  unload(&f);
}

/* Trivial components listed before the cycle, and a self loop inside it. */
static void test_cfg_irreducible_after_trivial_blocks(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(i32 %n) {\n"
                   "entry:\n  switch i32 %n, label %x [ i32 1, label %y ]\n"
                   "done:\n  ret void\n"
                   "x:\n  br label %y\n"
                   "y:\n  switch i32 %n, label %done [ i32 1, label %y\n"
                   "                                 i32 2, label %x ]\n"
                   "}\n");
  aucs_cfg *cfg = f.cfg;
  assert_int_equal(cfg->ncycles, 1);
  expect(&f, cfg->cycles[0].blocks, cfg->cycles[0].nblocks, "x y");
  expect(&f, cfg->cycles[0].entries, cfg->cycles[0].nentries, "x y");
  assert_int_equal(cfg->nloops, 1);
  expect(&f, cfg->loops[0].blocks, cfg->loops[0].nblocks, "y");
  unload(&f);
}

static void test_cfg_two_irreducible_cycles(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(i1 %c, i1 %d) {\n"
                   "entry:\n  br i1 %c, label %a, label %b\n"
                   "a:\n  br i1 %d, label %b, label %mid\n"
                   "b:\n  br i1 %d, label %a, label %mid\n"
                   "mid:\n  br i1 %c, label %p, label %q\n"
                   "p:\n  br i1 %d, label %q, label %exit\n"
                   "q:\n  br i1 %d, label %p, label %exit\n"
                   "exit:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  assert_int_equal(cfg->ncycles, 2);
  expect(&f, cfg->cycles[0].blocks, cfg->cycles[0].nblocks, "a b");
  expect(&f, cfg->cycles[1].blocks, cfg->cycles[1].nblocks, "p q");
  expect(&f, cfg->cycles[1].entries, cfg->cycles[1].nentries, "p q");
  assert_int_equal(cfg->nloops, 0);
  unload(&f);
}

static void test_cfg_unreachable_blocks(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %a) {\n"
                   "entry:\n  br label %join\n"
                   "dead:\n  br label %dloop\n"
                   "dloop:\n  br i1 true, label %dloop, label %join\n"
                   "join:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  int dead = B(&f, "dead"), dloop = B(&f, "dloop"), join = B(&f, "join");
  assert_int_equal(cfg->nblocks, 4);
  assert_int_equal(cfg->ntopo, 2);
  for (int b = dead; b <= dloop; b++) {
    assert_false(cfg->reachable[b]);
    assert_int_equal(cfg->topo_index[b], -1);
    assert_int_equal(cfg->idom[b], AUCS_CFG_NONE);
    assert_int_equal(cfg->ipdom[b], AUCS_CFG_NONE);
    assert_int_equal(cfg->loop_of[b], -1);
    assert_false(aucs_cfg_dominates(cfg, b, b));
    assert_false(aucs_cfg_postdominates(cfg, join, b));
  }
  expect(&f, cfg->succ[dloop], cfg->nsucc[dloop], "dloop join");
  expect(&f, cfg->pred[join], cfg->npred[join], "entry dloop");
  assert_int_equal(cfg->idom[join], 0);
  assert_int_equal(cfg->ipdom[0], join);
  assert_int_equal(cfg->nloops, 0);
  assert_int_equal(cfg->ncycles, 0);
  assert_int_equal(count_loop_edges(cfg), 0);
  unload(&f);
}

static void test_cfg_infinite_loop(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %a, i1 %c) {\n"
                   "entry:\n  br i1 %c, label %out, label %spin\n"
                   "spin:\n  store i32 1, ptr %a\n  br label %spin2\n"
                   "spin2:\n  br label %spin\n"
                   "out:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  int spin = B(&f, "spin"), spin2 = B(&f, "spin2"), out = B(&f, "out");
  assert_int_equal(cfg->ipdom[spin], AUCS_CFG_NONE);
  assert_int_equal(cfg->ipdom[spin2], AUCS_CFG_NONE);
  assert_int_equal(cfg->ipdom[0], out);
  assert_int_equal(cfg->ipdom[out], AUCS_CFG_EXIT);
  assert_false(aucs_cfg_postdominates(cfg, spin, spin));
  assert_false(aucs_cfg_postdominates(cfg, out, spin));
  assert_true(aucs_cfg_postdominates(cfg, out, 0));
  assert_int_equal(cfg->nloops, 1);
  expect(&f, cfg->loops[0].blocks, cfg->loops[0].nblocks, "spin spin2");
  assert_int_equal(cfg->loops[0].nexiting, 0);
  assert_int_equal(cfg->idom[spin2], spin);
  unload(&f);
}

static void test_cfg_multiple_returns(void **state) {
  (void)state;
  fixture f = load("define ptx_kernel void @k(ptr %a, i1 %c, i1 %d) {\n"
                   "entry:\n  br i1 %c, label %early, label %more\n"
                   "early:\n  ret void\n"
                   "more:\n  br i1 %d, label %late, label %trap\n"
                   "late:\n  store i32 1, ptr %a\n  ret void\n"
                   "trap:\n  unreachable\n}\n");
  aucs_cfg *cfg = f.cfg;
  int early = B(&f, "early"), more = B(&f, "more");
  int late = B(&f, "late");
  assert_int_equal(cfg->ipdom[0], AUCS_CFG_EXIT);
  /* unreachable is no exit: every defined path from %more goes to %late */
  assert_int_equal(cfg->ipdom[more], late);
  assert_true(aucs_cfg_postdominates(cfg, late, more));
  assert_int_equal(cfg->ipdom[early], AUCS_CFG_EXIT);
  assert_int_equal(cfg->ipdom[late], AUCS_CFG_EXIT);
  assert_int_equal(cfg->ipdom[B(&f, "trap")], AUCS_CFG_NONE);
  assert_false(aucs_cfg_postdominates(cfg, early, 0));
  assert_true(aucs_cfg_postdominates(cfg, 0, 0));
  assert_int_equal(cfg->idom[B(&f, "trap")], more);
  unload(&f);
}

static void test_cfg_queries(void **state) {
  (void)state;
  fixture f = load(nested_ir);
  aucs_cfg *cfg = f.cfg;
  int oh = B(&f, "oh"), ih = B(&f, "ih"), ib = B(&f, "ib"), il = B(&f, "il");
  int ol = B(&f, "ol"), exit = B(&f, "exit");
  assert_true(aucs_cfg_dominates(cfg, 0, exit));
  assert_true(aucs_cfg_dominates(cfg, oh, ol));
  assert_true(aucs_cfg_dominates(cfg, ih, il));
  assert_true(aucs_cfg_dominates(cfg, ib, ib));
  assert_false(aucs_cfg_dominates(cfg, ih, exit));
  assert_false(aucs_cfg_dominates(cfg, il, ih));
  assert_true(aucs_cfg_postdominates(cfg, ib, ih));
  assert_true(aucs_cfg_postdominates(cfg, exit, 0));
  assert_false(aucs_cfg_postdominates(cfg, il, ib));
  assert_false(aucs_cfg_postdominates(cfg, ol, oh));
  assert_true(aucs_cfg_in_loop(cfg, 0, ib));
  assert_true(aucs_cfg_in_loop(cfg, 1, ib));
  assert_true(aucs_cfg_in_loop(cfg, 0, ol));
  assert_false(aucs_cfg_in_loop(cfg, 1, ol));
  assert_false(aucs_cfg_in_loop(cfg, 0, exit));
  assert_false(aucs_cfg_in_loop(cfg, 2, ib));
  assert_false(aucs_cfg_dominates(cfg, -1, ib));
  assert_false(aucs_cfg_postdominates(cfg, exit, cfg->nblocks));
  unload(&f);
}

static void test_cfg_index(void **state) {
  (void)state;
  fixture f = load(nested_ir);
  fixture g = load("define ptx_kernel void @k() {\nentry:\n  ret void\n}\n");
  for (int b = 0; b < f.cfg->nblocks; b++)
    assert_int_equal(aucs_cfg_index(f.cfg, f.cfg->blocks[b]), b);
  assert_int_equal(B(&f, "ih"), 2);
  assert_int_equal(aucs_cfg_index(f.cfg, g.cfg->blocks[0]), -1);
  assert_int_equal(aucs_cfg_index(f.cfg, NULL), -1);
  assert_int_equal(g.cfg->ipdom[0], AUCS_CFG_EXIT);
  assert_int_equal(g.cfg->idom[0], AUCS_CFG_NONE);
  unload(&g);
  unload(&f);
}

/* A mix of every shape; check_topo in load asserts the order. */
static void test_cfg_topo_respects_dag_edges(void **state) {
  (void)state;
  fixture f = load(
      "define ptx_kernel void @k(i32 %n, i1 %c, i1 %d) {\n"
      "entry:\n  switch i32 %n, label %z [ i32 0, label %a i32 1, label %b ]\n"
      "a:\n  br i1 %c, label %b, label %h\n"
      "b:\n  br i1 %d, label %a, label %h\n"
      "h:\n  br i1 %c, label %h2, label %z\n"
      "h2:\n  br i1 %d, label %h2, label %t\n"
      "t:\n  br i1 %c, label %h, label %z\n"
      "z:\n  br i1 %d, label %y, label %x\n"
      "x:\n  br label %y\n"
      "y:\n  ret void\n}\n");
  aucs_cfg *cfg = f.cfg;
  assert_int_equal(cfg->ntopo, 9);
  assert_int_equal(count_loop_edges(cfg), 3);
  assert_true(cfg->topo_index[B(&f, "x")] < cfg->topo_index[B(&f, "y")]);
  assert_true(cfg->topo_index[B(&f, "t")] < cfg->topo_index[B(&f, "z")]);
  assert_int_equal(cfg->nloops, 2);
  assert_int_equal(cfg->ncycles, 1);
  unload(&f);
}

/* Deep nesting and a long chain: no recursion, and sane facts. */
static void test_cfg_thousands_of_blocks(void **state) {
  (void)state;
  enum { DEPTH = 1500 };
  aucs_buf ir = {0};
  aucs_buf_puts(&ir, "define ptx_kernel void @k(i1 %c) {\nentry:\n"
                     "  br label %h0\n");
  for (int i = 0; i < DEPTH; i++)
    aucs_buf_printf(&ir, "h%d:\n  br label %%%s%d\n", i,
                    i + 1 < DEPTH ? "h" : "l", i + 1 < DEPTH ? i + 1 : i);
  for (int i = DEPTH - 1; i >= 0; i--)
    aucs_buf_printf(&ir, "l%d:\n  br i1 %%c, label %%h%d, label %%%s%d\n", i, i,
                    i > 0 ? "l" : "exit", i > 0 ? i - 1 : 0);
  aucs_buf_puts(&ir, "exit0:\n  ret void\n}\n");
  fixture f = load(ir.data);
  aucs_buf_free(&ir);
  aucs_cfg *cfg = f.cfg;
  assert_int_equal(cfg->nblocks, 2 * DEPTH + 2);
  assert_int_equal(cfg->nloops, DEPTH);
  assert_int_equal(cfg->loops[DEPTH - 1].depth, DEPTH);
  assert_int_equal(cfg->loops[DEPTH - 1].parent, DEPTH - 2);
  assert_int_equal(aucs_cfg_loop_depth(cfg, B(&f, "l0")), 1);
  assert_int_equal(cfg->ipdom[B(&f, "h0")], B(&f, "h1"));
  assert_true(aucs_cfg_postdominates(cfg, B(&f, "l0"), 0));
  assert_true(aucs_cfg_in_loop(cfg, 0, B(&f, "l1499")));
  assert_int_equal(cfg->ncycles, 0);
  unload(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_cfg_straight_line),
      cmocka_unit_test(test_cfg_diamond),
      cmocka_unit_test(test_cfg_if_without_else),
      cmocka_unit_test(test_cfg_nested_ifs),
      cmocka_unit_test(test_cfg_switch_duplicate_targets),
      cmocka_unit_test(test_cfg_for_loop),
      cmocka_unit_test(test_cfg_while_break_continue),
      cmocka_unit_test(test_cfg_nested_loops),
      cmocka_unit_test(test_cfg_two_back_edges),
      cmocka_unit_test(test_cfg_self_loop),
      cmocka_unit_test(test_cfg_irreducible_cycle),
      cmocka_unit_test(test_cfg_irreducible_in_loop),
      cmocka_unit_test(test_cfg_loop_in_irreducible),
      cmocka_unit_test(test_cfg_irreducible_after_trivial_blocks),
      cmocka_unit_test(test_cfg_two_irreducible_cycles),
      cmocka_unit_test(test_cfg_unreachable_blocks),
      cmocka_unit_test(test_cfg_infinite_loop),
      cmocka_unit_test(test_cfg_multiple_returns),
      cmocka_unit_test(test_cfg_queries),
      cmocka_unit_test(test_cfg_index),
      cmocka_unit_test(test_cfg_topo_respects_dag_edges),
      cmocka_unit_test(test_cfg_thousands_of_blocks),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
