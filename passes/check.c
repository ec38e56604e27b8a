/*
 * check: `aucs check PATH...` (see check.h), a front end beside aucs.c.
 *
 * Steps:
 *   1. sources.h turns the paths into the list of files, in input order.
 *      A first pass on the same pool compiles each .cu's host side and
 *      gathers every launch it makes (hostlaunch.h), so that a kernel is
 *      checked at its launch wherever in the project that launch is.
 *   2. The process pool (pool.h), at most `jobs` children: each file is
 *      checked in a forked child, which loads it with the command line's
 *      and its compile command's options, runs the detector exactly as
 *      `aucs detect` does (at the launches that the first pass, below,
 *      found), and sends back one JSON object (text report,
 *      JSON report, SARIF results, counts, exit code). A child killed by a
 *      signal, one that sends no object, or one that could not be started
 *      is that file's error.
 *   3. After each wait for the children (and every 0.1 s on a terminal,
 *      for the progress line), the text reports of the files done before
 *      the first one still running are printed (text format), so the
 *      output keeps the input order.
 *   4. The summary table, then the JSON document or SARIF log of the run.
 *
 * Limitation: a file's kernels are checked one after the other in its
 * child; one very slow file bounds the run's time whatever the jobs.
 * Launches are matched to kernels by mangled name across the files: two
 * files defining different kernels of one name share their launches.
 */
#include "aucs/check.h"
#include "aucs/tempfiles.h"

#include "aucs/hostlaunch.h"
#include "aucs/kernel.h"
#include "aucs/pipeline.h"
#include "aucs/pool.h"
#include "aucs/sarif.h"
#include "aucs/sources.h"

#include <jansson.h>
#include <llvm-c/Core.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *const kind_names[] = {
#define AUCS_FINDING(e, name) name,
#include "aucs/finding.def"
#undef AUCS_FINDING
};
enum { NKINDS = AUCS_FINDING_UNSUPPORTED }; /* finding kinds, as columns */

typedef struct job {
  double seconds;
  json_t *res; /* the child's object, or the file's error */
  int done;
} job;

typedef struct check {
  const aucs_check_options *o;
  aucs_sources src;
  /* Every launch the .cu files' host code makes (the first pass); host_seen:
   * some host side compiled, so a kernel with none is "never launched". */
  aucs_host_launches host;
  int host_seen;
  job *jobs;
  size_t done, shown, findings;
  unsigned max_jobs;
  int tty, sarif, json;
  double t0;
} check;

static json_t *file_error(const char *msg) {
  return json_pack("{s:s,s:i}", "error", msg, "exit", AUCS_EXIT_USAGE);
}

/* ---- the child: one file ------------------------------------------------*/

/* "aucs detect FILE <options as typed> <the compile command's>". */
static char *reproduce_prefix(const check *c, const aucs_source *s) {
  aucs_buf b = {0};
  aucs_buf_puts(&b, "aucs detect");
  aucs_buf_shell_word(&b, s->path);
  aucs_buf_puts(&b, c->o->load_words ? c->o->load_words : "");
  if (s->gpu_arch)
    aucs_buf_printf(&b, " --gpu-arch=%s", s->gpu_arch);
  for (size_t i = 0; i < s->nargs; i++) {
    const char *a = s->args[i];
    int plain = !strcmp(a, "-I") || !strncmp(a, "-D", 2) ||
                (i && !strcmp(s->args[i - 1], "-I"));
    char *w = plain ? aucs_xstrdup(a) : aucs_xasprintf("--clang-arg=%s", a);
    aucs_buf_shell_word(&b, w);
    free(w);
  }
  return aucs_buf_take(&b);
}

/* The findings that count (aucs_finding_counts) by kind; *warnings: the
 * others. */
static json_t *counts(const aucs_report *r, size_t *unsup, size_t *errors,
                      size_t *warnings) {
  size_t n[NKINDS] = {0};
  for (size_t i = 0; i < r->nkernels; i++) {
    const aucs_report_kernel *k = &r->kernels[i];
    for (size_t f = 0; f < k->findings.n; f++) {
      const aucs_finding *x = &k->findings.v[f];
      if (!aucs_finding_counts(x, r->strict))
        ++*warnings;
      else if ((size_t)x->kind < NKINDS)
        n[x->kind]++;
    }
    *unsup += k->status == AUCS_KERNEL_UNSUPPORTED;
    *errors += k->status == AUCS_KERNEL_ERROR;
  }
  json_t *a = json_array();
  for (size_t k = 0; k < NKINDS; k++)
    json_array_append_new(a, json_integer((json_int_t)n[k]));
  return a;
}

/* Everything the parent needs of one detect report. */
static json_t *summarize(const aucs_report *r) {
  aucs_buf text = {0}, js = {0};
  aucs_report_text(r, &text);
  aucs_report_json(r, &js);
  aucs_sarif s;
  aucs_sarif_begin(&s);
  aucs_sarif_add_report(&s, r);
  size_t unsup = 0, errors = 0, warnings = 0, host = 0;
  json_t *n = counts(r, &unsup, &errors, &warnings);
  for (size_t i = 0; i < r->nkernels; i++)
    host += r->kernels[i].launch_from &&
            !strncmp(r->kernels[i].launch_from, "host ", 5);
  json_t *res = json_pack(
      "{s:n,s:i,s:I,s:o,s:I,s:I,s:I,s:s,s:o,s:o}", "error", "exit",
      aucs_detect_exit(r), "kernels", (json_int_t)r->nkernels, "counts", n,
      "warnings", (json_int_t)warnings, "unsupported", (json_int_t)unsup,
      "kernel_errors", (json_int_t)errors, "text", text.data ? text.data : "",
      "report", json_loads(js.data, 0, NULL), "sarif", aucs_sarif_partial(&s));
  AUCS_ASSERT(res);
  json_object_set_new(res, "host_launched", json_integer((json_int_t)host));
  json_object_set_new(res, "library_kernels",
                      json_integer((json_int_t)r->nlibrary));
  aucs_buf_free(&text);
  aucs_buf_free(&js);
  return res;
}

/* A .cu with no kernel (host code, or device helpers only): nothing to
 * check, and nothing wrong, in a project. */
static json_t *no_kernel(const aucs_source *s) {
  aucs_report r = {.input = s->path, .version = AUCS_VERSION};
  json_t *res = summarize(&r);
  char *text = aucs_xasprintf("aucs: %s: no kernel (host code only)\n",
                              s->path);
  json_object_set_new(res, "text", json_string(text));
  json_object_set_new(res, "exit", json_integer(AUCS_EXIT_OK));
  free(text);
  return res;
}

static json_t *detect_module(const check *c, const aucs_source *s,
                             LLVMModuleRef m,
                             const aucs_host_launches *host) {
  char *err = NULL;
  LLVMValueRef *ks = NULL;
  size_t n = 0;
  if (aucs_module_check_nvptx(m, &err))
    return file_error(err);
  if (!(n = aucs_kernel_list(m, &ks)) && aucs_module_is_cu(s->path))
    return no_kernel(s);
  if (!n)
    err = aucs_xasprintf("%s: no kernel in module (no ptx_kernel function "
                         "and no nvvm.annotations kernel entry)",
                         s->path);
  aucs_detect_options d = *c->o->detect;
  d.input = s->path;
  d.command = reproduce_prefix(c, s);
  d.host = host;
  aucs_report r;
  json_t *res = NULL;
  if (!err && !aucs_detect_run(m, ks, n, &d, &r, &err)) {
    res = summarize(&r);
    aucs_detect_report_free(&r);
  }
  if (!res)
    res = file_error(err);
  free((char *)d.command);
  free(ks);
  free(err);
  return res;
}

/* The load options of file s: the command line's and its compile
 * command's; *args (free it) holds the clang arguments lo points into. */
static aucs_load_options file_options(const check *c, const aucs_source *s,
                                      const char ***args) {
  aucs_load_options lo = *c->o->load;
  *args = aucs_xcalloc((size_t)lo.n_extra_args + s->nargs + 1, sizeof(**args));
  for (int i = 0; i < lo.n_extra_args; i++)
    (*args)[i] = lo.extra_args[i];
  for (size_t i = 0; i < s->nargs; i++)
    (*args)[lo.n_extra_args + (int)i] = s->args[i];
  lo.extra_args = *args;
  lo.n_extra_args += (int)s->nargs;
  if (s->gpu_arch)
    lo.gpu_arch = s->gpu_arch;
  return lo;
}

/* Load file s and detect, at the launches of every file's host code. */
static json_t *check_file(const check *c, const aucs_source *s) {
  const char **args;
  aucs_load_options lo = file_options(c, s, &args);
  aucs_module *m = NULL;
  char *err = NULL;
  json_t *res = aucs_module_load(s->path, &lo, &m, &err)
                    ? file_error(err)
                    : detect_module(c, s, aucs_module_llvm(m),
                                    c->host_seen ? &c->host : NULL);
  aucs_module_free(m);
  free(err);
  free(args);
  return res;
}

/* ---- the first pass: the launches of every file's host code -------------*/

static json_t *dims_json(const uint32_t *d) {
  return json_pack("[I,I,I]", (json_int_t)d[0], (json_int_t)d[1],
                   (json_int_t)d[2]);
}

static void dims_of(const json_t *a, uint32_t *d) {
  for (size_t i = 0; i < 3; i++)
    d[i] = (uint32_t)json_integer_value(json_array_get(a, i));
}

/* A tie's program as [[op, width, arg, k], ...]. */
static json_t *expr_json(const aucs_host_expr *e) {
  json_t *a = json_array();
  for (size_t i = 0; i < e->n; i++)
    json_array_append_new(a, json_pack("[i,i,I,I]", e->ops[i].op,
                                       e->ops[i].width,
                                       (json_int_t)e->ops[i].arg,
                                       (json_int_t)e->ops[i].k));
  return a;
}

static void expr_of(const json_t *a, aucs_host_expr *e) {
  e->n = json_array_size(a);
  e->ops = e->n ? aucs_xcalloc(e->n, sizeof *e->ops) : NULL;
  for (size_t i = 0; i < e->n; i++) {
    const json_t *o = json_array_get(a, i);
    e->ops[i] = (aucs_host_op){
        (unsigned char)json_integer_value(json_array_get(o, 0)),
        (unsigned char)json_integer_value(json_array_get(o, 1)),
        (unsigned)json_integer_value(json_array_get(o, 2)),
        (uint64_t)json_integer_value(json_array_get(o, 3))};
  }
}

static json_t *launch_json(const aucs_host_launch *h) {
  json_t *args = json_array(), *ties = json_array();
  for (size_t i = 0; i < h->nargs; i++)
    json_array_append_new(
        args, json_pack("[b,I,I,b,I,I]", h->args[i].known,
                        (json_int_t)h->args[i].bits,
                        (json_int_t)h->args[i].same_as, h->args[i].ranged,
                        (json_int_t)h->args[i].lo, (json_int_t)h->args[i].hi));
  for (int d = 0; d < 3; d++)
    json_array_append_new(ties, expr_json(&h->grid_expr[d]));
  json_t *j = json_pack("{s:s,s:o,s:I,s:o,s:I,s:b,s:I,s:b,s:o}", "kernel",
                        h->kernel, "grid", dims_json(h->grid), "grid_known",
                        (json_int_t)h->grid_known, "block",
                        dims_json(h->block), "block_known",
                        (json_int_t)h->block_known, "shared_known",
                        h->shared_known, "shared", (json_int_t)h->shared,
                        "cooperative", h->cooperative, "args", args);
  AUCS_ASSERT(j);
  json_object_set_new(j, "grid_expr", ties);
  json_object_set_new(j, "block_multiple", json_integer(h->block_multiple));
  if (h->where)
    json_object_set_new(j, "where", json_string(h->where));
  return j;
}

static void launch_add(aucs_host_launches *l, const json_t *j) {
  l->v = aucs_xrealloc(l->v, (l->n + 1) * sizeof(*l->v));
  aucs_host_launch *h = &l->v[l->n++];
  const char *where = json_string_value(json_object_get(j, "where"));
  const char *kernel = json_string_value(json_object_get(j, "kernel"));
  const json_t *args = json_object_get(j, "args");
  *h = (aucs_host_launch){
      .kernel = aucs_xstrdup(kernel ? kernel : ""),
      .where = where ? aucs_xstrdup(where) : NULL,
      .grid_known =
          (unsigned)json_integer_value(json_object_get(j, "grid_known")),
      .block_known =
          (unsigned)json_integer_value(json_object_get(j, "block_known")),
      .shared_known = json_is_true(json_object_get(j, "shared_known")),
      .shared = (uint64_t)json_integer_value(json_object_get(j, "shared")),
      .cooperative = json_is_true(json_object_get(j, "cooperative")),
      .block_multiple =
          (uint32_t)json_integer_value(json_object_get(j, "block_multiple")),
      .nargs = json_array_size(args)};
  dims_of(json_object_get(j, "grid"), h->grid);
  dims_of(json_object_get(j, "block"), h->block);
  h->args = aucs_xcalloc(h->nargs + 1, sizeof(*h->args));
  for (size_t i = 0; i < h->nargs; i++) {
    const json_t *a = json_array_get(args, i);
    h->args[i].known = json_is_true(json_array_get(a, 0));
    h->args[i].bits = (uint64_t)json_integer_value(json_array_get(a, 1));
    h->args[i].same_as = (unsigned)json_integer_value(json_array_get(a, 2));
    h->args[i].ranged = json_is_true(json_array_get(a, 3));
    h->args[i].lo = (uint64_t)json_integer_value(json_array_get(a, 4));
    h->args[i].hi = (uint64_t)json_integer_value(json_array_get(a, 5));
  }
  for (int d = 0; d < 3; d++)
    expr_of(json_array_get(json_object_get(j, "grid_expr"), (size_t)d),
            &h->grid_expr[d]);
}

/* The pool's work in the first pass: file i's launches as a JSON array, or
 * nothing when it has no host side that compiles. */
static int host_child(void *ctx, size_t i, unsigned char **data,
                      size_t *len) {
  const check *c = ctx;
  const aucs_source *s = &c->src.v[i];
  const char **args;
  aucs_load_options lo = file_options(c, s, &args);
  lo.budget = NULL;
  aucs_host_launches l = {0};
  char *err = NULL;
  if (aucs_module_is_cu(s->path) &&
      !aucs_hostlaunch_load(s->path, &lo, &l, &err)) {
    json_t *a = json_array();
    for (size_t k = 0; k < l.n; k++)
      json_array_append_new(a, launch_json(&l.v[k]));
    char *text = json_dumps(a, JSON_COMPACT);
    json_decref(a);
    *data = (unsigned char *)text, *len = text ? strlen(text) : 0;
  }
  aucs_hostlaunch_free(&l);
  free(err);
  free(args);
  return AUCS_EXIT_OK;
}

static void host_done(void *ctx, size_t i, const aucs_pool_end *e) {
  check *c = ctx;
  (void)i;
  json_t *a = e->started && e->len
                  ? json_loadb((const char *)e->data, e->len, 0, NULL)
                  : NULL;
  size_t k;
  json_t *j;
  c->host_seen |= json_is_array(a);
  json_array_foreach(a, k, j) launch_add(&c->host, j);
  json_decref(a);
}

/* Before any file is checked: the launches of every .cu's host code, so a
 * kernel launched from another file of the project is checked at that
 * launch too. */
static void host_pass(check *c) {
  aucs_pool p = {.jobs = c->max_jobs,
                 .tick_ms = -1,
                 .ctx = c,
                 .work = host_child,
                 .done = host_done};
  aucs_pool_run(&p, c->src.n);
}

/* The pool's work: file i's object, compact, is the child's bytes. */
static int child(void *ctx, size_t i, unsigned char **data, size_t *len) {
  const check *c = ctx;
  json_t *res = check_file(c, &c->src.v[i]);
  char *text = json_dumps(res, JSON_COMPACT);
  json_decref(res);
  if (!text)
    return AUCS_EXIT_INTERNAL;
  *data = (unsigned char *)text, *len = strlen(text);
  return AUCS_EXIT_OK;
}

/* ---- the parent: the pool -----------------------------------------------*/

static size_t findings_of(const json_t *res) {
  size_t n = 0, i;
  json_t *v;
  json_array_foreach(json_object_get(res, "counts"), i, v) n +=
      (size_t)json_integer_value(v);
  return n;
}

static void progress(const check *c) {
  if (!c->tty)
    return;
  fprintf(stderr, "\raucs: check: %zu/%zu files, %zu finding%s, %.1f s\033[K",
          c->done, c->src.n, c->findings, c->findings == 1 ? "" : "s",
          aucs_seconds() - c->t0);
  fflush(stderr);
}

static void clear_progress(const check *c) {
  if (c->tty)
    fputs("\r\033[K", stderr);
}

/* A started child's outcome: its object, or the file's error. */
static json_t *collect(const aucs_pool_end *e) {
  json_t *res = NULL;
  if (WIFSIGNALED(e->status)) {
    char *msg =
        aucs_xasprintf("aucs crashed on this file (signal %d: %s)",
                       WTERMSIG(e->status), strsignal(WTERMSIG(e->status)));
    res = file_error(msg);
    free(msg);
  } else {
    res = json_loadb((const char *)e->data, e->len, 0, NULL);
  }
  if (!json_is_object(res)) {
    json_decref(res);
    char *msg = aucs_xasprintf("aucs stopped on this file (exit %d) without "
                               "a report",
                               WEXITSTATUS(e->status));
    res = file_error(msg);
    free(msg);
  }
  return res;
}

static json_t *start_error(int e) {
  char *msg = aucs_xasprintf("cannot start a job: %s", strerror(e));
  json_t *res = file_error(msg);
  free(msg);
  return res;
}

/* The pool's done: file i's result, or its error. */
static void finish(void *ctx, size_t i, const aucs_pool_end *e) {
  check *c = ctx;
  job *j = &c->jobs[i];
  j->seconds = e->seconds;
  j->res = e->started ? collect(e) : start_error(e->error);
  j->done = 1;
  c->done++;
  c->findings += findings_of(j->res);
}

static void print_file(const check *c, const job *j, const aucs_source *s) {
  const char *err = json_string_value(json_object_get(j->res, "error"));
  if (c->json || c->sarif)
    return;
  clear_progress(c);
  fprintf(stderr, "aucs: check: %s\n", s->path);
  if (err)
    fprintf(stderr, "aucs: error: %s\n", err);
  else
    fputs(json_string_value(json_object_get(j->res, "text")), stderr);
}

/* Print the reports of the files done, in input order, up to the first
 * one still running. */
static void show_ready(check *c) {
  while (c->shown < c->src.n && c->jobs[c->shown].done) {
    print_file(c, &c->jobs[c->shown], &c->src.v[c->shown]);
    c->shown++;
  }
}

/* The pool's tick: the reports now ready, then the progress line. */
static void tick(void *ctx) {
  check *c = ctx;
  show_ready(c);
  progress(c);
}

static void pool(check *c) {
  aucs_pool p = {.jobs = c->max_jobs,
                 .tick_ms = c->tty ? 100 : -1,
                 .ctx = c,
                 .work = child,
                 .done = finish,
                 .tick = tick};
  aucs_pool_run(&p, c->src.n);
  clear_progress(c);
}

/* ---- summary ------------------------------------------------------------*/

static size_t get(const json_t *res, const char *key) {
  return (size_t)json_integer_value(json_object_get(res, key));
}

static void table_row(const char *const *cells, const int *width, size_t n) {
  for (size_t i = 0; i < n; i++)
    fprintf(stderr, i ? "  %*s" : "%-*s", width[i], cells[i]);
  fputs("\n", stderr);
}

/* The cells of one file's row (free each). */
static void row_cells(const job *j, const aucs_source *s, char **cell,
                      size_t n) {
  int failed = json_object_get(j->res, "error") &&
               !json_is_null(json_object_get(j->res, "error"));
  json_t *counts = json_object_get(j->res, "counts");
  cell[0] = aucs_xstrdup(s->path);
  cell[1] = failed ? aucs_xstrdup("-")
                   : aucs_xasprintf("%zu", get(j->res, "kernels"));
  cell[2] = failed ? aucs_xstrdup("-")
                   : aucs_xasprintf("%zu", get(j->res, "host_launched"));
  for (size_t k = 0; k < NKINDS; k++)
    cell[3 + k] =
        failed ? aucs_xstrdup("-")
               : aucs_xasprintf("%lld",
                                json_integer_value(json_array_get(counts, k)));
  cell[n - 3] = failed ? aucs_xstrdup("-")
                       : aucs_xasprintf("%zu", get(j->res, "unsupported"));
  cell[n - 2] = failed ? aucs_xstrdup("failed")
                       : aucs_xasprintf("%zu", get(j->res, "kernel_errors"));
  cell[n - 1] = aucs_xasprintf("%.2fs", j->seconds);
}

static void table(const check *c) {
  enum { N = NKINDS + 6 };
  const char *head[N] = {"file", "kernels", "host-launched"};
  for (size_t k = 0; k < NKINDS; k++)
    head[3 + k] = kind_names[k];
  head[N - 3] = "unsupported", head[N - 2] = "error", head[N - 1] = "time";
  char **cells = aucs_xcalloc(c->src.n * N, sizeof(*cells));
  int width[N];
  for (size_t i = 0; i < N; i++)
    width[i] = (int)strlen(head[i]);
  for (size_t f = 0; f < c->src.n; f++) {
    row_cells(&c->jobs[f], &c->src.v[f], cells + f * N, N);
    for (size_t i = 0; i < N; i++)
      if ((int)strlen(cells[f * N + i]) > width[i])
        width[i] = (int)strlen(cells[f * N + i]);
  }
  table_row(head, width, N);
  for (size_t f = 0; f < c->src.n; f++)
    table_row((const char *const *)cells + f * N, width, N);
  for (size_t i = 0; i < c->src.n * N; i++)
    free(cells[i]);
  free(cells);
}

static void total_line(const check *c, int code) {
  size_t kernels = 0, lib = 0, unsup = 0, failed = 0, warn = 0;
  size_t n[NKINDS] = {0};
  for (size_t f = 0; f < c->src.n; f++) {
    const json_t *res = c->jobs[f].res;
    failed += !json_is_null(json_object_get(res, "error"));
    kernels += get(res, "kernels");
    lib += get(res, "library_kernels");
    unsup += get(res, "unsupported");
    warn += get(res, "warnings");
    for (size_t k = 0; k < NKINDS; k++)
      n[k] += (size_t)json_integer_value(
          json_array_get(json_object_get(res, "counts"), k));
  }
  fprintf(stderr, "aucs: total: %zu file%s, %zu kernel%s", c->src.n,
          c->src.n == 1 ? "" : "s", kernels, kernels == 1 ? "" : "s");
  if (lib)
    fprintf(stderr, " (and %zu library kernel%s not checked)", lib,
            lib == 1 ? "" : "s");
  fprintf(stderr, ", %zu finding%s", c->findings,
          c->findings == 1 ? "" : "s");
  const char *sep = " (";
  for (size_t k = 0; k < NKINDS; k++)
    if (n[k]) {
      fprintf(stderr, "%s%zu %s", sep, n[k], kind_names[k]);
      sep = ", ";
    }
  if (c->findings)
    fputs(")", stderr);
  if (warn)
    fprintf(stderr, ", %zu warning%s (--strict counts them)", warn,
            warn == 1 ? "" : "s");
  fprintf(stderr,
          ", %zu unsupported, %zu failed; %.2f s with -j %u "
          "(exit %d)\n",
          unsup, failed, aucs_seconds() - c->t0, c->max_jobs, code);
}

static int exit_code(const check *c) {
  int code = AUCS_EXIT_OK;
  for (size_t f = 0; f < c->src.n; f++) {
    int e = (int)get(c->jobs[f].res, "exit");
    if (e == AUCS_EXIT_FINDINGS)
      return AUCS_EXIT_FINDINGS;
    if (e != AUCS_EXIT_OK)
      code = AUCS_EXIT_USAGE;
  }
  return code;
}

/* ---- documents ----------------------------------------------------------*/

static json_t *file_json(const check *c, size_t f) {
  const json_t *res = c->jobs[f].res;
  json_t *err = json_object_get(res, "error");
  json_t *j = json_pack(
      "{s:s,s:s,s:O,s:I,s:O}", "file", c->src.v[f].path, "status",
      json_is_string(err) ? "error" : "checked", "error",
      err ? err : json_null(), "exit", (json_int_t)get(res, "exit"), "report",
      json_object_get(res, "report") ? json_object_get(res, "report")
                                     : json_null());
  if (c->o->detect->stats)
    json_object_set_new(j, "seconds", json_real(c->jobs[f].seconds));
  return j;
}

static void json_doc(const check *c, int code, aucs_buf *out) {
  json_t *files = json_array();
  for (size_t f = 0; f < c->src.n; f++)
    json_array_append_new(files, file_json(c, f));
  json_t *doc = json_pack("{s:s,s:s,s:o,s:i}", "tool", "aucs", "version",
                          AUCS_VERSION, "files", files, "exit", code);
  aucs_report_json_put(out, doc);
}

static void sarif_doc(const check *c, aucs_buf *out) {
  aucs_sarif s;
  aucs_sarif_begin(&s);
  for (size_t f = 0; f < c->src.n; f++) {
    const json_t *res = c->jobs[f].res;
    const char *err = json_string_value(json_object_get(res, "error"));
    if (err)
      aucs_sarif_add_input_error(&s, c->src.v[f].path, err);
    else
      aucs_sarif_add_partial(&s, json_object_get(res, "sarif"));
  }
  aucs_sarif_end(&s, AUCS_VERSION, out);
}

/* The report to path (aucs_write_file: atomic, devices written through). */
static int write_report(const char *path, const aucs_buf *text) {
  char *err;
  if (!aucs_write_file(path, text->data, text->len, &err))
    return 0;
  fprintf(stderr, "aucs: error: %s\n", err);
  free(err);
  return AUCS_EXIT_USAGE;
}

static int output(const check *c, int code) {
  aucs_buf out = {0};
  if (c->sarif)
    sarif_doc(c, &out);
  else if (c->json)
    json_doc(c, code, &out);
  int rc = 0;
  if (out.len && c->o->output)
    rc = write_report(c->o->output, &out);
  else if (out.len)
    fputs(out.data, stdout);
  aucs_buf_free(&out);
  return rc;
}

/* ---- the run ------------------------------------------------------------*/

static int sources(check *c) {
  for (size_t i = 0; i < c->o->npaths; i++) {
    char *err = NULL;
    if (aucs_sources_add(&c->src, c->o->paths[i], &err)) {
      fprintf(stderr, "aucs: error: %s\n", err);
      free(err);
      return AUCS_EXIT_USAGE;
    }
  }
  if (c->src.n)
    return 0;
  fputs("aucs: error: check: no .cu, .bc or .ll file in the inputs\n", stderr);
  return AUCS_EXIT_USAGE;
}

int aucs_check_run(const aucs_check_options *o) {
  check c = {.o = o,
             .max_jobs = o->jobs ? o->jobs : aucs_pool_cores(),
             .tty = isatty(STDERR_FILENO),
             .sarif = o->detect->sarif,
             .json = o->detect->json,
             .t0 = aucs_seconds()};
  int rc = sources(&c);
  if (rc) {
    aucs_sources_free(&c.src);
    return rc;
  }
  c.jobs = aucs_xcalloc(c.src.n, sizeof(*c.jobs));
  host_pass(&c);
  pool(&c);
  int code = exit_code(&c);
  table(&c);
  total_line(&c, code);
  rc = output(&c, code);
  for (size_t f = 0; f < c.src.n; f++)
    json_decref(c.jobs[f].res);
  free(c.jobs);
  aucs_sources_free(&c.src);
  aucs_hostlaunch_free(&c.host);
  return rc ? rc : code;
}
