// What the runtime API files (api_*.cpp) share to answer a call: the runtime's error numbers are CUDA's own
// (runtime.hpp), and an invalid argument is recorded as the call's error (sticky rules: Runtime::record).
#pragma once

#include "semantics/runtime/runtime.hpp"

#include <cuda_runtime_api.h>

#include <string>

inline cudaError_t as_error(int e) { return static_cast<cudaError_t>(e); }

// cudaErrorInvalidValue, recorded; `why`, when given, is reported to the user first.
inline cudaError_t invalid(const std::string& why = {}) {
  if (!why.empty()) ptx::runtime::Runtime::instance().report(why);
  return as_error(ptx::runtime::Runtime::instance().record(ptx::runtime::invalid_value));
}
