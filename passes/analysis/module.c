/*
 * module: reading kernels into LLVM modules, and writing them back.
 *
 * Loading, in steps:
 *   1. Read the whole file (so a missing, unreadable, empty file or a
 *      directory is reported before anything else runs). Only a regular
 *      file of at most max_input_size bytes is read: a device or a FIFO
 *      could block or never end.
 *   2. Pick the reader: `.bc` bitcode, `.ll` textual IR, `.cu` compile with
 *      clang first, anything else sniffed by its magic number.
 *   3. Parse in a fresh context whose diagnostic handler keeps LLVM's error
 *      text instead of letting LLVM print it and exit.
 *   4. `.cu` at -O0: run `function(sroa,simplifycfg)` so the IR is SSA.
 *   5. Check the module targets NVPTX and passes the verifier.
 *
 * With `isolate` (the CLI), steps 3 and 5 for a .bc/.ll run first in a
 * forked child under a memory and a time limit (aucs/sandbox.h): LLVM's
 * readers can crash or abort on corrupt input (a broken module with debug
 * info is a fatal error; a bogus record can exhaust memory), and the child
 * dying becomes "corrupt input". The parent then parses bitcode it knows
 * loads: the file itself, or for a .ll the child's bitcode of it.
 *
 * `.cu` compilation runs clang through posix_spawnp (no shell) into a temp
 * file; clang's stdout and stderr are captured for the error message. With
 * a CUDA SDK clang uses its own CUDA headers; without one (or with
 * no_cuda_sdk) it gets -nocudainc and the shipped include/cuda/aucs_cuda.h.
 * With the SDK clang is told the version the SDK's cuda.h states
 * (CUDA_VERSION), which it cannot tell itself for a release newer than it
 * knows (CUDA 13 for clang 22): the launches `<<<...>>>` of host code then
 * compile as cudaLaunchKernel calls. CUDA 13 keeps its C++ libraries (CUB,
 * Thrust, libcu++: <cub/cub.cuh>, <cuda/std/...>) in include/cccl, which
 * nvcc searches and clang does not: that folder is added as a system
 * include folder when the SDK has it. With the SDK it also gets the
 * precompiled prelude of aucs/pch.h, and compiles once more without it when
 * clang refuses the prelude. The device compile asks for complete debug
 * info (-fstandalone-debug): with clang's default, a struct whose
 * constructor the device code never emits (a class template such as
 * CParam<T> with a host constructor) is only declared, and its fields would
 * be named by position (inputs.h).
 *
 * Writing replaces a regular file atomically (temp file beside it, rename);
 * a device or FIFO is written through and a symbolic link keeps being one,
 * so `-o /dev/null` never turns /dev/null into a file.
 *
 * The host side (aucs_module_load_host, for aucs/hostlaunch.h) compiles the
 * same way with --cuda-host-only at -O2, without the prelude, and only with
 * an SDK: host code needs its runtime headers. It is neither NVPTX nor
 * isolated (clang wrote it).
 *
 * Limitation: one device compilation for one GPU arch.
 */
#include "aucs/module.h"
#include "aucs/tempfiles.h"

#include "aucs/budget.h"
#include "aucs/pch.h"
#include "aucs/sandbox.h"
#include "aucs/util.h"

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/BitWriter.h>
#include <llvm-c/Core.h>
#include <llvm-c/Error.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Transforms/PassBuilder.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef AUCS_CLANG_PATH
#define AUCS_CLANG_PATH "clang-22"
#endif
#ifndef AUCS_CUDA_HEADER_DIR
#define AUCS_CUDA_HEADER_DIR "include/cuda"
#endif

extern char **environ;

struct aucs_module {
  LLVMContextRef ctx;
  LLVMModuleRef mod;
  aucs_buf diag; /* the first error LLVM reported through the context */
};

/* A file's bytes (NUL-terminated for the sniffer's sake). */
typedef struct blob {
  char *data;
  size_t len;
} blob;

enum kind { KIND_BITCODE, KIND_IR, KIND_CUDA };

/* ---- small helpers ---- */

static int fail(char **err, const char *path, const char *fmt, ...)
    AUCS_PRINTF(3, 4);
static int fail(char **err, const char *path, const char *fmt, ...) {
  aucs_buf b = {0};
  aucs_buf_printf(&b, "%s: ", path);
  va_list ap;
  va_start(ap, fmt);
  aucs_buf_vprintf(&b, fmt, ap);
  va_end(ap);
  *err = aucs_buf_take(&b);
  return 1;
}

/* strerror, lower-cased like the rest of our messages. */
static int fail_errno(char **err, const char *path, const char *what, int e) {
  *err = aucs_errno_text(path, what, e);
  return 1;
}

static int ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), k = strlen(suffix);
  return n >= k && strcmp(s + n - k, suffix) == 0;
}

/* The first line of s, without a trailing newline; free with free(). */
static char *first_line(const char *s) {
  size_t n = strcspn(s, "\n");
  char *line = aucs_xmalloc(n + 1);
  memcpy(line, s, n);
  line[n] = '\0';
  return line;
}

/* Only regular files of at most max bytes (aucs_read_regular). */
static int read_file(const char *path, size_t max, blob *out, char **err) {
  if (aucs_read_regular(path, max, "a kernel file", "--max-input-size",
                        &out->data, &out->len, err))
    return 1;
  if (out->len == 0) {
    free(out->data);
    return fail(err, path, "empty file");
  }
  return 0;
}

/* Raw bitcode 'BC' 0xC0DE, or the wrapper header 0x0B17C0DE (little-endian). */
static int is_bitcode(const blob *b) {
  const unsigned char *p = (const unsigned char *)b->data;
  if (b->len < 4)
    return 0;
  return (p[0] == 'B' && p[1] == 'C' && p[2] == 0xC0 && p[3] == 0xDE) ||
         (p[0] == 0xDE && p[1] == 0xC0 && p[2] == 0x17 && p[3] == 0x0B);
}

int aucs_module_is_cu(const char *path) {
  return path && ends_with(path, ".cu");
}

static enum kind kind_of(const char *path, const blob *b) {
  if (ends_with(path, ".bc"))
    return KIND_BITCODE;
  if (ends_with(path, ".ll"))
    return KIND_IR;
  if (aucs_module_is_cu(path))
    return KIND_CUDA;
  return is_bitcode(b) ? KIND_BITCODE : KIND_IR;
}

/* ---- parsing ---- */

static void on_diagnostic(LLVMDiagnosticInfoRef di, void *opaque) {
  aucs_buf *diag = opaque;
  if (LLVMGetDiagInfoSeverity(di) != LLVMDSError || diag->len)
    return;
  char *text = LLVMGetDiagInfoDescription(di);
  aucs_buf_puts(diag, text);
  LLVMDisposeMessage(text);
}

static aucs_module *module_new(void) {
  aucs_module *m = aucs_xcalloc(1, sizeof *m);
  m->ctx = LLVMContextCreate();
  LLVMContextSetDiagnosticHandler(m->ctx, on_diagnostic, &m->diag);
  return m;
}

static int parse_bitcode(aucs_module *m, const char *path, const blob *b,
                         char **err) {
  LLVMMemoryBufferRef buf =
      LLVMCreateMemoryBufferWithMemoryRange(b->data, b->len, path, 0);
  int bad = LLVMParseBitcodeInContext2(m->ctx, buf, &m->mod);
  LLVMDisposeMemoryBuffer(buf);
  if (!bad)
    return 0;
  m->mod = NULL;
  char *why = first_line(m->diag.len ? m->diag.data : "unreadable");
  fail(err, path, "corrupt bitcode: %s", why);
  free(why);
  return 1;
}

/* LLVM's "<path>:3:5: error: msg\n<source>\n<caret>" becomes "3:5: msg". */
static char *ir_problem(const char *msg, const char *path) {
  char *line = first_line(msg);
  const char *s = line;
  size_t n = strlen(path);
  if (strncmp(s, path, n) == 0 && s[n] == ':')
    s += n + 1;
  aucs_buf b = {0};
  const char *tag = strstr(s, " error: ");
  if (tag)
    aucs_buf_printf(&b, "%.*s %s", (int)(tag - s), s, tag + 8);
  else
    aucs_buf_puts(&b, s);
  free(line);
  return aucs_buf_take(&b);
}

static int parse_ir(aucs_module *m, const char *path, const blob *b,
                    char **err) {
  /* LLVMParseIRInContext takes the buffer over */
  LLVMMemoryBufferRef buf =
      LLVMCreateMemoryBufferWithMemoryRangeCopy(b->data, b->len, path);
  char *msg = NULL;
  if (!LLVMParseIRInContext(m->ctx, buf, &m->mod, &msg))
    return 0;
  m->mod = NULL;
  char *problem = ir_problem(msg ? msg : "unreadable", path);
  fail(err, path, "invalid IR: %s", problem);
  free(problem);
  LLVMDisposeMessage(msg);
  return 1;
}

/* ---- compiling .cu ---- */

/* A growing argv whose strings live in an arena. */
typedef struct args {
  const char **v;
  size_t n, cap;
  aucs_arena *mem;
} args;

static void add(args *a, const char *s) {
  if (a->n + 2 > a->cap) {
    a->cap = a->cap ? 2 * a->cap : 32;
    a->v = aucs_xrealloc(a->v, a->cap * sizeof *a->v);
  }
  a->v[a->n++] = s;
  a->v[a->n] = NULL;
}

static void addf(args *a, const char *fmt, ...) AUCS_PRINTF(2, 3);
static void addf(args *a, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *s = aucs_xvasprintf(fmt, ap);
  va_end(ap);
  add(a, aucs_arena_strdup(a->mem, s));
  free(s);
}

static void args_free(args *a) {
  free(a->v);
  aucs_arena_free(a->mem);
}

static const char *nonempty_env(const char *name) {
  const char *v = getenv(name);
  return v && *v ? v : NULL;
}

static int has_cuda_runtime(const char *root) {
  char *p = aucs_xasprintf("%s/include/cuda_runtime.h", root);
  int ok = access(p, R_OK) == 0;
  free(p);
  return ok;
}

/* The CUDA SDK root to use, or NULL for the SDK-free header. */
static const char *cuda_sdk(const aucs_load_options *o) {
  if (o->no_cuda_sdk)
    return NULL;
  if (o->cuda_path)
    return o->cuda_path;
  const char *env = nonempty_env("CUDA_PATH");
  if (env && has_cuda_runtime(env))
    return env;
  return has_cuda_runtime("/usr/local/cuda") ? "/usr/local/cuda" : NULL;
}

const char *aucs_module_sdk(const aucs_load_options *o) {
  return cuda_sdk(o);
}

/* Without an SDK clang assumes PTX 4.2: ask for one the arch accepts. */
static int ptx_for(const char *arch) {
  const char *digits = strpbrk(arch, "0123456789");
  int sm = digits ? atoi(digits) : 70;
  return sm <= 80 ? 70 : sm <= 90 ? 78 : 90;
}

int aucs_module_cuda_version(const char *root, int *major, int *minor) {
  char *p = aucs_xasprintf("%s/include/cuda.h", root);
  FILE *f = fopen(p, "r");
  free(p);
  long v = -1;
  char line[512];
  while (f && v < 0 && fgets(line, sizeof line, f)) {
    char *w = line + strspn(line, " \t");
    if (*w++ != '#')
      continue;
    w += strspn(w, " \t");
    if (strncmp(w, "define", 6) || !strchr(" \t", w[6]))
      continue;
    w += 6 + strspn(w + 6, " \t");
    if (strncmp(w, "CUDA_VERSION", 12) || !strchr(" \t", w[12]))
      continue;
    char *end;
    v = strtol(w + 12, &end, 10);
    if (end == w + 12 || v < 1000 || v > 99990 || !strchr(" \t\r\n", *end))
      v = -2; /* defined, but not as a version number: stop */
  }
  if (f)
    fclose(f);
  if (v < 0)
    return -1;
  *major = (int)(v / 1000);
  *minor = (int)(v % 1000 / 10);
  return 0;
}

/* With an SDK: its root, and the version its headers state. clang knows
 * CUDA up to some release; a newer SDK is "unknown" to it, and it then
 * lowers `<<<...>>>` through cudaConfigureCall, which CUDA 12 deprecated and
 * CUDA 13's headers no longer declare. Telling clang the SDK's version
 * makes it use cudaLaunchKernel, as nvcc does (CUDA 9.2 and later). */
static void add_sdk_args(args *a, const aucs_load_options *o) {
  const char *sdk = cuda_sdk(o);
  if (sdk) {
    int major, minor;
    addf(a, "--cuda-path=%s", sdk);
    if (!aucs_module_cuda_version(sdk, &major, &minor)) {
      add(a, "-Xclang");
      addf(a, "-target-sdk-version=%d.%d", major, minor);
    }
    char *cccl = aucs_xasprintf("%s/include/cccl", sdk);
    struct stat st;
    if (!stat(cccl, &st) && S_ISDIR(st.st_mode)) {
      add(a, "-isystem");
      add(a, aucs_arena_strdup(a->mem, cccl));
    }
    free(cccl);
    return;
  }
  const char *dir = nonempty_env("AUCS_CUDA_INCLUDE");
  dir = dir ? dir : AUCS_CUDA_HEADER_DIR;
  const char *arch = o->gpu_arch ? o->gpu_arch : "sm_70";
  add(a, "-nocudainc");
  addf(a, "--cuda-path=%s", dir); /* not a CUDA install: keeps clang off any */
  add(a, "-Xclang");
  add(a, "-target-feature");
  add(a, "-Xclang");
  addf(a, "+ptx%d", ptx_for(arch));
  add(a, "-include");
  add(a, "aucs_cuda.h");
  add(a, "-I");
  add(a, dir);
}

/* Whether src declares legacy texture references (`texture<`, `texture <`
 * after a non-identifier character): aucs_texture.h gives them back. */
static int uses_texture_refs(const char *src) {
  static const char word[] = "texture";
  FILE *f = fopen(src, "rb");
  if (!f)
    return 0;
  int found = 0, prev = ' ';
  size_t k = 0; /* characters of word matched */
  for (int c; !found && (c = fgetc(f)) != EOF; prev = c) {
    int starts = !(isalnum(prev) || prev == '_');
    if (k == sizeof word - 1) { /* after the word: blanks, then '<' */
      found = c == '<';
      k = c == ' ' || c == '\t' ? k : 0;
    } else if (c == word[k] && (k || starts))
      k++;
    else
      k = c == word[0] && starts;
  }
  fclose(f);
  return found;
}

static void add_texture_header(args *a, const aucs_load_options *o) {
  const char *dir = nonempty_env("AUCS_CUDA_INCLUDE");
  if (cuda_sdk(o)) {
    add(a, "-I");
    add(a, dir ? dir : AUCS_CUDA_HEADER_DIR);
  }
  add(a, "-include");
  add(a, "aucs_texture.h");
}

/* The device side (host 0: at o's level) or the host side (host 1:
 * always -O2, which folds constants through dim3 and inlines the stubs). */
static void clang_args(args *a, const char *clang, const char *src,
                       const char *out, const char *pch, int host,
                       const aucs_load_options *o) {
  int level = host               ? 2
              : o->opt_level < 0 ? 0
              : o->opt_level > 3 ? 3
                                 : o->opt_level;
  static const char *const fixed[] = {"-emit-llvm", "-c", "-g",
                                      "-fno-discard-value-names",
                                      "-Wno-unknown-cuda-version"};
  a->mem = aucs_arena_new();
  add(a, clang);
  add(a, "-x");
  add(a, "cuda");
  add(a, host ? "--cuda-host-only" : "--cuda-device-only");
  if (!host)
    add(a, "-nocudalib");
  for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
    add(a, fixed[i]);
  if (!host) /* every struct's members, for the names of its fields */
    add(a, "-fstandalone-debug");
  addf(a, "--cuda-gpu-arch=%s", o->gpu_arch ? o->gpu_arch : "sm_70");
  addf(a, "-O%d", level);
  if (level == 0) {
    add(a, "-Xclang");
    add(a, "-disable-O0-optnone");
  }
  add_sdk_args(a, o);
  if (uses_texture_refs(src))
    add_texture_header(a, o);
  for (int i = 0; i < o->n_extra_args; i++)
    add(a, o->extra_args[i]);
  if (pch) {
    add(a, "-Xclang");
    add(a, "-include-pch");
    add(a, "-Xclang");
    add(a, pch);
  }
  add(a, "-o");
  add(a, out);
  add(a, "--");
  add(a, src);
}

/* Run argv with stdin from /dev/null and stdout+stderr into *output. Returns
 * 0 and the wait status, or an errno when clang could not be started. */
static int spawn(const args *a, aucs_buf *output, int *status) {
  int fds[2];
  if (pipe(fds))
    return errno;
  fcntl(fds[0], F_SETFD, FD_CLOEXEC);
  fcntl(fds[1], F_SETFD, FD_CLOEXEC);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  pid_t pid;
  int e = posix_spawnp(&pid, a->v[0], &fa, NULL, (char *const *)a->v, environ);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  if (!e) {
    aucs_temp_track_child(pid);
    blob b = {0};
    if (aucs_read_fd(fds[0], SIZE_MAX, &b.data, &b.len) == 0) {
      aucs_buf_puts(output, b.data);
      free(b.data);
    }
    while (waitpid(pid, status, 0) < 0 && errno == EINTR)
      ;
    aucs_temp_forget_child(pid);
  }
  close(fds[0]);
  return e;
}

/* 0 when prog can be run, else an errno. Checked up front because
 * posix_spawnp may report a failed exec only as exit status 127. */
static int executable(const char *prog) {
  if (strchr(prog, '/'))
    return access(prog, X_OK) == 0 ? 0 : errno;
  const char *path = nonempty_env("PATH");
  path = path ? path : "/usr/bin:/bin";
  for (const char *dir = path; *dir;) {
    size_t n = strcspn(dir, ":");
    char *cand = aucs_xasprintf("%.*s/%s", n ? (int)n : 1, n ? dir : ".", prog);
    int ok = access(cand, X_OK) == 0;
    free(cand);
    if (ok)
      return 0;
    dir += n + (dir[n] == ':');
  }
  return ENOENT;
}

static char *temp_template(void) {
  const char *dir = nonempty_env("TMPDIR");
  return aucs_xasprintf("%s/aucs-cu-XXXXXX", dir ? dir : "/tmp");
}

static const char *clang_of(const aucs_load_options *o) {
  const char *clang = o->clang ? o->clang : nonempty_env("AUCS_CLANG");
  return clang ? clang : AUCS_CLANG_PATH;
}

static int compile_with(const char *path, const aucs_load_options *o,
                        const char *out, const char *pch, int host,
                        char **err) {
  args a = {0};
  clang_args(&a, clang_of(o), path, out, pch, host, o);
  aucs_buf output = {0};
  int status = 0, rc = 0;
  int e = executable(a.v[0]);
  if (!e)
    e = spawn(&a, &output, &status);
  while (output.len && output.data[output.len - 1] == '\n')
    output.data[--output.len] = '\0';
  if (e)
    rc = fail_errno(err, path, a.v[0], e);
  else if (WIFSIGNALED(status))
    rc = fail(err, path, "does not compile (clang killed by signal %d)\n%s",
              WTERMSIG(status), output.data ? output.data : "");
  else if (WEXITSTATUS(status) != 0)
    rc =
        fail(err, path, "does not compile\n%s", output.data ? output.data : "");
  aucs_buf_free(&output);
  args_free(&a);
  return rc;
}

/* With the CUDA SDK, the precompiled prelude for path (aucs/pch.h) of the
 * device or the host (host 1) compile, or NULL. Free with free(). */
static char *prelude(const char *path, const aucs_load_options *o,
                     int host) {
  if (!cuda_sdk(o))
    return NULL;
  args a = {0};
  clang_args(&a, clang_of(o), path, "-", NULL, host, o);
  char *pch = aucs_pch_get(a.v, a.n - 4, path); /* not "-o - -- path" */
  args_free(&a);
  return pch;
}

/* Compile with the prelude when there is one (each side has its own: the
 * host side's command differs); when clang refuses it (a header changed
 * since it was built) and the compile without it works, drop it. A source
 * that does not compile fails as it would without. */
static int compile(const char *path, const aucs_load_options *o,
                   const char *out, int host, char **err) {
  char *pch = prelude(path, o, host);
  int rc = compile_with(path, o, out, pch, host, err);
  if (rc && pch) {
    free(*err);
    *err = NULL;
    rc = compile_with(path, o, out, NULL, host, err);
    if (!rc)
      aucs_pch_drop(pch);
  }
  free(pch);
  return rc;
}

static int run_o0_passes(LLVMModuleRef mod, const char *path, char **err) {
  LLVMPassBuilderOptionsRef po = LLVMCreatePassBuilderOptions();
  LLVMErrorRef e = LLVMRunPasses(mod, "function(sroa,simplifycfg)", NULL, po);
  LLVMDisposePassBuilderOptions(po);
  if (!e)
    return 0;
  char *msg = LLVMGetErrorMessage(e);
  fail(err, path, "sroa,simplifycfg failed: %s", msg);
  LLVMDisposeErrorMessage(msg);
  return 1;
}

static int load_cuda(aucs_module *m, const char *path,
                     const aucs_load_options *o, int host, char **err) {
  char *tmp = temp_template();
  int fd = mkstemp(tmp);
  if (fd < 0) {
    int e = errno;
    free(tmp);
    return fail_errno(err, path, "cannot create a temp file", e);
  }
  close(fd);
  aucs_temp_track(tmp, 0);
  int rc = compile(path, o, tmp, host, err);
  blob b = {0};
  if (!rc)
    rc = read_file(tmp, SIZE_MAX, &b, err);
  if (!rc) {
    rc = parse_bitcode(m, path, &b, err);
    free(b.data);
  }
  unlink(tmp);
  aucs_temp_forget(tmp);
  free(tmp);
  return rc;
}

/* ---- loading untrusted .bc/.ll in a child ---- */

typedef struct probe {
  const char *path;
  const blob *b;
  enum kind k;
} probe;

static int verify(LLVMModuleRef mod, const char *path, char **err);

/* In the child: parse, check and verify. A textual module comes back as
 * bitcode, so the parent does not parse the text a second time. */
static int probe_load(void *arg, int out_fd, char **msg) {
  const probe *p = arg;
  aucs_module *m = module_new();
  int rc = p->k == KIND_BITCODE ? parse_bitcode(m, p->path, p->b, msg)
                                : parse_ir(m, p->path, p->b, msg);
  if (!rc)
    LLVMSetModuleIdentifier(m->mod, p->path, strlen(p->path));
  if (!rc)
    rc = aucs_module_check_nvptx(m->mod, msg) || verify(m->mod, p->path, msg);
  if (!rc && p->k == KIND_IR && LLVMWriteBitcodeToFD(m->mod, out_fd, 0, 0))
    rc = fail(msg, p->path, "cannot pass the module on");
  aucs_module_free(m);
  return rc;
}

/* The command's budget ran out: 1 with *err saying so. */
static int budget_spent(aucs_budget *budget, const char *path, char **err) {
  if (!aucs_budget_check(budget))
    return 0;
  char *why = aucs_budget_why(budget);
  fail(err, path, "%s while loading; nothing checked", why);
  free(why);
  return 1;
}

/* Limits that grow with the input: a big .ll takes a while to parse. */
static aucs_sandbox_limits probe_limits(size_t len) {
  return (aucs_sandbox_limits){.seconds = 60 + (double)(len >> 22),
                               .memory_bytes = ((size_t)4 << 30) + 8 * len};
}

/* Load *b in a child first. On success the parent parses bitcode: *b
 * itself, or for .ll the child's bitcode of it. */
static int parse_isolated(aucs_module *m, const char *path, const blob *b,
                          enum kind k, aucs_budget *budget, char **err) {
  probe p = {path, b, k};
  aucs_sandbox_limits lim = probe_limits(b->len);
  blob bc = {0};
  char *why = NULL;
  if (budget && budget_spent(budget, path, err))
    return 1;
  if (budget && aucs_budget_left(budget) < lim.seconds)
    lim.seconds = aucs_budget_left(budget) + 0.001;
  if (aucs_sandbox_run(probe_load, &p, &lim, &bc.data, &bc.len, &why)) {
    if (budget && budget_spent(budget, path, err))
      return free(why), 1;
    size_t n = strlen(path);
    if (strncmp(why, path, n) == 0 && why[n] == ':')
      *err = why; /* the child's own message names the file */
    else {
      fail(err, path, "corrupt input: %s", why);
      free(why);
    }
    return 1;
  }
  int rc = parse_bitcode(m, path, k == KIND_IR ? &bc : b, err);
  free(bc.data);
  return rc;
}

/* ---- loading ---- */

static int verify(LLVMModuleRef mod, const char *path, char **err) {
  char *msg = NULL;
  int bad = LLVMVerifyModule(mod, LLVMReturnStatusAction, &msg);
  if (bad) {
    char *line = first_line(msg ? msg : "");
    fail(err, path, "invalid module: %s", line);
    free(line);
  }
  LLVMDisposeMessage(msg);
  return bad;
}

static int parse(aucs_module *m, const char *path, const aucs_load_options *o,
                 char **err) {
  blob b = {0};
  size_t max = o->max_input_size ? o->max_input_size : AUCS_MAX_INPUT_DEFAULT;
  if (read_file(path, max, &b, err))
    return 1;
  enum kind k = kind_of(path, &b);
  int rc = k != KIND_CUDA && o->isolate
               ? parse_isolated(m, path, &b, k, o->budget, err)
           : k == KIND_BITCODE ? parse_bitcode(m, path, &b, err)
           : k == KIND_IR      ? parse_ir(m, path, &b, err)
                               : load_cuda(m, path, o, 0, err);
  free(b.data);
  if (rc)
    return 1;
  LLVMSetModuleIdentifier(m->mod, path, strlen(path));
  if (aucs_module_check_nvptx(m->mod, err) || verify(m->mod, path, err))
    return 1;
  return k == KIND_CUDA && o->opt_level <= 0 ? run_o0_passes(m->mod, path, err)
                                             : 0;
}

int aucs_module_load(const char *path, const aucs_load_options *opts,
                     aucs_module **out, char **err) {
  static const aucs_load_options defaults = {0};
  *out = NULL;
  *err = NULL;
  aucs_module *m = module_new();
  if (parse(m, path, opts ? opts : &defaults, err)) {
    aucs_module_free(m);
    return 1;
  }
  aucs_buf_free(&m->diag);
  *out = m;
  return 0;
}

int aucs_module_load_host(const char *path, const aucs_load_options *opts,
                          aucs_module **out, char **err) {
  static const aucs_load_options defaults = {0};
  const aucs_load_options *o = opts ? opts : &defaults;
  *out = NULL;
  *err = NULL;
  if (!cuda_sdk(o))
    return fail(err, path, "host code needs a CUDA SDK (none found)");
  aucs_module *m = module_new();
  if (load_cuda(m, path, o, 1, err) || verify(m->mod, path, err)) {
    aucs_module_free(m);
    return 1;
  }
  LLVMSetModuleIdentifier(m->mod, path, strlen(path));
  aucs_buf_free(&m->diag);
  *out = m;
  return 0;
}

LLVMModuleRef aucs_module_llvm(const aucs_module *m) { return m->mod; }
LLVMContextRef aucs_module_context(const aucs_module *m) { return m->ctx; }

void aucs_module_free(aucs_module *m) {
  if (!m)
    return;
  if (m->mod)
    LLVMDisposeModule(m->mod);
  LLVMContextDispose(m->ctx);
  aucs_buf_free(&m->diag);
  free(m);
}

/* The triple's architecture (up to the first '-') is nvptx or nvptx64: a
 * corrupted one ("nvptx6\xd6-nvidia-cuda") would pass a prefix test, and
 * LLVM's tools refuse the module written with it. */
static int nvptx_arch(const char *triple) {
  size_t n = strcspn(triple, "-");
  return (n == 5 && !strncmp(triple, "nvptx", 5)) ||
         (n == 7 && !strncmp(triple, "nvptx64", 7));
}

int aucs_module_check_nvptx(LLVMModuleRef m, char **err) {
  size_t n;
  const char *id = LLVMGetModuleIdentifier(m, &n);
  const char *triple = LLVMGetTarget(m);
  if (nvptx_arch(triple))
    return 0;
  aucs_buf b = {0};
  aucs_buf_printf(&b, "%.*s: not an NVPTX module ", (int)n, id);
  if (*triple) {
    aucs_buf_puts(&b, "(target triple '");
    for (const unsigned char *c = (const unsigned char *)triple; *c; c++)
      if (*c >= 0x20 && *c < 0x7f && *c != '\\')
        aucs_buf_printf(&b, "%c", *c);
      else
        aucs_buf_printf(&b, "\\x%02x", *c);
    aucs_buf_puts(&b, "')");
  } else
    aucs_buf_puts(&b, "(it has no target triple)");
  *err = aucs_buf_take(&b);
  return 1;
}

/* ---- writing ---- */

/* Both forms go through memory, then aucs_write_file: a full disk or a
 * closed pipe is an errno there, not LLVM's stream aborting. */
int aucs_module_write(LLVMModuleRef m, const char *path, char **err) {
  if (!ends_with(path, ".ll")) {
    LLVMMemoryBufferRef mb = LLVMWriteBitcodeToMemoryBuffer(m);
    int rc = aucs_write_file(path, LLVMGetBufferStart(mb),
                             LLVMGetBufferSize(mb), err);
    LLVMDisposeMemoryBuffer(mb);
    return rc;
  }
  char *text = LLVMPrintModuleToString(m);
  int rc = aucs_write_file(path, text, strlen(text), err);
  LLVMDisposeMessage(text);
  return rc;
}
