/*
 * test_candidates: the blocks with the threads of a race or of a divergent
 * barrier (repair/candidates.c), on small kernels.
 */
#include "support.h"

#include "aucs/candidates.h"
#include "aucs/cfg.h"
#include "aucs/uniform.h"

#include <stdlib.h>

#define HEAD                                                                   \
  "target datalayout = \"e-p:64:64:64-i64:64-v16:16-v32:32-n16:32:64\"\n"      \
  "target triple = \"nvptx64-nvidia-cuda\"\n"                                  \
  "@s = internal addrspace(3) global [64 x i32] undef\n"                       \
  "declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"

/* `if (t >= n) return;` then a loop with a uniform trip count whose body
 * fills s[t] under `if (t < 16)` (A, block fill) and reads s[t ^ 1] after
 * it (B, block mid). */
static const char tile_ir[] =
    HEAD "define ptx_kernel void @k(i32 %n, i32 %m) {\n"
         "entry:\n"
         "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
         "  %gone = icmp uge i32 %t, %n\n"
         "  br i1 %gone, label %exit, label %go\n"
         "go:\n"
         "  br label %head\n"
         "head:\n"
         "  %i = phi i32 [ 0, %go ], [ %i1, %latch ]\n"
         "  %more = icmp ult i32 %i, %m\n"
         "  br i1 %more, label %body, label %exit\n"
         "body:\n"
         "  %few = icmp ult i32 %t, 16\n"
         "  br i1 %few, label %fill, label %mid\n"
         "fill:\n"
         "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 "
         "%t\n"
         "  store i32 %i, ptr addrspace(3) %p\n"
         "  br label %mid\n"
         "mid:\n"
         "  %u = xor i32 %t, 1\n"
         "  %q = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 "
         "%u\n"
         "  %v = load i32, ptr addrspace(3) %q\n"
         "  br label %latch\n"
         "latch:\n"
         "  %i1 = add i32 %i, 1\n"
         "  br label %head\n"
         "exit:\n"
         "  ret void\n"
         "}\n";

/* A loop whose trip count is the thread's own (t), holding a store and a
 * load of s. */
static const char varying_ir[] =
    HEAD "define ptx_kernel void @k() {\n"
         "entry:\n"
         "  %t = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()\n"
         "  br label %head\n"
         "head:\n"
         "  %i = phi i32 [ 0, %entry ], [ %i1, %body ]\n"
         "  %more = icmp ult i32 %i, %t\n"
         "  br i1 %more, label %body, label %exit\n"
         "body:\n"
         "  %p = getelementptr [64 x i32], ptr addrspace(3) @s, i32 0, i32 "
         "%i\n"
         "  store i32 %i, ptr addrspace(3) %p\n"
         "  %v = load i32, ptr addrspace(3) %p\n"
         "  %i1 = add i32 %i, 1\n"
         "  br label %head\n"
         "exit:\n"
         "  ret void\n"
         "}\n";

typedef struct fx {
  LLVMModuleRef m;
  LLVMValueRef k;
  aucs_cfg *g;
  aucs_uniformity *u;
} fx;

static fx open_fx(const char *ir) {
  fx f = {.m = support_parse(ir)};
  f.k = support_fn(f.m, "k");
  f.g = aucs_cfg_build(f.k);
  f.u = aucs_uniform_compute(f.g);
  return f;
}

static void close_fx(fx *f) {
  aucs_uniform_free(f->u);
  aucs_cfg_free(f->g);
  support_free(f->m);
}

static int at(const fx *f, const char *block) {
  return support_block_index(f->k, block);
}

static void test_candidates_after_an_early_return(void **state) {
  (void)state;
  fx f = open_fx(tile_ir);
  int refs[2] = {at(&f, "fill"), at(&f, "mid")};
  unsigned char *ok = aucs_candidates_with_threads(f.g, f.u, refs, 2);
  /* Not uniform (the early return), yet every condition on the way to
   * them guards both accesses too. */
  assert_false(aucs_uniform_block(f.u, at(&f, "mid")));
  assert_true(ok[at(&f, "go")]);
  assert_true(ok[at(&f, "body")]);
  assert_true(ok[at(&f, "mid")]);
  assert_true(ok[at(&f, "latch")]);
  /* Inside `if (t < 16)`, which guards A only: threads that read at B
   * would not all reach it. */
  assert_false(ok[at(&f, "fill")]);
  free(ok);
  close_fx(&f);
}

static void test_candidates_not_in_a_loop_of_varying_trips(void **state) {
  (void)state;
  fx f = open_fx(varying_ir);
  int refs[1] = {at(&f, "body")};
  unsigned char *ok = aucs_candidates_with_threads(f.g, f.u, refs, 1);
  assert_false(ok[at(&f, "body")]);
  assert_true(ok[at(&f, "entry")]);
  free(ok);
  close_fx(&f);
}

static void test_candidates_join_out_of_the_if(void **state) {
  (void)state;
  fx f = open_fx(tile_ir);
  /* A barrier in `if (t < 16)` moves to the join after it, still in the
   * loop and after the early return. */
  assert_int_equal(aucs_candidates_join_after(f.g, f.u, at(&f, "fill")),
                   at(&f, "mid"));
  /* One at `mid` has no nearer join under fewer conditions in its loop:
   * leaving the loop is not a move the repair tries. */
  assert_int_equal(aucs_candidates_join_after(f.g, f.u, at(&f, "mid")), -1);
  close_fx(&f);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_candidates_after_an_early_return),
      cmocka_unit_test(test_candidates_not_in_a_loop_of_varying_trips),
      cmocka_unit_test(test_candidates_join_out_of_the_if),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
