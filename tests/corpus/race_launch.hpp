// How the race corpus driver launches each MANIFEST row: GPUVerify's and Faial's launch arguments, ScoR's
// "grid x block", Indigo's fixed shape (issue 6), and when to fall back to the source-faithful -O0 mode.
#pragma once

#include "checker/race/run.hpp"
#include "manifest.hpp"
#include "semantics/ir/build.hpp"

#include <sstream>
#include <string>

namespace ptxcheck {

// Sets the launch shape in `o` from the row; returns the arguments used (for the row's key).
inline std::string race_launch(const std::string& set, const corpus::Row& row, race::Options& o) {
  std::string args;
  auto take = [&](const std::string& text) {
    std::istringstream in(text);
    for (std::string w; in >> w;) {
      if (w.rfind("--blockDim=", 0) == 0) o.block = race::parse_dim(w.substr(11));
      else if (w.rfind("--gridDim=", 0) == 0) o.grid = race::parse_dim(w.substr(10));
    }
  };
  if (set == "gpuverify-cuda") { args = row.at("gpuverify_args"); take(args); }
  else if (set == "faial-drf") {
    // Faial checks one block unless told otherwise (--gridDim=N, --grid-level, --all-levels).
    args = row.at("faial_args");
    o.grid = std::array<std::uint32_t, 3>{1, 1, 1};
    if (args.find("--grid-level") != std::string::npos || args.find("--all-levels") != std::string::npos) o.grid.reset();
    take(args);
  } else if (set == "scor") {
    args = row.at("grid_x_block");
    unsigned g = 0, b = 0;
    char x = 0;
    std::istringstream in(args);
    if (in >> g >> x >> b && g && b) {
      o.grid = std::array<std::uint32_t, 3>{g, 1, 1};
      o.block = std::array<std::uint32_t, 3>{b, 1, 1};
    }
  } else if (set == "indigo-hirace") {
    o.block = std::array<std::uint32_t, 3>{256, 1, 1};
    o.grid = std::array<std::uint32_t, 3>{4, 1, 1};
  }
  return args;
}

// nvcc's default optimisation left nothing to check: the kernels of the PTX it made contain no load, store
// or atomic outside the parameter space (for example a lone `ret`).
inline bool needs_o0(const std::string& path, const CudaOptions& cuda) {
  if (!is_cuda_source(path)) return false;
  auto loaded = load_ptx_or_cuda(path, cuda);
  if (!loaded.text) return false;
  auto built = ptx::ir::load_ptx(std::move(*loaded.text), path);
  if (!built) return false;
  bool any_kernel = false;
  for (const auto* k : built.module->kernels()) {
    if (!k->has_body) continue;
    any_kernel = true;
    for (const auto& in : k->body) {
      using ptx::ir::Opcode;
      bool mem = in.op == Opcode::ld_ || in.op == Opcode::st_ || in.op == Opcode::atom_ || in.op == Opcode::red_ ||
                 in.op == Opcode::ldu_ || in.op == Opcode::call_;
      if (mem && in.q.space != ptx::ir::StateSpace::param) return false;
    }
  }
  return any_kernel;
}

}  // namespace ptxcheck
