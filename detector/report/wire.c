/*
 * wire: a kernel report to bytes and back, between a process and its fork.
 *
 * Layout: the aucs_report_kernel struct as it lies in memory, then every
 * heap object it owns, in a fixed order: its strings, the findings (each
 * finding struct, then its strings), reproduce commands, the static
 * part's witnesses, possible races and their witnesses, and
 * assumptions. Strings are a length (SIZE_MAX: NULL) and the bytes. On
 * reading, each owned pointer of the copied struct is replaced by the
 * object read; borrowed pointers (the kernel, instructions, static
 * strings) are kept, which is sound within one address space only.
 *
 * Limitation: see wire.h.
 */
#include "aucs/wire.h"

#include "aucs/util.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* ---- writing ------------------------------------------------------------*/

static void put(aucs_wire *w, const void *p, size_t n) {
  if (w->len + n > w->cap) {
    w->cap = (w->len + n) * 2 + 64;
    w->data = aucs_xrealloc(w->data, w->cap);
  }
  if (n)
    memcpy(w->data + w->len, p, n);
  w->len += n;
}

static void put_size(aucs_wire *w, size_t n) { put(w, &n, sizeof n); }

static void put_str(aucs_wire *w, const char *s) {
  size_t n = s ? strlen(s) : SIZE_MAX;
  put_size(w, n);
  if (s)
    put(w, s, n);
}

static void put_findings(aucs_wire *w, const aucs_findings *l) {
  put_size(w, l->n);
  for (size_t i = 0; i < l->n; i++) {
    put(w, &l->v[i], sizeof l->v[i]);
    put_str(w, l->v[i].object);
    put_str(w, l->v[i].args);
    put_str(w, l->v[i].shown_args);
    put_str(w, l->v[i].message);
    put_str(w, l->v[i].searched);
    put_str(w, l->v[i].natural);
    put_str(w, l->v[i].data_dependent);
    put_str(w, l->v[i].data_loads);
    put_str(w, l->v[i].benign);
    put_str(w, l->v[i].lock);
  }
}

static void put_witness(aucs_wire *w, const aucs_report_witness *x) {
  put(w, x, sizeof *x);
  put_str(w, x->args);
  put_str(w, x->shown_args);
}

static void put_static(aucs_wire *w, const aucs_report_kernel *k) {
  const aucs_report_static *st = &k->st;
  put_size(w, st->witness != NULL);
  for (size_t i = 0; st->witness && i < k->findings.n; i++) {
    put_size(w, st->witness[i] != NULL);
    if (st->witness[i])
      put_witness(w, st->witness[i]);
  }
  put_findings(w, &st->possible);
  for (size_t i = 0; i < st->possible.n; i++)
    put_witness(w, &st->possible_witness[i]);
  for (size_t i = 0; i < st->nassumptions; i++) {
    put_str(w, st->assumptions[i].location);
    put_str(w, st->assumptions[i].condition);
  }
}

void aucs_wire_put_kernel(aucs_wire *w, const aucs_report_kernel *k) {
  put(w, k, sizeof *k);
  put_str(w, k->name);
  put_str(w, k->demangled);
  put_str(w, k->reason);
  put_str(w, k->args);
  put_str(w, k->launch_from);
  put_str(w, k->assumption);
  put_str(w, k->budget);
  put_str(w, k->budget_checked);
  put_findings(w, &k->findings);
  put_size(w, k->reproduce != NULL);
  for (size_t i = 0; k->reproduce && i < k->findings.n; i++)
    put_str(w, k->reproduce[i]);
  for (size_t i = 0; i < k->nassumes; i++) {
    put_str(w, k->assumes[i]);
    put_str(w, k->assumes_at[i]);
  }
  put_static(w, k);
}

/* ---- reading ------------------------------------------------------------*/

typedef struct reader {
  const unsigned char *p, *end;
  int bad;
} reader;

static int get(reader *r, void *out, size_t n) {
  if (r->bad || (size_t)(r->end - r->p) < n) {
    r->bad = 1;
    memset(out, 0, n);
    return -1;
  }
  memcpy(out, r->p, n);
  r->p += n;
  return 0;
}

static size_t get_size(reader *r) {
  size_t n = 0;
  get(r, &n, sizeof n);
  return n;
}

/* A count of objects of `each` bytes that the rest could hold. */
static size_t get_count(reader *r, size_t each) {
  size_t n = get_size(r);
  if (!r->bad && n > (size_t)(r->end - r->p) / (each ? each : 1))
    r->bad = 1;
  return r->bad ? 0 : n;
}

static char *get_str(reader *r) {
  size_t n = get_size(r);
  if (r->bad || n == SIZE_MAX)
    return NULL;
  if ((size_t)(r->end - r->p) < n) {
    r->bad = 1;
    return NULL;
  }
  char *s = aucs_xmalloc(n + 1);
  get(r, s, n);
  s[n] = '\0';
  return s;
}

static void get_findings(reader *r, aucs_findings *l) {
  size_t n = get_count(r, sizeof(aucs_finding));
  *l = (aucs_findings){0};
  for (size_t i = 0; i < n && !r->bad; i++) {
    aucs_finding f;
    get(r, &f, sizeof f);
    f.object = get_str(r);
    f.args = get_str(r);
    f.shown_args = get_str(r);
    f.message = get_str(r);
    f.searched = get_str(r);
    f.natural = get_str(r);
    f.data_dependent = get_str(r);
    f.data_loads = get_str(r);
    f.benign = get_str(r);
    f.lock = get_str(r);
    aucs_findings_push(l, &f);
  }
}

static void get_witness(reader *r, aucs_report_witness *x) {
  get(r, x, sizeof *x);
  x->args = get_str(r);
  x->shown_args = get_str(r);
}

static void get_static(reader *r, aucs_report_kernel *k) {
  aucs_report_static *st = &k->st;
  size_t nf = k->findings.n, nass = st->nassumptions;
  st->witness = NULL, st->possible_witness = NULL;
  st->assumptions = NULL, st->nassumptions = 0;
  st->possible = (aucs_findings){0};
  if (get_size(r))
    st->witness = aucs_xcalloc(nf + 1, sizeof *st->witness);
  for (size_t i = 0; st->witness && i < nf && !r->bad; i++)
    if (get_size(r)) {
      st->witness[i] = aucs_xcalloc(1, sizeof **st->witness);
      get_witness(r, st->witness[i]);
    }
  get_findings(r, &st->possible);
  st->possible_witness =
      aucs_xcalloc(st->possible.n + 1, sizeof *st->possible_witness);
  for (size_t i = 0; i < st->possible.n && !r->bad; i++)
    get_witness(r, &st->possible_witness[i]);
  if (nass > (size_t)(r->end - r->p) / (2 * sizeof(size_t)))
    r->bad = 1;
  st->assumptions =
      aucs_xcalloc(r->bad ? 1 : nass + 1, sizeof *st->assumptions);
  for (; !r->bad && st->nassumptions < nass; st->nassumptions++) {
    st->assumptions[st->nassumptions].location = get_str(r);
    st->assumptions[st->nassumptions].condition = get_str(r);
  }
}

static void get_assumes(reader *r, aucs_report_kernel *k) {
  size_t n = k->nassumes;
  k->nassumes = 0;
  k->assumes = k->assumes_at = NULL;
  if (r->bad || n > (size_t)(r->end - r->p) / (2 * sizeof(size_t))) {
    r->bad = 1;
    return;
  }
  k->assumes = aucs_xcalloc(n + 1, sizeof *k->assumes);
  k->assumes_at = aucs_xcalloc(n + 1, sizeof *k->assumes_at);
  for (; !r->bad && k->nassumes < n; k->nassumes++) {
    k->assumes[k->nassumes] = get_str(r);
    k->assumes_at[k->nassumes] = get_str(r);
  }
}

int aucs_wire_get_kernel(const unsigned char *data, size_t len,
                         aucs_report_kernel *k) {
  reader r = {data, data + len, 0};
  get(&r, k, sizeof *k);
  k->name = get_str(&r);
  k->demangled = get_str(&r);
  k->reason = get_str(&r);
  k->args = get_str(&r);
  k->launch_from = get_str(&r);
  k->assumption = get_str(&r);
  k->budget = get_str(&r);
  k->budget_checked = get_str(&r);
  size_t nf = k->findings.n;
  get_findings(&r, &k->findings);
  if (!r.bad && k->findings.n != nf)
    r.bad = 1;
  k->reproduce = NULL;
  if (get_size(&r))
    k->reproduce = aucs_xcalloc(k->findings.n + 1, sizeof *k->reproduce);
  for (size_t i = 0; k->reproduce && i < k->findings.n; i++)
    k->reproduce[i] = get_str(&r);
  get_assumes(&r, k);
  get_static(&r, k);
  if (r.bad || r.p != r.end) {
    aucs_report_kernel_free(k);
    return -1;
  }
  return 0;
}
