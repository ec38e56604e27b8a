/*
 * sarif: SARIF 2.1.0 logs of the detector's results (see sarif.h).
 *
 * Steps: each finding becomes a result (rule = its kind, location = its
 * first access, relatedLocations = both accesses, properties = reproduce
 * command and the finding's facts); each kernel that was not checked
 * becomes a notification; aucs_sarif_end wraps them into
 * {version, $schema, runs: [{tool, invocations, originalUriBaseIds,
 * results}]} with the rules and notification descriptors in tool.driver.
 *
 * Limitation: columns are clang's (bytes), and SARIF's default column kind
 * is UTF-16 code units: they differ on lines with non-ASCII text before the
 * access.
 */
#include "aucs/sarif.h"

#include "aucs/srcloc.h"
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char schema_uri[] =
    "https://json.schemastore.org/sarif-2.1.0.json";
static const char srcroot[] = "%SRCROOT%";

/* Short descriptions of the rules, by finding kind (finding.def). */
static const char *const rule_text[AUCS_FINDING_NKINDS] = {
    [AUCS_FINDING_RACE] = "Data race in a thread block: two threads access "
                          "the same memory in one barrier interval, one of "
                          "them writes, not both atomically",
    [AUCS_FINDING_INTER_BLOCK_RACE] = "Data race between thread blocks on "
                                      "global memory: no barrier orders "
                                      "two blocks",
    [AUCS_FINDING_BARRIER_DIVERGENCE] = "Barrier divergence: threads of one "
                                        "block wait at different barriers, "
                                        "or some exited while others wait",
    [AUCS_FINDING_REDUNDANT_BARRIER] = "Redundant barrier: it orders no "
                                       "conflicting pair of accesses",
    [AUCS_FINDING_OUT_OF_BOUNDS] = "Out-of-bounds access: outside the "
                                   "memory object it points into",
    [AUCS_FINDING_UNSUPPORTED] = "Kernel not checked (a notification, "
                                 "never a result: the rule keeps each "
                                 "ruleIndex equal to its kind)",
    [AUCS_FINDING_SCOPE_RACE] = "Scope race: atomics of different blocks on "
                                "one location, one of them block-scoped",
    [AUCS_FINDING_MISSING_FENCE] = "Missing fence: a flag or a lock would "
                                   "order two accesses with a "
                                   "__threadfence() on both sides",
    [AUCS_FINDING_TEXTURE_INCOHERENT] = "Stale texture read: the kernel "
                                        "writes the buffer behind a texture "
                                        "it fetches in the same launch",
};

/* Notification descriptors: why an input or kernel was not checked, or
 * why some of its findings are not among the results (--max-findings). */
static const char *const note_ids[] = {"unsupported", "kernel-error",
                                       "input-error", "findings-not-listed"};
static const char *const note_text[] = {
    "Kernel not checked: the interpreter cannot run one of its instructions",
    "Kernel not checked: every run exceeded a budget or trapped",
    "Input not checked: it could not be loaded or compiled",
    "More findings than --max-findings: the rest are counted, not listed"};
enum { NOTE_UNSUPPORTED, NOTE_KERNEL_ERROR, NOTE_INPUT_ERROR, NOTE_NOT_LISTED };

/* ---- locations ----------------------------------------------------------*/

static void percent_encode(aucs_buf *b, const char *s, size_t n) {
  static const char keep[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTU"
                             "VWXYZ0123456789-._~/";
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c && strchr(keep, c))
      aucs_buf_printf(b, "%c", c);
    else
      aucs_buf_printf(b, "%%%02X", c);
  }
}

/* {"uri", "uriBaseId"} of file name s[0..n): relative to the working
 * directory when it can be, else a file:// URI. */
static json_t *artifact(const char *s, size_t n) {
  char cwd[4096];
  size_t cl = getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
  int relative = !n || s[0] != '/';
  if (!relative && cl > 1 && n > cl && !strncmp(s, cwd, cl) && s[cl] == '/')
    s += cl + 1, n -= cl + 1, relative = 1;
  while (relative && n > 2 && s[0] == '.' && s[1] == '/')
    s += 2, n -= 2;
  aucs_buf b = {0};
  if (!relative)
    aucs_buf_puts(&b, "file://");
  percent_encode(&b, s, n);
  json_t *j = json_pack("{s:s%}", "uri", b.data ? b.data : "", b.len);
  if (relative)
    json_object_set_new(j, "uriBaseId", json_string(srcroot));
  aucs_buf_free(&b);
  return j;
}

json_t *aucs_sarif_artifact(const char *path) {
  return artifact(path, strlen(path));
}

/* A file named in debug info: a relative name is in directory dir. */
static json_t *physical(const char *dir, size_t dn, const char *file, size_t n,
                        unsigned line, unsigned col) {
  json_t *region = json_pack("{s:I}", "startLine", (json_int_t)line);
  if (col)
    json_object_set_new(region, "startColumn", json_integer(col));
  char *path = file[0] != '/' && dir && dn
                   ? aucs_xasprintf("%.*s/%.*s", (int)dn, dir, (int)n, file)
                   : aucs_xasprintf("%.*s", (int)n, file);
  json_t *j = json_pack("{s:o,s:o}", "artifactLocation",
                        artifact(path, strlen(path)), "region", region);
  free(path);
  return j;
}

static json_t *logical(const char *kernel) {
  return json_pack("[{s:s,s:s}]", "fullyQualifiedName", kernel, "kind",
                   "function");
}

/* The location of instruction I in kernel; without !dbg, a logical
 * location and the "@kernel %block #n" text. */
static json_t *location(LLVMValueRef I, const char *kernel) {
  aucs_srcloc loc = aucs_srcloc_of(I);
  json_t *j = json_object();
  if (loc.file && loc.line)
    json_object_set_new(j, "physicalLocation",
                        physical(loc.dir, loc.dir_len, loc.file, loc.file_len,
                                 loc.line, loc.col));
  json_object_set_new(j, "logicalLocations", logical(kernel));
  if (!loc.file || !loc.line) {
    char *where = aucs_srcloc_format(I);
    json_object_set_new(j, "message", json_pack("{s:s}", "text", where));
    free(where);
  }
  return j;
}

/* The kernel's own location, from its DISubprogram, or NULL. */
static json_t *kernel_location(LLVMValueRef fn, const char *kernel) {
  LLVMMetadataRef sp = fn ? LLVMGetSubprogram(fn) : NULL;
  LLVMMetadataRef file = sp ? LLVMDIScopeGetFile(sp) : NULL;
  unsigned len = 0, dn = 0;
  const char *name = file ? LLVMDIFileGetFilename(file, &len) : NULL;
  const char *dir = file ? LLVMDIFileGetDirectory(file, &dn) : NULL;
  json_t *j = json_object();
  if (name && len && LLVMDISubprogramGetLine(sp))
    json_object_set_new(
        j, "physicalLocation",
        physical(dir, dn, name, len, LLVMDISubprogramGetLine(sp), 0));
  json_object_set_new(j, "logicalLocations", logical(kernel));
  return j;
}

/* ---- results ------------------------------------------------------------*/

static char *dim3(aucs_dim3 d) {
  return aucs_xasprintf("(%u,%u,%u)", d.x, d.y, d.z);
}

/* "write by thread (3,0,0) block (0,0,0)"; for a barrier divergence the
 * sides wait or exit instead. */
static char *side_text(const aucs_finding *f, const aucs_access *a, int b) {
  char *t = dim3(a->thread), *blk = dim3(a->block), *s;
  if (f->kind != AUCS_FINDING_BARRIER_DIVERGENCE)
    s = aucs_xasprintf("%s by thread %s block %s", aucs_op_name(a->op), t, blk);
  else if (!b || LLVMIsACallInst(a->instr))
    s = aucs_xasprintf("thread %s block %s waits at this barrier", t, blk);
  else
    s = aucs_xasprintf("thread %s block %s has exited", t, blk);
  free(t);
  free(blk);
  return s;
}

static json_t *related(const aucs_finding *f, const aucs_access *a, int id,
                       const char *kernel) {
  json_t *j = location(a->instr, kernel);
  char *text = side_text(f, a, id == 2);
  json_object_set_new(j, "id", json_integer(id));
  json_object_set_new(j, "message", json_pack("{s:s}", "text", text));
  free(text);
  return j;
}

/* The headline, then each access and where it is. */
static char *message(const aucs_finding *f) {
  aucs_buf b = {0};
  char *head = aucs_report_headline(f);
  aucs_buf_puts(&b, head);
  free(head);
  const aucs_access *sides[2] = {&f->a, &f->b};
  const char *joins[2] = {": ", f->kind == AUCS_FINDING_BARRIER_DIVERGENCE
                                    ? "; while "
                                    : "; conflicts with "};
  for (int i = 0; i < 2 && f->kind != AUCS_FINDING_REDUNDANT_BARRIER; i++) {
    if (!sides[i]->instr)
      continue;
    char *text = side_text(f, sides[i], i);
    char *where = aucs_srcloc_format(sides[i]->instr);
    aucs_buf_printf(&b, "%s%s at %s", joins[i], text, where);
    free(text);
    free(where);
  }
  return aucs_buf_take(&b);
}

static int is_race(const aucs_finding *f) {
  return f->kind == AUCS_FINDING_RACE ||
         f->kind == AUCS_FINDING_INTER_BLOCK_RACE;
}

static json_t *properties(const aucs_report_kernel *k, size_t i) {
  const aucs_finding *f = &k->findings.v[i];
  char *obj = aucs_report_object(f);
  json_t *p = json_pack("{s:s,s:I}", "kernel", k->demangled, "epoch",
                        (json_int_t)f->epoch);
  if (k->reproduce && k->reproduce[i])
    json_object_set_new(p, "reproduce", json_string(k->reproduce[i]));
  if (k->launch_from)
    json_object_set_new(p, "launchFrom", json_string(k->launch_from));
  if (k->nassumes) {
    json_t *a = json_array();
    for (size_t j = 0; j < k->nassumes; j++)
      json_array_append_new(a, json_string(k->assumes[j]));
    json_object_set_new(p, "assumes", a);
  }
  if (f->memory != AUCS_MEM_NONE) {
    json_object_set_new(p, "memory",
                        json_string(aucs_memspace_name(f->memory)));
    json_object_set_new(p, "object", json_string(obj));
  }
  if (is_race(f))
    json_object_set_new(p, "confidence", json_string("confirmed"));
  if (f->benign)
    json_object_set_new(p, "benign", json_string(f->benign));
  if (f->lock)
    json_object_set_new(p, "lock", json_string(f->lock));
  if (f->kind == AUCS_FINDING_REDUNDANT_BARRIER)
    json_object_set_new(p, "redundancy",
                        json_string(f->proven ? "proven" : "dynamic evidence"));
  free(obj);
  return p;
}

static json_t *result(const aucs_report_kernel *k, size_t i) {
  const aucs_finding *f = &k->findings.v[i];
  char *text = message(f);
  json_t *rel = json_array();
  if (f->a.instr)
    json_array_append_new(rel, related(f, &f->a, 1, k->demangled));
  if (f->b.instr)
    json_array_append_new(rel, related(f, &f->b, 2, k->demangled));
  json_t *locs = json_array();
  if (f->a.instr)
    json_array_append_new(locs, location(f->a.instr, k->demangled));
  json_t *j = json_pack("{s:s,s:I,s:s,s:{s:s},s:o,s:o,s:o}", "ruleId",
                        aucs_finding_kind_name(f->kind), "ruleIndex",
                        (json_int_t)f->kind, "level",
                        aucs_severity_name(aucs_finding_severity(f)), "message",
                        "text", text, "locations", locs, "relatedLocations",
                        rel, "properties", properties(k, i));
  free(text);
  return j;
}

/* ---- notifications ------------------------------------------------------*/

static json_t *note(int id, const char *level, const char *text, json_t *loc) {
  json_t *j =
      json_pack("{s:s,s:{s:s},s:{s:s,s:i}}", "level", level, "message", "text",
                text, "descriptor", "id", note_ids[id], "index", id);
  if (loc)
    json_object_set_new(j, "locations", json_pack("[o]", loc));
  return j;
}

static void unlisted_note(aucs_sarif *s, const aucs_report_kernel *k,
                          size_t n) {
  char *text = aucs_xasprintf("kernel '%s': %zu more finding%s of this kernel "
                              "not listed; --max-findings to list them",
                              k->demangled, n, n == 1 ? "" : "s");
  json_array_append_new(s->notes, note(NOTE_NOT_LISTED, "note", text,
                                       kernel_location(k->fn, k->demangled)));
  free(text);
}

static void kernel_note(aucs_sarif *s, const aucs_report_kernel *k) {
  int unsupported = k->status == AUCS_KERNEL_UNSUPPORTED;
  char *text = aucs_xasprintf("kernel '%s' not checked: %s", k->demangled,
                              k->reason ? k->reason : "?");
  json_array_append_new(s->notes,
                        note(unsupported ? NOTE_UNSUPPORTED : NOTE_KERNEL_ERROR,
                             unsupported ? "warning" : "error", text,
                             kernel_location(k->fn, k->demangled)));
  s->failed |= !unsupported;
  free(text);
}

/* ---- the log ------------------------------------------------------------*/

void aucs_sarif_begin(aucs_sarif *s) {
  *s = (aucs_sarif){.results = json_array(), .notes = json_array()};
}

void aucs_sarif_add_report(aucs_sarif *s, const aucs_report *r) {
  for (size_t i = 0; i < r->nkernels; i++) {
    const aucs_report_kernel *k = &r->kernels[i];
    size_t listed = aucs_report_listed(r, k->findings.n);
    for (size_t f = 0; f < listed; f++)
      if (k->findings.v[f].kind != AUCS_FINDING_UNSUPPORTED)
        json_array_append_new(s->results, result(k, f));
    if (listed < k->findings.n)
      unlisted_note(s, k, k->findings.n - listed);
    if (k->status != AUCS_KERNEL_CHECKED)
      kernel_note(s, k);
  }
}

void aucs_sarif_add_input_error(aucs_sarif *s, const char *path,
                                const char *message) {
  json_t *loc = json_pack("{s:{s:o}}", "physicalLocation", "artifactLocation",
                          artifact(path, strlen(path)));
  json_array_append_new(s->notes,
                        note(NOTE_INPUT_ERROR, "error", message, loc));
  s->failed = 1;
}

void aucs_sarif_add_partial(aucs_sarif *s, const json_t *part) {
  json_array_extend(s->results, json_object_get(part, "results"));
  json_array_extend(s->notes, json_object_get(part, "notifications"));
  s->failed |= json_is_true(json_object_get(part, "failed"));
}

json_t *aucs_sarif_partial(aucs_sarif *s) {
  return json_pack("{s:o,s:o,s:b}", "results", s->results, "notifications",
                   s->notes, "failed", s->failed);
}

static json_t *rules(void) {
  json_t *a = json_array();
  for (int k = 0; k < AUCS_FINDING_NKINDS; k++) /* ruleIndex is the kind */
    json_array_append_new(
        a, json_pack(
               "{s:s,s:{s:s},s:{s:s}}", "id",
               aucs_finding_kind_name((aucs_finding_kind)k), "shortDescription",
               "text", rule_text[k], "defaultConfiguration", "level",
               k == AUCS_FINDING_REDUNDANT_BARRIER ? "warning" : "error"));
  return a;
}

static json_t *notification_descriptors(void) {
  json_t *a = json_array();
  for (size_t i = 0; i < sizeof note_ids / sizeof *note_ids; i++)
    json_array_append_new(a,
                          json_pack("{s:s,s:{s:s}}", "id", note_ids[i],
                                    "shortDescription", "text", note_text[i]));
  return a;
}

/* {"%SRCROOT%": {"uri": "file:///cwd/"}} */
static json_t *base_ids(void) {
  char cwd[4096];
  if (!getcwd(cwd, sizeof cwd))
    return json_object();
  aucs_buf b = {0};
  aucs_buf_puts(&b, "file://");
  percent_encode(&b, cwd, strlen(cwd));
  if (b.data[b.len - 1] != '/')
    aucs_buf_puts(&b, "/");
  json_t *j = json_pack("{s:{s:s}}", srcroot, "uri", b.data);
  aucs_buf_free(&b);
  return j;
}

void aucs_sarif_end(aucs_sarif *s, const char *version, aucs_buf *out) {
  json_t *driver = json_pack("{s:s,s:s,s:s,s:o,s:o}", "name", "aucs", "version",
                             version ? version : "?", "semanticVersion",
                             version ? version : "0.0.0", "rules", rules(),
                             "notifications", notification_descriptors());
  json_t *inv = json_pack("{s:b,s:o}", "executionSuccessful", !s->failed,
                          "toolExecutionNotifications", s->notes);
  json_t *run = json_pack("{s:{s:o},s:[o],s:o,s:o}", "tool", "driver", driver,
                          "invocations", inv, "originalUriBaseIds", base_ids(),
                          "results", s->results);
  json_t *log = json_pack("{s:s,s:s,s:[o]}", "$schema", schema_uri, "version",
                          "2.1.0", "runs", run);
  aucs_report_json_put(out, log);
  *s = (aucs_sarif){0};
}

void aucs_sarif_report(const aucs_report *r, aucs_buf *out) {
  aucs_sarif s;
  aucs_sarif_begin(&s);
  aucs_sarif_add_report(&s, r);
  aucs_sarif_end(&s, r->version, out);
}
