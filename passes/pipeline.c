/*
 * pipeline: the steps each front end runs, one call a line.
 *
 *   facts:  check the module -> for each kernel: print its facts
 *           (conditions: with each block's entry condition)
 *   detect: check the module -> detect each kernel -> text or JSON report
 *   fix:    check the module -> ids -> (review: remember the IR) -> repair
 *           -> (review: diff, source patch and findings on out; the summary
 *           alone on diag) -> strip ids -> verify -> report
 */
#include "aucs/pipeline.h"

#include "aucs/cleanup.h"
#include "aucs/facts.h"
#include "aucs/kernel.h"
#include "aucs/module.h"
#include "aucs/patch.h"
#include "aucs/repair.h"
#include "aucs/review.h"
#include "aucs/sarif.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <stdlib.h>
#include <string.h>

static const char *module_name(LLVMModuleRef m) {
  size_t len;
  const char *id = LLVMGetModuleIdentifier(m, &len);
  return len ? id : "<module>";
}

/* The kernels of m, or a diagnostic and 0 when m is no NVPTX module or has
 * no kernel. */
static size_t kernels(LLVMModuleRef m, LLVMValueRef **out, aucs_buf *diag) {
  char *err = NULL;
  *out = NULL;
  if (aucs_module_check_nvptx(m, &err)) {
    aucs_buf_printf(diag, "aucs: error: %s\n", err);
    free(err);
    return 0;
  }
  size_t n = aucs_kernel_list(m, out);
  if (!n)
    aucs_buf_printf(diag,
                    "aucs: error: %s: no kernel in module (no ptx_kernel "
                    "function and no nvvm.annotations kernel entry)\n",
                    module_name(m));
  return n;
}

static aucs_exit facts(LLVMModuleRef m, unsigned flags, aucs_buf *out,
                       aucs_buf *diag) {
  LLVMValueRef *ks;
  size_t n = kernels(m, &ks, diag);
  for (size_t i = 0; i < n; i++)
    aucs_facts_print_with(out, ks[i], flags);
  free(ks);
  return n ? AUCS_EXIT_OK : AUCS_EXIT_USAGE;
}

aucs_exit aucs_pipeline_facts(LLVMModuleRef m, aucs_buf *out, aucs_buf *diag) {
  return facts(m, 0, out, diag);
}

aucs_exit aucs_pipeline_conditions(LLVMModuleRef m, aucs_buf *out,
                                   aucs_buf *diag) {
  return facts(m, AUCS_FACTS_CONDITIONS, out, diag);
}

aucs_exit aucs_pipeline_detect(LLVMModuleRef m, const aucs_detect_options *o,
                               aucs_buf *out, aucs_buf *diag) {
  LLVMValueRef *ks;
  size_t n = kernels(m, &ks, diag);
  if (!n)
    return AUCS_EXIT_USAGE;
  aucs_report r;
  char *err = NULL;
  int rc = aucs_detect_run(m, ks, n, o, &r, &err);
  free(ks);
  if (rc) {
    aucs_buf_printf(diag, "aucs: error: %s\n", err);
    free(err);
    return AUCS_EXIT_USAGE;
  }
  if (o && o->sarif)
    aucs_sarif_report(&r, out);
  else if (o && o->json)
    aucs_report_json(&r, out);
  else
    aucs_report_text(&r, diag);
  aucs_exit code = (aucs_exit)aucs_detect_exit(&r);
  aucs_detect_report_free(&r);
  return code;
}

aucs_exit aucs_pipeline_detect_text(LLVMModuleRef m, const char *options,
                                    aucs_buf *out, aucs_buf *diag) {
  aucs_detect_options o = {0};
  char *err = NULL;
  aucs_exit code;
  if (aucs_options_parse(&o, options, &err)) {
    aucs_buf_printf(diag, "aucs: error: AUCS_OPTIONS: %s\n", err);
    free(err);
    code = AUCS_EXIT_USAGE;
  } else
    code = aucs_pipeline_detect(m, &o, out, diag);
  aucs_options_free(&o);
  return code;
}

int aucs_pipeline_fix_option(aucs_fix_options *o, int argc, char **argv,
                             int *i, char **err) {
  const char *a = argv[*i];
  if (!strcmp(a, "--review"))
    return o->review = 1, 1;
  if (!strcmp(a, "--trust-dynamic"))
    return o->trust_dynamic = 1, 1;
  if (strcmp(a, "--max-rounds"))
    return aucs_options_arg(&o->detect, argc, argv, i, err);
  char *end = NULL;
  const char *w = *i + 1 < argc ? argv[*i + 1] : "";
  long v = *w >= '0' && *w <= '9' ? strtol(w, &end, 10) : 0;
  if (!end || *end || v < 1 || v > 100) {
    *err = aucs_xstrdup("--max-rounds needs a number from 1 to 100");
    return -1;
  }
  ++*i;
  o->max_rounds = (unsigned)v;
  return 1;
}

void aucs_pipeline_fix_options_free(aucs_fix_options *o) {
  aucs_options_free(&o->detect);
  free(o->text);
  memset(o, 0, sizeof(*o));
}

/* As detect's: a finding left (review: an edit) is 1; otherwise 2 when no
 * kernel could be checked or a kernel's run failed, else 0. A 2 with some
 * kernel checked is partial: the module is written all the same. */
static aucs_exit fix_code(const aucs_fix_options *o,
                          const aucs_repair_result *r) {
  int left = o->review ? r->log.n != 0 : r->fixed + r->kept != r->nitems;
  if (left)
    return AUCS_EXIT_FINDINGS;
  if (r->incomplete && !r->none_checked && o->partial)
    *o->partial = 1;
  return r->incomplete ? AUCS_EXIT_USAGE : AUCS_EXIT_OK;
}

static aucs_exit verify_fixed(LLVMModuleRef m, aucs_buf *diag) {
  char *msg = NULL;
  int bad = LLVMVerifyModule(m, LLVMReturnStatusAction, &msg);
  if (bad)
    aucs_buf_printf(diag,
                    "aucs: internal error: the repaired module does not "
                    "verify (nothing written): %s\n", msg);
  LLVMDisposeMessage(msg);
  return bad ? AUCS_EXIT_INTERNAL : AUCS_EXIT_OK;
}

/* The checked source patch of r (patch.h), its report in said. */
static void source_patch(LLVMModuleRef m, const aucs_fix_options *o,
                         const aucs_repair_result *r, aucs_patch *sp,
                         aucs_buf *said) {
  aucs_patch_options po = {.cu = o->detect.input,
                           .load = o->load,
                           .detect = &o->detect,
                           .module = m,
                           .by_edit = o->review};
  aucs_patch_make(r, &po, sp, said);
}

/* `fix --format=sarif`: the results of the first detection, before any
 * edit (the repair's own first detection runs on the same seed). */
static int sarif_first(LLVMModuleRef m, const aucs_fix_options *o,
                       aucs_sarif *s, char **version, aucs_buf *diag) {
  LLVMValueRef *ks;
  size_t n = aucs_kernel_list(m, &ks);
  aucs_report rep;
  char *err = NULL;
  int bad = aucs_detect_run(m, ks, n, &o->detect, &rep, &err);
  free(ks);
  if (bad) {
    aucs_buf_printf(diag, "aucs: error: %s\n", err);
    free(err);
    return 1;
  }
  aucs_sarif_begin(s);
  aucs_sarif_add_report(s, &rep);
  *version = aucs_xstrdup(rep.version ? rep.version : "?");
  aucs_detect_report_free(&rep);
  return 0;
}

/* Why the output options of fix clash, or NULL. */
static const char *fix_format_clash(const aucs_fix_options *o) {
  int sarif = o->detect.sarif, doc = sarif || o->detect.json;
  if (doc && o->review)
    return sarif ? "fix: --format=sarif and --review both write stdout"
                 : "fix: --format=json and --review both write stdout";
  if (doc && o->patch && !strcmp(o->patch, "-"))
    return sarif ? "fix: --format=sarif and --patch - both write stdout"
                 : "fix: --format=json and --patch - both write stdout";
  return NULL;
}

aucs_exit aucs_pipeline_fix(LLVMModuleRef m, const aucs_fix_options *o,
                            aucs_buf *out, aucs_buf *diag) {
  static const aucs_fix_options none = {0};
  o = o ? o : &none;
  LLVMValueRef *ks;
  size_t n = kernels(m, &ks, diag);
  free(ks);
  if (!n)
    return AUCS_EXIT_USAGE;
  const char *clash = fix_format_clash(o);
  if (clash) {
    aucs_buf_printf(diag, "aucs: error: %s\n", clash);
    return AUCS_EXIT_USAGE;
  }
  aucs_repair_options ro = {.detect = &o->detect,
                            .trust_dynamic = o->trust_dynamic,
                            .max_rounds = o->max_rounds,
                            .time_budget = o->detect.time_budget,
                            .memory_limit = o->detect.memory_limit};
  aucs_patch_json *js = o->detect.json ? aucs_patch_json_new() : NULL;
  ro.first = js ? aucs_patch_json_first : NULL;
  ro.first_ctx = js;
  aucs_repair_ids_assign(m);
  aucs_sarif sarif = {0};
  char *version = NULL;
  if (o->detect.sarif && sarif_first(m, o, &sarif, &version, diag))
    return AUCS_EXIT_USAGE;
  aucs_review *rv = o->review ? aucs_review_begin(m) : NULL;
  aucs_repair_result r;
  char *err = NULL;
  aucs_exit code = AUCS_EXIT_USAGE;
  if (aucs_repair_run(m, &ro, &r, &err)) {
    aucs_buf_printf(diag, "aucs: error: %s\n", err);
    free(err);
  } else {
    aucs_patch sp = {0};
    aucs_buf said = {0};
    if (o->patch ||
        ((rv || version || js) && aucs_module_is_cu(o->detect.input)))
      source_patch(m, o, &r, &sp, &said);
    if (version)
      aucs_patch_sarif(&sp, &r, o->detect.input, sarif.results);
    if (rv) { /* one stream: the review says it all, in order */
      aucs_review_print_source(rv, m, &r, &sp, said.data, out);
      aucs_repair_print_brief(&r, diag);
    } else
      aucs_repair_print(&r, diag);
    if (o->detect.stats)
      aucs_repair_stats_print(&r.stats, diag);
    if (said.len && !rv)
      aucs_buf_puts(diag, said.data);
    code = fix_code(o, &r);
    if (o->patch && aucs_patch_write(&sp, o->patch, out, diag))
      code = AUCS_EXIT_USAGE;
    aucs_patch_cost_print(&r, &sp, diag);
    aucs_patch_json_print(js, &r, &sp, out);
    aucs_patch_free(&sp);
    aucs_buf_free(&said);
    aucs_repair_result_free(&r);
  }
  aucs_review_free(rv);
  aucs_patch_json_free(js);
  if (version) {
    aucs_buf log = {0};
    aucs_sarif_end(&sarif, version, &log);
    if (code != AUCS_EXIT_USAGE)
      aucs_buf_puts(out, log.data);
    aucs_buf_free(&log);
    free(version);
  }
  aucs_repair_ids_strip(m);
  return verify_fixed(m, diag) ? AUCS_EXIT_INTERNAL : code;
}

aucs_exit aucs_pipeline_fix_text(LLVMModuleRef m, const char *options,
                                 aucs_buf *out, aucs_buf *diag) {
  aucs_fix_options o = {0};
  o.text = aucs_xstrdup(options ? options : "");
  char *argv[256], *save = NULL, *err = NULL;
  int argc = 0;
  for (char *w = strtok_r(o.text, " \t\n", &save); w && argc < 256;
       w = strtok_r(NULL, " \t\n", &save))
    argv[argc++] = w;
  aucs_exit code = AUCS_EXIT_OK;
  for (int i = 0; i < argc && !code; i++) {
    int got = aucs_pipeline_fix_option(&o, argc, argv, &i, &err);
    if (got <= 0) {
      if (got)
        aucs_buf_printf(diag, "aucs: error: AUCS_OPTIONS: %s\n", err);
      else
        aucs_buf_printf(diag, "aucs: error: AUCS_OPTIONS: unknown option "
                              "'%s'\n", argv[i]);
      code = AUCS_EXIT_USAGE;
    }
    free(err);
    err = NULL;
  }
  if (!code)
    code = aucs_pipeline_fix(m, &o, out, diag);
  aucs_pipeline_fix_options_free(&o);
  return code;
}

/* ---- inside clang (cleanup.h) -------------------------------------------*/

static int cleanup(LLVMModuleRef m, aucs_buf *diag) {
  char *err = NULL;
  if (!aucs_cleanup_run(m, &err))
    return 0;
  aucs_buf_printf(diag, "aucs: error: %s: %s\n", module_name(m), err);
  free(err);
  return -1;
}

aucs_exit aucs_pipeline_clang_detect(LLVMModuleRef m, const char *options,
                                     aucs_buf *out, aucs_buf *diag) {
  LLVMModuleRef clone = LLVMCloneModule(m);
  aucs_exit code = cleanup(clone, diag)
                       ? AUCS_EXIT_INTERNAL
                       : aucs_pipeline_detect_text(clone, options, out, diag);
  LLVMDisposeModule(clone);
  return code;
}

aucs_exit aucs_pipeline_clang_fix(LLVMModuleRef m, const char *options,
                                  aucs_buf *out, aucs_buf *diag) {
  if (cleanup(m, diag))
    return AUCS_EXIT_INTERNAL;
  return aucs_pipeline_fix_text(m, options, out, diag);
}
