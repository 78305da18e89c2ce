// `ptxcheck race FILE...`: data races (PTX ISA 9.0 8.7.1) and barrier divergence of every kernel, two symbolic
// threads over Z3. Exit 0 race-free, 1 race or barrier divergence, 2 bad input or no kernel, 3 unknown.
// `race -p BUILD_DIR` (a whole project, from compile_commands.json) is cmd_race_project.cpp.
#include "checker/race/run.hpp"
#include "cli/commands.hpp"
#include "cli/cuda_flags.hpp"
#include "cli/race_args.hpp"

#include <iostream>

namespace ptxcheck::cli {

std::optional<race::RunOptions> race_run_options(const RaceArgs& a) {
  race::RunOptions o;
  o.cuda = a.cuda;
  o.o0 = a.o0;
  o.check.query = a.query;
  o.check.memory_mb = a.memory_mb;
  o.check.max_seconds = a.max_seconds;
  o.check.max_wall_seconds = a.max_wall_seconds;
  o.check.x_only = a.x_only;
  o.check.block_level = a.block_level;
  o.check.assume_pure_externs = a.pure_externs;
  if (!a.kernel.empty()) o.kernel = a.kernel;
  if (!a.launch.empty()) o.launch_file = a.launch;
  o.seed = a.seed;
  const char* dims_form = ": expected X[,Y[,Z]] or [X,Y,Z] of positive numbers\n";
  if (!a.block.empty() && !(o.check.block = race::parse_dim(a.block))) { std::cerr << "error: --blockDim=" << a.block << dims_form; return std::nullopt; }
  if (!a.grid.empty() && !(o.check.grid = race::parse_dim(a.grid))) { std::cerr << "error: --gridDim=" << a.grid << dims_form; return std::nullopt; }
  for (const auto& text : a.assumptions) {
    std::string why;
    auto parsed = race::parse_assumption(text, why);
    if (!parsed) { std::cerr << "error: --assume '" << text << "': " << why << "\n"; return std::nullopt; }
    o.check.assumptions.push_back(std::move(*parsed));
  }
  return o;
}

std::optional<RaceFormat> race_format(const RaceArgs& a) {
  if (a.format.empty()) return a.sarif ? RaceFormat::sarif : a.json ? RaceFormat::json : RaceFormat::text;
  auto f = parse_race_format(a.format);
  if (!f) std::cerr << "error: --format " << a.format << ": expected text, json, sarif or jsonl\n";
  return f;
}

namespace {
int run_race(const RaceArgs& a) {
  if (a.files.empty()) { std::cerr << "error: race: give FILE... or -p BUILD_DIR\n"; return 2; }
  auto o = race_run_options(a);
  auto format = race_format(a);
  if (!o || !format) return 2;
  std::vector<race::FileResult> all;
  int rc = 0;
  for (const auto& f : a.files) {
    all.push_back(race::run_file(f, *o));
    rc = worst_exit(rc, all.back().exit_code);
  }
  if (*format == RaceFormat::sarif) std::cout << race::to_sarif(all).dump(2) << "\n";
  else if (*format == RaceFormat::json) {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& r : all) j.push_back(race::to_json(r));
    std::cout << (j.size() == 1 ? j[0] : j).dump(2) << "\n";
  } else if (*format == RaceFormat::jsonl) {
    for (const auto& r : all) std::cout << race::to_json(r).dump() << "\n";
  } else {
    for (const auto& r : all) (r.error.empty() ? std::cout : std::cerr) << race::to_text(r);
  }
  return rc;
}
}  // namespace

void register_race(CLI::App& app) {
  auto args = std::make_shared<RaceArgs>();
  auto* cmd = app.add_subcommand("race", "Data races (PTX ISA 8.7.1) and barrier divergence; exit 0 race-free, 1 race, 2 bad input, 3 unknown");
  cmd->add_option("files", args->files, "CUDA (.cu) or PTX files");
  cmd->add_option("-p", args->project,
                  "a whole project: every .cu of BUILD_DIR/compile_commands.json (or that file), compiled with its own flags");
  cmd->add_option("--jobs,-j", args->jobs, "with -p: files compiled and checked at once (threads); results keep their order")
      ->check(CLI::Range(1u, 256u))
      ->capture_default_str();
  cmd->add_option("--shard", args->shard, "with -p: I/N, check only the I-th of N parts of the sorted files (CI matrices; join with `ptxcheck merge`)");
  cmd->add_option("--shapes", args->shapes,
                  "with -p: a JSON file {\"a.cu\": {\"blockDim\": \"256\", \"gridDim\": [4]}} of launch shapes per file (before a "
                  "`// ptxcheck: --blockDim=..` comment in the source, then --blockDim/--gridDim)");
  cmd->add_option("--format", args->format, "text, json, sarif or jsonl (one JSON object a line; with -p, what merge reads)");
  cmd->add_option("--kernel", args->kernel, "check only this kernel: its C++ name (`b`, `ns::b`, `b(int*)`) or its PTX name (`_Z1bPi`)");
  cmd->add_option("--blockDim", args->block, "threads per CTA: X[,Y[,Z]] or [X,Y]; symbolic when omitted");
  cmd->add_option("--gridDim", args->grid, "CTAs per grid: X[,Y[,Z]] or [X,Y]; symbolic when omitted");
  cmd->add_option("--launch", args->launch,
                  "dynamic engine: run this launch (the JSON of `ptxcheck run --launch`) on the interpreter and report the races of that execution");
  cmd->add_option("--seed", args->seed, "with --launch: the interpreter's schedule (0 deterministic, else randomised)")->capture_default_str();
  cmd->add_option("--assume", args->assumptions,
                  "a precondition the check may assume (repeatable): a C expression over the integer arguments arg1, arg2, ... and "
                  "blockDim.x|y|z, gridDim.x|y|z, e.g. 'arg3 == blockDim.x' (as GPUVerify's __requires)");
  cmd->add_flag("--json", args->json, "print the result as JSON");
  cmd->add_flag("--sarif", args->sarif, "print the result as SARIF 2.1.0");
  cmd->add_flag("--O0", args->o0, "compile .cu with -Xcicc -O0 (source-faithful: keeps accesses the optimiser removes)");
  cmd->add_flag("--x-only", args->x_only, "a symbolic launch shape is one-dimensional (y = z = 1), as Faial assumes");
  cmd->add_flag("--block-level", args->block_level, "check only pairs of threads of one CTA (Faial's default)");
  cmd->add_flag("--assume-pure-externs", args->pure_externs,
                "a call of a function declared without a body returns fresh values, writes no memory, has no barrier (as GPUVerify assumes)");
  cmd->add_option("--rlimit", args->query.rlimit,
                  "solver budget per query in Z3 resource units (0: none); the same on every machine and load, so the "
                  "answers are reproducible")->capture_default_str();
  cmd->add_option("--timeout-ms", args->query.timeout_ms, "solver time limit per query, the backstop of --rlimit (0: none)")
      ->capture_default_str();
  cmd->add_option("--max-seconds", args->max_seconds,
                  "CPU seconds per kernel (the checking thread, Z3 included; every stage: encoding, search, replay); past "
                  "it the answer is unknown (0: none)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--max-wall-seconds", args->max_wall_seconds, "wall-clock seconds per kernel, a backstop (0: none)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--memory-mb", args->memory_mb,
                  "resident memory of the whole process while a kernel is checked (Z3 included), and Z3's own cap; past it "
                  "the answer is unknown")
      ->check(CLI::Range(32u, 1u << 20))  // below 32 MB Z3 cannot even start its context
      ->capture_default_str();
  add_cuda_options(cmd, args->cuda);
  cmd->callback([args]() { exit_code = args->project.empty() ? run_race(*args) : run_race_project(*args); });
}

}  // namespace ptxcheck::cli
