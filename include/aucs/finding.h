/*
 * finding: a bug about the user's kernel, as data (STYLE.md error channel 1).
 * The detector produces findings, the repair answers them, the reports print
 * them. Kinds are listed once, in finding.def.
 */
#ifndef AUCS_FINDING_H
#define AUCS_FINDING_H

#include <llvm-c/Types.h>
#include <stddef.h>
#include <stdint.h>

typedef enum aucs_finding_kind {
#define AUCS_FINDING(e, name) AUCS_FINDING_##e,
#include "aucs/finding.def"
#undef AUCS_FINDING
  AUCS_FINDING_NKINDS
} aucs_finding_kind;

typedef enum aucs_op { AUCS_OP_READ, AUCS_OP_WRITE, AUCS_OP_ATOMIC } aucs_op;

typedef enum aucs_memspace {
  AUCS_MEM_NONE,
  AUCS_MEM_SHARED,
  AUCS_MEM_GLOBAL,
  AUCS_MEM_CONSTANT,
  AUCS_MEM_LOCAL,
} aucs_memspace;

typedef struct aucs_dim3 {
  uint32_t x, y, z;
} aucs_dim3;

typedef struct aucs_launch {
  aucs_dim3 grid, block;
} aucs_launch;

/* How a finding counts (natural.h). A warning is a redundant barrier, or a
 * race, divergence or out-of-bounds access that occurs only for searched
 * inputs (then `searched` and `natural` say which), that follows from filled
 * data (`data_dependent`), or a benign race (`benign`). */
typedef enum aucs_severity {
  AUCS_SEVERITY_ERROR,
  AUCS_SEVERITY_WARNING
} aucs_severity;

/* What the two plain writes of a race stored (the interpreter compares the
 * bytes of each write-write conflict): unknown (not two plain writes),
 * equal on every conflict of every run that showed the race, or different
 * at least once. */
typedef enum aucs_values {
  AUCS_VALUES_UNKNOWN,
  AUCS_VALUES_EQUAL,
  AUCS_VALUES_DIFFER
} aucs_values;

/* One side of a finding: who did what, where. */
typedef struct aucs_access {
  LLVMValueRef instr; /* load/store/atomic/call/barrier in the module; NULL
                         when the side is absent */
  aucs_dim3 thread, block;
  aucs_op op;
  unsigned size; /* bytes accessed */
} aucs_access;

typedef struct aucs_finding {
  aucs_finding_kind kind;
  aucs_memspace memory;
  char *object;    /* the memory object's name ("s_tile", "in"), or NULL */
  uint64_t offset; /* the first conflicting byte; < 0 as int64_t: before */
  aucs_access a, b;
  unsigned epoch;  /* barrier interval (number of barriers passed) */
  unsigned apart; /* a race: 0 when both accesses lie in `epoch`; n when the
                     first may lie as early as epoch - n, as the releases
                     since then were of threads waiting at different
                     barriers (barrier divergence), which order nothing */
  aucs_launch launch;
  char *args;      /* "n=100 m=3": argument values that reproduce it */
  char *shown_args; /* what the text's launch note shows of them: the
                       inputs the user gave and those the run read (NULL:
                       args) */
  char *message;   /* one sentence, no location */
  aucs_severity severity;
  char *searched; /* a warning's inputs that matter, as the run had them
                     ("n=3 stride=0"), or NULL */
  char *natural;  /* their natural values, for which it does not occur
                     ("n=256 stride=256"), or NULL */
  /* The input buffers whose contents aucs filled (never written by the run
   * nor given) that the addresses, or a thread-dependent branch before the
   * accesses, were computed from: "knodesD keysD", or NULL; data_loads:
   * where each was first read ("k.cu:12:9 k.cu:12:40"). */
  char *data_dependent;
  char *data_loads;
  aucs_values values; /* a race's stored values (above) */
  unsigned runs;      /* the runs that showed it (merged by detect.c) */
  /* A benign race (benign.h): a write-write race whose writes store equal
   * values, on every run and by a static proof; the evidence, as one
   * sentence, or NULL. */
  char *benign;
  /* A race of a critical section (interp/locks.c): the lock, and why it
   * does not order the two accesses, as one sentence; or NULL. */
  char *lock;
  /* A redundant barrier the static checker proved redundant (every pair
   * of accesses it separates is race-free); without a proof it is dynamic
   * evidence only, a warning. */
  int proven;
} aucs_finding;

/* A growable list; zero-initialise, free with aucs_findings_free. */
typedef struct aucs_findings {
  aucs_finding *v;
  size_t n, cap;
} aucs_findings;

const char *aucs_finding_kind_name(aucs_finding_kind k);
const char *aucs_memspace_name(aucs_memspace m);
const char *aucs_op_name(aucs_op op);
const char *aucs_severity_name(aucs_severity s); /* "error", "warning" */
/* f's severity: a redundant barrier is always a warning. */
aucs_severity aucs_finding_severity(const aucs_finding *f);
/* Whether f sets the exit code and is repaired: an error or a proven
 * redundant barrier; with strict, every finding. */
int aucs_finding_counts(const aucs_finding *f, int strict);
/* g->message and g->lock: copies of f's (g may be a copy of f). */
void aucs_finding_dup_text(aucs_finding *g, const aucs_finding *f);
/* Append a copy of f; the list takes ownership of f's strings. */
aucs_finding *aucs_findings_push(aucs_findings *l, const aucs_finding *f);
/* Whether a and b are one finding: the same kind and the same two
 * instructions, in either order. */
int aucs_finding_same(const aucs_finding *a, const aucs_finding *b);

/* A hash of f's kind and pair of instructions (in either order), never
 * NULL: equal for findings aucs_finding_same calls one. */
const void *aucs_finding_key(const aucs_finding *f);

void aucs_findings_free(aucs_findings *l);

#endif
