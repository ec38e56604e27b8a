/*
 * hostlaunch: the kernel launches a translation unit's host code makes
 * (passes/analysis/hostlaunch.c).
 *
 * A real application states every launch in its host code, usually a few
 * lines from the kernel: `k<<<(n + 255) / 256, 256>>>(out, in, n)`. aucs
 * compiles the host side of a .cu to LLVM IR (clang --cuda-host-only, -O2
 * without inlining, so the constants of macros, template parameters and
 * local variables are folded while each launch stays one call) and reads
 * each launch: the launch configuration pushed by
 * `__cudaPushCallConfiguration(grid, block, shared bytes, stream)` followed
 * by the kernel's device stub call (`<<<...>>>`), or a direct
 * `cudaLaunchKernel`/`cudaLaunchCooperativeKernel` call on a kernel. What is
 * a constant after folding is known; the rest is left open (a grid computed
 * from a size read at run time).
 *
 * Limitation: a dimension is known only when its whole value is a constant
 * (a grid `(n + 255) / 256` over a runtime n is open, with no tie to n);
 * struct and pointer arguments are never known; launches through
 * cudaLaunchKernelEx, CUDA graphs or a function pointer are not seen.
 */
#ifndef AUCS_HOSTLAUNCH_H
#define AUCS_HOSTLAUNCH_H

#include "aucs/module.h"

#include <llvm-c/Types.h>
#include <stddef.h>
#include <stdint.h>

/* One kernel argument at a launch: known when the host passes a constant
 * int or float. bits as `--arg` stores a value: an integer of width w
 * zero-extended from w bits, a float as its IEEE-754 bits (float in the low
 * 32 bits), a double as its 64 bits. */
typedef struct aucs_host_arg {
  int known;
  uint64_t bits;
} aucs_host_arg;

typedef struct aucs_host_launch {
  char *kernel; /* the device kernel's mangled name ("_Z5scalePfPKffi") */
  /* Where the launch is, "main.cu:75" (the debug info's file name as clang
   * was given it, and the line), or NULL without debug info. */
  char *where;
  /* grid[i], block[i] when bit i (x = 0, y = 1, z = 2) of grid_known,
   * block_known is set. */
  uint32_t grid[3], block[3];
  unsigned grid_known, block_known;
  int shared_known; /* dynamic shared bytes (the third <<<>>> operand) */
  uint64_t shared;
  int cooperative; /* cudaLaunchCooperativeKernel */
  aucs_host_arg *args; /* per kernel parameter, in order */
  size_t nargs;
} aucs_host_launch;

/* Every launch of a translation unit, in the order of the host code. */
typedef struct aucs_host_launches {
  aucs_host_launch *v;
  size_t n;
} aucs_host_launches;

/* The launches in host, the host-side module of a .cu. 0 with *out filled
 * (free with aucs_hostlaunch_free; none found is success with n = 0). */
int aucs_hostlaunch_find(LLVMModuleRef host, aucs_host_launches *out);

/* Compile the host side of the .cu at path with o's SDK, include paths and
 * defines (the device compile's options), then aucs_hostlaunch_find. 0 with
 * *out filled, nonzero with *err (free with free()) when the host side does
 * not compile (e.g. without a CUDA SDK, whose runtime headers host code
 * needs). A file with no launch in its text ("<<<", "cudaLaunch") is not
 * compiled: 0 with n = 0. */
int aucs_hostlaunch_load(const char *path, const aucs_load_options *o,
                         aucs_host_launches *out, char **err);

void aucs_hostlaunch_free(aucs_host_launches *l);

/* The launches of kernel (mangled name) in l: the index of the first at or
 * after from, or l->n when none. */
size_t aucs_hostlaunch_next(const aucs_host_launches *l, const char *kernel,
                            size_t from);

/* The device kernel a host function's mangled name stands for: a device
 * stub "_Z20__device_stub__scalePfPKffi" -> "_Z5scalePfPKffi" (the
 * "__device_stub__" prefix and its 15 characters of the name's length
 * removed). NULL when mangled names no stub. Free with free(). */
char *aucs_hostlaunch_kernel_of_stub(const char *mangled);

#endif
