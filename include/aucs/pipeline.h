/*
 * pipeline: what every front end runs. `aucs` (the CLI) and AuCS.so (the
 * opt plugin) both call these on a loaded module, so the CLI and the passes
 * print the same text and take the same decisions.
 *
 * Each returns an exit code (DESIGN.md section 1); the report goes to out
 * (stdout), diagnostics to diag (stderr), one line each, never printed here.
 */
#ifndef AUCS_PIPELINE_H
#define AUCS_PIPELINE_H

#include "aucs/detect.h"
#include "aucs/util.h"
#include <llvm-c/Types.h>

typedef enum aucs_exit {
  AUCS_EXIT_OK = 0,       /* clean / nothing to do */
  AUCS_EXIT_FINDINGS = 1, /* bugs found, or some remain after fix */
  AUCS_EXIT_USAGE = 2,    /* bad usage or bad input */
  AUCS_EXIT_INTERNAL = 3, /* aucs itself failed */
} aucs_exit;

/* Print the facts of every kernel of m (see facts.h). */
aucs_exit aucs_pipeline_facts(LLVMModuleRef m, aucs_buf *out, aucs_buf *diag);
/* Run the detector on the kernels of m (detect.h; o NULL: the defaults).
 * The text report goes to diag, the JSON report (o->json) to out. Exit:
 * 0 clean, 1 findings, 2 usage error or nothing could be checked. */
aucs_exit aucs_pipeline_detect(LLVMModuleRef m, const aucs_detect_options *o,
                               aucs_buf *out, aucs_buf *diag);
/* The same with the options given as one string ("--grid 2 --block 64"),
 * as the opt pass takes them from $AUCS_OPTIONS; NULL means none. */
aucs_exit aucs_pipeline_detect_text(LLVMModuleRef m, const char *options,
                                    aucs_buf *out, aucs_buf *diag);
/* Not implemented yet: diagnose and return AUCS_EXIT_USAGE. */
aucs_exit aucs_pipeline_fix(LLVMModuleRef m, aucs_buf *out, aucs_buf *diag);

#endif
