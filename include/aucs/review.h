/*
 * review: `aucs fix --review`, the repair as a patch to review: a unified
 * diff (libgit2's buffer diff) of the IR of each function the repair
 * changed, each hunk annotated with the edits in it, the finding each
 * answers, the source lines, and the equivalent source edit when there is
 * one (or why the change needed restructuring); then one line per finding.
 *
 * IR is compared without metadata attachments and debug records, so the
 * diff shows the edits, not renumbered `!dbg` nodes.
 */
#ifndef AUCS_REVIEW_H
#define AUCS_REVIEW_H

#include "aucs/patch.h"
#include "aucs/repair.h"
#include "aucs/util.h"
#include <llvm-c/Types.h>

typedef struct aucs_review aucs_review;

/* Remember the IR of every defined function of m, which must carry its
 * stable ids already (aucs_repair_ids_assign). Free with aucs_review_free. */
aucs_review *aucs_review_begin(LLVMModuleRef m);
void aucs_review_free(aucs_review *rv);
/* Append the annotated diff between the remembered IR and m (after the
 * repair r, ids still attached) to out. */
void aucs_review_print(aucs_review *rv, LLVMModuleRef m,
                       const aucs_repair_result *r, aucs_buf *out);
/* The same, CUDA first: sp (NULL, or the source patch of r made with
 * by_edit, patch.h) gives each edit's source hunk of the checked patch, or
 * why it is IR only, and its note, printed before the reason, the evidence
 * and the IR hunk; said (NULL, or the patch's report) follows the diff as
 * comments, before the line per finding. */
void aucs_review_print_source(aucs_review *rv, LLVMModuleRef m,
                              const aucs_repair_result *r, const aucs_patch *sp,
                              const char *said, aucs_buf *out);

#endif
