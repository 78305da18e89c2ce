// `ptxcheck race -p BUILD_DIR`: every .cu of a compilation database (compile_commands.json), compiled with its own
// flags and checked kernel by kernel, as clang-tidy -p does for C++. --jobs N checks N files at once, --shard I/N
// only the I-th part of the sorted files; the exit code is the worst over all kernels (commands.hpp).
#include "cli/commands.hpp"
#include "cli/compile_db.hpp"
#include "cli/compile_flags.hpp"
#include "cli/launch_shapes.hpp"
#include "cli/parallel.hpp"
#include "cli/race_args.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <mutex>
#include <unistd.h>

namespace ptxcheck::cli {
namespace {
namespace fs = std::filesystem;

struct Shard {
  std::size_t index = 0, count = 1;  // 0-based index
};

std::optional<Shard> parse_shard(const std::string& s) {
  if (s.empty()) return Shard{};
  auto slash = s.find('/');
  try {
    std::size_t used1 = 0, used2 = 0;
    auto i = std::stoul(s.substr(0, slash), &used1), n = std::stoul(s.substr(slash + 1), &used2);
    if (slash == std::string::npos || used1 != slash || used2 != s.size() - slash - 1 || i < 1 || n < 1 || i > n) return std::nullopt;
    return Shard{i - 1, n};
  } catch (...) {
    return std::nullopt;
  }
}

// The .cu entries, sorted by file (then database order), and of those the shard's: every count-th from index.
std::vector<ProjectResult> select_entries(const std::vector<CompileEntry>& all, Shard shard, std::vector<CompileEntry>& picked) {
  std::vector<CompileEntry> cu;
  std::copy_if(all.begin(), all.end(), std::back_inserter(cu), [](const CompileEntry& e) { return fs::path(e.file).extension() == ".cu"; });
  std::stable_sort(cu.begin(), cu.end(), [](const CompileEntry& a, const CompileEntry& b) { return a.file < b.file; });
  std::vector<ProjectResult> slots;
  for (std::size_t k = 0; k < cu.size(); ++k)
    if (k % shard.count == shard.index) {
      picked.push_back(cu[k]);
      slots.push_back({k, {}});
    }
  return slots;
}

race::FileResult error_row(const std::string& file, const std::string& error) {
  race::FileResult r;
  r.file = file;
  r.error = error;
  r.exit_code = 2;
  return r;
}

// One entry: its flags, its launch shape, then race's own check of the file.
race::FileResult check_entry(const CompileEntry& e, race::RunOptions o, const std::map<std::string, LaunchShape>& shapes) {
  std::error_code ec;
  if (!fs::is_directory(e.directory, ec)) return error_row(e.file, e.file + ": error: the entry's directory " + e.directory + " does not exist");
  o.cuda = entry_cuda_options(e, o.cuda);
  std::string error;
  auto it = shapes.find(e.file);
  LaunchShape shape = it != shapes.end() ? it->second : source_shape(e.file, error);
  if (!error.empty()) return error_row(e.file, error);
  if (shape.block) o.check.block = shape.block;
  if (shape.grid) o.check.grid = shape.grid;
  try {
    return race::run_file(e.file, o);
  } catch (const std::exception& x) {  // a file's failure is its row, never the end of the run
    return error_row(e.file, e.file + ": error: internal error: " + x.what());
  }
}

// A progress line on stderr, rewritten in place; only on a terminal.
struct Progress {
  bool on = isatty(STDERR_FILENO);
  std::size_t total = 0, done = 0;
  std::mutex mutex;
  void finished(const std::string& file) {
    if (!on) return;
    std::lock_guard lock(mutex);
    std::cerr << "\r\033[K[" << ++done << "/" << total << "] " << fs::path(file).filename().string() << std::flush;
    if (done == total) std::cerr << "\r\033[K" << std::flush;
  }
};
}  // namespace

int run_race_project(const RaceArgs& a) {
  if (!a.files.empty()) { std::cerr << "error: race -p checks the project's .cu files; give no FILE too\n"; return 2; }
  if (!a.launch.empty()) { std::cerr << "error: race -p: --launch runs one kernel; it does not apply to a project\n"; return 2; }
  auto o = race_run_options(a);
  auto format = race_format(a);
  auto shard = parse_shard(a.shard);
  if (!shard) std::cerr << "error: --shard " << a.shard << ": expected I/N with 1 <= I <= N\n";
  if (!o || !format || !shard) return 2;
  std::map<std::string, LaunchShape> shapes;
  if (!a.shapes.empty()) {
    std::string error;
    shapes = read_shapes_file(a.shapes, error);
    if (!error.empty()) { std::cerr << error << "\n"; return 2; }
  }
  CompileDb db = read_compile_db(a.project);
  if (db.error) { std::cerr << db.error->render() << "\n"; return 2; }
  std::vector<CompileEntry> entries;
  std::vector<ProjectResult> results = select_entries(db.entries, *shard, entries);
  Progress progress;
  progress.total = entries.size();
  parallel_for(entries.size(), a.jobs, [&](std::size_t i) {
    results[i].result = check_entry(entries[i], *o, shapes);
    progress.finished(entries[i].file);
  });
  print_project_results(results, *format, std::cout);
  return project_exit_code(results);
}

}  // namespace ptxcheck::cli
