/*
 * launchplan: where a kernel's launch comes from (detector/launchplan.c):
 * the user's (--grid, --block, --arg, --inputs), else the host code's (the
 * launch its translation unit makes, hostlaunch.h), else the search's.
 * What the user or the host fixes is fixed; the search explores the rest.
 */
#ifndef AUCS_LAUNCHPLAN_H
#define AUCS_LAUNCHPLAN_H

#include "aucs/finding.h"
#include "aucs/hostlaunch.h"
#include "aucs/inputs.h"
#include "aucs/search.h"

#include <stddef.h>
#include <stdint.h>

struct aucs_detect_options;

typedef struct aucs_launchplan {
  int has_grid, has_block; /* fixed: the user's, else the host's */
  aucs_dim3 grid, block;
  /* The host launch used, or NULL; borrowed from the options' launches. */
  const aucs_host_launch *host;
  /* The grid is the host's computation over the arguments the search
   * chooses (hostlaunch.h's grid_xy, grid_z); the host ties arguments to
   * others (same_as). aucs_launchplan_derive applies both. */
  int grid_tied, args_tied;
  /* Per parameter (nranged of them), set by aucs_launchplan_bind: the host
   * bounds the argument (hostlaunch.h's ranged) and neither the host nor
   * the user fixes it; the search's value is mapped into the bounds. Owned;
   * NULL: none. */
  unsigned char *ranged;
  size_t nranged;
  /* The searched block.x is rounded to a multiple of this (the host's
   * block_multiple; 0: none). */
  uint32_t block_multiple;
  /* Its dynamic shared bytes when the user gave none and the host passes
   * more than 0, else 0 (the user's or the default). */
  uint64_t dynamic_shared;
  /* Where the launch comes from, for every report: "host k.cu:37
   * <<<8192, 128>>>", "given", "searched; no launch in the host code".
   * Owned; free with aucs_launchplan_free. */
  char *from;
} aucs_launchplan;

/* The plan of kernel (mangled name) under o. */
void aucs_launchplan_of(const struct aucs_detect_options *o,
                        const char *kernel, aucs_launchplan *p);
/* Whether the plan fixes parameter i to *bits (a constant argument of the
 * host launch; the caller keeps the user's own --arg first). */
int aucs_launchplan_arg(const aucs_launchplan *p, size_t i, uint64_t *bits);
/* For the per-parameter values args[0..n) and the grid *grid a run would
 * use: map each ranged argument into its bounds (lo + v mod the width of
 * the range, when v is outside), then, when the grid is tied, set the
 * argument each dimension grows with to its smallest value giving that
 * dimension (where there is one), then each tied argument from the one it
 * is tied to, and compute *grid from the arguments. 0, or -1 when the
 * host's computation is undefined for them or its grid is one CUDA cannot
 * launch (a dimension 0 or past its limit). */
int aucs_launchplan_derive(const aucs_launchplan *p, uint64_t *args,
                           size_t n, aucs_dim3 *grid);
/* The host launch's constant scalar arguments into the leaves of in (iv's
 * values, marked fixed), where the user set none; the arguments it bounds
 * and nobody fixed are marked ranged, and the plan's line says so
 * ("; offset in [0, 255]"). */
void aucs_launchplan_bind(aucs_launchplan *p, const aucs_inputs *in,
                          aucs_inputs_values *iv);
/* Whether parameter i is ranged: 1 with its bounds (unsigned in its
 * width). */
int aucs_launchplan_range(const aucs_launchplan *p, size_t i, uint64_t *lo,
                          uint64_t *hi);
/* Candidate c of a kernel with leaves in and np parameters, with what the
 * host ties to its arguments applied (aucs_launchplan_derive): 0 with *d
 * (free d->args), or -1 when the host's launch for these arguments is not
 * one CUDA can make. */
int aucs_launchplan_candidate(const aucs_launchplan *p, const aucs_inputs *in,
                              size_t np, const aucs_candidate *c,
                              aucs_candidate *d);
void aucs_launchplan_free(aucs_launchplan *p);

#endif
