/*
 * mutate: deterministic corrupted copies of one input, for the mutation
 * test (tests/mutants.sh) and robustness measurements.
 *
 *   mutate SEED COUNT INPUT OUTDIR
 *
 * writes COUNT files OUTDIR/<stem>.<class>.<i>.<ext> (ext from INPUT). The
 * class cycles through the list for the input's kind, and every choice comes
 * from a splitmix64 stream seeded by SEED, the input's name and i, so the
 * same arguments always give the same files.
 *   bitcode (.bc): trunc (cut at a random offset), flip (1-8 random bytes
 *     replaced), dup (a chunk of 1-256 bytes copied in at another offset),
 *     splice (a chunk overwritten by another part of the file)
 *   text (.ll): trunc, line-del, line-dup, line-swap, char (one character
 *     of a line replaced by an IR punctuation mark or digit), meta (one
 *     metadata reference !N made to point at another node)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct bytes {
  char *p;
  size_t n;
} bytes;

static uint64_t state;

static uint64_t next(void) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Uniform in [0, n); n > 0. */
static size_t below(size_t n) { return (size_t)(next() % n); }

static void seed(uint64_t s, const char *name, unsigned i) {
  state = s * 1000003u + i;
  for (const char *c = name; *c; c++)
    state = state * 131 + (unsigned char)*c;
  next();
}

static bytes slurp(const char *path) {
  bytes b = {0};
  FILE *f = fopen(path, "rb");
  if (!f)
    return b;
  size_t cap = 1 << 16;
  b.p = malloc(cap);
  size_t k;
  while (b.p && (k = fread(b.p + b.n, 1, cap - b.n, f)) > 0)
    if ((b.n += k) == cap)
      b.p = realloc(b.p, cap *= 2);
  fclose(f);
  return b;
}

/* out = in[0, at) + ins[0, k) + in[at + skip, n). */
static bytes edit(bytes in, size_t at, size_t skip, const char *ins, size_t k) {
  bytes o = {malloc(in.n + k + 1), 0};
  memcpy(o.p, in.p, at);
  if (k)
    memcpy(o.p + at, ins, k);
  memcpy(o.p + at + k, in.p + at + skip, in.n - at - skip);
  o.n = in.n - skip + k;
  return o;
}

static bytes copy(bytes in) { return edit(in, 0, 0, NULL, 0); }

static bytes trunc_at(bytes in) {
  bytes o = copy(in);
  o.n = 1 + below(in.n - 1);
  return o;
}

static bytes flip(bytes in) {
  bytes o = copy(in);
  for (size_t k = 1 + below(8); k; k--)
    o.p[below(o.n)] = (char)next();
  return o;
}

static bytes dup(bytes in) {
  size_t len = 1 + below(in.n < 256 ? in.n : 256);
  size_t from = below(in.n - len + 1);
  return edit(in, below(in.n + 1), 0, in.p + from, len);
}

static bytes splice(bytes in) {
  size_t len = 1 + below(in.n < 256 ? in.n : 256);
  size_t from = below(in.n - len + 1), to = below(in.n - len + 1);
  bytes o = copy(in);
  memmove(o.p + to, in.p + from, len);
  return o;
}

/* Offsets of the starts of lines; *count of them. */
static size_t *lines(bytes in, size_t *count) {
  size_t *at = malloc((in.n + 2) * sizeof *at), n = 0;
  at[n++] = 0;
  for (size_t i = 0; i < in.n; i++)
    if (in.p[i] == '\n' && i + 1 < in.n)
      at[n++] = i + 1;
  at[n] = in.n;
  *count = n;
  return at;
}

static bytes line_op(bytes in, int op) {
  size_t n, *at = lines(in, &n), i = below(n), j = below(n);
  size_t len = at[i + 1] - at[i];
  bytes o;
  if (op == 0)
    o = edit(in, at[i], len, NULL, 0);
  else if (op == 1)
    o = edit(in, at[i], 0, in.p + at[i], len);
  else if (op == 2 && i != j) {
    size_t a = i < j ? i : j, b = i < j ? j : i;
    size_t la = at[a + 1] - at[a], lb = at[b + 1] - at[b];
    bytes t = edit(in, at[b], lb, in.p + at[a], la);
    o = edit(t, at[a], la, in.p + at[b], lb);
    free(t.p);
  } else {
    static const char marks[] = "0123456789%@!#{}()[]<>,=*:;\"\\ x-";
    o = copy(in);
    if (len)
      o.p[at[i] + below(len)] = marks[below(sizeof marks - 1)];
  }
  free(at);
  return o;
}

/* Replace the number of one "!N" reference by another in [0, 2N+8). */
static bytes meta(bytes in) {
  size_t n = 0, *refs = malloc((in.n + 1) * sizeof *refs);
  for (size_t i = 0; i + 1 < in.n; i++)
    if (in.p[i] == '!' && in.p[i + 1] >= '0' && in.p[i + 1] <= '9')
      refs[n++] = i + 1;
  if (!n) {
    free(refs);
    return copy(in);
  }
  size_t at = refs[below(n)], len = 0;
  free(refs);
  unsigned long old = strtoul(in.p + at, NULL, 10);
  while (at + len < in.n && in.p[at + len] >= '0' && in.p[at + len] <= '9')
    len++;
  char num[32];
  int k = snprintf(num, sizeof num, "%zu", below(2 * old + 8));
  return edit(in, at, len, num, (size_t)k);
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

static bytes mutate(bytes in, int text, unsigned i, const char **cls) {
  static const char *const bc[] = {"trunc", "flip", "dup", "splice"};
  static const char *const ll[] = {"trunc",     "line-del", "line-dup",
                                   "line-swap", "char",     "meta"};
  unsigned c = text ? i % 6 : i % 4;
  *cls = text ? ll[c] : bc[c];
  if (c == 0)
    return trunc_at(in);
  if (text)
    return c == 5 ? meta(in) : line_op(in, (int)c - 1);
  return c == 1 ? flip(in) : c == 2 ? dup(in) : splice(in);
}

int main(int argc, char **argv) {
  if (argc != 5) {
    fputs("usage: mutate SEED COUNT INPUT OUTDIR\n", stderr);
    return 2;
  }
  uint64_t s = strtoull(argv[1], NULL, 10);
  unsigned count = (unsigned)strtoul(argv[2], NULL, 10);
  const char *input = argv[3], *slash = strrchr(input, '/');
  const char *base = slash ? slash + 1 : input;
  bytes in = slurp(input);
  if (in.n < 2) {
    fprintf(stderr, "mutate: %s: unreadable or too small\n", input);
    return 2;
  }
  int text = ends_with(input, ".ll");
  size_t stem = strcspn(base, ".");
  for (unsigned i = 0; i < count; i++) {
    const char *cls;
    seed(s, base, i);
    bytes o = mutate(in, text, i, &cls);
    char path[4096];
    snprintf(path, sizeof path, "%s/%.*s.%s.%u.%s", argv[4], (int)stem, base,
             cls, i, text ? "ll" : "bc");
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(o.p, 1, o.n, f) != o.n || fclose(f)) {
      fprintf(stderr, "mutate: cannot write %s\n", path);
      return 2;
    }
    free(o.p);
  }
  free(in.p);
  return 0;
}
