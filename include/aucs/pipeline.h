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
/* The same with each block's entry condition (cond.h) as a last field
 * "; cond ...": `aucs facts --conditions`, the pass aucs-print-conditions. */
aucs_exit aucs_pipeline_conditions(LLVMModuleRef m, aucs_buf *out,
                                   aucs_buf *diag);
/* Run the detector on the kernels of m (detect.h; o NULL: the defaults).
 * The text report goes to diag, the JSON report (o->json) to out. Exit:
 * 0 clean, 1 findings, 2 usage error or nothing could be checked. */
aucs_exit aucs_pipeline_detect(LLVMModuleRef m, const aucs_detect_options *o,
                               aucs_buf *out, aucs_buf *diag);
/* The same with the options given as one string ("--grid 2 --block 64"),
 * as the opt pass takes them from $AUCS_OPTIONS; NULL means none. */
aucs_exit aucs_pipeline_detect_text(LLVMModuleRef m, const char *options,
                                    aucs_buf *out, aucs_buf *diag);
/* `aucs fix` and the pass aucs-fix: the detect options, and the repair's
 * own. Zero-initialise; free with aucs_pipeline_fix_options_free. */
typedef struct aucs_fix_options {
  aucs_detect_options detect;
  int review;        /* print the annotated IR diff on out */
  int trust_dynamic; /* delete redundant barriers on dynamic evidence */
  unsigned max_rounds; /* 0: AUCS_REPAIR_ROUNDS */
  /* --patch FILE ("-": stdout): the checked source patch (patch.h) of the
   * .cu detect.input, compiled as load says (borrowed). */
  const char *patch;
  const struct aucs_load_options *load;
  char *text;        /* owned words of aucs_pipeline_fix_text */
  /* Out (borrowed, may be NULL): set to 1 when the exit is 2 only because
   * a kernel beside those checked was not (unsupported, its runs failed,
   * a budget): the module holds every repair that succeeded and is to be
   * written like at exit 0 or 1. */
  int *partial;
} aucs_fix_options;

/* Parse the fix option at argv[*i] (--review, --trust-dynamic,
 * --max-rounds N, or any detect option): 1 taken, 0 not one, -1 with *err
 * (free with free()) when its value is bad. */
int aucs_pipeline_fix_option(aucs_fix_options *o, int argc, char **argv,
                             int *i, char **err);
void aucs_pipeline_fix_options_free(aucs_fix_options *o);
/* Repair the kernels of m in place (repair.h); o NULL: the defaults. The
 * text report goes to diag, the review diff (o->review) to out. Exit:
 * 0 no finding left, 1 some remain (the module keeps every repair that
 * succeeded); with o->review, 0 no edit, 1 edits proposed; 2 usage error,
 * or (instead of 0) no kernel could be checked or a kernel's run failed, as
 * detect's 2 (when some other kernel was checked, *o->partial says the
 * module is still to be written); 3 the repaired module does not verify
 * (it must not be written). */
aucs_exit aucs_pipeline_fix(LLVMModuleRef m, const aucs_fix_options *o,
                            aucs_buf *out, aucs_buf *diag);
/* The same with the options as one string, as the pass aucs-fix takes
 * them from $AUCS_OPTIONS; NULL means none. */
aucs_exit aucs_pipeline_fix_text(LLVMModuleRef m, const char *options,
                                 aucs_buf *out, aucs_buf *diag);

/* Inside clang (the plugin's pipeline-start callback, cleanup.h): detect
 * on a cleaned clone of m, leaving m untouched; fix m after cleaning it in
 * place (the repaired module is then the cleaned one). */
aucs_exit aucs_pipeline_clang_detect(LLVMModuleRef m, const char *options,
                                     aucs_buf *out, aucs_buf *diag);
aucs_exit aucs_pipeline_clang_fix(LLVMModuleRef m, const char *options,
                                  aucs_buf *out, aucs_buf *diag);

#endif
