// compile_commands.json entry -> nvcc options (compile_flags.hpp).
#include "cli/compile_flags.hpp"
#include "cli/nvcc_spellings.hpp"

#include <algorithm>
#include <array>
#include <filesystem>
#include <string_view>

namespace ptxcheck::cli {
namespace {
// Flags that choose nvcc's phase or output, which `-ptx -o TMP` replaces: alone, or with the next word.
constexpr std::array kDropAlone = {"-c", "--compile", "-dc", "--device-c", "-dw", "--device-w", "-dlink", "--device-link",
                                   "-cubin", "--cubin", "-fatbin", "--fatbin", "-ptx", "--ptx", "-E", "--preprocess",
                                   "-M", "-MM", "-MD", "-MMD", "-MP", "--generate-dependencies", "-lineinfo"};
constexpr std::array kDropWithValue = {"-o", "--output-file", "-x", "--x", "-MF", "-MT", "-MQ", "--dependency-output",
                                       "--dependency-target-name", "-odir", "--output-directory"};
constexpr std::array kDropPrefixed = {"-o=", "--output-file=", "-x=", "--x=", "-MF=", "-MT=", "--dependency-output=",
                                      "-odir=", "--output-directory="};

bool starts(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }

// A path of the build line, read against the entry's directory (nvcc runs in ptxcheck's current folder).
std::string in_dir(const std::string& dir, const std::string& path) {
  namespace fs = std::filesystem;
  return fs::path(path).is_absolute() ? path : (fs::path(dir) / path).lexically_normal().string();
}
template <typename List>
bool listed(const List& list, std::string_view s) { return std::find(list.begin(), list.end(), s) != list.end(); }
}  // namespace

CudaOptions entry_cuda_options(const CompileEntry& entry, const CudaOptions& base) {
  namespace fs = std::filesystem;
  CudaOptions o = base;
  const std::string& dir = entry.directory;
  // The build's words, less the compiler, the source and the phase/output flags.
  std::vector<std::string> words;
  for (std::size_t i = 1; i < entry.args.size(); ++i) {
    const std::string& a = entry.args[i];
    if (listed(kDropAlone, a)) continue;
    if (listed(kDropWithValue, a)) { ++i; continue; }
    if (std::any_of(kDropPrefixed.begin(), kDropPrefixed.end(), [&](const char* p) { return starts(a, p); })) continue;
    if (!a.empty() && a[0] != '-' && (fs::path(entry.directory) / a).lexically_normal() == fs::path(entry.file)) continue;
    words.push_back(a);
  }
  // nvcc's spellings become ptxcheck's (--include, --arch, --nvcc-flag=...), then the options themselves.
  words = nvcc_spellings(words);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    const bool has_next = i + 1 < words.size();
    if ((w == "-D" || w == "-I" || w == "--include" || w == "--arch") && !has_next) break;
    if (w == "-D") o.defines.push_back(words[++i]);
    else if (starts(w, "-D")) o.defines.push_back(w.substr(2));
    else if (w == "-I") o.include_dirs.push_back(in_dir(dir, words[++i]));
    else if (starts(w, "-I")) o.include_dirs.push_back(in_dir(dir, w.substr(2)));
    else if (w == "--include") {
      // A forced include is found like #include "F": beside the compiling folder first, else on the include path.
      std::error_code ec;
      const std::string& f = words[++i];
      o.include_files.push_back(std::filesystem::exists(in_dir(dir, f), ec) ? in_dir(dir, f) : f);
    }
    else if (w == "--arch") o.arch = words[++i];
    else if (w == "--nvcc-flag=-isystem" && has_next && starts(words[i + 1], "--nvcc-flag=")) {
      o.extra.push_back("-isystem");
      o.extra.push_back(in_dir(dir, words[++i].substr(12)));
    } else if (starts(w, "--nvcc-flag=")) o.extra.push_back(w.substr(12));
    else o.extra.push_back(w);  // as the build wrote it (e.g. -forward-unknown-to-host-compiler and what follows)
  }
  return o;
}

}  // namespace ptxcheck::cli
