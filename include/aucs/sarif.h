/*
 * sarif: the detector's results as a SARIF 2.1.0 log (`--format=sarif`),
 * for code-scanning and code-review systems. Written with jansson, like the
 * JSON report (report.h), from the same report structures.
 *
 * One run per invocation; its tool.driver lists one rule per finding kind
 * (race, inter-block-race, barrier-divergence, redundant-barrier,
 * out-of-bounds). Each finding is one result: level error (warning for a
 * redundant barrier) as in the text report, the text headline as message,
 * the first access as its location, both accesses as relatedLocations, and
 * the reproduce command as properties.reproduce. Possible races (solver
 * witnesses no run confirmed) are not findings and are left out.
 *
 * Kernels that could not be checked (unsupported, every run failed) and
 * inputs that could not be loaded are no bug of the user's code: they are
 * tool execution notifications of the run's invocation (descriptors
 * "unsupported", "kernel-error", "input-error"), so a code-scanning UI does
 * not show them as alerts.
 *
 * URIs: a file name from !dbg that is relative, or absolute under the
 * working directory, is given relative to it with uriBaseId "%SRCROOT%"
 * (originalUriBaseIds maps it to the working directory); other absolute
 * names are file:// URIs.
 */
#ifndef AUCS_SARIF_H
#define AUCS_SARIF_H

#include "aucs/report.h"
#include "aucs/util.h"
#include <jansson.h>

/* The parts of one SARIF run being built: results and notifications.
 * Zero-initialise with aucs_sarif_begin; aucs_sarif_end consumes it. */
typedef struct aucs_sarif {
  json_t *results, *notes;
  int failed; /* some input could not be loaded or checked */
} aucs_sarif;

void aucs_sarif_begin(aucs_sarif *s);
/* Add the findings of r as results and its unchecked kernels as
 * notifications. */
void aucs_sarif_add_report(aucs_sarif *s, const aucs_report *r);
/* Add a notification that input path could not be checked (message). */
void aucs_sarif_add_input_error(aucs_sarif *s, const char *path,
                                const char *message);
/* Move the results and notifications of a partial run (as built by
 * aucs_sarif_partial) into s. Borrows part. */
void aucs_sarif_add_partial(aucs_sarif *s, const json_t *part);
/* The partial run as one JSON object {"results", "notifications",
 * "failed"} (new reference), to be sent between processes. Consumes s. */
json_t *aucs_sarif_partial(aucs_sarif *s);
/* Append the SARIF log of s (one run) to out, newline-terminated.
 * Consumes s. */
void aucs_sarif_end(aucs_sarif *s, const char *version, aucs_buf *out);

/* {"uri", "uriBaseId"} of a file path, as the locations of results give
 * it (relative to the working directory when it can be). New reference. */
json_t *aucs_sarif_artifact(const char *path);

/* The whole SARIF log of one detect report. */
void aucs_sarif_report(const aucs_report *r, aucs_buf *out);

#endif
