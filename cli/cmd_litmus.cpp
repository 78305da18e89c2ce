// `ptxcheck litmus FILE...`: the outcomes the PTX memory model (ISA 9.0 chapter 8, or any cat model) allows
// for litmus tests, printed herd7-style or as JSON. Exit 0 every condition holds, 1 some condition does not
// hold, 2 bad input or usage, 3 unknown (budget, unsupported construct, loop bound) — the worst test decides.
#include "cli/commands.hpp"
#include "cli/cuda_flags.hpp"
#include "litmus/driver.hpp"
#include "litmus/parse/parse.hpp"
#include "litmus/report/report.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

extern char** environ;

namespace ptxcheck::cli {
namespace {
struct LitmusArgs {
  std::vector<std::string> files;
  std::string model = "ptx";
  std::string engine = "symbolic";
  int jobs = 1;
  int unroll = 2;
  long long timeout_ms = 60000;
  long long memory_mb = 4096;
  bool json = false, explain = false, compile = false, states = false;
  std::string dot_dir;
  CudaOptions cuda;
};

int exit_of(const litmus::Result& r) {
  if (r.result == "holds") return 0;
  if (r.result == "fails") return 1;
  if (r.result == "unknown") return 3;
  return 2;
}

// A file name for test `name`'s k-th final state: letters, digits, '-', '_', '.', '+' kept.
std::string picture_name(const std::string& name, std::size_t k) {
  std::string s;
  for (char c : name) s += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '+') ? c : '_';
  return s + "-state" + std::to_string(k);
}

bool have_dot() {
  static const bool found = [] {
    const char* path = std::getenv("PATH");
    std::stringstream ss(path ? path : "");
    for (std::string dir; std::getline(ss, dir, ':');)
      if (!dir.empty() && access((dir + "/dot").c_str(), X_OK) == 0) return true;
    return false;
  }();
  return found;
}

// `dot -Tsvg IN -o OUT`; returns false when dot failed.
bool render_svg(const std::string& in, const std::string& out) {
  std::vector<std::string> argv_s = {"dot", "-Tsvg", in, "-o", out};
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid;
  if (posix_spawnp(&pid, "dot", nullptr, nullptr, argv.data(), environ) != 0) return false;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

Diagnostic file_error(const std::string& file, const std::string& message) {
  Diagnostic d;
  d.where.file = file;
  d.message = message;
  return d;
}

int run_litmus(const LitmusArgs& a) {
  // --compile: each FILE.cu.litmus is compiled, lifted and checked against the source-level model.
  if (a.compile) return check_compiled_files(a.files, a.model, a.json ? JsonLayout::lines : JsonLayout::none, a.cuda);
  std::vector<std::string> errors;
  auto model = litmus::load_named_model(a.model, errors);
  if (!model) {
    for (auto& e : errors) std::cerr << e << "\n";
    if (errors.empty()) std::cerr << a.model << ": error: cannot load model\n";
    return 2;
  }
  if (a.jobs < 1 || a.unroll < 0 || a.timeout_ms < 0 || a.memory_mb < 0) {
    std::cerr << "error: --jobs must be at least 1, --unroll, --timeout-ms and --memory-mb at least 0\n";
    return 2;
  }
  if (!a.dot_dir.empty()) {
    std::error_code ec;
    std::filesystem::create_directories(a.dot_dir, ec);
    if (ec) {
      std::cerr << a.dot_dir << ": error: cannot create folder: " << ec.message() << "\n";
      return 2;
    }
  }
  litmus::Options opt;
  opt.engine = a.engine == "explicit"    ? litmus::Engine::explicit_
               : a.engine == "per-trace" ? litmus::Engine::symbolic_split
                                         : litmus::Engine::symbolic;
  // Every final state only when asked for, or when a picture per state is (the verdict needs one query).
  opt.all_states = a.states || !a.dot_dir.empty();
  opt.unroll = a.unroll;
  opt.explain = a.explain;
  opt.keep_witnesses = !a.dot_dir.empty();
  litmus::RunConfig cfg;
  cfg.jobs = a.jobs;
  cfg.budget_ms = a.timeout_ms;
  cfg.memory_mb = a.memory_mb;
  // Z3 stops at its own cap first (90%), so a big solver problem ends as "z3: out of memory" and the rest of
  // the worker (its traces) stays within the budget.
  if (a.memory_mb > 0) opt.solver_memory_mb = static_cast<unsigned>(std::max<long long>(1, a.memory_mb * 9 / 10));
  cfg.loader = [](const std::string& f, std::vector<Diagnostic>& d) -> std::optional<litmus::Test> {
    if (f.ends_with(".cu.litmus")) {
      d.push_back(file_error(f, "a CUDA litmus test: run it with --compile"));
      return std::nullopt;
    }
    return litmus::load_any(f, d);
  };
  if (!a.dot_dir.empty()) {
    std::string dir = a.dot_dir;
    // Runs in the worker, where the witnesses still exist: one picture per final state.
    cfg.post = [dir](const litmus::Test&, litmus::Result& r) {
      for (std::size_t k = 0; k < r.states.size(); ++k) {
        auto base = (std::filesystem::path(dir) / picture_name(r.name, k)).string();
        std::ofstream(base + ".dot") << litmus::render_dot(r, r.states[k]);
        if (have_dot()) render_svg(base + ".dot", base + ".svg");
      }
    };
  }
  auto results = litmus::run_files(a.files, *model, opt, cfg);
  int rc = 0;
  for (auto& r : results) {
    if (a.json) std::cout << litmus::render_json(r).dump() << "\n";
    else if (r.result == "error") std::cerr << r.reason << "\n";
    else std::cout << litmus::render_text(r) << "\n";
    rc = worst_exit(rc, exit_of(r));
  }
  return rc;
}
}  // namespace

void register_litmus(CLI::App& app) {
  auto args = std::make_shared<LitmusArgs>();
  auto* cmd = app.add_subcommand(
      "litmus", "Outcomes the PTX memory model allows for litmus tests; exit 0 every condition holds, 1 one fails, 2 bad input, 3 unknown");
  cmd->add_option("files", args->files, "litmus tests (.litmus; NVIDIA's .test, a template giving FILE.test#k per row; .cu.litmus with --compile)")->required();
  cmd->add_option("--model", args->model, "ptx (memmodel/models/ptx.cat) or a .cat file")->capture_default_str();
  cmd->add_option("--engine", args->engine,
                  "symbolic (Z3, one problem per test), per-trace (Z3, one problem per combination of thread traces: "
                  "the engine before, for comparison) or explicit (enumerates candidate executions)")
      ->check(CLI::IsMember({"symbolic", "per-trace", "explicit"}))
      ->capture_default_str();
  cmd->add_option("--jobs,-j", args->jobs, "tests run in parallel")->capture_default_str();
  cmd->add_option("--unroll", args->unroll, "loop unrolling bound (backward jumps per target)")->capture_default_str();
  cmd->add_option("--timeout-ms", args->timeout_ms, "wall-clock budget per test, then unknown; 0 = none")->capture_default_str();
  cmd->add_option("--memory-mb", args->memory_mb,
                  "resident-memory budget per test (its worker process, Z3 included), then unknown; 0 = none")
      ->capture_default_str();
  cmd->add_flag("--json", args->json, "one JSON object per test and line");
  cmd->add_option("--dot", args->dot_dir, "write a Graphviz picture of one witness per final state (and SVG when dot is installed)");
  cmd->add_flag("--states", args->states,
                "list every allowed final state (without it: the verdict and one witness state each way)");
  cmd->add_flag("--explain", args->explain, "name the axioms that forbid the condition's outcomes");
  cmd->add_flag("--compile", args->compile, "FILE.cu.litmus: compile with nvcc, lift to PTX, and report the outcomes the PTX model allows that the source model (scoped-c11.cat) forbids, with witnesses; exit 1 when there are some");
  add_cuda_options(cmd, args->cuda);
  cmd->callback([args]() { exit_code = run_litmus(*args); });
}

}  // namespace ptxcheck::cli
