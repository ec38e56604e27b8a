/*
 * launchplan: the launch a kernel is checked at, and where it comes from.
 *
 * Steps, for one kernel:
 *   1. The user's launch (--grid, --block, or an --inputs file) is fixed
 *      as given, part by part; with both grid and block given, the host
 *      code is not used at all (its arguments may belong to its launch).
 *   2. Otherwise the host code's: of the kernel's launches in its
 *      translation unit (hostlaunch.h), the first whose block is wholly
 *      known, else the first. Each of its grid and block is fixed when all
 *      three dimensions are known and within CUDA's limits; its constant
 *      scalar arguments are fixed unless the user set them; its dynamic
 *      shared bytes are used unless the user gave them.
 *   3. What the host computes from values it also passes the kernel (a
 *      grid `(n + 255) / 256`, `k(w, h, w)`) is tied: the search chooses
 *      the grid (and the other arguments); aucs_launchplan_derive then
 *      takes the smallest value of the argument each dimension grows with
 *      that gives the search's dimension (n = 257 for a grid of 2), and
 *      the arguments tied to others.
 *   4. What none of these fixes is searched as without host code.
 * The plan says which in one line ("host k.cu:37 <<<?, 256>>>; grid
 * searched", "given", "searched"), shown with every finding.
 *
 * Limitation: one host launch per kernel is checked; a kernel launched with
 * two shapes is checked at the first (the line counts the others).
 */
#include "aucs/launchplan.h"

#include "aucs/options.h"
#include "aucs/util.h"

#include <stdlib.h>
#include <string.h>

/* The launch of kernel to use: the first with a known block, else the
 * first; l->n when it has none. *count: how many it has. */
static size_t pick(const aucs_host_launches *l, const char *kernel,
                   size_t *count) {
  size_t first = l->n, known = l->n;
  *count = 0;
  for (size_t i = aucs_hostlaunch_next(l, kernel, 0); i < l->n;
       i = aucs_hostlaunch_next(l, kernel, i + 1)) {
    ++*count;
    first = first < l->n ? first : i;
    if (known == l->n && l->v[i].block_known == 7)
      known = i;
  }
  return known < l->n ? known : first;
}

/* dims[0..3) when all three are known and within lim; 0 otherwise. */
static int whole(const uint32_t *dims, unsigned known, const uint32_t *lim,
                 uint64_t total, aucs_dim3 *out) {
  uint64_t n = 1;
  for (int i = 0; i < 3; i++) {
    if (!(known >> i & 1) || dims[i] == 0 || dims[i] > lim[i])
      return 0;
    n *= dims[i];
  }
  if (n > total)
    return 0;
  *out = (aucs_dim3){dims[0], dims[1], dims[2]};
  return 1;
}

/* "8192", "(16,16,1)", "?" for what is not known. */
static void put_dims(aucs_buf *b, const uint32_t *d, unsigned known) {
  if ((known & 6) == 6 && d[1] == 1 && d[2] == 1) {
    if (known & 1)
      aucs_buf_printf(b, "%u", d[0]);
    else
      aucs_buf_puts(b, "?");
    return;
  }
  for (int i = 0; i < 3; i++) {
    aucs_buf_puts(b, i ? "," : "(");
    if (known >> i & 1)
      aucs_buf_printf(b, "%u", d[i]);
    else
      aucs_buf_puts(b, "?");
  }
  aucs_buf_puts(b, ")");
}

static char *host_text(const aucs_host_launch *h, const aucs_launchplan *p,
                       int user_grid, int user_block, size_t count) {
  aucs_buf b = {0};
  aucs_buf_printf(&b, "host %s <<<", h->where ? h->where : "(no line)");
  put_dims(&b, h->grid, h->grid_known);
  aucs_buf_puts(&b, ", ");
  put_dims(&b, h->block, h->block_known);
  if (h->shared_known && h->shared)
    aucs_buf_printf(&b, ", %llu", (unsigned long long)h->shared);
  aucs_buf_puts(&b, ">>>");
  for (int i = 0; i < 2; i++) {
    int user = i ? user_block : user_grid,
        fixed = i ? p->has_block : p->has_grid, tied = !i && p->grid_tied;
    if (user || !fixed)
      aucs_buf_printf(&b, "; %s %s", i ? "block" : "grid",
                      user   ? "given"
                      : tied ? "from the arguments"
                             : "searched");
    if (i && p->block_multiple)
      aucs_buf_printf(&b, " (x a multiple of %u)", p->block_multiple);
  }
  if (count > 1)
    aucs_buf_printf(&b, "; %zu other launch%s not checked", count - 1,
                    count > 2 ? "es" : "");
  return aucs_buf_take(&b);
}

void aucs_launchplan_of(const aucs_detect_options *o, const char *kernel,
                        aucs_launchplan *p) {
  static const uint32_t grid_lim[3] = {2147483647u, 65535, 65535},
                        block_lim[3] = {1024, 1024, 64};
  *p = (aucs_launchplan){.has_grid = o->has_grid,
                         .has_block = o->has_block,
                         .grid = o->grid,
                         .block = o->block};
  size_t count = 0;
  int mine = o->host && !(o->has_grid && o->has_block);
  size_t i = mine ? pick(o->host, kernel, &count) : 0;
  if (mine && i < o->host->n) {
    const aucs_host_launch *h = p->host = &o->host->v[i];
    if (!p->has_grid)
      p->has_grid = whole(h->grid, h->grid_known, grid_lim, UINT64_MAX,
                          &p->grid);
    if (!p->has_block)
      p->has_block = whole(h->block, h->block_known, block_lim, 1024,
                           &p->block);
    for (int d = 0; d < 3; d++)
      p->grid_tied |= !p->has_grid && h->grid_expr[d].n != 0;
    if (!p->has_block) /* neither the user's nor the host's whole block */
      p->block_multiple = h->block_multiple;
    for (size_t a = 0; a < h->nargs; a++)
      p->args_tied |= h->args[a].same_as != 0;
    if (!o->user.has_dynamic_shared && h->shared_known && h->shared &&
        h->shared <= (1u << 30))
      p->dynamic_shared = h->shared;
  }
  int given = o->has_grid || o->has_block || o->user.nargs;
  p->from = p->host ? host_text(p->host, p, o->has_grid, o->has_block, count)
            : given ? aucs_xstrdup("given")
            : o->host ? aucs_xstrdup("searched; no launch in the host code")
                      : aucs_xstrdup("searched");
}

int aucs_launchplan_arg(const aucs_launchplan *p, size_t i, uint64_t *bits) {
  if (!p->host || i >= p->host->nargs || !p->host->args[i].known)
    return 0;
  *bits = p->host->args[i].bits;
  return 1;
}

/* Dimension i of the host's grid for args: its constant, its computation,
 * or else the search's (keep). */
static int grid_dim(const aucs_host_launch *h, const uint64_t *args, size_t n,
                    int i, uint32_t keep, uint32_t *out) {
  uint64_t v;
  if (h->grid_known >> i & 1)
    return *out = h->grid[i], 0;
  if (!h->grid_expr[i].n)
    return *out = keep, 0;
  if (aucs_hostlaunch_eval(&h->grid_expr[i], args, n, &v))
    return -1;
  *out = (uint32_t)v;
  return 0;
}

/* The smallest value of argument a (a positive int of its width) for
 * which dimension i of the host's grid is want, when the dimension grows
 * with a (the host's `(n + B - 1) / B`, `n >> 7`); 0 with args[a] set, -1
 * when no such value is found. */
static int solve(const aucs_host_launch *h, uint64_t *args, size_t n, int i,
                 unsigned a, unsigned width, uint32_t want) {
  uint64_t lo = 1, hi = width >= 32 ? 0x7fffffffu : (1ull << (width - 1)) - 1,
           keep = args[a];
  uint32_t got;
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    args[a] = mid;
    if (!grid_dim(h, args, n, i, want, &got) && got >= want)
      hi = mid;
    else
      lo = mid + 1;
  }
  args[a] = lo;
  if (!grid_dim(h, args, n, i, want, &got) && got == want)
    return 0;
  args[a] = keep;
  return -1;
}

/* Dimension i of the grid computed from an argument no earlier dimension
 * set: that argument is chosen so that the dimension is the search's
 * (want); *solved marks it. */
static void solve_dim(const aucs_host_launch *h, uint64_t *args, size_t n,
                      int i, uint32_t want, unsigned char *solved) {
  const aucs_host_expr *e = &h->grid_expr[i];
  for (size_t k = 0; k < e->n; k++) {
    const aucs_host_op *o = &e->ops[k];
    if (o->op != AUCS_HX_ARG || o->arg >= n || solved[o->arg])
      continue;
    if (!solve(h, args, n, i, o->arg, o->width, want)) {
      solved[o->arg] = 1;
      return;
    }
  }
}

int aucs_launchplan_range(const aucs_launchplan *p, size_t i, uint64_t *lo,
                          uint64_t *hi) {
  if (i >= p->nranged || !p->ranged[i])
    return 0;
  *lo = p->host->args[i].lo;
  *hi = p->host->args[i].hi;
  return 1;
}

int aucs_launchplan_derive(const aucs_launchplan *p, uint64_t *args,
                           size_t n, aucs_dim3 *grid) {
  static const uint32_t lim[3] = {2147483647u, 65535, 65535};
  const aucs_host_launch *h = p->host;
  uint64_t lo, hi;
  for (size_t i = 0; i < n; i++)
    if (aucs_launchplan_range(p, i, &lo, &hi) && (args[i] < lo || args[i] > hi))
      args[i] =
          hi - lo == UINT64_MAX ? args[i] : lo + (args[i] - lo) % (hi - lo + 1);
  if (p->grid_tied) {
    const uint32_t want[3] = {grid->x, grid->y, grid->z};
    unsigned char *solved = aucs_xcalloc(n + 1, 1);
    for (int i = 0; i < 3; i++)
      solve_dim(h, args, n, i, want[i], solved);
    free(solved);
  }
  for (size_t i = 0; p->args_tied && i < n && i < h->nargs; i++)
    if (h->args[i].same_as && h->args[i].same_as - 1 < n)
      args[i] = args[h->args[i].same_as - 1];
  if (!p->grid_tied)
    return 0;
  uint32_t d[3], keep[3] = {grid->x, grid->y, grid->z};
  for (int i = 0; i < 3; i++)
    if (grid_dim(h, args, n, i, keep[i], &d[i]) || !d[i] || d[i] > lim[i])
      return -1;
  *grid = (aucs_dim3){d[0], d[1], d[2]};
  return 0;
}

/* The host's bounds a leave out values of x's own type (a bool's 0..1
 * does not). */
static int narrower(const aucs_input *x, const aucs_host_arg *a) {
  uint64_t top = x->p.bits >= 64 ? UINT64_MAX : (1ull << x->p.bits) - 1;
  return a->lo > 0 || a->hi < top;
}

void aucs_launchplan_bind(aucs_launchplan *p, const aucs_inputs *in,
                          aucs_inputs_values *iv) {
  const aucs_host_launch *h = p->host;
  aucs_buf line = {0};
  for (size_t j = 0; j < in->n; j++) {
    const aucs_input *x = &in->v[j];
    uint64_t bits;
    int scalar = x->p.kind == AUCS_PARAM_INT || x->p.kind == AUCS_PARAM_FLOAT;
    if (!x->field && scalar && !iv->fixed[j] &&
        aucs_launchplan_arg(p, x->param, &bits)) {
      iv->vals[j] = bits;
      iv->fixed[j] = 1;
    } else if (!x->field && x->p.kind == AUCS_PARAM_INT && !iv->fixed[j] &&
               h && x->param < h->nargs && h->args[x->param].ranged &&
               !h->args[x->param].same_as && narrower(x, &h->args[x->param])) {
      if (!p->ranged) {
        p->nranged = h->nargs;
        p->ranged = aucs_xcalloc(p->nranged + 1, 1);
      }
      p->ranged[x->param] = 1;
      aucs_buf_printf(&line, "; %s in [%llu, %llu]", x->p.name,
                      (unsigned long long)h->args[x->param].lo,
                      (unsigned long long)h->args[x->param].hi);
    }
  }
  if (line.len) {
    char *from = aucs_xasprintf("%s%s", p->from ? p->from : "", line.data);
    free(p->from);
    p->from = from;
  }
  aucs_buf_free(&line);
}

int aucs_launchplan_candidate(const aucs_launchplan *p, const aucs_inputs *in,
                              size_t np, const aucs_candidate *c,
                              aucs_candidate *d) {
  *d = *c;
  d->args = aucs_xcalloc(in->n + 1, sizeof *d->args);
  if (in->n)
    memcpy(d->args, c->args, in->n * sizeof *d->args);
  uint64_t *pargs = aucs_xcalloc(np + 1, sizeof *pargs);
  for (size_t j = 0; j < in->n; j++)
    if (!in->v[j].field && in->v[j].param < np)
      pargs[in->v[j].param] = c->args[j];
  int rc = aucs_launchplan_derive(p, pargs, np, &d->launch.grid);
  aucs_dim3 *b = &d->launch.block;
  uint32_t m = p->block_multiple;
  if (m && b->x % m) { /* round up; down when that is too many threads */
    uint32_t up = (b->x / m + 1) * m, down = b->x / m * m;
    b->x = (uint64_t)up * b->y * b->z <= 1024 ? up : down;
    rc |= b->x == 0 ? -1 : 0;
  }
  for (size_t j = 0; j < in->n; j++)
    if (!in->v[j].field && in->v[j].param < np)
      d->args[j] = pargs[in->v[j].param];
  free(pargs);
  if (rc)
    free(d->args), d->args = NULL;
  return rc;
}

void aucs_launchplan_free(aucs_launchplan *p) {
  free(p->from);
  free(p->ranged);
  *p = (aucs_launchplan){0};
}
