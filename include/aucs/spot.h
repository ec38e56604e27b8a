/*
 * spot: the place a CUDA programmer would write a `__syncthreads();` that
 * orders a race A -> B (the first position the repair tries; place.h's
 * candidates are the fallback).
 *
 * A spot is a statement boundary of the kernel itself (never inside the
 * body of an inlined helper, never between two accesses of one statement,
 * never inside a loop at the line of that loop's own control, which has no
 * source form), in a uniform block, in no loop but those holding both A
 * and B (a barrier must not run on every iteration of a loop the race is
 * not in) or holding one of them and a racing pair of its own (both
 * accesses in the loop) that the barrier also orders, on every
 * barrier-free path from A to B. Among the spots, the
 * one that orders the most of the kernel's racing pairs wins (one barrier
 * for the whole region), then the earliest after A.
 * For a pair inside a loop that races across iterations (B reached from A
 * only around the back edge) this gives the top of the loop body; so it
 * does for A before a loop whose body holds B and races across its own
 * iterations (a sorting network's inner loop after its first compare).
 *
 * Limitation: reachability ignores which threads take which path; the
 * pairs are those the detector reported, so a race it missed does not
 * weigh in the choice (the trial's detection still checks it).
 */
#ifndef AUCS_SPOT_H
#define AUCS_SPOT_H

#include "aucs/cfg.h"
#include "aucs/uniform.h"
#include <llvm-c/Types.h>
#include <stddef.h>

/* The instruction a barrier ordering the race of a and b (instructions of
 * cfg's function, in either order) goes right before, or NULL when no spot
 * exists. pairs[0..npairs) are the function's racing pairs (either order),
 * used to choose among spots. *first and *second: the race's accesses in
 * the order the spot orders them. */
LLVMValueRef aucs_spot_find(const aucs_cfg *cfg, const aucs_uniformity *u,
                            LLVMValueRef a, LLVMValueRef b,
                            LLVMValueRef (*pairs)[2], size_t npairs,
                            LLVMValueRef *first, LLVMValueRef *second);

/* The same with the blocks a spot may lie in given (ok, per block of cfg)
 * instead of the uniform ones: the repair's second try takes the blocks
 * with the threads of the two accesses (candidates.h). */
LLVMValueRef aucs_spot_find_in(const aucs_cfg *cfg, const unsigned char *ok,
                               LLVMValueRef a, LLVMValueRef b,
                               LLVMValueRef (*pairs)[2], size_t npairs,
                               LLVMValueRef *first, LLVMValueRef *second);

#endif
