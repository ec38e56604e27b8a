/*
 * benign: a write-write race whose writes store the same value is a
 * warning (docs/inputs.md, "Benign races").
 *
 * `if (valid) out[j * gridDim.x + blockIdx.x] = s_idx[0];` after a
 * reduction: every thread of a block writes the value the reduction left
 * in shared memory to one address. The race is real, but whichever write
 * lands last, the memory holds the same value (GPUVerify tolerates such
 * write-write races when the values are equal). A race is benign when
 *   1. both sides are plain writes (no atomic, no read) and every run that
 *      showed it stored equal bytes on each conflict (the interpreter
 *      compares them: aucs_finding.values), and
 *   2. the static checker proves the two stored values equal for any two
 *      threads of a block that write one place in one barrier interval
 *      (aucs_static_same_value).
 * It then becomes a warning whose `benign` sentence gives both pieces of
 * evidence; --strict counts it like an error. A race that stores different
 * values, or whose values the checker cannot prove equal, stays an error.
 */
#ifndef AUCS_BENIGN_H
#define AUCS_BENIGN_H

#include "aucs/finding.h"
#include "aucs/static.h"
#include <stddef.h>

struct aucs_budget;

/* The wall clock the proofs of one kernel have even when its runs spent
 * its time budget (the queries are bounded by AUCS_STATIC_VALUES_MS of
 * solver work; this bounds a loaded machine): whether a race is benign
 * must not depend on how long the kernel's runs took. */
#define AUCS_BENIGN_SECONDS 2.0

/* Classify the races of fs that are still errors, with st the kernel's
 * static analysis (NULL: none, nothing is benign) and budget the wall
 * clock its queries keep to. Returns the number made warnings. */
size_t aucs_benign_classify(aucs_static *st, aucs_findings *fs,
                            struct aucs_budget *budget);

#endif
