// From CUDA litmus threads to a PTX litmus test: each thread becomes a kernel (`extern "C" P<i>`), nvcc
// compiles them, and the straight-line PTX of each kernel is lifted back to herd-style PTX litmus
// instructions (`st.release.gpu y, 1`, `ld.acquire.gpu r0, y`). Control flow and computed values are
// reported as unsupported, by name and PTX line, never skipped.
#pragma once

#include "litmus/compile/cu_litmus.hpp"
#include "semantics/ir/ir.hpp"
#include "semantics/support/cuda.hpp"

#include <optional>
#include <string>
#include <vector>

namespace ptxcheck::litmus_compile {

// The CUDA translation unit holding one kernel per thread (a prelude gives `at<dev>(x)`, `rlx`/`acq`/
// `rel`/`ar`/`sc`, `thr`/`blk`/`dev`/`sys`, `fence(order, scope)`); `#line` keeps the test's lines.
std::string generate_kernels(const CuLitmus& test, const std::string& file);

struct LiftedThread {
  std::vector<std::string> instructions;      // herd PTX syntax, one per line
  std::vector<std::string> register_init;     // `P1:r0=0` for source registers that hold constants
};

struct Lifted {
  std::vector<LiftedThread> threads;
  std::optional<Diagnostic> error;  // unsupported construct in the compiled code, or a compile error
};

Lifted lift_module(const CuLitmus& test, const ptx::ir::Module& module);

// The whole step: generate, compile (nvcc -ptx with `options`), lift, and print the PTX litmus test.
struct Compiled {
  std::string ptx_litmus;  // the PTX litmus test text (herd/Dat3M dialect)
  std::string cuda;        // the generated CUDA source
  std::string ptx;         // nvcc's output
  std::optional<Diagnostic> error;
};
Compiled compile_litmus(const CuLitmus& test, const std::string& file, const CudaOptions& options);

}  // namespace ptxcheck::litmus_compile
