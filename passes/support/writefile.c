/*
 * writefile: every output aucs writes (the repaired module, the source
 * patch, a check report) goes through aucs_write_file, so each is written
 * the same way:
 *   - a regular file (or a new name) is replaced atomically: a temp file
 *     beside it (tracked, so a signal removes it), keeping an existing
 *     file's mode, then rename();
 *   - a device or a FIFO (`-o /dev/null`, a pipe) is written through, never
 *     created, truncated or replaced;
 *   - a directory is refused;
 *   - a symbolic link stays one: the file it resolves to is written.
 */
#define _XOPEN_SOURCE 700 /* realpath */

#include "aucs/tempfiles.h"
#include "aucs/util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* rename */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* "<dir>/.<base>.XXXXXX", beside path so that rename() stays atomic. */
static char *sibling_template(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash)
    return aucs_xasprintf(".%s.XXXXXX", path);
  return aucs_xasprintf("%.*s/.%s.XXXXXX", (int)(slash - path), path,
                        slash + 1);
}

static int write_all(int fd, const char *p, size_t n) {
  while (n) {
    ssize_t k = write(fd, p, n);
    if (k < 0 && errno == EINTR)
      continue;
    if (k < 0)
      return errno;
    p += k;
    n -= (size_t)k;
  }
  return 0;
}

/* An existing file keeps its mode; a new one gets 0644. */
static mode_t mode_for(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 ? st.st_mode & 07777 : 0644;
}

static int write_atomic(const char *path, const char *data, size_t len) {
  char *tmp = sibling_template(path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    int e = errno;
    free(tmp);
    return e;
  }
  aucs_temp_track(tmp, 0);
  fchmod(fd, mode_for(path));
  int e = write_all(fd, data, len);
  if (close(fd) && !e)
    e = errno;
  if (!e && rename(tmp, path))
    e = errno;
  if (e)
    unlink(tmp);
  aucs_temp_forget(tmp);
  free(tmp);
  return e;
}

/* A device or FIFO: written into, never created, truncated or replaced. */
static int write_through(const char *path, const char *data, size_t len) {
  int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return errno;
  int e = write_all(fd, data, len);
  if (close(fd) && !e)
    e = errno;
  return e;
}

static int write_to(const char *path, const char *data, size_t len) {
  struct stat st;
  if (stat(path, &st) != 0 || S_ISREG(st.st_mode))
    return write_atomic(path, data, len);
  if (S_ISDIR(st.st_mode))
    return EISDIR;
  return write_through(path, data, len);
}

int aucs_write_file(const char *path, const void *data, size_t len,
                    char **err) {
  *err = NULL;
  struct stat st;
  int e;
  if (lstat(path, &st) != 0 || !S_ISLNK(st.st_mode)) {
    e = write_to(path, data, len);
  } else {
    char *target = realpath(path, NULL);
    if (!target && errno == ENOENT) {
      *err = aucs_xasprintf("%s: cannot write: a symbolic link to a missing "
                            "file",
                            path);
      return 1;
    }
    e = target ? write_to(target, data, len) : errno;
    free(target);
  }
  return e ? (*err = aucs_errno_text(path, "cannot write", e), 1) : 0;
}
