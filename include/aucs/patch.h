/*
 * patch: `aucs fix k.cu --patch FILE`, the repair as a checked unified diff
 * of the CUDA source (DESIGN.md section 8, "Source patches").
 *
 * Each edit of the log whose source form is exact becomes a source edit:
 * an inserted barrier is `__syncthreads();` on its own line before the
 * statement line it precedes, a deleted barrier removes its line. Every
 * other edit is listed "IR only" with the reason; nothing is guessed. The
 * patched copy is recompiled with the same options and detected again with
 * the same launches and a fresh seed; the patch is written only when the
 * findings it answers are gone and no new race or divergence came.
 */
#ifndef AUCS_PATCH_H
#define AUCS_PATCH_H

#include "aucs/detect.h"
#include "aucs/module.h"
#include "aucs/repair.h"
#include "aucs/util.h"

typedef struct aucs_patch_options {
  const char *cu;                 /* the .cu as the user named it */
  const char *out;                /* where the patch goes; "-": stdout */
  const aucs_load_options *load;  /* how the .cu was compiled */
  const aucs_detect_options *detect; /* the fix's runs */
} aucs_patch_options;

/* The source patch of r, built and checked. The unified diff goes to *diff
 * (NULL when no edit has an exact source form; free with free()); one line
 * per edit that stays IR only, then the check's verdict, go to report.
 * Returns 1 when the checked patch may be written, 0 when not. */
int aucs_patch_make(const aucs_repair_result *r, const aucs_patch_options *o,
                    char **diff, aucs_buf *report);
/* aucs_patch_make, then write the patch to o->out ("-": append it to out).
 * The report goes to diag. 0 unless a checked patch could not be written
 * (a refused patch is reported, not an error). */
int aucs_patch_run(const aucs_repair_result *r, const aucs_patch_options *o,
                   aucs_buf *out, aucs_buf *diag);

#endif
