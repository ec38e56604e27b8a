/*
 * scenarios: run the repair on the bug scenarios of benchmarks/scenarios/
 * and print one Markdown table row each: the bug, what the detector found,
 * what became of the scenario's own findings (fixed, unfixable, not
 * fixed), the edits, the findings left in the repaired module, whether the
 * repaired module verifies and re-detects as the repair said on another
 * seed, and the time of one detection and of the whole repair (CPU time
 * of this process, both in-process and one kernel at a time, so that the
 * ratio holds on a shared, loaded machine); then the
 * checked source patch (patch.h): how many edits have an exact source
 * form (of all, and of the barrier insertions, deletions and early-exit
 * flags, which should all have one), and whether the patch was written
 * (recompiled and detected clean) and `git apply --check` takes it. Run
 * from the repository root with relative paths, so the patch's paths are
 * the repository's.
 *
 *   scenarios file.cu...
 *
 * Each file states, in comment lines, `BUG: ...`, `EXPECT: fixed |
 * unfixable | not-fixed` and `LAUNCH: <fix options>`. A benchmark prints
 * numbers; it asserts nothing. `scripts/bench scenarios` runs it.
 */
#include "aucs/detect.h"
#include "aucs/kernel.h"
#include "aucs/module.h"
#include "aucs/patch.h"
#include "aucs/pipeline.h"
#include "aucs/repair.h"
#include "aucs/util.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char *base(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* The text after "// KEY:" in the file at path, or "". */
static void header(const char *path, const char *key, char *out, size_t n) {
  FILE *f = fopen(path, "r");
  char line[1024];
  size_t klen = strlen(key);
  out[0] = '\0';
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "// ", 3) && !strncmp(line + 3, key, klen) &&
        line[3 + klen] == ':') {
      snprintf(out, n, "%s", line + 4 + klen + strspn(line + 4 + klen, " "));
      out[strcspn(out, "\n")] = '\0';
      break;
    }
  if (f)
    fclose(f);
}

static int parse_options(aucs_fix_options *o, char *text) {
  char *argv[64], *save = NULL, *err = NULL;
  int argc = 0;
  for (char *w = strtok_r(text, " ", &save); w && argc < 64;
       w = strtok_r(NULL, " ", &save))
    argv[argc++] = w;
  for (int i = 0; i < argc; i++)
    if (aucs_pipeline_fix_option(o, argc, argv, &i, &err) <= 0) {
      fprintf(stderr, "scenarios: bad option '%s': %s\n", argv[i],
              err ? err : "unknown");
      free(err);
      return 1;
    }
  return 0;
}

static size_t count(const aucs_report *r) {
  size_t n = 0;
  for (size_t k = 0; k < r->nkernels; k++)
    n += r->kernels[k].findings.n;
  return n;
}

/* CPU seconds of this process (the repair's detections run in it: one
 * job at a time). */
static double cpu_seconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Timed runs of detect and of the repair, alternated so that both see the
 * same load: at least MIN_RUNS, and a short scenario more (up to MAX_RUNS,
 * until TIMED_SECONDS of CPU), so that a few-ms detection is not decided by
 * one noisy run. */
enum { MIN_RUNS = 5, MAX_RUNS = 41 };
#define TIMED_SECONDS 0.5

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, by_value);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static size_t detect(LLVMModuleRef m, const aucs_detect_options *o) {
  LLVMValueRef *ks;
  size_t n = aucs_kernel_list(m, &ks);
  aucs_report r;
  char *err = NULL;
  size_t found = 0;
  if (!aucs_detect_run(m, ks, n, o, &r, &err)) {
    found = count(&r);
    aucs_detect_report_free(&r);
  }
  free(err);
  free(ks);
  return found;
}

/* What became of the scenario's own findings (those of the first
 * detection). */
static const char *outcome(const aucs_repair_result *r) {
  int unfixable = 0, remains = 0;
  for (size_t i = 0; i < r->nitems; i++) {
    if (r->items[i].introduced)
      continue;
    unfixable += r->items[i].outcome == AUCS_OUTCOME_UNFIXABLE;
    remains += r->items[i].outcome == AUCS_OUTCOME_REMAINS;
  }
  return remains ? "not-fixed" : unfixable ? "unfixable" : "fixed";
}

/* Totals over the scenarios: exact / all edits, exact / barrier edits. */
static size_t all_exact, all_edits, bar_exact, bar_edits;

static int barrier_edit(aucs_edit_kind k) {
  return k == AUCS_EDIT_INSERT_BARRIER || k == AUCS_EDIT_DELETE_BARRIER ||
         k == AUCS_EDIT_FLATTEN_EXIT;
}

/* Whether `git apply --check` takes the diff. */
static int applies(const char *diff) {
  char tmp[] = "/tmp/aucs-scenario-XXXXXX";
  int fd = mkstemp(tmp);
  if (fd < 0)
    return 0;
  size_t n = strlen(diff);
  int ok = write(fd, diff, n) == (ssize_t)n;
  close(fd);
  char *cmd = aucs_xasprintf("git apply --check %s 2>/dev/null", tmp);
  ok = ok && system(cmd) == 0;
  free(cmd);
  unlink(tmp);
  return ok;
}

/* "| exact | barrier edits exact | patch |" cells of one scenario. */
static void patch_cells(LLVMModuleRef m, const char *path,
                        aucs_load_options *lo, aucs_fix_options *o,
                        const aucs_repair_result *r, char *cells, size_t n) {
  aucs_patch p;
  aucs_buf said = {0};
  aucs_patch_options po = {
      .cu = path, .load = lo, .detect = &o->detect, .module = m};
  aucs_patch_make(r, &po, &p, &said);
  size_t exact = 0, bars = 0, bars_exact = 0;
  for (size_t i = 0; i < r->log.n; i++) {
    int ok = p.per_edit[i] && strncmp(p.per_edit[i], "IR only", 7);
    exact += ok;
    bars += barrier_edit(r->log.v[i].kind);
    bars_exact += ok && barrier_edit(r->log.v[i].kind);
  }
  all_exact += exact, all_edits += r->log.n;
  bar_exact += bars_exact, bar_edits += bars;
  const char *verdict = !r->log.n                   ? "no edit"
                        : p.diff && applies(p.diff) ? "checked, applies"
                        : p.diff                    ? "checked, does not apply"
                        : exact                     ? "check failed"
                                                    : "IR only";
  snprintf(cells, n, "%zu/%zu | %zu/%zu | %s", exact, r->log.n, bars_exact,
           bars, verdict);
  aucs_patch_free(&p);
  aucs_buf_free(&said);
}

static void scenario(const char *path) {
  char bug[256], expect[64], launch[1024];
  header(path, "BUG", bug, sizeof bug);
  header(path, "EXPECT", expect, sizeof expect);
  header(path, "LAUNCH", launch, sizeof launch);
  aucs_fix_options o = {0};
  aucs_load_options lo = {.no_cuda_sdk = 1};
  aucs_module *mod = NULL;
  char *err = NULL;
  if (parse_options(&o, launch) || aucs_module_load(path, &lo, &mod, &err)) {
    printf("| %s | %s | error: %s |\n", base(path), bug, err ? err : "");
    free(err);
    aucs_pipeline_fix_options_free(&o);
    return;
  }
  LLVMModuleRef m = aucs_module_llvm(mod);
  aucs_detect_options one = o.detect;
  one.jobs = 1; /* in this process, as the repair's detections */
  aucs_repair_options ro = {.detect = &o.detect,
                            .trust_dynamic = o.trust_dynamic};
  aucs_repair_result r;
  double dt[MAX_RUNS], rt[MAX_RUNS], spent = 0;
  size_t found = 0;
  int n = 0;
  while (n < MIN_RUNS || (n < MAX_RUNS && spent < TIMED_SECONDS)) {
    double t0 = cpu_seconds();
    found = detect(m, &one);
    dt[n] = cpu_seconds() - t0;
    LLVMModuleRef c = LLVMCloneModule(m);
    t0 = cpu_seconds();
    int bad = aucs_repair_run(c, &ro, &r, &err);
    rt[n] = cpu_seconds() - t0;
    spent += dt[n] + rt[n];
    n++;
    if (!bad)
      aucs_repair_result_free(&r);
    free(err);
    err = NULL;
    LLVMDisposeModule(c);
  }
  int failed = aucs_repair_run(m, &ro, &r, &err); /* the one reported */
  double t1 = median(dt, n), t2 = median(rt, n);
  char cells[128] = "- | - | -";
  if (!failed)
    patch_cells(m, path, &lo, &o, &r, cells, sizeof cells);
  aucs_repair_ids_strip(m);
  char *msg = NULL;
  int bad = LLVMVerifyModule(m, LLVMReturnStatusAction, &msg);
  LLVMDisposeMessage(msg);
  o.detect.seed = 12345;
  o.detect.has_seed = 1;
  size_t left = failed ? 0 : detect(m, &o.detect);
  const char *got = failed ? "error" : outcome(&r);
  printf("| %s | %s | %zu | %s | %s | %zu | %zu | %s | %.1f | %.1f | %.2f | "
         "%s |\n",
         base(path), bug, found, got, strcmp(got, expect) ? "no" : "yes",
         failed ? 0 : r.log.n, left, bad ? "no" : "yes", t1 * 1e3,
         t2 * 1e3, t1 > 0 ? t2 / t1 : 0.0, cells);
  fflush(stdout);
  if (!failed)
    aucs_repair_result_free(&r);
  free(err);
  aucs_module_free(mod);
  aucs_pipeline_fix_options_free(&o);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs("usage: scenarios file.cu...\n", stderr);
    return 2;
  }
  puts("| scenario | bug | detected | outcome | as expected | edits | left "
       "(seed 12345) | verifies | detect ms | repair ms | repair/detect | "
       "source-exact edits | exact insert/delete/exit edits | source patch |");
  puts("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
  for (int i = 1; i < argc; i++)
    scenario(argv[i]);
  printf("\nsource-exact edits: %zu/%zu (%.0f%%); insert-barrier, "
         "delete-barrier and flatten-exit edits: %zu/%zu (%.0f%%)\n",
         all_exact, all_edits, all_edits ? 100.0 * all_exact / all_edits : 0.0,
         bar_exact, bar_edits, bar_edits ? 100.0 * bar_exact / bar_edits : 0.0);
  return 0;
}
