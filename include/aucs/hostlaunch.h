/*
 * hostlaunch: the kernel launches a translation unit's host code makes
 * (passes/analysis/hostlaunch.c).
 *
 * A real application states every launch in its host code, usually a few
 * lines from the kernel: `k<<<(n + 255) / 256, 256>>>(out, in, n)`. aucs
 * compiles the host side of a .cu to LLVM IR (aucs_module_load_host: clang
 * --cuda-host-only at -O2, with inlining, so the constants of macros,
 * template parameters, dim3 variables and small helpers are folded) and
 * reads each launch: the launch configuration pushed by
 * `__cudaPushCallConfiguration(grid, block, shared bytes, stream)` followed
 * by the kernel's device stub, called or inlined into a `cudaLaunchKernel`
 * (`<<<...>>>`), or a direct `cudaLaunchKernel`/`cudaLaunchCooperativeKernel`
 * call on a kernel. What is a constant after folding is known; the rest is
 * left open (a grid computed from a size read at run time).
 *
 * A grid the host computes from values it also passes to the kernel is
 * tied to them: `k<<<(n + 255) / 256, 256>>>(p, n)` gives the grid as an
 * expression over argument 1 (aucs_host_expr), so whoever chooses n can
 * compute the launch; an argument that is the same host value as an
 * earlier one (`k(w, h, w)`) is tied to it.
 *
 * A member of a configuration global its static constructor fills, and a
 * parameter of a launching helper every call passes the same, are
 * constants too (hostfold.h).
 *
 * An argument the host computes at run time by an operation that bounds it
 * (`i % 256`, `x & 31`) keeps those bounds: the search chooses it within.
 *
 * Limitation: a dimension is known only when its value (or its 32-bit half
 * of the packed x/y) is a constant, or tied through integer arithmetic
 * (+ - * / % shifts, and, or, xor, extensions) to scalar arguments; a
 * value the host computes otherwise is open; struct and pointer arguments are never
 * known; launches through cudaLaunchKernelEx, CUDA graphs or a function
 * pointer are not seen, nor are launches in a system header alone; a
 * launching helper with external linkage that -O2 inlines shows twice (in
 * its caller, folded, and in its own body, open).
 */
#ifndef AUCS_HOSTLAUNCH_H
#define AUCS_HOSTLAUNCH_H

#include "aucs/module.h"

#include <llvm-c/Types.h>
#include <stddef.h>
#include <stdint.h>

/* One kernel argument at a launch: known when the host passes a constant
 * int or float. bits as `--arg` stores a value: an integer of width w
 * zero-extended from w bits (a bool as 0 or 1), a float as its IEEE-754
 * bits (float in the low 32 bits), a double as its 64 bits. */
typedef struct aucs_host_arg {
  int known;
  uint64_t bits;
  /* Not known, but the host passes the same value as argument same_as - 1
   * (an earlier one, not itself tied); 0: none. */
  unsigned same_as;
  /* Not known, but the host's computation bounds it: lo <= bits <= hi,
   * unsigned in the argument's width (`i % 256`, `x & 31`, a bool widened,
   * a choice between two constants). */
  int ranged;
  uint64_t lo, hi;
} aucs_host_arg;

/* A value the host computes from the kernel's arguments, as a postfix
 * program: each op pushes a value of `width` bits (zero-extended), ARG the
 * argument `arg`'s bits, CONST k, the others pop their operands (two for
 * the binary ones, one for the casts; SEXT: from k bits). */
typedef enum aucs_host_opcode {
  AUCS_HX_CONST, AUCS_HX_ARG,  AUCS_HX_ADD,  AUCS_HX_SUB,  AUCS_HX_MUL,
  AUCS_HX_UDIV,  AUCS_HX_SDIV, AUCS_HX_UREM, AUCS_HX_SREM, AUCS_HX_SHL,
  AUCS_HX_LSHR,  AUCS_HX_ASHR, AUCS_HX_AND,  AUCS_HX_OR,   AUCS_HX_XOR,
  AUCS_HX_ZEXT,  AUCS_HX_SEXT, AUCS_HX_TRUNC
} aucs_host_opcode;

typedef struct aucs_host_op {
  unsigned char op, width;
  unsigned arg;
  uint64_t k;
} aucs_host_op;

typedef struct aucs_host_expr {
  aucs_host_op *ops; /* n == 0: none */
  size_t n;
} aucs_host_expr;

typedef struct aucs_host_launch {
  char *kernel; /* the device kernel's mangled name ("_Z5scalePfPKffi") */
  /* Where the launch is, "main.cu:75" (the debug info's file name as clang
   * was given it, and the line), or NULL without debug info. */
  char *where;
  /* grid[i], block[i] when bit i (x = 0, y = 1, z = 2) of grid_known,
   * block_known is set. */
  uint32_t grid[3], block[3];
  unsigned grid_known, block_known;
  /* block.x, when not known, is a multiple of this: the host computes it
   * as `32 * warps` or `warps << 5` (0: nothing known). */
  uint32_t block_multiple;
  int shared_known; /* dynamic shared bytes (the third <<<>>> operand) */
  uint64_t shared;
  int cooperative; /* cudaLaunchCooperativeKernel */
  /* Each grid dimension that is not known, as computed from the arguments
   * (n == 0 when it is not computable). */
  aucs_host_expr grid_expr[3];
  /* Per kernel parameter, in order: the slots of the argument array the
   * device stub hands cudaLaunchKernel (a struct passed by value is one
   * parameter, however many registers the host ABI splits it into). */
  aucs_host_arg *args;
  size_t nargs;
} aucs_host_launch;

/* Every launch of a translation unit, in the order of the host code. */
typedef struct aucs_host_launches {
  aucs_host_launch *v;
  size_t n;
} aucs_host_launches;

/* The launches in host, the host-side module of a .cu (any -O level;
 * clang -O0 leaves every dimension open). 0 with *out filled (free with
 * aucs_hostlaunch_free; none found is success with n = 0). */
int aucs_hostlaunch_find(LLVMModuleRef host, aucs_host_launches *out);

/* Compile the host side of the .cu at path with o's SDK, include paths and
 * defines (the device compile's options; o may be NULL), then
 * aucs_hostlaunch_find. 0 with *out filled; nonzero with *out empty and
 * *err, one line (free with free()), when the file cannot be read or the
 * host side does not compile: "PATH: host code needs a CUDA SDK (none
 * found)" without an SDK (none installed, or o->no_cuda_sdk), whose runtime
 * headers host code needs; "PATH: does not compile (host side): <clang's
 * first error>". A file with no launch in its text ("<<<", "cudaLaunch"),
 * nor in a header it includes with quotes, is not compiled: 0 with
 * n = 0. */
int aucs_hostlaunch_load(const char *path, const aucs_load_options *o,
                         aucs_host_launches *out, char **err);

/* Frees what l holds and leaves it empty (n = 0). */
void aucs_hostlaunch_free(aucs_host_launches *l);

/* The value of e for the arguments args[0..nargs) (bits as aucs_host_arg
 * holds them): 0 with *out, -1 when e divides by zero, shifts by its width
 * or more, or reads an argument past nargs. */
int aucs_hostlaunch_eval(const aucs_host_expr *e, const uint64_t *args,
                         size_t nargs, uint64_t *out);

/* The launches of kernel (mangled name) in l: the index of the first at or
 * after from, or l->n when none. */
size_t aucs_hostlaunch_next(const aucs_host_launches *l, const char *kernel,
                            size_t from);

/* The device kernel a host function's mangled name stands for: a device
 * stub "_Z20__device_stub__scalePfPKffi" -> "_Z5scalePfPKffi" (the
 * "__device_stub__" prefix and its 15 characters of the name's length
 * removed from the function's own name, also inside a nested name:
 * "_ZN2ns16__device_stub__kEPi" -> "_ZN2ns1kEPi"; an extern "C" stub
 * "__device_stub__k" -> "k"). NULL when mangled names no stub. Free with
 * free(). */
char *aucs_hostlaunch_kernel_of_stub(const char *mangled);

#endif
