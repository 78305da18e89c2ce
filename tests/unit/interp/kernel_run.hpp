// A kernel `k(.param .u64 out)` of one CTA run on the interpreter, for the instruction tests whose results are
// computed by hand from the ISA text: the module's load errors, the run's result and `out` as u32 words.
#pragma once

#include "semantics/interp/launch.hpp"
#include "semantics/ir/build.hpp"

#include <cstring>
#include <string>
#include <vector>

namespace interp_test {

struct KernelRun {
  std::vector<std::string> errors;  // load_ptx's, rendered; the kernel did not run when there are any
  ptx::interp::RunResult r;
  std::vector<std::uint32_t> out;
};

inline KernelRun run_out_kernel(const std::string& ptx, std::uint32_t threads, std::uint32_t words) {
  KernelRun k;
  auto loaded = ptx::ir::load_ptx(ptx, "test.ptx");
  for (const auto& e : loaded.errors) k.errors.push_back(e.render());
  if (!loaded) return k;
  ptx::interp::Launch l;
  l.kernel = "k";
  l.grid = {1, 1, 1};
  l.block = {threads, 1, 1};
  l.buffers.push_back({"out", std::vector<std::uint8_t>(words * 4)});
  l.params.push_back({"out", {}, 0, {}});
  k.r = ptx::interp::run(*loaded.module, l);
  if (!k.r.buffers.empty()) {
    k.out.resize(words);
    std::memcpy(k.out.data(), k.r.buffers[0].second.data(), words * 4);
  }
  return k;
}

// The load errors, one a line (for a failed check's message).
inline std::string joined(const std::vector<std::string>& errors) {
  std::string s;
  for (const auto& e : errors) s += e + "\n";
  return s;
}

// Whether one of the load errors contains `what`.
inline bool mentions(const std::vector<std::string>& errors, const std::string& what) {
  for (const auto& e : errors)
    if (e.find(what) != std::string::npos) return true;
  return false;
}

}  // namespace interp_test
