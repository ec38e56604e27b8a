/*
 * repair_print: the text report of `aucs fix` (repair.h): every edit, one
 * line per finding (fixed and how; unfixable, why and a suggestion; not
 * fixed, why), the summary line, and fix --stats' line. Split from
 * repair.c, which runs the loop.
 */
#include "aucs/demangle.h"
#include "aucs/repair.h"

#include <stdlib.h>

const char *aucs_repair_outcome_name(aucs_outcome o) {
  switch (o) {
  case AUCS_OUTCOME_FIXED:
    return "fixed";
  case AUCS_OUTCOME_UNFIXABLE:
    return "unfixable";
  default:
    return "not-fixed";
  }
}

void aucs_repair_stats_print(const aucs_repair_stats *st, aucs_buf *out) {
  aucs_buf_printf(out,
                  "aucs: stats: fix: %.3f s: first detection %.3f s; %u "
                  "trial%s, %u detection%s %.3f s; %u redundancy proof%s "
                  "%.3f s",
                  st->seconds, st->first_seconds, st->trials,
                  st->trials == 1 ? "" : "s", st->detections,
                  st->detections == 1 ? "" : "s", st->trial_seconds, st->proofs,
                  st->proofs == 1 ? "" : "s", st->proof_seconds);
  if (st->proofs_cut)
    aucs_buf_printf(out, " (%u ran out of time)", st->proofs_cut);
  if (st->folded)
    aucs_buf_printf(out, "; folded: %u inlined call%s undone", st->folded,
                    st->folded == 1 ? "" : "s");
  aucs_buf_printf(out,
                  "; fresh-seed full detection %.3f s (%llu of %llu static "
                  "queries cached)\n",
                  st->final_seconds, (unsigned long long)st->final_cached,
                  (unsigned long long)st->final_queries);
}

static void print_item(const aucs_repair_item *it, aucs_buf *out) {
  char *d = aucs_demangle(it->kernel);
  const char *loc = it->location ? it->location : "aucs";
  const char *k = d ? d : it->kernel;
  static const char *const label[] = {"note: fixed", "error: unfixable",
                                      "error: not fixed"};
  int kept = it->warning && it->outcome != AUCS_OUTCOME_FIXED;
  aucs_buf_printf(
      out, "%s: %s: %s in '%s'%s: %s\n", loc,
      kept ? "warning" : label[it->outcome],
      it->headline ? it->headline : aucs_finding_kind_name(it->kind), k,
      it->introduced ? " (left by an edit)" : "", it->how ? it->how : "");
  if (it->suggestion)
    aucs_buf_printf(out, "%s: note: suggestion: %s\n", loc, it->suggestion);
  free(d);
}

static void print_items(const aucs_repair_result *r, aucs_buf *out) {
  aucs_editlog_print(&r->log, out);
  for (size_t i = 0; i < r->ndropped; i++)
    aucs_buf_printf(out, "aucs: note: fix: %s\n", r->dropped[i]);
  size_t listed =
      r->max_listed && r->nitems > r->max_listed ? r->max_listed : r->nitems;
  for (size_t i = 0; i < listed; i++)
    print_item(&r->items[i], out);
  if (listed < r->nitems)
    aucs_buf_printf(out,
                    "aucs: note: fix: %zu more finding%s not listed; "
                    "--max-findings to list them\n",
                    r->nitems - listed, r->nitems - listed == 1 ? "" : "s");
}

static void print_end(const aucs_repair_result *r, aucs_buf *out) {
  if (r->budget)
    aucs_buf_printf(out,
                    "aucs: note: fix: %s: the repair stopped; %zu finding%s "
                    "not attempted; every edit kept was verified\n",
                    r->budget, r->unattempted, r->unattempted == 1 ? "" : "s");
  size_t n = r->nitems - r->kept;
  if (!n && !r->incomplete)
    aucs_buf_puts(out, "aucs: fix: nothing to repair\n");
  aucs_buf_printf(out,
                  "aucs: fix: %zu finding%s: %zu fixed, %zu unfixable, %zu "
                  "not fixed; %zu edit%s in %u round%s",
                  n, n == 1 ? "" : "s", r->fixed, r->unfixable, r->remaining,
                  r->log.n, r->log.n == 1 ? "" : "s", r->rounds,
                  r->rounds == 1 ? "" : "s");
  if (r->kept)
    aucs_buf_printf(out,
                    "; %zu redundant barrier%s kept (dynamic evidence only, "
                    "no proof: warnings)",
                    r->kept, r->kept == 1 ? "" : "s");
  aucs_buf_puts(out, "\n");
}

void aucs_repair_print(const aucs_repair_result *r, aucs_buf *out) {
  if (r->warnings)
    aucs_buf_puts(out, r->warnings);
  print_items(r, out);
  print_end(r, out);
}

void aucs_repair_print_brief(const aucs_repair_result *r, aucs_buf *out) {
  if (r->warnings)
    aucs_buf_puts(out, r->warnings);
  print_end(r, out);
}
