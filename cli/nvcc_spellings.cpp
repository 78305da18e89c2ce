// nvcc's flag spellings rewritten to ptxcheck's options (nvcc_spellings.hpp).
#include "cli/nvcc_spellings.hpp"

#include <algorithm>
#include <array>
#include <string_view>

namespace ptxcheck::cli {
namespace {
// nvcc flags with no value or an attached `=value` (long and short spellings, nvcc --help).
constexpr std::array kAlone = {"-G", "--device-debug", "-lineinfo", "--generate-line-info", "-expt-relaxed-constexpr",
                               "--expt-relaxed-constexpr", "-expt-extended-lambda", "--expt-extended-lambda",
                               "-extended-lambda", "--extended-lambda", "-use_fast_math", "--use_fast_math", "-w",
                               "--disable-warnings", "-Wno-deprecated-gpu-targets", "-Wno-deprecated-declarations",
                               "-restrict", "--restrict", "-O0", "-O1", "-O2", "-O3", "-dopt=on", "-dopt=off"};
constexpr std::array kWithEquals = {"-std=", "--std=", "-ftz=", "--ftz=", "-prec-div=", "--prec-div=", "-prec-sqrt=",
                                    "--prec-sqrt=", "-fmad=", "--fmad=", "-rdc=", "--relocatable-device-code=",
                                    "-maxrregcount=", "--maxrregcount=", "--diag-suppress=", "-diag-suppress=",
                                    "-Xcompiler=", "--compiler-options=", "-Xptxas=", "--ptxas-options=", "-Xcicc=",
                                    "-Xcudafe=", "--default-stream=", "-default-stream=", "-ccbin=", "--compiler-bindir="};
// nvcc flags whose value is the next word.
constexpr std::array kWithValue = {"-Xcompiler", "--compiler-options", "-Xptxas", "--ptxas-options", "-Xcicc",
                                   "-Xcudafe", "-std", "--std", "-isystem", "-maxrregcount", "--maxrregcount",
                                   "--diag-suppress", "-diag-suppress", "-ccbin", "--compiler-bindir"};

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// -gencode arch=compute_90a,code=sm_90a (or code=[sm_90a,compute_90a]): the sm_ target, else the arch's.
std::string gencode_target(const std::string& v) {
  const auto code = v.find("code=");
  if (code != std::string::npos) {
    const auto sm = v.find("sm_", code);
    if (sm != std::string::npos) return v.substr(sm, v.find_first_of(",]", sm) - sm);
  }
  const auto arch = v.find("compute_");
  if (arch != std::string::npos) return "sm_" + v.substr(arch + 8, v.find_first_of(",]", arch) - arch - 8);
  return v;
}
}  // namespace

std::vector<std::string> nvcc_spellings(const std::vector<std::string>& args) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_next = i + 1 < args.size();
    auto one_of = [&](const auto& list) { return std::find(list.begin(), list.end(), std::string_view(a)) != list.end(); };
    auto prefixed = [&](const auto& list) { return std::any_of(list.begin(), list.end(), [&](const char* p) { return starts(a, p); }); };
    if (a == "-include" && has_next) {
      out.insert(out.end(), {"--include", args[++i]});
    } else if ((a == "-arch" || a == "--gpu-architecture") && has_next) {
      out.insert(out.end(), {"--arch", args[++i]});
    } else if (starts(a, "-arch=") || starts(a, "--gpu-architecture=")) {
      out.insert(out.end(), {"--arch", a.substr(a.find('=') + 1)});
    } else if ((a == "-gencode" || a == "--generate-code") && has_next) {
      out.insert(out.end(), {"--arch", gencode_target(args[++i])});
    } else if (starts(a, "-gencode=") || starts(a, "--generate-code=")) {
      out.insert(out.end(), {"--arch", gencode_target(a.substr(a.find('=') + 1))});
    } else if (starts(a, "-O") && !args.empty() && args[0] == "abi") {
      out.push_back(a);  // `ptxcheck abi -O 0,3` is its own option: the NVVM levels to compile at
    } else if (one_of(kAlone) || prefixed(kWithEquals)) {
      out.push_back("--nvcc-flag=" + a);
    } else if (one_of(kWithValue) && has_next) {
      out.push_back("--nvcc-flag=" + a);
      out.push_back("--nvcc-flag=" + args[++i]);
    } else {
      out.push_back(a);
    }
  }
  return out;
}

}  // namespace ptxcheck::cli
