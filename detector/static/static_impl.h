/*
 * static_impl: what the parts of the static checker share (static.c has
 * the algorithm; this header is private to detector/static/). The parts:
 *   static_access.c     step 1, the accesses, frames and barriers
 *   static_fields.c     step 1, fields of struct parameters as inputs
 *   static_readonly.c   step 4, loads of memory the kernel never writes
 *   static_encode.c     step 4, values and guards as Z3 terms
 *   static_intervals.c  step 2, barrier intervals and the queries
 *   static_query.c      step 3, asking Z3, witnesses and replay limits
 *   static.c            the interface: pairs, barriers, redundancy
 *   precond.c           the kernel's preconditions solved for inputs
 * Functions one part calls in another are prefixed st_.
 */
#ifndef AUCS_STATIC_IMPL_H
#define AUCS_STATIC_IMPL_H

#include "aucs/static.h"

#include "aucs/assume.h"
#include "aucs/budget.h"
#include "aucs/cfg.h"
#include "aucs/cheap.h"
#include "aucs/lanes.h"
#include "aucs/libcalls.h"
#include "aucs/nvvm.h"
#include "aucs/ptx.h"
#include "aucs/srcloc.h"
#include "aucs/uf.h"
#include "aucs/uniform.h"
#include "aucs/util.h"
#include <llvm-c/Core.h>
#include <llvm-c/Target.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Iteration states of a loop along a barrier-free path (step 2). A path
 * that leaves the loop keeps the iteration it left in (ST_LEFT + state):
 * after the loop its header phis hold that iteration's values. */
enum {
  ST_OUT0,   /* not entered since the start (start outside the loop) */
  ST_OUTX,   /* left it since the start, in an ambiguous iteration */
  ST_CUR0,   /* the start's own iteration (start inside the loop) */
  ST_CUR1,   /* the next iteration */
  ST_FRESH0, /* first iteration of the entry since the start */
  ST_FRESH1, /* second iteration of it */
  ST_RE0,    /* first iteration of a later entry */
  ST_AMB,    /* any other */
  ST_LEFT,   /* ST_LEFT + ST_CUR0 .. ST_LEFT + ST_RE0: left in that one */
  NST = ST_LEFT + ST_RE0 + 1
};
typedef uint16_t stset; /* a set of states, bit 1 << state */
_Static_assert(NST <= 16, "stset holds every state");
/* How a side sees a loop's phis: as fresh values (or the loop's induction
 * terms), as their start values, as values both sides share (the same
 * iteration, uniform phis), or as the next iteration's values of the
 * shared ones (this side one iteration on from the other). */
enum { M_FREE, M_START, M_SHARED, M_NEXT };
enum { SP_SHARED = 1, SP_GLOBAL = 2, SP_ANY = 3 };
/* WITNESS_SHARE: a SAT pair's further queries, for a witness within a
 * replay tier (replayable_witness), get this fraction of the timeout each:
 * the verdict is known already, and under the replay limits the overlap is
 * often UNSAT only through products of symbols (blockIdx.x * blockDim.x
 * wrapping around with a huge grid), which the solver proves slowly.
 * FAIR_FLOOR: the least of a query's fair limit (static_query.c's
 * query_limit) is 1/FAIR_FLOOR of the timeout. */
enum { MAX_DEPTH = 4, NWIT = 18, WITNESS_SHARE = 4, FAIR_FLOOR = 32 };

typedef struct frame {
  LLVMValueRef fn, call; /* call: the call site in parent; NULL: kernel */
  struct frame *parent;
  aucs_cfg *cfg;
  int id;
} frame;

typedef struct acc {
  LLVMValueRef instr, ptr, len; /* len: a memory intrinsic's byte count */
  frame *f;
  aucs_op op;
  uint64_t size;
  int opaque;        /* unknown extent (external call) */
  LLVMValueRef root; /* global variable or kernel argument, or NULL */
  int space;
  LLVMValueRef anchor; /* kernel-level instruction */
  int next;            /* next access of the same anchor, or -1 */
} acc;

/* Which warps a query's two threads are in. */
enum { WARP_ANY, WARP_APART, WARP_SAME };

typedef struct query {
  char *key;   /* group, then ";region" */
  size_t glen; /* the group's length: the key without the region */
  int a, b, inter, warp;
  int region; /* index into aucs_static.regions, or -1: no path condition */
  unsigned char *modes; /* side a's nloops modes, then side b's */
  int asked;
  aucs_static_verdict verdict;
  aucs_static_witness w;
} query;

/* The barrier-free part of the kernel's CFG seen from one interval start
 * (block `block`, from instruction `first`): the edges u -> v (edges[2k],
 * edges[2k + 1]) taken by a thread that reaches u's end. Kept only when
 * acyclic and free of loop edges, so each block in it runs at most once
 * per interval and a branch's value is one term. */
typedef struct region {
  LLVMValueRef first;
  int block;
  int *edges;
  size_t nedges;
} region;

typedef struct qset {
  size_t *v, n;
} qset;

/* A load of frame f in the value queries: k of its function mem<k>, 0 when
 * it is not stable (static_values.c). */
typedef struct stable_load {
  struct frame *f;
  LLVMValueRef load;
  long k;
} stable_load;

/* A pointer field of a byval parameter: the load that stands for its
 * object (static_fields.c). */
typedef struct field {
  unsigned param;
  uint64_t offset;
  LLVMValueRef root;
} field;

struct aucs_static {
  int cut;      /* where the budget stopped it (aucs_static_stopped) */
  int phase;    /* where it is: 1 building, 2 asking, 3 barriers */
  size_t asked; /* queries asked */
  LLVMValueRef fn;
  LLVMTargetDataRef td;
  aucs_static_options o;
  aucs_cfg *cfg;
  aucs_uniformity *u;
  frame **frames;
  int nframes;
  acc *accs;
  int nacc;
  aucs_ptrmap anchors; /* anchor -> first access + 1 */
  LLVMValueRef *bars;
  size_t nbar;
  unsigned char *bar_sep, *bar_red;
  aucs_ptrmap barmap;  /* barrier -> index + 1 */
  LLVMValueRef *warps; /* full-warp __syncwarp calls in uniform blocks */
  size_t nwarp;
  aucs_ptrmap warpmap; /* such a call -> 1 */
  LLVMValueRef *tails; /* calls in uniform blocks of helpers ending in a
                          barrier (ends_in_barrier) */
  size_t ntail;
  aucs_ptrmap tailmap; /* such a call -> 1 */
  query *qs;
  size_t nq;
  aucs_ptrmap qindex; /* hash of a query's key -> its index + 1 */
  size_t *qnext;      /* per query: the next of its hash's chain, + 1 */
  region *regions;
  size_t nregions;
  aucs_static_pair *pairs;
  size_t npairs;
  aucs_smt *smt, *own_smt; /* own_smt: made here, freed with S */
  Z3_context z;
  Z3_ast tid[2][3], ctaid[2][3], ntid[3], nctaid[3];
  Z3_ast *params;
  unsigned nparams;
  Z3_ast *launch;
  size_t nlaunch;
  aucs_ptrmap gbase; /* global variable -> base symbol */
  field *fields;     /* pointer fields of byval parameters */
  size_t nfields;
  aucs_ptrmap fieldmemo; /* byval parameter -> read only (1) */
  aucs_ptrmap readonly;  /* root -> its ro<k> index, or -1: written */
  size_t nreadonly;      /* 0 not decided, 1 no root read only, else the
                            next ro<k> index (from 2) */
  qset base;             /* the queries of the kernel's pairs */
  stable_load *stable;   /* loads asked about by the value queries */
  size_t nstable;
  int values_budget;    /* AUCS_STATIC_VALUES_MS added to the budget */
  aucs_ptrmap opaque;   /* terms of values the encoding cannot follow */
  aucs_ptrmap products; /* a product with an opaque factor -> its symbol */
  aucs_qcache *cache, *own_cache; /* own_cache: when no one shares one */
  const char *decided;   /* how the last ask decided without the solver */
  /* static_query.c's query_limit: a query ran out of the whole timeout
   * (hard); the queries of the set being asked not asked yet; the queries
   * the solver answered (of asked); the budget's clock (budget.h) spent
   * asking, and the units spent then */
  int hard;
  size_t pending, solved;
  double clock;
  uint64_t clock_units;
  LLVMValueRef *assumes; /* the kernel's preconditions (assume.h) */
  size_t nassume;
  unsigned char *assume_used; /* asserted in some query */
  int trace;
};

/* v = s + k * d, exact over the integers (all four signed, at one width
 * wide enough to hold them): what lets the solver order two threads'
 * multiples without reasoning about products (see multiple_lemmas). */
typedef aucs_cheap_multiple multiple;

typedef struct multiples {
  multiple *m;
  size_t n;
} multiples;

typedef struct enc {
  aucs_static *S;
  Z3_context z;
  int side;
  int block; /* whose ctaid: side, or 0 when both threads share a block */
  const unsigned char *modes;
  aucs_ptrmap *memo, *ecmemo; /* per frame */
  aucs_ptrmap *shared;        /* uniform phis, both sides */
  Z3_ast **cons;              /* the query's side constraints */
  size_t *ncons;
  multiples *mults; /* this side's */
  int stable;       /* loads of memory no thread writes in the interval are one
                       function of their address (static_values.c) */
} enc;

/* steps 1 and 4's symbols, for an analysis and for precond.c (static.c) */
aucs_static *st_setup(LLVMValueRef kernel, const aucs_static_options *o);

/* step 1: accesses, frames, barriers (static_access.c) */
const char *st_callee_name(LLVMValueRef call);
LLVMValueRef st_defined_callee(LLVMValueRef call);
int st_starts_with(const char *s, const char *p);
int st_block_of(const aucs_cfg *cfg, LLVMValueRef I);
frame *st_new_frame(aucs_static *S, LLVMValueRef fn, LLVMValueRef call,
                    frame *parent);
void st_collect_fn(aucs_static *S, frame *f, LLVMValueRef anchor);
void st_collect_barriers(aucs_static *S);

/* step 1: fields of byval parameters (static_fields.c) */
Z3_ast st_field_value(aucs_static *S, frame *f, LLVMValueRef load,
                      unsigned bits);
LLVMValueRef st_field_root(aucs_static *S, frame *f, LLVMValueRef load);
Z3_ast st_field_base(aucs_static *S, LLVMValueRef root);
Z3_ast st_field_symbol(aucs_static *S, unsigned param, uint64_t off,
                       unsigned bits);
void st_fix_fields(aucs_static *S);

/* step 4: values and guards (static_encode.c) */
Z3_ast st_bv(Z3_context z, uint64_t v, unsigned w);
void st_push_ast(Z3_ast **v, size_t *n, Z3_ast t);
Z3_ast st_product(Z3_context z, Z3_ast *d);
void st_make_symbols(aucs_static *S);
void st_unread_dims(aucs_static *S);
void st_fix_inputs(aucs_static *S);
int st_is_bool(Z3_context z, Z3_ast t);
Z3_ast st_and2(Z3_context z, Z3_ast a, Z3_ast b);
Z3_ast st_or2(Z3_context z, Z3_ast a, Z3_ast b);
Z3_ast st_linear_tid(const aucs_static *S, int side);
size_t st_multiple_lemmas(Z3_context z, const multiples *a, const multiples *b,
                          Z3_ast **v, size_t *n);
Z3_ast st_argument(enc *e, frame *f, LLVMValueRef v);
Z3_ast st_global_base(enc *e, LLVMValueRef g);
Z3_ast st_root_base(enc *e, LLVMValueRef root);
Z3_ast st_val(enc *e, frame *f, LLVMValueRef v);
Z3_ast st_edge_cond(enc *e, frame *f, int p, int b);
Z3_ast st_entry_cond(enc *e, frame *f, int b);
Z3_ast st_guard(enc *e, const acc *a);
Z3_ast st_address(enc *e, const acc *a);
Z3_ast st_extent(enc *e, const acc *a);

/* step 2: barrier intervals (static_intervals.c) */
int st_budget_spent(aucs_static *S);
void st_qset_add(qset *s, size_t q);
int st_in_group(const aucs_static *S, const qset *s, size_t q);
int st_may_overlap(const aucs_static *S, LLVMValueRef ra, LLVMValueRef rb);
void st_interval_queries(aucs_static *S, LLVMValueRef removed, qset *out);
void st_inter_queries(aucs_static *S, qset *out);

/* step 3: asking Z3 (static_query.c) */
void st_solve_all(aucs_static *S, const qset *qs);
aucs_smt_result st_ask_values(aucs_static *S, const query *q);

/* loads of objects the kernel never writes (static_readonly.c) */
Z3_ast st_readonly_load(enc *e, frame *f, LLVMValueRef load, Z3_sort s);

/* the values of racing stores (static_values.c) */
Z3_ast st_stable_load(enc *e, frame *f, LLVMValueRef load, Z3_sort s);

#endif
