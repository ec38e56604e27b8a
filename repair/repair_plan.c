/*
 * repair_plan: the edits that answer each kind of finding, planned on a
 * trial's clone (the loop that tries, verifies and keeps them is
 * repair.c): a barrier for a race (split, flatten, both ways round a
 * loop), the moves of a divergent barrier, keeping exited threads in
 * (flatten-exit), and deleting a barrier the static checker proves
 * redundant.
 */
#include "repair_impl.h"

#include "aucs/candidates.h"

/* ---- races --------------------------------------------------------------*/

static char *no_place_why(aucs_place_status st) {
  switch (st) {
  case AUCS_PLACE_LOOP:
    return aucs_xstrdup("the accesses sit in a loop whose trip count differs "
                        "between threads, and uniformizing it (DESIGN.md 6.3 "
                        "step 4) did not give a point every thread reaches");
  default:
    return aucs_xstrdup("no barrier-free path joins the two accesses, yet "
                        "they race (a barrier between them is divergent?)");
  }
}

static char *lines_of(LLVMValueRef a, LLVMValueRef b) {
  aucs_srcloc x = aucs_srcloc_of(a), y = aucs_srcloc_of(b);
  if (!x.line || !y.line)
    return aucs_xstrdup("the two accesses");
  return aucs_xasprintf("the accesses at %.*s:%u and :%u", (int)x.file_len,
                        x.file, x.line, y.line);
}

/* Merge the kernel's returns into one exit block when it has several, so
 * that an early return is an edge to a block every thread reaches. */
static int unify_exits(trial *t, LLVMValueRef at) {
  if (aucs_flatten_count_returns(rp_fn_of(at)) < 2)
    return 0;
  return !rp_trial_op(t,
                      (op){OP_UNIFY_EXITS, rp_pos_of(at), 0, 0, 0, {0, 0, 0}});
}

/* Step 3: split (when A and B share a block), flatten the region around
 * B's block, and put the barrier in the guard before B's block. */
static int flatten_place(state *s, trial *t, const aucs_place *p) {
  LLVMValueRef second = p->second, fn = rp_fn_of(second);
  if (p->split) {
    aucs_edit e = {.kind = AUCS_EDIT_SPLIT_BLOCK, .id = aucs_repair_id(second)};
    e.where = rp_where(second, ", before");
    e.source = aucs_srcloc_format(second);
    e.why = aucs_xstrdup("both accesses sit in one divergent block: it is "
                         "split between them so that flattening puts a "
                         "guard between them");
    rp_log_edit(s, t, e, fn);
    rp_trial_op(t, (op){OP_SPLIT, rp_pos_of(second), 0, 0, 0, {0, 0, 0}});
  }
  if (unify_exits(t, second))
    return 1;
  aucs_cfg *g = aucs_cfg_build(fn);
  aucs_uniformity *u = aucs_uniform_compute(g);
  int u1, u2,
      bad = aucs_flatten_find_region(
          g, u, aucs_cfg_index(g, LLVMGetInstructionParent(second)), &u1, &u2);
  aucs_edit e = {.kind = AUCS_EDIT_FLATTEN_REGION,
                 .id = aucs_repair_id(second)};
  if (!bad) {
    aucs_names *n = aucs_names_build(fn);
    e.where =
        aucs_xasprintf("region %s .. %s", aucs_names_block(n, g->blocks[u1]),
                       aucs_names_block(n, g->blocks[u2]));
    aucs_names_free(n);
  }
  aucs_uniform_free(u);
  aucs_cfg_free(g);
  if (bad) {
    free(t->why);
    t->why = aucs_xstrdup("the accesses share a divergent region that "
                          "cannot be flattened (it is entered other than "
                          "at its start, or a loop around them differs "
                          "between threads)");
    return 1;
  }
  char *what = lines_of(p->first, second);
  e.source = aucs_srcloc_format(second);
  e.why = aucs_xasprintf(
      "%s sit in one divergent region, where no point is reached by every "
      "thread: the region is flattened (each block guarded by its entry "
      "condition, every guard run by all threads)",
      what);
  rp_log_edit(s, t, e, fn);
  LLVMValueRef term = rp_trial_op(
      t, (op){OP_FLATTEN, rp_pos_of(second), 0, u1, u2, rp_pos_of(p->first)});
  if (!term) {
    free(what);
    return 1;
  }
  char *why = aucs_xasprintf(
      "needed restructuring: %s are in one divergent region; in source, "
      "run its code for all threads in turn, each part under its own "
      "condition (an `if` split at the barrier, an early `return` made an "
      "`active` flag), with __syncthreads(); between them",
      what);
  rp_insert(s, t, term, why);
  free(why);
  free(what);
  return 0;
}

/* A preheader of loop l (an outside predecessor of its header) is not
 * uniform or branches divergently into it: the loop sits in a divergent
 * region. */
static int in_divergent_region(const aucs_cfg *g, const aucs_uniformity *u,
                               int l) {
  int h = g->loops[l].header;
  for (int i = 0; i < g->npred[h]; i++) {
    int p = g->pred[h][i];
    if (!aucs_cfg_in_loop(g, l, p) &&
        (!aucs_uniform_block(u, p) || aucs_uniform_branch_divergent(u, p)))
      return 1;
  }
  return 0;
}

static int loop_index(const aucs_cfg *g, int header) {
  for (int l = 0; l < g->nloops; l++)
    if (g->loops[l].header == header)
      return l;
  return -1;
}

/* Step 4: uniformize the loop at block `header` of g's function (absorbing
 * the divergent branch into it when the loop sits in a divergent region).
 * 0 on success. */
static int uniformize(state *s, trial *t, const aucs_cfg *g,
                      const aucs_uniformity *u, int header) {
  int l = loop_index(g, header);
  int absorb = l >= 0 && in_divergent_region(g, u, l);
  char *why = l < 0 ? aucs_xstrdup("no loop") : aucs_uniformize_check(g, l, 0);
  if (why) {
    free(t->why);
    t->why = aucs_xasprintf("the accesses sit in a loop whose trip count "
                            "differs between threads, which cannot be "
                            "uniformized: %s",
                            why);
    free(why);
    return 1;
  }
  LLVMValueRef term = LLVMGetBasicBlockTerminator(g->blocks[header]);
  LLVMValueRef fn = g->fn;
  aucs_names *n = aucs_names_build(fn);
  char *loc = aucs_srcloc_format(term);
  aucs_edit e = {.kind = AUCS_EDIT_UNIFORMIZE_LOOP, .id = ++t->next_id};
  e.where = aucs_xasprintf("loop %s (%s)",
                           aucs_names_block(n, g->blocks[header]), loc);
  aucs_names_free(n);
  e.source = loc;
  e.source_edit = aucs_uniformize_source(term, absorb);
  e.why = aucs_xasprintf(
      "the loop at %s %s, so no point in it is reached by every thread "
      "together: it now runs while any thread of the block is active "
      "(__syncthreads_or(active)), each thread's iterations under its own "
      "`active`%s, and an exit only clears `active` until the whole block "
      "leaves",
      loc,
      absorb ? "runs only in some threads (it sits in a divergent if)"
             : "runs a different number of iterations in different threads",
      absorb ? " (initially the if's condition; the if is flattened around "
               "the loop)"
             : "");
  rp_log_edit(s, t, e, fn);
  return !rp_trial_op(
      t,
      (op){OP_UNIFORMIZE, rp_pos_of(term), t->next_id, absorb, 0, {0, 0, 0}});
}

/* A barrier ordering first before second; 0 on success. quiet: fail
 * without a reason when first does not reach second barrier-free. Loops in
 * the way are uniformized first (a few, outermost first). */
static int place_one(state *s, trial *t, LLVMValueRef first,
                     LLVMValueRef second, int quiet) {
  aucs_cfg *g = aucs_cfg_build(rp_fn_of(first));
  aucs_uniformity *u = aucs_uniform_compute(g);
  aucs_place p;
  aucs_place_status st = aucs_place_find(g, u, first, second, &p);
  int uniformized = 0;
  for (int k = 0; st == AUCS_PLACE_LOOP && k < 4; k++, uniformized = 1) {
    if (uniformize(s, t, g, u, p.loop)) {
      aucs_uniform_free(u);
      aucs_cfg_free(g);
      return 1;
    }
    aucs_uniform_free(u);
    aucs_cfg_free(g);
    g = aucs_cfg_build(rp_fn_of(first));
    u = aucs_uniform_compute(g);
    st = aucs_place_find(g, u, first, second, &p);
  }
  if (st == AUCS_PLACE_NO_PATH && uniformized)
    st = AUCS_PLACE_FOUND; /* the or-barrier orders them now */
  else if (st == AUCS_PLACE_FOUND)
    rp_insert(s, t, p.before, NULL);
  else if (st == AUCS_PLACE_FLATTEN) {
    aucs_uniform_free(u);
    aucs_cfg_free(g);
    return rp_sweep_after_place(s, t, rp_fn_of(first), uniformized,
                                flatten_place(s, t, &p));
  } else if (!quiet || st != AUCS_PLACE_NO_PATH) {
    free(t->why);
    t->why = no_place_why(st);
  }
  aucs_uniform_free(u);
  aucs_cfg_free(g);
  return rp_sweep_after_place(s, t, rp_fn_of(first), uniformized,
                              st != AUCS_PLACE_FOUND);
}

/* ---- the spot a programmer would choose (spot.h) --------------------------*/

enum { MAX_PAIRS = 256 }; /* racing pairs weighed in choosing a spot */

typedef struct idinst {
  unsigned id;
  LLVMValueRef I;
} idinst;

static int by_id(const void *x, const void *y) {
  unsigned a = ((const idinst *)x)->id, b = ((const idinst *)y)->id;
  return (a > b) - (a < b);
}

/* fn's instructions that carry a repair id, sorted by id (inlining copies
 * a helper's ids, so an id may name several). */
static idinst *ids_of(LLVMValueRef fn, size_t *n) {
  idinst *v = NULL;
  size_t cap = 0;
  *n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I)) {
      unsigned id = aucs_repair_id(I);
      if (!id)
        continue;
      if (*n == cap)
        v = aucs_xrealloc(v, (cap = cap ? 2 * cap : 64) * sizeof *v);
      v[(*n)++] = (idinst){id, I};
    }
  if (*n)
    qsort(v, *n, sizeof *v, by_id);
  return v;
}

/* The first entry of v with id, or n. */
static size_t first_of(const idinst *v, size_t n, unsigned id) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (v[mid].id < id)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && v[lo].id == id ? lo : n;
}

/* Add to pairs every copy in fn of f's two instructions. */
static void add_pairs(const idinst *v, size_t nv, const aucs_finding *f,
                      LLVMValueRef (*pairs)[2], size_t *n) {
  unsigned ia = f->a.instr ? aucs_repair_id(f->a.instr) : 0,
           ib = f->b.instr ? aucs_repair_id(f->b.instr) : 0;
  size_t i0 = ia ? first_of(v, nv, ia) : nv, j0 = ib ? first_of(v, nv, ib) : nv;
  for (size_t i = i0; i < nv && v[i].id == ia; i++)
    for (size_t j = j0; j < nv && v[j].id == ib && *n < MAX_PAIRS; j++) {
      size_t k = 0;
      while (k < *n && !(pairs[k][0] == v[i].I && pairs[k][1] == v[j].I) &&
             !(pairs[k][0] == v[j].I && pairs[k][1] == v[i].I))
        k++;
      if (k < *n) /* another finding on the same two instructions */
        continue;
      pairs[*n][0] = v[i].I;
      pairs[(*n)++][1] = v[j].I;
    }
}

/* The racing pairs the current detection reports for fn's kernel, as
 * instructions of fn (the trial's copy, helpers inlined). */
static size_t race_pairs(state *s, LLVMValueRef fn, LLVMValueRef (*pairs)[2]) {
  size_t len, nv, n = 0;
  const char *name = LLVMGetValueName2(fn, &len);
  idinst *v = ids_of(fn, &nv);
  for (size_t k = 0; k < s->cur.nkernels; k++) {
    const aucs_report_kernel *K = &s->cur.kernels[k];
    if (!K->name || strcmp(K->name, name))
      continue;
    for (size_t i = 0; i < K->findings.n && n < MAX_PAIRS; i++)
      if (K->findings.v[i].kind == AUCS_FINDING_RACE)
        add_pairs(v, nv, &K->findings.v[i], pairs, &n);
  }
  free(v);
  return n;
}

/* The index in g of the block holding I. */
static int block_of(const aucs_cfg *g, LLVMValueRef I) {
  return aucs_cfg_index(g, LLVMGetInstructionParent(I));
}

/* The spot among the blocks that every thread of the block reaches
 * (uniform.h), or with `wide`, among those with the threads of the two
 * accesses (candidates.h); NULL when none, or (wide) when it is the spot
 * the uniform blocks give too: that trial was made already. */
static LLVMValueRef find_spot(const aucs_cfg *g, const aucs_uniformity *u,
                              LLVMValueRef a, LLVMValueRef b,
                              LLVMValueRef (*pairs)[2], size_t n, int wide,
                              LLVMValueRef *first, LLVMValueRef *second) {
  LLVMValueRef narrow = aucs_spot_find(g, u, a, b, pairs, n, first, second);
  if (!wide)
    return narrow;
  int refs[2] = {block_of(g, a), block_of(g, b)};
  unsigned char *ok = aucs_candidates_with_threads(g, u, refs, 2);
  LLVMValueRef at = aucs_spot_find_in(g, ok, a, b, pairs, n, first, second);
  free(ok);
  return at == narrow ? NULL : at;
}

/* A barrier at the spot a CUDA programmer would write (spot.h); 0 on
 * success. wide: the second try, in a block with the threads of both
 * accesses that the analysis does not call uniform (after an early
 * `return`, inside an `if` around the whole race): the trial's detection
 * tells whether every thread reaches it. */
static int place_spot(state *s, trial *t, LLVMValueRef a, LLVMValueRef b,
                      int wide) {
  LLVMValueRef fn = rp_fn_of(a), first, second;
  if (rp_fn_of(b) != fn) {
    free(t->why);
    t->why = aucs_xstrdup("the accesses sit in different functions");
    return 1;
  }
  LLVMValueRef(*pairs)[2] = aucs_xmalloc(MAX_PAIRS * sizeof *pairs);
  size_t n = race_pairs(s, fn, pairs);
  double t0 = aucs_seconds();
  aucs_cfg *g = aucs_cfg_build(fn);
  aucs_uniformity *u = aucs_uniform_compute(g);
  LLVMValueRef at = find_spot(g, u, a, b, pairs, n, wide, &first, &second);
  aucs_uniform_free(u);
  aucs_cfg_free(g);
  free(pairs);
  if (!at) {
    free(t->why);
    t->why = aucs_xstrdup(
        wide ? "no statement boundary of the kernel that the threads of "
               "both accesses reach, other than the one tried, lies on "
               "every barrier-free path between the accesses"
             : "no statement boundary of the kernel, in a block "
               "every thread reaches, lies on every barrier-free "
               "path between the accesses");
    return 1;
  }
  if (rp_tracing())
    fprintf(stderr,
            "aucs: repair: spot%s: line %u orders %u -> %u (%zu pairs, "
            "%.3f s)\n",
            wide ? " (with the threads)" : "", aucs_place_line_of(at),
            aucs_place_line_of(first), aucs_place_line_of(second), n,
            aucs_seconds() - t0);
  rp_insert(s, t, at,
            wide ? "the spot a programmer would write: the threads that "
                   "race reach it together (the analysis cannot show that "
                   "every thread of the block does; the check of the edit "
                   "found no barrier divergence)"
                 : NULL);
  return 0;
}

/* Order the race between a and b, cheapest first. Variant 0 puts one
 * barrier at the spot a programmer would choose (spot.h), 1 at such a spot
 * with the threads of both accesses (candidates.h). The detector does not
 * say which runs first: variant 2 orders a before b, 3 b before a, 4 both
 * ways (a pair racing both ways around a loop); these may restructure
 * (flatten, uniformize). 0 on success. */
int rp_place_race(state *s, trial *t, LLVMValueRef a, LLVMValueRef b,
                  int variant) {
  if (variant < 2)
    return place_spot(s, t, a, b, variant);
  variant -= 2;
  if (variant < 2)
    return place_one(s, t, variant ? b : a, variant ? a : b, 1);
  int placed = 0;
  for (int k = 0; k < 2; k++) {
    LLVMValueRef x = k ? b : a, y = k ? a : b;
    aucs_cfg *g = aucs_cfg_build(rp_fn_of(x));
    int go = aucs_place_reaches(g, x, y);
    aucs_cfg_free(g);
    if (go && place_one(s, t, x, y, 0))
      return 1;
    placed += go;
  }
  return placed ? 0 : place_one(s, t, a, b, 0);
}

/* ---- barrier divergence -------------------------------------------------*/

/* The divergent barriers of f: its sides that are barrier calls of the
 * kernel in blocks that are not uniform. Returns how many (0..2). */
static int divergent_barriers(LLVMValueRef kernel, const aucs_finding *f,
                              LLVMValueRef out[2]) {
  aucs_cfg *g = aucs_cfg_build(kernel);
  aucs_uniformity *u = aucs_uniform_compute(g);
  LLVMValueRef sides[2] = {f->a.instr, f->b.instr};
  int n = 0;
  for (int i = 0; i < 2; i++) {
    LLVMValueRef I = sides[i];
    if (I && aucs_place_is_barrier_call(I) && rp_fn_of(I) == kernel &&
        LLVMGetFirstUse(I) == NULL && (!n || out[0] != I) &&
        !aucs_uniform_block(u, aucs_cfg_index(g, LLVMGetInstructionParent(I))))
      out[n++] = I;
  }
  aucs_uniform_free(u);
  aucs_cfg_free(g);
  return n;
}

/* The first instruction of the nearest block post-dominating bar's block
 * that is uniform, or (near) that is with the threads of bar's block under
 * fewer conditions (candidates.h), or NULL. */
static LLVMValueRef join_after(LLVMValueRef bar, int near) {
  aucs_cfg *g = aucs_cfg_build(rp_fn_of(bar));
  aucs_uniformity *u = aucs_uniform_compute(g);
  int b = aucs_cfg_index(g, LLVMGetInstructionParent(bar));
  if (near)
    b = aucs_candidates_join_after(g, u, b);
  else
    for (b = g->ipdom[b]; b >= 0 && !aucs_uniform_block(u, b);)
      b = g->ipdom[b];
  LLVMValueRef at = b >= 0 ? LLVMGetFirstInstruction(g->blocks[b]) : NULL;
  while (at && LLVMIsAPHINode(at))
    at = LLVMGetNextInstruction(at);
  aucs_uniform_free(u);
  aucs_cfg_free(g);
  return at;
}

int rp_new_key(state *s, const char *kernel, const aucs_finding *f) {
  LLVMValueRef k;
  int i = rp_find_item(s, kernel, f);
  return i < 0 || !rp_lookup_cur(s, &s->r->items[i], &k);
}

/* Repair, in the trial, the races the trial's edits left: detect, place a
 * barrier for each new race, again, a few times. 0 on success. */
static int repair_left(state *s, trial *t) {
  for (int round = 0; round < 6; round++) {
    aucs_report rep;
    if (rp_detect_trial(s, t, &rep))
      return 1;
    int placed = 0, failed = rp_cut_short(&rep);
    for (size_t k = 0; k < rep.nkernels && !placed && !failed; k++)
      for (size_t i = 0; i < rep.kernels[k].findings.n && !placed; i++) {
        const aucs_finding *f = &rep.kernels[k].findings.v[i];
        if (f->kind != AUCS_FINDING_RACE ||
            !rp_new_key(s, rep.kernels[k].name, f))
          continue;
        if (rp_fn_of(f->a.instr) != rep.kernels[k].fn ||
            rp_fn_of(f->b.instr) != rep.kernels[k].fn ||
            f->a.instr == f->b.instr)
          failed = 1;
        else
          failed = rp_place_race(s, t, f->a.instr, f->b.instr, 4);
        placed = !failed;
      }
    aucs_detect_report_free(&rep);
    if (failed)
      return 1;
    if (!placed)
      return 0;
  }
  return 0;
}

/* The outermost non-uniform loop around a divergent barrier of f that sits
 * in a loop with a divergent exit: its header block, or -1. */
static int loop_around(const aucs_cfg *g, const aucs_uniformity *u,
                       LLVMValueRef kernel, const aucs_finding *f) {
  LLVMValueRef sides[2] = {f->a.instr, f->b.instr};
  for (int i = 0; i < 2; i++) {
    LLVMValueRef I = sides[i];
    if (!I || !aucs_place_is_barrier_call(I) || rp_fn_of(I) != kernel)
      continue;
    int b = aucs_cfg_index(g, LLVMGetInstructionParent(I)), best = -1;
    if (aucs_uniform_why(u, b, NULL, NULL) != AUCS_WHY_LOOP)
      continue;
    for (int l = g->loop_of[b]; l >= 0; l = g->loops[l].parent)
      if (!aucs_uniform_block(u, g->loops[l].header))
        best = g->loops[l].header;
    return best;
  }
  return -1;
}

/* A barrier in a loop whose trip count differs between threads: uniformize
 * the loop first, so that a uniform point exists after the barrier inside
 * the loop. 0 on success (also when there is nothing to do). */
static int uniformize_around(state *s, trial *t, LLVMValueRef kernel,
                             const aucs_finding *f) {
  for (int k = 0; k < 4; k++) {
    aucs_cfg *g = aucs_cfg_build(kernel);
    aucs_uniformity *u = aucs_uniform_compute(g);
    int h = loop_around(g, u, kernel, f);
    int bad = h >= 0 && uniformize(s, t, g, u, h);
    aucs_uniform_free(u);
    aucs_cfg_free(g);
    if (h < 0 || bad)
      return bad;
  }
  return 0;
}

/* After a uniformization: every barrier call of kernel in a block that is
 * not uniform (the other barriers of the uniformized loop too), up to 8. */
static int all_divergent_barriers(LLVMValueRef kernel, LLVMValueRef out[8]) {
  aucs_cfg *g = aucs_cfg_build(kernel);
  aucs_uniformity *u = aucs_uniform_compute(g);
  int n = 0;
  for (int b = 0; b < g->nblocks; b++)
    for (LLVMValueRef I = LLVMGetFirstInstruction(g->blocks[b]); I && n < 8;
         I = LLVMGetNextInstruction(I))
      if (g->reachable[b] && !aucs_uniform_block(u, b) &&
          aucs_place_is_barrier_call(I) && LLVMGetFirstUse(I) == NULL)
        out[n++] = I;
  aucs_uniform_free(u);
  aucs_cfg_free(g);
  return n;
}

/* A __syncthreads_count/and/or whose result the kernel reads. */
static int used_reduction(LLVMValueRef I) {
  return I && aucs_place_is_barrier_call(I) && LLVMGetFirstUse(I) != NULL;
}

/* Variant 0 of a divergence: each divergent barrier of the finding that
 * has a nearer join (candidates.h: out of the `if` around it, in its
 * loops) moves there; one that has none (already where its threads meet,
 * such as the other side of "threads wait at different barriers") stays.
 * 0 when at least one moved. */
static int move_out(state *s, trial *t, LLVMValueRef *bars, int n) {
  LLVMValueRef to[8];
  int moved = 0;
  for (int i = 0; i < n; i++)
    to[i] = join_after(bars[i], 1);
  for (int i = 0; i < n; i++) {
    if (!to[i])
      continue;
    int dup = 0;
    for (int k = 0; k < i; k++)
      dup |= to[k] == to[i];
    if (!dup)
      rp_insert(s, t, to[i],
                "moved here from a divergent block: the nearest point after "
                "it, out of the `if` around it, that its threads reach "
                "together");
    rp_delete(s, t, bars[i],
              "only some threads reach it (barrier divergence); it moved "
              "out of the `if` around it");
    moved++;
  }
  if (!moved)
    t->why = aucs_xstrdup("no block after the barrier is reached by its "
                          "threads under fewer conditions");
  return !moved;
}

static int plan_divergence(state *s, trial *t, LLVMValueRef kernel,
                           const aucs_finding *f, int variant) {
  LLVMValueRef bars[8];
  size_t before = t->edits.n;
  if (used_reduction(f->a.instr) || used_reduction(f->b.instr)) {
    t->why = aucs_xstrdup("the barrier is a __syncthreads_count/and/or whose "
                          "result is used: moving or deleting it would "
                          "change the value the kernel reads");
    return 1;
  }
  if (uniformize_around(s, t, kernel, f))
    return 1;
  int n = t->edits.n > before ? all_divergent_barriers(kernel, bars)
                              : divergent_barriers(kernel, f, bars);
  if (!n) {
    t->why = aucs_xstrdup("neither side is a barrier of the kernel in a "
                          "divergent block");
    return 1;
  }
  if (variant == 0)
    return move_out(s, t, bars, n);
  if (variant == 1) {
    LLVMValueRef to = join_after(bars[0], 0);
    if (!to || to == join_after(bars[0], 1)) {
      t->why = aucs_xstrdup(to ? "the nearest uniform point after the barrier "
                                 "is the one tried first"
                               : "no uniform block post-dominates the barrier");
      return 1;
    }
    rp_insert(s, t, to,
              "moved here from a divergent block: the nearest point after "
              "it that every thread reaches");
    for (int i = 0; i < n; i++)
      rp_delete(s, t, bars[i],
                "only some threads reach it (barrier divergence); it moved "
                "to the nearest uniform point after it");
    return 0;
  }
  for (int i = 0; i < n; i++)
    rp_delete(s, t, bars[i],
              "only some threads reach it (barrier divergence); "
              "the races it ordered get barriers of their own");
  return repair_left(s, t);
}

/* ---- keeping exited threads in (DESIGN.md section 8) --------------------*/

/* The outermost loop holding block b whose header is not uniform, or -1. */
static int outer_divergent_loop(const aucs_cfg *g, const aucs_uniformity *u,
                                int b) {
  int best = -1;
  for (int l = g->loop_of[b]; l >= 0; l = g->loops[l].parent)
    if (!aucs_uniform_block(u, g->loops[l].header))
      best = l;
  return best;
}

char *rp_file_line(LLVMValueRef I) {
  aucs_srcloc l = I ? aucs_srcloc_of(I) : (aucs_srcloc){0};
  return l.line ? aucs_xasprintf("%.*s:%u", (int)l.file_len, l.file, l.line)
                : NULL;
}

/* The CUDA edit equivalent to keeping the threads in until bar. */
static char *keep_in_source(LLVMValueRef ret, LLVMValueRef bar,
                            const char *active) {
  char *r = rp_file_line(ret), *b = rp_file_line(bar), *out;
  const char *bl = b ? b : "?";
  if (r)
    out = aucs_xasprintf(
        "replace the `return` at %s by a flag: `bool active = %s;` and "
        "guard the code after it with `if (active)`, so every thread "
        "reaches the barrier at %s",
        r, active, bl);
  else
    out = aucs_xasprintf("call __syncthreads() at %s outside the `if` "
                         "around it, and guard the code around it with "
                         "`if (%s)`, so every thread reaches it",
                         bl, active);
  free(r);
  free(b);
  return out;
}

static void log_keep_in(state *s, trial *t, const aucs_cfg *g, int u1, int u2,
                        LLVMValueRef bar) {
  int b = aucs_cfg_index(g, LLVMGetInstructionParent(bar));
  aucs_conds *c = aucs_cond_compute(g, u1);
  char *active = aucs_cond_format(c, b);
  aucs_cond_free(c);
  LLVMValueRef ret = aucs_flatten_early_exit(g, u1, u2, b);
  aucs_names *n = aucs_names_build(g->fn);
  aucs_edit e = {.kind = AUCS_EDIT_FLATTEN_EXIT, .id = aucs_repair_id(bar)};
  e.where = aucs_xasprintf("region %s .. %s, barrier kept",
                           aucs_names_block(n, g->blocks[u1]),
                           aucs_names_block(n, g->blocks[u2]));
  aucs_names_free(n);
  e.source = aucs_srcloc_format(ret ? ret : bar);
  e.source_edit = keep_in_source(ret, bar,
                                 !strchr(active, '%') ? active
                                 : ret ? "!(<the condition of the `return`>)"
                                       : "<the condition around the barrier>");
  char *rl = rp_file_line(ret), *bl = aucs_srcloc_format(bar);
  e.why = aucs_xasprintf(
      "%s%s%s never reach the barrier at %s: instead of leaving, they clear "
      "`active` (active = %s) and run on to the one `return` at the end, "
      "every block after the exit guarded by its condition; the barrier "
      "stays, in a guard every thread runs",
      ret ? "threads that return early" : "threads outside the `if`",
      rl ? " at " : "", rl ? rl : "", bl, active);
  free(rl);
  free(bl);
  free(active);
  rp_log_edit(s, t, e, g->fn);
}

/* Flatten the region holding bar's block (split before bar first) through
 * the exit and move bar into the guard before its block. */
static int flatten_exit(state *s, trial *t, LLVMValueRef kernel,
                        LLVMValueRef bar) {
  LLVMValueRef above = LLVMGetPreviousInstruction(bar);
  if (above && !LLVMIsAPHINode(above) &&
      !rp_trial_op(t, (op){OP_SPLIT, rp_pos_of(bar), 0, 0, 0, {0, 0, 0}}))
    return 1;
  aucs_cfg *g = aucs_cfg_build(kernel);
  aucs_uniformity *u = aucs_uniform_compute(g);
  int u1, u2, b = aucs_cfg_index(g, LLVMGetInstructionParent(bar));
  int bad = aucs_flatten_find_region(g, u, b, &u1, &u2);
  if (!bad)
    log_keep_in(s, t, g, u1, u2, bar);
  aucs_uniform_free(u);
  aucs_cfg_free(g);
  if (bad) {
    free(t->why);
    t->why = aucs_xstrdup("the barrier sits in a divergent region that "
                          "cannot be flattened through the exit");
    return 1;
  }
  return !rp_trial_op(t,
                      (op){OP_KEEP_IN, rp_pos_of(bar), 0, u1, u2, {0, 0, 0}});
}

/* Keep every thread in until bar: merge the returns, uniformize the loops
 * around it that not every thread runs alike, then flatten through the
 * exit. 0 once bar is in a uniform block. */
static int keep_in(state *s, trial *t, LLVMValueRef kernel, LLVMValueRef bar) {
  for (int k = 0; k < 6; k++) {
    if (unify_exits(t, bar))
      return 1;
    aucs_cfg *g = aucs_cfg_build(kernel);
    aucs_uniformity *u = aucs_uniform_compute(g);
    int b = aucs_cfg_index(g, LLVMGetInstructionParent(bar));
    int l = aucs_uniform_block(u, b) ? -2 : outer_divergent_loop(g, u, b);
    int bad = l >= 0 && uniformize(s, t, g, u, g->loops[l].header);
    aucs_uniform_free(u);
    aucs_cfg_free(g);
    if (l == -2 || bad)
      return bad;
    if (l == -1 && flatten_exit(s, t, kernel, bar))
      return 1;
  }
  free(t->why);
  t->why = aucs_xstrdup("the barrier is still divergent after keeping the "
                        "threads in");
  return 1;
}

/* Barrier divergence, threads kept in: every divergent barrier of the
 * kernel, first in block order, stays where it is and becomes reached by
 * every thread. */
static int plan_keep_in(state *s, trial *t, LLVMValueRef kernel) {
  for (int k = 0; k < 8; k++) {
    LLVMValueRef bars[8];
    if (!all_divergent_barriers(kernel, bars)) {
      if (!k)
        t->why = aucs_xstrdup("no barrier of the kernel is divergent");
      return !k;
    }
    if (keep_in(s, t, kernel, bars[0]))
      return 1;
  }
  return 0;
}

/* ---- redundant barriers -------------------------------------------------*/

/* A redundancy proof's solver budget, in nominal ms (issue 14): half of
 * what the first detection's static checker spent on the whole module
 * (Z3's resource units, so the same every run), at least
 * AUCS_REPAIR_PROOF_MIN_MS, at most the detect options' static budget. A
 * proof that runs out keeps its barrier (only a completed UNSAT proof
 * deletes one). */
static unsigned proof_budget_ms(const state *s) {
  const aucs_detect_options *d = s->o->detect;
  uint64_t ms = s->first_units / AUCS_SMT_UNITS_PER_MS / 2;
  unsigned cap =
      d && d->static_budget ? d->static_budget : AUCS_STATIC_BUDGET_MS;
  if (ms < AUCS_REPAIR_PROOF_MIN_MS)
    ms = AUCS_REPAIR_PROOF_MIN_MS;
  return ms < cap ? (unsigned)ms : cap;
}

/* Whether bar is redundant in kernel as it is now, under the detect
 * options' solver limits, aliasing rule and fixed launch: only the queries
 * bar separates are asked (aucs_static_options.only_barrier), within
 * proof_budget_ms. *ran_out: not proven because a query ran out of time
 * (no query was SAT). */
static int analyse(state *s, LLVMValueRef kernel, LLVMValueRef bar,
                   int *ran_out) {
  const aucs_detect_options *d = s->o->detect;
  aucs_static_options so = {.cache = s->detect.cache,
                            .smt = s->detect.smt,
                            .budget = s->detect.within,
                            .only_barrier = bar};
  if (d) {
    so.timeout_ms = d->smt_timeout;
    so.may_alias = d->may_alias;
    so.fixed_grid = d->has_grid;
    so.fixed_block = d->has_block;
    so.launch = (aucs_launch){d->grid, d->block};
  }
  so.budget_ms = proof_budget_ms(s);
  double t0 = aucs_seconds();
  aucs_static *st = aucs_static_analyze(kernel, &so);
  int proven = aucs_static_barrier_redundant(st, bar);
  const aucs_smt_stats *q = aucs_static_stats(st);
  *ran_out =
      !proven && !q->sat && (q->unknown || aucs_static_stopped(st, NULL, NULL));
  s->r->stats.proofs_cut += (unsigned)*ran_out;
  if (rp_tracing())
    fprintf(stderr,
            "aucs: repair: redundancy proof: %llu queries (%llu sat, %llu "
            "unknown, %llu cached), budget %u ms\n",
            (unsigned long long)q->queries, (unsigned long long)q->sat,
            (unsigned long long)q->unknown, (unsigned long long)q->cached,
            so.budget_ms);
  aucs_static_free(st);
  s->r->stats.proofs++;
  s->r->stats.proof_seconds += aucs_seconds() - t0;
  if (rp_tracing())
    fprintf(stderr, "aucs: repair: redundancy proof: %s, %.3f s\n",
            proven ? "proven" : "not proven", aucs_seconds() - t0);
  return proven;
}

/* Whether bar is proven redundant in kernel; each (kernel text, barrier)
 * is analysed once (s->proofs). *ran_out as analyse's. */
int rp_proven_redundant(state *s, LLVMValueRef kernel, LLVMValueRef bar,
                        int *ran_out) {
  char *ir = LLVMPrintValueToString(kernel);
  unsigned id = aucs_repair_id(bar);
  proof *p = NULL;
  for (size_t i = 0; i < s->nproofs && !p; i++)
    if (s->proofs[i].id == id && !strcmp(s->proofs[i].ir, ir))
      p = &s->proofs[i];
  if (!p) {
    s->proofs = aucs_xrealloc(s->proofs, (s->nproofs + 1) * sizeof *p);
    p = &s->proofs[s->nproofs++];
    *p = (proof){.ir = aucs_xstrdup(ir), .id = id};
    p->proven = analyse(s, kernel, bar, &p->ran_out);
  }
  LLVMDisposeMessage(ir);
  *ran_out = p->ran_out;
  return p->proven;
}

/* The first detection's static checker already asked whether each
 * redundant barrier it reported is proven, on the kernels as they are
 * before any edit, with the same solver options: its proofs answer
 * proven_redundant for a kernel still the same text. */
void rp_proofs_seed(state *s, const aucs_report *rep) {
  if (s->detect.user.nargs) /* its proofs then hold for those values only */
    return;
  for (size_t k = 0; k < rep->nkernels; k++) {
    const aucs_report_kernel *K = &rep->kernels[k];
    char *ir = NULL;
    for (size_t i = 0; K->fn && i < K->findings.n; i++) {
      LLVMValueRef bar = K->findings.v[i].a.instr;
      if (K->findings.v[i].kind != AUCS_FINDING_REDUNDANT_BARRIER ||
          !K->findings.v[i].proven || !bar || !aucs_repair_id(bar))
        continue;
      if (!ir)
        ir = LLVMPrintValueToString(K->fn);
      s->proofs = aucs_xrealloc(s->proofs, (s->nproofs + 1) * sizeof(proof));
      s->proofs[s->nproofs++] =
          (proof){.ir = aucs_xstrdup(ir), .id = aucs_repair_id(bar), .proven = 1};
    }
    if (ir)
      LLVMDisposeMessage(ir);
  }
}

void rp_proofs_free(state *s) {
  for (size_t i = 0; i < s->nproofs; i++) {
    free(s->proofs[i].ir);
  }
  free(s->proofs);
}

int rp_plan_redundant(state *s, trial *t, LLVMValueRef kernel,
                      const aucs_finding *f) {
  LLVMValueRef bar = f->a.instr;
  if (!bar || !aucs_place_is_barrier_call(bar) ||
      LLVMGetFirstUse(bar) != NULL) {
    t->why = aucs_xstrdup("not a plain barrier call");
    return 1;
  }
  const char *why;
  int ran_out = 0;
  if (s->o->trust_dynamic)
    why = "redundant barrier, deleted on dynamic evidence (--trust-dynamic): "
          "it never ordered a conflicting pair of accesses on any input "
          "tried";
  else if (rp_proven_redundant(s, kernel, bar, &ran_out))
    why = s->o->detect && s->o->detect->may_alias
              ? "redundant barrier, deleted on a static proof: Z3 shows "
                "every pair of accesses it separates can never race, even "
                "with pointer arguments overlapping"
              : "redundant barrier, deleted on a static proof: Z3 shows "
                "every pair of accesses it separates can never race, with "
                "distinct pointer arguments not overlapping (--may-alias "
                "keeps barriers an in-place launch needs)";
  else {
    t->why = aucs_xasprintf(
        "kept: the static checker could not prove it redundant%s (only "
        "dynamic evidence; --trust-dynamic deletes it on that)",
        ran_out ? ": the proof ran out of time (its budget is the first "
                  "detection's solver time)"
                : "");
    return 1;
  }
  /* A proof: no pair the barrier separates can race, so the trial need
   * not search for a new input (the final check still does). */
  t->replay_only = !s->o->trust_dynamic;
  const aucs_detect_options *d = s->o->detect;
  int fixed = !s->o->trust_dynamic && d && (d->has_grid || d->has_block);
  char *text = aucs_xasprintf("%s%s", why,
                              fixed ? "; the proof holds for the launch "
                                      "given (--grid, --block)"
                                    : "");
  rp_delete(s, t, bar, text);
  free(text);
  return 0;
}

/* Whether I sits in a loop of its function. */
static int in_loop(LLVMValueRef I) {
  aucs_cfg *g = aucs_cfg_build(rp_fn_of(I));
  int l = g->loop_of[aucs_cfg_index(g, LLVMGetInstructionParent(I))];
  aucs_cfg_free(g);
  return l >= 0;
}

/* Barrier divergence, cheapest first: move the barrier out of the `if`
 * around it to where its threads join (variant 0). When threads exited
 * before a barrier in no loop (an early `return`, maybe in an inlined
 * helper, then the barrier), the exit is the divergence: keeping them in
 * comes first (the barrier is needed where it is), the move second; a
 * barrier in a loop body is misplaced in the body and moves first.
 * Otherwise, and after that, move it to the nearest uniform point (when
 * that is another point), or delete it and order what it ordered, and
 * keep the threads in last. */
int rp_divergence_variant(state *s, trial *t, LLVMValueRef kernel,
                          const aucs_finding *f, int variant) {
  int exited = f->b.instr && LLVMIsAReturnInst(f->b.instr);
  int keep = !exited                ? 3
             : f->a.instr && in_loop(f->a.instr) ? 1
                                                 : 0;
  if (variant == keep) {
    if (plan_keep_in(s, t, kernel))
      return 1;
    rp_sweep_redundant(s, t, kernel); /* repair_sweep.c */
    /* Keeping threads in adds no access (the code after the exit runs
     * under the flag) and only makes more threads reach barriers; the
     * sweep deletes on a proof. No new input can show a race the recorded
     * runs miss, so the trial replays them only (the final check, on a
     * fresh seed, still searches). */
    t->replay_only = 1;
    return 0;
  }
  return plan_divergence(s, t, kernel, f, variant - (variant > keep));
}
