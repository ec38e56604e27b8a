/*
 * pipeline: the steps each front end runs, one call a line.
 *
 *   facts:  check the module -> for each kernel: print its facts
 *   detect: check the module -> detect each kernel -> text or JSON report
 *   fix:    check the module -> (repair: not implemented yet)
 */
#include "aucs/pipeline.h"

#include "aucs/facts.h"
#include "aucs/kernel.h"
#include "aucs/module.h"

#include <llvm-c/Core.h>
#include <stdlib.h>

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

aucs_exit aucs_pipeline_facts(LLVMModuleRef m, aucs_buf *out, aucs_buf *diag) {
  LLVMValueRef *ks;
  size_t n = kernels(m, &ks, diag);
  for (size_t i = 0; i < n; i++)
    aucs_facts_print(out, ks[i]);
  free(ks);
  return n ? AUCS_EXIT_OK : AUCS_EXIT_USAGE;
}

static aucs_exit not_implemented(LLVMModuleRef m, const char *what,
                                 aucs_buf *diag) {
  LLVMValueRef *ks;
  size_t n = kernels(m, &ks, diag);
  free(ks);
  if (n)
    aucs_buf_printf(diag, "aucs: error: %s: not implemented yet\n", what);
  return AUCS_EXIT_USAGE;
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
  if (o && o->json)
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
  if (aucs_detect_options_parse(&o, options, &err)) {
    aucs_buf_printf(diag, "aucs: error: AUCS_OPTIONS: %s\n", err);
    free(err);
    code = AUCS_EXIT_USAGE;
  } else
    code = aucs_pipeline_detect(m, &o, out, diag);
  aucs_detect_options_free(&o);
  return code;
}

aucs_exit aucs_pipeline_fix(LLVMModuleRef m, aucs_buf *out, aucs_buf *diag) {
  (void)out;
  return not_implemented(m, "fix", diag);
}
