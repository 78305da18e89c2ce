// `ptxcheck exec PROGRAM.cu [nvcc flags] [-- ARGS]` / `ptxcheck exec ./binary [ARGS]`: runs a CUDA program on the
// CPU. A .cu file is built with nvcc against the shared CUDA runtime; the program then runs with ptxcheck's
// replacement runtime (semantics/runtime, lib/ptxcheck/libcudart.so.13) preloaded, whose kernels run on the
// interpreter. Exit code, stdout and stderr are the program's; ptxcheck's own messages start "ptxcheck exec:".
#include "cli/commands.hpp"
#include "semantics/runtime/program.hpp"
#include "semantics/runtime/runtime.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iostream>

namespace ptxcheck::cli {
namespace {
namespace fs = std::filesystem;

struct ExecArgs {
  std::vector<std::string> command;  // PROGRAM then the rest as given
  std::uint64_t seed = 0;
  int devices = 1;
  bool racecheck = false, memcheck = false;
  std::string runtime, keep, device_props, report;
};

// lib/ptxcheck/libcudart.so.13 beside the executable's bin/ folder (the build tree and an installed tree alike).
fs::path default_runtime() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return self.parent_path().parent_path() / "lib" / "ptxcheck" / "libcudart.so.13";
}

bool has_arch_flag(const std::vector<std::string>& flags) {
  for (const auto& f : flags)
    if (f.rfind("-arch", 0) == 0 || f.rfind("--gpu-architecture", 0) == 0 || f.rfind("-gencode", 0) == 0 || f.rfind("--generate-code", 0) == 0)
      return true;
  return false;
}

// Builds PROGRAM.cu into `binary`: the shared runtime (so that ours can stand in), PTX embedded (-arch=sm_90
// embeds compute_90 PTX unless the user chose architectures), and -lineinfo (`.loc` in the PTX: faults are
// reported at CUDA lines; it changes no code). Returns nvcc's exit code.
int build_program(const std::string& source, const std::vector<std::string>& flags, const fs::path& binary) {
  std::vector<std::string> argv{"nvcc", "-cudart", "shared", "-lineinfo", "-o", binary.string()};
  if (!has_arch_flag(flags)) argv.push_back("-arch=sm_90");
  argv.insert(argv.end(), flags.begin(), flags.end());
  argv.push_back(source);
  const pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> c;
    for (auto& a : argv) c.push_back(a.data());
    c.push_back(nullptr);
    execvp("nvcc", c.data());
    std::perror("ptxcheck exec: nvcc");
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

// Runs the program with the replacement runtime preloaded; returns its exit status as a shell reports it.
int run_program(const std::vector<std::string>& command, const fs::path& runtime, const ExecArgs& a) {
  const pid_t pid = fork();
  if (pid == 0) {
    std::string preload = runtime.string();
    if (const char* old = std::getenv("LD_PRELOAD"); old && *old) preload += std::string(":") + old;
    setenv("LD_PRELOAD", preload.c_str(), 1);
    if (a.seed) setenv("PTXCHECK_EXEC_SEED", std::to_string(a.seed).c_str(), 1);
    if (a.racecheck) setenv("PTXCHECK_EXEC_RACECHECK", "1", 1);
    if (a.memcheck) setenv("PTXCHECK_EXEC_MEMCHECK", "1", 1);
    if (!a.report.empty()) setenv("PTXCHECK_EXEC_REPORT", fs::absolute(a.report).c_str(), 1);
    if (!a.device_props.empty()) setenv("PTXCHECK_EXEC_DEVICE_PROPS", fs::absolute(a.device_props).c_str(), 1);
    if (a.devices != 1) setenv("PTXCHECK_EXEC_DEVICES", std::to_string(a.devices).c_str(), 1);
    std::vector<char*> c;
    std::vector<std::string> args = command;
    for (auto& a : args) c.push_back(a.data());
    c.push_back(nullptr);
    execv(args[0].c_str(), c.data());
    std::perror(("ptxcheck exec: " + args[0]).c_str());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int exec_command(ExecArgs& a) {
  const fs::path runtime = a.runtime.empty() ? default_runtime() : fs::path(a.runtime);
  if (!fs::exists(runtime)) {
    std::cerr << "ptxcheck exec: the replacement CUDA runtime " << runtime.string()
              << " is not there (ptxcheck was built without the CUDA toolkit's headers or zstd)\n";
    return 2;
  }
  std::string program = a.command[0];
  std::vector<std::string> rest(a.command.begin() + 1, a.command.end());
  std::vector<std::string> program_args;
  fs::path built;
  if (fs::path(program).extension() == ".cu") {
    std::vector<std::string> flags;
    auto dash = std::find(rest.begin(), rest.end(), "--");
    flags.assign(rest.begin(), dash);
    if (dash != rest.end()) program_args.assign(dash + 1, rest.end());
    built = a.keep.empty() ? fs::temp_directory_path() / ("ptxcheck-exec-" + std::to_string(getpid())) : fs::path(a.keep);
    if (int rc = build_program(program, flags, built)) {
      std::cerr << "ptxcheck exec: nvcc failed to build " << program << " (exit " << rc << ")\n";
      return 2;
    }
    program = built.string();
  } else {
    program_args = rest;
    if (program.find('/') == std::string::npos) program = "./" + program;
  }
  if (auto why = ptx::runtime::program_refusal(program); !why.empty()) {
    std::cerr << "ptxcheck exec: " << why << "\n";
    return 2;
  }
  std::vector<std::string> command{program};
  command.insert(command.end(), program_args.begin(), program_args.end());
  const int rc = run_program(command, runtime, a);
  if (!built.empty() && a.keep.empty()) fs::remove(built);
  return rc;
}
}  // namespace

constexpr const char* kExecHelp =
    "Run a CUDA program with its kernels on the CPU interpreter; exit code and output are the program's.\n"
    "Usage: ptxcheck exec [--seed N] [--racecheck] [--memcheck] [--devices N] [--device-props FILE] [--report FILE] [--keep FILE] PROGRAM.cu [nvcc flags] [-- ARGS...]\n"
    "       ptxcheck exec [--seed N] [--runtime LIB] BINARY [ARGS...]   (BINARY built with nvcc -cudart shared)\n"
    "  --seed N        schedule seed of every launch (0: deterministic lowest-pc-first)\n"
    "  --racecheck     run every launch under the dynamic race engine (ISA 8.7.1 data races, barrier divergence);\n"
    "                  each race is reported once, with CUDA lines, and a summary at exit\n"
    "  --memcheck      report kernel reads of device memory never written, accesses to freed memory, and\n"
    "                  (with --devices) accesses to another device's memory without peer access\n"
    "  --runtime LIB   the replacement libcudart.so.13 to load (default: lib/ptxcheck beside bin/)\n"
    "  --keep FILE     build PROGRAM.cu into FILE and keep it\n"
    "  --report FILE   also write what was found (faults, unsupported instructions and calls, races, memcheck\n"
    "                  findings) to FILE: SARIF 2.1.0 when it ends in .sarif, else JSON\n"
    "  --devices N     present N devices (1 to 64, default 1) of the same properties: cudaSetDevice, peer access\n"
    "                  and peer copies, each device with its own module variables and sticky error\n"
    "  --device-props FILE  a JSON object of cudaDeviceProp fields to present instead of the defaults\n"
    "                  (an H100-like sm_90 device), e.g. {\"major\": 10, \"minor\": 0} for a Blackwell-only program\n";

// Registered for `ptxcheck --help`; main() hands `exec` to exec_main, because everything after the program is
// nvcc's or the program's and must pass through as written.
void register_exec(CLI::App& app) { app.add_subcommand("exec", "Run a CUDA program (PROGRAM.cu or a binary built with -cudart shared) with its kernels on the CPU interpreter; see `ptxcheck exec --help`"); }

int exec_main(const std::vector<std::string>& args) {
  ExecArgs a;
  std::size_t i = 0;
  for (; i < args.size() && args[i].rfind("-", 0) == 0; ++i) {
    const std::string& o = args[i];
    if (o == "--racecheck" || o == "--memcheck") {
      (o == "--racecheck" ? a.racecheck : a.memcheck) = true;
      continue;
    }
    if (o == "-h" || o == "--help") {
      std::cout << kExecHelp;
      return 0;
    }
    if ((o == "--seed" || o == "--devices" || o == "--runtime" || o == "--keep" || o == "--device-props" || o == "--report") && i + 1 < args.size()) {
      const std::string& v = args[++i];
      if (o == "--seed") {
        try { a.seed = std::stoull(v, nullptr, 0); } catch (const std::exception&) {
          std::cerr << "ptxcheck exec: --seed needs a number, not '" << v << "'\n";
          return 2;
        }
      } else if (o == "--devices") {
        std::size_t used = 0;
        try { a.devices = std::stoi(v, &used); } catch (const std::exception&) { used = 0; }
        if (used != v.size() || a.devices < 1 || a.devices > 64) {
          std::cerr << "ptxcheck exec: --devices needs a count from 1 to 64, not '" << v << "'\n";
          return 2;
        }
      } else {
        (o == "--runtime" ? a.runtime : o == "--keep" ? a.keep : o == "--report" ? a.report : a.device_props) = v;
      }
      continue;
    }
    std::cerr << "ptxcheck exec: unknown option '" << o << "'\n" << kExecHelp;
    return 2;
  }
  if (i == args.size()) {
    std::cerr << "ptxcheck exec: no program given\n" << kExecHelp;
    return 2;
  }
  if (!a.device_props.empty()) {
    std::map<std::string, long long> props;
    if (auto error = ptx::runtime::read_device_props(a.device_props, props); !error.empty()) {
      std::cerr << error << "\n";
      return 2;
    }
  }
  a.command.assign(args.begin() + static_cast<std::ptrdiff_t>(i), args.end());
  return exec_command(a);
}
}  // namespace ptxcheck::cli
