/*
 * test_sandbox: work in a forked child (results, messages, crashes, LLVM
 * fatal errors, time limits), and loading with `isolate` and the input
 * limits (non-regular files, sizes) that the CLI relies on.
 */
#include "support.h"

#include "aucs/module.h"
#include "aucs/sandbox.h"
#include "aucs/util.h"

#include <llvm-c/IRReader.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* A module with debug info whose verification fails: LLVM's IR reader ends
 * such a module with report_fatal_error("Broken module found"). */
static const char *broken_ll =
    "target triple = \"nvptx64-nvidia-cuda\"\n"
    "define ptx_kernel void @k() {\n"
    "entry:\n"
    "  br label %entry\n"
    "}\n"
    "!llvm.module.flags = !{!0}\n"
    "!0 = !{i32 2, !\"Debug Info Version\", i32 3}\n";

static const char *kernel_ll = "target triple = \"nvptx64-nvidia-cuda\"\n"
                               "define ptx_kernel void @k(ptr %p) {\n"
                               "entry:\n"
                               "  store i32 1, ptr %p\n"
                               "  ret void\n"
                               "}\n";

/* ---- the work children do ---- */

static int writes_hello(void *arg, int fd, char **msg) {
  (void)arg;
  (void)msg;
  return write(fd, "hello", 5) != 5;
}

static int says_no(void *arg, int fd, char **msg) {
  (void)arg;
  (void)fd;
  *msg = aucs_xstrdup("no, because");
  return 1;
}

static int segfaults(void *arg, int fd, char **msg) {
  (void)arg;
  (void)fd;
  (void)msg;
  raise(SIGSEGV);
  return 0;
}

static int parses_broken_ir(void *arg, int fd, char **msg) {
  (void)fd;
  LLVMContextRef ctx = LLVMContextCreate();
  LLVMMemoryBufferRef buf =
      LLVMCreateMemoryBufferWithMemoryRangeCopy(arg, strlen(arg), "broken.ll");
  LLVMModuleRef m = NULL;
  LLVMParseIRInContext(ctx, buf, &m, msg);
  return 0; /* not reached: the reader calls the fatal error handler */
}

static int sleeps(void *arg, int fd, char **msg) {
  (void)arg;
  (void)fd;
  (void)msg;
  nanosleep(&(struct timespec){5, 0}, NULL);
  return 0;
}

static char *run(aucs_sandbox_fn fn, void *arg, double seconds, int want) {
  aucs_sandbox_limits lim = {.seconds = seconds};
  char *out = NULL, *why = NULL;
  size_t len = 0;
  int rc = aucs_sandbox_run(fn, arg, &lim, &out, &len, &why);
  assert_int_equal(rc != 0, want != 0);
  if (!rc) {
    assert_null(why);
    return out;
  }
  assert_null(out);
  assert_non_null(why);
  return why;
}

/* ---- the sandbox ---- */

static void test_sandbox_returns_output(void **state) {
  (void)state;
  char *out = run(writes_hello, NULL, 0, 0);
  assert_string_equal(out, "hello");
  free(out);
}

static void test_sandbox_returns_message(void **state) {
  (void)state;
  char *why = run(says_no, NULL, 0, 1);
  assert_string_equal(why, "no, because");
  free(why);
}

static void test_sandbox_survives_a_crash(void **state) {
  (void)state;
  char *why = run(segfaults, NULL, 0, 1);
  /* under AddressSanitizer the child reports SEGV itself and exits */
  assert_true(strstr(why, "crashed (signal 11") || strstr(why, "failed"));
  free(why);
}

static void test_sandbox_turns_llvm_fatal_error_into_message(void **state) {
  (void)state;
  char *why = run(parses_broken_ir, (void *)broken_ll, 0, 1);
  assert_non_null(strstr(why, "LLVM error: Broken module found"));
  assert_non_null(strstr(why, "Entry block to function must not have"));
  free(why);
}

static void test_sandbox_kills_at_time_limit(void **state) {
  (void)state;
  char *why = run(sleeps, NULL, 0.2, 1);
  assert_string_equal(why, "took longer than 0.2 s");
  free(why);
}

#if defined(__SANITIZE_ADDRESS__)
#define ASAN_BUILD 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ASAN_BUILD 1
#endif
#endif

#ifndef ASAN_BUILD
static int allocates_16g(void *arg, int fd, char **msg) {
  (void)arg;
  (void)fd;
  void *p = malloc((size_t)16 << 30);
  *msg = aucs_xstrdup(p ? "allowed" : "refused");
  free(p);
  return 1;
}

#endif

static void test_sandbox_limits_memory(void **state) {
  (void)state;
#ifdef ASAN_BUILD
  skip(); /* no RLIMIT_AS under AddressSanitizer */
#else
  aucs_sandbox_limits lim = {.memory_bytes = (size_t)256 << 20};
  char *out = NULL, *why = NULL;
  size_t len;
  assert_int_not_equal(
      aucs_sandbox_run(allocates_16g, NULL, &lim, &out, &len, &why), 0);
  assert_string_equal(why, "refused");
  free(why);
#endif
}

/* ---- loading through it ---- */

static char *load_err(const char *path, const aucs_load_options *o) {
  aucs_module *m = NULL;
  char *err = NULL;
  assert_int_not_equal(aucs_module_load(path, o, &m, &err), 0);
  assert_null(m);
  assert_non_null(err);
  assert_null(strchr(err, '\n'));
  assert_memory_equal(err, path, strlen(path));
  return err;
}

static void test_sandbox_isolated_load_reports_broken_module(void **state) {
  (void)state;
  char *path = support_write_file("sb_broken.ll", broken_ll, strlen(broken_ll));
  aucs_load_options o = {.isolate = 1};
  char *err = load_err(path, &o);
  assert_non_null(strstr(err, ": corrupt input: LLVM error: Broken module"));
  free(err);
  free(path);
}

static void test_sandbox_isolated_load_keeps_the_module(void **state) {
  (void)state;
  char *path = support_write_file("sb_ok.ll", kernel_ll, strlen(kernel_ll));
  aucs_load_options o = {.isolate = 1};
  aucs_module *m = NULL;
  char *err = NULL;
  assert_int_equal(aucs_module_load(path, &o, &m, &err), 0);
  LLVMModuleRef mod = aucs_module_llvm(m);
  size_t len;
  assert_string_equal(LLVMGetModuleIdentifier(mod, &len), path);
  LLVMValueRef k = LLVMGetNamedFunction(mod, "k");
  assert_non_null(k);
  assert_int_equal(LLVMGetFunctionCallConv(k), LLVMPTXKernelCallConv);
  aucs_module_free(m);
  free(path);
}

static void test_sandbox_isolated_load_keeps_parse_errors(void **state) {
  (void)state;
  const char *bad = "target triple = \"nvptx64-nvidia-cuda\"\nnonsense\n";
  char *path = support_write_file("sb_bad.ll", bad, strlen(bad));
  aucs_load_options o = {.isolate = 1};
  char *err = load_err(path, &o);
  assert_non_null(strstr(err, ": invalid IR: 2:1: "));
  free(err);
  free(path);
}

static void test_sandbox_load_refuses_fifo(void **state) {
  (void)state;
  char *path = aucs_xasprintf("%s/sb_fifo.ll", AUCS_TEST_TMP);
  unlink(path);
  assert_int_equal(mkfifo(path, 0600), 0);
  char *err = load_err(path, NULL); /* must not block in open() */
  assert_non_null(strstr(err, ": is a FIFO, not a kernel file"));
  free(err);
  unlink(path);
  free(path);
}

static void test_sandbox_load_refuses_device(void **state) {
  (void)state;
  char *err = load_err("/dev/zero", NULL);
  assert_string_equal(err,
                      "/dev/zero: is a character device, not a kernel file");
  free(err);
}

static void test_sandbox_load_refuses_input_over_limit(void **state) {
  (void)state;
  char *path = support_write_file("sb_big.ll", kernel_ll, strlen(kernel_ll));
  aucs_load_options o = {.max_input_size = 16};
  char *err = load_err(path, &o);
  assert_non_null(strstr(err, "more than the input limit of 16 bytes"));
  free(err);
  o.max_input_size = strlen(kernel_ll);
  aucs_module *m = NULL;
  assert_int_equal(aucs_module_load(path, &o, &m, &err), 0);
  aucs_module_free(m);
  free(path);
}

int main(void) {
  const struct CMUnitTest tests[] = {
      cmocka_unit_test(test_sandbox_returns_output),
      cmocka_unit_test(test_sandbox_returns_message),
      cmocka_unit_test(test_sandbox_survives_a_crash),
      cmocka_unit_test(test_sandbox_turns_llvm_fatal_error_into_message),
      cmocka_unit_test(test_sandbox_kills_at_time_limit),
      cmocka_unit_test(test_sandbox_limits_memory),
      cmocka_unit_test(test_sandbox_isolated_load_reports_broken_module),
      cmocka_unit_test(test_sandbox_isolated_load_keeps_the_module),
      cmocka_unit_test(test_sandbox_isolated_load_keeps_parse_errors),
      cmocka_unit_test(test_sandbox_load_refuses_fifo),
      cmocka_unit_test(test_sandbox_load_refuses_device),
      cmocka_unit_test(test_sandbox_load_refuses_input_over_limit),
  };
  return cmocka_run_group_tests(tests, NULL, NULL);
}
