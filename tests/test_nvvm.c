/*
 * test_nvvm: the intrinsic table classifies each family by name, old and
 * new spellings alike, and leaves unknown names alone.
 */
#include "support.h"

#include "aucs/nvvm.h"

static void test_nvvm_special_registers(void **state) {
  (void)state;
  assert_int_equal(aucs_nvvm_classify("llvm.nvvm.read.ptx.sreg.tid.x"),
                   AUCS_NVVM_VARYING);
  assert_string_equal(aucs_nvvm_origin("llvm.nvvm.read.ptx.sreg.tid.y"),
                      "tid.y");
  assert_int_equal(aucs_nvvm_classify("llvm.nvvm.read.ptx.sreg.ntid.x"),
                   AUCS_NVVM_UNIFORM);
  assert_int_equal(aucs_nvvm_classify("llvm.nvvm.read.ptx.sreg.ctaid.z"),
                   AUCS_NVVM_UNIFORM);
  assert_int_equal(aucs_nvvm_classify("llvm.nvvm.read.ptx.sreg.warpid"),
                   AUCS_NVVM_VARYING);
  assert_int_equal(aucs_nvvm_classify("llvm.nvvm.read.ptx.sreg.nwarpid"),
                   AUCS_NVVM_UNIFORM);
  assert_int_equal(aucs_nvvm_classify("llvm.nvvm.read.ptx.sreg.clock64"),
                   AUCS_NVVM_VARYING);
  assert_int_equal(aucs_nvvm_classify("llvm.nvvm.read.ptx.sreg.lanemask.lt"),
                   AUCS_NVVM_VARYING);
  assert_int_equal(aucs_nvvm_classify("llvm.nvvm.read.ptx.sreg.newthing"),
                   AUCS_NVVM_VARYING);
}

static void test_nvvm_barriers(void **state) {
  (void)state;
  const char *sync[] = {"llvm.nvvm.barrier0",
                        "llvm.nvvm.barrier.sync",
                        "llvm.nvvm.barrier.sync.cnt",
                        "llvm.nvvm.barrier.cta.sync.aligned.all",
                        "llvm.nvvm.barrier.cta.sync.all",
                        "llvm.nvvm.barrier.cta.sync.aligned.count",
                        "llvm.nvvm.barrier.cta.sync.count"};
  for (size_t i = 0; i < sizeof sync / sizeof *sync; i++)
    assert_int_equal(aucs_nvvm_classify(sync[i]), AUCS_NVVM_BARRIER);
  const char *red[] = {"llvm.nvvm.barrier0.popc", "llvm.nvvm.barrier0.and",
                       "llvm.nvvm.barrier0.or",
                       "llvm.nvvm.barrier.cta.red.or.aligned.all",
                       "llvm.nvvm.barrier.cta.red.popc.count"};
  for (size_t i = 0; i < sizeof red / sizeof *red; i++)
    assert_int_equal(aucs_nvvm_classify(red[i]), AUCS_NVVM_BARRIER_REDUCE);
  assert_true(aucs_nvvm_is_barrier(AUCS_NVVM_BARRIER_REDUCE));
  assert_false(aucs_nvvm_is_barrier(AUCS_NVVM_WARP));
  assert_int_equal(aucs_nvvm_classify("llvm.nvvm.barrier.cta.arrive.count"),
                   AUCS_NVVM_ARRIVE);
}

static void test_nvvm_warp_and_atomics(void **state) {
  (void)state;
  assert_int_equal(aucs_nvvm_classify("llvm.nvvm.shfl.sync.down.i32"),
                   AUCS_NVVM_WARP);
  assert_int_equal(aucs_nvvm_classify("llvm.nvvm.vote.ballot.sync"),
                   AUCS_NVVM_WARP);
  assert_int_equal(aucs_nvvm_classify("llvm.nvvm.activemask"), AUCS_NVVM_WARP);
  assert_int_equal(aucs_nvvm_classify("llvm.nvvm.bar.warp.sync"),
                   AUCS_NVVM_WARP);
  assert_int_equal(aucs_nvvm_classify("llvm.nvvm.atomic.add.gen.i.cta.i32.p0"),
                   AUCS_NVVM_ATOMIC);
  assert_string_equal(aucs_nvvm_origin("llvm.nvvm.atomic.cas.gen.i.sys.i32"),
                      "atomic");
}

static void test_nvvm_unknown_names(void **state) {
  (void)state;
  assert_int_equal(aucs_nvvm_classify("llvm.smax.i32"), AUCS_NVVM_NONE);
  assert_int_equal(aucs_nvvm_classify("llvm.nvvm.fabs.f"), AUCS_NVVM_NONE);
  assert_int_equal(aucs_nvvm_classify("helper"), AUCS_NVVM_NONE);
  assert_int_equal(aucs_nvvm_classify(NULL), AUCS_NVVM_NONE);
  assert_null(aucs_nvvm_origin("llvm.nvvm.barrierX"));
  assert_string_equal(aucs_nvvm_kind_name(AUCS_NVVM_BARRIER_REDUCE),
                      "barrier-reduce");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_nvvm_special_registers),
      cmocka_unit_test(test_nvvm_barriers),
      cmocka_unit_test(test_nvvm_warp_and_atomics),
      cmocka_unit_test(test_nvvm_unknown_names),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
