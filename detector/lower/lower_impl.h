/*
 * lower_impl: what the parts of the lowerer share (private to
 * detector/lower/): the lowerer state and the helpers both use.
 * lower.c lowers values, instructions and functions; lower_call.c lowers
 * calls (intrinsics, library calls, barriers, warp collectives, asm, the
 * grid sync, indirect calls). Functions one part calls in the other are
 * prefixed lw_.
 */
#ifndef AUCS_LOWER_IMPL_H
#define AUCS_LOWER_IMPL_H

#include "aucs/bytecode.h"

#include "aucs/inputs.h"
#include "aucs/libcalls.h"
#include "aucs/shadow.h"
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A branch target to patch: code[at].d or .b, or pool[at]. */
typedef struct fixup {
  uint32_t at;
  int field; /* 'd', 'b', 'p' */
  LLVMBasicBlockRef bb;
  LLVMBasicBlockRef pred; /* phis of bb take their values from pred */
} fixup;

#define VEC(T)                                                                 \
  struct {                                                                     \
    T *v;                                                                      \
    uint32_t n, cap;                                                           \
  }
#define VEC_PUSH(vec, x)                                                       \
  do {                                                                         \
    if ((vec).n == (vec).cap) {                                                \
      (vec).cap = (vec).cap ? (vec).cap * 2 : 64;                              \
      (vec).v = aucs_xrealloc((vec).v, (vec).cap * sizeof(*(vec).v));          \
    }                                                                          \
    (vec).v[(vec).n++] = (x);                                                  \
  } while (0)

typedef struct lowerer {
  LLVMTargetDataRef td;
  aucs_findings *diag;
  LLVMValueRef bad; /* first unsupported instruction */
  char *why;
  VEC(bc_insn) code;
  VEC(LLVMValueRef) instr;
  VEC(uint32_t) pool;
  VEC(uint64_t) pool64;
  VEC(LLVMValueRef) funcs;
  VEC(bc_func) fdone;
  VEC(bc_object) objs;
  VEC(LLVMValueRef) barriers;
  VEC(LLVMValueRef) externals; /* the first call of each declared callee */
  int strict; /* a declared callee is unsupported (aucs_lower_options) */
  aucs_ptrmap fnidx;  /* function -> index + 1 */
  aucs_ptrmap objidx; /* global -> object id */
  uint32_t grid_ws;   /* the grid workspace object, or 0 */
  uint32_t surf0;     /* the surfaces' first object, or 0 (lower_tex.c) */
  const aucs_inputs *inputs; /* the kernel's */
  struct lw_marks *marks;    /* the kernel's OP_MARKs (lower_reads.c) */
  aucs_arena *arena;  /* the program's */
  /* per function */
  LLVMValueRef cur;  /* instruction being lowered */
  aucs_ptrmap slots; /* value -> first slot + 1 */
  aucs_ptrmap blockpc;
  VEC(uint64_t) image;
  VEC(fixup) fix;
} lowerer;

/* Which operands of an instruction step with the lane (lw_emit_lanes). */
enum { LANE_D = 1, LANE_A = 2, LANE_B = 4, LANE_C = 8 };

int lw_fail(lowerer *L, const char *fmt, const char *arg);
/* fn's name as messages show it (demangled); in the lowerer's arena. */
const char *lw_shown_name(lowerer *L, LLVMValueRef fn);
unsigned lw_leaves(LLVMTypeRef t);
int lw_is_scalar(LLVMTypeRef t);
int lw_is_vector(LLVMTypeRef t);
unsigned lw_lanes(LLVMTypeRef t);
LLVMTypeRef lw_lane_type(LLVMTypeRef t);
unsigned lw_width(LLVMTypeRef t);
uint64_t lw_mask_of(unsigned w);
int lw_is_double(LLVMTypeRef t);
const char *lw_type_problem(LLVMTypeRef t);
uint32_t lw_add_object(lowerer *L, bc_object o);
int lw_access_size(lowerer *L, LLVMTypeRef t, unsigned *size);
uint32_t lw_new_slots(lowerer *L, unsigned n);
uint32_t lw_op_slot(lowerer *L, LLVMValueRef I, unsigned i, int *bad);
uint32_t lw_emit(lowerer *L, bc_insn in);
void lw_emit_mov(lowerer *L, uint32_t d, uint32_t a, unsigned n);
void lw_emit_lanes(lowerer *L, bc_insn in, unsigned n, unsigned which);
int lw_lane_wise(LLVMTypeRef t);
uint32_t lw_func_index(lowerer *L, LLVMValueRef fn);
/* lower_reads.c: the OP_MARKs of the kernel's scalar parameters. */
typedef struct lw_marks lw_marks;
lw_marks *lw_marks_build(LLVMValueRef kernel);
/* The marks that open block bb of the kernel (none when m is NULL). */
void lw_marks_emit(lowerer *L, const lw_marks *m, LLVMBasicBlockRef bb);
void lw_marks_free(lw_marks *m);

int lw_lower_call(lowerer *L, LLVMValueRef I, uint32_t d);
/* lower_tex.c: a texture or surface operation named name (a callee, or the
 * text of inline asm): 0 or 1 (unsupported) as lw_fail; -1: not one. */
int lw_lower_texture(lowerer *L, LLVMValueRef I, uint32_t d, const char *name,
                     size_t n);
/* lower_asm.c: inline asm of text[0..n) read as PTX (aucs/ptx.h): 0, or 1
 * (unsupported, quoting the text) as lw_fail. */
int lw_lower_ptx(lowerer *L, LLVMValueRef I, uint32_t d, const char *text,
                 size_t n);
/* 1 when fn is defined in a CUDA texture or surface header. */
int lw_texture_header(LLVMValueRef fn);

#endif
