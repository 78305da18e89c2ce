// `ptxcheck abi FILE.cu [nvcc options] [--arch A,B] [-O 0,3] [--json]`, or `ptxcheck abi FILE.ptx --source FILE.cu`:
// checks every C++ atomic and fence against ptx-interoperability-13.0 chapter 4, and every `.func` prototype, call
// and system call against chapters 1-3. Exit 0 ok, 1 wrong, 2 bad input, 3 unknown.
#include "checker/abi/run.hpp"
#include "cli/commands.hpp"
#include "cli/cuda_flags.hpp"

#include <iostream>

namespace ptxcheck::cli {
namespace {
struct AbiArgs {
  abi::AbiRequest request;
  std::string source;
  bool json = false;
};

int run_abi_command(AbiArgs& args) {
  if (!args.source.empty()) args.request.source = args.source;
  auto run = abi::run_abi(args.request);
  if (run.error) {
    std::cerr << run.error->render() << "\n";
    return 2;
  }
  if (args.json) {
    nlohmann::json all = nlohmann::json::array();
    for (const auto& r : run.reports) all.push_back(abi::to_json(r));
    std::cout << (all.size() == 1 ? all[0] : all).dump(2) << "\n";
  } else {
    for (const auto& r : run.reports) std::cout << abi::to_text(r);
  }
  return run.exit_code();
}
}  // namespace

void register_abi(CLI::App& app) {
  auto args = std::make_shared<AbiArgs>();
  auto* cmd = app.add_subcommand("abi", "Check nvcc's atomics and fences against the C++ -> PTX mapping "
                                        "(PTX interoperability guide, chapter 4), and prototypes, calls and system calls against "
                                        "chapters 1-3; exit 1 on a mapping the table does not allow or a calling-convention violation");
  cmd->add_option("file", args->request.input, "CUDA source (.cu), or PTX (.ptx) with --source")->required();
  cmd->add_option("--source", args->source, "the CUDA source a .ptx input was compiled from");
  cmd->add_option("--archs", args->request.archs, "compile for each of these -arch values (comma separated)")->delimiter(',');
  cmd->add_option("-O,--opt", args->request.opt_levels, "compile at each of these NVVM levels (-Xcicc -O<n>; comma separated)")
      ->delimiter(',');
  cmd->add_flag("--json", args->json, "print the report as JSON");
  add_cuda_options(cmd, args->request.cuda);
  cmd->callback([args]() { exit_code = run_abi_command(*args); });
}

}  // namespace ptxcheck::cli
