/*
 * support: fixtures shared by the unit tests. Inline `.ll` text becomes a
 * module; functions and blocks are looked up by name.
 */
#ifndef AUCS_TEST_SUPPORT_H
#define AUCS_TEST_SUPPORT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
/* cmocka needs the three headers above first */
#include <cmocka.h>

#include <llvm-c/Core.h>
#include <stdint.h>

#include "aucs/interp.h"

/* Parse textual IR into a module of a fresh context; fails the test on a
 * parse error. Free with support_free. The NVPTX target header is
 * prepended unless ir already has a "target triple". */
LLVMModuleRef support_parse(const char *ir);
void support_free(LLVMModuleRef m);
/* The function named name; fails the test when absent. */
LLVMValueRef support_fn(LLVMModuleRef m, const char *name);
/* The block of fn named name; fails the test when absent. */
LLVMBasicBlockRef support_block(LLVMValueRef fn, const char *name);
/* Write text to a fresh file under the test temp dir; returns its path
 * (free with free()). */
char *support_write_file(const char *name, const void *data, size_t len);

/* The index of fn's block named name, in aucs_cfg numbering. */
int support_block_index(LLVMValueRef fn, const char *name);
/* xorshift64: the next value of a test's own seeded sequence. */
uint64_t support_rng(uint64_t *state);
/* fn lowered for the interpreter; fails the test when it cannot be. */
aucs_prog *support_lower(LLVMValueRef fn);
/* Run p and q on config c into *a and *b; fail the test unless both end
 * with one status and, when it is OK, leave the same memory (as
 * support_compare_memory). Returns that status; free a and b after. */
aucs_run_status support_run_both(const aucs_prog *p, const aucs_prog *q,
                                 const aucs_run_config *c, aucs_run_result *a,
                                 aucs_run_result *b, size_t bytes,
                                 uint64_t run);
/* Fail the test unless runs a and b of p (made with keep_memory) left the
 * same first `bytes` bytes in every pointer parameter's buffer. */
void support_compare_memory(const aucs_prog *p, const aucs_run_result *a,
                            const aucs_run_result *b, size_t bytes,
                            uint64_t run);

#endif
