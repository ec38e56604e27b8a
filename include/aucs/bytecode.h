/*
 * bytecode: the lowered form of a kernel, shared by detector/lower/ (which
 * writes it) and detector/interp/ (which runs it). Internal to the
 * detector: no stage outside detector/ includes it.
 *
 * One instruction is a fixed 32-byte record: an opcode, a small operand x
 * (a width, a predicate or a kind), four 32-bit operands (register slots,
 * pcs or pool indices) and a 64-bit immediate. Registers are 64-bit slots of
 * the current frame; every SSA value has one (aggregates one per scalar
 * leaf, vectors one per lane), constants are slots pre-filled from the
 * function's image.
 *
 * Value representation in a slot: integers of width w are kept zero-extended
 * (bits above w are 0), floats as their IEEE bits (float in the low 32),
 * pointers as (object id << AUCS_PTR_SHIFT) + AUCS_PTR_BIAS + byte offset:
 * the bias keeps the object id of a pointer moved up to 512 GiB before its
 * object's start (or past its end), so the access is caught as out of
 * bounds of the right object. Null is 0, in object 0.
 */
#ifndef AUCS_DETECTOR_BYTECODE_H
#define AUCS_DETECTOR_BYTECODE_H

#include "aucs/interp.h"
#include "aucs/util.h"
#include <stdint.h>

#define AUCS_PTR_SHIFT 40
#define AUCS_PTR_BIAS (UINT64_C(1) << (AUCS_PTR_SHIFT - 1))
#define AUCS_PTR_OFFSET_MASK ((UINT64_C(1) << AUCS_PTR_SHIFT) - 1)
#define AUCS_PTR(obj, off)                                                     \
  (((uint64_t)(obj) << AUCS_PTR_SHIFT) + AUCS_PTR_BIAS + (off))
/* The byte offset of pointer p in its object; before the start it wraps to
 * a huge value, so one unsigned compare against the size catches both. */
#define AUCS_PTR_OFF(p) (((p) & AUCS_PTR_OFFSET_MASK) - AUCS_PTR_BIAS)

// clang-format off
/* Opcodes. Operand conventions in the comment of each group; a FOO32/FOO64
 * pair must stay adjacent (lowering picks FOO32 + 1 for double). */
#define BC_OPS(X)                                                              \
  /* d = a; d = a & imm (imm: mask of the result width); d = sext_x(a) & imm   \
   */                                                                          \
  X(MOV) X(TRUNC) X(SEXT)                                                      \
  /* integer, width x, result masked with imm */                               \
  X(ADD) X(SUB) X(MUL) X(UDIV) X(SDIV) X(UREM) X(SREM) X(SHL) X(LSHR)          \
  X(ASHR) X(AND) X(OR) X(XOR) X(SMIN) X(SMAX) X(UMIN) X(UMAX)                 \
  /* saturating (llvm.uadd.sat, ...) */                                       \
  X(UADDSAT) X(SADDSAT) X(USUBSAT) X(SSUBSAT) X(ABS)                           \
  X(CTPOP) X(CTLZ) X(CTTZ) X(BSWAP) X(BITREV) X(FSHL) X(FSHR)                  \
  /* d = (a op b), operand width x */                                          \
  X(ICMP_EQ) X(ICMP_NE) X(ICMP_ULT) X(ICMP_ULE) X(ICMP_UGT) X(ICMP_UGE)        \
  X(ICMP_SLT) X(ICMP_SLE) X(ICMP_SGT) X(ICMP_SGE)                              \
  /* d = c ? a : b */                                                          \
  X(SELECT)                                                                    \
  /* floating point; FCMP: x is the LLVMRealPredicate */                       \
  X(FADD32) X(FADD64) X(FSUB32) X(FSUB64) X(FMUL32) X(FMUL64) X(FDIV32)        \
  X(FDIV64) X(FREM32) X(FREM64) X(FNEG32) X(FNEG64) X(FCMP32) X(FCMP64)        \
  X(FABS32) X(FABS64) X(FMIN32) X(FMIN64) X(FMAX32) X(FMAX64) X(FMA32)         \
  X(FMA64)                                                                     \
  /* libcalls.def: d = fn(pool[b], .. c args), masked to width x; imm is     \
   * the host function (aucs_libcall_fn) */                                   \
  X(LIBCALL)                                                                   \
  /* d = an arbitrary value of x bits from the run's seed and fill (the       \
   * result of a function the module only declares) */                       \
  X(NONDET)                                                                    \
  /* conversions: to int of width x (mask imm); from int of width x; CVT:     \
   * PTX's cvt of form x (aucs/cvt.h) */                                       \
  X(F32TOSI) X(F64TOSI) X(F32TOUI) X(F64TOUI) X(SITOF32) X(SITOF64)            \
  X(UITOF32) X(UITOF64) X(F64TOF32) X(F32TOF64) X(CVT)                         \
  /* with.overflow: d, d+1 = a op b, overflow; c is the OVF_* kind */          \
  X(OVF)                                                                       \
  /* d = a + sext_x(b) * c + imm;  d = a + imm */                              \
  X(GEP) X(ADDI)                                                               \
  /* memory: x is the access size; imm holds MEM_* flags */                    \
  X(LOAD) X(STORE) X(RMW) X(CMPXCHG) X(ALLOCA) X(MEMCPY) X(MEMMOVE) X(MEMSET)  \
  /* multi-leaf values (vectors, aggregates), c leaves: ALOAD d.. = *a and    \
   * ASTORE *a = b.. are ONE access of x bytes, leaf k at pool[d or b + 3k]    \
   * (byte offset, bytes, bits), imm MEM_* flags (ALOAD's layout at b,        \
   * ASTORE's at d); VEXTRACT d = a[r[b]]; VINSERT d[r[b]] = a (0 / no-op     \
   * past c); REPACK d.. = bits of a.. (lanes of x bits to lanes of imm       \
   * bits, b bits in all: bitcasts between vector shapes) */                  \
  X(ALOAD) X(ASTORE) X(VEXTRACT) X(VINSERT) X(REPACK)                          \
  /* control: BR d; CBR a ? d : b; SWITCH a, pool b, c cases, default d;      \
   * EXIT: the thread ends, from any depth (PTX exit) */                      \
  X(BR) X(CBR) X(SWITCH) X(RET) X(CALL) X(UNREACHABLE) X(TRAP) X(EXIT)         \
  /* GPU: special registers (x = SR_*), barriers, warp collectives */          \
  X(SREG) X(BARRIER) X(WARP)                                                   \
  /* llvm.assume: the run ends (AUCS_RUN_ASSUME) when a is false */           \
  X(ASSUME)                                                                    \
  /* indirect call: d = (*a)(pool b .. b + c); a must be a function's object */\
  X(CALLI)                                                                     \
  /* grid sync step x (GRID_*): a the grid workspace pointer, d the result */  \
  X(GRID)                                                                      \
  /* memory fence of scope x (AUCS_SCOPE_*, sync.h) */                        \
  X(FENCE)                                                                     \
  /* kernel parameter a read from here on (lower_reads.c); not a step */     \
  X(MARK)                                                                      \
  /* textures and surfaces (lower_tex.c, interp_tex.c; TEX_* in imm): TEX   \
   * d.. = a fetch of handle a at pool b.. (c coords); SURF handle a, c & 255 \
   * coords at pool b.., then c >> 8 values (stores), x bytes each, d.. the  \
   * loaded values */                                                         \
  X(TEX) X(SURF)
// clang-format on

typedef enum bc_op {
#define X(n) OP_##n,
  BC_OPS(X)
#undef X
      OP_NOPS
} bc_op;

typedef struct bc_insn {
  uint16_t op;
  uint16_t x;
  uint32_t d, a, b, c;
  uint64_t imm;
} bc_insn;

/* TEX and SURF flags (imm): results (TEX, low 4 bits), float results,
 * the first coordinate a layer, float coordinates (a mask from bit 16),
 * and the surface's boundary mode and direction. */
enum {
  TEX_FLOAT = 1 << 8,
  TEX_LAYERED = 1 << 9,
  TEX_STORE = 1 << 10,
  TEX_CLAMP = 1 << 11,
  TEX_ZERO = 1 << 12
};
#define TEX_FLOAT_COORDS 16

/* The largest ALOAD/ASTORE, in bytes. */
#define BC_MAX_ACCESS 4096

/* LOAD/STORE/RMW/CMPXCHG flags. */
enum { MEM_ATOMIC = 1, MEM_VOLATILE = 2, MEM_ACQUIRE = 4, MEM_RELEASE = 8 };
/* ... and the scope of an atomic (AUCS_SCOPE_*, sync.h) in bits 4-5. */
#define MEM_SCOPE(imm) ((int)(((imm) >> 4) & 3))
#define MEM_WITH_SCOPE(s) ((uint64_t)(s) << 4)

/* RMW kinds (c). */
enum {
  RMW_XCHG,
  RMW_ADD,
  RMW_SUB,
  RMW_AND,
  RMW_NAND,
  RMW_OR,
  RMW_XOR,
  RMW_MAX,
  RMW_MIN,
  RMW_UMAX,
  RMW_UMIN,
  RMW_FADD,
  RMW_FSUB,
  RMW_FMAX,
  RMW_FMIN,
  RMW_UINC,
  RMW_UDEC
};

enum { OVF_UADD, OVF_SADD, OVF_USUB, OVF_SSUB, OVF_UMUL, OVF_SMUL };

/* Special registers (SREG x). */
enum {
  SR_TID_X,
  SR_TID_Y,
  SR_TID_Z,
  SR_NTID_X,
  SR_NTID_Y,
  SR_NTID_Z,
  SR_CTAID_X,
  SR_CTAID_Y,
  SR_CTAID_Z,
  SR_NCTAID_X,
  SR_NCTAID_Y,
  SR_NCTAID_Z,
  SR_LANEID,
  SR_WARPSIZE,
  SR_WARPID,
  SR_NWARPID,
  SR_CLOCK,
  SR_CLOCK64,
  SR_LANEMASK_EQ,
  SR_LANEMASK_LT,
  SR_LANEMASK_LE,
  SR_LANEMASK_GT,
  SR_LANEMASK_GE,
  SR_DYN_SMEM
};

/* Barrier kinds (BARRIER x): a is the predicate slot, d the result. */
enum { BAR_PLAIN, BAR_POPC, BAR_AND, BAR_OR };

/* Warp collectives (WARP x): d result (two slots when imm & W_PRED);
 * SHFL: a value, b lane/offset, c clamp; VOTE: a predicate. */
enum {
  W_SYNCWARP,
  W_SHFL_IDX,
  W_SHFL_UP,
  W_SHFL_DOWN,
  W_SHFL_BFLY,
  W_VOTE_ALL,
  W_VOTE_ANY,
  W_VOTE_UNI,
  W_VOTE_BALLOT,
  W_ACTIVEMASK
};
enum { W_PRED = 1 };

/* Grid sync steps (GRID x; lowered from cooperative groups' PTX): the
 * workspace address's high and low words (constants), the master thread's
 * arrival at the grid barrier, and its poll of the barrier word. */
enum { GRID_WS_HI, GRID_WS_LO, GRID_ARRIVE, GRID_POLL };

typedef struct bc_func {
  LLVMValueRef fn;
  uint32_t entry;  /* pc of the first instruction */
  uint32_t nslots; /* frame size */
  uint32_t nparams;
  uint32_t *params; /* slot of each parameter */
  uint64_t *image;  /* nslots initial values: the constants */
  int tex_header;   /* defined in a texture / surface header (lower_tex.c) */
} bc_func;

/* A memory object that exists in every run: null, a module global, a
 * kernel parameter's buffer. Per-thread allocas are objects made by runs. */
typedef struct bc_object {
  const char *name;
  aucs_memspace space;
  uint64_t size;               /* bytes; 0 for argument buffers (unbounded) */
  const unsigned char *init;   /* size bytes, or NULL: pseudo-random */
  unsigned dynamic_shared : 1; /* extern __shared__: size from the config */
  unsigned sparse : 1;         /* argument buffer: pages on demand */
  unsigned surface : 1;        /* a surface (interp_tex.c) */
  uint32_t func; /* a function's address: its index in funcs + 1; else 0 */
} bc_object;

struct aucs_prog {
  aucs_arena *arena;
  LLVMValueRef kernel;
  const char *kernel_name;
  bc_insn *code;
  LLVMValueRef *instr; /* per pc: the instruction it came from */
  uint32_t ncode;
  bc_func *funcs; /* funcs[0] is the kernel */
  uint32_t nfuncs;
  uint32_t *pool;   /* call argument slots, switch targets */
  uint64_t *pool64; /* switch case values */
  bc_object *objs;  /* objs[0] is the null object */
  uint32_t nobjs;
  uint32_t *param_obj; /* per kernel parameter: its object, or 0 */
  aucs_param *params;
  size_t nparams;
  struct aucs_inputs *inputs; /* the leaves of the parameters (inputs.h) */
  uint32_t *leaf_obj;         /* per leaf: a pointer's buffer, or 0 */
  LLVMValueRef *barriers;
  size_t nbarriers;
  LLVMValueRef *externals; /* aucs_prog_external */
  size_t nexternals;
  uint32_t grid_ws; /* the grid workspace object (the kernel syncs its
                       grid), or 0 */
  /* Surfaces (interp_tex.c): object surf0 + i for a handle equal to
   * parameter i, surf0 + nparams for any other; 0 without surfaces. */
  uint32_t surf0;
};

#endif
