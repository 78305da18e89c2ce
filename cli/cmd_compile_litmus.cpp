// `ptxcheck compile-litmus FILE.cu.litmus... [--out DIR] [--cuda] [--ptx] [nvcc options]`: compiles each CUDA
// litmus test (one kernel per thread) with nvcc and prints the lifted PTX litmus test. Exit 0 ok, 2 bad input.
#include "cli/commands.hpp"
#include "cli/cuda_flags.hpp"
#include "litmus/compile/lift.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

namespace ptxcheck::cli {
namespace {
struct CompileLitmusArgs {
  std::vector<std::string> files;
  std::string out_dir;
  bool show_cuda = false, show_ptx = false;
  CudaOptions cuda;
};

int run_compile_litmus(const CompileLitmusArgs& args) {
  namespace fs = std::filesystem;
  int rc = 0;
  for (const auto& file : args.files) {
    std::ifstream in(file);
    if (!in) {
      std::cerr << file << ": error: cannot read file\n";
      rc = 2;
      continue;
    }
    std::stringstream ss;
    ss << in.rdbuf();
    auto parsed = litmus_compile::parse_cu_litmus(ss.str(), file);
    if (!parsed.test) {
      std::cerr << parsed.error->render() << "\n";
      rc = 2;
      continue;
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
  add_cuda_options(cmd, args->cuda);
  cmd->callback([args]() { exit_code = run_compile_litmus(*args); });
}

}  // namespace ptxcheck::cli
