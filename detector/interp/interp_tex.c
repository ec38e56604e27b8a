/*
 * interp_tex: texture fetches and surface accesses (TEX, SURF; lowered by
 * lower_tex.c).
 *
 * A texture is a read-only image: a fetch records no access (a texture
 * cannot race) and is never out of bounds (the coordinates are clamped);
 * its texels come from the run's fill, as a function of the texture and
 * the clamped coordinates, so equal fetches agree. Float texels are in
 * [0, 1) under the random fill (a normalised image), 0..15 under the small
 * one.
 *
 * A surface is memory: a global object of SURF_W x SURF_H x SURF_D bytes
 * (x in bytes, as surf*write takes it; a layer is the last dimension), so
 * its accesses go through the shadow memory and race like global ones.
 * Out of range, the trap mode reports an out-of-bounds access (and skips
 * it), clamp clamps each coordinate, zero reads zeros and drops writes.
 * The object is the handle's: a parameter's surface when the handle equals
 * that parameter's value, one shared surface otherwise.
 *
 * Limitation: the extents are fixed (not the host's cudaArray's), so an
 * out-of-range coordinate is only caught beyond them or below zero.
 */
#include "interp_impl.h"

enum { TEX_MAX_COORD = (1 << 20) - 1 };
#define SURF_W (UINT64_C(1) << 20)
#define SURF_H (UINT64_C(1) << 12)
#define SURF_D (UINT64_C(1) << 6)

/* The kernel parameter whose value is h (a 64-bit integer), or nparams. */
uint32_t ip_handle_param(const run *R, uint64_t h) {
  const aucs_prog *p = R->p;
  for (uint32_t i = 0; R->cfg->args && i < p->nparams; i++)
    if (p->params[i].kind == AUCS_PARAM_INT && p->params[i].bits == 64 &&
        R->cfg->args[i] == h)
      return i;
  return (uint32_t)p->nparams;
}

/* Coordinate i of a fetch, clamped to [0, TEX_MAX_COORD]. */
static int64_t fetch_coord(const bc_insn *I, const uint64_t *r,
                           const uint32_t *pool, unsigned i) {
  uint64_t v = r[pool[I->b + i]];
  double c = (I->imm >> (TEX_FLOAT_COORDS + i)) & 1 ? floor(f32(v))
                                                    : (double)sx(v, 32);
  return c > 0 && c <= TEX_MAX_COORD ? (int64_t)c : c > 0 ? TEX_MAX_COORD : 0;
}

/* The texture's identity in the fill: far from the objects' ids. */
static uint32_t texture_id(const run *R, uint64_t h) {
  uint32_t obj = (uint32_t)(h >> AUCS_PTR_SHIFT);
  if (obj && obj < R->p->nobjs)
    return 0x400000u + obj;
  return 0x600000u + ip_handle_param(R, h);
}

static uint64_t texel(const run *R, const bc_insn *I, uint32_t word) {
  if (!(I->imm & TEX_FLOAT))
    return word;
  if (R->cfg->fill == AUCS_FILL_RANDOM)
    return bf32((float)(word & 0xffff) / 65536.0f);
  return bf32((float)word);
}

static void fetched(run *R, thread *T, uint32_t pc, const bc_insn *I,
                    const uint64_t *r);

void ip_tex(run *R, thread *T, uint32_t pc, const bc_insn *I, uint64_t *r) {
  if (R->ntw)
    fetched(R, T, pc, I, r);
  uint64_t lin = 0;
  for (unsigned i = 0; i < I->c; i++)
    lin =
        lin * (TEX_MAX_COORD + 1) + (uint64_t)fetch_coord(I, r, R->p->pool, i);
  uint32_t id = texture_id(R, r[I->a]);
  for (unsigned k = 0; k < (I->imm & 15); k++) {
    uint32_t w = 0;
    ip_fill(R, id, (lin & ((UINT64_C(1) << 32) - 1)) * 16 + 4 * k,
            (unsigned char *)&w, 4);
    r[I->d + k] = texel(R, I, w);
  }
}

/* The surface object of handle h. */
static uint32_t surface_of(const run *R, uint64_t h) {
  uint32_t obj = (uint32_t)(h >> AUCS_PTR_SHIFT);
  if (obj && obj < R->p->nobjs && R->p->objs[obj].surface)
    return obj;
  return R->p->surf0 + ip_handle_param(R, h);
}

/* Where an access at pc is reported: the call of the outermost helper of
 * a texture header on the stack (the user's surf2Dwrite), else pc. */
uint32_t ip_texture_site(const run *R, const thread *T, uint32_t pc) {
  uint32_t fn = T->fn, d = T->depth;
  while (d > 0 && R->p->funcs[fn].tex_header) {
    const frame *F = &T->frames[--d];
    pc = F->ret_pc - 1;
    fn = F->fn;
  }
  return pc;
}

static void surf_oob(run *R, thread *T, uint32_t pc, int write, uint32_t obj,
                     const int64_t *c, unsigned n) {
  if (!ip_first_time(R, AUCS_FINDING_OUT_OF_BOUNDS, pc, pc))
    return;
  aucs_finding f = {.kind = AUCS_FINDING_OUT_OF_BOUNDS};
  f.a = ip_side(R, pc, T->tid, R->blk, write ? AUCS_OP_WRITE : AUCS_OP_READ, n);
  f.message = aucs_xasprintf(
      "out-of-bounds surface %s of %u bytes at (%lld, %lld, %lld) of '%s' "
      "(the trap boundary mode; extents %llu x %llu x %llu bytes)",
      write ? "write" : "read", n, (long long)c[0], (long long)c[1],
      (long long)c[2], R->p->objs[obj].name, (unsigned long long)SURF_W,
      (unsigned long long)SURF_H, (unsigned long long)SURF_D);
  ip_push(R, &f, &R->objs[obj], 0);
}

static int64_t clamp64(int64_t v, int64_t hi) {
  return v < 0 ? 0 : v > hi ? hi : v;
}

/* The byte offset of the access, or -1 when it is dropped (out of range
 * under trap or zero). */
static int64_t surf_offset(run *R, thread *T, uint32_t pc, uint32_t obj,
                           const uint64_t *r, unsigned n) {
  const bc_insn *I = &R->p->code[pc];
  unsigned nc = I->c & 255;
  int64_t c[3] = {0, 0, 0};
  for (unsigned i = 0; i < nc && i < 3; i++) /* the layer goes last */
    c[(I->imm & TEX_LAYERED) ? (i ? i - 1 : nc - 1) : i] =
        sx(r[R->p->pool[I->b + i]], 32);
  const int64_t hi[3] = {(int64_t)(SURF_W - n), (int64_t)SURF_H - 1,
                         (int64_t)SURF_D - 1};
  int in = 1;
  for (int i = 0; i < 3; i++) {
    in &= c[i] >= 0 && c[i] <= hi[i];
    if (I->imm & TEX_CLAMP)
      c[i] = clamp64(c[i], hi[i]);
  }
  if (!in && !(I->imm & TEX_CLAMP)) {
    if (!(I->imm & TEX_ZERO))
      surf_oob(R, T, ip_texture_site(R, T, pc), (I->imm & TEX_STORE) != 0, obj,
               c, n);
    return -1;
  }
  return c[0] + c[1] * (int64_t)SURF_W + c[2] * (int64_t)(SURF_W * SURF_H);
}

int ip_surf(run *R, thread *T, uint32_t pc, const bc_insn *I, uint64_t *r) {
  unsigned nval = I->c >> 8, n = I->x * nval, store = !!(I->imm & TEX_STORE);
  uint32_t obj = surface_of(R, r[I->a]);
  unsigned char b[32] = {0};
  int64_t off = surf_offset(R, T, pc, obj, r, n);
  if (off >= 0 && store)
    for (unsigned k = 0; k < nval; k++)
      memcpy(b + k * I->x, &r[R->p->pool[I->b + (I->c & 255) + k]], I->x);
  if (off >= 0 &&
      ip_touch(R, T, ip_texture_site(R, T, pc), AUCS_PTR(obj, (uint64_t)off), n,
               store ? M_WRITE : M_READ, 0, b) < 0)
    return 1;
  for (unsigned k = 0; !store && k < nval; k++) {
    uint64_t v = 0;
    memcpy(&v, b + k * I->x, I->x); /* little-endian host */
    r[I->d + k] = v;
  }
  return 0;
}

/* ---- texture-incoherent (--texture TEX=PARAM) ----
 *
 * Per element of the buffer (its pointee size, from the debug info, else 4
 * bytes): its first writer and its first fetcher. A fetch of an element
 * written in the launch (by another thread, or by the same one before) may
 * read stale data; so does a write of an element another thread fetched.
 * A fetch of another geometry (2-D, ...) may read any element: it meets
 * any write of the launch. */

typedef struct tex_elem {
  uint64_t key; /* element index + 1; 0: empty */
  aucs_access write, fetch;
  uint64_t writer, fetcher; /* global thread + 1; 0: none */
} tex_elem;

typedef struct tex_watch {
  const char *name; /* the texture's */
  uint64_t handle, elem;
  uint32_t backing;
  tex_elem *v;
  size_t cap, len;
  tex_elem any; /* the first write, and the first fetch of another kind */
  int found;    /* the finding is made */
  aucs_access fa, fb;
} tex_watch;

static long param_named(const aucs_prog *p, const char *name) {
  for (size_t i = 0; i < p->nparams; i++)
    if (!strcmp(p->params[i].name, name))
      return (long)i;
  return -1;
}

/* The handle of texture name: a parameter's value, or a texture
 * reference's address (aucs_texture.h); 0 when there is none. */
static uint64_t handle_named(const run *R, const char *name) {
  long i = param_named(R->p, name);
  if (i >= 0)
    return R->cfg->args ? R->cfg->args[i] : 0;
  for (uint32_t id = 1; id < R->p->nobjs; id++)
    if (R->p->objs[id].name && !strcmp(R->p->objs[id].name, name))
      return AUCS_PTR(id, 0);
  return 0;
}

/* The pointee size of pointer parameter i (debug info), 4 when unknown. */
static uint64_t elem_of(const aucs_prog *p, long i) {
  for (size_t j = 0; p->inputs && j < p->inputs->n; j++)
    if (p->inputs->v[j].param == (unsigned)i && !p->inputs->v[j].field)
      return p->inputs->v[j].elem_bytes ? p->inputs->v[j].elem_bytes : 4;
  return 4;
}

void ip_tex_watch(run *R) {
  const aucs_run_config *c = R->cfg;
  R->tw = c->ntextures ? aucs_xcalloc(c->ntextures, sizeof *R->tw) : NULL;
  for (size_t k = 0; k < c->ntextures; k++) {
    long b = param_named(R->p, c->textures[k].value);
    uint64_t h = handle_named(R, c->textures[k].name);
    if (b < 0 || !R->p->param_obj[b] || !h)
      continue;
    R->tw[R->ntw++] = (tex_watch){.name = c->textures[k].name,
                                  .handle = h,
                                  .elem = elem_of(R->p, b),
                                  .backing = R->p->param_obj[b]};
  }
}

static tex_elem *elem_at(tex_watch *w, uint64_t e) {
  if (2 * (w->len + 1) > w->cap) {
    tex_elem *old = w->v;
    size_t n = w->cap;
    w->cap = n ? 2 * n : 64;
    w->v = aucs_xcalloc(w->cap, sizeof *w->v);
    w->len = 0;
    for (size_t i = 0; i < n; i++)
      if (old[i].key)
        *elem_at(w, old[i].key - 1) = old[i];
    free(old);
  }
  size_t i = (size_t)((e * 0x9e3779b97f4a7c15ull) >> 7) & (w->cap - 1);
  while (w->v[i].key && w->v[i].key != e + 1)
    i = (i + 1) & (w->cap - 1);
  if (!w->v[i].key) {
    w->v[i].key = e + 1;
    w->len++;
  }
  return &w->v[i];
}

static void conflict(tex_watch *w, aucs_access write, aucs_access fetch) {
  if (w->found)
    return;
  w->found = 1;
  w->fa = write;
  w->fb = fetch;
}

static uint64_t gthread(const run *R, const thread *T) {
  return (uint64_t)R->blk * R->nthreads + T->tid + 1;
}

void ip_tex_write(run *R, thread *T, uint32_t pc, uint32_t id, uint64_t off,
                  uint64_t n) {
  uint64_t me = gthread(R, T);
  for (uint32_t k = 0; k < R->ntw; k++) {
    tex_watch *w = &R->tw[k];
    if (w->backing != id || off > UINT64_MAX / 2)
      continue;
    aucs_access a = ip_side(R, pc, T->tid, R->blk, AUCS_OP_WRITE, (unsigned)n);
    if (!w->any.writer)
      w->any.write = a, w->any.writer = me;
    if (w->any.fetcher)
      conflict(w, a, w->any.fetch);
    for (uint64_t e = off / w->elem; e <= (off + n - 1) / w->elem; e++) {
      tex_elem *x = elem_at(w, e);
      if (x->fetcher && x->fetcher != me)
        conflict(w, a, x->fetch);
      if (!x->writer)
        x->write = a, x->writer = me;
    }
  }
}

/* A fetch of a watched texture (a 1-D integer fetch: of one element). */
static void fetched(run *R, thread *T, uint32_t pc, const bc_insn *I,
                    const uint64_t *r) {
  uint64_t me = gthread(R, T);
  for (uint32_t k = 0; k < R->ntw; k++) {
    tex_watch *w = &R->tw[k];
    if (w->handle != r[I->a])
      continue;
    aucs_access b = ip_side(R, ip_texture_site(R, T, pc), T->tid, R->blk,
                            AUCS_OP_READ, (unsigned)w->elem);
    if (I->c != 1 || (I->imm >> TEX_FLOAT_COORDS & 1)) {
      if (!w->any.fetcher)
        w->any.fetch = b, w->any.fetcher = me;
      if (w->any.writer)
        conflict(w, w->any.write, b);
      continue;
    }
    tex_elem *x = elem_at(w, (uint64_t)fetch_coord(I, r, R->p->pool, 0));
    if (x->writer)
      conflict(w, x->write, b);
    if (!x->fetcher)
      x->fetch = b, x->fetcher = me;
  }
}

void ip_tex_finish(run *R) {
  for (uint32_t k = 0; k < R->ntw; k++) {
    tex_watch *w = &R->tw[k];
    if (w->found) {
      aucs_finding f = {.kind = AUCS_FINDING_TEXTURE_INCOHERENT};
      f.a = w->fa;
      f.b = w->fb;
      f.message = aucs_xasprintf(
          "texture '%s' is fetched in the launch that writes its buffer "
          "'%s' over the fetched elements: the fetch may read stale data",
          w->name, R->p->objs[w->backing].name);
      ip_push(R, &f, &R->objs[w->backing], 0);
    }
    free(w->v);
  }
  free(R->tw);
  R->tw = NULL;
}
