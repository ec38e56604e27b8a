/*
 * cleanup: the device module as clang's front end leaves it, made SSA the
 * way `aucs` makes a .cu it compiles at -O0: `function(sroa,simplifycfg)`.
 *
 * Inside clang (-fpass-plugin, the pipeline-start callback) every local
 * lives in an alloca at every -O level, and at -O0 each function carries
 * `optnone`, which makes the new pass manager skip it. The cleanup takes
 * `optnone` off, runs the passes, and puts it back on the functions that
 * had it, so clang's own -O0 pipeline and code generation still see an
 * -O0 module. Debug locations survive (reports keep their source lines).
 *
 * Limitation: at -O0 the local variables of the cleaned functions are no
 * longer in memory (what a debugger shows of them is what sroa's debug
 * values say); `aucs detect` runs it on a clone, `aucs fix` on the module
 * it repairs (docs/decisions.md).
 */
#ifndef AUCS_CLEANUP_H
#define AUCS_CLEANUP_H

#include <llvm-c/Types.h>

/* Clean m in place. 0 on success; nonzero with *err (free with free()). */
int aucs_cleanup_run(LLVMModuleRef m, char **err);

#endif
