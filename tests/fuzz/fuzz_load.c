/*
 * fuzz_load: the libFuzzer target over what a hostile file reaches: module
 * loading as the CLI does it (input limits, the isolated load of .bc and
 * .ll), then `facts` and `detect` on small budgets (one search run, 2,000
 * steps per thread, a static checker with a 100 ms budget).
 *
 * Built by scripts/fuzz (clang-22 -fsanitize=fuzzer,address,undefined, in
 * build-fuzz/); its seeds are corpus kernels compiled by
 * tests/fuzz/seeds.sh. An input that crashes it belongs in
 * tests/fuzz/regressions/, which the normal suite runs through the CLI.
 */
#include "aucs/module.h"
#include "aucs/pipeline.h"
#include "aucs/util.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char budget[] =
    "--step-budget 2000 --memory-budget 1048576 --population 1 "
    "--generations 1 --replays 1 --static-budget 100 --smt-timeout 50";

/* The input as a file without extension, so loading sniffs its kind. */
static char *as_file(const uint8_t *data, size_t size) {
  const char *dir = getenv("TMPDIR");
  char *path =
      aucs_xasprintf("%s/aucs-fuzz-%ld.in", dir ? dir : "/tmp", (long)getpid());
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, size, f) != size || fclose(f))
    aucs_die(__FILE__, __LINE__, "cannot write the fuzz input");
  return path;
}

static void analyse(LLVMModuleRef m) {
  aucs_buf out = {0}, diag = {0};
  aucs_exit rc = aucs_pipeline_facts(m, &out, &diag);
  if (rc == AUCS_EXIT_OK)
    rc = aucs_pipeline_detect_text(m, budget, &out, &diag);
  AUCS_ASSERT(rc != AUCS_EXIT_INTERNAL);
  aucs_buf_free(&out);
  aucs_buf_free(&diag);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char *path = as_file(data, size);
  aucs_load_options o = {.isolate = 1, .max_input_size = 1 << 20};
  aucs_module *mod = NULL;
  char *err = NULL;
  if (aucs_module_load(path, &o, &mod, &err) == 0)
    analyse(aucs_module_llvm(mod));
  aucs_module_free(mod);
  free(err);
  unlink(path);
  free(path);
  return 0;
}
