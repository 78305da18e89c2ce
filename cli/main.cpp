// ptxcheck: the one executable. Subcommands live in cmd_<name>.cpp, one file each.
#include "cli/commands.hpp"
#include "cli/nvcc_spellings.hpp"
#include "semantics/support/allocator.hpp"
#include "semantics/support/install_layout.hpp"

#include <algorithm>
#include <string>
#include <string_view>

int main(int argc, char** argv) {
  ptxcheck::tune_allocator();
  CLI::App app{"ptxcheck: the formal semantics of NVIDIA PTX (ISA 9.0) — parse, run, litmus, race, abi, prove"};
  app.require_subcommand(1);
  // The version (project() in CMakeLists.txt) and where the cat models are read from (docs/install.md).
  app.set_version_flag("--version", [] {
    const auto& data = ptxcheck::data_dir();
    return std::string("ptxcheck " PTXCHECK_VERSION "\ndata directory: ") + data.path.string() + " (" + data.found_by + ")";
  });
  ptxcheck::cli::register_parse(app);
  ptxcheck::cli::register_abi(app);
  ptxcheck::cli::register_prove(app);
  ptxcheck::cli::register_compile_litmus(app);
  ptxcheck::cli::register_run(app);
  ptxcheck::cli::register_race(app);
  ptxcheck::cli::register_merge(app);
  ptxcheck::cli::register_litmus(app);
  ptxcheck::cli::register_coverage(app);
  ptxcheck::cli::register_exec(app);
  using ptxcheck::cli::nvcc_spellings;
  if (argc > 1 && std::string_view(argv[1]) == "exec") return ptxcheck::cli::exec_main(std::vector<std::string>(argv + 2, argv + argc));
  try {
    // nvcc's spellings of device-compilation flags (-include, -arch=, -std=, -Xcompiler ...) become ours.
    std::vector<std::string> args = nvcc_spellings(std::vector<std::string>(argv + 1, argv + argc));
    std::reverse(args.begin(), args.end());  // CLI11 takes the arguments in reverse order
    app.parse(args);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;  // usage errors are bad input
  }
  return ptxcheck::cli::exit_code;
}
