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

#include <stddef.h>
#include <stdint.h>

struct aucs_detect_options;

typedef struct aucs_launchplan {
  int has_grid, has_block; /* fixed: the user's, else the host's */
  aucs_dim3 grid, block;
  /* The host launch used, or NULL; borrowed from the options' launches. */
  const aucs_host_launch *host;
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
void aucs_launchplan_free(aucs_launchplan *p);

#endif
