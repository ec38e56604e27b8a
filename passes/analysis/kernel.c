/*
 * kernel: which functions of a module are CUDA kernels.
 *
 * A function is a kernel when
 *   1. its calling convention is ptx_kernel (clang >= 19), or
 *   2. `!nvvm.annotations` holds a node `!{ptr @f, ..., !"kernel", i32 1, ...}`
 *      (older clang, nvcc's NVVM): operand 0 is the function, then
 *      key/value pairs.
 * aucs_kernel_list reads the annotations once and walks the functions in
 * module order, so each kernel appears once however it is marked.
 * aucs_kernel_defined_under tells a library kernel (CUB's, in the SDK) by
 * where its debug info says it is defined.
 * aucs_kernel_template_shared tells a template instantiated more than once
 * by its mangled name: a source edit there changes every instantiation.
 */
#define _XOPEN_SOURCE 700 /* realpath */
#include "aucs/kernel.h"

#include "aucs/util.h"

#include <llvm-c/Core.h>
#include <llvm-c/DebugInfo.h>
#include <stdlib.h>
#include <string.h>

static const char annotations[] = "nvvm.annotations";

/* 1 when the pair (key, value) is `!"kernel", i32 <nonzero>`. */
static int is_kernel_pair(LLVMValueRef key, LLVMValueRef value) {
  if (!key || !value || !LLVMIsAMDString(key) || !LLVMIsAConstantInt(value))
    return 0;
  unsigned len;
  const char *s = LLVMGetMDString(key, &len);
  return s && len == 6 && memcmp(s, "kernel", 6) == 0 &&
         LLVMConstIntGetZExtValue(value) != 0;
}

/* The function an annotation node marks as a kernel, or NULL. */
static LLVMValueRef annotated_kernel(LLVMValueRef node) {
  unsigned n = LLVMGetMDNodeNumOperands(node);
  if (n < 3)
    return NULL;
  LLVMValueRef *ops = aucs_xcalloc(n, sizeof *ops);
  LLVMGetMDNodeOperands(node, ops);
  LLVMValueRef fn = ops[0] ? LLVMIsAFunction(ops[0]) : NULL;
  int kernel = 0;
  for (unsigned i = 1; fn && !kernel && i + 1 < n; i += 2)
    kernel = is_kernel_pair(ops[i], ops[i + 1]);
  free(ops);
  return kernel ? fn : NULL;
}

/* Every function the module's annotations mark as a kernel, as map keys. */
static void annotated_kernels(LLVMModuleRef m, aucs_ptrmap *out) {
  unsigned n = LLVMGetNamedMetadataNumOperands(m, annotations);
  if (n == 0)
    return;
  LLVMValueRef *nodes = aucs_xcalloc(n, sizeof *nodes);
  LLVMGetNamedMetadataOperands(m, annotations, nodes);
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef fn = nodes[i] ? annotated_kernel(nodes[i]) : NULL;
    if (fn)
      aucs_ptrmap_put(out, fn, 1);
  }
  free(nodes);
}

static int is_kernel_in(LLVMValueRef fn, const aucs_ptrmap *annotated) {
  return LLVMGetFunctionCallConv(fn) == LLVMPTXKernelCallConv ||
         aucs_ptrmap_get(annotated, fn, NULL);
}

int aucs_kernel_is(LLVMValueRef fn) {
  if (!fn || !LLVMIsAFunction(fn))
    return 0;
  aucs_ptrmap annotated = {0};
  annotated_kernels(LLVMGetGlobalParent(fn), &annotated);
  int is = is_kernel_in(fn, &annotated);
  aucs_ptrmap_free(&annotated);
  return is;
}

size_t aucs_kernel_list(LLVMModuleRef m, LLVMValueRef **out) {
  aucs_ptrmap annotated = {0};
  annotated_kernels(m, &annotated);
  LLVMValueRef *list = NULL;
  size_t n = 0;
  for (LLVMValueRef fn = LLVMGetFirstFunction(m); fn;
       fn = LLVMGetNextFunction(fn)) {
    if (LLVMIsDeclaration(fn) || !is_kernel_in(fn, &annotated))
      continue;
    list = aucs_xrealloc(list, (n + 1) * sizeof *list);
    list[n++] = fn;
  }
  aucs_ptrmap_free(&annotated);
  *out = list;
  return n;
}

/* The length of "_Z<len><name>I" when mangled names a template instance,
 * else 0. */
static size_t template_prefix(const char *mangled) {
  if (!mangled || strncmp(mangled, "_Z", 2))
    return 0;
  char *end;
  unsigned long n = strtoul(mangled + 2, &end, 10);
  if (end == mangled + 2 || strlen(end) <= n || end[n] != 'I')
    return 0;
  return (size_t)(end + n + 1 - mangled);
}

int aucs_kernel_template_shared(const char *mangled, LLVMModuleRef m) {
  size_t n = template_prefix(mangled), count = 0;
  if (!n || !m)
    return n != 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
       f = LLVMGetNextFunction(f)) {
    size_t len;
    const char *name = LLVMGetValueName2(f, &len);
    if (LLVMCountBasicBlocks(f) && len > n && !strncmp(name, mangled, n))
      count++;
  }
  return count > 1;
}

/* path resolved when it exists, else a copy of it. */
static char *resolved(const char *path) {
  char *real = realpath(path, NULL);
  return real ? real : aucs_xstrdup(path);
}

char *aucs_kernel_file(LLVMValueRef fn) {
  LLVMMetadataRef sp = fn ? LLVMGetSubprogram(fn) : NULL;
  LLVMMetadataRef file = sp ? LLVMDIScopeGetFile(sp) : NULL;
  unsigned n = 0, dn = 0;
  const char *name = file ? LLVMDIFileGetFilename(file, &n) : NULL;
  const char *dir = file ? LLVMDIFileGetDirectory(file, &dn) : NULL;
  if (!name || !n)
    return NULL;
  if (name[0] == '/' || !dn)
    return aucs_xasprintf("%.*s", (int)n, name);
  return aucs_xasprintf("%.*s/%.*s", (int)dn, dir, (int)n, name);
}

int aucs_kernel_defined_under(LLVMValueRef fn, const char *root) {
  char *path = root ? aucs_kernel_file(fn) : NULL;
  if (!path)
    return 0;
  char *p = resolved(path), *r = resolved(root);
  size_t k = strlen(r);
  while (k > 1 && r[k - 1] == '/')
    k--;
  int under = !strncmp(p, r, k) && p[k] == '/';
  free(path);
  free(p);
  free(r);
  return under;
}
