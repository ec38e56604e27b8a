//===- demangle.cpp - C++ names by LLVM's demangler, for C ----------------===//
//
// The thin C++ shim behind include/aucs/demangle.h: LLVM's Itanium
// demangler (the LLVMDemangle library, inside libLLVM) with a C interface.
// It includes LLVM's Demangle header and nothing else of LLVM.
//
// Steps: split a clone suffix (".cloned", ".1") off the mangled name;
// demangle the rest with ItaniumPartialDemangler; drop a function's return
// type (the prefix "RET " that template instantiations carry); put the
// suffix back as LLVM prints it (" (.cloned)").
//
// Limitation: only Itanium names ("_Z..."); a function returning a function
// pointer keeps its return type (the type wraps the name).
//
//===----------------------------------------------------------------------===//

#include "llvm/Demangle/Demangle.h"

#include "aucs/demangle.h"

#include <cstdlib>
#include <cstring>

namespace {

// s with its first n bytes dropped, in place.
char *dropPrefix(char *s, size_t n) {
  std::memmove(s, s + n, std::strlen(s + n) + 1);
  return s;
}

// The demangled name, return type dropped; NULL when it does not demangle.
char *demangleName(const char *mangled) {
  llvm::ItaniumPartialDemangler D;
  if (D.partialDemangle(mangled))
    return nullptr;
  char *full = D.finishDemangle(nullptr, nullptr);
  if (!full || !D.isFunction())
    return full;
  char *ret = D.getFunctionReturnType(nullptr, nullptr);
  size_t n = ret ? std::strlen(ret) : 0;
  if (n && !std::strncmp(full, ret, n) && full[n] == ' ')
    dropPrefix(full, n + 1);
  std::free(ret);
  return full;
}

} // namespace

extern "C" char *aucs_demangle(const char *mangled) {
  if (!mangled || std::strncmp(mangled, "_Z", 2))
    return nullptr;
  const char *dot = std::strchr(mangled, '.');
  if (!dot)
    return demangleName(mangled);
  size_t n = (size_t)(dot - mangled);
  char *base = (char *)std::malloc(n + 1);
  if (!base)
    return nullptr;
  std::memcpy(base, mangled, n);
  base[n] = '\0';
  char *name = demangleName(base);
  std::free(base);
  if (!name)
    return nullptr;
  size_t len = std::strlen(name), slen = std::strlen(dot);
  char *out = (char *)std::realloc(name, len + slen + 4);
  if (!out) {
    std::free(name);
    return nullptr;
  }
  std::memcpy(out + len, " (", 2);
  std::memcpy(out + len + 2, dot, slen);
  std::memcpy(out + len + 2 + slen, ")", 2);
  return out;
}
