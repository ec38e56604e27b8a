/*
 * report: clang-style text and JSON reports of the detector's results.
 *
 * Text: a headline at the first access's location (error, or warning for a
 * redundant barrier and the warnings below), then notes: each access (op,
 * thread, block), the barrier interval, the launch, and the reproduce
 * command. Kernels that could not be checked get one line with the reason.
 * A summary line ends the report: the findings that count
 * (aucs_finding_counts, as the exit code), then the warnings apart (of
 * searched inputs or filled data, benign races, redundant barriers with
 * dynamic evidence only). JSON:
 * one object built with jansson (schema in docs/detect.md); per kernel the
 * same split into `findings` and `warnings`. Names are demangled by
 * demangle.h.
 */
#include "aucs/report.h"

#include "aucs/demangle.h"
#include "aucs/srcloc.h"
#include <jansson.h>
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdlib.h>
#include <string.h>

/* ---- objects and headlines ----------------------------------------------*/

static LLVMModuleRef module_of(LLVMValueRef I) {
  if (!I || !LLVMIsAInstruction(I) || !LLVMGetInstructionParent(I))
    return NULL;
  return LLVMGetGlobalParent(
      LLVMGetBasicBlockParent(LLVMGetInstructionParent(I)));
}

/* The type the instruction reads or writes, or NULL. */
static LLVMTypeRef accessed_type(LLVMValueRef I) {
  if (!I)
    return NULL;
  if (LLVMIsALoadInst(I))
    return LLVMTypeOf(I);
  if (LLVMIsAStoreInst(I))
    return LLVMTypeOf(LLVMGetOperand(I, 0));
  if (LLVMIsAAtomicRMWInst(I) || LLVMIsAAtomicCmpXchgInst(I))
    return LLVMTypeOf(LLVMGetOperand(I, 1));
  return NULL;
}

static void index_by_type(aucs_buf *b, LLVMTargetDataRef td, LLVMTypeRef t,
                          uint64_t off) {
  while (LLVMGetTypeKind(t) == LLVMArrayTypeKind) {
    LLVMTypeRef elem = LLVMGetElementType(t);
    uint64_t size = LLVMABISizeOfType(td, elem);
    if (!size)
      break;
    aucs_buf_printf(b, "[%llu]", (unsigned long long)(off / size));
    off %= size;
    t = elem;
  }
  if (off)
    aucs_buf_printf(b, "+%llu", (unsigned long long)off);
}

static void index_by_access(aucs_buf *b, LLVMTargetDataRef td, LLVMValueRef I,
                            uint64_t off) {
  LLVMTypeRef t = accessed_type(I);
  uint64_t size = t && LLVMTypeIsSized(t) ? LLVMABISizeOfType(td, t) : 0;
  if (size && off % size == 0)
    aucs_buf_printf(b, "[%llu]", (unsigned long long)(off / size));
  else
    aucs_buf_printf(b, "+%llu", (unsigned long long)off);
}

/* Where the last "::" outside <...> and (...) of a demangled name ends. */
static const char *last_component(const char *s) {
  const char *last = s;
  int depth = 0;
  for (const char *p = s; *p; p++) {
    depth += (*p == '<' || *p == '(') - (*p == '>' || *p == ')');
    if (!depth && p[0] == ':' && p[1] == ':')
      last = p + 2;
  }
  return last;
}

/* A module global by its source name: a function-local static
 * ("_ZZ...E4smem") by its own name, a namespaced one whole ("cuda::table"). */
static char *object_name(const char *object) {
  if (!object)
    return aucs_xstrdup("memory");
  char *name = aucs_demangle(object);
  if (!name)
    return aucs_xstrdup(object);
  if (!strncmp(object, "_ZZ", 3)) {
    char *own = aucs_xstrdup(last_component(name));
    free(name);
    return own;
  }
  return name;
}

/* An offset before the object's start: "[-1]" in accessed elements when
 * they divide it, else "-6" bytes. */
static void index_before(aucs_buf *b, LLVMModuleRef m, LLVMValueRef I,
                         uint64_t off) {
  uint64_t back = -off;
  LLVMTypeRef t = m ? accessed_type(I) : NULL;
  uint64_t size = t && LLVMTypeIsSized(t)
                      ? LLVMABISizeOfType(LLVMGetModuleDataLayout(m), t)
                      : 0;
  if (size && back % size == 0)
    aucs_buf_printf(b, "[-%llu]", (unsigned long long)(back / size));
  else
    aucs_buf_printf(b, "-%llu", (unsigned long long)back);
}

char *aucs_report_object(const aucs_finding *f) {
  aucs_buf b = {0};
  char *name = object_name(f->object);
  aucs_buf_puts(&b, name);
  free(name);
  LLVMModuleRef m = module_of(f->a.instr);
  if ((int64_t)f->offset < 0) {
    index_before(&b, m, f->a.instr, f->offset);
    return aucs_buf_take(&b);
  }
  if (!m) {
    if (f->offset)
      aucs_buf_printf(&b, "+%llu", (unsigned long long)f->offset);
    return aucs_buf_take(&b);
  }
  LLVMTargetDataRef td = LLVMGetModuleDataLayout(m);
  LLVMValueRef g = f->object ? LLVMGetNamedGlobal(m, f->object) : NULL;
  if (g)
    index_by_type(&b, td, LLVMGlobalGetValueType(g), f->offset);
  else
    index_by_access(&b, td, f->a.instr, f->offset);
  return aucs_buf_take(&b);
}

static char *dim3(aucs_dim3 d) {
  return aucs_xasprintf("(%u,%u,%u)", d.x, d.y, d.z);
}

static char *divergence_headline(const aucs_finding *f) {
  char *blk = dim3(f->a.block), *s;
  if (f->b.instr && LLVMIsACallInst(f->b.instr))
    s = aucs_xasprintf("barrier divergence in block %s: threads wait at "
                       "different barriers",
                       blk);
  else
    s = aucs_xasprintf("barrier divergence in block %s: some threads exited "
                       "while others wait at this barrier",
                       blk);
  free(blk);
  return s;
}

char *aucs_report_headline(const aucs_finding *f) {
  const char *mem = aucs_memspace_name(f->memory);
  char *obj = NULL, *s = NULL;
  switch (f->kind) {
  case AUCS_FINDING_RACE:
  case AUCS_FINDING_INTER_BLOCK_RACE:
  case AUCS_FINDING_OUT_OF_BOUNDS:
    obj = aucs_report_object(f);
    if (f->kind == AUCS_FINDING_RACE)
      s = aucs_xasprintf("%sdata race on '%s' (%s)", f->benign ? "benign " : "",
                         obj, mem);
    else if (f->kind == AUCS_FINDING_INTER_BLOCK_RACE)
      s = aucs_xasprintf("inter-block data race on '%s' (%s)", obj, mem);
    else
      s = aucs_xasprintf("out-of-bounds %s of '%s' (%s)", aucs_op_name(f->a.op),
                         obj, mem);
    free(obj);
    return s;
  case AUCS_FINDING_BARRIER_DIVERGENCE:
    return divergence_headline(f);
  case AUCS_FINDING_REDUNDANT_BARRIER:
    return aucs_xasprintf("redundant barrier: %s",
                          f->message ? f->message : "it orders nothing");
  default:
    return aucs_xasprintf("%s: %s", aucs_finding_kind_name(f->kind),
                          f->message ? f->message : "(no detail)");
  }
}

/* ---- text ---------------------------------------------------------------*/

static void loc_prefix(aucs_buf *out, LLVMValueRef I) {
  if (!I) {
    aucs_buf_puts(out, "aucs: ");
    return;
  }
  char *loc = aucs_srcloc_format(I);
  aucs_buf_printf(out, "%s: ", loc);
  free(loc);
}

static void who(aucs_buf *out, const aucs_access *a) {
  char *t = dim3(a->thread), *b = dim3(a->block);
  aucs_buf_printf(out, "thread %s block %s", t, b);
  free(t);
  free(b);
}

static void access_notes(aucs_buf *out, const aucs_finding *f) {
  loc_prefix(out, f->a.instr);
  aucs_buf_printf(out, "note: %s by ", aucs_op_name(f->a.op));
  who(out, &f->a);
  aucs_buf_puts(out, "\n");
  if (!f->b.instr)
    return;
  loc_prefix(out, f->b.instr);
  aucs_buf_printf(out, "note: conflicts with %s by ", aucs_op_name(f->b.op));
  who(out, &f->b);
  if (f->kind == AUCS_FINDING_INTER_BLOCK_RACE)
    aucs_buf_puts(out, " (no barrier orders two blocks)\n");
  else if (f->kind == AUCS_FINDING_MISSING_FENCE && f->lock)
    aucs_buf_puts(out, " (a lock orders its critical sections only with a "
                       "fence after the acquire and before the release)\n");
  else if (f->kind == AUCS_FINDING_MISSING_FENCE)
    aucs_buf_puts(out, " (an atomic or volatile flag orders them only with "
                       "a fence (__threadfence()) between the data and the "
                       "flag on both sides)\n");
  else if (f->kind == AUCS_FINDING_TEXTURE_INCOHERENT)
    aucs_buf_puts(out, " (the texture cache is not coherent with writes of "
                       "the same launch: the fetch may read stale data)\n");
  else if (f->kind == AUCS_FINDING_SCOPE_RACE)
    aucs_buf_puts(out, " (a block-scoped atomic does not reach another "
                       "block: widen it to device scope)\n");
  else if (f->apart)
    aucs_buf_printf(out,
                    " with no barrier between them that both threads passed "
                    "together (epochs %u-%u, where a release of threads "
                    "waiting at different barriers orders nothing)\n",
                    f->epoch - f->apart, f->epoch);
  else
    aucs_buf_printf(out, " in the same barrier interval (epoch %u)\n",
                    f->epoch);
  if (f->lock) {
    loc_prefix(out, f->b.instr);
    aucs_buf_printf(out, "note: %s\n", f->lock);
  }
}

static void divergence_notes(aucs_buf *out, const aucs_finding *f) {
  loc_prefix(out, f->a.instr);
  aucs_buf_puts(out, "note: ");
  who(out, &f->a);
  aucs_buf_printf(out, " waits here (epoch %u)\n", f->epoch);
  loc_prefix(out, f->b.instr);
  aucs_buf_puts(out, "note: while ");
  who(out, &f->b);
  aucs_buf_puts(out, f->b.instr && LLVMIsACallInst(f->b.instr)
                         ? " waits at this barrier\n"
                         : " has exited\n");
}

/* A finding no run made (a barrier the static checker alone proved
 * redundant) has no launch: its dimensions are 0. */
static int ran(aucs_launch l) { return l.block.x != 0; }

/* "note: launch (host k.cu:37 <<<8192, 128>>>): grid ... block ... n=5":
 * the run's launch and arguments, and where the launch came from. */
static void launch_note(aucs_buf *out, aucs_launch l, const char *args,
                        const char *from) {
  if (!ran(l))
    return;
  char *g = dim3(l.grid), *b = dim3(l.block);
  aucs_buf_printf(out, "note: launch%s%s%s: grid %s block %s%s%s\n",
                  from ? " (" : "", from ? from : "", from ? ")" : "", g, b,
                  args && *args ? " " : "", args ? args : "");
  free(g);
  free(b);
}

/* What a finding is, in "<what> only for ...". */
static const char *what_of(const aucs_finding *f) {
  switch (f->kind) {
  case AUCS_FINDING_BARRIER_DIVERGENCE:
    return "barrier divergence";
  case AUCS_FINDING_OUT_OF_BOUNDS:
    return "out-of-bounds access";
  default:
    return "race";
  }
}

/* "n=3 stride=0" as "n=3, stride=0". */
static void listed(aucs_buf *out, const char *inputs) {
  for (const char *c = inputs; *c; c++)
    aucs_buf_puts(out, *c == ' ' ? ", " : (char[]){*c, 0});
}

/* A warning of searched inputs: which inputs it needs. */
static void searched_note(aucs_buf *out, const aucs_finding *f) {
  if (!f->searched)
    return;
  aucs_buf_printf(out, "note: %s only for ", what_of(f));
  listed(out, f->searched);
  aucs_buf_puts(out, " (searched); with ");
  listed(out, f->natural);
  aucs_buf_puts(out, " (natural) it does not occur (--strict counts it)\n");
}

/* A warning computed from filled buffer contents: which, and how to decide. */
static void data_note(aucs_buf *out, const aucs_finding *f) {
  if (!f->data_dependent)
    return;
  aucs_buf_puts(out, "note: the addresses, or the branches that lead to the "
                     "accesses, were computed from the contents of ");
  const char *c = f->data_dependent, *at = f->data_loads ? f->data_loads : "";
  for (int first = 1; *c; first = 0) {
    size_t n = strcspn(c, " "), m = strcspn(at, " ");
    aucs_buf_printf(out, "%s'%.*s'", first ? "" : ", ", (int)n, c);
    if (m)
      aucs_buf_printf(out, " (read at %.*s)", (int)m, at);
    c += n + (c[n] == ' ');
    at += m + (at[m] == ' ');
  }
  aucs_buf_puts(out, " that aucs filled; give the contents with --buffer-data "
                     "NAME=FILE to decide (--strict counts it)\n");
}

/* The assumptions about functions the module only declares, one note
 * each, at the function's first call. */
static void assumes_notes(aucs_buf *out, const aucs_report_kernel *k) {
  for (size_t i = 0; i < k->nassumes; i++)
    aucs_buf_printf(out, "%s%snote: %s\n",
                    k->assumes_at[i] ? k->assumes_at[i] : "",
                    k->assumes_at[i] ? ": " : "", k->assumes[i]);
}

/* A redundant barrier without a proof is a warning; a benign race says
 * why it is one. */
static void warning_note(aucs_buf *out, const aucs_finding *f) {
  if (f->kind == AUCS_FINDING_REDUNDANT_BARRIER && !f->proven)
    aucs_buf_puts(out, "note: not proven redundant by the static checker: a "
                       "warning, kept by fix (--strict counts it)\n");
  if (f->benign)
    aucs_buf_printf(out, "note: benign: %s (--strict counts it)\n", f->benign);
}

static void text_finding(aucs_buf *out, const aucs_finding *f,
                         const aucs_report_kernel *k, const char *reproduce,
                         const char *from) {
  char *head = aucs_report_headline(f);
  loc_prefix(out, f->a.instr);
  aucs_buf_printf(out, "%s: %s\n", aucs_severity_name(aucs_finding_severity(f)),
                  head);
  free(head);
  searched_note(out, f);
  data_note(out, f);
  warning_note(out, f);
  if (f->kind == AUCS_FINDING_BARRIER_DIVERGENCE)
    divergence_notes(out, f);
  else if (f->kind != AUCS_FINDING_REDUNDANT_BARRIER &&
           f->kind != AUCS_FINDING_UNSUPPORTED)
    access_notes(out, f);
  launch_note(out, f->launch, f->shown_args ? f->shown_args : f->args, from);
  assumes_notes(out, k);
  if (reproduce)
    aucs_buf_printf(out, "note: reproduce with: %s\n", reproduce);
}

static void witness_note(aucs_buf *out, const char *what,
                         const aucs_report_witness *w) {
  char *t0 = dim3(w->thread[0]), *t1 = dim3(w->thread[1]);
  char *b0 = dim3(w->block[0]), *b1 = dim3(w->block[1]);
  char *g = dim3(w->launch.grid), *b = dim3(w->launch.block);
  const char *args = w->shown_args ? w->shown_args : w->args;
  aucs_buf_printf(out,
                  "note: static: %s: threads %s block %s and %s block %s; "
                  "grid %s block %s%s%s\n",
                  what, t0, b0, t1, b1, g, b, *args ? " " : "", args);
  free(g);
  free(b);
  free(t0);
  free(t1);
  free(b0);
  free(b1);
}

static void static_notes(aucs_buf *out, const aucs_report_kernel *k,
                         size_t i) {
  const aucs_report_static *st = &k->st;
  if (!st->ran)
    return;
  if (st->witness && st->witness[i])
    witness_note(out, "confirmed: the solver's witness replays this race",
                 st->witness[i]);
  if (k->findings.v[i].proven &&
      k->findings.v[i].kind == AUCS_FINDING_REDUNDANT_BARRIER)
    aucs_buf_puts(out, "note: static: proven redundant: every pair of "
                       "accesses it separates is race-free (Z3)\n");
}

/* Possible races (SAT pairs no run confirmed) are listed one by one only on
 * request: on code the solver cannot follow (locals kept in memory at -O0,
 * pointers loaded from memory) there can be dozens. */
static void text_possible(aucs_buf *out, const aucs_report_kernel *k,
                          size_t list) {
  size_t n = k->st.possible.n;
  if (n && !list)
    aucs_buf_printf(out,
                    "aucs: static: kernel '%s': %zu possible race%s the "
                    "interpreter did not confirm (list them with "
                    "--possible)\n",
                    k->demangled, n, n == 1 ? "" : "s");
  for (size_t i = 0; i < list && i < n; i++) {
    const aucs_finding *f = &k->st.possible.v[i];
    char *head = aucs_report_headline(f);
    loc_prefix(out, f->a.instr);
    aucs_buf_printf(out, "warning: possible %s: %s\n", head, f->message);
    free(head);
    access_notes(out, f);
    witness_note(out, "witness", &k->st.possible_witness[i]);
  }
}

static void text_proof(aucs_buf *out, const aucs_report_kernel *k) {
  const aucs_report_static *st = &k->st;
  const char *bounds = st->fixed ? "for the given launch and arguments"
                                 : "for all launch configs within the "
                                   "stated bounds";
  if (!st->ran)
    return;
  const char *aliasing = st->may_alias
                             ? "even with pointer arguments overlapping"
                             : "distinct pointer arguments not "
                               "overlapping";
  if (!strcmp(st->proof, "race-free"))
    aucs_buf_printf(out,
                    "aucs: static: kernel '%s': proved race-free %s, %s "
                    "(%zu pair%s, all unsat)",
                    k->demangled, bounds, aliasing, st->pairs,
                    st->pairs == 1 ? "" : "s");
  else
    aucs_buf_printf(out,
                    "aucs: static: kernel '%s': %s: %zu of %zu pairs proven "
                    "race-free, %zu sat, %zu unknown",
                    k->demangled,
                    !strcmp(st->proof, "partial") ? "partial proof" : "no proof",
                    st->unsat, st->pairs, st->sat, st->unknown);
  for (size_t i = 0; i < st->nassumptions; i++)
    aucs_buf_printf(out, "%s %s `%s`", i ? " and" : ", assuming",
                    st->assumptions[i].location, st->assumptions[i].condition);
  aucs_buf_puts(out, "\n");
}

static const char *plural(size_t n) { return n == 1 ? "" : "s"; }

size_t aucs_report_max_listed(uint64_t option) {
  if (!option)
    return AUCS_REPORT_MAX_FINDINGS;
  return option == UINT64_MAX ? 0 : (size_t)option;
}

size_t aucs_report_listed(const aucs_report *r, size_t n) {
  return r->max_findings && n > r->max_findings ? r->max_findings : n;
}

static void unlisted_note(aucs_buf *out, const aucs_report_kernel *k, size_t n,
                          const char *what) {
  if (n)
    aucs_buf_printf(out,
                    "aucs: note: kernel '%s': %zu more %s%s of this kernel "
                    "not listed; --max-findings to list them\n",
                    k->demangled, n, what, plural(n));
}

/* The share of pairs decided: proven race-free, or racing in a run (SAT,
 * or unknown to the solver: shown). */
static void pairs_stats(aucs_buf *out, const aucs_report_kernel *k) {
  const aucs_report_static *st = &k->st;
  size_t decided = st->unsat + st->confirmed;
  aucs_buf_printf(
      out,
      "aucs: stats: kernel '%s': pairs: %zu of %zu decided (%.0f%%): "
      "%zu proven, %zu confirmed; %zu possible, %zu unknown\n",
      k->demangled, decided, st->pairs,
      st->pairs ? 100.0 * (double)decided / (double)st->pairs : 100.0,
      st->unsat, st->confirmed, st->sat - (st->confirmed - st->shown),
      st->unknown - st->shown);
}

static void text_kernel(aucs_buf *out, const aucs_report_kernel *k,
                        const aucs_report *r) {
  size_t listed = aucs_report_listed(r, k->findings.n);
  for (size_t i = 0; i < listed; i++) {
    text_finding(out, &k->findings.v[i], k,
                 k->reproduce ? k->reproduce[i] : NULL, k->launch_from);
    static_notes(out, k, i);
  }
  unlisted_note(out, k, k->findings.n - listed, "finding");
  size_t np = k->st.possible.n, lp = aucs_report_listed(r, np);
  text_possible(out, k, r->possible ? lp : 0);
  if (r->possible)
    unlisted_note(out, k, np - lp, "possible race");
  text_proof(out, k);
  if (k->status != AUCS_KERNEL_CHECKED)
    aucs_buf_printf(out, "aucs: %s: %s\n",
                    k->status == AUCS_KERNEL_ERROR ? "error" : "warning",
                    k->reason ? k->reason : "?");
  else if (k->reason) /* checked, but some runs failed */
    aucs_buf_printf(out, "aucs: note: %s\n", k->reason);
  if (k->cooperative)
    aucs_buf_printf(out,
                    "aucs: note: kernel '%s' syncs its whole grid (cooperative "
                    "groups' grid.sync()): it must be launched cooperatively "
                    "(cudaLaunchCooperativeKernel, every block resident at "
                    "once)\n",
                    k->demangled);
  if (k->discarded && k->runs)
    aucs_buf_printf(out,
                    "aucs: note: kernel '%s': %llu input%s violated the "
                    "kernel's assumptions (%s) and %s discarded\n",
                    k->demangled, (unsigned long long)k->discarded,
                    plural(k->discarded), k->assumption,
                    k->discarded == 1 ? "was" : "were");
  if (k->solved && k->runs)
    aucs_buf_printf(out,
                    "aucs: note: kernel '%s': %llu input%s solved from the "
                    "kernel's preconditions seeded the search\n",
                    k->demangled, (unsigned long long)k->solved,
                    plural(k->solved));
  if (r->stats)
    aucs_buf_printf(out,
                    "aucs: stats: kernel '%s': %llu runs, %llu thread "
                    "instructions, %.3f s\n",
                    k->demangled, (unsigned long long)k->runs,
                    (unsigned long long)k->thread_instructions, k->seconds);
  if (k->search_budget)
    aucs_buf_printf(out,
                    "aucs: note: kernel '%s': the input search stopped at "
                    "its time budget after %llu runs (--search-budget)\n",
                    k->demangled, (unsigned long long)k->runs);
  if (r->stats && k->search_end)
    aucs_buf_printf(
        out, "aucs: stats: kernel '%s': search: %s, %llu runs saved\n",
        k->demangled, k->search_end, (unsigned long long)k->runs_saved);
  if (r->stats && k->st.ran)
    pairs_stats(out, k);
  if (r->stats && k->st.ran)
    aucs_buf_printf(out,
                    "aucs: stats: kernel '%s': static: %llu queries (%llu "
                    "sat, %llu unsat, %llu unknown), %.3f s in the solver "
                    "(%llu units); %llu decided cheaply, %llu cached\n",
                    k->demangled, (unsigned long long)k->st.queries,
                    (unsigned long long)k->st.q_sat,
                    (unsigned long long)k->st.q_unsat,
                    (unsigned long long)k->st.q_unknown, k->st.seconds,
                    (unsigned long long)k->st.units,
                    (unsigned long long)k->st.q_cheap,
                    (unsigned long long)k->st.q_cached);
}

/* " (1 error, 2 warnings)" when, with --strict, a warning counts that
 * would not without it. */
static void severities(aucs_buf *out, const aucs_report *r) {
  size_t n[2] = {0}, strict_only = 0;
  for (size_t i = 0; i < r->nkernels; i++)
    for (size_t j = 0; j < r->kernels[i].findings.n; j++) {
      const aucs_finding *f = &r->kernels[i].findings.v[j];
      if (!aucs_finding_counts(f, r->strict))
        continue;
      n[aucs_finding_severity(f)]++;
      strict_only += !aucs_finding_counts(f, 0);
    }
  if (strict_only)
    aucs_buf_printf(out, " (%zu error%s, %zu warning%s)", n[0], plural(n[0]),
                    n[1], plural(n[1]));
}

/* "; 2 warnings (...)": the findings that do not count, apart, with what
 * they are: of searched inputs or filled data, benign races, redundant
 * barriers without a proof. */
static void uncounted(aucs_buf *out, const aucs_report *r, size_t nw) {
  static const char *const what[] = {
      "found only with searched inputs or filled data", "benign races",
      "redundant barriers with dynamic evidence only"};
  int seen[3] = {0};
  if (!nw)
    return;
  for (size_t i = 0; i < r->nkernels; i++)
    for (size_t j = 0; j < r->kernels[i].findings.n; j++) {
      const aucs_finding *f = &r->kernels[i].findings.v[j];
      if (aucs_finding_counts(f, r->strict))
        continue;
      seen[f->kind == AUCS_FINDING_REDUNDANT_BARRIER ? 2
           : f->benign                               ? 1
                                                     : 0] = 1;
    }
  aucs_buf_printf(out, "; %zu warning%s (", nw, plural(nw));
  for (int k = 0, first = 1; k < 3; k++)
    if (seen[k]) {
      aucs_buf_printf(out, "%s%s", first ? "" : ", ", what[k]);
      first = 0;
    }
  aucs_buf_puts(out, "; --strict counts them)");
}

void aucs_report_text(const aucs_report *r, aucs_buf *out) {
  size_t nf = 0, nw = 0, count[3] = {0};
  for (size_t i = 0; i < r->nkernels; i++) {
    const aucs_report_kernel *k = &r->kernels[i];
    text_kernel(out, k, r);
    for (size_t j = 0; j < k->findings.n; j++)
      aucs_finding_counts(&k->findings.v[j], r->strict) ? nf++ : nw++;
    count[k->status]++;
  }
  if (r->nlibrary) {
    const char *f = r->library[0].file;
    aucs_buf_printf(out,
                    "aucs: note: %zu library kernel%s not checked (defined "
                    "in the CUDA SDK's headers%s%s, launched by the "
                    "library; --library-kernels checks them)\n",
                    r->nlibrary, plural(r->nlibrary), f ? ", e.g. " : "",
                    f ? f : "");
  }
  aucs_buf_printf(out, "aucs: %zu finding%s", nf, plural(nf));
  severities(out, r);
  aucs_buf_printf(out, " in %zu kernel%s (%zu checked", r->nkernels,
                  plural(r->nkernels), count[0]);
  if (count[AUCS_KERNEL_UNSUPPORTED])
    aucs_buf_printf(out, ", %zu unsupported", count[AUCS_KERNEL_UNSUPPORTED]);
  if (count[AUCS_KERNEL_ERROR])
    aucs_buf_printf(out, ", %zu with errors", count[AUCS_KERNEL_ERROR]);
  aucs_buf_puts(out, ")");
  uncounted(out, r, nw);
  aucs_buf_puts(out, "\n");
}

/* ---- JSON ---------------------------------------------------------------*/

static json_t *json_str(const char *s) {
  return s ? json_string(s) : json_null();
}

static json_t *json_dim3(aucs_dim3 d) {
  return json_pack("[III]", (json_int_t)d.x, (json_int_t)d.y, (json_int_t)d.z);
}

/* "n=100 x=0.5" as {"n": 100, "x": 0.5}. */
static json_t *json_args(const char *args) {
  json_t *o = json_object();
  char *copy = aucs_xstrdup(args ? args : ""), *save = NULL;
  for (char *w = strtok_r(copy, " ", &save); w;
       w = strtok_r(NULL, " ", &save)) {
    char *eq = strchr(w, '='), *end;
    if (!eq)
      continue;
    *eq = '\0';
    long long i = strtoll(eq + 1, &end, 10);
    if (!*end && end != eq + 1) {
      json_object_set_new(o, w, json_integer(i));
      continue;
    }
    double d = strtod(eq + 1, &end);
    json_t *v = !*end ? json_real(d) : NULL; /* NULL for inf and nan */
    json_object_set_new(o, w, v ? v : json_string(eq + 1));
  }
  free(copy);
  return o;
}

static json_t *json_launch(aucs_launch l, const char *args) {
  if (!ran(l))
    return json_null();
  return json_pack("{s:o,s:o,s:o}", "grid", json_dim3(l.grid), "block",
                   json_dim3(l.block), "args", json_args(args));
}

/* The instruction as llvm-dis prints it, without leading blanks and
 * without its !dbg attachment. */
static json_t *json_instr(LLVMValueRef I) {
  char *text = LLVMPrintValueToString(I), *s = text;
  while (*s == ' ')
    s++;
  char *dbg = strstr(s, ", !dbg ");
  if (dbg)
    *dbg = '\0';
  json_t *j = json_string(s);
  LLVMDisposeMessage(text);
  return j;
}

static json_t *json_access(const aucs_access *a) {
  aucs_srcloc loc = aucs_srcloc_of(a->instr);
  char *file =
      loc.file ? aucs_xasprintf("%.*s", (int)loc.file_len, loc.file) : NULL;
  char *where = aucs_srcloc_format(a->instr);
  json_t *j = json_pack(
      "{s:o,s:o,s:o,s:s,s:o,s:o,s:o,s:s}", "file", json_str(file), "line",
      loc.line ? json_integer(loc.line) : json_null(), "column",
      loc.col ? json_integer(loc.col) : json_null(), "location", where,
      "instruction", json_instr(a->instr), "thread", json_dim3(a->thread),
      "block", json_dim3(a->block), "op", aucs_op_name(a->op));
  free(file);
  free(where);
  return j;
}

static json_t *json_finding(const aucs_finding *f, const char *reproduce) {
  char *head = aucs_report_headline(f), *obj = aucs_report_object(f);
  json_t *acc = json_array();
  if (f->a.instr)
    json_array_append_new(acc, json_access(&f->a));
  if (f->b.instr)
    json_array_append_new(acc, json_access(&f->b));
  char *base = f->object ? object_name(f->object) : NULL;
  json_t *j = json_pack(
      "{s:s,s:s,s:o,s:o,s:o,s:I,s:s,s:o,s:I,s:o,s:o}", "kind",
      aucs_finding_kind_name(f->kind), "message", head, "detail",
      json_str(f->message), "memory",
      f->memory == AUCS_MEM_NONE ? json_null()
                                 : json_string(aucs_memspace_name(f->memory)),
      "object", json_str(base), "offset", (json_int_t)f->offset, "element", obj,
      "accesses", acc, "epoch", (json_int_t)f->epoch, "launch",
      json_launch(f->launch, f->args), "reproduce", json_str(reproduce));
  if (f->apart) /* a race across releases of threads at different barriers */
    json_object_set_new(j, "epoch_from",
                        json_integer((json_int_t)(f->epoch - f->apart)));
  if (f->lock)
    json_object_set_new(j, "lock", json_string(f->lock));
  free(head);
  free(obj);
  free(base);
  return j;
}

static const char *status_name(aucs_kernel_status s) {
  static const char *const names[] = {"checked", "unsupported", "error"};
  return names[s];
}

static json_t *json_witness(const aucs_report_witness *w) {
  if (!w)
    return json_null();
  return json_pack("{s:[o,o],s:[o,o],s:o}", "threads", json_dim3(w->thread[0]),
                   json_dim3(w->thread[1]), "blocks", json_dim3(w->block[0]),
                   json_dim3(w->block[1]), "launch",
                   json_launch(w->launch, w->args));
}

static int is_race(const aucs_finding *f) {
  return f->kind == AUCS_FINDING_RACE ||
         f->kind == AUCS_FINDING_INTER_BLOCK_RACE;
}

/* The static checker's fields of finding i (possible: of possible race i). */
static void json_static_fields(json_t *j, const aucs_report_kernel *k,
                               size_t i, int possible) {
  const aucs_report_static *st = &k->st;
  const aucs_finding *f = possible ? &st->possible.v[i] : &k->findings.v[i];
  json_object_set_new(j, "confidence",
                      !is_race(f)  ? json_null()
                      : possible   ? json_string("possible")
                                   : json_string("confirmed"));
  const aucs_report_witness *w =
      possible ? &st->possible_witness[i] : st->witness ? st->witness[i] : NULL;
  json_object_set_new(j, "witness", json_witness(w));
  if (f->kind == AUCS_FINDING_REDUNDANT_BARRIER)
    json_object_set_new(j, "redundancy",
                        json_string(f->proven ? "proven" : "dynamic evidence"));
}

static json_t *json_pairs(const aucs_report_static *st) {
  if (!st->ran)
    return json_null();
  return json_pack("{s:I,s:I,s:I,s:I,s:I,s:I}", "total", (json_int_t)st->pairs,
                   "unsat", (json_int_t)st->unsat, "sat", (json_int_t)st->sat,
                   "unknown", (json_int_t)st->unknown, "confirmed",
                   (json_int_t)st->confirmed, "decided",
                   (json_int_t)(st->unsat + st->confirmed));
}

static json_t *json_assumptions(const aucs_report_static *st) {
  json_t *a = json_array();
  for (size_t i = 0; i < st->nassumptions; i++)
    json_array_append_new(
        a, json_pack("{s:s,s:s}", "location", st->assumptions[i].location,
                     "condition", st->assumptions[i].condition));
  return a;
}

/* "a b" as ["a", "b"]; NULL as null. */
static json_t *json_words(const char *s) {
  if (!s)
    return json_null();
  json_t *a = json_array();
  while (*s) {
    size_t n = strcspn(s, " ");
    if (n)
      json_array_append_new(a, json_stringn(s, n));
    s += n + (s[n] == ' ');
  }
  return a;
}

/* The notes of k's functions the module only declares. */
static json_t *json_assumes(const aucs_report_kernel *k) {
  json_t *a = json_array();
  for (size_t i = 0; i < k->nassumes; i++)
    json_array_append_new(a, json_string(k->assumes[i]));
  return a;
}

/* The listed findings of k (the first nf) that count
 * (aucs_finding_counts), or those that do not: one shape for the
 * "findings" and "warnings" arrays. */
static json_t *json_findings(const aucs_report_kernel *k, int strict,
                             int counted, size_t nf) {
  json_t *fs = json_array();
  for (size_t i = 0; i < nf; i++) {
    const aucs_finding *x = &k->findings.v[i];
    if (aucs_finding_counts(x, strict) != counted)
      continue;
    json_t *f = json_finding(x, k->reproduce ? k->reproduce[i] : NULL);
    json_static_fields(f, k, i, 0);
    json_object_set_new(f, "launch_from", json_str(k->launch_from));
    json_object_set_new(f, "assumes", json_assumes(k));
    json_object_set_new(
        f, "severity",
        json_string(aucs_severity_name(aucs_finding_severity(x))));
    json_object_set_new(f, "searched",
                        x->searched ? json_args(x->searched) : json_null());
    json_object_set_new(f, "natural",
                        x->natural ? json_args(x->natural) : json_null());
    json_object_set_new(f, "data_dependent", json_words(x->data_dependent));
    json_object_set_new(f, "data_loads", json_words(x->data_loads));
    json_object_set_new(f, "benign", json_str(x->benign));
    json_array_append_new(fs, f);
  }
  return fs;
}

/* How many of k's findings that count (or do not) are past the first n. */
static size_t not_listed(const aucs_report_kernel *k, int strict, int counted,
                         size_t n) {
  size_t left = 0;
  for (size_t i = n; i < k->findings.n; i++)
    left += aucs_finding_counts(&k->findings.v[i], strict) == counted;
  return left;
}

static json_t *json_kernel(const aucs_report_kernel *k, const aucs_report *r) {
  int stats = r->stats, strict = r->strict;
  size_t nf = aucs_report_listed(r, k->findings.n);
  size_t np = aucs_report_listed(r, k->st.possible.n);
  json_t *ps = json_array();
  for (size_t i = 0; i < np; i++) {
    json_t *f = json_finding(&k->st.possible.v[i], NULL);
    json_static_fields(f, k, i, 1);
    json_array_append_new(ps, f);
  }
  json_t *j = json_pack("{s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:o}", "name", k->name,
                        "demangled", k->demangled, "status",
                        status_name(k->status), "reason", json_str(k->reason),
                        "launch", json_launch(k->launch, k->args), "findings",
                        json_findings(k, strict, 1, nf), "warnings",
                        json_findings(k, strict, 0, nf), "possible", ps);
  json_object_set_new(
      j, "findings_not_listed",
      json_integer((json_int_t)not_listed(k, strict, 1, nf)));
  json_object_set_new(
      j, "warnings_not_listed",
      json_integer((json_int_t)not_listed(k, strict, 0, nf)));
  json_object_set_new(j, "possible_not_listed",
                      json_integer((json_int_t)(k->st.possible.n - np)));
  json_object_set_new(j, "proof",
                      json_string(k->st.ran ? k->st.proof : "none"));
  json_object_set_new(j, "pairs", json_pairs(&k->st));
  json_object_set_new(j, "assumptions", json_assumptions(&k->st));
  json_object_set_new(j, "discarded", json_integer((json_int_t)k->discarded));
  json_object_set_new(j, "solved", json_integer((json_int_t)k->solved));
  json_object_set_new(j, "cooperative_launch", json_boolean(k->cooperative));
  json_object_set_new(j, "launch_from", json_str(k->launch_from));
  json_object_set_new(j, "assumption", json_str(k->assumption));
  json_object_set_new(j, "budget",
                      k->budget ? json_pack("{s:s,s:s}", "reached", k->budget,
                                            "checked", k->budget_checked)
                                : json_null());
  json_object_set_new(j, "aliasing",
                      k->st.ran ? json_string(k->st.may_alias ? "any"
                                                               : "distinct")
                                : json_null());
  if (stats)
    json_object_set_new(j, "stats",
                        json_pack("{s:I,s:I,s:f}", "thread_instructions",
                                  (json_int_t)k->thread_instructions, "runs",
                                  (json_int_t)k->runs, "seconds", k->seconds));
  if (stats && k->search_end)
    json_object_set_new(json_object_get(j, "stats"), "search",
                        json_pack("{s:s,s:I}", "end", k->search_end,
                                  "runs_saved", (json_int_t)k->runs_saved));
  if (stats && k->st.ran)
    json_object_set_new(
        json_object_get(j, "stats"), "static",
        json_pack("{s:I,s:I,s:I,s:I,s:f,s:I,s:I,s:I}", "queries",
                  (json_int_t)k->st.queries, "sat", (json_int_t)k->st.q_sat,
                  "unsat", (json_int_t)k->st.q_unsat, "unknown",
                  (json_int_t)k->st.q_unknown, "solver_seconds",
                  k->st.seconds, "cheap", (json_int_t)k->st.q_cheap,
                  "cached", (json_int_t)k->st.q_cached, "solver_units",
                  (json_int_t)k->st.units));
  return j;
}

json_t *aucs_report_json_doc(const aucs_report *r) {
  json_t *ks = json_array();
  for (size_t i = 0; i < r->nkernels; i++)
    json_array_append_new(ks, json_kernel(&r->kernels[i], r));
  json_t *lib = json_array();
  for (size_t i = 0; i < r->nlibrary; i++)
    json_array_append_new(
        lib, json_pack("{s:s,s:o,s:o}", "name", r->library[i].name,
                       "demangled", json_str(r->library[i].demangled),
                       "file", json_str(r->library[i].file)));
  json_t *root = json_pack("{s:s,s:s,s:o,s:o,s:o}", "tool", "aucs", "version",
                           r->version ? r->version : "?", "input",
                           json_str(r->input), "kernels", ks,
                           "library_kernels", lib);
  return root;
}

void aucs_report_json(const aucs_report *r, aucs_buf *out) {
  aucs_report_json_put(out, aucs_report_json_doc(r));
}

void aucs_report_json_put(aucs_buf *out, json_t *doc) {
  AUCS_ASSERT(doc);
  char *text = json_dumps(doc, JSON_INDENT(2));
  AUCS_ASSERT(text);
  aucs_buf_printf(out, "%s\n", text);
  free(text);
  json_decref(doc);
}

static void static_free(aucs_report_kernel *k) {
  aucs_report_static *st = &k->st;
  for (size_t i = 0; st->witness && i < k->findings.n; i++)
    if (st->witness[i]) {
      free(st->witness[i]->args);
      free(st->witness[i]->shown_args);
      free(st->witness[i]);
    }
  for (size_t i = 0; i < st->possible.n; i++) {
    free(st->possible_witness[i].args);
    free(st->possible_witness[i].shown_args);
  }
  free(st->witness);
  free(st->possible_witness);
  aucs_findings_free(&st->possible);
  for (size_t i = 0; i < st->nassumptions; i++) {
    free(st->assumptions[i].location);
    free(st->assumptions[i].condition);
  }
  free(st->assumptions);
}

/* Free finding i of k and what is kept per finding; the caller closes
 * the gap. */
static void free_finding_at(aucs_report_kernel *k, size_t i) {
  aucs_report_static *st = &k->st;
  aucs_finding *f = &k->findings.v[i];
  free(f->object);
  free(f->args);
  free(f->shown_args);
  free(f->message);
  free(f->searched);
  free(f->natural);
  free(f->data_dependent);
  free(f->data_loads);
  free(f->benign);
  free(f->lock);
  if (k->reproduce)
    free(k->reproduce[i]);
  if (st->witness && st->witness[i]) {
    free(st->witness[i]->args);
    free(st->witness[i]->shown_args);
    free(st->witness[i]);
  }
}

/* One pass that keeps the findings that count, in order: dropping them
 * one at a time moved the tail each time, quadratic on a kernel with
 * tens of thousands of findings (seconds past fix's budget). */
static void keep_counted(aucs_report_kernel *k, int strict, int unproven) {
  aucs_report_static *st = &k->st;
  size_t n = 0;
  for (size_t j = 0; j < k->findings.n; j++) {
    const aucs_finding *f = &k->findings.v[j];
    if (!aucs_finding_counts(f, strict) &&
        !(unproven && f->kind == AUCS_FINDING_REDUNDANT_BARRIER)) {
      free_finding_at(k, j);
      continue;
    }
    k->findings.v[n] = k->findings.v[j];
    if (k->reproduce)
      k->reproduce[n] = k->reproduce[j];
    if (st->witness)
      st->witness[n] = st->witness[j];
    n++;
  }
  k->findings.n = n;
}

void aucs_report_keep_counted(aucs_report *r, int unproven) {
  for (size_t i = 0; i < r->nkernels; i++)
    keep_counted(&r->kernels[i], r->strict, unproven);
}

void aucs_report_kernel_free(aucs_report_kernel *k) {
  static_free(k);
  for (size_t i = 0; k->reproduce && i < k->findings.n; i++)
    free(k->reproduce[i]);
  free(k->reproduce);
  aucs_findings_free(&k->findings);
  free(k->name);
  free(k->demangled);
  free(k->reason);
  free(k->budget);
  free(k->budget_checked);
  free(k->assumption);
  free(k->args);
  free(k->launch_from);
  for (size_t i = 0; i < k->nassumes; i++) {
    free(k->assumes[i]);
    free(k->assumes_at[i]);
  }
  free(k->assumes);
  free(k->assumes_at);
  *k = (aucs_report_kernel){0};
}
