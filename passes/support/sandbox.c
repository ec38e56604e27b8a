/*
 * sandbox: work in a forked child under limits (see aucs/sandbox.h).
 *
 *   1. Make three unlinked temp files: the child's result, its message and
 *      its stderr (files, not pipes: nothing can block on a full pipe).
 *   2. Fork. The child sets RLIMIT_CORE 0, RLIMIT_AS (the parent's size plus
 *      the limit), RLIMIT_CPU (a backstop for the wall clock), resets the
 *      crash signals to their defaults, points LLVM's fatal error handler
 *      at its message file, runs the work and _exits.
 *   3. The parent polls waitpid until the child ends or the wall clock runs
 *      out (then SIGKILL), and turns the outcome into bytes or one line.
 *
 * Limitation: see the header (fork; no RLIMIT_AS under AddressSanitizer).
 */
#include "aucs/sandbox.h"

#include "aucs/util.h"

#include <llvm-c/ErrorHandling.h>

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define AUCS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define AUCS_ASAN 1
#endif
#endif

enum { F_OUT, F_MSG, F_ERR, N_FILES };
enum { EXIT_FAILED = 1, EXIT_FATAL = 3 }; /* the child's, besides 0 */

/* The child's message file, for the fatal error handler (child only). */
static int child_msg_fd = -1;

static void put(int fd, const char *s) {
  size_t n = strlen(s);
  while (n) {
    ssize_t k = write(fd, s, n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      return;
    s += k;
    n -= (size_t)k;
  }
}

static void on_fatal(const char *reason) {
  put(child_msg_fd, "LLVM error: ");
  put(child_msg_fd, reason);
  _exit(EXIT_FATAL);
}

/* The parent's address space in bytes, 0 when unknown. */
static size_t own_size(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  unsigned long pages = 0;
  if (!f)
    return 0;
  if (fscanf(f, "%lu", &pages) != 1)
    pages = 0;
  fclose(f);
  return (size_t)pages * (size_t)sysconf(_SC_PAGESIZE);
}

static void limit(int resource, rlim_t soft, rlim_t hard) {
  struct rlimit r = {soft, hard};
  setrlimit(resource, &r);
}

static void set_limits(const aucs_sandbox_limits *lim, size_t base) {
  limit(RLIMIT_CORE, 0, 0);
  rlim_t cpu = (rlim_t)lim->seconds + 2;
  limit(RLIMIT_CPU, cpu, cpu + 1);
#ifndef AUCS_ASAN
  if (base)
    limit(RLIMIT_AS, base + lim->memory_bytes, base + lim->memory_bytes);
#else
  (void)base;
#endif
}

/* Crash signals end the child plainly: no handler of the parent's (LLVM's
 * stack printer, a sanitizer's or a fuzzer's report) runs in it. */
static void default_crash_signals(void) {
  static const int sigs[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTRAP};
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++)
    signal(sigs[i], SIG_DFL);
}

AUCS_NORETURN static void child(aucs_sandbox_fn fn, void *arg,
                                const aucs_sandbox_limits *lim, size_t base,
                                const int *fds) {
  dup2(fds[F_ERR], 1);
  dup2(fds[F_ERR], 2);
  set_limits(lim, base);
  default_crash_signals();
  child_msg_fd = fds[F_MSG];
  LLVMResetFatalErrorHandler();
  LLVMInstallFatalErrorHandler(on_fatal);
  char *msg = NULL;
  int rc = fn(arg, fds[F_OUT], &msg);
  if (rc)
    put(fds[F_MSG], msg && *msg ? msg : "failed");
  _exit(rc ? EXIT_FAILED : 0);
}

/* Wait for pid at most `seconds`; 1 when it had to be killed. */
static int wait_limited(pid_t pid, double seconds, int *status) {
  double end = aucs_seconds() + seconds;
  long ns = 100000;
  for (;;) {
    pid_t r = waitpid(pid, status, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR))
      return 0;
    if (aucs_seconds() > end) {
      kill(pid, SIGKILL);
      while (waitpid(pid, status, 0) < 0 && errno == EINTR)
        ;
      return 1;
    }
    nanosleep(&(struct timespec){0, ns}, NULL);
    ns = ns < 10000000 ? ns * 2 : ns;
  }
}

/* Everything in fd from its start; *len bytes, NUL-terminated. */
static char *slurp(int fd, size_t *len) {
  size_t cap = 4096, n = 0;
  char *data = aucs_xmalloc(cap + 1);
  lseek(fd, 0, SEEK_SET);
  for (;;) {
    if (n == cap)
      data = aucs_xrealloc(data, (cap *= 2) + 1);
    ssize_t k = read(fd, data + n, cap - n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k <= 0)
      break;
    n += (size_t)k;
  }
  data[n] = '\0';
  *len = n;
  return data;
}

/* The first line of the child's stderr that names a fatal error, if any. */
static char *fatal_line(int err_fd) {
  size_t n;
  char *text = slurp(err_fd, &n), *found = NULL;
  static const char *const marks[] = {"LLVM ERROR: ", "out of memory"};
  for (size_t i = 0; !found && i < sizeof marks / sizeof *marks; i++) {
    char *at = strstr(text, marks[i]);
    if (at)
      found = aucs_xasprintf("%.*s", (int)strcspn(at, "\n"), at);
  }
  free(text);
  return found;
}

/* An LLVM fatal error, with what LLVM printed first (the verifier's
 * complaint behind "Broken module found"). */
static char *fatal_message(char *msg, int err_fd) {
  size_t n;
  char *text = slurp(err_fd, &n);
  size_t len = strcspn(text, "\n");
  char *why = len && strncmp(text, "LLVM ERROR", 10)
                  ? aucs_xasprintf("%s (%.*s)", msg, (int)len, text)
                  : aucs_xstrdup(msg);
  free(text);
  free(msg);
  return why;
}

static char *describe(int status, int timed_out, const aucs_sandbox_limits *lim,
                      const int *fds) {
  size_t n;
  if (timed_out)
    return aucs_xasprintf("took longer than %g s", lim->seconds);
  if (WIFEXITED(status)) {
    char *msg = slurp(fds[F_MSG], &n);
    if (n && WEXITSTATUS(status) == EXIT_FATAL)
      return fatal_message(msg, fds[F_ERR]);
    if (n)
      return msg;
    free(msg);
    msg = fatal_line(fds[F_ERR]);
    return msg ? msg : aucs_xasprintf("failed (exit %d)", WEXITSTATUS(status));
  }
  int sig = WTERMSIG(status);
  char *fatal = fatal_line(fds[F_ERR]);
  char *why =
      sig == SIGXCPU
          ? aucs_xasprintf("took longer than %g s of CPU", lim->seconds)
      : fatal ? aucs_xasprintf("%s (signal %d)", fatal, sig)
              : aucs_xasprintf("crashed (signal %d, %s)", sig, strsignal(sig));
  free(fatal);
  return why;
}

static void close_files(FILE **files) {
  for (int i = 0; i < N_FILES; i++)
    if (files[i])
      fclose(files[i]);
}

int aucs_sandbox_run(aucs_sandbox_fn fn, void *arg,
                     const aucs_sandbox_limits *lim_in, char **out,
                     size_t *out_len, char **why) {
  aucs_sandbox_limits lim = lim_in ? *lim_in : (aucs_sandbox_limits){0};
  lim.seconds = lim.seconds > 0 ? lim.seconds : 60;
  lim.memory_bytes = lim.memory_bytes ? lim.memory_bytes : (size_t)4 << 30;
  *out = NULL;
  *out_len = 0;
  *why = NULL;
  FILE *files[N_FILES] = {0};
  int fds[N_FILES];
  for (int i = 0; i < N_FILES; i++) {
    if (!(files[i] = tmpfile())) {
      *why = aucs_xasprintf("cannot create a temp file: %s", strerror(errno));
      return close_files(files), 1;
    }
    fds[i] = fileno(files[i]);
  }
  size_t base = own_size();
  fflush(NULL);
  pid_t pid = fork();
  if (pid < 0) {
    *why = aucs_xasprintf("cannot fork: %s", strerror(errno));
    return close_files(files), 1;
  }
  if (pid == 0)
    child(fn, arg, &lim, base, fds);
  int status = 0, timed_out = wait_limited(pid, lim.seconds, &status);
  int ok = !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (ok)
    *out = slurp(fds[F_OUT], out_len);
  else
    *why = describe(status, timed_out, &lim, fds);
  close_files(files);
  return !ok;
}
