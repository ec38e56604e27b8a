/*
 * detect: per-kernel orchestration of the dynamic detector (its options are
 * parsed in options.c).
 *
 * Steps, for the kernels of a module:
 *   1. Select them (--kernel: mangled name, demangled signature, or the
 *      demangled name without its parameters, or without its template
 *      arguments too: every instantiation).
 *   2. Lower each once; a kernel that does not lower is "unsupported", with
 *      the location of the instruction that stopped it.
 *   3. Bind the user's --arg values to parameters by name and kind; an
 *      argument no selected kernel has is a usage error.
 *   4. Run each kernel on the inputs the search chooses (search.h), merging
 *      every run's findings (first run wins, pairs in either order are one
 *      finding) and every barrier's "passed" and "ordered" facts. A run that
 *      fails (a budget, a trap) is counted and the search goes on; the
 *      kernel is "error" only when no run finished.
 *   5. Barriers passed but never ordering a conflicting pair become
 *      REDUNDANT_BARRIER findings when every run of the kernel finished,
 *      except barriers of another finding and reductions whose result is
 *      used (they communicate).
 * With the static checker (static.h; not with --no-static), before the
 * search: analyse the kernel, replay every SAT pair's witness as a run (a
 * witness that replays is a confirmed race, its run the reproducer), and
 * after it: attach witnesses to the races they replayed, keep unconfirmed
 * SAT pairs as "possible" races (never findings), mark redundant barriers
 * Z3 proves. --static skips the search, and its redundant barriers are
 * the proven ones. With the launch and every scalar argument fixed, no
 * witness is replayed: the search runs that very launch.
 * Every finding carries the command that replays its run: every launch
 * dimension, the inputs the user gave and those the run read
 * (aucs_run_result.leaf_read), the run's seed and its fill, and --replay
 * when it leaves an input out (an input not given is then 0, not
 * searched), so the replay is a search with nothing to choose, i.e.
 * exactly that run: an input the run never read could hold anything. The
 * launch note shows the same inputs; JSON keeps them all.
 *
 * Limitation: the interpreter reports no address range, so fitness ties go
 * to the run with more accesses rather than to the denser range.
 */
#include "detect_impl.h"

static const char *fn_name(LLVMValueRef fn) {
  size_t len;
  return LLVMGetValueName2(fn, &len);
}

/* The length of a demangled function's name before its parameter list
 * (the first '(' outside template arguments), and before its template
 * arguments (the '<' that opens the last of them at the name's end). */
size_t dt_name_len(const char *dem) {
  int depth = 0;
  size_t i = 0;
  for (; dem[i] && (depth || dem[i] != '('); i++)
    depth += (dem[i] == '<') - (dem[i] == '>');
  return i;
}

size_t dt_base_len(const char *dem, size_t len) {
  int depth = 0;
  for (size_t i = len; i-- > 0 && len && dem[len - 1] == '>';) {
    depth += (dem[i] == '>') - (dem[i] == '<');
    if (!depth)
      return i;
  }
  return len;
}

static int prefix_is(const char *dem, size_t len, const char *want) {
  return len && strlen(want) == len && !strncmp(dem, want, len);
}

/* --kernel: the mangled name, the demangled signature, the name without
 * its parameters ("block_sum<128>"), or without its template arguments too
 * ("block_sum": every instantiation). */
static int kernel_matches(LLVMValueRef fn, const char *want) {
  if (!strcmp(fn_name(fn), want))
    return 1;
  char *dem = aucs_demangle(fn_name(fn));
  int hit = 0;
  if (dem) {
    size_t name = dt_name_len(dem);
    hit = !strcmp(dem, want) || prefix_is(dem, name, want) ||
          prefix_is(dem, dt_base_len(dem, name), want);
  }
  free(dem);
  return hit;
}

static char *no_such_kernel(LLVMValueRef *ks, size_t n, const char *want) {
  aucs_buf b = {0};
  aucs_buf_printf(&b, "--kernel: no kernel named '%s' (kernels:", want);
  for (size_t i = 0; i < n; i++) {
    char *dem = aucs_demangle(fn_name(ks[i]));
    aucs_buf_printf(&b, "%s %s", i ? "," : "", dem ? dem : fn_name(ks[i]));
    free(dem);
  }
  aucs_buf_puts(&b, ")");
  return aucs_buf_take(&b);
}

static void unsupported(kstate *s, aucs_findings *diag) {
  s->k->status = AUCS_KERNEL_UNSUPPORTED;
  const aucs_finding *f = diag->n ? &diag->v[0] : NULL;
  char *loc = f && f->a.instr ? aucs_srcloc_format(f->a.instr) : NULL;
  s->k->reason = aucs_xasprintf(
      "kernel '%s' is not supported: %s%s%s", s->k->demangled, loc ? loc : "",
      loc ? ": " : "",
      f && f->message ? f->message : "the interpreter cannot lower it");
  free(loc);
}

/* 1 when function fn takes a pointer. */
static int takes_pointer(LLVMValueRef fn) {
  LLVMTypeRef t = LLVMGlobalGetValueType(fn);
  unsigned n = LLVMCountParamTypes(t);
  LLVMTypeRef *ps = aucs_xcalloc(n + 1, sizeof *ps);
  LLVMGetParamTypes(t, ps);
  int any = 0;
  for (unsigned i = 0; i < n; i++)
    any |= LLVMGetTypeKind(ps[i]) == LLVMPointerTypeKind;
  free(ps);
  return any;
}

/* The note of each function the module only declares that the runs
 * assumed writes nothing (aucs_prog_external). */
static void assumes(kstate *s) {
  aucs_report_kernel *k = s->k;
  size_t n = aucs_prog_nexternals(s->prog);
  k->assumes = aucs_xcalloc(n + 1, sizeof *k->assumes);
  k->assumes_at = aucs_xcalloc(n + 1, sizeof *k->assumes_at);
  for (size_t i = 0; i < n; i++) {
    LLVMValueRef call = aucs_prog_external(s->prog, i);
    LLVMValueRef fn = LLVMGetCalledValue(call);
    char *dem = aucs_demangle(fn_name(fn));
    k->assumes[i] = aucs_xasprintf(
        "assumes `%s` (declared, not defined) writes no memory the kernel "
        "reads%s",
        dem ? dem : fn_name(fn),
        takes_pointer(fn) ? ", not even through the pointer it is passed" : "");
    k->assumes_at[i] = aucs_srcloc_format(call);
    free(dem);
  }
  k->nassumes = n;
}

static void lower(kstate *s, LLVMValueRef fn) {
  aucs_report_kernel *k = s->k;
  k->fn = fn;
  k->name = aucs_xstrdup(fn_name(fn));
  k->demangled = aucs_demangle(k->name);
  if (!k->demangled)
    k->demangled = aucs_xstrdup(k->name);
  s->in = aucs_inputs_describe(fn);
  s->nl = s->in->n;
  aucs_inputs_values_init(&s->iv, s->in);
  aucs_findings diag = {0};
  aucs_lower_options lo = {.strict = s->o->strict};
  if (aucs_interp_lower_with(fn, &lo, &s->prog, &diag))
    unsupported(s, &diag);
  aucs_findings_free(&diag);
  if (!s->prog)
    return;
  k->cooperative = aucs_prog_grid_sync(s->prog);
  assumes(s);
  s->np = aucs_prog_nparams(s->prog);
  s->params = aucs_xcalloc(s->np + 1, sizeof(*s->params));
  for (size_t i = 0; i < s->np; i++)
    s->params[i] = *aucs_prog_param(s->prog, i);
  s->vals = aucs_xcalloc(s->np + 1, sizeof(*s->vals));
  s->fixed = aucs_xcalloc(s->np + 1, 1);
}

static void kstate_free(kstate *s) {
  aucs_launchplan_free(&s->lp);
  aucs_seeds_free(s->seeds);
  for (size_t i = 0; i < s->nbar; i++) {
    free(s->bar_args[i]);
    free(s->bar_shown[i]);
    free(s->bar_cmd[i]);
  }
  free(s->bar_runs);
  free(s->bar_ordered);
  free(s->bar_launch);
  free(s->bar_args);
  free(s->bar_shown);
  free(s->bar_cmd);
  free(s->failure);
  aucs_ptrmap_free(&s->fmap);
  free(s->fnext);
  aucs_replay_memo_free(&s->replayed);
  for (size_t i = 0; i < s->nfound; i++)
    free(s->found[i].args);
  free(s->found);
  free(s->until.v);
  aucs_static_free(s->st);
  aucs_adaptive_free(s->plan);
  free(s->unreplayed);
  free(s->params);
  free(s->vals);
  free(s->fixed);
  free(s->leaves);
  free(s->lfixed);
  free(s->lset);
  free(s->lranged);
  free(s->llo);
  free(s->lhi);
  aucs_inputs_values_free(&s->iv);
  aucs_inputs_free(s->in);
  aucs_prog_free(s->prog);
}

/* ---- argument values ----------------------------------------------------*/

int dt_scalar(const aucs_param *p) {
  return p->kind == AUCS_PARAM_INT || p->kind == AUCS_PARAM_FLOAT;
}

/* "n=100 t.dims[0]=4": the inputs a run used (per leaf values); with
 * read (aucs_run_result.leaf_read), only those the user gave or the run
 * read. */
char *dt_format_args(const kstate *s, const uint64_t *vals,
                     const unsigned char *read) {
  return aucs_inputs_format(s->in, &s->iv, vals, read);
}

/* After binding: what the search and the static checker see. A float field
 * the user did not set keeps the fill (not searched, not written). */
static void leaves_of(kstate *s) {
  s->leaves = aucs_xcalloc(s->nl + 1, sizeof *s->leaves);
  s->lfixed = aucs_xcalloc(s->nl + 1, 1);
  s->lset = aucs_xcalloc(s->nl + 1, 1);
  s->lranged = aucs_xcalloc(s->nl + 1, 1);
  s->llo = aucs_xcalloc(s->nl + 1, sizeof *s->llo);
  s->lhi = aucs_xcalloc(s->nl + 1, sizeof *s->lhi);
  for (size_t j = 0; j < s->nl; j++) {
    const aucs_input *x = &s->in->v[j];
    s->leaves[j] = x->p;
    s->lranged[j] = !x->field && (unsigned char)aucs_launchplan_range(
                                     &s->lp, x->param, &s->llo[j], &s->lhi[j]);
    s->lset[j] = (unsigned char)aucs_inputs_settable(s->in, &s->iv, j);
    s->lfixed[j] = s->iv.fixed[j] || !s->lset[j];
    if (!x->field && s->prog && x->param < s->np) {
      s->vals[x->param] = s->iv.vals[j];
      s->fixed[x->param] = s->iv.fixed[j];
    }
  }
}

/* --replay: every input still free is 0, not searched (a float field
 * left to the fill stays so: it is not settable). */
static void replay_defaults(kstate *s) {
  for (size_t j = 0; j < s->nl; j++)
    if (!s->iv.fixed[j] && aucs_inputs_settable(s->in, &s->iv, j)) {
      s->iv.vals[j] = 0;
      s->iv.fixed[j] = 1;
    }
}

/* Bind the user's --arg and --buffer settings to every selected kernel's
 * leaves (a kernel that did not lower included: its parameters are known
 * from its signature). */
static int bind_args(kstate *ks, size_t n, const aucs_detect_options *o,
                     char **err) {
  const aucs_inputs **ins = aucs_xcalloc(n + 1, sizeof *ins);
  const char **names = aucs_xcalloc(n + 1, sizeof *names);
  aucs_inputs_values *vals = aucs_xcalloc(n + 1, sizeof *vals);
  for (size_t i = 0; i < n; i++) {
    ins[i] = ks[i].in;
    names[i] = ks[i].k->demangled;
    vals[i] = ks[i].iv;
  }
  int rc = aucs_inputs_bind(ins, names, vals, n, &o->user, err);
  for (size_t i = 0; i < n; i++) {
    aucs_launchplan_bind(&ks[i].lp, ks[i].in, &ks[i].iv);
    if (o->user.replay)
      replay_defaults(&ks[i]);
    leaves_of(&ks[i]);
  }
  free(ins);
  free(names);
  free(vals);
  return rc;
}

static int check_launch(const aucs_detect_options *o, char **err) {
  const aucs_dim3 b = o->block, g = o->grid;
  if (o->has_block && (b.x > 1024 || b.y > 1024 || b.z > 64 ||
                       (uint64_t)b.x * b.y * b.z > 1024)) {
    *err = aucs_xstrdup("--block: at most 1024 threads per block (x, y <= "
                        "1024, z <= 64)");
    return -1;
  }
  if (o->has_grid && (g.x > 2147483647u || g.y > 65535 || g.z > 65535)) {
    *err = aucs_xstrdup("--grid: at most 2147483647 x 65535 x 65535 blocks");
    return -1;
  }
  return 0;
}

/* ---- runs ---------------------------------------------------------------*/

static char *dim_arg(aucs_dim3 d) {
  return aucs_xasprintf("%u,%u,%u", d.x, d.y, d.z);
}

/* The command that replays run c: its launch, the inputs it lists (read:
 * as format_args), its seed and fill. */
static char *reproduce(const kstate *s, const aucs_candidate *c,
                       const unsigned char *read) {
  aucs_buf b = {0};
  char *g = dim_arg(c->launch.grid), *bl = dim_arg(c->launch.block);
  aucs_buf_printf(&b, "%s --kernel %s --grid %s --block %s", s->prefix,
                  s->k->name, g, bl);
  free(g);
  free(bl);
  char *in = aucs_inputs_command(s->in, &s->iv, c->args, read, &s->o->user);
  aucs_buf_puts(&b, in);
  free(in);
  if (s->lp.dynamic_shared)
    aucs_buf_printf(&b, " --dynamic-shared %llu",
                    (unsigned long long)s->lp.dynamic_shared);
  aucs_buf_printf(&b, " --seed %llu --fill %s", (unsigned long long)c->seed,
                  aucs_interp_fill_name(c->fill));
  if (s->o->warp_lockstep)
    aucs_buf_puts(&b, " --warp-lockstep");
  if (s->o->step_budget)
    aucs_buf_printf(&b, " --step-budget %llu",
                    (unsigned long long)s->o->step_budget);
  if (s->o->memory_budget)
    aucs_buf_printf(&b, " --memory-budget %zu", s->o->memory_budget);
  if (s->o->has_run_budget)
    aucs_buf_printf(&b, " --run-budget %llu",
                    (unsigned long long)s->o->run_budget);
  return aucs_buf_take(&b);
}

/* s->fmap maps aucs_finding_key to the first such finding's index + 1;
 * s->fnext chains the findings of one key. A run can find thousands. */

static aucs_finding *known_finding(const kstate *s, const aucs_finding *f) {
  intptr_t i;
  if (!aucs_ptrmap_get(&s->fmap, aucs_finding_key(f), &i))
    return NULL;
  for (size_t j = (size_t)i; j; j = s->fnext[j - 1])
    if (aucs_finding_same(&s->k->findings.v[j - 1], f))
      return &s->k->findings.v[j - 1];
  return NULL;
}

/* Another run showed known finding g as f: the values stored are equal
 * only when they were in every run. */
static void merge_runs(aucs_finding *g, const aucs_finding *f) {
  g->runs++;
  if (g->values != AUCS_VALUES_DIFFER && f->values != AUCS_VALUES_EQUAL)
    g->values = f->values;
}

static void index_finding(kstate *s, size_t n) {
  const void *key = aucs_finding_key(&s->k->findings.v[n - 1]);
  intptr_t first = 0;
  aucs_ptrmap_get(&s->fmap, key, &first);
  s->fnext = aucs_xrealloc(s->fnext, n * sizeof *s->fnext);
  s->fnext[n - 1] = (size_t)first;
  aucs_ptrmap_put(&s->fmap, key, (intptr_t)n);
}

/* 1 when f, found by run c (its result res), is new. */
static int add_finding(kstate *s, const aucs_finding *f,
                       const aucs_candidate *c, const char *args,
                       const aucs_run_result *res) {
  aucs_report_kernel *k = s->k;
  aucs_finding *known = known_finding(s, f);
  if (known) {
    merge_runs(known, f);
    return 0;
  }
  aucs_finding g = *f;
  g.runs = 1;
  g.object = f->object ? aucs_xstrdup(f->object) : NULL;
  aucs_finding_dup_text(&g, f);
  g.args = aucs_xstrdup(args);
  g.shown_args = dt_format_args(s, c->args, res->leaf_read);
  g.data_dependent = g.data_loads = NULL; /* set by datadep() only */
  g.benign = NULL;                        /* set by benign() only */
  g.launch = c->launch;
  aucs_findings_push(&k->findings, &g);
  index_finding(s, k->findings.n);
  k->reproduce =
      aucs_xrealloc(k->reproduce, k->findings.n * sizeof(*k->reproduce));
  k->reproduce[k->findings.n - 1] = reproduce(s, c, res->leaf_read);
  s->found = aucs_xrealloc(s->found, k->findings.n * sizeof *s->found);
  s->found[s->nfound] = *c;
  s->found[s->nfound].args = aucs_xcalloc(s->nl + 1, sizeof *c->args);
  memcpy(s->found[s->nfound++].args, c->args, s->nl * sizeof *c->args);
  if (s->o->record)
    s->o->record(s->o->record_ctx, k->name, c, s->nl, res);
  return 1;
}

/* Returns how many barrier facts are new (first passed, first ordered). */
static unsigned merge_barriers(kstate *s, const aucs_run_result *res,
                               const aucs_candidate *c, const char *args) {
  unsigned news = 0;
  for (size_t i = 0; i < s->nbar; i++) {
    if (res->barrier_ordered && res->barrier_ordered[i] && !s->bar_ordered[i])
      s->bar_ordered[i] = 1, news++;
    if (!res->barrier_passes || !res->barrier_passes[i])
      continue;
    if (s->bar_runs[i]++ == 0) {
      news++;
      s->bar_launch[i] = c->launch;
      s->bar_args[i] = aucs_xstrdup(args);
      s->bar_shown[i] = dt_format_args(s, c->args, res->leaf_read);
      s->bar_cmd[i] = reproduce(s, c, res->leaf_read);
    }
  }
  return news;
}

static const char *status_text(aucs_run_status st) {
  switch (st) {
  case AUCS_RUN_STEP_BUDGET:
    return "step budget exceeded";
  case AUCS_RUN_MEMORY_BUDGET:
    return "memory budget exceeded";
  case AUCS_RUN_TRAP:
    return "the kernel trapped";
  case AUCS_RUN_BAD_LAUNCH:
    return "launch beyond the hardware limits";
  default:
    return "run failed";
  }
}

static void run_failed(kstate *s, const aucs_run_result *res,
                       const aucs_candidate *c) {
  if (s->failed++)
    return;
  char *g = dim_arg(c->launch.grid), *b = dim_arg(c->launch.block);
  char *cmd = reproduce(s, c, res->leaf_read);
  char *shown = dt_format_args(s, c->args, res->leaf_read);
  s->failure =
      aucs_xasprintf("%s (run: grid (%s) block (%s)%s%s; reproduce with: %s)",
                     res->error ? res->error : status_text(res->status), g, b,
                     *shown ? " " : "", shown, cmd);
  free(g);
  free(b);
  free(cmd);
  free(shown);
}

/* The kernel's inputs solved from its preconditions (seeds.h), once. */
static aucs_seeds *seeds(kstate *s) {
  aucs_seeds_kernel sk = {
      s->k->fn,       s->k->demangled, s->in,
      &s->iv,         s->lfixed,       s->lset,
      s->lp.has_grid, s->lp.has_block, {s->lp.grid, s->lp.block}};
  return s->seeds ? s->seeds : (s->seeds = aucs_seeds_solve(&sk));
}

static void solve_inputs(void *ctx, aucs_search_seeds *out) {
  kstate *s = ctx;
  aucs_seeds_get(seeds(s), out);
  s->k->solved = aucs_seeds_count(s->seeds);
}

/* After the search: no run finished makes the kernel "error"; failed runs
 * among finished ones leave it "checked", with a reason that says so. */
static void settle(kstate *s) {
  aucs_report_kernel *k = s->k;
  if (k->discarded && !k->runs) {
    k->status = AUCS_KERNEL_ERROR;
    k->reason =
        aucs_seeds_reason(seeds(s), k->demangled, k->discarded, k->assumption);
    return;
  }
  if (!s->failed && s->max_threads)
    k->reason = aucs_xasprintf(
        "kernel '%s': runs simulated at most %llu threads of each grid (its "
        "first blocks and its last): a larger sample needed more memory than "
        "the run's budget (--memory-budget)",
        k->demangled, (unsigned long long)s->max_threads);
  else if (!s->failed && s->sampled_after)
    k->reason = aucs_xasprintf(
        "kernel '%s': a run of %llu blocks simulated its first %llu and its "
        "last: past %llu thread instructions a run leaves the other blocks "
        "out (races within and between the blocks run are checked, "
        "out-of-bounds accesses of the blocks left out are not)",
        k->demangled, (unsigned long long)s->sampled_of,
        (unsigned long long)s->sampled_after,
        (unsigned long long)AUCS_INTERP_SAMPLE_STEPS);
  if (!s->failed)
    return;
  if (s->failed == k->runs) {
    k->status = AUCS_KERNEL_ERROR;
    k->reason = aucs_xasprintf("kernel '%s': %s", k->demangled, s->failure);
    return;
  }
  k->reason = aucs_xasprintf(
      "kernel '%s': %llu of %llu runs did not finish and were left out (no "
      "barrier is reported redundant); the first: %s",
      k->demangled, (unsigned long long)s->failed, (unsigned long long)k->runs,
      s->failure);
}

/* An input that violates an llvm.assume is outside the kernel's
 * precondition: not a run, and nothing it found is reported. */
static aucs_search_verdict discard(kstate *s, aucs_run_result *res) {
  aucs_report_kernel *k = s->k;
  if (k->discarded++ == 0)
    k->assumption = aucs_srcloc_format(res->assumption);
  aucs_run_result_free(res);
  return AUCS_SEARCH_DISCARDED;
}

/* aucs_run_config.stop of a trial's replays: the trial's stop. */
static int run_stop(void *ctx, const aucs_finding *f) {
  kstate *s = ctx;
  const aucs_detect_trial *t = s->o->trial;
  return t->stop(t->stop_ctx, s->k->name, f);
}

/* A grid larger than a run simulates runs its first blocks and its last
 * (interp.c). When such a run needed more memory than its budget, the
 * kernel's runs simulate an eighth as many threads, down to two blocks and
 * the last: 1, or 0 when they cannot be fewer. */
static int fewer_blocks(kstate *s, const aucs_launch *l) {
  uint64_t per = (uint64_t)l->block.x * l->block.y * l->block.z;
  uint64_t all = per * l->grid.x * l->grid.y * l->grid.z;
  uint64_t cap = s->max_threads ? s->max_threads : AUCS_INTERP_MAX_THREADS;
  if (all <= 3 * per || cap <= 3 * per)
    return 0;
  s->max_threads = cap / 8 > 3 * per ? cap / 8 : 3 * per;
  return 1;
}

/* One interpreter run of c as it is. */
static aucs_run_status run_as_is(kstate *s, const aucs_candidate *c,
                                 aucs_run_result *res) {
  uint64_t *pargs = aucs_xcalloc(s->np + 1, sizeof *pargs);
  for (size_t j = 0; j < s->nl; j++)
    if (!s->in->v[j].field && s->in->v[j].param < s->np)
      pargs[s->in->v[j].param] = c->args[j];
  uint64_t cap = s->o->has_run_budget
                     ? s->o->run_budget
                     : aucs_interp_run_steps(c->launch, s->max_threads);
  if (s->taint && (!cap || cap > s->datadep_steps))
    cap = s->datadep_steps; /* > 0: datadep_replay runs nothing at 0 */
  aucs_run_config cfg = {
      .launch = c->launch,
      .args = pargs,
      .fields = c->args,
      .fields_set = s->lset,
      .buffer_bytes = s->iv.bytes,
      .buffer_data = (const unsigned char *const *)s->iv.data,
      .buffer_data_bytes = s->iv.data_bytes,
      .taint = s->taint,
      .taint_until = s->taint && s->until.n ? &s->until : NULL,
      .stop = s->stop_runs ? run_stop : NULL,
      .stop_ctx = s,
      .dynamic_shared_bytes = s->lp.dynamic_shared ? s->lp.dynamic_shared
                                                   : s->o->user.dynamic_shared,
      .seed = c->seed,
      .fill = c->fill,
      .warp_lockstep = s->o->warp_lockstep,
      .step_budget = s->o->step_budget,
      .memory_budget = s->o->memory_budget,
      .run_steps = cap,
      .max_threads = s->max_threads,
      /* --run-budget 0: no bound on a run, every block of its grid */
      .sample_steps = s->o->has_run_budget && !s->o->run_budget ? UINT64_MAX : 0,
      .budget = &s->pg.kernel,
      .textures = s->o->user.textures,
      .ntextures = s->o->user.ntextures,
  };
  aucs_run_status st = aucs_interp_run(s->prog, &cfg, res);
  while (st == AUCS_RUN_MEMORY_BUDGET && fewer_blocks(s, &c->launch)) {
    aucs_run_result_free(res);
    *res = (aucs_run_result){0};
    cfg.max_threads = s->max_threads;
    if (!s->o->has_run_budget && !s->taint)
      cfg.run_steps = aucs_interp_run_steps(c->launch, s->max_threads);
    st = aucs_interp_run(s->prog, &cfg, res);
  }
  free(pargs);
  return st;
}

static int tied(const kstate *s) {
  return s->lp.grid_tied || s->lp.args_tied || s->lp.ranged ||
         s->lp.block_multiple;
}

/* One interpreter run of c (with what the host ties to c's arguments). */
static aucs_run_status run(kstate *s, const aucs_candidate *c,
                           aucs_run_result *res) {
  aucs_candidate d;
  if (tied(s)) {
    if (aucs_launchplan_candidate(&s->lp, s->in, s->np, c, &d))
      return AUCS_RUN_ASSUME;
    aucs_run_status st = run_as_is(s, &d, res);
    free(d.args);
    return st;
  }
  return run_as_is(s, c, res);
}

static aucs_search_verdict eval_as_is(kstate *s, const aucs_candidate *c,
                                      aucs_fitness *fit);

/* Arguments whose host launch CUDA cannot make: no run, the worst fitness. */
static aucs_search_verdict no_launch(aucs_fitness *fit) {
  memset(fit, 0, sizeof *fit);
  fit->score = 1.0;
  return AUCS_SEARCH_NEXT;
}

/* The search's evaluation: one interpreter run, merged into the report. */
aucs_search_verdict dt_eval(void *ctx, const aucs_candidate *c,
                            aucs_fitness *fit) {
  kstate *s = ctx;
  aucs_candidate d;
  if (tied(s)) {
    if (aucs_launchplan_candidate(&s->lp, s->in, s->np, c, &d))
      return no_launch(fit);
    aucs_search_verdict v = eval_as_is(s, &d, fit);
    free(d.args);
    return v;
  }
  return eval_as_is(s, c, fit);
}

/* dt_eval on c as it is. */
static aucs_search_verdict eval_as_is(kstate *s, const aucs_candidate *c,
                                      aucs_fitness *fit) {
  aucs_report_kernel *k = s->k;
  if (aucs_budget_check(&s->pg.kernel))
    return AUCS_SEARCH_STOP;
  aucs_run_result res = {0};
  aucs_run_status st = run_as_is(s, c, &res);
  if (st == AUCS_RUN_ASSUME)
    return discard(s, &res);
  char *args = dt_format_args(s, c->args, NULL);
  if (k->runs++ == 0) {
    k->launch = c->launch;
    k->args = aucs_xstrdup(args);
  }
  k->thread_instructions += res.thread_instructions;
  k->threads_run += res.threads_run;
  if (res.sampled_after &&
      (!s->sampled_after || res.sampled_after < s->sampled_after)) {
    s->sampled_after = res.sampled_after;
    s->sampled_of = (uint64_t)c->launch.grid.x * c->launch.grid.y *
                    c->launch.grid.z;
  }
  k->barriers_passed += res.barriers_passed;
  k->warp_syncs += res.warp_syncs;
  fit->news = 0;
  for (size_t i = 0; i < res.findings.n; i++)
    fit->news += (unsigned)add_finding(s, &res.findings.v[i], c, args, &res);
  fit->news += merge_barriers(s, &res, c, args);
  memcpy(fit->coverage, res.coverage, sizeof fit->coverage);
  fit->score = res.accesses
                   ? (double)res.distinct_addresses / (double)res.accesses
                   : 1.0;
  fit->tie = -(double)res.accesses;
  fit->idle = res.accesses == 0;
  s->pg.run_cut |= st == AUCS_RUN_BUDGET;
  s->stopped |= st == AUCS_RUN_STOPPED;
  if (st != AUCS_RUN_OK && st != AUCS_RUN_BUDGET && st != AUCS_RUN_STOPPED)
    run_failed(s, &res, c);
  free(args);
  aucs_run_result_free(&res);
  if (st == AUCS_RUN_BUDGET || st == AUCS_RUN_STOPPED)
    return AUCS_SEARCH_STOP;
  if (st != AUCS_RUN_OK)
    return AUCS_SEARCH_FAILED;
  return aucs_adaptive_settled(s->plan, s->bar_runs, s->bar_ordered)
             ? AUCS_SEARCH_STOP
             : AUCS_SEARCH_NEXT;
}

/* ---- natural inputs (natural.h) -----------------------------------------*/

/* A replay in which no thread touched memory (the natural values took an
 * early exit of the kernel's) tells nothing, as one that did not finish. */
static int natural_replay(void *ctx, const aucs_candidate *c,
                          aucs_findings *out) {
  aucs_run_result res = {0};
  aucs_run_status st = run(ctx, c, &res);
  int told = st == AUCS_RUN_OK && res.accesses;
  if (told) {
    *out = res.findings;
    res.findings = (aucs_findings){0};
  }
  aucs_run_result_free(&res);
  return !told;
}

/* Each finding a run made: does it occur with natural inputs too? */
static void natural(kstate *s) {
  aucs_natural *n = aucs_natural_analyze(s->k->fn, s->in);
  aucs_natural_kernel nk = {.n = n,
                            .in = s->in,
                            .iv = &s->iv,
                            .lset = s->lset,
                            .replay = natural_replay,
                            .ctx = s};
  aucs_natural_classify(&nk, &s->k->findings, s->found, s->nfound);
  aucs_natural_free(n);
}

/* ---- data-dependent findings (datadep.h) --------------------------------*/

static int same_run(const kstate *s, const aucs_candidate *a,
                    const aucs_candidate *b) {
  return a->seed == b->seed && a->fill == b->fill &&
         !memcmp(&a->launch, &b->launch, sizeof a->launch) &&
         !memcmp(a->args, b->args, s->nl * sizeof *a->args);
}

/* The findings datadep() will look up in the replay of c (s->until, shallow
 * copies): once each is found and depends on filled data, the rest of the
 * replay cannot change their verdict, so it may stop (interp.h). */
static void replay_wants(kstate *s, const aucs_candidate *c) {
  s->until.n = 0;
  for (size_t i = 0; i < s->nfound && i < s->k->findings.n; i++) {
    const aucs_finding *f = &s->k->findings.v[i];
    if (!aucs_replay_kind(f->kind) || f->data_dependent || !s->found[i].args ||
        !same_run(s, &s->found[i], c))
      continue;
    if (s->until.n == s->until.cap) {
      s->until.cap = s->until.cap ? 2 * s->until.cap : 8;
      s->until.v = aucs_xrealloc(s->until.v, s->until.cap * sizeof *s->until.v);
    }
    s->until.v[s->until.n++] = *f;
  }
}

/* A replay with the taint track; a run that did not finish (an access
 * through a wild pointer read from filled data, a trip count read from it)
 * still tells what it found; one that violated an assumption does not. */
static int datadep_replay(void *ctx, const aucs_candidate *c,
                          aucs_findings *out) {
  kstate *s = ctx;
  aucs_run_result res = {0};
  if (!s->datadep_steps)
    return 1; /* the replays' count is spent: findings stay errors */
  aucs_budget kernel = s->pg.kernel; /* may be spent: the search used it */
  s->pg.kernel = s->datadep;
  s->taint = 1;
  replay_wants(s, c);
  aucs_run_status st = run(s, c, &res);
  s->until.n = 0;
  s->taint = 0;
  s->datadep_steps -= res.thread_instructions < s->datadep_steps
                          ? res.thread_instructions
                          : s->datadep_steps;
  s->datadep = s->pg.kernel;
  s->pg.kernel = kernel;
  if (st != AUCS_RUN_ASSUME) {
    *out = res.findings;
    res.findings = (aucs_findings){0};
  }
  aucs_run_result_free(&res);
  return st == AUCS_RUN_ASSUME;
}

/* Each finding a run made: was it computed from filled buffer contents? */
static void datadep(kstate *s) {
  /* Inside the kernel's time budget (--time-budget bounds the whole check):
   * a spent budget leaves the findings errors, as a replay that does not
   * finish does. */
  double left = aucs_budget_left(&s->pg.kernel);
  if (s->pg.kernel.hit || left <= 0)
    return;
  aucs_budget_init(&s->datadep,
                   left < AUCS_DATADEP_SECONDS ? left : AUCS_DATADEP_SECONDS, 0,
                   NULL);
  s->datadep_steps = AUCS_DATADEP_STEPS;
  aucs_datadep_classify(datadep_replay, s, s->nl, &s->k->findings, s->found,
                        s->nfound);
}

/* ---- benign races (benign.h) --------------------------------------------*/

/* Each race that stored one value: does the static checker prove it?
 * When the runs spent the kernel's budget, its proofs still have
 * AUCS_BENIGN_SECONDS (benign.h). */
static void benign(kstate *s) {
  aucs_budget own, *b = &s->pg.kernel;
  if (b->hit || aucs_budget_left(b) < AUCS_BENIGN_SECONDS) {
    aucs_budget_init(&own, AUCS_BENIGN_SECONDS, 0, NULL);
    b = &own;
  }
  aucs_benign_classify(s->st, &s->k->findings, b);
}

/* ---- redundant barriers -------------------------------------------------*/

int dt_in_finding(const aucs_report_kernel *k, LLVMValueRef I) {
  for (size_t i = 0; i < k->findings.n; i++)
    if (k->findings.v[i].a.instr == I || k->findings.v[i].b.instr == I)
      return 1;
  return 0;
}

/* A reduction barrier (__syncthreads_count, _and, _or) whose result is
 * used hands every thread a block-wide value: deleting it changes that. */
int dt_communicates(LLVMValueRef bar) {
  return LLVMGetTypeKind(LLVMTypeOf(bar)) != LLVMVoidTypeKind &&
         LLVMGetFirstUse(bar) != NULL;
}

static void redundant(kstate *s, size_t i) {
  LLVMValueRef bar = aucs_prog_barrier(s->prog, i);
  aucs_report_kernel *k = s->k;
  if (dt_in_finding(k, bar) || dt_communicates(bar))
    return;
  aucs_finding f = {
      .kind = AUCS_FINDING_REDUNDANT_BARRIER,
      .a = {.instr = bar},
      .launch = s->bar_launch[i],
      .args = aucs_xstrdup(s->bar_args[i]),
      .shown_args = aucs_xstrdup(s->bar_shown[i]),
  };
  f.message = aucs_xasprintf(
      "it never ordered a conflicting pair of accesses in the %llu run%s "
      "that passed it (dynamic evidence: no input tried needed it)",
      (unsigned long long)s->bar_runs[i], s->bar_runs[i] == 1 ? "" : "s");
  aucs_findings_push(&k->findings, &f);
  k->reproduce = aucs_xrealloc(k->reproduce, k->findings.n * sizeof(char *));
  k->reproduce[k->findings.n - 1] = aucs_xstrdup(s->bar_cmd[i]);
}

/* ---- one kernel ---------------------------------------------------------*/

/* How many dimensions a launch varies: up to the highest one read (a kernel
 * reading tid.z varies y too). */
static unsigned dims_count(unsigned bits) {
  return bits & 4 ? 3 : bits & 2 ? 2 : 1;
}

static void space_of(kstate *s, aucs_search_space *sp) {
  const aucs_detect_options *o = s->o;
  *sp = (aucs_search_space){
      .params = s->leaves,
      .nparams = s->nl,
      .fixed_grid = s->lp.has_grid,
      .fixed_block = s->lp.has_block,
      .fixed_fill = o->has_fill,
      .launch = {s->lp.grid, s->lp.block},
      .fill = o->fill,
      .fixed_arg = s->lfixed,
      .ranged = s->lranged,
      .lo = s->llo,
      .hi = s->lhi,
      .args = s->iv.vals,
      .population = o->population,
      .generations = o->generations,
      .seed = o->has_seed ? o->seed : AUCS_SEARCH_SEED,
      .exhaustive = o->exhaustive,
      .budget_ms = o->search_budget,
      .solve = solve_inputs,
      .solve_ctx = s,
  };
  unsigned block, grid;
  aucs_nvvm_dims_read(s->k->fn, &block, &grid);
  sp->block_dims = dims_count(block);
  sp->grid_dims = dims_count(grid);
}

/* Source order (line, column of the first access), then kind; stable:
 * the index breaks ties. Keys are computed once (a kernel can have
 * thousands of findings). */
typedef struct sort_key {
  unsigned line, col, kind;
  size_t index;
} sort_key;

static int by_key(const void *x, const void *y) {
  const sort_key *a = x, *b = y;
  if (a->line != b->line)
    return a->line < b->line ? -1 : 1;
  if (a->col != b->col)
    return a->col < b->col ? -1 : 1;
  if (a->kind != b->kind)
    return a->kind < b->kind ? -1 : 1;
  return a->index < b->index ? -1 : a->index > b->index;
}

static void sort_findings(aucs_report_kernel *k) {
  size_t n = k->findings.n;
  sort_key *key = aucs_xcalloc(n + 1, sizeof *key);
  for (size_t i = 0; i < n; i++) {
    aucs_srcloc l = aucs_srcloc_of(k->findings.v[i].a.instr);
    key[i] = (sort_key){l.line, l.col, k->findings.v[i].kind, i};
  }
  if (n)
    qsort(key, n, sizeof *key, by_key);
  aucs_finding *f = aucs_xcalloc(n + 1, sizeof *f);
  char **r = aucs_xcalloc(n + 1, sizeof *r);
  for (size_t i = 0; i < n; i++)
    f[i] = k->findings.v[key[i].index], r[i] = k->reproduce[key[i].index];
  if (n) {
    memcpy(k->findings.v, f, n * sizeof *f);
    memcpy(k->reproduce, r, n * sizeof *r);
  }
  free(key);
  free(f);
  free(r);
}

/* ---- budgets (progress.h) -----------------------------------------------*/

/* The search's evaluation, counted, and stopped by the kernel's budget. */
static aucs_search_verdict search_eval(void *ctx, const aucs_candidate *c,
                                       aucs_fitness *fit) {
  kstate *s = ctx;
  uint64_t runs = s->k->runs;
  aucs_search_verdict v;
  if (aucs_replay_memo_get(&s->replayed, s->nl, c, &v, fit))
    return v; /* a trial replayed this very run */
  v = dt_eval(s, c, fit);
  s->pg.searched += s->k->runs - runs;
  return v;
}

static void search(kstate *s, const aucs_search_space *sp) {
  size_t mu = sp->population ? sp->population : AUCS_SEARCH_POPULATION;
  size_t g = sp->generations ? sp->generations : AUCS_SEARCH_GENERATIONS;
  s->pg.planned = aucs_search_fixed(sp) ? 1 : mu * (1 + 2 * g);
  if (aucs_budget_check(&s->pg.kernel))
    return;
  s->pg.search_started = 1;
  aucs_search_stats ss;
  aucs_search_run_stats(sp, search_eval, s, &ss);
  s->k->runs_saved = ss.planned > ss.runs ? ss.planned - ss.runs : 0;
  s->k->search_end = aucs_search_end_name(ss.end);
  s->k->search_budget = ss.end == AUCS_SEARCH_END_BUDGET;
}

/* A spent budget: the reason says what was and was not checked; nothing
 * checked makes the kernel "error". */
static void budget_settle(kstate *s) {
  aucs_report_kernel *k = s->k;
  if (!aucs_progress_cut(&s->pg))
    return;
  k->budget = aucs_progress_reached(&s->pg);
  k->budget_checked = aucs_progress_checked(&s->pg);
  size_t asked = 0;
  if (s->st)
    aucs_static_stopped(s->st, &asked, NULL);
  int nothing = k->runs == s->failed + (uint64_t)s->pg.run_cut && !asked;
  if (nothing)
    k->status = AUCS_KERNEL_ERROR;
  char *old = k->reason;
  k->reason =
      aucs_xasprintf("kernel '%s': %s%s: %s%s%s", k->demangled, k->budget,
                     nothing ? " before anything was checked" : "",
                     k->budget_checked, old ? "; " : "", old ? old : "");
  free(old);
}

/* A repair trial (aucs_detect_options.trial): the recorded runs of this
 * kernel, then a search of one candidate and its two children (the first
 * of them is the full search's first run; a run replayed just before is
 * not run again); the trial's stop ends it at the first finding it stops
 * at, inside the replayed run that adds it. */
static int trial_stops(kstate *s, size_t from) {
  const aucs_detect_trial *t = s->o->trial;
  for (size_t j = from; t->stop && j < s->k->findings.n; j++)
    if (t->stop(t->stop_ctx, s->k->name, &s->k->findings.v[j]))
      return 1;
  return 0;
}

static void trial_runs(kstate *s, aucs_search_space *sp) {
  const aucs_detect_trial *t = s->o->trial;
  size_t replayed = 0;
  for (size_t i = 0; i < t->n; i++) {
    if (strcmp(t->kernels[i], s->k->name) || t->nargs[i] != s->nl)
      continue;
    aucs_fitness fit = {0};
    size_t before = s->k->findings.n;
    s->stop_runs = t->stop != NULL;
    aucs_search_verdict v = dt_eval(s, &t->runs[i], &fit);
    s->stop_runs = 0;
    if (!s->stopped)
      aucs_replay_memo_put(&s->replayed, s->nl, &t->runs[i], v, &fit);
    replayed++;
    if (s->stopped || trial_stops(s, before))
      return;
  }
  if (t->replay_only && replayed)
    return;
  sp->population = sp->generations = 1;
  search(s, sp);
}

void dt_check_kernel(kstate *s) {
  s->nbar = aucs_prog_nbarriers(s->prog);
  s->bar_runs = aucs_xcalloc(s->nbar + 1, sizeof(*s->bar_runs));
  s->bar_ordered = aucs_xcalloc(s->nbar + 1, 1);
  s->bar_launch = aucs_xcalloc(s->nbar + 1, sizeof(*s->bar_launch));
  s->bar_args = aucs_xcalloc(s->nbar + 1, sizeof(char *));
  s->bar_shown = aucs_xcalloc(s->nbar + 1, sizeof(char *));
  s->bar_cmd = aucs_xcalloc(s->nbar + 1, sizeof(char *));
  aucs_search_space sp;
  space_of(s, &sp);
  aucs_progress_begin(&s->pg, s->o, s->start);
  double start = aucs_seconds();
  dt_static_replay(s, &sp);
  if (!s->o->static_only && !s->o->exhaustive && !s->o->trial)
    s->plan = aucs_adaptive_plan(s->k->fn, s->st, s->prog);
  if (!s->o->static_only && s->o->trial)
    trial_runs(s, &sp);
  else if (!s->o->static_only)
    search(s, &sp);
  s->k->seconds = aucs_seconds() - start;
  settle(s);
  budget_settle(s);
  natural(s);
  if (!s->stopped || !s->o->trial->locate)
    datadep(s);
  benign(s);
  if (s->k->status == AUCS_KERNEL_CHECKED && !s->failed && !s->pg.kernel.hit)
    for (size_t i = 0; i < s->nbar; i++)
      if (s->bar_runs[i] && !s->bar_ordered[i] && !s->o->static_only &&
          !s->stopped)
        redundant(s, i);
  dt_static_proven_barriers(s);
  sort_findings(s->k);
  dt_static_annotate(s);
}

/* ---- kernels in parallel (jobs.h, by family: family.c) -----------------*/

/* Check every kernel that lowered, up to o->jobs at once; each report part
 * lands in its kernel's slot, so the report is the same for every -j. */
static void check_all(kstate *st, size_t n, const aucs_detect_options *o) {
  size_t *tasks = aucs_xcalloc(n + 1, sizeof *tasks), nt = 0;
  for (size_t i = 0; i < n; i++)
    if (st[i].prog)
      tasks[nt++] = i;
  /* the repair's record callback and the query cache live in this process */
  unsigned jobs = o->record ? 1 : o->jobs ? o->jobs : aucs_jobs_default();
  dt_check_families(st, tasks, nt, jobs, o->started);
  free(tasks);
}

/* ---- the module ---------------------------------------------------------*/

static char *default_prefix(LLVMModuleRef m, const aucs_detect_options *o) {
  if (o->command)
    return aucs_xstrdup(o->command);
  size_t len;
  const char *id = o->input ? o->input : LLVMGetModuleIdentifier(m, &len);
  return aucs_xasprintf("aucs detect %s", id && *id ? id : "<input>");
}

/* The kernels to check: o->kernel's, else every one but the library
 * kernels (options.h: sdk), which go to r->library. */
static size_t select_kernels(LLVMValueRef *ks, size_t n,
                             const aucs_detect_options *o, aucs_report *r,
                             LLVMValueRef *sel) {
  size_t k = 0;
  for (size_t i = 0; i < n; i++) {
    if (o->kernel) {
      if (kernel_matches(ks[i], o->kernel))
        sel[k++] = ks[i];
    } else if (o->library_kernels || !aucs_kernel_defined_under(ks[i], o->sdk))
      sel[k++] = ks[i];
    else
      r->library[r->nlibrary++] =
          (aucs_report_library){.name = aucs_xstrdup(fn_name(ks[i])),
                                .demangled = aucs_demangle(fn_name(ks[i])),
                                .file = aucs_kernel_file(ks[i])};
  }
  return k;
}

static int setup(LLVMModuleRef m, LLVMValueRef *ks, size_t n,
                 const aucs_detect_options *o, aucs_report *r, kstate *st,
                 const char *prefix, char **err) {
  LLVMValueRef *sel = aucs_xcalloc(n + 1, sizeof(*sel));
  r->library = aucs_xcalloc(n + 1, sizeof(*r->library));
  size_t nsel = select_kernels(ks, n, o, r, sel);
  (void)m;
  if (!nsel && !r->nlibrary) {
    *err = no_such_kernel(ks, n, o->kernel);
    free(sel);
    return -1;
  }
  r->nkernels = nsel;
  for (size_t i = 0; i < nsel; i++) {
    st[i] = (kstate){.o = o, .prefix = prefix, .k = &r->kernels[i]};
    lower(&st[i], sel[i]);
    aucs_launchplan_of(o, st[i].k->name, &st[i].lp);
  }
  free(sel);
  int rc = bind_args(st, nsel, o, err);
  for (size_t i = 0; i < nsel; i++) /* bind adds the host's bounds */
    st[i].k->launch_from = aucs_xstrdup(st[i].lp.from);
  return rc;
}

int aucs_detect_run(LLVMModuleRef m, LLVMValueRef *ks, size_t n,
                    const aucs_detect_options *opts, aucs_report *r,
                    char **err) {
  static const aucs_detect_options defaults;
  const aucs_detect_options *o = opts ? opts : &defaults;
  size_t len;
  *r = (aucs_report){.version = AUCS_VERSION,
                     .stats = o->stats,
                     .possible = o->possible,
                     .strict = o->strict,
                     .max_findings = aucs_report_max_listed(o->max_findings)};
  r->input = o->input ? o->input : LLVMGetModuleIdentifier(m, &len);
  if (check_launch(o, err))
    return -1;
  r->kernels = aucs_xcalloc(n + 1, sizeof(*r->kernels));
  kstate *st = aucs_xcalloc(n + 1, sizeof(*st));
  char *prefix = default_prefix(m, o);
  int rc = setup(m, ks, n, o, r, st, prefix, err);
  aucs_qcache *cache = o->cache ? o->cache : aucs_qcache_new();
  for (size_t i = 0; !rc && i < r->nkernels; i++)
    st[i].cache = cache;
  if (!rc)
    check_all(st, r->nkernels, o);
  if (cache != o->cache)
    aucs_qcache_free(cache);
  for (size_t i = 0; i < r->nkernels; i++)
    kstate_free(&st[i]);
  free(st);
  free(prefix);
  if (rc)
    aucs_detect_report_free(r);
  return rc;
}

void aucs_detect_report_free(aucs_report *r) {
  for (size_t i = 0; i < r->nkernels; i++)
    aucs_report_kernel_free(&r->kernels[i]);
  free(r->kernels);
  for (size_t i = 0; i < r->nlibrary; i++) {
    free(r->library[i].name);
    free(r->library[i].demangled);
    free(r->library[i].file);
  }
  free(r->library);
  *r = (aucs_report){0};
}

int aucs_detect_exit(const aucs_report *r) {
  size_t checked = 0, failed = 0;
  for (size_t i = 0; i < r->nkernels; i++) {
    const aucs_report_kernel *k = &r->kernels[i];
    for (size_t j = 0; j < k->findings.n; j++)
      if (aucs_finding_counts(&k->findings.v[j], r->strict))
        return 1;
    checked += k->status == AUCS_KERNEL_CHECKED;
    failed += k->status == AUCS_KERNEL_ERROR || k->budget;
  }
  return failed || (!checked && (r->nkernels || !r->nlibrary)) ? 2 : 0;
}
