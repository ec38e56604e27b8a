/*
 * util: memory that never fails, a growable string buffer, a bump arena
 * and a pointer-keyed hash map. Everything else in aucs builds on these.
 *
 * Allocation failure aborts with a message: callers never check for NULL.
 * Internal invariant violations go through AUCS_ASSERT, which aborts with
 * file and line (STYLE.md, error channel 3).
 */
#ifndef AUCS_UTIL_H
#define AUCS_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#define AUCS_PRINTF(f, a) __attribute__((format(printf, f, a)))
#define AUCS_NORETURN __attribute__((noreturn))
#else
#define AUCS_PRINTF(f, a)
#define AUCS_NORETURN
#endif

AUCS_NORETURN void aucs_die(const char *file, int line, const char *what);
#define AUCS_ASSERT(c)                                                         \
  ((c) ? (void)0 : aucs_die(__FILE__, __LINE__, "assertion failed: " #c))

void *aucs_xmalloc(size_t n);
void *aucs_xcalloc(size_t n, size_t size);
void *aucs_xrealloc(void *p, size_t n);
char *aucs_xstrdup(const char *s);
/* A formatted string; free with free(). */
char *aucs_xasprintf(const char *fmt, ...) AUCS_PRINTF(1, 2);
char *aucs_xvasprintf(const char *fmt, va_list ap);

/* Seconds on the monotonic clock, for measuring durations. */
double aucs_seconds(void);
/* Decimal digits only (no sign, spaces, 0x or leading-0 octal) into *out:
 * 0 on success, -1 when s is not such a number or overflows. */
int aucs_parse_u64(const char *s, uint64_t *out);

/* When line (up to its newline) is `#include "NAME"`, blanks allowed
 * around `#`: 1 with *name and *len pointing at NAME inside line; else 0. */
int aucs_quoted_include(const char *line, const char **name, size_t *len);

/* The whole of path, which must be a regular file of at most max bytes,
 * into *data (NUL-terminated; free with free()) and *len. A FIFO, device,
 * socket or directory is refused before anything is read (opened with
 * O_NONBLOCK, then fstat), so nothing blocks or reads without end. 0 on
 * success; nonzero with *err, one line naming the file (free with free()):
 * "PATH: is a FIFO, not KIND", "PATH: N bytes, more than the input limit
 * of MAX bytes (OPTION)", "PATH: no such file or directory". */
int aucs_read_regular(const char *path, size_t max, const char *kind,
                      const char *option, char **data, size_t *len, char **err);
/* fd read to its end into *data (NUL-terminated; free with free()) and
 * *len: 0, EFBIG past max bytes, or read's errno. */
int aucs_read_fd(int fd, size_t max, char **data, size_t *len);

/* "PATH: WHAT: strerror(e)", or "PATH: strerror(e)" when what is NULL,
 * the message lower-cased like the rest of ours. Free with free(). */
char *aucs_errno_text(const char *path, const char *what, int e);
/* data (len bytes) written to path (passes/support/writefile.c): a
 * regular file or new name replaced atomically (temp file beside it, its
 * mode kept, rename), a device or FIFO written through, a directory
 * refused, a symbolic link's target written. 0 on success; nonzero with
 * *err, one line (free with free()): "PATH: cannot write: REASON". */
int aucs_write_file(const char *path, const void *data, size_t len,
                    char **err);

/* Growable NUL-terminated string. Zero-initialise; free with aucs_buf_free. */
typedef struct aucs_buf {
  char *data;
  size_t len, cap;
} aucs_buf;
void aucs_buf_printf(aucs_buf *b, const char *fmt, ...) AUCS_PRINTF(2, 3);
void aucs_buf_vprintf(aucs_buf *b, const char *fmt, va_list ap);
void aucs_buf_puts(aucs_buf *b, const char *s);
/* Append " word", quoted for a POSIX shell when it needs it. */
void aucs_buf_shell_word(aucs_buf *b, const char *word);
void aucs_buf_free(aucs_buf *b);
/* Hands the string to the caller (free with free()) and resets b. */
char *aucs_buf_take(aucs_buf *b);

/* Bump allocator: everything allocated is freed at once by aucs_arena_free. */
typedef struct aucs_arena aucs_arena;
aucs_arena *aucs_arena_new(void);
void *aucs_arena_alloc(aucs_arena *a, size_t n); /* zeroed, 16-byte aligned */
char *aucs_arena_strdup(aucs_arena *a, const char *s);
void aucs_arena_free(aucs_arena *a);
#define AUCS_ANEW(a, T, n) ((T *)aucs_arena_alloc((a), sizeof(T) * (size_t)(n)))

/* Open-addressing map from a non-NULL pointer to an intptr_t. Zero-initialise;
 * free with aucs_ptrmap_free. */
typedef struct aucs_ptrmap {
  const void **keys;
  intptr_t *vals;
  size_t cap, len;
} aucs_ptrmap;
void aucs_ptrmap_put(aucs_ptrmap *m, const void *key, intptr_t val);
/* 1 and *val set when key is present, 0 otherwise (val may be NULL). */
int aucs_ptrmap_get(const aucs_ptrmap *m, const void *key, intptr_t *val);
void aucs_ptrmap_free(aucs_ptrmap *m);

/* FNV-1a of the bytes of s, from h (start with AUCS_HASH_SEED): the string
 * hash of the caches and indexes (qcache's table, qkey's structure hash,
 * the static checker's query index, the repair's finding index). The seed
 * is every user's since the first; changing it moves no answer, only where
 * entries sit (and qkey's order of equal-structure ties). */
#define AUCS_HASH_SEED 1469598103934665603ull
uint64_t aucs_hash_text(uint64_t h, const char *s);
/* The same step for one 64-bit value. */
static inline uint64_t aucs_hash_u64(uint64_t h, uint64_t v) {
  return (h ^ v) * 1099511628211ull;
}

#endif
