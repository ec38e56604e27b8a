//===- plugin.cpp - the opt/clang pass plugin AuCS.so ---------------------===//
//
// The thin C++ shim over the C pipeline (DESIGN.md section 2): it registers
// four module passes by name and hands the module to the same C entry
// points the `aucs` CLI calls.
//
//   opt-22 -load-pass-plugin=./AuCS.so -passes=aucs-facts  -disable-output k.bc
//   opt-22 -load-pass-plugin=./AuCS.so -passes=aucs-print-conditions ...
//   opt-22 -load-pass-plugin=./AuCS.so -passes=aucs-detect -disable-output k.bc
//   AUCS_OPTIONS="--grid 2 --block 64" opt-22 ... -passes=aucs-detect ...
//   opt-22 -load-pass-plugin=./AuCS.so -passes=aucs-fix k.bc -o fixed.bc
//
// aucs-detect and aucs-fix take the `aucs detect` / `aucs fix` options from
// $AUCS_OPTIONS. When aucs's exit code would be 2 (a bad $AUCS_OPTIONS, a
// module that is no NVPTX module or has no kernel, nothing could be
// checked) or 3, the pass fails the compile (an error diagnostic for 2,
// LLVM's fatal error for 3: opt and clang exit non-zero and write no
// module); so does a bad $AUCS_MODE.
// Reports go to stdout, diagnostics to stderr. No global state: a second run
// in the same process starts from nothing.
//
//===----------------------------------------------------------------------===//

#include "llvm/Config/llvm-config.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#if LLVM_VERSION_MAJOR >= 22
#include "llvm/Plugins/PassPlugin.h"
#else
#include "llvm/Passes/PassPlugin.h"
#endif
#include "llvm/Support/ErrorHandling.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/TargetParser/Triple.h"
#include <cstdlib>
#include <string>

extern "C" {
#include "aucs/pipeline.h"
}

using namespace llvm;

namespace {

using Entry = aucs_exit (*)(LLVMModuleRef, aucs_buf *, aucs_buf *);

struct AucsPass : PassInfoMixin<AucsPass> {
  Entry Run;
  bool Edits;
  bool DeviceOnly; // inside clang: leave the host module alone

  AucsPass(Entry Run, bool Edits, bool DeviceOnly = false)
      : Run(Run), Edits(Edits), DeviceOnly(DeviceOnly) {}

  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    if (DeviceOnly && !Triple(M.getTargetTriple()).isNVPTX())
      return PreservedAnalyses::all();
    aucs_buf Out = {}, Diag = {};
    aucs_exit Code = Run(wrap(&M), &Out, &Diag);
    if (Out.len)
      outs() << Out.data;
    outs().flush();
    if (Diag.len)
      errs() << Diag.data;
    aucs_buf_free(&Out);
    aucs_buf_free(&Diag);
    if (Code >= AUCS_EXIT_USAGE)
      fail(M, Code);
    return Edits ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }

  // A usage or input error (exit 2: the module is left valid, untouched
  // or with verified repairs) is an error diagnostic: clang reports it and
  // fails the compile, opt prints it and exits 1 before writing. A module
  // that does not verify (exit 3) must not reach another pass: LLVM's fatal
  // error, which also removes opt's output file.
  static void fail(Module &M, aucs_exit Code) {
    std::string Msg = ("aucs: " + M.getModuleIdentifier() +
                       ": the pass failed (exit " + Twine((int)Code) +
                       "; the errors above say why)")
                          .str();
    if (Code == AUCS_EXIT_USAGE)
      M.getContext().emitError(Twine(Msg));
    else
      report_fatal_error(Twine(Msg), false);
  }

  static bool isRequired() { return true; }
};

aucs_exit detectWithEnvOptions(LLVMModuleRef M, aucs_buf *Out, aucs_buf *Diag) {
  return aucs_pipeline_detect_text(M, getenv("AUCS_OPTIONS"), Out, Diag);
}

aucs_exit fixWithEnvOptions(LLVMModuleRef M, aucs_buf *Out, aucs_buf *Diag) {
  return aucs_pipeline_fix_text(M, getenv("AUCS_OPTIONS"), Out, Diag);
}

// Inside clang the device module is as the front end left it (allocas,
// optnone at -O0): detect a cleaned clone, fix the cleaned module.
aucs_exit clangDetect(LLVMModuleRef M, aucs_buf *Out, aucs_buf *Diag) {
  return aucs_pipeline_clang_detect(M, getenv("AUCS_OPTIONS"), Out, Diag);
}

aucs_exit clangFix(LLVMModuleRef M, aucs_buf *Out, aucs_buf *Diag) {
  return aucs_pipeline_clang_fix(M, getenv("AUCS_OPTIONS"), Out, Diag);
}

aucs_exit badMode(LLVMModuleRef, aucs_buf *, aucs_buf *Diag) {
  aucs_buf_printf(Diag,
                  "aucs: error: AUCS_MODE must be 'detect' or 'fix', not "
                  "'%s'\n",
                  getenv("AUCS_MODE"));
  return AUCS_EXIT_USAGE;
}

bool addPass(StringRef Name, ModulePassManager &MPM,
             ArrayRef<PassBuilder::PipelineElement>) {
  if (Name == "aucs-facts")
    MPM.addPass(AucsPass(aucs_pipeline_facts, false));
  else if (Name == "aucs-print-conditions")
    MPM.addPass(AucsPass(aucs_pipeline_conditions, false));
  else if (Name == "aucs-detect")
    MPM.addPass(AucsPass(detectWithEnvOptions, false));
  else if (Name == "aucs-fix")
    MPM.addPass(AucsPass(fixWithEnvOptions, true));
  else
    return false;
  return true;
}

// Inside clang (-fpass-plugin=AuCS.so), $AUCS_MODE=detect|fix runs that
// mode on the device module at the start of its pipeline, where the IR is
// closest to the source, after sroa,simplifycfg (cleanup.h: on a clone for
// detect, on the module for fix); the host module is left alone.
void addClangPass(ModulePassManager &MPM, OptimizationLevel) {
  const char *Mode = getenv("AUCS_MODE");
  if (!Mode)
    return;
  StringRef M(Mode);
  if (M == "detect")
    MPM.addPass(AucsPass(clangDetect, false, true));
  else if (M == "fix")
    MPM.addPass(AucsPass(clangFix, true, true));
  else
    MPM.addPass(AucsPass(badMode, false));
}

void registerCallbacks(PassBuilder &PB) {
  PB.registerPipelineParsingCallback(addPass);
  PB.registerPipelineStartEPCallback(addClangPass);
}

} // namespace

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo llvmGetPassPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "AuCS", AUCS_VERSION, registerCallbacks};
}
