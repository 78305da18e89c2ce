// File-level race check (see run.hpp): load, pick kernels, check, and choose the exit code.
#include "checker/race/run.hpp"

#include "checker/race/dynamic.hpp"
#include "checker/race/notes.hpp"
#include "semantics/interp/launch.hpp"
#include "semantics/interp/launch_json.hpp"
#include "semantics/ir/build.hpp"

#include <z3++.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <set>

namespace ptxcheck::race {

std::optional<std::array<std::uint32_t, 3>> parse_dim(const std::string& s0) {
  std::string s;
  for (char ch : s0) if (ch != ' ') s += ch;
  // One enclosing pair of brackets or braces, or none.
  if (!s.empty() && (s.front() == '[' || s.front() == '{')) {
    if (s.size() < 2 || s.back() != (s.front() == '[' ? ']' : '}')) return std::nullopt;
    s = s.substr(1, s.size() - 2);
  }
  if (s.find_first_of("[]{}") != std::string::npos) return std::nullopt;
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

namespace {
// A shape no GPU launches (ptx::interp::launch_shape_error: above the hardware limits, or against the kernel's
// .reqntid / .maxntid) is still checked as given, as GPUVerify and Faial do (their corpora use blocks of 2048
// threads), and the verdict says so.
void note_unlaunchable_shape(const ptx::ir::Function& kernel, const std::optional<ptx::interp::Dims>& block,
                             const std::optional<ptx::interp::Dims>& grid, KernelResult& result) {
  if (auto why = ptx::interp::launch_shape_error(block, grid, &kernel); !why.empty())
    result.notes.push_back(note::unlaunchable_shape(why));
}

// Whether nvcc's optimiser left nothing to check: no kernel has a load, store, atomic or call outside the
// parameter space (the optimiser may delete racy stores whose values are never read, e.g. a lone `ret`).
// Whether a kernel's body accesses memory (a call may): nothing_to_check is this over every kernel of the module,
// taken while load_ptx builds the bodies (it keeps only the --kernel's).
bool accesses_memory(const ptx::ir::Function& k) {
  if (!k.is_entry) return false;
  for (const auto& in : k.body) {
    using ptx::ir::Opcode;
    bool mem = in.op == Opcode::ld_ || in.op == Opcode::st_ || in.op == Opcode::atom_ || in.op == Opcode::red_ ||
               in.op == Opcode::ldu_ || in.op == Opcode::call_;
    if (mem && in.q.space != ptx::ir::StateSpace::param) return true;
  }
  return false;
}

// `--launch`: the launch file's kernel (or --kernel, or the module's only kernel) run once by the dynamic engine.
void run_dynamic(const ptx::ir::Module& m, const RunOptions& o, FileResult& r) {
  ptx::interp::Launch launch;
  std::string error;
  if (!ptx::interp::read_launch_file(*o.launch_file, launch, error)) {
    r.error = error;
    r.exit_code = 2;
    return;
  }
  if (o.kernel) launch.kernel = *o.kernel;
  if (o.check.block) launch.block = *o.check.block;
  if (o.check.grid) launch.grid = *o.check.grid;
  auto kernels = launch.kernel.empty() ? m.kernels() : m.kernels_named(launch.kernel);
  std::erase_if(kernels, [&](const ptx::ir::Function* f) { return !f->has_body; });
  if (kernels.size() != 1) {
    r.error = !launch.kernel.empty() ? m.no_single_kernel_named(launch.kernel)
              : kernels.empty()      ? std::string("no kernel")
                                     : "the module has several kernels: name one with --kernel or \"kernel\" in the launch file";
    r.exit_code = 2;
    return;
  }
  launch.kernel = kernels[0]->name;
  DynamicOptions d;
  d.seed = o.seed;
  DynamicResult res = check_execution(m, launch, d);
  if (res.run.problem.kind == ptx::interp::Problem::Kind::bad_launch) {
    r.error = *o.launch_file + ": error: " + res.run.problem.message;
    r.exit_code = 2;
    return;
  }
  r.kernels.push_back(dynamic_verdict(res, launch.kernel, o.seed));
  note_unlaunchable_shape(*kernels[0], launch.block, launch.grid, r.kernels.back());
  r.exit_code = exit_code_of(r.kernels);
}
// Without --kernel every kernel is checked, and keeping every body's IR at once costs about 12 bytes a byte of PTX
// (docs/footprint.md). Above BatchLimits::above bytes of PTX, the first load keeps no body and the kernels are checked in
// batches of about BatchLimits::instructions instructions, each batch's bodies (and what they reach) built again from the
// shared text and dropped after it: peak memory is the text plus one batch, for a parse of the text per batch.
// PTXCHECK_RACE_BATCH="BYTES,INSTRUCTIONS" sets both, for tests (tests/cli/footprint.py) and measurements.
struct BatchLimits {
  std::size_t above = 1u << 20;
  std::size_t instructions = 25'000;
};
BatchLimits batch_limits() {
  BatchLimits l;
  if (const char* env = std::getenv("PTXCHECK_RACE_BATCH"))
    if (std::sscanf(env, "%zu,%zu", &l.above, &l.instructions) != 2) l = BatchLimits{};
  return l;
}

template <class CheckModule>
void check_in_batches(const std::shared_ptr<const std::string>& text, const std::string& ptx_name,
                      const std::vector<std::pair<std::string, std::size_t>>& kernel_sizes, std::size_t budget,
                      CheckModule& check_module, FileResult& r) {
  if (kernel_sizes.empty()) {
    r.error = "no kernel";
    r.exit_code = 2;
    return;
  }
  for (std::size_t at = 0; at < kernel_sizes.size();) {
    std::set<std::string> batch;
    for (std::size_t size = 0; at < kernel_sizes.size() && (batch.empty() || size + kernel_sizes[at].second <= budget); ++at) {
      batch.insert(kernel_sizes[at].first);
      size += kernel_sizes[at].second;
    }
    ptx::ir::LoadOptions keep;
    keep.keep = [&batch](const ptx::ir::Module&, const ptx::ir::Function& f) { return batch.count(f.name) > 0; };
    auto built = ptx::ir::load_ptx(text, ptx_name, keep);
    if (!built) {  // (it loaded once: only an internal failure gets here)
      r.error = built.errors.empty() ? "PTX does not check" : built.errors.front().render();
      r.exit_code = 2;
      return;
    }
    FileResult part;
    check_module(*built.module, part, &batch);
    if (part.exit_code == 2) {
      r.error = part.error;
      r.exit_code = 2;
      return;
    }
    for (auto& k : part.kernels) r.kernels.push_back(std::move(k));
  }
  r.exit_code = exit_code_of(r.kernels);
}
}  // namespace

FileResult run_file(const std::string& path, RunOptions& o) {
  FileResult r;
  r.file = path;
  const bool cu = is_cuda_source(path);
  o.nvcc_seconds = 0;
  auto load = [&](bool o0) {
    CudaOptions cuda = o.cuda;
    if (cu && o0) { cuda.extra.push_back("-Xcicc"); cuda.extra.push_back("-O0"); }
    auto t0 = std::chrono::steady_clock::now();
    auto loaded = load_ptx_or_cuda(path, cuda);
    if (cu) o.nvcc_seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return loaded;
  };
  bool o0 = cu && o.o0;
  auto loaded = load(o0);
  if (!loaded.text) {
    r.error = loaded.error->render();
    r.exit_code = 2;
    return r;
  }
  // nvcc's PTX is named after its source, so that a position in it (a parse error, an instruction without `.loc`)
  // is not read as a line of the .cu file.
  const std::string ptx_name = cu ? path + " (nvcc output)" : path;
  // With --kernel, only that kernel's body (and what it calls) is kept; the others are checked and dropped. Without
  // it, a large module keeps no body on this first pass: its kernels are checked in batches (check_in_batches).
  const auto text = std::make_shared<const std::string>(std::move(*loaded.text));
  const BatchLimits limits = batch_limits();
  const bool batched = !o.kernel && !o.launch_file && text->size() > limits.above;
  auto options = ptx::ir::keep_kernels_named(o.kernel ? *o.kernel : std::string());
  if (batched) options.keep = [](const ptx::ir::Module&, const ptx::ir::Function&) { return false; };
  bool nothing_to_check = true;
  std::vector<std::pair<std::string, std::size_t>> kernel_sizes;  // (batched) each kernel and its instruction count
  options.on_body = [&](std::size_t, const ptx::ir::Function& f) {
    nothing_to_check &= !accesses_memory(f);
    if (batched && f.is_entry) kernel_sizes.emplace_back(f.name, f.body.size());
  };
  auto built = ptx::ir::load_ptx(text, ptx_name, options);
  if (!built) {
    r.error = built.errors.empty() ? "PTX does not check" : built.errors.front().render();
    r.exit_code = 2;
    return r;
  }
  r.mode = !cu ? "ptx" : o0 ? "nvcc -Xcicc -O0 (source-faithful)" : "nvcc default optimisation";
  if (o.launch_file) {
    if (!o.check.assumptions.empty()) {
      r.error = "--assume is a precondition of the symbolic check; a --launch run has concrete arguments";
      r.exit_code = 2;
      return r;
    }
    r.mode += ", dynamic engine on " + *o.launch_file;
    run_dynamic(*built.module, o, r);
    return r;
  }
  // Checks every kernel (or the one named) of a module into r; false when there is none.
  // `only`: the kernels of one batch (check_in_batches).
  auto check_module = [&](const ptx::ir::Module& m, FileResult& out, const std::set<std::string>* only = nullptr) {
    auto kernels = o.kernel ? m.kernels_named(*o.kernel) : m.kernels();
    if (only) std::erase_if(kernels, [&](const ptx::ir::Function* f) { return !only->count(f->name); });
    if (o.kernel) {
      if (kernels.empty()) {
        out.error = m.no_single_kernel_named(*o.kernel);
        out.exit_code = 2;
        return;
      }
    }
    std::erase_if(kernels, [](const ptx::ir::Function* f) { return !f->has_body; });
    if (kernels.empty()) {
      out.error = "no kernel";
      out.exit_code = 2;
      return;
    }
    for (const auto* k : kernels)
      for (const auto& a : o.check.assumptions)
        if (auto why = assumption_error(a, *k, &m); !why.empty()) {
          out.error = why;
          out.exit_code = 2;
          return;
        }
    for (const auto* k : kernels) {
      try {
        out.kernels.push_back(check_kernel(m, *k, o.check));
      } catch (const z3::exception& e) {  // Z3 out of memory (Options::memory_mb) while encoding: unknown
        KernelResult unknown;
        unknown.kernel = k->name;
        unknown.verdict = KernelResult::Verdict::unknown;
        unknown.unknown_reasons.push_back(z3_failure(e.msg(), o.check));
        out.kernels.push_back(std::move(unknown));
      }
      note_unlaunchable_shape(*k, o.check.block, o.check.grid, out.kernels.back());
    }
    out.exit_code = exit_code_of(out.kernels);
  };
  if (batched) check_in_batches(text, ptx_name, kernel_sizes, limits.instructions, check_module, r);
  else check_module(*built.module, r);
  if (cu && !o0 && r.exit_code == 0 && nothing_to_check) {
    // The optimiser left no memory access (it may delete racy stores whose values are never read): check the
    // same file source-faithfully at -Xcicc -O0 too (generic addresses resolved by provenance). Its verdict
    // is the answer when it has one; when it is unknown, the answer stays that of the PTX nvcc produced by
    // default, which is race free, and the note says so.
    auto again = load(true);
    if (!again.text) return r;
    auto b0 = ptx::ir::load_ptx(std::move(*again.text), ptx_name);
    if (!b0) return r;
    FileResult r0;
    r0.file = path;
    r0.mode = "nvcc -Xcicc -O0 (source-faithful: the default optimisation left no memory access)";
    check_module(*b0.module, r0);
    if (r0.exit_code == 0 || r0.exit_code == 1) return r0;
    std::string why = r0.kernels.empty() || r0.kernels[0].unknown_reasons.empty() ? r0.error : r0.kernels[0].unknown_reasons.front();
    for (auto& k : r.kernels)
      k.notes.push_back(note::compiled_away_inconclusive(why));
  }
  return r;
}

}  // namespace ptxcheck::race
