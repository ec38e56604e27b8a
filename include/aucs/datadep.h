/*
 * datadep: findings that follow from buffer contents aucs invented
 * (docs/inputs.md, "Data-dependent findings").
 *
 * A pointer parameter's buffer holds the fill unless the user gives its
 * contents (--buffer-data): a tree walk over filled nodes, a merge over
 * filled sample ranks, neighbour lists of filled indices follow garbage,
 * and the races and out-of-bounds accesses found there may never happen on
 * the data a host passes. Each race, inter-block race, barrier divergence
 * and out-of-bounds finding is replayed once with the interpreter's taint
 * track (interp.h, cfg.taint): when its addresses, or a thread-dependent
 * branch before its accesses, were computed from filled bytes, it becomes a
 * warning naming those buffers (data_dependent) and where they were read
 * (data_loads). A finding of the given data, or of addresses computed from
 * the thread index and scalars only, stays an error; a replay that does not
 * reproduce the finding leaves it as it is. A replay stops once each
 * finding it was run for is found and depends on filled data (interp.h,
 * taint_until): the rest of the run could only name more buffers.
 */
#ifndef AUCS_DATADEP_H
#define AUCS_DATADEP_H

#include "aucs/finding.h"
#include "aucs/search.h"
#include <stddef.h>

/* The taint replays of one kernel stop after this many thread
 * instructions in all (what a replay found by then still counts): a count,
 * so that the machine's load never changes which findings are warnings.
 * AUCS_DATADEP_SECONDS of wall clock, or the end of the kernel's time
 * budget if that comes first, is a safety net only; none runs once the
 * search has spent the kernel's budget. */
#define AUCS_DATADEP_STEPS (1ull << 28)
#define AUCS_DATADEP_SECONDS 20.0

/* Replay c with the taint track: 0 when the run finished, its findings
 * (with data_dependent set) appended to out (the caller frees them). */
typedef int (*aucs_datadep_replay)(void *ctx, const aucs_candidate *c,
                                   aucs_findings *out);

/* Classify fs[0..nruns): runs[i] is the run that found fs[i], with nleaves
 * argument values. Returns the number of replays made. */
size_t aucs_datadep_classify(aucs_datadep_replay replay, void *ctx,
                             size_t nleaves, aucs_findings *fs,
                             const aucs_candidate *runs, size_t nruns);

#endif
