/*
 * editlog: every change the repair makes to a module, in order (DESIGN.md
 * section 3, "edit"). The fix report and the review diff are printed from
 * the log, never from the IR alone. Kinds are listed once, in editlog.def.
 */
#ifndef AUCS_EDITLOG_H
#define AUCS_EDITLOG_H

#include "aucs/util.h"
#include <stddef.h>

typedef enum aucs_edit_kind {
#define AUCS_EDIT(e, name) AUCS_EDIT_##e,
#include "aucs/editlog.def"
#undef AUCS_EDIT
  AUCS_EDIT_NKINDS
} aucs_edit_kind;

/* One edit. Owns its strings. */
typedef struct aucs_edit {
  aucs_edit_kind kind;
  char *function;    /* the function edited ("_Z6stagedPfPKf") */
  char *where;       /* "before %mul in %entry" */
  char *finding;     /* what it answers: "k.cu:17:10: data race on ..." */
  char *source;      /* "k.cu:24:3": where the edit lands, or NULL */
  char *source_edit; /* "insert __syncthreads(); before k.cu:24", or NULL */
  char *why;         /* why no plain source edit exists / the evidence */
  unsigned id;       /* !aucs.id of the barrier inserted or deleted, of the
                        call inlined, of the instruction split at; 0 none */
  int finding_index; /* the repair's finding it answers, -1 none */
} aucs_edit;

/* Zero-initialise; free with aucs_editlog_free. */
typedef struct aucs_editlog {
  aucs_edit *v;
  size_t n, cap;
} aucs_editlog;

const char *aucs_editlog_kind_name(aucs_edit_kind k);
/* Append e; the log takes ownership of its strings. Returns the copy. */
aucs_edit *aucs_editlog_push(aucs_editlog *l, const aucs_edit *e);
/* Drop the edits from index n on (a rolled-back trial). */
void aucs_editlog_truncate(aucs_editlog *l, size_t n);
void aucs_editlog_free(aucs_editlog *l);
/* Free the strings of one edit (not in a log). */
void aucs_edit_free(aucs_edit *e);
/* One paragraph per edit: "edit 1: insert-barrier in @k before %x ...". */
void aucs_editlog_print_edit(const aucs_edit *e, size_t number, aucs_buf *out);
void aucs_editlog_print(const aucs_editlog *l, aucs_buf *out);

#endif
