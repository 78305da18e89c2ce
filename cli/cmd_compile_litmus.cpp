// `ptxcheck compile-litmus FILE.cu.litmus... [--out DIR] [--cuda] [--ptx] [--source] [nvcc options]`: compiles each
// CUDA litmus test (one kernel per thread) with nvcc and prints the lifted PTX litmus test. Exit 0 ok, 2 bad input.
// `--check [--model M] [--json]`: litmus_compile::check_compiled on each file (compiled outcomes under the PTX
// model against the source under scoped-c11.cat); exit 0 consistent, 1 compiled-only outcomes, 2 error, 3 unknown.
#include "cli/commands.hpp"
#include "cli/cuda_flags.hpp"
#include "litmus/compile/check.hpp"
#include "litmus/compile/lift.hpp"
#include "litmus/compile/source_test.hpp"
#include "semantics/support/files.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace ptxcheck::cli {
namespace {
struct CompileLitmusArgs {
  std::vector<std::string> files;
  std::string out_dir;
  bool show_cuda = false, show_ptx = false, show_source = false;
  bool check = false, json = false;
  std::string model = "ptx";
  CudaOptions cuda;
};

}  // namespace

int check_compiled_files(const std::vector<std::string>& files, const std::string& ptx_model, JsonLayout json,
                         const CudaOptions& cuda) {
  litmus_compile::CheckOptions opt;
  opt.ptx_model = ptx_model;
  opt.cuda = cuda;
  std::vector<std::string> errors;
  auto models = litmus_compile::load_check_models(opt, errors);
  if (!models) {
    for (const auto& e : errors) std::cerr << e << "\n";
    return 2;
  }
  int rc = 0;
  nlohmann::json all = nlohmann::json::array();
  for (const auto& file : files) {
    auto r = litmus_compile::check_compiled(file, *models, opt);
    rc = worst_exit(rc, litmus_compile::exit_code(r));
    if (json == JsonLayout::array) all.push_back(litmus_compile::to_json(r));
    else if (json == JsonLayout::lines) std::cout << litmus_compile::to_json(r).dump() << "\n";
    else std::cout << litmus_compile::render_text(r) << "\n";
  }
  if (json == JsonLayout::array) std::cout << all.dump(2) << "\n";
  return rc;
}

namespace {
int run_compile_litmus(const CompileLitmusArgs& args) {
  namespace fs = std::filesystem;
  if (args.check) return check_compiled_files(args.files, args.model, args.json ? JsonLayout::array : JsonLayout::none, args.cuda);
  int rc = 0;
  for (const auto& file : args.files) {
    auto text = read_text_file(file);
    if (!text) {
      std::cerr << file << ": error: cannot read file\n";
      rc = 2;
      continue;
    }
    auto parsed = litmus_compile::parse_cu_litmus(*text, file);
    if (!parsed.test) {
      std::cerr << parsed.error->render() << "\n";
      rc = 2;
      continue;
    }
    if (args.show_source) {
      Diagnostic err;
      auto prog = litmus_compile::cxx_program(*parsed.test, file, err);
      if (!prog) {
        std::cerr << err.render() << "\n";
        rc = 2;
        continue;
      }
      std::cout << litmus_compile::c11_litmus(*prog) << "\n";
    }
    auto c = litmus_compile::compile_litmus(*parsed.test, file, args.cuda);
    if (args.show_cuda) std::cout << c.cuda << "\n";
    if (args.show_ptx) std::cout << c.ptx << "\n";
    if (c.error) {
      std::cerr << c.error->render() << "\n";
      rc = 2;
      continue;
    }
    if (args.out_dir.empty()) {
      std::cout << c.ptx_litmus;
    } else {
      std::error_code ec;
      fs::create_directories(args.out_dir, ec);
      auto name = fs::path(file).filename().string();
      if (name.size() > 10 && name.ends_with(".cu.litmus")) name = name.substr(0, name.size() - 10) + ".litmus";
      std::ofstream(fs::path(args.out_dir) / name) << c.ptx_litmus;
    }
  }
  return rc;
}
}  // namespace

void register_compile_litmus(CLI::App& app) {
  auto args = std::make_shared<CompileLitmusArgs>();
  auto* cmd = app.add_subcommand("compile-litmus", "Compile CUDA litmus tests (.cu.litmus) with nvcc and print the lifted PTX litmus tests");
  cmd->add_option("files", args->files, ".cu.litmus files")->required();
  cmd->add_option("--out", args->out_dir, "write NAME.litmus files to this folder instead of printing");
  cmd->add_flag("--cuda", args->show_cuda, "also print the generated CUDA source");
  cmd->add_flag("--ptx", args->show_ptx, "also print nvcc's PTX");
  cmd->add_flag("--source", args->show_source, "also print the source-level test for scoped-c11.cat");
  cmd->add_flag("--check", args->check,
                "compare outcomes: the compiled test under the PTX model against the source under scoped-c11.cat");
  cmd->add_option("--model", args->model, "PTX model for --check: `ptx` or a .cat path")->capture_default_str();
  cmd->add_flag("--json", args->json, "with --check: print the reports as JSON");
  add_cuda_options(cmd, args->cuda);
  cmd->callback([args]() { exit_code = run_compile_litmus(*args); });
}

}  // namespace ptxcheck::cli
