// File-level race check (see run.hpp): load, pick kernels, check, and choose the exit code.
#include "checker/race/run.hpp"

#include "semantics/ir/build.hpp"

#include <chrono>

namespace ptxcheck::race {

std::optional<std::array<std::uint32_t, 3>> parse_dim(const std::string& s0) {
  std::string s;
  for (char ch : s0) if (ch != '[' && ch != ']' && ch != '{' && ch != '}' && ch != ' ') s += ch;
  std::array<std::uint32_t, 3> d{1, 1, 1};
  std::size_t k = 0, pos = 0;
  while (pos <= s.size()) {
    auto comma = s.find(',', pos);
    std::string part = s.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
    if (part.empty() || k >= 3) return std::nullopt;
    try {
      std::size_t used = 0;
      unsigned long v = std::stoul(part, &used, 0);
      if (used != part.size() || v == 0 || v > 0xffffffffUL) return std::nullopt;
      d[k++] = static_cast<std::uint32_t>(v);
    } catch (...) {
      return std::nullopt;
    }
    if (comma == std::string::npos) break;
    pos = comma + 1;
  }
  return d;
}

FileResult run_file(const std::string& path, RunOptions& o) {
  FileResult r;
  r.file = path;
  CudaOptions cuda = o.cuda;
  bool cu = is_cuda_source(path);
  if (cu && o.o0) { cuda.extra.push_back("-Xcicc"); cuda.extra.push_back("-O0"); }
  r.mode = !cu ? "ptx" : o.o0 ? "nvcc -Xcicc -O0 (source-faithful)" : "nvcc default optimisation";
  auto t0 = std::chrono::steady_clock::now();
  auto loaded = load_ptx_or_cuda(path, cuda);
  o.nvcc_seconds = cu ? std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() : 0;
  if (!loaded.text) {
    r.error = loaded.error->render();
    r.exit_code = 2;
    return r;
  }
  auto built = ptx::ir::load_ptx(std::move(*loaded.text), path);
  if (!built) {
    r.error = built.errors.empty() ? "PTX does not check" : built.errors.front().render();
    r.exit_code = 2;
    return r;
  }
  const auto& m = *built.module;
  auto kernels = m.kernels();
  if (o.kernel) {
    std::erase_if(kernels, [&](const ptx::ir::Function* f) { return f->name != *o.kernel; });
    if (kernels.empty()) {
      r.error = "no kernel named " + *o.kernel;
      r.exit_code = 2;
      return r;
    }
  }
  std::erase_if(kernels, [](const ptx::ir::Function* f) { return !f->has_body; });
  if (kernels.empty()) {
    r.error = "no kernel";
    r.exit_code = 2;
    return r;
  }
  for (const auto* k : kernels) r.kernels.push_back(check_kernel(m, *k, o.check));
  r.exit_code = exit_code_of(r.kernels);
  return r;
}

}  // namespace ptxcheck::race
