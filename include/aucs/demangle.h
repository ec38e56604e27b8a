/*
 * demangle: C++ names as a CUDA programmer writes them, by LLVM's own
 * Itanium demangler (passes/demangle.cpp, a thin C++ shim over
 * llvm/Demangle/Demangle.h). Any stage may call it: it depends on nothing
 * of aucs.
 *
 * A function is named without its return type, as it is declared and as
 * `--kernel` takes it: "cuda::kernel::hamming_matcher<unsigned int,
 * true>(unsigned int*, unsigned int*, ...)", not "void cuda::...". Data keeps
 * its whole name ("block_sum<128>(float*, float const*)::smem"). A clone
 * suffix stays as LLVM prints it ("k(int*) (.cloned)").
 */
#ifndef AUCS_DEMANGLE_H
#define AUCS_DEMANGLE_H

#ifdef __cplusplus
extern "C" {
#endif

/* The demangled form of mangled, or NULL when it is not an Itanium name
 * ("_Z..."). Free with free(). */
char *aucs_demangle(const char *mangled);

#ifdef __cplusplus
}
#endif

#endif
