/*
 * test_demangle: C++ names by LLVM's demangler (passes/demangle.cpp):
 * functions without their return type, template instantiations, data,
 * clone suffixes, and NULL for what is no Itanium name.
 */
#include "support.h"

#include "aucs/demangle.h"
#include <stdlib.h>

static void expect(const char *mangled, const char *want) {
  char *got = aucs_demangle(mangled);
  if (!want) {
    assert_null(got);
    return;
  }
  assert_non_null(got);
  assert_string_equal(got, want);
  free(got);
}

static void test_demangle_functions(void **state) {
  (void)state;
  expect("_Z9block_sumPKfPfi", "block_sum(float const*, float*, int)");
  expect("_Z3addPiS_S_", "add(int*, int*, int*)");
  expect("_Z4testv", "test()");
  expect("_ZN2ns6kernelEPfj", "ns::kernel(float*, unsigned int)");
  expect("_Z3barRKiPVdb", "bar(int const&, double volatile*, bool)");
  expect("_ZN1a1b1cEPNS_1XES2_", "a::b::c(a::X*, a::X*)");
  expect("_ZNK1S3getEv", "S::get() const");
}

/* The hand-written demangler this replaced gave up on these. */
static void test_demangle_templates_without_return_type(void **state) {
  (void)state;
  expect("_ZN4cuda6kernel15hamming_matcherIjLb1EEEvPjS2_NS_6CParamIT_EES5_jj",
         "cuda::kernel::hamming_matcher<unsigned int, true>(unsigned int*, "
         "unsigned int*, cuda::CParam<unsigned int>, cuda::CParam<unsigned "
         "int>, unsigned int, unsigned int)");
  expect("_Z9block_sumILi128EEvPfPKf", "block_sum<128>(float*, float const*)");
  expect("_Z1fIiEvT_", "f<int>(int)");
}

static void test_demangle_data(void **state) {
  (void)state;
  expect("_ZN4cuda5tableE", "cuda::table");
  expect("_ZZ9block_sumPKfPfiE4smem",
         "block_sum(float const*, float*, int)::smem");
  expect("_ZZ9block_sumPKfPfiE4smem_0",
         "block_sum(float const*, float*, int)::smem");
}

static void test_demangle_clone_suffix(void **state) {
  (void)state;
  expect("_Z9block_sumILi128EEvPfPKf.cloned",
         "block_sum<128>(float*, float const*) (.cloned)");
}

static void test_demangle_not_a_name_is_null(void **state) {
  (void)state;
  expect("main", NULL);
  expect("_Z", NULL);
  expect("_Z99x", NULL);
  expect("_Z3fooS5_", NULL);
  expect(NULL, NULL);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_demangle_functions),
      cmocka_unit_test(test_demangle_templates_without_return_type),
      cmocka_unit_test(test_demangle_data),
      cmocka_unit_test(test_demangle_clone_suffix),
      cmocka_unit_test(test_demangle_not_a_name_is_null),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
