/*
 * util: never-failing allocation, string buffers, arenas and pointer maps.
 */
#include "aucs/util.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void aucs_die(const char *file, int line, const char *what) {
  fprintf(stderr, "aucs: internal error at %s:%d: %s\n", file, line, what);
  abort();
}

static void *check(void *p) {
  if (!p) {
    fputs("aucs: out of memory\n", stderr);
    abort();
  }
  return p;
}

void *aucs_xmalloc(size_t n) { return check(malloc(n ? n : 1)); }
void *aucs_xcalloc(size_t n, size_t size) {
  return check(calloc(n ? n : 1, size ? size : 1));
}
void *aucs_xrealloc(void *p, size_t n) { return check(realloc(p, n ? n : 1)); }
char *aucs_xstrdup(const char *s) { return check(strdup(s)); }

char *aucs_xvasprintf(const char *fmt, va_list ap) {
  aucs_buf b = {0};
  aucs_buf_vprintf(&b, fmt, ap);
  return aucs_buf_take(&b);
}

char *aucs_xasprintf(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = aucs_xvasprintf(fmt, ap);
  va_end(ap);
  return s;
}

double aucs_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void reserve(aucs_buf *b, size_t extra) {
  if (b->len + extra + 1 <= b->cap)
    return;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1)
    cap *= 2;
  b->data = aucs_xrealloc(b->data, cap);
  b->cap = cap;
}

void aucs_buf_vprintf(aucs_buf *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  AUCS_ASSERT(n >= 0);
  reserve(b, (size_t)n);
  vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

void aucs_buf_printf(aucs_buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  aucs_buf_vprintf(b, fmt, ap);
  va_end(ap);
}

void aucs_buf_puts(aucs_buf *b, const char *s) {
  size_t n = strlen(s);
  reserve(b, n);
  memcpy(b->data + b->len, s, n + 1);
  b->len += n;
}

void aucs_buf_free(aucs_buf *b) {
  free(b->data);
  *b = (aucs_buf){0};
}

char *aucs_buf_take(aucs_buf *b) {
  reserve(b, 0);
  b->data[b->len] = '\0';
  char *s = b->data;
  *b = (aucs_buf){0};
  return s;
}

/* Arena: a list of chunks; big requests get a chunk of their own. */
struct chunk {
  struct chunk *next;
  size_t used, size;
  _Alignas(16) unsigned char mem[];
};

struct aucs_arena {
  struct chunk *head;
};

enum { CHUNK = 64 * 1024 };

aucs_arena *aucs_arena_new(void) { return aucs_xcalloc(1, sizeof(aucs_arena)); }

void *aucs_arena_alloc(aucs_arena *a, size_t n) {
  n = (n + 15) & ~(size_t)15;
  struct chunk *c = a->head;
  if (!c || c->size - c->used < n) {
    size_t size = n > CHUNK ? n : CHUNK;
    c = aucs_xmalloc(sizeof(struct chunk) + size);
    c->used = 0;
    c->size = size;
    c->next = a->head;
    a->head = c;
  }
  void *p = c->mem + c->used;
  c->used += n;
  memset(p, 0, n);
  return p;
}

char *aucs_arena_strdup(aucs_arena *a, const char *s) {
  size_t n = strlen(s) + 1;
  return memcpy(aucs_arena_alloc(a, n), s, n);
}

void aucs_arena_free(aucs_arena *a) {
  if (!a)
    return;
  for (struct chunk *c = a->head, *next; c; c = next) {
    next = c->next;
    free(c);
  }
  free(a);
}

/* Pointer map: linear probing, keys hashed by a multiplicative mix. */
static size_t slot(const aucs_ptrmap *m, const void *key) {
  uint64_t h = (uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull;
  return (size_t)(h >> 17) & (m->cap - 1);
}

static void grow(aucs_ptrmap *m) {
  aucs_ptrmap n = {0};
  n.cap = m->cap ? m->cap * 2 : 64;
  n.keys = aucs_xcalloc(n.cap, sizeof(*n.keys));
  n.vals = aucs_xcalloc(n.cap, sizeof(*n.vals));
  for (size_t i = 0; i < m->cap; i++)
    if (m->keys[i])
      aucs_ptrmap_put(&n, m->keys[i], m->vals[i]);
  aucs_ptrmap_free(m);
  *m = n;
}

void aucs_ptrmap_put(aucs_ptrmap *m, const void *key, intptr_t val) {
  AUCS_ASSERT(key);
  if ((m->len + 1) * 2 > m->cap)
    grow(m);
  size_t i = slot(m, key);
  while (m->keys[i] && m->keys[i] != key)
    i = (i + 1) & (m->cap - 1);
  if (!m->keys[i])
    m->len++;
  m->keys[i] = key;
  m->vals[i] = val;
}

int aucs_ptrmap_get(const aucs_ptrmap *m, const void *key, intptr_t *val) {
  if (!m->cap)
    return 0;
  for (size_t i = slot(m, key); m->keys[i]; i = (i + 1) & (m->cap - 1))
    if (m->keys[i] == key) {
      if (val)
        *val = m->vals[i];
      return 1;
    }
  return 0;
}

void aucs_ptrmap_free(aucs_ptrmap *m) {
  free(m->keys);
  free(m->vals);
  *m = (aucs_ptrmap){0};
}

uint64_t aucs_hash_text(uint64_t h, const char *s) {
  for (; *s; s++)
    h = aucs_hash_u64(h, (unsigned char)*s);
  return h;
}

int aucs_parse_u64(const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  if (!s || *s < '0' || *s > '9')
    return -1;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno || *end)
    return -1;
  *out = v;
  return 0;
}

void aucs_buf_shell_word(aucs_buf *b, const char *word) {
  const char *safe = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                     "0123456789_./=,+-:@%";
  if (*word && strspn(word, safe) == strlen(word)) {
    aucs_buf_printf(b, " %s", word);
    return;
  }
  aucs_buf_puts(b, " '");
  for (const char *c = word; *c; c++)
    aucs_buf_puts(b, *c == '\'' ? "'\\''" : (char[]){*c, 0});
  aucs_buf_puts(b, "'");
}

/* ---- reading a user's file ---------------------------------------------*/

int aucs_read_fd(int fd, size_t max, char **data_out, size_t *len_out) {
  size_t cap = 65536, len = 0;
  char *data = aucs_xmalloc(cap + 1);
  for (;;) {
    if (len > max) {
      free(data);
      return EFBIG;
    }
    if (len == cap)
      data = aucs_xrealloc(data, (cap *= 2) + 1);
    ssize_t n = read(fd, data + len, cap - len);
    if (n == 0)
      break;
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      int e = errno;
      free(data);
      return e;
    }
    len += (size_t)n;
  }
  data[len] = '\0';
  *data_out = data;
  *len_out = len;
  return 0;
}

static const char *kind_name(mode_t mode) {
  return S_ISDIR(mode)    ? "is a directory"
         : S_ISFIFO(mode) ? "is a FIFO"
         : S_ISCHR(mode)  ? "is a character device"
         : S_ISBLK(mode)  ? "is a block device"
         : S_ISSOCK(mode) ? "is a socket"
                          : "is not a regular file";
}

char *aucs_errno_text(const char *path, const char *what, int e) {
  char msg[128];
  snprintf(msg, sizeof msg, "%s", strerror(e));
  msg[0] = (char)(msg[0] >= 'A' && msg[0] <= 'Z' ? msg[0] - 'A' + 'a' : msg[0]);
  return what ? aucs_xasprintf("%s: %s: %s", path, what, msg)
              : aucs_xasprintf("%s: %s", path, msg);
}

int aucs_read_regular(const char *path, size_t max, const char *kind,
                      const char *option, char **data, size_t *len,
                      char **err) {
  int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0)
    return *err = aucs_errno_text(path, NULL, errno), 1;
  struct stat st;
  int e = fstat(fd, &st) ? errno : 0;
  if (!e && !S_ISREG(st.st_mode))
    *err = aucs_xasprintf("%s: %s, not %s", path, kind_name(st.st_mode), kind);
  else if (!e && (uintmax_t)st.st_size > max)
    *err = aucs_xasprintf("%s: %jd bytes, more than the input limit of %zu "
                          "bytes (%s)",
                          path, (intmax_t)st.st_size, max, option);
  else if (!e && (e = aucs_read_fd(fd, max, data, len)) == EFBIG)
    *err = aucs_xasprintf("%s: more than the input limit of %zu bytes (%s)",
                          path, max, option);
  else if (e)
    *err = aucs_errno_text(path, "cannot read", e);
  else
    *err = NULL;
  close(fd);
  return *err != NULL;
}

int aucs_quoted_include(const char *line, const char **name, size_t *len) {
  const char *w = line + strspn(line, " \t");
  if (*w++ != '#')
    return 0;
  w += strspn(w, " \t");
  if (strncmp(w, "include", 7))
    return 0;
  w += 7 + strspn(w + 7, " \t");
  const char *end = *w == '"' ? strchr(w + 1, '"') : NULL;
  const char *eol = strchr(w, '\n');
  if (!end || (eol && end > eol))
    return 0;
  *name = w + 1;
  *len = (size_t)(end - w - 1);
  return 1;
}
