/*
 * bench: time the detector. For each input file, at -O0 (+sroa,simplifycfg)
 * and -O2, run `aucs detect` on every kernel with the given detect options
 * and print one Markdown table row per kernel: runs, simulated
 * thread-instructions, seconds, thread-instructions per second, findings.
 *
 *   bench [--options "--grid 1 --block 1024 --arg iters=400"] file.cu...
 *   bench --static file.cu...   (the static checker: proof, pairs and how
 *                                many were decided, queries, solver time)
 *
 * A benchmark prints numbers; it asserts nothing. scripts/bench runs it.
 */
#include "aucs/util.h"
#include "aucs/detect.h"
#include "aucs/kernel.h"
#include "aucs/module.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *base(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

static void row(const char *file, int level, const aucs_report_kernel *k,
                double seconds) {
  double rate = seconds > 0 ? (double)k->thread_instructions / seconds : 0;
  printf("| %s | -O%d | %s | %s | %llu | %llu | %.3f | %.1f | %zu |\n",
         base(file), level, k->demangled,
         k->status == AUCS_KERNEL_CHECKED ? "checked"
         : k->status == AUCS_KERNEL_ERROR ? "error"
                                          : "unsupported",
         (unsigned long long)k->runs,
         (unsigned long long)k->thread_instructions, seconds, rate / 1e6,
         k->findings.n);
}

/* --static: one row per kernel of the static checker's numbers. */
static int static_table;

static void static_row(const char *file, int level,
                       const aucs_report_kernel *k) {
  const aucs_report_static *st = &k->st;
  size_t decided = st->unsat + st->sat;
  printf("| %s | -O%d | %s | %s | %zu | %zu | %zu | %zu | %.1f | %llu | %.3f "
         "|\n",
         base(file), level, k->demangled, st->ran ? st->proof : "-",
         st->pairs, st->unsat, st->sat, st->unknown,
         st->pairs ? 100.0 * (double)decided / (double)st->pairs : 100.0,
         (unsigned long long)st->queries, st->seconds);
}

/* Whether a corpus kernel says it needs the CUDA SDK's headers
 * (tests/kernels/README.md, `AUCS-REQUIRES: cuda-sdk`). */
static int needs_sdk(const char *file) {
  FILE *f = fopen(file, "r");
  char line[512];
  int found = 0;
  while (f && !found && fgets(line, sizeof line, f))
    found = strstr(line, "AUCS-REQUIRES: cuda-sdk") != NULL;
  if (f)
    fclose(f);
  return found;
}

/* Detect every kernel of file at level, one kernel at a time so each row
 * has its own wall-clock time. */
static int bench(const char *file, int level, const char *options) {
  aucs_load_options load = {.no_cuda_sdk = !needs_sdk(file),
                            .opt_level = level};
  aucs_module *mod;
  char *err = NULL;
  if (aucs_module_load(file, &load, &mod, &err)) {
    fprintf(stderr, "bench: %s\n", err);
    free(err);
    return 1;
  }
  LLVMValueRef *ks;
  size_t n = aucs_kernel_list(aucs_module_llvm(mod), &ks);
  int rc = 0;
  for (size_t i = 0; i < n && !rc; i++) {
    aucs_detect_options o = {0};
    aucs_report r = {0};
    rc = aucs_options_parse(&o, options, &err);
    double t0 = aucs_seconds();
    if (!rc)
      rc = aucs_detect_run(aucs_module_llvm(mod), &ks[i], 1, &o, &r, &err);
    double t1 = aucs_seconds();
    if (!rc && static_table)
      static_row(file, level, &r.kernels[0]);
    else if (!rc)
      row(file, level, &r.kernels[0], t1 - t0);
    else
      fprintf(stderr, "bench: %s: %s\n", file, err);
    free(err);
    err = NULL;
    aucs_detect_report_free(&r);
    aucs_options_free(&o);
  }
  free(ks);
  aucs_module_free(mod);
  return rc;
}

int main(int argc, char **argv) {
  const char *options = "";
  int first = 1;
  if (argc > 1 && strcmp(argv[1], "--static") == 0) {
    static_table = 1;
    options = "--static";
    first = 2;
  }
  if (argc > first + 1 && strcmp(argv[first], "--options") == 0) {
    options = argv[first + 1];
    first += 2;
  }
  if (first >= argc) {
    fputs("usage: bench [--options \"DETECT OPTIONS\"] file.cu...\n", stderr);
    return 2;
  }
  if (static_table)
    printf("| file | level | kernel | proof | pairs | unsat | sat | unknown | "
           "%% decided | queries | solver seconds |\n"
           "|---|---|---|---|---|---|---|---|---|---|---|\n");
  else
    printf("| file | level | kernel | status | runs | thread-instructions | "
           "seconds | M thread-instr/s | findings |\n"
           "|---|---|---|---|---|---|---|---|---|\n");
  int rc = 0;
  for (int i = first; i < argc; i++)
    for (int level = 0; level <= 2; level += 2)
      rc |= bench(argv[i], level, options);
  return rc;
}
