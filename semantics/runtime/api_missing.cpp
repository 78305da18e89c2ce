// Every CUDA runtime function the replacement runtime does not implement: a weak definition that says its name
// on stderr and returns cudaErrorNotSupported (the implemented ones, in api_*.cpp, are strong and win at link
// time). No CUDA header here: each stub only needs the C name, and a C caller ignores the prototype mismatch
// of a function that takes its arguments and returns an int (cudaError_t).
#include "semantics/runtime/runtime.hpp"

#define X(name) \
  extern "C" __attribute__((weak)) int name() { return ptx::runtime::Runtime::instance().unimplemented(#name); }
#include "semantics/runtime/cudart_symbols.def"
#undef X
