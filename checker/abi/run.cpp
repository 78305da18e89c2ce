// Drives scan -> nvcc -> parse -> build -> attribute -> check for each configuration of an abi request.
// Errors are values: nvcc or parse failures come back as a Diagnostic (exit 2), never an exception.
#include "checker/abi/run.hpp"

#include "checker/abi/active_lines.hpp"

#include "semantics/ir/build.hpp"
#include "semantics/support/files.hpp"

#include <fstream>
#include <sstream>

namespace ptxcheck::abi {
namespace {
// PTX text -> report, or the first error.
std::optional<Diagnostic> check_ptx(std::string ptx_text, const std::string& ptx_name, const std::string& source,
                                    const ScanResult& scan, AbiReport& out) {
  auto parsed = ptx::parse_ptx(std::move(ptx_text), ptx_name);
  if (!parsed) return parsed.error;
  auto built = ptx::ir::build(*parsed.module);
  if (!built) return built.errors.empty() ? Diagnostic{{ptx_name, 0, 0}, "invalid PTX", "", "error"} : built.errors[0];
  auto ops = collect_ptx_ops(*built.module, source);
  out = check_abi(source, scan, ops);
  out.calling = check_calling_convention(*built.module, *parsed.module->text, ptx_name);
  if (ops.user_files.empty())
    out.notes.push_back("note: no `.file` entry of the PTX names " + source + " (compile with -lineinfo)");
  return std::nullopt;
}
}  // namespace

int AbiRun::exit_code() const {
  if (error) return 2;
  int rc = 0;
  for (const auto& r : reports) {
    int c = r.exit_code();
    if (c == 1) return 1;
    if (c == 2 || (c == 3 && rc == 0)) rc = c;
  }
  return rc;
}

AbiRun run_abi(const AbiRequest& request) {
  AbiRun run;
  const bool cuda_input = is_cuda_source(request.input);
  const std::string source = cuda_input ? request.input : request.source.value_or("");
  if (source.empty()) {
    run.error = Diagnostic{{request.input, 0, 0}, "a .ptx input needs its CUDA source (--source FILE.cu)", "", "error"};
    return run;
  }
  auto text = read_text_file(source);
  if (!text) {
    run.error = Diagnostic{{source, 0, 0}, "cannot read file", "", "error"};
    return run;
  }

  if (!cuda_input) {
    auto ptx_text = read_text_file(request.input);
    if (!ptx_text) {
      run.error = Diagnostic{{request.input, 0, 0}, "cannot read file", "", "error"};
      return run;
    }
    AbiReport report;
    // A .ptx input: the whole source is scanned (the flags it was preprocessed with are unknown).
    if (auto e = check_ptx(std::move(*ptx_text), request.input, source, scan_cuda_source(*text, source), report)) run.error = e;
    else {
      report.config = "given PTX " + request.input;
      run.reports.push_back(std::move(report));
    }
    return run;
  }
  auto archs = request.archs.empty() ? std::vector<std::string>{request.cuda.arch} : request.archs;
  auto levels = request.opt_levels.empty() ? std::vector<std::string>{""} : request.opt_levels;
  for (const auto& arch : archs) {
    for (const auto& level : levels) {
      CudaOptions o = request.cuda;
      o.arch = arch;
      if (!level.empty()) o.extra.insert(o.extra.end(), {"-Xcicc", "-O" + level});
      // The device pass's preprocessing decides which lines exist (#ifdef, __CUDA_ARCH__): `nvcc -E`.
      CudaOptions pre = o;
      pre.extra.push_back("-E");
      auto preprocessed = compile_cuda(source, pre);
      if (!preprocessed.text) {
        run.error = preprocessed.error;
        return run;
      }
      const ScanResult active_scan = scan_cuda_source(keep_active_lines(*text, *preprocessed.text, source), source);
      auto compiled = compile_cuda(source, o);
      if (!compiled.text) {
        run.error = compiled.error;
        return run;
      }
      AbiReport report;
      if (auto e = check_ptx(std::move(*compiled.text), source + ".ptx", source, active_scan, report)) {
        run.error = e;
        return run;
      }
      report.config = compiled.origin;
      if (arch.rfind("sm_", 0) == 0 && std::atoi(arch.c_str() + 3) < 70)
        report.notes.push_back("note: " + arch + " predates the PTX memory model (ISA 8 needs sm_70); chapter 4 assumes it");
      run.reports.push_back(std::move(report));
    }
  }
  return run;
}

}  // namespace ptxcheck::abi
