/*
 * report: the detector's results as clang-style text (stderr) and as JSON
 * (stdout, `--format=json`); kernel and object names demangled
 * (demangle.h).
 *
 * Text, one block per finding:
 *   k.cu:12:5: error: data race on 's_tile[3]' (shared)
 *   k.cu:12:5: note: write by thread (3,0,0) block (0,0,0)
 *   k.cu:14:9: note: conflicts with read by thread (4,0,0) block (0,0,0) in
 *              the same barrier interval (epoch 2)
 *   note: launch (searched): grid (1,1,1) block (64,1,1) n=100
 *   note: reproduce with: aucs detect k.cu --kernel ... --seed 7
 * The launch note and the reproduce line list the inputs the user gave
 * and those the run read (aucs_finding.shown_args); JSON all of them.
 * JSON: the schema in docs/detect.md ("JSON report").
 */
#ifndef AUCS_REPORT_H
#define AUCS_REPORT_H

#include "aucs/finding.h"
#include "aucs/util.h"
#include <llvm-c/Types.h>
#include <stddef.h>
#include <stdint.h>

typedef enum aucs_kernel_status {
  AUCS_KERNEL_CHECKED,     /* some run finished (reason: those that did not) */
  AUCS_KERNEL_UNSUPPORTED, /* the interpreter cannot lower it */
  AUCS_KERNEL_ERROR,       /* every run hit a budget or trapped */
} aucs_kernel_status;

/* A launch on which the solver found two accesses touching one byte. */
typedef struct aucs_report_witness {
  aucs_launch launch;
  aucs_dim3 thread[2], block[2]; /* of access a, of access b */
  char *args;                    /* "n=3", every input */
  char *shown_args; /* what the text shows: the inputs the user gave and
                       the scalar arguments (the solver's), or NULL */
} aucs_report_witness;

/* A precondition the static checker assumed (an llvm.assume). */
typedef struct aucs_report_assumption {
  char *location;  /* "k.cu:2:3" */
  char *condition; /* "n % 64 == 0" (the source's, else the IR's) */
} aucs_report_assumption;

/* What the static checker (static.h) said about one kernel. */
typedef struct aucs_report_static {
  int ran;            /* 0: not asked (--no-static) */
  int fixed;          /* the proof holds for the given launch only */
  int may_alias;      /* pointer arguments were allowed to overlap */
  const char *proof;  /* "race-free", "partial", "none" */
  size_t pairs, unsat, sat, unknown;
  size_t confirmed; /* pairs whose race a run showed (SAT, or unknown to
                       the solver): with unsat, the pairs decided */
  size_t shown;     /* of confirmed, those the solver left unknown */
  uint64_t queries, q_sat, q_unsat, q_unknown;
  double seconds;     /* in the solver */
  uint64_t units;     /* Z3 resource units spent (smt.h) */
  uint64_t q_cheap, q_cached; /* decided before the solver: cheap of
                                 q_unsat, cached of q_unsat or q_sat */
  /* Per finding (parallel to findings): a race's solver witness, which
   * replayed it (NULL: none). */
  aucs_report_witness **witness;
  /* Races the solver found a witness for that no run confirmed: reported
   * as "possible", never as findings (no exit code, no repair). */
  aucs_findings possible;
  aucs_report_witness *possible_witness;
  /* The proofs hold under these preconditions. */
  aucs_report_assumption *assumptions;
  size_t nassumptions;
} aucs_report_static;

/* What the detector learnt about one kernel. Owns every pointer it holds
 * except fn; free with aucs_report_kernel_free. */
typedef struct aucs_report_kernel {
  LLVMValueRef fn;
  char *name;      /* the function's (mangled) name */
  char *demangled; /* aucs_demangle, else a copy of name */
  aucs_kernel_status status;
  char *reason;       /* why status is not CHECKED, or for a CHECKED kernel
                         which runs failed: one line, or NULL */
  aucs_launch launch; /* the first run's launch and arguments */
  /* Where the launch came from (launchplan.h): "host k.cu:37 <<<1, 96>>>",
   * "given", "searched; no launch in the host code", "searched". */
  char *launch_from;
  char *args;         /* "n=100 x=0.5" */
  aucs_findings findings;
  char **reproduce; /* per finding: the command that replays its run */
  uint64_t thread_instructions, runs;
  /* Over those runs: threads simulated, block barriers they passed and
   * __syncwarp() calls they made (interp.h; the repair's cost per thread). */
  uint64_t threads_run, barriers_passed, warp_syncs;
  /* Inputs that violated an llvm.assume: not runs, nothing reported; the
   * first violated assumption's location ("k.cu:12:3") or NULL. */
  uint64_t discarded;
  char *assumption;
  /* Inputs solved from the kernel's preconditions (precond.h) that seeded
   * the search. */
  uint64_t solved;
  int cooperative; /* it syncs its grid: the launch must be cooperative */
  /* Functions the module only declares that the kernel calls (the runs
   * take their results as arbitrary values and assume they write no
   * memory): per function the note every finding carries ("assumes `bar`
   * (declared, not defined) writes no memory the kernel reads"), and where
   * it is first called ("k.cu:5:12", or NULL). */
  char **assumes, **assumes_at;
  size_t nassumes;
  /* A budget ran out (budget.h): what ("time budget (30 s) reached") and
   * what was and was not checked; both NULL when none did. */
  char *budget, *budget_checked;
  double seconds;
  /* The input search: runs the fixed schedule would have made on top,
   * why it ended (a static string, or NULL when it did not run), and
   * whether its time budget cut it short. */
  uint64_t runs_saved;
  const char *search_end;
  int search_budget;
  aucs_report_static st;
} aucs_report_kernel;

/* A library kernel (options.h: sdk) listed, not checked. Owns its
 * strings. */
typedef struct aucs_report_library {
  char *name, *demangled;
  char *file; /* where it is defined, or NULL */
} aucs_report_library;

typedef struct aucs_report {
  const char *input;   /* the input as the user named it */
  const char *version; /* aucs's version */
  aucs_report_kernel *kernels;
  size_t nkernels;
  aucs_report_library *library;
  size_t nlibrary;
  int stats;    /* add run statistics */
  int possible; /* text: list each possible race, not only their count */
  int strict;   /* --strict: warnings count (aucs_finding_counts) */
  /* Findings (and possible races) listed per kernel in every format; the
   * rest are counted ("N more findings of this kernel not listed"). 0: all.
   * Counts and the exit code always cover every finding. */
  size_t max_findings;
} aucs_report;

/* The default of --max-findings: a report of a kernel with a hundred
 * thousand findings would cost more than its check (docs/ci.md, "Budgets"). */
#define AUCS_REPORT_MAX_FINDINGS 100

/* How many of n findings r lists per kernel. */
size_t aucs_report_listed(const aucs_report *r, size_t n);
/* The listing limit of a --max-findings value (detect.h: 0 the default,
 * UINT64_MAX all), as aucs_report.max_findings takes it. */
size_t aucs_report_max_listed(uint64_t option);

/* Append the clang-style text report of r to out. */
void aucs_report_text(const aucs_report *r, aucs_buf *out);
/* Append the JSON report of r (one object, newline-terminated) to out. */
void aucs_report_json(const aucs_report *r, aucs_buf *out);

struct json_t;
/* The JSON report of r as a document (a new reference): what
 * aucs_report_json prints, for `fix --format=json` to add to. Its
 * "findings" and "warnings" arrays of a kernel hold, in order, the first
 * aucs_report_listed findings that count (aucs_finding_counts) and those
 * that do not. */
struct json_t *aucs_report_json_doc(const aucs_report *r);
/* doc as JSON indented by 2, and a newline, onto out; doc's reference is
 * released. Shared by the JSON and SARIF reports and `aucs check`. */
void aucs_report_json_put(aucs_buf *out, struct json_t *doc);
/* The headline of f ("data race on 's_tile[3]' (shared)"), as in both
 * reports. Free with free(). */
char *aucs_report_headline(const aucs_finding *f);
/* The object of f as shown ("s_tile[3]", "in[2]", "buf+6"), indexed in
 * elements when its element type is known. Free with free(). */
char *aucs_report_object(const aucs_finding *f);

void aucs_report_kernel_free(aucs_report_kernel *k);
/* Leave out of r the findings that do not count (aucs_finding_counts with
 * r->strict): what the repair acts on. With unproven, redundant barriers
 * with dynamic evidence only are kept too (the repair tries to prove them,
 * or deletes them under --trust-dynamic). */
void aucs_report_keep_counted(aucs_report *r, int unproven);

#endif
