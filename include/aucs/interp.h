/*
 * interp: the dynamic half of the detector (DESIGN.md section 5.1).
 *
 * A kernel and every function it calls are lowered once into a compact
 * register bytecode (aucs_interp_lower); the bytecode is then run many times
 * (aucs_interp_run), each run one launch configuration and one set of
 * argument values, threads of a block in the canonical schedule (each runs
 * to its next barrier or its end; the barrier releases when every live
 * thread waits, and the epoch advances). Every shared and global access is
 * checked in O(1) against shadow memory, which yields races, inter-block
 * races, barrier divergence, out-of-bounds accesses, and for each barrier
 * whether it ever ordered a conflicting pair.
 *
 * Limitation: memory behind pointer arguments and pointer fields of
 * aggregate arguments is modelled as one buffer per pointer, sized on
 * demand, 512 GiB either side (it may point into the middle of an
 * allocation, so no access to it is out of bounds) unless the run gives
 * its size (buffer_bytes); pointers stored in buffers by the host are not.
 */
#ifndef AUCS_INTERP_H
#define AUCS_INTERP_H

#include "aucs/finding.h"
#include <llvm-c/Types.h>
#include <stddef.h>
#include <stdint.h>

typedef struct aucs_prog aucs_prog;
typedef struct aucs_run_memory aucs_run_memory;

typedef enum aucs_param_kind {
  AUCS_PARAM_INT,     /* integer of `bits` bits */
  AUCS_PARAM_FLOAT,   /* float (32) or double (64) */
  AUCS_PARAM_POINTER, /* gets a buffer of its own */
  AUCS_PARAM_AGGREGATE, /* struct / byval: the fill, then its fields
                           (aucs_run_config.fields) */
} aucs_param_kind;

typedef struct aucs_param {
  const char *name; /* source name if known ("n"), else "arg<i>" */
  aucs_param_kind kind;
  unsigned bits;
} aucs_param;

/* Lower kernel (a function of its module with a body). 0 on success with
 * *out set (free with aucs_prog_free). On an instruction or call the
 * interpreter does not support: nonzero, *out NULL, and one UNSUPPORTED
 * finding pushed to diag naming the instruction (its `a.instr`). */
int aucs_interp_lower(LLVMValueRef kernel, aucs_prog **out,
                      aucs_findings *diag);
/* How to lower. A call of a function the module only declares (no body:
 * compiled separately, a test's nondet(), a library routine without its
 * bitcode) returns an arbitrary value from the run's seed and fill and
 * writes no memory; strict makes it unsupported instead. A declared
 * function returning a pointer or an aggregate is unsupported either way. */
typedef struct aucs_lower_options {
  int strict;
} aucs_lower_options;
/* aucs_interp_lower with options o (NULL: the defaults, as it). */
int aucs_interp_lower_with(LLVMValueRef kernel, const aucs_lower_options *o,
                           aucs_prog **out, aucs_findings *diag);
void aucs_prog_free(aucs_prog *p);
size_t aucs_prog_nparams(const aucs_prog *p);
/* The leaves of the kernel's parameters (inputs.h); lives as long as p. */
struct aucs_inputs;
const struct aucs_inputs *aucs_prog_inputs(const aucs_prog *p);
const aucs_param *aucs_prog_param(const aucs_prog *p, size_t i);
/* 1 when the kernel syncs its whole grid (cooperative groups'
 * this_grid().sync()): the launch must be cooperative. */
int aucs_prog_grid_sync(const aucs_prog *p);
/* The barrier instructions of the kernel and its callees, in a fixed order. */
size_t aucs_prog_nbarriers(const aucs_prog *p);
LLVMValueRef aucs_prog_barrier(const aucs_prog *p, size_t i);
/* The functions the kernel (or a callee) calls that the module only
 * declares, which the runs assume write no memory: per function, its first
 * call (LLVMGetCalledValue gives the function). */
size_t aucs_prog_nexternals(const aucs_prog *p);
LLVMValueRef aucs_prog_external(const aucs_prog *p, size_t i);

/* What memory nobody wrote reads as (argument buffers, aggregate
 * arguments, shared and global arrays without an initializer), from the
 * run's seed: random bytes; small words (each aligned 4-byte word a value in
 * 0..15, so data-dependent trip counts and indices stay small and keys are
 * found); zeros. X(enum suffix, name of --fill). */
#define AUCS_FILLS(X) X(RANDOM, "random") X(SMALL, "small") X(ZERO, "zero")

typedef enum aucs_fill {
#define AUCS_FILL(e, name) AUCS_FILL_##e,
  AUCS_FILLS(AUCS_FILL)
#undef AUCS_FILL
  AUCS_FILL_NMODES
} aucs_fill;

/* "random", "small", "zero". */
const char *aucs_interp_fill_name(aucs_fill f);

typedef struct aucs_run_config {
  aucs_launch launch;
  const uint64_t *args;  /* one value per param, raw bits (ignored for
                            pointers and aggregates) */
  uint64_t seed;         /* uninitialised memory and aggregate contents */
  aucs_fill fill;        /* how the seed fills them; 0: random */
  int warp_lockstep;     /* pre-Volta rule: threads of one warp never race */
  uint64_t step_budget;  /* instructions per thread; 0: default */
  /* Thread instructions of the whole run (every thread of every block);
   * past it the run stops with AUCS_RUN_STEP_BUDGET. 0: unbounded.
   * aucs_interp_run_steps sizes it to a launch. */
  uint64_t run_steps;
  size_t memory_budget;  /* bytes of modelled memory per run; 0: default */
  /* Bytes of `extern __shared__` memory per block; 0: default. */
  size_t dynamic_shared_bytes;
  /* Cap on simulated threads (blocks x threads per block); 0: default. A
   * grid above it runs its first blocks and its last block. */
  uint64_t max_threads;
  /* Thread instructions after which a grid of more than three blocks
   * leaves out the blocks it has not run yet, all but the last: checked
   * after each block from the third on. 0: AUCS_INTERP_SAMPLE_STEPS;
   * UINT64_MAX: never. */
  uint64_t sample_steps;
  int keep_memory;       /* keep argument buffers for aucs_run_read */
  /* Per leaf of aucs_prog_inputs (inputs.h): the raw value of an integer or
   * float field of an aggregate parameter, written over its fill where
   * fields_set[i] (either NULL: every field keeps its fill). A pointer field
   * always points to the start of a buffer of its own. */
  const uint64_t *fields;
  const unsigned char *fields_set;
  /* Per leaf: a pointer's buffer size in bytes, beyond which (or before
   * whose start) an access is out of bounds; 0 or NULL: unbounded. */
  const uint64_t *buffer_bytes;
  /* Per leaf: a pointer's given contents (--buffer-data), its first
   * buffer_data_bytes[i] bytes; the rest reads as the fill. NULL: none. */
  const unsigned char *const *buffer_data;
  const uint64_t *buffer_data_bytes;
  /* Track which values are computed from filled buffer contents (bytes of
   * a pointer leaf's buffer never written by the run nor given): each
   * race, divergence and out-of-bounds finding whose addresses, or a
   * thread-dependent branch before it, depend on them gets
   * data_dependent and data_loads (finding.h). Slower; 0: off. */
  int taint;
  /* With taint: stop the run (AUCS_RUN_SETTLED) once it has found each of
   * these findings and each depends on filled data. Masks only grow, so the
   * rest of the run could add buffers to their data_dependent lists, never
   * make one independent (datadep.h replays). NULL: run to the end. */
  const aucs_findings *taint_until;
  /* Called with each finding the run adds, at the next budget check (a few
   * thousand steps later): nonzero stops the run there (AUCS_RUN_STOPPED),
   * its findings so far kept (a repair trial that only waits for one
   * finding). NULL: run to the end. */
  int (*stop)(void *ctx, const aucs_finding *f);
  void *stop_ctx;
  /* The kernel's time and memory budget (budget.h), checked every few
   * thousand steps: spent, the run stops with AUCS_RUN_BUDGET. NULL: none. */
  struct aucs_budget *budget;
  /* --texture TEX=PARAM (inputs.h): a write through PARAM's buffer and a
   * fetch of TEX whose bytes overlap are a texture-incoherent finding. */
  const struct aucs_inputs_setting *textures;
  size_t ntextures;
} aucs_run_config;

/* Defaults of the zero fields of aucs_run_config. */
#define AUCS_INTERP_STEP_BUDGET 10000000ull
#define AUCS_INTERP_MEMORY_BUDGET (256ull << 20)
#define AUCS_INTERP_DYNAMIC_SHARED (48u << 10)
#define AUCS_INTERP_MAX_THREADS (1ull << 16)
/* aucs_interp_run_steps: a run may take this many thread instructions per
 * simulated thread, and at least AUCS_INTERP_RUN_STEPS_MIN in all. */
#define AUCS_INTERP_RUN_STEPS_PER_THREAD (1ull << 17)
#define AUCS_INTERP_RUN_STEPS_MIN (1ull << 27)
/* aucs_run_config.sample_steps' default: about two seconds of
 * interpretation. */
#define AUCS_INTERP_SAMPLE_STEPS (1ull << 28)

/* The default run_steps for a launch (at most max_threads simulated, 0:
 * AUCS_INTERP_MAX_THREADS): a run that loops on a count read from filled
 * memory stops after a few seconds rather than at the memory budget. */
uint64_t aucs_interp_run_steps(aucs_launch launch, uint64_t max_threads);

typedef enum aucs_run_status {
  AUCS_RUN_OK,
  AUCS_RUN_STEP_BUDGET,   /* a thread ran past step_budget (loops forever?) */
  AUCS_RUN_MEMORY_BUDGET, /* the run needed more than memory_budget */
  AUCS_RUN_TRAP,          /* llvm.trap, unreachable reached, division by 0 */
  AUCS_RUN_BAD_LAUNCH,    /* launch dims beyond the hardware limits */
  /* a thread reached llvm.assume with a false condition: the input is
   * outside the kernel's precondition (res->assumption names the call) */
  AUCS_RUN_ASSUME,
  AUCS_RUN_BUDGET,  /* cfg->budget was spent (time or memory) */
  AUCS_RUN_SETTLED, /* cfg->taint_until: every finding wanted is settled */
  AUCS_RUN_STOPPED, /* cfg->stop asked for it */
} aucs_run_status;

/* Words of a run's coverage signature (4096 bits). */
#define AUCS_COVERAGE_WORDS 64

typedef struct aucs_run_result {
  aucs_run_status status;
  char *error;           /* why status != OK, naming the location; or NULL */
  uint64_t thread_instructions;
  aucs_findings findings; /* deduplicated by (kind, instr a, instr b) */
  /* Per barrier i (aucs_prog_barrier order): times a thread passed it, and
   * whether it ordered a conflicting pair (an access before it and one after
   * it, different threads, same bytes, one a write, not both atomic). */
  uint64_t *barrier_passes;
  unsigned char *barrier_ordered;
  /* For the input search: memory accesses made and distinct addresses. */
  uint64_t accesses, distinct_addresses;
  uint64_t blocks_run; /* blocks simulated (all, or the sample under the cap) */
  /* Nonzero: the run passed its sample_steps after this many blocks and
   * left out the rest but the last. */
  uint64_t sampled_after;
  /* Threads simulated (blocks_run times the block's), and summed over them
   * the block barriers passed (__syncthreads and its _count/_and/_or
   * forms) and the __syncwarp() calls made: what a repair costs per
   * thread (repair.h). */
  uint64_t threads_run, barriers_passed, warp_syncs;
  /* For the input search: a bit per (access, the barrier before it), per
   * (branch, direction taken) and per (access, the access it conflicted
   * with), hashed; a run that sets a bit no earlier run set saw something
   * new (search.h, "coverage"). */
  uint64_t coverage[AUCS_COVERAGE_WORDS];
  LLVMValueRef assumption; /* AUCS_RUN_ASSUME: the violated llvm.assume */
  /* Per leaf of aucs_prog_inputs (inputs.h): the run read its value (a
   * scalar parameter used, a field's bytes loaded). A leaf not read could
   * have held anything: the run would be the same. NULL: a bad launch. */
  unsigned char *leaf_read;
  aucs_run_memory *memory; /* with cfg->keep_memory; see aucs_run_read */
} aucs_run_result;

/* Run p once. Returns res->status; the result is filled in every case
 * (findings found before a budget ran out are kept). Free with
 * aucs_run_result_free. */
aucs_run_status aucs_interp_run(const aucs_prog *p, const aucs_run_config *cfg,
                                aucs_run_result *res);
void aucs_run_result_free(aucs_run_result *res);

/* Read n bytes at offset of pointer parameter param's buffer as the run left
 * it (bytes never written read as the run's pseudo-random fill). Needs
 * cfg->keep_memory. 0 on success; nonzero when param is not a pointer or
 * the memory was not kept. */
int aucs_run_read(const aucs_run_result *res, size_t param, uint64_t offset,
                  void *out, size_t n);

#endif
