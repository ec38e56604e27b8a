/*
 * family: a module's kernels checked by template family (issue 33).
 *
 * The instantiations of one template (reverseKernel<uchar, 16>, <uchar, 8>,
 * ...) mostly ask the static checker one formula up to renaming per pair;
 * a hard one runs out of its limit in each instantiation alike. So:
 *   1. Kernels are grouped into families by their demangled name without
 *      template arguments and parameters (detect.c's --kernel matching),
 *      in the order of their first kernel; a kernel without a demangled
 *      name is a family of its own.
 *   2. Each family is one task of the process pool (jobs.h): its kernels
 *      are checked one after another in one process, under one scope of
 *      the query cache (qcache.h: SAT and UNKNOWN answers are kept for
 *      the family; UNSAT ones, as before, for the process). The grouping
 *      does not depend on -j, so neither does what a kernel finds in the
 *      cache from its family.
 *   3. A task's result is each kernel's report on the wire, each preceded
 *      by its length (8 bytes); a task whose bytes do not parse is run
 *      again in the parent (jobs.h).
 */
#include "detect_impl.h"

typedef struct fam {
  kstate *st;
  size_t *kern;  /* the kernels (indices into st), family after family */
  size_t *first; /* family f: kern[first[f] .. first[f + 1]) */
  size_t n;
} fam;

/* The family name of kernel fn (free it). */
static char *family_name(LLVMValueRef fn) {
  size_t len;
  const char *name = LLVMGetValueName2(fn, &len);
  char *dem = aucs_demangle(name);
  if (!dem)
    return aucs_xstrdup(name);
  size_t n = dt_name_len(dem);
  dem[dt_base_len(dem, n)] = 0;
  return dem;
}

static void check_family(fam *F, size_t f, aucs_wire *out) {
  for (size_t j = F->first[f]; j < F->first[f + 1]; j++) {
    kstate *s = &F->st[F->kern[j]];
    aucs_qcache_scope(s->cache, (unsigned)f + 1);
    dt_check_kernel(s);
    aucs_qcache_scope(s->cache, 0);
    if (!out)
      continue;
    aucs_wire one = {0};
    aucs_wire_put_kernel(&one, s->k);
    uint64_t len = one.len;
    if (out->len + 8 + one.len > out->cap) {
      out->cap = 2 * (out->len + 8 + one.len);
      out->data = aucs_xrealloc(out->data, out->cap);
    }
    memcpy(out->data + out->len, &len, 8);
    if (one.len)
      memcpy(out->data + out->len + 8, one.data, one.len);
    out->len += 8 + one.len;
    free(one.data);
  }
}

static void fam_work(void *ctx, size_t f, aucs_wire *out) {
  check_family(ctx, f, out);
}

static int fam_take(void *ctx, size_t f, const unsigned char *data,
                    size_t len) {
  fam *F = ctx;
  size_t n = F->first[f + 1] - F->first[f], at = 0;
  aucs_report_kernel *got = aucs_xcalloc(n + 1, sizeof *got);
  size_t ok = 0;
  for (; ok < n; ok++) {
    uint64_t l;
    if (len - at < 8)
      break;
    memcpy(&l, data + at, 8);
    if (l > len - at - 8 || aucs_wire_get_kernel(data + at + 8, l, &got[ok]))
      break;
    at += 8 + l;
  }
  if (ok < n || at != len) {
    for (size_t i = 0; i < ok; i++)
      aucs_report_kernel_free(&got[i]);
    free(got);
    return -1;
  }
  for (size_t i = 0; i < n; i++) {
    aucs_report_kernel *k = F->st[F->kern[F->first[f] + i]].k;
    aucs_report_kernel_free(k);
    *k = got[i];
  }
  free(got);
  return 0;
}

static void fam_local(void *ctx, size_t f) { check_family(ctx, f, NULL); }

void dt_check_families(kstate *st, const size_t *tasks, size_t nt,
                       unsigned jobs, double started) {
  fam F = {.st = st};
  F.kern = aucs_xcalloc(nt + 1, sizeof *F.kern);
  F.first = aucs_xcalloc(nt + 2, sizeof *F.first);
  char **names = aucs_xcalloc(nt + 1, sizeof *names);
  unsigned char *placed = aucs_xcalloc(nt + 1, 1);
  for (size_t i = 0; i < nt; i++)
    names[i] = family_name(st[tasks[i]].k->fn);
  size_t at = 0;
  for (size_t i = 0; i < nt; i++) {
    if (placed[i])
      continue;
    F.first[F.n++] = at;
    for (size_t j = i; j < nt; j++)
      if (!placed[j] && !strcmp(names[i], names[j])) {
        placed[j] = 1;
        F.kern[at++] = tasks[j];
      }
  }
  F.first[F.n] = at;
  for (size_t f = 0; f < F.n && f < jobs; f++) /* no wait before these */
    st[F.kern[F.first[f]]].start = started;
  size_t *fs = aucs_xcalloc(F.n + 1, sizeof *fs);
  for (size_t f = 0; f < F.n; f++)
    fs[f] = f;
  static const aucs_jobs_fns fns = {fam_work, fam_take, fam_local};
  aucs_jobs_run(fs, F.n, jobs, &fns, &F);
  for (size_t i = 0; i < nt; i++)
    free(names[i]);
  free(names);
  free(placed);
  free(fs);
  free(F.kern);
  free(F.first);
}
