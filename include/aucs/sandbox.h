/*
 * sandbox: run a piece of work in a forked child, under a memory and a time
 * limit, so that a crash, an abort or a runaway allocation in it (inside
 * LLVM, on hostile input) cannot take the calling process down.
 *
 * The child's result is bytes (written to a file descriptor) or a one-line
 * message; a child that dies by a signal, exceeds its limits or hits an LLVM
 * fatal error is reported as a message too. Only for front ends that own
 * their process (the CLI, tools): never inside opt or clang.
 *
 * Limitation: POSIX fork; the memory limit is RLIMIT_AS, which is not set
 * in AddressSanitizer builds (ASan reserves terabytes of address space).
 */
#ifndef AUCS_SANDBOX_H
#define AUCS_SANDBOX_H

#include <stddef.h>

typedef struct aucs_sandbox_limits {
  double seconds;      /* wall clock; <= 0 means 60 s */
  size_t memory_bytes; /* address space added to the parent's; 0: 4 GiB */
} aucs_sandbox_limits;

/* The child's work: write the result to out_fd and return 0, or return
 * nonzero with *msg (one line, freed by the sandbox). */
typedef int (*aucs_sandbox_fn)(void *arg, int out_fd, char **msg);

/* Run fn(arg) in a forked child. 0 when it returned 0: *out, *out_len hold
 * what it wrote (free *out with free()). Nonzero otherwise, with *why
 * (free with free()): the child's message, "LLVM error: ...", "crashed
 * (signal N, NAME)", "out of memory" or "took longer than N s". */
int aucs_sandbox_run(aucs_sandbox_fn fn, void *arg,
                     const aucs_sandbox_limits *lim, char **out,
                     size_t *out_len, char **why);

#endif
