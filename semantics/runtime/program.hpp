// Whether `ptxcheck exec` can run a prebuilt program: an ELF executable that loads libcudart.so.13 dynamically
// (the replacement runtime stands in for a shared runtime only; nvcc links the runtime statically by default).
#pragma once

#include <string>
#include <vector>

namespace ptx::runtime {

// The DT_NEEDED libraries of a 64-bit ELF file; empty when it is not one (or has no dynamic section).
std::vector<std::string> needed_libraries(const std::string& path);
// Why the program cannot run under the replacement runtime, with what to do instead; empty when it can.
std::string program_refusal(const std::string& path);

}  // namespace ptx::runtime
