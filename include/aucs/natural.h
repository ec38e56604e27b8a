/*
 * natural: whether a bug needs odd inputs (DESIGN.md section 5.2;
 * docs/inputs.md, "Natural inputs").
 *
 * The input search tries sizes a host never passes (a length of 3 with 64
 * blocks, a stride of 0). After the search, each race, inter-block race,
 * barrier divergence and out-of-bounds finding is replayed once with
 * *natural* inputs: every size-like integer input the user did not set is
 * the number of threads along the axis it indexes, in the finding's own
 * launch; every other input keeps the run's value. The finding stays an
 * error when it occurs again (or when no input changes: the user gave, or
 * the search chose, the natural values); otherwise it becomes a warning
 * that names the inputs that matter, searched and natural.
 *
 * Which inputs are size-like, and their natural value (the first rule that
 * applies):
 *   1. An integer scalar argument compared (icmp, through casts,
 *      arithmetic, selects and phis) with a value computed from the thread
 *      index: with blockIdx involved along axis d, gridDim.d * blockDim.d;
 *      with threadIdx alone, blockDim.d.
 *   2. An integer input (argument or struct field) whose name has a
 *      size-like word (natural.def: n, len, size, count, width, height,
 *      rows, cols, stride, pitch, dims, ...): gridDim.d * blockDim.d along
 *      the word's axis (height, rows, ny: y; depth, nz: z; else x); an
 *      element k of a `dims`/`size`/`shape` array is the size along axis k
 *      (1 beyond z), of a `strides`/`pitch` array the product of the sizes
 *      before k.
 * A value wider than the input's type is its largest positive value.
 *
 * Limitation: the launch is not replaced (a searched launch stays); a
 * struct field is size-like by its name only (rule 2), so positional
 * fields (`arg2.f1`, code without debug info) are not; the replay is one
 * run with the finding's seed and fill.
 */
#ifndef AUCS_NATURAL_H
#define AUCS_NATURAL_H

#include "aucs/finding.h"
#include "aucs/inputs.h"
#include "aucs/search.h"
#include <llvm-c/Types.h>
#include <stddef.h>
#include <stdint.h>

typedef struct aucs_natural aucs_natural;

/* Which leaves of in are size-like, for fn's code. Free with
 * aucs_natural_free. */
aucs_natural *aucs_natural_analyze(LLVMValueRef fn, const aucs_inputs *in);
void aucs_natural_free(aucs_natural *n);
/* Leaf i's natural value for launch l in *v: 1, or 0 when it is not
 * size-like (*v untouched). */
int aucs_natural_value(const aucs_natural *n, size_t i, aucs_launch l,
                       uint64_t *v);

/* Replay c: 0 when the run finished, its findings appended to out (the
 * caller frees them); nonzero when it did not (a budget, a trap, an
 * assumption violated) or touched no memory (an early exit): such a
 * replay tells nothing, and the finding stays an error. */
typedef int (*aucs_natural_replay)(void *ctx, const aucs_candidate *c,
                                   aucs_findings *out);

typedef struct aucs_natural_kernel {
  const aucs_natural *n;
  const aucs_inputs *in;
  const aucs_inputs_values *iv; /* fixed: the leaves the user set */
  const unsigned char *lset;    /* per leaf: a run writes its value */
  aucs_natural_replay replay;
  void *ctx;
} aucs_natural_kernel;

/* Classify fs[0..nruns): runs[i] is the run that found fs[i] (its args one
 * value per leaf). A race, divergence or out-of-bounds finding that does
 * not occur again with natural inputs gets severity WARNING and its
 * `searched` and `natural` inputs. Returns the number of replays made. */
size_t aucs_natural_classify(const aucs_natural_kernel *k, aucs_findings *fs,
                             const aucs_candidate *runs, size_t nruns);

#endif
