/*
 * ptx: the text of an inline asm statement read as PTX (detector/lower/ptx.c).
 * The lowering interprets what it reads (lower_asm.c); the static checker
 * asks which of its statements load or store memory (aucs_ptx_access).
 *
 * What is read: statements separated by `;`, in `{ }` scopes, each an
 * opcode of dotted tokens (`cvt.rn.f16.f32`, `ld.global.nc.v2.f32`) and
 * comma-separated operands; `.reg .TYPE a, b;` declarations of locals. An
 * operand is an element (`$N`, a local, `_`, an immediate: decimal, 0x
 * hex, 0f / 0d float bits; a special register `%laneid`, `%tid.x`,
 * `WARP_SZ`; `!p` negates a predicate), a vector `{a, b}`, an address
 * `[a]`, `[a+8]`, or a pair `d|p`. A statement may have a guard `@p` or
 * `@!p`. LLVM's asm text spells operands $N and a literal $ as $$.
 *
 * Limitation: labels, branches, `//` comments aside, anything else
 * (`.reg .b32 r<4>`, a parameter list, macros) is not read: the text is
 * rejected, and the caller keeps it unsupported.
 */
#ifndef AUCS_PTX_H
#define AUCS_PTX_H

#include <stddef.h>
#include <stdint.h>

/* hexp of cuda_fp16.h has 24 statements and 17 locals; h2exp more. */
enum {
  AUCS_PTX_MAX_STMTS = 64,
  AUCS_PTX_MAX_TOKENS = 10,
  AUCS_PTX_MAX_OPERANDS = 6,
  AUCS_PTX_MAX_ELEMS = 4,
  AUCS_PTX_MAX_LOCALS = 48
};

typedef enum aucs_ptx_elem_kind {
  AUCS_PTX_ARG,   /* $n */
  AUCS_PTX_LOCAL, /* a declared local: n is its index */
  AUCS_PTX_IMM,   /* imm */
  AUCS_PTX_SREG,  /* a special register: text */
  AUCS_PTX_SINK   /* `_`: a result nobody reads */
} aucs_ptx_elem_kind;

typedef struct aucs_ptx_elem {
  aucs_ptx_elem_kind kind;
  int negated; /* `!p` */
  unsigned n;
  uint64_t imm;
  const char *text; /* SREG: `laneid`, `tid.x`, `WARP_SZ` (not terminated) */
  unsigned len;
} aucs_ptx_elem;

typedef enum aucs_ptx_operand_kind {
  AUCS_PTX_PLAIN,   /* one element */
  AUCS_PTX_VECTOR,  /* {e0, e1, ...} */
  AUCS_PTX_ADDRESS, /* [e0 + offset] */
  AUCS_PTX_PAIR     /* e0|e1 */
} aucs_ptx_operand_kind;

typedef struct aucs_ptx_operand {
  aucs_ptx_operand_kind kind;
  aucs_ptx_elem e[AUCS_PTX_MAX_ELEMS];
  unsigned n;     /* elements */
  int64_t offset; /* ADDRESS */
} aucs_ptx_operand;

typedef struct aucs_ptx_token {
  const char *s;
  unsigned n;
} aucs_ptx_token;

typedef struct aucs_ptx_stmt {
  aucs_ptx_token tok[AUCS_PTX_MAX_TOKENS]; /* the opcode, split at dots */
  unsigned ntok;
  aucs_ptx_operand op[AUCS_PTX_MAX_OPERANDS];
  unsigned nop;
  int guarded; /* @guard */
  aucs_ptx_elem guard;
} aucs_ptx_stmt;

typedef struct aucs_ptx_local {
  const char *name;
  unsigned len;
  aucs_ptx_token type; /* `f16`, `b32`, `pred` */
} aucs_ptx_local;

typedef struct aucs_ptx {
  aucs_ptx_stmt s[AUCS_PTX_MAX_STMTS];
  unsigned n;
  aucs_ptx_local local[AUCS_PTX_MAX_LOCALS];
  unsigned nlocal;
} aucs_ptx;

/* Read text[0..n) into *out (which points into text). 0 on success (an
 * empty text has no statements); nonzero when the text is not in the form
 * above. */
int aucs_ptx_parse(const char *text, size_t n, aucs_ptx *out);

/* 1 when token t is exactly word. */
int aucs_ptx_is(aucs_ptx_token t, const char *word);
/* The index of the first token of s, after the opcode, that is word; 0
 * when there is none. */
unsigned aucs_ptx_has(const aucs_ptx_stmt *s, const char *word);

/* A statement's memory access (ld or st): a store or a load, of bytes in
 * all (a vector's elements together), at the address operand's element
 * plus offset. */
typedef struct aucs_ptx_access {
  int store;
  unsigned bytes;
  aucs_ptx_elem addr;
  int64_t offset;
  int atomic; /* .relaxed, .acquire, .release */
} aucs_ptx_access;

/* 1 when every statement of p is an instruction of aucs/ptx.def (so what
 * it does to memory is its ld and st statements). */
int aucs_ptx_known(const aucs_ptx *p);

/* 1 and *a for an ld or st statement of a known type; 0 otherwise. */
int aucs_ptx_access_of(const aucs_ptx_stmt *s, aucs_ptx_access *a);

/* An LLVM inline asm constraint string: the number of outputs (`=r`; an
 * indirect output `=*m` counts too), and for each operand after them, the
 * output it is tied to (a digit constraint `0`) or -1 in tied[i]
 * (AUCS_PTX_MAX_TIED entries at most). */
enum { AUCS_PTX_MAX_TIED = 32 };
typedef struct aucs_ptx_constraints {
  unsigned outs, ins;
  int indirect; /* some output is in memory (`=*m`) */
  int tied[AUCS_PTX_MAX_TIED];
} aucs_ptx_constraints;
void aucs_ptx_constraints_of(const char *s, size_t n, aucs_ptx_constraints *c);

#endif
