// A kernel `k(.param .u64 out)` of one CTA run on the interpreter, for the instruction tests whose results are
// computed by hand from the ISA text: the module's load errors, the run's result and `out` as u32 words.
#pragma once

#include "semantics/interp/launch.hpp"
#include "semantics/ir/build.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace interp_test {

struct KernelRun {
  std::vector<std::string> errors;  // load_ptx's, rendered; the kernel did not run when there are any
  ptx::interp::RunResult r;
  std::vector<std::uint32_t> out;
};

// Word i (u32) of launch buffer `buffer` after the run; a u32 parameter; a parameter naming a launch buffer.
inline std::uint32_t word(const ptx::interp::RunResult& r, std::size_t buffer, std::size_t i) {
  std::uint32_t v = 0;
  std::memcpy(&v, r.buffers.at(buffer).second.data() + 4 * i, 4);
  return v;
}
inline ptx::interp::ParamValue u32(std::uint32_t v) { return {"", ptx::ir::ScalarType::u32, v, {}}; }
inline ptx::interp::ParamValue buf(const char* name) { return {name, {}, 0, {}}; }

// The module of tests/unit/interp/data/FILE, loaded once for the test run (results point into it); a load error
// fails the test that asks.
inline const ptx::ir::Module& data_module(const std::string& file) {
  static std::map<std::string, std::unique_ptr<ptx::ir::BuildResult>> loaded;
  auto& r = loaded[file];
  if (!r) {
    std::ifstream in(std::string(PTXCHECK_SOURCE_DIR) + "/tests/unit/interp/data/" + file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    r = std::make_unique<ptx::ir::BuildResult>(ptx::ir::load_ptx(std::move(text), file));
  }
  for (const auto& e : r->errors) FAIL(e.render());
  REQUIRE(*r);
  return *r->module;
}

// `body` in a kernel k(.param .u64 out) for sm_100a whose threads start with %r0 = %tid.x and end by storing %r9
// at out[tid] (%r0-%r15, %rd0-%rd7 and %p0-%p3 declared).
inline std::string kernel(const std::string& body) {
  return std::string(".version 9.0\n.target sm_100a\n.address_size 64\n") + R"(.visible .entry k(.param .u64 out) {
  .reg .u32 %r<16>; .reg .u64 %rd<8>; .reg .pred %p<4>;
  mov.u32 %r0, %tid.x;
)" + body + R"(
  mul.wide.u32 %rd2, %r0, 4;
  ld.param.u64 %rd1, [out];
  add.u64 %rd1, %rd1, %rd2;
  st.global.u32 [%rd1], %r9;
  ret;
})";
}

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
