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
#include <jansson.h>
#include <llvm-c/Types.h>

typedef struct aucs_patch_options {
  const char *cu;                    /* the .cu as the user named it */
  const aucs_load_options *load;     /* how the .cu was compiled */
  const aucs_detect_options *detect; /* the fix's runs */
  LLVMModuleRef module; /* the repaired module, to count the instances of
                           a template kernel; NULL: any template is IR only */
  int by_edit; /* the review: what is said of one edit stays in per_edit and
                  notes (printed with that edit), not in the report */
} aucs_patch_options;

/* One change of the patch: bytes [offset, offset + length) of the
 * original text (from line `line` on) replaced by text. */
typedef struct aucs_patch_change {
  size_t offset, length;
  unsigned line;
  char *text;
} aucs_patch_change;

/* The source patch of a repair. Free with aucs_patch_free. */
typedef struct aucs_patch {
  char *diff; /* the unified diff, checked; NULL when none may be written */
  /* Per edit of the log (n of them): the hunk of that edit alone ("@@ ...")
   * when the patch was checked, "IR only: <reason>", or NULL (an exact
   * edit of a patch that failed its check). */
  char **per_edit;
  char **notes; /* per edit: a remark on an exact edit's source form, or
                   NULL */
  size_t n;
  /* When diff is set: its changes to the original text, in order (for
   * SARIF `fixes`), and per repair item (nitems of them) whether an edit
   * of the patch answers it. */
  aucs_patch_change *changes;
  size_t nchanges;
  unsigned char *addressed;
  size_t nitems;
} aucs_patch;

/* Build and check the source patch of r into *p. One line per edit that
 * stays IR only or has a note (unless o->by_edit), then the check's
 * verdict, go to report. Returns 1 when p->diff may be written. */
int aucs_patch_make(const aucs_repair_result *r, const aucs_patch_options *o,
                    aucs_patch *p, aucs_buf *report);
void aucs_patch_free(aucs_patch *p);
/* Write p->diff to `to` atomically ("-": append it to out); nothing when
 * there is none. 0, or nonzero with a line on diag when it cannot. */
int aucs_patch_write(const aucs_patch *p, const char *to, aucs_buf *out,
                     aucs_buf *diag);

/* The cost of one function's repair (repair/patch/patch_cost.c): its
 * edits, the barriers added (a uniformized loop's __syncthreads_or is
 * one) and removed, its restructuring edits (flattening, a loop made
 * uniform, threads kept in, a block split) and, when the checked patch was
 * written (patched), the nonblank lines its hunks add and remove. */
typedef struct aucs_patch_cost {
  const char *function; /* borrowed from the repair's log */
  unsigned edits, barriers_added, barriers_removed, restructured;
  unsigned warp_syncs; /* __syncwarp() calls added */
  int patched;
  unsigned lines_added, lines_removed;
  /* A kernel's barriers per thread before and after on the checked inputs
   * (repair.h), when measured; NULL otherwise. An entry for a kernel whose
   * edits are all in its helpers has edits 0 and this alone. */
  const aucs_repair_per_thread *per_thread;
} aucs_patch_cost;

/* One entry per function the log edits, in the log's order, then one per
 * kernel measured (r->per_thread) that the log does not edit itself; p may
 * be NULL (no patch). The caller frees *out (free). Returns how many. */
size_t aucs_patch_cost_of(const aucs_repair_result *r, const aucs_patch *p,
                          aucs_patch_cost **out);
/* One "aucs: fix: cost in 'K': ..." line per function the log edits. */
void aucs_patch_cost_print(const aucs_repair_result *r, const aucs_patch *p,
                           aucs_buf *out);
/* {"edits": N, "barriersAdded": N, ..., "barriersPerThreadBefore": X,
 * "barriersPerThreadAfter": Y, "checkedRuns": N} (a new reference). */
json_t *aucs_patch_cost_json(const aucs_patch_cost *c);

/* `fix --format=sarif` (repair/patch/patch_sarif.c): to each result of results
 * (a SARIF results array built from the repair's first detection) that
 * matches a repair item of r (rule and first location), add
 * properties.repair (outcome, how, suggestion) and, when p->diff is set
 * and an edit of it answers the item, the checked source patch of cu as a
 * `fixes` entry (artifactChanges with one replacement per change). */
void aucs_patch_sarif(const aucs_patch *p, const aucs_repair_result *r,
                      const char *cu, json_t *results);

/* `fix --format=json` (repair/patch/patch_json.c): the detect JSON report
 * of the repair's first detection, each finding with its repair, each
 * kernel with its cost, and the repair's summary, edits and patch. Make
 * one with _new (free with _free), hand _first and the object to the
 * repair (aucs_repair_options.first), then _print it once (nothing when
 * the first detection never came). */
typedef struct aucs_patch_json aucs_patch_json;
aucs_patch_json *aucs_patch_json_new(void);
void aucs_patch_json_first(void *ctx, const aucs_report *rep);
void aucs_patch_json_print(aucs_patch_json *j, const aucs_repair_result *r,
                           const aucs_patch *p, aucs_buf *out);
void aucs_patch_json_free(aucs_patch_json *j);

#endif
