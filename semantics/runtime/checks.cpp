// The checks `ptxcheck exec` can run a program under, installed when the runtime library loads: --memcheck
// (memcheck.hpp) and --racecheck (environment PTXCHECK_EXEC_RACECHECK=1): every launch runs under checker/race's
// dynamic engine (ISA 8.7.1 data races and barrier divergence of the execution that runs, vector clocks per
// thread), on the program's device memory. Each race is reported once per pair of source positions over the
// whole program, with the kernel, threads and CUDA lines; a summary is printed at exit.
#include "checker/race/dynamic.hpp"
#include "checker/race/report.hpp"
#include "semantics/runtime/findings.hpp"
#include "semantics/runtime/memcheck.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <set>

namespace ptx::runtime {
namespace {

class RacecheckMonitor : public LaunchMonitor {
 public:
  interp::RunResult run(const ir::Module& module, const interp::Launch& launch, const interp::Options& options) override {
    ptxcheck::race::DynamicOptions d;
    d.seed = options.seed;
    d.max_steps = options.max_steps;
    d.device = options.device;
    d.textures = options.textures;
    d.printf_sink = options.printf_sink;
    d.set_conditional = options.set_conditional;
    d.gpu_launch_limits = true;
    d.also = options.observer;  // --memcheck's, when both are asked for
    ptxcheck::race::DynamicResult result = ptxcheck::race::check_execution(module, launch, d);
    ++launches_;
    if (!result.error.empty()) {
      ++unchecked_;
      std::cerr << "ptxcheck exec: racecheck: kernel " << ir::kernel_title(launch.kernel) << " not checked: " << result.error << "\n";
      interp::Options plain = options;
      return interp::run(module, launch, plain);  // the program still runs
    }
    ptxcheck::race::KernelResult k = ptxcheck::race::dynamic_verdict(result, launch.kernel, options.seed);
    std::erase_if(k.races, [&](const ptxcheck::race::RaceReport& r) { return !seen_.insert(ptxcheck::race::race_key(r.first.where, r.second.where)).second; });
    for (const auto& r : k.races)
      add_finding({"ptxcheck.race.data-race", r.possible ? "warning" : "error", std::string(r.possible ? "possible " : "") + "data race: " + r.first.kind + " at " + r.first.where.text() + " / " + r.second.kind + " at " + r.second.where.text(),
                   ir::kernel_title(launch.kernel), r.first.where.file, r.first.where.line});
    for (const auto& d : k.divergences)
      add_finding({"ptxcheck.race.barrier-divergence", "error", "barrier divergence at " + d.where.text(), ir::kernel_title(launch.kernel), d.where.file, d.where.line});
    if (!k.races.empty() || !k.divergences.empty()) {
      races_ += k.races.size();
      divergences_ += k.divergences.size();
      k.notes.clear();
      ptxcheck::race::FileResult f;
      f.file = "ptxcheck exec: racecheck: launch " + std::to_string(launches_);
      f.mode = "dynamic";
      f.kernels.push_back(std::move(k));
      std::cerr << ptxcheck::race::to_text(f) << std::flush;
    }
    if (result.truncated) {
      ++unchecked_;
      std::cerr << "ptxcheck exec: racecheck: kernel " << ir::kernel_title(launch.kernel)
                << ": unknown: access history limit reached (" << (d.max_shadow_bytes >> 20)
                << " MiB of history, " << (result.tracked_bytes >> 20) << " MiB of bytes tracked): later accesses to new bytes were not checked\n";
    }
    if (!result.unsettled.empty() && result.races.empty() && result.divergences.empty()) {
      ++unchecked_;
      std::cerr << "ptxcheck exec: racecheck: kernel " << ir::kernel_title(launch.kernel) << ": unknown: " << result.unsettled << "\n";
    }
    return std::move(result.run);
  }

  std::string summary() override {
    return "racecheck: " + std::to_string(launches_) + " launches, " + std::to_string(races_) + " distinct races, " +
           std::to_string(divergences_) + " barrier divergences" +
           (unchecked_ ? ", " + std::to_string(unchecked_) + " launches not (wholly) checked" : std::string());
  }

 private:
  std::set<ptxcheck::race::RaceKey> seen_;
  std::uint64_t launches_ = 0, races_ = 0, divergences_ = 0, unchecked_ = 0;
};

void print_summary() {
  std::vector<std::string> summaries;
  if (LaunchMonitor* m = Runtime::instance().monitor()) {
    summaries.push_back(m->summary());
    std::cerr << "ptxcheck exec: " << m->summary() << "\n";
  }
  if (const char* path = std::getenv("PTXCHECK_EXEC_REPORT"); path && *path && !write_findings(path, summaries))
    std::cerr << "ptxcheck exec: cannot write the report " << path << "\n";
}

// Installed when the library is loaded, before the program's own initialisers register its kernels.
bool asked(const char* variable) {
  const char* v = std::getenv(variable);
  return v && std::string(v) == "1";
}

__attribute__((constructor)) void install_checks() {
  std::unique_ptr<LaunchMonitor> monitor;
  if (asked("PTXCHECK_EXEC_RACECHECK")) monitor = std::make_unique<RacecheckMonitor>();
  if (asked("PTXCHECK_EXEC_MEMCHECK")) monitor = std::make_unique<MemcheckMonitor>(std::move(monitor));
  const char* report = std::getenv("PTXCHECK_EXEC_REPORT");
  if (!monitor && !(report && *report)) return;
  if (monitor) Runtime::instance().set_monitor(std::move(monitor));
  std::atexit(print_summary);
}

}  // namespace
}  // namespace ptx::runtime
