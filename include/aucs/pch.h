/*
 * pch: a precompiled prelude for compiling `.cu` files against the CUDA SDK.
 * See passes/analysis/pch.c.
 */
#ifndef AUCS_PCH_H
#define AUCS_PCH_H

#include <stddef.h>

/* The prologue of a CUDA source: the `#include <...>` lines of its leading
 * run of blank lines, comments and such includes, each ending in '\n'
 * ("" when there is none). Free with free(). */
char *aucs_pch_prologue(const char *text, size_t len);

/* The path of the precompiled prelude (the CUDA runtime wrapper clang
 * includes first, then src's prologue) for compiling src with the clang
 * command argv[0..argc) (everything but the output and the input), built
 * on first use in the cache directory ($AUCS_CACHE_DIR, else
 * $XDG_CACHE_HOME/aucs, else $HOME/.cache/aucs). NULL when $AUCS_PCH is
 * "0", there is no cache directory, or the build failed. Pass it to clang
 * as `-Xclang -include-pch -Xclang PATH`. Free with free(). */
char *aucs_pch_get(const char *const *argv, size_t argc, const char *src);

/* Remove a prelude clang refused (a header changed since it was built), so
 * that the next aucs_pch_get builds it again. */
void aucs_pch_drop(const char *pch);

#endif
