// Each ptxcheck subcommand registers itself on the CLI11 app; main.cpp calls every register function.
// A subcommand's callback sets the process exit code (see DESIGN.md: 0 ok, 1 violated, 2 bad input, 3 unknown).
#pragma once
#include <CLI/CLI.hpp>

#include "semantics/support/cuda.hpp"

#include <string>
#include <vector>

namespace ptxcheck::cli {
// Exit code chosen by the subcommand that ran.
inline int exit_code = 0;

// The exit code of several files or tests: the worst decides, a violation (1) over unknown (3) over bad input
// (2) over ok (0), so that a found race or failed condition is never hidden behind another file's error.
inline int worst_exit(int a, int b) {
  auto severity = [](int c) { return c == 1 ? 3 : c == 3 ? 2 : c == 2 ? 1 : 0; };
  return severity(b) > severity(a) ? b : a;
}

void register_parse(CLI::App& app);
void register_abi(CLI::App& app);
void register_prove(CLI::App& app);
void register_compile_litmus(CLI::App& app);
void register_run(CLI::App& app);
void register_race(CLI::App& app);
void register_merge(CLI::App& app);
void register_litmus(CLI::App& app);
void register_coverage(CLI::App& app);
void register_exec(CLI::App& app);
// `ptxcheck exec ARGS...` (ARGS after the subcommand's name), parsed by hand: see cmd_exec.cpp.
int exec_main(const std::vector<std::string>& args);

// Compiled-litmus check of FILE.cu.litmus files (litmus_compile::check_compiled), shared by `compile-litmus
// --check` (JSON: one array) and `litmus --compile` (JSON: one object per line). Returns the exit code.
enum class JsonLayout { none, array, lines };
int check_compiled_files(const std::vector<std::string>& files, const std::string& ptx_model, JsonLayout json,
                         const CudaOptions& cuda);
}  // namespace ptxcheck::cli
