/*
 * check: `aucs check PATH...`, the detector over a whole project
 * (DESIGN.md section 8, "Many inputs"). The files come from sources.h;
 * every kernel of every file is checked with the detect options, one child
 * process per file, at most `jobs` at a time, so a file that fails to
 * compile, runs out of a budget or crashes aucs is that file's error and
 * never stops the others.
 *
 * Output: the text report of each file on stderr, in the order of the
 * inputs (whatever the jobs' order of completion), then a summary table per
 * file and a total line. --format=json / --format=sarif print instead one
 * JSON object / one SARIF log (one run) covering every file on stdout, or
 * in -o FILE (written atomically); the table still goes to stderr. On a
 * terminal, a progress line on stderr is updated in place. The reports do
 * not depend on the number of jobs.
 *
 * Exit: 1 when any file has a finding; otherwise 2 when a file could not be
 * loaded or checked (or a kernel's runs all failed, or no kernel could be
 * checked); otherwise 0.
 */
#ifndef AUCS_CHECK_H
#define AUCS_CHECK_H

#include "aucs/detect.h"
#include "aucs/module.h"
#include <stddef.h>

typedef struct aucs_check_options {
  const char *const *paths; /* files, directories, compile databases */
  size_t npaths;
  const aucs_load_options *load;     /* the command line's .cu options */
  const char *load_words;            /* the same as typed (" -O2 -I inc"),
                                        for reproduce commands */
  const aucs_detect_options *detect; /* for every file */
  unsigned jobs;                     /* 0: the number of online cores */
  const char *output;                /* -o FILE; NULL: stdout */
} aucs_check_options;

/* Run the check; returns the exit code (pipeline.h's aucs_exit). */
int aucs_check_run(const aucs_check_options *o);

#endif
