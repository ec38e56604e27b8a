/*
 * static: the Z3 side of the detector (DESIGN.md section 5.3).
 *
 * For one kernel (and the __device__ helpers it calls):
 *   1. Access summaries: every load, store, atomic and memory intrinsic on
 *      shared or global memory, with its object (a global, a pointer
 *      argument, or unknown), its address as a 64-bit term over two
 *      symbolic threads, and its guard (the entry condition of its block
 *      on the branch DAG, and of each call site on the way to it).
 *   2. Pairs: two accesses that can fall in one barrier interval (both
 *      reachable barrier-free from the entry or from one barrier, through
 *      loop back edges too), at least one writing, not both atomic. Each
 *      is asked of Z3 for two distinct threads of one block; pairs on
 *      global memory also for two different blocks (inter-block). A
 *      full-mask __syncwarp() in a uniform block (or, for a given block
 *      shape, a warp-uniform one: aucs/warpuni.h) ends an interval for the
 *      threads of one warp: a pair only it separates is asked for two
 *      threads of different warps.
 *   3. Verdicts: UNSAT proves the pair never races; SAT comes with a
 *      witness (launch, threads, blocks, arguments) for the interpreter to
 *      replay; UNKNOWN (timeout, budget spent) decides nothing.
 *   4. Barriers: one is proven redundant when every pair it separates (the
 *      pairs that appear once it is removed) is UNSAT.
 *
 * What the encoding cannot follow (loads, results of external calls or of
 * helpers returning in more than one place, floats, unknown pointers)
 * becomes a fresh symbol per thread, so UNSAT stays a proof; a field of a
 * struct parameter passed by value (read only) is one symbol for both
 * threads, and a pointer field an object of its own (static_fields.c); a
 * load of an object no access of the kernel writes is one function of its
 * address for both threads (static_readonly.c).
 * Launch bounds: blockDim.x, .y <= 1024, .z <= 64, at most 1024 threads a
 * block; gridDim.x < 2^31, .y, .z < 2^16, and fewer than 2^31 threads of
 * the grid along x (gridDim.x * blockDim.x: a 32-bit global index does not
 * wrap); any argument values that satisfy the kernel's preconditions
 * (assume.h: an llvm.assume that precedes an access holds for the thread
 * making it); distinct pointer arguments point to distinct
 * buffers (may_alias drops that: then only `noalias`, i.e. __restrict__,
 * separates them); no undefined behaviour (`nsw`/`nuw` arithmetic does not
 * wrap, accesses keep their IR alignment).
 *
 * Limitation: proofs assume every separating barrier is reached by all
 * threads of the block (barriers in divergent blocks separate nothing, and
 * barrier divergence is the dynamic detector's finding), that the threads
 * of a warp meet at each full-mask __syncwarp together (one only some of
 * them reach could pair with another; a __syncwarp in a divergent block
 * that is not warp-uniform for a given block shape, or with another or a
 * non-constant mask, separates nothing), and that
 * memory reached through a pointer loaded from memory is any memory
 * (never proven). Barriers and __syncwarp calls inside __device__ helpers
 * separate nothing here, but for a helper that is only the __syncwarp
 * intrinsic and a call in a uniform block of a one-block helper whose last
 * act is a barrier (load_tile(); it ends the interval after the helper's
 * accesses); only the kernel's own block barriers can be proven
 * redundant. Redundancy is per barrier: two barriers each redundant alone
 * may not be redundant together (re-analyse after deleting one).
 */
#ifndef AUCS_STATIC_H
#define AUCS_STATIC_H

#include "aucs/finding.h"
#include "aucs/qcache.h"
#include "aucs/smt.h"
#include <llvm-c/Types.h>
#include <stddef.h>
#include <stdint.h>

/* The user's value of a field of a struct parameter passed by value. */
typedef struct aucs_static_field {
  unsigned param;  /* the kernel parameter */
  uint64_t offset; /* byte offset in it */
  unsigned bits;   /* width (integers; floats as their IEEE bits) */
  uint64_t value;  /* raw bits */
} aucs_static_field;

/* Defaults of the zero fields of aucs_static_options. */
#define AUCS_STATIC_TIMEOUT_MS 2000u
#define AUCS_STATIC_BUDGET_MS 10000u
/* What aucs_static_same_value may spend on top of the kernel's budget, in
 * all (nominal ms). */
#define AUCS_STATIC_VALUES_MS 2000u

typedef struct aucs_static_options {
  unsigned timeout_ms; /* per query */
  unsigned budget_ms;  /* per kernel, all queries together */
  /* Inputs the user fixed: the queries keep to them, so a proof then holds
   * for that launch and those arguments only. args and fixed_arg have one
   * entry per parameter of the kernel (raw bits, as aucs_run_config). */
  int fixed_grid, fixed_block;
  aucs_launch launch;
  const uint64_t *args;
  const unsigned char *fixed_arg;
  /* Per parameter (NULL: none): the bounds the host code keeps an
   * argument nobody fixed within, lo[i] <= arg <= hi[i] unsigned, where
   * ranged_arg[i]: proofs then hold for those values only. */
  const unsigned char *ranged_arg;
  const uint64_t *arg_lo, *arg_hi;
  const aucs_static_field *fields; /* fixed fields of byval parameters
                                      (read by aucs_static_analyze only) */
  size_t nfields;
  int skip_barriers; /* do not ask about barrier redundancy */
  /* Only the redundancy of this barrier (a repair's proof): the queries it
   * separates are asked, no other, up to the first that is not UNSAT (it
   * decides: not proven); the pairs stay empty. NULL: all. */
  LLVMValueRef only_barrier;
  /* 0 (default): distinct pointer arguments point to distinct buffers, as
   * in the interpreter's runs. 1: they may overlap each other (and a
   * __device__ global) unless one is `noalias` (__restrict__). */
  int may_alias;
  /* Answers shared with other analyses (the module's other kernels, a
   * repair's trials); borrowed. NULL: one of the analysis' own. */
  aucs_qcache *cache;
  /* A Z3 context shared with analyses before and after this one (a
   * repair's: a context costs milliseconds to make); borrowed, its counts
   * zeroed first. NULL: one of the analysis' own. */
  aucs_smt *smt;
  /* Wall clock and memory (budget.h), checked while queries are built and
   * before each is asked; each query's timeout shrinks to the time left.
   * Spent: the analysis stops (aucs_static_stopped). NULL: none. */
  struct aucs_budget *budget;
} aucs_static_options;

typedef enum aucs_static_verdict {
  AUCS_STATIC_UNSAT,   /* proven: the pair never races */
  AUCS_STATIC_SAT,     /* a witness exists (to be replayed) */
  AUCS_STATIC_UNKNOWN, /* timeout, budget, or Z3 gave up */
} aucs_static_verdict;

typedef enum aucs_static_proof {
  AUCS_PROOF_NONE,      /* no pair proven (or none analysed) */
  AUCS_PROOF_PARTIAL,   /* some pairs proven */
  AUCS_PROOF_RACE_FREE, /* every pair proven */
} aucs_static_proof;

/* A concrete launch on which the pair's two accesses touch the same byte. */
typedef struct aucs_static_witness {
  aucs_launch launch;
  aucs_dim3 thread[2], block[2]; /* of access a, of access b */
  uint64_t *args;   /* one per parameter: raw bits (0 for pointers, floats) */
  uint64_t offset;  /* byte offset of access a in its object */
  int replayable;   /* the interpreter can run it: small grid, arguments
                       in range, both accesses in one object */
} aucs_static_witness;

typedef struct aucs_static_pair {
  aucs_access a, b; /* instr, op and size; a before b in program order */
  aucs_memspace memory; /* AUCS_MEM_NONE: unknown pointer, either space */
  const char *object;   /* a's object name (global or parameter), or NULL */
  int inter_block;      /* two different blocks (global memory) */
  aucs_static_verdict verdict;
  aucs_static_witness witness; /* when verdict is SAT */
} aucs_static_pair;

typedef struct aucs_static_counts {
  size_t total, unsat, sat, unknown;
} aucs_static_counts;

typedef struct aucs_static aucs_static;

/* Analyse kernel (a function with a body). Never fails: what cannot be
 * encoded is over-approximated. o may be NULL for the defaults. Free with
 * aucs_static_free. */
aucs_static *aucs_static_analyze(LLVMValueRef kernel,
                                 const aucs_static_options *o);
void aucs_static_free(aucs_static *s);

size_t aucs_static_npairs(const aucs_static *s);
const aucs_static_pair *aucs_static_pair_at(const aucs_static *s, size_t i);
aucs_static_counts aucs_static_counts_of(const aucs_static *s);
/* Where the budget stopped the analysis: 0 it did not; 1 building the
 * queries (none asked), 2 asking them, 3 asking about barriers. With
 * asked and built (may be NULL): queries asked and queries built. Pairs
 * then come from the queries asked only, and nothing is proven race-free
 * or (from 1 and 2 on) redundant. */
int aucs_static_stopped(const aucs_static *s, size_t *asked, size_t *built);
/* RACE_FREE when every pair is UNSAT (also when there is none), unless
 * the budget stopped the analysis (then at most PARTIAL). */
aucs_static_proof aucs_static_proof_of(const aucs_static *s);
const char *aucs_static_proof_name(aucs_static_proof p);
/* Solver statistics of the analysis (queries, answers, seconds). */
const aucs_smt_stats *aucs_static_stats(const aucs_static *s);

/* The kernel's preconditions the queries assumed: llvm.assume calls
 * (assume.h) that precede an access of some query, whose condition then
 * holds for the thread making it. Proofs hold under them. */
size_t aucs_static_nassumptions(const aucs_static *s);
LLVMValueRef aucs_static_assumption(const aucs_static *s, size_t i);

/* The kernel's own block barrier instructions (not __syncwarp), in block
 * order. */
size_t aucs_static_nbarriers(const aucs_static *s);
LLVMValueRef aucs_static_barrier(const aucs_static *s, size_t i);
/* 1 when barrier (an instruction of the analysed kernel) is proven
 * redundant: every pair of accesses it separates is UNSAT. 0 otherwise:
 * a separated pair is SAT or UNKNOWN, the barrier lies in a divergent
 * block or a helper, or o->skip_barriers was set. */
int aucs_static_barrier_redundant(const aucs_static *s, LLVMValueRef barrier);

struct aucs_budget;
/* Whether the plain stores a and b (instructions of the analysed kernel or
 * its helpers, a and b may be one) write equal values whenever two threads
 * of one block write one place with them in one barrier interval: 1 when
 * proven (static_values.c says how and what it assumes), 0 otherwise.
 * The queries are asked under budget (wall clock; NULL: the analysis'
 * own) and the kernel's solver budget plus AUCS_STATIC_VALUES_MS. */
int aucs_static_same_value(aucs_static *s, LLVMValueRef a, LLVMValueRef b,
                           struct aucs_budget *budget);

/* One-shot for the repair: answer for barrier alone (only_barrier: the
 * queries it separates, none of the kernel's others). */
int aucs_static_prove_redundant(LLVMValueRef kernel, LLVMValueRef barrier,
                                const aucs_static_options *o);

#endif
