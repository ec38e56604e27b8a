/*
 * inputs: a kernel's parameters flattened into leaves, with their names,
 * and the user's values for them (inputs.h).
 *
 * Steps, per kernel:
 *   1. Names of parameters: the IR's; else the DILocalVariable with `arg: i`
 *      among the function's debug records and its subprogram's retained
 *      nodes; else "arg<i>".
 *   2. Each parameter becomes leaves: integers, floats and pointers are one
 *      leaf; a byval aggregate is walked over its IR type (struct elements
 *      at LLVMOffsetOfElement, array elements at multiples of their ABI
 *      size) beside its DICompositeType, whose members (matched by offset)
 *      name the fields; without debug info fields are "f<i>".
 *   3. The user's settings bind to leaves by name; a pointer's --buffer N
 *      counts elements of its pointee (its size from the debug info) or,
 *      unknown, bytes.
 * The LLVM-C debug-info API has no accessor for members, tags or argument
 * numbers: the metadata operands are walked (LLVMGetMDNodeOperands) and the
 * tag and `arg:` read from the node's printed form.
 */
#include "aucs/inputs.h"

#include "aucs/srcloc.h"
#include "aucs/util.h"
#include <errno.h>
#include <jansson.h>
#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <llvm-c/Target.h>
#include <llvm/Config/llvm-config.h>
#include <stdlib.h>
#include <string.h>

/* ---- debug-info metadata ------------------------------------------------*/

/* Operands of DI types: LLVM 21 made the size and offset operands, so the
 * base type and the elements moved from 3 and 4 to 5 and 6. */
#if LLVM_VERSION_MAJOR >= 21
enum { DI_BASE = 5, DI_ELEMENTS = 6 };
#else
enum { DI_BASE = 3, DI_ELEMENTS = 4 };
#endif
enum { DI_NAME = 2, VAR_NAME = 1, VAR_TYPE = 3 };

typedef struct walker {
  LLVMContextRef ctx;
  LLVMTargetDataRef td;
  aucs_arena *arena;
  aucs_input *v;
  size_t n, cap;
  unsigned param;
  const char **declared; /* per parameter: aucs_inputs.declared_only */
} walker;

static unsigned md_nops(LLVMContextRef ctx, LLVMMetadataRef md) {
  return md ? LLVMGetMDNodeNumOperands(LLVMMetadataAsValue(ctx, md)) : 0;
}

/* The text after "key: " in md's printed form, up to a delimiter, into
 * out[0..n); "" when absent. */
static void md_field(LLVMContextRef ctx, LLVMMetadataRef md, const char *key,
                     char *out, size_t n) {
  out[0] = '\0';
  if (!md)
    return;
  char *s = LLVMPrintValueToString(LLVMMetadataAsValue(ctx, md));
  const char *at = strstr(s, key);
  if (at) {
    at += strlen(key);
    size_t len = strcspn(at, ",)");
    if (len >= n)
      len = n - 1;
    memcpy(out, at, len);
    out[len] = '\0';
  }
  LLVMDisposeMessage(s);
}

static int md_tag(LLVMContextRef ctx, LLVMMetadataRef md, const char *tag) {
  char t[64];
  md_field(ctx, md, "tag: ", t, sizeof t);
  return !strcmp(t, tag);
}

/* The string operand i of a DI node (a name), or NULL. */
static const char *md_string(LLVMContextRef ctx, LLVMMetadataRef md, unsigned i,
                             size_t *len) {
  LLVMMetadataRef s = aucs_md_operand(ctx, md, i);
  unsigned n = 0;
  const char *r = s ? LLVMGetMDString(LLVMMetadataAsValue(ctx, s), &n) : NULL;
  *len = n;
  return r;
}

/* Typedefs, const, volatile stripped: the type a value really has. */
static LLVMMetadataRef di_strip(LLVMContextRef ctx, LLVMMetadataRef t) {
  for (int depth = 0; t && depth < 16; depth++) {
    if (LLVMGetMetadataKind(t) != LLVMDIDerivedTypeMetadataKind ||
        md_tag(ctx, t, "DW_TAG_pointer_type") ||
        md_tag(ctx, t, "DW_TAG_member"))
      return t;
    t = aucs_md_operand(ctx, t, DI_BASE);
  }
  return t;
}

/* The member of composite type ct at byte offset off (the first one). */
static LLVMMetadataRef di_member_at(LLVMContextRef ctx, LLVMMetadataRef ct,
                                    uint64_t off) {
  if (!ct || LLVMGetMetadataKind(ct) != LLVMDICompositeTypeMetadataKind)
    return NULL;
  LLVMMetadataRef els = aucs_md_operand(ctx, ct, DI_ELEMENTS);
  for (unsigned i = 0; i < md_nops(ctx, els); i++) {
    LLVMMetadataRef m = aucs_md_operand(ctx, els, i);
    if (m && LLVMGetMetadataKind(m) == LLVMDIDerivedTypeMetadataKind &&
        md_tag(ctx, m, "DW_TAG_member") &&
        LLVMDITypeGetOffsetInBits(m) == off * 8)
      return m;
  }
  return NULL;
}

/* Bytes of the pointee of DI pointer type t; 0 when unknown (void). */
static uint64_t di_pointee_bytes(LLVMContextRef ctx, LLVMMetadataRef t) {
  t = di_strip(ctx, t);
  if (!t || !md_tag(ctx, t, "DW_TAG_pointer_type"))
    return 0;
  LLVMMetadataRef base = di_strip(ctx, aucs_md_operand(ctx, t, DI_BASE));
  return base ? LLVMDITypeGetSizeInBits(base) / 8 : 0;
}

/* ---- parameter names ----------------------------------------------------*/

/* Record var (a DILocalVariable) as the name and type of its argument. */
static void note_var(LLVMContextRef ctx, LLVMMetadataRef var, unsigned np,
                     LLVMMetadataRef *vars) {
  if (!var || LLVMGetMetadataKind(var) != LLVMDILocalVariableMetadataKind)
    return;
  char a[32];
  md_field(ctx, var, "arg: ", a, sizeof a);
  long k = a[0] ? strtol(a, NULL, 10) : 0;
  if (k >= 1 && (unsigned long)k <= np && !vars[k - 1])
    vars[k - 1] = var;
}

static void vars_of_records(LLVMContextRef ctx, LLVMValueRef fn, unsigned np,
                            LLVMMetadataRef *vars) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef I = LLVMGetFirstInstruction(bb); I;
         I = LLVMGetNextInstruction(I))
      for (LLVMDbgRecordRef r = LLVMGetFirstDbgRecord(I); r;
           r = LLVMGetNextDbgRecord(r))
        if (LLVMDbgRecordGetKind(r) != LLVMDbgRecordLabel)
          note_var(ctx, LLVMDbgVariableRecordGetVariable(r), np, vars);
}

/* The DILocalVariable of each argument of fn (NULL where unknown). */
static LLVMMetadataRef *arg_vars(LLVMContextRef ctx, LLVMValueRef fn,
                                 unsigned np) {
  LLVMMetadataRef *vars = aucs_xcalloc(np + 1, sizeof *vars);
  LLVMMetadataRef sp = LLVMGetSubprogram(fn);
  if (!sp)
    return vars;
  vars_of_records(ctx, fn, np, vars);
  for (unsigned i = 0; i < md_nops(ctx, sp); i++) { /* retainedNodes */
    LLVMMetadataRef t = aucs_md_operand(ctx, sp, i);
    for (unsigned j = 0;
         t && LLVMGetMetadataKind(t) == LLVMMDTupleMetadataKind &&
         j < md_nops(ctx, t);
         j++)
      note_var(ctx, aucs_md_operand(ctx, t, j), np, vars);
  }
  return vars;
}

static const char *param_name(walker *W, LLVMValueRef a, LLVMMetadataRef var,
                              unsigned i) {
  size_t len = 0;
  const char *s = LLVMGetValueName2(a, &len);
  if (len)
    return aucs_arena_strdup(W->arena, s);
  s = var ? md_string(W->ctx, var, VAR_NAME, &len) : NULL;
  if (s && len) {
    char *r = aucs_arena_alloc(W->arena, len + 1);
    memcpy(r, s, len);
    return r;
  }
  char buf[32];
  snprintf(buf, sizeof buf, "arg%u", i);
  return aucs_arena_strdup(W->arena, buf);
}

/* ---- flattening ---------------------------------------------------------*/

static void leaf(walker *W, const char *name, aucs_param_kind k, unsigned bits,
                 int field, uint64_t off, uint64_t elem) {
  if (W->n == AUCS_INPUTS_MAX_LEAVES)
    return;
  if (W->n == W->cap) {
    W->cap = W->cap ? 2 * W->cap : 8;
    W->v = aucs_xrealloc(W->v, W->cap * sizeof *W->v);
  }
  W->v[W->n++] = (aucs_input){
      .p = {.name = aucs_arena_strdup(W->arena, name), .kind = k, .bits = bits},
      .param = W->param,
      .field = field,
      .offset = off,
      .elem_bytes = elem};
}

static void flatten(walker *W, LLVMTypeRef t, LLVMMetadataRef di,
                    const char *name, int field, uint64_t off);

/* A struct type the debug info only declares (DIFlagFwdDecl: no members,
 * clang's default for a type whose constructor this module never emits):
 * the first of a parameter is remembered, for the hint of inputs.h. */
static void note_declared(walker *W, LLVMMetadataRef di) {
  if (!di || LLVMGetMetadataKind(di) != LLVMDICompositeTypeMetadataKind ||
      !(LLVMDITypeGetFlags(di) & LLVMDIFlagFwdDecl) || W->declared[W->param])
    return;
  size_t len = 0;
  const char *s = md_string(W->ctx, di, DI_NAME, &len);
  char *name = aucs_arena_alloc(W->arena, len + 1);
  if (len)
    memcpy(name, s, len);
  W->declared[W->param] = name;
}

static void flatten_struct(walker *W, LLVMTypeRef t, LLVMMetadataRef di,
                           const char *name, uint64_t off) {
  unsigned n = LLVMCountStructElementTypes(t);
  note_declared(W, di);
  for (unsigned e = 0; e < n; e++) {
    uint64_t at = LLVMOffsetOfElement(W->td, t, e);
    LLVMMetadataRef m = di_member_at(W->ctx, di, at);
    size_t len = 0;
    const char *mn = m ? md_string(W->ctx, m, DI_NAME, &len) : NULL;
    char *full = mn && len ? aucs_xasprintf("%s.%.*s", name, (int)len, mn)
                           : aucs_xasprintf("%s.f%u", name, e);
    flatten(W, LLVMStructGetTypeAtIndex(t, e),
            m ? di_strip(W->ctx, aucs_md_operand(W->ctx, m, DI_BASE)) : NULL,
            full, 1, off + at);
    free(full);
  }
}

static void flatten_array(walker *W, LLVMTypeRef t, LLVMMetadataRef di,
                          const char *name, uint64_t off) {
  LLVMTypeRef e = LLVMGetElementType(t);
  uint64_t n = LLVMGetArrayLength2(t), size = LLVMABISizeOfType(W->td, e);
  LLVMMetadataRef edi = NULL;
  if (di && LLVMGetMetadataKind(di) == LLVMDICompositeTypeMetadataKind &&
      md_tag(W->ctx, di, "DW_TAG_array_type"))
    edi = di_strip(W->ctx, aucs_md_operand(W->ctx, di, DI_BASE));
  for (uint64_t i = 0; i < n && i < AUCS_INPUTS_MAX_ARRAY; i++) {
    char *full = aucs_xasprintf("%s[%llu]", name, (unsigned long long)i);
    flatten(W, e, edi, full, 1, off + i * size);
    free(full);
  }
}

static void flatten(walker *W, LLVMTypeRef t, LLVMMetadataRef di,
                    const char *name, int field, uint64_t off) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind:
    return leaf(W, name, AUCS_PARAM_INT, LLVMGetIntTypeWidth(t), field, off, 0);
  case LLVMFloatTypeKind:
    return leaf(W, name, AUCS_PARAM_FLOAT, 32, field, off, 0);
  case LLVMDoubleTypeKind:
    return leaf(W, name, AUCS_PARAM_FLOAT, 64, field, off, 0);
  case LLVMPointerTypeKind:
    return leaf(W, name, AUCS_PARAM_POINTER, 64, field, off,
                di_pointee_bytes(W->ctx, di));
  case LLVMStructTypeKind:
    if (field)
      return flatten_struct(W, t, di, name, off);
    break;
  case LLVMArrayTypeKind:
    if (field)
      return flatten_array(W, t, di, name, off);
    break;
  default:
    break;
  }
  leaf(W, name, AUCS_PARAM_AGGREGATE, 0, field, off, 0);
}

static LLVMTypeRef byval_type(LLVMValueRef fn, unsigned i) {
  unsigned kind = LLVMGetEnumAttributeKindForName("byval", 5);
  LLVMAttributeRef a = LLVMGetEnumAttributeAtIndex(fn, i + 1, kind);
  return a ? LLVMGetTypeAttributeValue(a) : NULL;
}

aucs_inputs *aucs_inputs_describe(LLVMValueRef fn) {
  LLVMModuleRef m = LLVMGetGlobalParent(fn);
  unsigned np = LLVMCountParams(fn);
  aucs_inputs *in = aucs_xcalloc(1, sizeof *in);
  walker W = {.ctx = LLVMGetModuleContext(m),
              .td = LLVMCreateTargetData(LLVMGetDataLayoutStr(m)),
              .arena = aucs_arena_new()};
  in->arena = W.arena;
  in->nparams = np;
  in->param_names = aucs_arena_alloc(W.arena, (np + 1) * sizeof(char *));
  in->declared_only = aucs_arena_alloc(W.arena, (np + 1) * sizeof(char *));
  W.declared = in->declared_only;
  LLVMMetadataRef *vars = arg_vars(W.ctx, fn, np);
  for (unsigned i = 0; i < np; i++) {
    LLVMValueRef a = LLVMGetParam(fn, i);
    LLVMTypeRef bv = byval_type(fn, i);
    LLVMMetadataRef di =
        vars[i] ? di_strip(W.ctx, aucs_md_operand(W.ctx, vars[i], VAR_TYPE))
                : NULL;
    in->param_names[i] = param_name(&W, a, vars[i], i);
    W.param = i;
    flatten(&W, bv ? bv : LLVMTypeOf(a), di, in->param_names[i], bv != NULL, 0);
  }
  free(vars);
  LLVMDisposeTargetData(W.td);
  in->n = W.n;
  in->v = aucs_arena_alloc(W.arena, (W.n + 1) * sizeof *in->v);
  if (W.n)
    memcpy(in->v, W.v, W.n * sizeof *W.v);
  free(W.v);
  return in;
}

void aucs_inputs_free(aucs_inputs *in) {
  if (!in)
    return;
  aucs_arena_free(in->arena);
  free(in);
}

long aucs_inputs_find(const aucs_inputs *in, const char *name, size_t len) {
  for (size_t i = 0; in && i < in->n; i++)
    if (strlen(in->v[i].p.name) == len && !strncmp(in->v[i].p.name, name, len))
      return (long)i;
  return -1;
}

/* ---- the user's settings ------------------------------------------------*/

static void add_setting(aucs_inputs_setting **v, size_t *n, const char *name,
                        size_t len, const char *value) {
  *v = aucs_xrealloc(*v, (*n + 1) * sizeof **v);
  char *nm = aucs_xmalloc(len + 1);
  memcpy(nm, name, len);
  nm[len] = '\0';
  (*v)[(*n)++] = (aucs_inputs_setting){nm, aucs_xstrdup(value)};
}

static int bad(char **err, const char *flag, const char *v, const char *want) {
  *err = aucs_xasprintf("%s: bad value '%s' (%s)", flag, v ? v : "", want);
  return -1;
}

/* "NAME=VALUE" into the list; --buffer values are positive integers. */
static int setting(aucs_inputs_user *u, const char *flag, const char *v,
                   char **err) {
  const char *eq = strchr(v, '=');
  int buffer = !strcmp(flag, "--buffer");
  uint64_t x;
  if (!strcmp(flag, "--buffer-data")) {
    if (!eq || eq == v || !eq[1])
      return bad(err, flag, v, "NAME=FILE");
    add_setting(&u->data, &u->ndata, v, (size_t)(eq - v), eq + 1);
    return 1;
  }
  if (!eq || eq == v || !eq[1])
    return bad(err, flag, v,
               buffer                       ? "NAME=COUNT"
               : !strcmp(flag, "--texture") ? "TEXTURE=PARAM"
                                            : "NAME=VALUE");
  if (buffer && (aucs_parse_u64(eq + 1, &x) || x == 0))
    return bad(err, flag, v, "NAME=COUNT, a positive integer");
  if (buffer)
    add_setting(&u->buffers, &u->nbuffers, v, (size_t)(eq - v), eq + 1);
  else if (!strcmp(flag, "--texture"))
    add_setting(&u->textures, &u->ntextures, v, (size_t)(eq - v), eq + 1);
  else
    add_setting(&u->args, &u->nargs, v, (size_t)(eq - v), eq + 1);
  return 1;
}

static int option_value(aucs_inputs_user *u, const char *flag, const char *v,
                        char **err) {
  if (!strcmp(flag, "--inputs"))
    return aucs_inputs_read_json(u, v, err) ? -1 : 1;
  if (!strcmp(flag, "--dynamic-shared")) {
    if (aucs_parse_u64(v, &u->dynamic_shared) || u->dynamic_shared == 0 ||
        u->dynamic_shared > (1u << 30))
      return bad(err, flag, v, "bytes, 1..1073741824");
    return u->has_dynamic_shared = 1;
  }
  return setting(u, flag, v, err);
}

int aucs_inputs_option(aucs_inputs_user *u, int argc, char **argv, int *i,
                       char **err) {
  static const char *const flags[] = {"--arg", "--buffer", "--buffer-data",
                                      "--dynamic-shared", "--texture",
                                      "--inputs"};
  const char *arg = argv[*i];
  if (!strcmp(arg, "--replay"))
    return u->replay = 1;
  for (size_t f = 0; f < sizeof flags / sizeof *flags; f++) {
    size_t n = strlen(flags[f]);
    if (strncmp(arg, flags[f], n) || (arg[n] && arg[n] != '='))
      continue;
    if (arg[n] == '=')
      return option_value(u, flags[f], arg + n + 1, err);
    if (*i + 1 >= argc) {
      *err = aucs_xasprintf("%s needs a value", flags[f]);
      return -1;
    }
    return option_value(u, flags[f], argv[++*i], err);
  }
  return 0;
}

static void settings_free(aucs_inputs_setting *v, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(v[i].name);
    free(v[i].value);
  }
  free(v);
}

void aucs_inputs_user_free(aucs_inputs_user *u) {
  settings_free(u->args, u->nargs);
  settings_free(u->buffers, u->nbuffers);
  settings_free(u->data, u->ndata);
  settings_free(u->textures, u->ntextures);
  *u = (aucs_inputs_user){0};
}

/* ---- --inputs FILE.json ------------------------------------------------*/

/* [x, y, z] (1 to 3 positive integers) or a positive integer. */
static int json_dim3(json_t *j, aucs_dim3 *d) {
  uint32_t v[3] = {1, 1, 1};
  size_t n = json_is_array(j) ? json_array_size(j) : 1;
  if (n == 0 || n > 3)
    return -1;
  for (size_t i = 0; i < n; i++) {
    json_t *x = json_is_array(j) ? json_array_get(j, i) : j;
    if (!json_is_integer(x) || json_integer_value(x) <= 0 ||
        json_integer_value(x) > UINT32_MAX)
      return -1;
    v[i] = (uint32_t)json_integer_value(x);
  }
  *d = (aucs_dim3){v[0], v[1], v[2]};
  return 0;
}

/* A JSON scalar as --arg would spell it: 5, -1.5, true. */
static char *json_text(json_t *x) {
  if (json_is_integer(x))
    return aucs_xasprintf("%lld", (long long)json_integer_value(x));
  if (json_is_real(x))
    return aucs_xasprintf("%.17g", json_real_value(x));
  if (json_is_boolean(x))
    return aucs_xstrdup(json_is_true(x) ? "true" : "false");
  if (json_is_string(x))
    return aucs_xstrdup(json_string_value(x));
  return NULL;
}

static int json_settings(aucs_inputs_user *u, json_t *obj, const char *flag,
                         const char *path, char **err) {
  const char *key;
  json_t *x;
  if (!obj)
    return 0;
  if (!json_is_object(obj)) {
    *err = aucs_xasprintf("%s: \"%s\" must be an object", path, flag + 2);
    return -1;
  }
  json_object_foreach(obj, key, x) {
    char *v = json_text(x);
    if (v && !strcmp(flag, "--buffer-data")) { /* FILE: beside FILE.json */
      const char *slash = strrchr(path, '/');
      char *rel = v[0] != '/' && slash
                      ? aucs_xasprintf("%.*s/%s", (int)(slash - path), path, v)
                      : NULL;
      if (rel) {
        free(v);
        v = rel;
      }
    }
    char *s = v ? aucs_xasprintf("%s=%s", key, v) : NULL;
    int rc = s ? setting(u, flag, s, err) : -1;
    if (!s)
      *err =
          aucs_xasprintf("%s: %s: \"%s\" is not a number", path, flag + 2, key);
    free(v);
    free(s);
    if (rc < 0)
      return -1;
  }
  return 0;
}

/* "textures": {"TEX": "PARAM", ...}, as --texture TEX=PARAM. */
static int json_textures(aucs_inputs_user *u, json_t *obj, const char *path,
                         char **err) {
  const char *key;
  json_t *x;
  if (obj && !json_is_object(obj))
    return *err = aucs_xasprintf("%s: \"textures\" must be an object", path),
           -1;
  json_object_foreach(obj, key, x) {
    if (!json_is_string(x) || !*key || !*json_string_value(x))
      return *err = aucs_xasprintf("%s: textures: \"%s\" must name a pointer "
                                   "parameter",
                                   path, key),
             -1;
    add_setting(&u->textures, &u->ntextures, key, strlen(key),
                json_string_value(x));
  }
  return 0;
}

static int json_launch(aucs_inputs_user *u, json_t *root, const char *path,
                       char **err) {
  json_t *g = json_object_get(root, "grid"),
         *b = json_object_get(root, "block");
  if (g && json_dim3(g, &u->grid))
    return *err =
               aucs_xasprintf("%s: \"grid\": 1 to 3 positive integers", path),
           -1;
  if (b && json_dim3(b, &u->block))
    return *err =
               aucs_xasprintf("%s: \"block\": 1 to 3 positive integers", path),
           -1;
  u->has_grid |= g != NULL;
  u->has_block |= b != NULL;
  return 0;
}

static int json_keys(json_t *root, const char *path, char **err) {
  static const char *const known[] = {"grid",        "block",
                                      "args",        "buffers",
                                      "buffer_data", "dynamic_shared",
                                      "textures"};
  const char *key;
  json_t *x;
  json_object_foreach(root, key, x) {
    size_t k = 0;
    while (k < sizeof known / sizeof *known && strcmp(known[k], key))
      k++;
    if (k == sizeof known / sizeof *known) {
      *err = aucs_xasprintf("%s: unknown key \"%s\" (grid, block, args, "
                            "buffers, buffer_data, dynamic_shared, "
                            "textures)",
                            path, key);
      return -1;
    }
  }
  return 0;
}

static int read_file(const char *path, unsigned char **out, uint64_t *n,
                     char **err);

int aucs_inputs_read_json(aucs_inputs_user *u, const char *path, char **err) {
  json_error_t je;
  unsigned char *text = NULL;
  uint64_t len = 0;
  char *why = NULL;
  if (read_file(path, &text, &len, &why)) {
    *err = aucs_xasprintf("--inputs: %s", why);
    free(why);
    return -1;
  }
  json_t *root = json_loadb((const char *)text, (size_t)len, 0, &je);
  free(text);
  if (!root) {
    *err = aucs_xasprintf("--inputs: %s:%d:%d: %s", path, je.line, je.column,
                          je.text);
    return -1;
  }
  int rc = -1;
  json_t *ds = json_object_get(root, "dynamic_shared");
  if (!json_is_object(root))
    *err =
        aucs_xasprintf("--inputs: %s: the top level must be an object", path);
  else if (!json_keys(root, path, err) && !json_launch(u, root, path, err) &&
           !json_settings(u, json_object_get(root, "args"), "--arg", path,
                          err) &&
           !json_settings(u, json_object_get(root, "buffers"), "--buffer", path,
                          err) &&
           !json_settings(u, json_object_get(root, "buffer_data"),
                          "--buffer-data", path, err) &&
           !json_textures(u, json_object_get(root, "textures"), path, err)) {
    rc = 0;
    if (ds && (!json_is_integer(ds) || json_integer_value(ds) < 1 ||
               json_integer_value(ds) > (1 << 30))) {
      *err =
          aucs_xasprintf("%s: \"dynamic_shared\": bytes, 1..1073741824", path);
      rc = -1;
    } else if (ds && !u->has_dynamic_shared) {
      u->dynamic_shared = (uint64_t)json_integer_value(ds);
      u->has_dynamic_shared = 1;
    }
  }
  json_decref(root);
  return rc;
}

/* ---- values -------------------------------------------------------------*/

static const char *kind_name(const aucs_input *in) {
  switch (in->p.kind) {
  case AUCS_PARAM_INT:
    return in->field ? "an integer field" : "an integer";
  case AUCS_PARAM_FLOAT:
    return in->field ? "a floating-point field" : "a floating-point number";
  case AUCS_PARAM_POINTER:
    return in->field ? "a pointer field" : "a pointer";
  default:
    return "an aggregate";
  }
}

static int parse_int(const aucs_param *p, const char *s, uint64_t *out) {
  char *end;
  errno = 0;
  if (!strcmp(s, "true") || !strcmp(s, "false"))
    return *out = s[0] == 't', 0;
  int neg = s[0] == '-';
  if (s[neg] < '0' || s[neg] > '9') /* decimal only: no '+', no spaces */
    return -1;
  long long sv = neg ? strtoll(s, &end, 10) : 0;
  unsigned long long uv = neg ? 0 : strtoull(s, &end, 10);
  if (errno || end == s || *end)
    return -1;
  unsigned bits = p->bits ? p->bits : 64;
  if (bits < 64) {
    long long lo = -(1ll << (bits - 1));
    unsigned long long hi = (1ull << bits) - 1;
    if ((neg && sv < lo) || (!neg && uv > hi))
      return -1;
    *out = (neg ? (uint64_t)sv : uv) & hi;
  } else
    *out = neg ? (uint64_t)sv : uv;
  return 0;
}

static int parse_float(const aucs_param *p, const char *s, uint64_t *out) {
  char *end;
  double d = strtod(s, &end);
  if (end == s || *end)
    return -1;
  if (p->bits == 32) {
    float f = (float)d;
    uint32_t b;
    memcpy(&b, &f, sizeof b);
    *out = b;
  } else
    memcpy(out, &d, sizeof d);
  return 0;
}

char *aucs_inputs_value_text(const aucs_param *p, uint64_t v) {
  if (p->kind == AUCS_PARAM_FLOAT) {
    double d;
    if (p->bits == 32) {
      uint32_t b = (uint32_t)v;
      float f;
      memcpy(&f, &b, sizeof f);
      d = f;
    } else
      memcpy(&d, &v, sizeof d);
    char *s = aucs_xasprintf(p->bits == 32 ? "%.9g" : "%.17g", d);
    if (strpbrk(s, ".eni")) /* 1.5, 1e+20, inf, nan */
      return s;
    char *t = aucs_xasprintf("%s.0", s);
    free(s);
    return t;
  }
  unsigned bits = p->bits ? p->bits : 64;
  if (bits == 1)
    return aucs_xasprintf("%llu", (unsigned long long)(v & 1));
  int64_t sv =
      bits < 64 ? (int64_t)(v << (64 - bits)) >> (64 - bits) : (int64_t)v;
  return aucs_xasprintf("%lld", (long long)sv);
}

void aucs_inputs_values_init(aucs_inputs_values *v, const aucs_inputs *in) {
  size_t n = in ? in->n : 0;
  v->vals = aucs_xcalloc(n + 1, sizeof *v->vals);
  v->fixed = aucs_xcalloc(n + 1, 1);
  v->given = aucs_xcalloc(n + 1, 1);
  v->bytes = aucs_xcalloc(n + 1, sizeof *v->bytes);
  v->buffer_as = aucs_xcalloc(n + 1, sizeof *v->buffer_as);
  v->data = aucs_xcalloc(n + 1, sizeof *v->data);
  v->data_bytes = aucs_xcalloc(n + 1, sizeof *v->data_bytes);
  v->data_as = aucs_xcalloc(n + 1, sizeof *v->data_as);
  v->n = n;
}

void aucs_inputs_values_free(aucs_inputs_values *v) {
  free(v->vals);
  free(v->fixed);
  free(v->given);
  free(v->bytes);
  for (size_t i = 0; v->buffer_as && i < v->n; i++)
    free((char *)v->buffer_as[i]);
  for (size_t i = 0; v->data && i < v->n; i++) {
    free(v->data[i]);
    free((char *)v->data_as[i]);
  }
  free(v->buffer_as);
  free(v->data);
  free(v->data_bytes);
  free(v->data_as);
  *v = (aucs_inputs_values){0};
}

int aucs_inputs_settable(const aucs_inputs *in, const aucs_inputs_values *v,
                         size_t i) {
  const aucs_input *x = &in->v[i];
  return x->p.kind == AUCS_PARAM_INT ||
         (x->p.kind == AUCS_PARAM_FLOAT && (!x->field || v->fixed[i]));
}

int aucs_inputs_listed(const aucs_inputs *in, const aucs_inputs_values *v,
                       const unsigned char *read, size_t i) {
  return aucs_inputs_settable(in, v, i) && (!read || read[i] || v->given[i]);
}

char *aucs_inputs_format(const aucs_inputs *in, const aucs_inputs_values *v,
                         const uint64_t *vals, const unsigned char *read) {
  aucs_buf b = {0};
  aucs_buf_puts(&b, "");
  for (size_t i = 0; in && i < in->n; i++) {
    if (!aucs_inputs_listed(in, v, read, i))
      continue;
    char *t = aucs_inputs_value_text(&in->v[i].p, vals[i]);
    aucs_buf_printf(&b, "%s%s=%s", b.len ? " " : "", in->v[i].p.name, t);
    free(t);
  }
  return aucs_buf_take(&b);
}

char *aucs_inputs_command(const aucs_inputs *in, const aucs_inputs_values *v,
                          const uint64_t *vals, const unsigned char *read,
                          const aucs_inputs_user *u) {
  aucs_buf b = {0};
  aucs_buf_puts(&b, "");
  int left_out = u && u->replay;
  for (size_t i = 0; in && i < in->n; i++) {
    if (!aucs_inputs_listed(in, v, read, i)) {
      left_out |= aucs_inputs_settable(in, v, i);
      continue;
    }
    char *t = aucs_inputs_value_text(&in->v[i].p, vals[i]);
    aucs_buf_printf(&b, " --arg %s=%s", in->v[i].p.name, t);
    free(t);
  }
  if (left_out)
    aucs_buf_puts(&b, " --replay");
  for (size_t i = 0; in && i < in->n; i++)
    if (v->buffer_as[i])
      aucs_buf_printf(&b, " --buffer %s=%s", in->v[i].p.name, v->buffer_as[i]);
  for (size_t i = 0; in && i < in->n; i++)
    if (v->data_as[i]) {
      char *w = aucs_xasprintf("%s=%s", in->v[i].p.name, v->data_as[i]);
      aucs_buf_puts(&b, " --buffer-data");
      aucs_buf_shell_word(&b, w);
      free(w);
    }
  for (size_t i = 0; u && i < u->ntextures; i++)
    aucs_buf_printf(&b, " --texture %s=%s", u->textures[i].name,
                    u->textures[i].value);
  if (u && u->has_dynamic_shared)
    aucs_buf_printf(&b, " --dynamic-shared %llu",
                    (unsigned long long)u->dynamic_shared);
  return aucs_buf_take(&b);
}

/* ---- binding ------------------------------------------------------------*/

/* "t.ptr (a pointer field), t.dims[0] (an integer field)": the leaves of
 * parameter p, or of every parameter when p < 0. */
static void list_leaves(aucs_buf *b, const aucs_inputs *in, long p) {
  int first = 1;
  for (size_t i = 0; i < in->n; i++)
    if (p < 0 || in->v[i].param == (unsigned)p) {
      aucs_buf_printf(b, "%s%s (%s)", first ? "" : ", ", in->v[i].p.name,
                      kind_name(&in->v[i]));
      first = 0;
    }
  if (first)
    aucs_buf_puts(b, "no parameters");
  for (size_t i = 0; i < in->nparams; i++)
    if ((p < 0 || i == (size_t)p) && in->declared_only[i]) {
      aucs_buf_printf(b,
                      " (the debug info only declares '%s', so the "
                      "fields of '%s' are named by position; compile "
                      "with -fstandalone-debug for their names)",
                      in->declared_only[i], in->param_names[i]);
      break;
    }
}

/* The parameter that name's first component ("t" of "t.dims[0]") names. */
static long param_of(const aucs_inputs *in, const char *name) {
  size_t len = strcspn(name, ".[");
  for (size_t i = 0; i < in->nparams; i++)
    if (strlen(in->param_names[i]) == len &&
        !strncmp(in->param_names[i], name, len))
      return (long)i;
  return -1;
}

static char *unknown(const aucs_inputs *const *ins, const char *const *names,
                     size_t n, const char *flag, const char *name) {
  aucs_buf b = {0};
  long hit = -1;
  for (size_t k = 0; k < n && hit < 0; k++)
    if (ins[k] && (hit = param_of(ins[k], name)) >= 0) {
      aucs_buf_printf(
          &b, "%s: kernel '%s' has no input '%s'; parameter '%s' has: ", flag,
          names[k], name, ins[k]->param_names[hit]);
      list_leaves(&b, ins[k], hit);
    }
  if (hit >= 0)
    return aucs_buf_take(&b);
  aucs_buf_printf(&b, "%s: no parameter named '%s'", flag, name);
  for (size_t k = 0; k < n; k++) {
    if (!ins[k])
      continue;
    aucs_buf_printf(&b, "; kernel '%s' has: ", names[k]);
    list_leaves(&b, ins[k], -1);
  }
  return aucs_buf_take(&b);
}

static int bind_value(const aucs_inputs *in, const char *kname,
                      aucs_inputs_values *v, const aucs_inputs_setting *s,
                      char **err) {
  long i = aucs_inputs_find(in, s->name, strlen(s->name));
  if (i < 0)
    return 0;
  const aucs_input *x = &in->v[i];
  int rc = x->p.kind == AUCS_PARAM_INT ? parse_int(&x->p, s->value, &v->vals[i])
           : x->p.kind == AUCS_PARAM_FLOAT
               ? parse_float(&x->p, s->value, &v->vals[i])
               : -1;
  if (rc) {
    *err = aucs_xasprintf(
        "--arg %s: '%s' does not fit parameter '%s' of kernel '%s' (%s%s)",
        s->name, s->value, s->name, kname, kind_name(x),
        x->p.kind == AUCS_PARAM_POINTER
            ? ": its memory is modelled; size it with --buffer NAME=COUNT"
        : x->p.kind == AUCS_PARAM_AGGREGATE
            ? ": its memory is modelled, not set"
            : "");
    return -1;
  }
  v->fixed[i] = v->given[i] = 1;
  return 1;
}

/* The pointer leaf of --buffer NAME: a pointer by name, or the only pointer
 * field of the aggregate parameter NAME. */
static long buffer_leaf(const aucs_inputs *in, const char *name) {
  long i = aucs_inputs_find(in, name, strlen(name)), hit = -1;
  if (i >= 0)
    return i;
  long p = param_of(in, name);
  if (p < 0 || strlen(in->param_names[p]) != strlen(name))
    return -1;
  for (size_t j = 0; j < in->n; j++)
    if (in->v[j].param == (unsigned)p && in->v[j].p.kind == AUCS_PARAM_POINTER)
      hit = hit < 0 ? (long)j : -2;
  return hit < 0 ? -1 : hit;
}

static int bind_buffer(const aucs_inputs *in, const char *kname,
                       aucs_inputs_values *v, const aucs_inputs_setting *s,
                       char **err) {
  long i = buffer_leaf(in, s->name);
  if (i < 0)
    return 0;
  const aucs_input *x = &in->v[i];
  uint64_t count = 0;
  aucs_parse_u64(s->value, &count); /* checked when parsed */
  uint64_t each = x->elem_bytes ? x->elem_bytes : 1;
  if (x->p.kind != AUCS_PARAM_POINTER || count > (UINT64_C(1) << 38) / each) {
    *err = aucs_xasprintf("--buffer %s: '%s' of kernel '%s' is %s%s", s->name,
                          x->p.name, kname, kind_name(x),
                          x->p.kind == AUCS_PARAM_POINTER
                              ? " and the count is above 2^38 bytes"
                              : ", not a pointer (set it with --arg)");
    return -1;
  }
  v->bytes[i] = count * each;
  free((char *)v->buffer_as[i]);
  v->buffer_as[i] = aucs_xstrdup(s->value);
  return 1;
}

/* The bytes of path, a regular file of at most AUCS_INPUTS_MAX_FILE bytes,
 * into *out, *n; else -1 with *err naming the file. */
static int read_file(const char *path, unsigned char **out, uint64_t *n,
                     char **err) {
  char *data;
  size_t len;
  if (aucs_read_regular(path, AUCS_INPUTS_MAX_FILE, "a data file",
                        "--buffer-data, --inputs", &data, &len, err))
    return -1;
  *out = (unsigned char *)data;
  *n = len;
  return 0;
}

/* --buffer-data NAME=FILE: the buffer's contents, and its size unless
 * --buffer gave one. */
static int bind_data(const aucs_inputs *in, const char *kname,
                     aucs_inputs_values *v, const aucs_inputs_setting *s,
                     char **err) {
  long i = buffer_leaf(in, s->name);
  if (i < 0)
    return 0;
  const aucs_input *x = &in->v[i];
  if (x->p.kind != AUCS_PARAM_POINTER) {
    *err = aucs_xasprintf("--buffer-data %s: '%s' of kernel '%s' is %s, not "
                          "a pointer",
                          s->name, x->p.name, kname, kind_name(x));
    return -1;
  }
  free(v->data[i]);
  v->data[i] = NULL;
  char *why = NULL;
  if (read_file(s->value, &v->data[i], &v->data_bytes[i], &why)) {
    *err = aucs_xasprintf("--buffer-data %s: %s", s->name, why);
    free(why);
    return -1;
  }
  if (!v->bytes[i])
    v->bytes[i] = v->data_bytes[i];
  free((char *)v->data_as[i]);
  v->data_as[i] = aucs_xstrdup(s->value);
  return 1;
}

/* Each --texture's PARAM is a pointer parameter of some kernel (its TEX is
 * a parameter or a texture reference: the run resolves it). */
static int check_textures(const aucs_inputs *const *ins, size_t n,
                          const aucs_inputs_user *u, char **err) {
  for (size_t j = 0; j < u->ntextures; j++) {
    const char *p = u->textures[j].value;
    int found = 0;
    for (size_t k = 0; k < n && !found; k++) {
      long i = ins[k] ? aucs_inputs_find(ins[k], p, strlen(p)) : -1;
      found = i >= 0 && ins[k]->v[i].p.kind == AUCS_PARAM_POINTER &&
              !ins[k]->v[i].field;
    }
    if (!found) {
      *err = aucs_xasprintf("--texture %s=%s: no kernel has a pointer "
                            "parameter '%s'",
                            u->textures[j].name, p, p);
      return -1;
    }
  }
  return 0;
}

typedef int (*binder)(const aucs_inputs *, const char *, aucs_inputs_values *,
                      const aucs_inputs_setting *, char **);

static int bind_all(const aucs_inputs *const *ins, const char *const *names,
                    aucs_inputs_values *vals, size_t n,
                    const aucs_inputs_setting *set, size_t nset,
                    const char *flag, binder f, char **err) {
  for (size_t j = 0; j < nset; j++) {
    int found = 0;
    for (size_t k = 0; k < n; k++) {
      int rc = ins[k] ? f(ins[k], names[k], &vals[k], &set[j], err) : 0;
      if (rc < 0)
        return -1;
      found |= rc;
    }
    if (!found) {
      *err = unknown(ins, names, n, flag, set[j].name);
      return -1;
    }
  }
  return 0;
}

int aucs_inputs_bind(const aucs_inputs *const *ins, const char *const *names,
                     aucs_inputs_values *vals, size_t n,
                     const aucs_inputs_user *u, char **err) {
  if (bind_all(ins, names, vals, n, u->args, u->nargs, "--arg", bind_value,
               err))
    return -1;
  if (bind_all(ins, names, vals, n, u->buffers, u->nbuffers, "--buffer",
               bind_buffer, err))
    return -1;
  if (bind_all(ins, names, vals, n, u->data, u->ndata, "--buffer-data",
               bind_data, err))
    return -1;
  return check_textures(ins, n, u, err);
}
