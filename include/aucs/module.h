/*
 * module: reading kernels into LLVM modules, and writing them back.
 *
 * Input by extension: `.bc` (bitcode), `.ll` (textual IR), `.cu` (CUDA,
 * compiled with clang-22 for NVPTX; see aucs_load_options). Anything else is
 * sniffed: the bitcode magic means bitcode, otherwise textual IR.
 *
 * Every loaded module is checked to be NVPTX (target triple nvptx or nvptx64).
 * The host side of a `.cu` loads only through aucs_module_load_host.
 * Limitation: a `.cu` is compiled for one GPU arch.
 */
#ifndef AUCS_MODULE_H
#define AUCS_MODULE_H

#include <llvm-c/Types.h>
#include <stddef.h>

typedef struct aucs_load_options {
  /* clang executable for .cu input; NULL: $AUCS_CLANG, else the clang-22
   * aucs was built against. */
  const char *clang;
  /* CUDA SDK root; NULL: $CUDA_PATH, else /usr/local/cuda when it has
   * include/cuda_runtime.h, else the SDK-free header aucs ships. */
  const char *cuda_path;
  int no_cuda_sdk;        /* always use the shipped header, never an SDK */
  int opt_level;          /* .cu only: 0 (then sroa,simplifycfg), 1, 2, 3 */
  const char *gpu_arch;   /* .cu only: NULL means "sm_70" */
  const char **extra_args; /* .cu only: more clang arguments (-I, -D, ...) */
  int n_extra_args;
  /* The input must be a regular file of at most this many bytes; 0 means
   * AUCS_MAX_INPUT_DEFAULT. */
  size_t max_input_size;
  /* .bc/.ll: parse and verify in a forked child first (aucs/sandbox.h), so
   * that a crash or abort inside LLVM on a corrupt file is an error, not
   * the caller's death. Front ends that own their process only. */
  int isolate;
  /* With isolate: the command's time budget (budget.h), or NULL. The load
   * ends with "time budget (S s) reached while loading" once it is spent
   * (the child is killed). */
  struct aucs_budget *budget;
} aucs_load_options;

#define AUCS_MAX_INPUT_DEFAULT ((size_t)1 << 30)

/* An LLVM module with the context that owns it. */
typedef struct aucs_module aucs_module;

/* Load path. 0 on success with *out set (dispose with aucs_module_free);
 * nonzero with *err set to one line naming the file and the problem (free
 * with free()). A file that is not regular or is larger than the limit is
 * refused before it is read. A .cu that does not compile yields clang's
 * diagnostics in *err after the first line. opts may be NULL for the defaults.
 */
int aucs_module_load(const char *path, const aucs_load_options *opts,
                     aucs_module **out, char **err);
/* The host side of the .cu at path: clang --cuda-host-only at -O2 (opts'
 * opt_level does not apply) with opts' SDK, GPU arch and extra arguments,
 * as aucs_module_load compiles the device side. Needs a CUDA SDK (host code
 * includes its runtime headers): without one (none installed, or
 * no_cuda_sdk) nonzero with "PATH: host code needs a CUDA SDK (none
 * found)". 0 with *out (dispose with aucs_module_free, a host-triple
 * module); nonzero with *err as aucs_module_load (free with free()). */
int aucs_module_load_host(const char *path, const aucs_load_options *opts,
                          aucs_module **out, char **err);
LLVMModuleRef aucs_module_llvm(const aucs_module *m);
LLVMContextRef aucs_module_context(const aucs_module *m);
void aucs_module_free(aucs_module *m);

/* The version the CUDA SDK at root states (CUDA_VERSION in
 * root/include/cuda.h: 13000 is 13.0): 0 with *major and *minor, -1 when
 * the header is missing or defines no version number. */
int aucs_module_cuda_version(const char *root, int *major, int *minor);

/* 1 when path names CUDA source, which the loader compiles (".cu"); 0 for
 * anything else or NULL. */
int aucs_module_is_cu(const char *path);
/* The CUDA SDK root o compiles with (--cuda-path, $CUDA_PATH, else
 * /usr/local/cuda when it holds the runtime), or NULL (no_cuda_sdk, or none
 * installed). Kernels defined under it are library kernels (detect.h). */
const char *aucs_module_sdk(const aucs_load_options *o);

/* 0 when m targets NVPTX; otherwise nonzero and *err (free with free()). */
int aucs_module_check_nvptx(LLVMModuleRef m, char **err);

/* Write m to path: textual IR when path ends in ".ll", bitcode otherwise.
 * A regular file, or a name that does not exist yet, is written atomically
 * (a temp file beside it, then rename). Any other existing target keeps its
 * kind: a device or FIFO is opened and written through (never created,
 * truncated or replaced); a symbolic link stays a link and the file it
 * resolves to is written by these rules; a directory or a link to nothing is
 * refused. 0 on success, nonzero and *err otherwise. */
int aucs_module_write(LLVMModuleRef m, const char *path, char **err);

#endif
