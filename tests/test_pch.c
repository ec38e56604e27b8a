/*
 * test_pch: the prologue a precompiled prelude covers (pch.h): the leading
 * blank lines, comments and `#include <...>` lines of a source, and nothing
 * from the first line that could change what a later header means.
 */
#include "support.h"

#include "aucs/pch.h"
#include <stdlib.h>
#include <string.h>

static void expect_prologue(const char *src, const char *want) {
  char *got = aucs_pch_prologue(src, strlen(src));
  assert_string_equal(got, want);
  free(got);
}

static void test_pch_includes_after_comments(void **state) {
  (void)state;
  expect_prologue("/* licence\n * text */\n// origin: x\n\n"
                  "#include <cooperative_groups.h>\n"
                  "  #  include <stdio.h> // printf\n"
                  "namespace cg = cooperative_groups;\n"
                  "#include <math.h>\n",
                  "#include <cooperative_groups.h>\n"
                  "  #  include <stdio.h>\n");
}

static void test_pch_stops_at_a_macro(void **state) {
  (void)state;
  expect_prologue("#include <stdio.h>\n#define N 4\n#include <math.h>\n",
                  "#include <stdio.h>\n");
  expect_prologue("#define BLOCK 16\n#include <stdio.h>\n", "");
}

static void test_pch_stops_at_a_quoted_include(void **state) {
  (void)state;
  expect_prologue("#include \"local.h\"\n#include <stdio.h>\n", "");
}

static void test_pch_stops_at_code_after_a_comment(void **state) {
  (void)state;
  expect_prologue("/* a */ int x;\n#include <stdio.h>\n", "");
  expect_prologue("/* a\n b */ int x;\n#include <stdio.h>\n", "");
  expect_prologue("#include <stdio.h> int x;\n", "");
}

static void test_pch_empty_and_unterminated(void **state) {
  (void)state;
  expect_prologue("", "");
  expect_prologue("#include <stdio.h>", "#include <stdio.h>\n");
  expect_prologue("#include <stdio.h\n", "");
  expect_prologue("/* never closed\n#include <stdio.h>\n", "");
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_pch_includes_after_comments),
      cmocka_unit_test(test_pch_stops_at_a_macro),
      cmocka_unit_test(test_pch_stops_at_a_quoted_include),
      cmocka_unit_test(test_pch_stops_at_code_after_a_comment),
      cmocka_unit_test(test_pch_empty_and_unterminated),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
