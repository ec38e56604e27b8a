/*
 * sources: the files `aucs check` checks, from what the user named: a file
 * (.cu, .bc, .ll, or any other name the module loader sniffs), a directory
 * (walked recursively in sorted order: every .cu, .bc and .ll; names
 * starting with '.' skipped; a .cu that another walked .cu includes with
 * `#include "x.cu"` left out, as part of its includer) or a compile database (a file whose name ends
 * in ".json", e.g. compile_commands.json: every entry whose file ends in
 * ".cu", in the database's order).
 *
 * A compile database entry keeps its own flags, mapped to aucs's .cu
 * options: -I, -isystem, -D, -U and -std= (--std=) go to clang as they
 * are, relative directories made absolute against the entry's "directory";
 * --cuda-gpu-arch=, -arch= / --gpu-architecture= (nvcc) become --gpu-arch.
 * Every other flag (-O levels, -o, -c, warnings, ...) is left out: aucs
 * compiles at its own -O level. An entry's "command" string is split into
 * words as a POSIX shell would (quotes and backslashes; no expansions).
 */
#ifndef AUCS_SOURCES_H
#define AUCS_SOURCES_H

#include <stddef.h>

/* One file to check. Owns its strings. */
typedef struct aucs_source {
  char *path;  /* as loaded and shown: relative to the working directory
                  when the file is under it */
  char **args; /* clang arguments from its compile command */
  size_t nargs;
  char *gpu_arch; /* from its compile command, or NULL */
} aucs_source;

/* A growable list; zero-initialise, free with aucs_sources_free. */
typedef struct aucs_sources {
  aucs_source *v;
  size_t n, cap;
} aucs_sources;

/* Append the files path names (see above). 0 on success; nonzero with *err
 * (free with free()) when path does not exist, a directory cannot be read,
 * or a compile database is not one. */
int aucs_sources_add(aucs_sources *l, const char *path, char **err);
void aucs_sources_free(aucs_sources *l);

/* Split a command line into words as a POSIX shell would, without
 * expansions. Returns the number of words; *words (free each, then the
 * array) holds them. */
size_t aucs_sources_split(const char *command, char ***words);

#endif
