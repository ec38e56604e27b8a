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
 *   3. What neither fixes is the search's, as without host code.
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
    int user = i ? user_block : user_grid, fixed = i ? p->has_block : p->has_grid;
    if (user || !fixed)
      aucs_buf_printf(&b, "; %s %s", i ? "block" : "grid",
                      user ? "given" : "searched");
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

void aucs_launchplan_free(aucs_launchplan *p) {
  free(p->from);
  *p = (aucs_launchplan){0};
}
