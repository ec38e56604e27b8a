/*
 * pch: a precompiled prelude for compiling `.cu` files against the CUDA SDK.
 *
 * With the SDK, clang's CUDA driver includes __clang_cuda_runtime_wrapper.h
 * before the source: some 100,000 lines of SDK and C++ library headers,
 * most of a small kernel's compile time (and `#include
 * <cooperative_groups.h>` adds as much again). aucs compiles the same few
 * preludes over and over, so it precompiles them once:
 *   1. The prologue of the source: its leading blank lines, comments and
 *      `#include <...>` lines, stopping at the first other line (a macro,
 *      a quoted include, code). Nothing before it can change what those
 *      headers mean but the command line.
 *   2. The key: a hash of the clang command (without output and input),
 *      the working directory (relative -I) and the prologue.
 *   3. <cache>/pch-<key>.pch, built on first use from <cache>/pch-<key>.cu
 *      (the prologue, written once) with the same command and `-Xclang
 *      -emit-pch`, into a temp file renamed in place (so concurrent builds
 *      are harmless).
 *   4. The compile gets `-Xclang -include-pch -Xclang <pch>`: the wrapper
 *      and the prologue's headers come from the PCH; their include guards
 *      make the source's own #include lines no-ops. The IR is the same.
 * clang checks a PCH against the headers it was built from (size and
 * time) and against its own version; the caller (module.c) compiles again
 * without the PCH when clang refuses it, and drops the PCH when that works.
 *
 * Limitation: the cache is never trimmed (each prelude is ~10-20 MB;
 * delete the directory to reclaim it); a header without include guards in
 * the prologue is read twice (clang then fails, and the compile falls back
 * to no PCH).
 */
#define _XOPEN_SOURCE 700
#include "aucs/pch.h"
#include "aucs/tempfiles.h"

#include "aucs/util.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* ---- the prologue ---- */

static const char *skip_blank(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
    p++;
  return p;
}

/* The start of the first comment terminator in [p, end), or NULL. */
static const char *comment_end(const char *p, const char *end) {
  for (; p + 1 < end; p++)
    if (p[0] == '*' && p[1] == '/')
      return p;
  return NULL;
}

/* If [p, end) (one line) is `#include <...>` with only blanks or a line
 * comment after it, its length up to and including '>'; else 0. */
static size_t angle_include(const char *p, const char *end) {
  const char *s = skip_blank(p, end);
  if (s == end || *s != '#')
    return 0;
  s = skip_blank(s + 1, end);
  if ((size_t)(end - s) < 7 || strncmp(s, "include", 7))
    return 0;
  s = skip_blank(s + 7, end);
  if (s == end || *s != '<')
    return 0;
  const char *close = memchr(s, '>', (size_t)(end - s));
  if (!close)
    return 0;
  const char *rest = skip_blank(close + 1, end);
  if (rest != end && !(end - rest >= 2 && rest[0] == '/' && rest[1] == '/'))
    return 0;
  return (size_t)(close + 1 - p);
}

char *aucs_pch_prologue(const char *text, size_t len) {
  aucs_buf out = {0};
  aucs_buf_puts(&out, "");
  const char *p = text, *end = text + len;
  int in_comment = 0;
  while (p < end) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *eol = nl ? nl : end;
    const char *s = skip_blank(p, eol);
    size_t inc;
    if (in_comment) {
      const char *close = comment_end(s, eol);
      if (close && skip_blank(close + 2, eol) != eol)
        break; /* code after the comment */
      in_comment = !close;
    } else if (s == eol || (eol - s >= 2 && s[0] == '/' && s[1] == '/')) {
    } else if (eol - s >= 2 && s[0] == '/' && s[1] == '*') {
      const char *close = comment_end(s + 2, eol);
      if (close && skip_blank(close + 2, eol) != eol)
        break;
      in_comment = !close;
    } else if ((inc = angle_include(p, eol))) {
      aucs_buf_printf(&out, "%.*s\n", (int)inc, p);
    } else
      break;
    p = nl ? nl + 1 : end;
  }
  return aucs_buf_take(&out);
}

/* ---- the cache ---- */

static const char *env(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

/* mkdir -p for a path of at most a few components; 0 when it is a dir. */
static int make_dirs(char *path) {
  for (char *p = path + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      mkdir(path, 0777);
      *p = '/';
    }
  struct stat st;
  return mkdir(path, 0777) && (stat(path, &st) || !S_ISDIR(st.st_mode));
}

/* The cache directory (created), or NULL. Free with free(). */
static char *cache_dir(void) {
  const char *on = env("AUCS_PCH");
  if (on && !strcmp(on, "0"))
    return NULL;
  char *dir = env("AUCS_CACHE_DIR")    ? aucs_xstrdup(env("AUCS_CACHE_DIR"))
              : env("XDG_CACHE_HOME") ? aucs_xasprintf("%s/aucs",
                                                       env("XDG_CACHE_HOME"))
              : env("HOME") ? aucs_xasprintf("%s/.cache/aucs", env("HOME"))
                            : NULL;
  if (dir && make_dirs(dir)) {
    free(dir);
    return NULL;
  }
  return dir;
}

/* s and its NUL, hashed on from h (util.h's FNV-1a step). */
static uint64_t hash_word(uint64_t h, const char *s) {
  return aucs_hash_u64(aucs_hash_text(h, s), 0);
}

/* FNV-1a of the arguments, the working directory and the prologue, from
 * FNV's own offset basis (not AUCS_HASH_SEED: the prelude's file name is
 * this key, and prelude files already built keep their names). */
static uint64_t key_of(const char *const *argv, size_t argc,
                       const char *prologue) {
  uint64_t h = 14695981039346656037ull;
  for (size_t i = 0; i < argc; i++)
    h = hash_word(h, argv[i]);
  char cwd[4096];
  if (getcwd(cwd, sizeof cwd))
    h = hash_word(h, cwd);
  return aucs_hash_text(h, prologue);
}

/* Create path with text unless it exists: a prelude built from it stays
 * valid (clang checks the time of its input files), whoever wrote it. */
static int write_once(const char *path, const char *text) {
  char *tmp = aucs_xasprintf("%s.XXXXXX", path);
  int fd = mkstemp(tmp), rc = fd < 0;
  if (!rc) {
    aucs_temp_track(tmp, 0);
    size_t n = strlen(text);
    rc = write(fd, text, n) != (ssize_t)n;
    rc |= fchmod(fd, 0644) | close(fd);
    rc = rc || (link(tmp, path) && errno != EEXIST);
    unlink(tmp);
    aucs_temp_forget(tmp);
  }
  free(tmp);
  return rc;
}

/* Run argv with no input and its output discarded; 0 when it exits 0. */
static int run_quiet(const char **argv) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  pid_t pid;
  int status = 0;
  int e = posix_spawnp(&pid, argv[0], &fa, NULL, (char *const *)argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (e)
    return 1;
  aucs_temp_track_child(pid);
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  aucs_temp_forget_child(pid);
  return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

/* Build pch from the prologue file src with argv; 0 on success. */
static int build(const char *const *argv, size_t argc, const char *src,
                 const char *pch) {
  char *tmp = aucs_xasprintf("%s.XXXXXX", pch);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    free(tmp);
    return 1;
  }
  close(fd);
  aucs_temp_track(tmp, 0);
  const char **v = aucs_xcalloc(argc + 8, sizeof *v);
  memcpy(v, argv, argc * sizeof *v);
  const char *tail[] = {"-Xclang", "-emit-pch", "-o", tmp, "--", src};
  memcpy(v + argc, tail, sizeof tail);
  int rc = run_quiet(v) || rename(tmp, pch);
  if (rc)
    unlink(tmp);
  aucs_temp_forget(tmp);
  free(v);
  free(tmp);
  return rc;
}

static char *read_source(const char *src) {
  FILE *f = fopen(src, "rb");
  if (!f)
    return NULL;
  aucs_buf b = {0};
  char chunk[65536];
  size_t n;
  aucs_buf_puts(&b, "");
  while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
    aucs_buf_printf(&b, "%.*s", (int)n, chunk);
  fclose(f);
  return aucs_buf_take(&b);
}

char *aucs_pch_get(const char *const *argv, size_t argc, const char *src) {
  char *dir = cache_dir(), *text = dir ? read_source(src) : NULL;
  if (!text) {
    free(dir);
    return NULL;
  }
  char *prologue = aucs_pch_prologue(text, strlen(text));
  unsigned long long key = key_of(argv, argc, prologue);
  char *pch = aucs_xasprintf("%s/pch-%016llx.pch", dir, key);
  char *cu = aucs_xasprintf("%s/pch-%016llx.cu", dir, key);
  if (access(pch, R_OK) &&
      (write_once(cu, prologue) || build(argv, argc, cu, pch))) {
    free(pch);
    pch = NULL;
  }
  free(cu);
  free(prologue);
  free(text);
  free(dir);
  return pch;
}

void aucs_pch_drop(const char *pch) { unlink(pch); }
