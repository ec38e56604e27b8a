/*
 * test_sources: what `aucs check` checks: command lines split like a
 * shell, compile database entries mapped to aucs's .cu options, directory
 * walks in sorted order, and the clean errors.
 */
#include "support.h"

#include "aucs/sources.h"
#include "aucs/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static void free_words(char **w, size_t n) {
  for (size_t i = 0; i < n; i++)
    free(w[i]);
  free(w);
}

static void test_sources_split_like_a_shell(void **state) {
  (void)state;
  char **w;
  size_t n = aucs_sources_split(
      "nvcc  -D'A B' \"-DC=\\\"x\\\"\" a\\ b -I\tinc ''", &w);
  assert_int_equal(n, 7);
  assert_string_equal(w[0], "nvcc");
  assert_string_equal(w[1], "-DA B");
  assert_string_equal(w[2], "-DC=\"x\"");
  assert_string_equal(w[3], "a b");
  assert_string_equal(w[4], "-I");
  assert_string_equal(w[5], "inc");
  assert_string_equal(w[6], ""); /* '' is an empty word */
  free_words(w, n);
  assert_int_equal(aucs_sources_split("", &w), 0);
  free(w);
}

static char *write_file(const char *name, const char *text) {
  char *path = aucs_xasprintf("%s/%s", AUCS_TEST_TMP, name);
  FILE *f = fopen(path, "w");
  assert_non_null(f);
  fputs(text, f);
  fclose(f);
  return path;
}

static void test_sources_compile_database_flags(void **state) {
  (void)state;
  char *db = write_file(
      "sources_db.json",
      "[{\"directory\": \"/p\", \"file\": \"k.cu\", \"command\": \"nvcc -x "
      "cu -arch sm_75 -I inc -isystem /sys -DX=1 -U Y -O3 --std=c++17 -o "
      "k.o -c k.cu\"},\n"
      " {\"directory\": \"/p\", \"file\": \"host.cpp\", \"arguments\": "
      "[\"c++\", \"-c\", \"host.cpp\"]},\n"
      " {\"directory\": \"/q\", \"file\": \"/q/sub/m.cu\", \"arguments\": "
      "[\"clang++\", \"--cuda-gpu-arch=sm_80\", \"-Iinc\", \"-c\", "
      "\"sub/m.cu\"]}]\n");
  aucs_sources l = {0};
  char *err = NULL;
  assert_int_equal(aucs_sources_add(&l, db, &err), 0);
  assert_int_equal(l.n, 2);
  assert_string_equal(l.v[0].path, "/p/k.cu");
  assert_string_equal(l.v[0].gpu_arch, "sm_75");
  const char *want[] = {"-I",    "/p/inc", "-isystem",  "/sys",
                        "-DX=1", "-UY",    "-std=c++17"};
  assert_int_equal(l.v[0].nargs, 7);
  for (size_t i = 0; i < 7; i++)
    assert_string_equal(l.v[0].args[i], want[i]);
  assert_string_equal(l.v[1].path, "/q/sub/m.cu");
  assert_string_equal(l.v[1].gpu_arch, "sm_80");
  assert_int_equal(l.v[1].nargs, 2);
  assert_string_equal(l.v[1].args[1], "/q/inc");
  aucs_sources_free(&l);
  free(db);
}

static void test_sources_walk_sorted(void **state) {
  (void)state;
  char *dir = aucs_xasprintf("%s/sources_walk", AUCS_TEST_TMP);
  char *sub = aucs_xasprintf("%s/b", dir);
  mkdir(dir, 0777);
  mkdir(sub, 0777);
  const char *files[] = {"sources_walk/c.ll", "sources_walk/a.cu",
                         "sources_walk/b/z.bc", "sources_walk/notes.txt",
                         "sources_walk/.hidden.cu"};
  for (size_t i = 0; i < 5; i++)
    free(write_file(files[i], ""));
  aucs_sources l = {0};
  char *err = NULL;
  assert_int_equal(aucs_sources_add(&l, dir, &err), 0);
  assert_int_equal(l.n, 3);
  const char *want[] = {"a.cu", "b/z.bc", "c.ll"};
  for (size_t i = 0; i < 3; i++) {
    char *path = aucs_xasprintf("%s/%s", dir, want[i]);
    assert_string_equal(l.v[i].path, path);
    assert_int_equal(l.v[i].nargs, 0);
    free(path);
  }
  aucs_sources_free(&l);
  free(sub);
  free(dir);
}

/* A walked .cu that another includes (`#include "kernels.cu"`, relative to
 * the includer's folder) is part of that translation unit, not one of its
 * own; a .cu named on the command line is always checked. */
static void test_sources_walk_leaves_out_included_cu(void **state) {
  (void)state;
  char *dir = aucs_xasprintf("%s/sources_inc", AUCS_TEST_TMP);
  char *sub = aucs_xasprintf("%s/src", dir);
  mkdir(dir, 0777);
  mkdir(sub, 0777);
  free(write_file("sources_inc/main.cu",
                  "#include <cstdio>\n  #  include \"src/kernels.cu\"\n"
                  "#include \"missing.cu\"\nint main() { return 0; }\n"));
  free(write_file("sources_inc/src/kernels.cu",
                  "#include \"../util.cuh\"\n#include \"../solo.cu.txt\"\n"
                  "__global__ void k(int *p) { p[0] = 1; }\n"));
  free(write_file("sources_inc/solo.cu", "// #include \"main.cu\"\n"));
  aucs_sources l = {0};
  char *err = NULL;
  assert_int_equal(aucs_sources_add(&l, dir, &err), 0);
  assert_int_equal(l.n, 2);
  char *main_cu = aucs_xasprintf("%s/main.cu", dir);
  char *solo = aucs_xasprintf("%s/solo.cu", dir);
  assert_string_equal(l.v[0].path, main_cu);
  assert_string_equal(l.v[1].path, solo);
  char *kernels = aucs_xasprintf("%s/kernels.cu", sub);
  assert_int_equal(aucs_sources_add(&l, kernels, &err), 0);
  assert_int_equal(l.n, 3);
  assert_string_equal(l.v[2].path, kernels);
  aucs_sources_free(&l);
  free(kernels);
  free(solo);
  free(main_cu);
  free(sub);
  free(dir);
}

static void test_sources_errors(void **state) {
  (void)state;
  aucs_sources l = {0};
  char *err = NULL;
  assert_int_not_equal(aucs_sources_add(&l, "/nonexistent/x.cu", &err), 0);
  assert_string_equal(err, "/nonexistent/x.cu: no such file or directory");
  free(err);
  char *db = write_file("sources_bad.json", "{\"file\": \"k.cu\"}\n");
  assert_int_not_equal(aucs_sources_add(&l, db, &err), 0);
  assert_non_null(strstr(err, "not a compile database"));
  free(err);
  free(db);
  db = write_file("sources_syntax.json", "[{\n");
  assert_int_not_equal(aucs_sources_add(&l, db, &err), 0);
  assert_non_null(strstr(err, "sources_syntax.json:"));
  free(err);
  free(db);
  assert_int_equal(l.n, 0);
  aucs_sources_free(&l);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sources_split_like_a_shell),
      cmocka_unit_test(test_sources_compile_database_flags),
      cmocka_unit_test(test_sources_walk_sorted),
      cmocka_unit_test(test_sources_walk_leaves_out_included_cu),
      cmocka_unit_test(test_sources_errors),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
