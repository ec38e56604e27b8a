/*
 * sources: files, directories and compile databases to the list of files
 * `aucs check` checks (see sources.h).
 *
 * Steps: stat the path; a directory is read with scandir, its entries
 * sorted by strcmp (not the locale) and walked depth first; a ".json" file
 * is a compile database: each entry's words (its "arguments", else its
 * "command" split like a shell) are filtered to the flags aucs maps;
 * anything else is one file. A walked folder's .cu that another .cu of it
 * includes (`#include "kernels.cu"`) is a fragment of that translation
 * unit, not one of its own: it is left out (checked through its includer).
 *
 * Limitation: symbolic links are followed, to a depth of 32 directories; a
 * file reached twice (two links, or a database listing it twice) is checked
 * twice.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "aucs/sources.h"

#include "aucs/util.h"
#include <dirent.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

enum { MAX_DEPTH = 32 };

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && !strcmp(s + n - k, suffix);
}

/* path relative to the working directory when it is under it. */
static char *shown(const char *path) {
  char cwd[4096];
  size_t n = getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
  if (n > 1 && !strncmp(path, cwd, n) && path[n] == '/' && path[n + 1])
    return aucs_xstrdup(path + n + 1);
  return aucs_xstrdup(path);
}

static char *join(const char *dir, const char *name) {
  if (name[0] == '/' || !dir || !*dir)
    return aucs_xstrdup(name);
  size_t n = strlen(dir);
  return aucs_xasprintf("%s%s%s", dir, dir[n - 1] == '/' ? "" : "/", name);
}

static aucs_source *push(aucs_sources *l, char *path) {
  if (l->n == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->v = aucs_xrealloc(l->v, l->cap * sizeof(*l->v));
  }
  aucs_source *s = &l->v[l->n++];
  *s = (aucs_source){.path = path};
  return s;
}

static void add_arg(aucs_source *s, char *arg) {
  s->args = aucs_xrealloc(s->args, (s->nargs + 1) * sizeof(*s->args));
  s->args[s->nargs++] = arg;
}

/* ---- directories --------------------------------------------------------*/

static int by_name(const struct dirent **a, const struct dirent **b) {
  return strcmp((*a)->d_name, (*b)->d_name);
}

static int checkable(const char *name) {
  return ends_with(name, ".cu") || ends_with(name, ".bc") ||
         ends_with(name, ".ll");
}

static int walk(aucs_sources *l, const char *dir, int depth, char **err) {
  struct dirent **names;
  int n = scandir(dir, &names, NULL, by_name), rc = 0;
  if (n < 0) {
    *err = aucs_xasprintf("%s: cannot read the directory", dir);
    return 1;
  }
  for (int i = 0; i < n; i++) {
    char *path = join(dir, names[i]->d_name);
    struct stat st;
    if (names[i]->d_name[0] == '.' || rc || stat(path, &st))
      free(path);
    else if (S_ISDIR(st.st_mode) && depth < MAX_DEPTH)
      rc = walk(l, path, depth + 1, err), free(path);
    else if (S_ISREG(st.st_mode) && checkable(path))
      push(l, path);
    else
      free(path);
    free(names[i]);
  }
  free(names);
  return rc;
}

/* The file that `#include "name"` in the file at path names, resolved
 * against path's folder; NULL when it does not exist. */
static char *included(const char *path, const char *name, size_t len) {
  const char *slash = strrchr(path, '/');
  char *rel = aucs_xasprintf("%.*s%.*s", slash ? (int)(slash - path + 1) : 0,
                             path, (int)len, name);
  char *real = realpath(rel, NULL);
  free(rel);
  return real;
}

/* Mark in drop[] the files of l->v[first..] that a .cu among them includes
 * as `#include "x.cu"`: a fragment of another translation unit (it needs
 * that file's definitions), checked as part of it. */
static void mark_included(const aucs_sources *l, size_t first,
                          unsigned char *drop, char **real) {
  char line[1024];
  for (size_t i = first; i < l->n; i++) {
    FILE *f = ends_with(l->v[i].path, ".cu") ? fopen(l->v[i].path, "r") : NULL;
    while (f && fgets(line, sizeof line, f)) {
      const char *name;
      size_t len;
      if (!aucs_quoted_include(line, &name, &len) || len < 3 ||
          strncmp(name + len - 3, ".cu", 3))
        continue;
      char *inc = included(l->v[i].path, name, len);
      for (size_t j = first; inc && j < l->n; j++)
        drop[j - first] |= j != i && real[j - first] &&
                           !strcmp(real[j - first], inc);
      free(inc);
    }
    if (f)
      fclose(f);
  }
}

static void free_source(aucs_source *s) {
  for (size_t a = 0; a < s->nargs; a++)
    free(s->args[a]);
  free(s->args);
  free(s->path);
  free(s->gpu_arch);
}

/* A walked folder's .cu files that another of them includes are not
 * translation units: leave them out. */
static void drop_included(aucs_sources *l, size_t first) {
  size_t n = l->n - first, k = first;
  unsigned char *drop = aucs_xcalloc(n + 1, 1);
  char **real = aucs_xcalloc(n + 1, sizeof *real);
  for (size_t j = 0; j < n; j++)
    real[j] = realpath(l->v[first + j].path, NULL);
  mark_included(l, first, drop, real);
  for (size_t j = 0; j < n; j++) {
    if (drop[j])
      free_source(&l->v[first + j]);
    else
      l->v[k++] = l->v[first + j];
    free(real[j]);
  }
  l->n = k;
  free(drop);
  free(real);
}

/* ---- compile databases --------------------------------------------------*/

/* The value of flag at words[*i] ("-I DIR", "-IDIR"; "-std=X" when flag
 * ends in '='), moving *i past it; NULL when words[*i] is not flag. */
static const char *flag_value(char **words, size_t n, size_t *i,
                              const char *flag) {
  size_t k = strlen(flag);
  if (strncmp(words[*i], flag, k))
    return NULL;
  if (words[*i][k] || flag[k - 1] == '=')
    return words[*i] + k;
  return *i + 1 < n ? words[++*i] : NULL;
}

/* Map one word (and its value) of a compile command; *i moves past it. */
static void map_flag(aucs_source *s, const char *dir, char **w, size_t n,
                     size_t *i) {
  static const char *const paths[] = {"-isystem", "-I"};
  static const char *const arch[] = {
      "--cuda-gpu-arch=", "-arch=", "--gpu-architecture=", "-arch"};
  const char *v;
  for (size_t f = 0; f < 2; f++)
    if ((v = flag_value(w, n, i, paths[f]))) {
      add_arg(s, aucs_xstrdup(paths[f]));
      add_arg(s, join(dir, v));
      return;
    }
  for (size_t f = 0; f < 4; f++)
    if ((v = flag_value(w, n, i, arch[f]))) {
      if (!s->gpu_arch && !strncmp(v, "sm_", 3))
        s->gpu_arch = aucs_xstrdup(v);
      return;
    }
  static const char *const words[] = {"-D", "-U", "-std=", "--std="};
  for (size_t f = 0; f < 4; f++)
    if ((v = flag_value(w, n, i, words[f]))) {
      add_arg(s, aucs_xasprintf("%s%s", f < 2 ? words[f] : "-std=", v));
      return;
    }
}

static size_t entry_words(json_t *e, char ***words) {
  json_t *args = json_object_get(e, "arguments");
  if (!json_is_array(args))
    return aucs_sources_split(json_string_value(json_object_get(e, "command")),
                              words);
  size_t n = json_array_size(args);
  *words = aucs_xcalloc(n ? n : 1, sizeof(**words));
  for (size_t i = 0; i < n; i++) {
    const char *w = json_string_value(json_array_get(args, i));
    (*words)[i] = aucs_xstrdup(w ? w : "");
  }
  return n;
}

static void add_entry(aucs_sources *l, json_t *e) {
  const char *dir = json_string_value(json_object_get(e, "directory"));
  const char *file = json_string_value(json_object_get(e, "file"));
  if (!file || !ends_with(file, ".cu"))
    return;
  char *abs = join(dir, file);
  aucs_source *s = push(l, shown(abs));
  free(abs);
  char **w;
  size_t n = entry_words(e, &w);
  for (size_t i = 1; i < n; i++) /* w[0] is the compiler */
    map_flag(s, dir, w, n, &i);
  for (size_t i = 0; i < n; i++)
    free(w[i]);
  free(w);
}

static int database(aucs_sources *l, const char *path, char **err) {
  json_error_t je;
  char *text = NULL;
  size_t len = 0;
  if (aucs_read_regular(path, (size_t)1 << 30, "a compile database",
                        "compile_commands.json", &text, &len, err))
    return 1;
  json_t *db = json_loadb(text, len, 0, &je);
  free(text);
  if (!json_is_array(db)) {
    *err =
        db ? aucs_xasprintf("%s: not a compile database (a JSON array "
                            "of {directory, file, arguments|command})",
                            path)
           : aucs_xasprintf("%s:%d:%d: %s", path, je.line, je.column, je.text);
    json_decref(db);
    return 1;
  }
  size_t i;
  json_t *e;
  json_array_foreach(db, i, e) add_entry(l, e);
  json_decref(db);
  return 0;
}

/* ---- the list -----------------------------------------------------------*/

int aucs_sources_add(aucs_sources *l, const char *path, char **err) {
  struct stat st;
  if (stat(path, &st)) {
    *err = aucs_xasprintf("%s: no such file or directory", path);
    return 1;
  }
  if (S_ISDIR(st.st_mode)) {
    size_t first = l->n;
    int rc = walk(l, path, 0, err);
    if (!rc)
      drop_included(l, first);
    return rc;
  }
  if (ends_with(path, ".json"))
    return database(l, path, err);
  push(l, aucs_xstrdup(path));
  return 0;
}

void aucs_sources_free(aucs_sources *l) {
  for (size_t i = 0; i < l->n; i++)
    free_source(&l->v[i]);
  free(l->v);
  *l = (aucs_sources){0};
}

/* ---- shell words --------------------------------------------------------*/

/* One word starting at *p (not a blank); *p moves past it. */
static char *shell_word(const char **p) {
  aucs_buf b = {0};
  aucs_buf_puts(&b, "");
  char quote = 0;
  for (const char *c = *p; *c; c++) {
    if (!quote && (*c == ' ' || *c == '\t' || *c == '\n')) {
      *p = c;
      return aucs_buf_take(&b);
    }
    if (!quote && (*c == '\'' || *c == '"'))
      quote = *c;
    else if (quote && *c == quote)
      quote = 0;
    else if (*c == '\\' && quote != '\'' && c[1] &&
             (!quote || strchr("\"\\$`", c[1])))
      aucs_buf_printf(&b, "%c", *++c);
    else
      aucs_buf_printf(&b, "%c", *c);
  }
  *p += strlen(*p);
  return aucs_buf_take(&b);
}

size_t aucs_sources_split(const char *command, char ***words) {
  size_t n = 0;
  *words = NULL;
  for (const char *p = command ? command : ""; *p;) {
    if (*p == ' ' || *p == '\t' || *p == '\n') {
      p++;
      continue;
    }
    *words = aucs_xrealloc(*words, (n + 1) * sizeof(**words));
    (*words)[n++] = shell_word(&p);
  }
  return n;
}
