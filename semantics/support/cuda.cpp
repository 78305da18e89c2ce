// nvcc driver (see cuda.hpp). Runs nvcc with posix_spawnp, output to a temporary file, stderr captured.
#include "semantics/support/cuda.hpp"
#include "semantics/support/files.hpp"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace ptxcheck {
namespace fs = std::filesystem;

namespace {
std::string shell_quote(const std::string& s) {
  if (s.find_first_of(" \t'\"\\$") == std::string::npos) return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs argv, returns the exit status; stderr goes to err_path.
int run_program(const std::vector<std::string>& args, const std::string& err_path) {
  std::vector<char*> argv;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 2, err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 1, err_path.c_str(), O_WRONLY | O_APPEND, 0644);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) return -1;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
}  // namespace

bool is_cuda_source(const std::string& path) {
  auto ext = fs::path(path).extension().string();
  return ext == ".cu" || ext == ".cuh";
}

CudaOptions parse_nvcc_flags(const std::string& flags, CudaOptions base) {
  std::istringstream in(flags);
  std::vector<std::string> words;
  for (std::string w; in >> w;) {
    if (!words.empty() && w[0] != '-' && words.back().rfind("-D", 0) == 0 && words.back().size() > 2) words.back() += " " + w;
    else words.push_back(w);
  }
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    auto next = [&]() { return i + 1 < words.size() ? words[++i] : std::string(); };
    if (w == "-include" || w == "--include") base.include_files.push_back(next());
    else if (w.rfind("-D", 0) == 0) base.defines.push_back(w.size() > 2 ? w.substr(2) : next());
    else if (w.rfind("-I", 0) == 0) base.include_dirs.push_back(w.size() > 2 ? w.substr(2) : next());
    else if (w.rfind("-arch=", 0) == 0) base.arch = w.substr(6);
    else base.extra.push_back(w);
  }
  return base;
}

LoadedText compile_cuda(const std::string& cu_path, const CudaOptions& o) {
  LoadedText result;
  std::vector<std::string> args{"nvcc", "-ptx", "-lineinfo", "-arch=" + o.arch};
  for (const auto& d : o.include_dirs) args.push_back("-I" + d);
  for (const auto& f : o.include_files) { args.push_back("-include"); args.push_back(f); }
  for (const auto& d : o.defines) args.push_back("-D" + d);
  for (const auto& e : o.extra) args.push_back(e);
  args.push_back(cu_path);
  std::string command;
  for (const auto& a : args) command += (command.empty() ? "" : " ") + shell_quote(a);
  result.origin = command;

  std::error_code ec;
  if (!fs::exists(cu_path, ec)) {
    result.error = Diagnostic{{cu_path, 0, 0}, "no such file", "", "error"};
    return result;
  }
  // The cache key covers the command, the source text and the headers' names (not their contents).
  fs::path cached;
  if (!o.cache_dir.empty()) {
    auto source = read_text_file(cu_path).value_or("");
    auto key = std::hash<std::string>{}(command + '\n' + source);
    cached = fs::path(o.cache_dir) / fmt::format("{:016x}.ptx", key);
    if (auto text = read_text_file(cached)) {
      result.text = std::move(text);
      return result;
    }
    fs::create_directories(o.cache_dir, ec);
  }
  // mkdtemp gives each call its own folder: threads of one process compiling the same file never collide.
  std::string tmp_template = (fs::temp_directory_path() / "ptxcheck-nvcc-XXXXXX").string();
  if (!mkdtemp(tmp_template.data())) {
    result.error = Diagnostic{{cu_path, 0, 0}, "cannot create a temporary folder for nvcc", "", "error"};
    return result;
  }
  fs::path tmp = tmp_template;
  fs::path out = tmp / "out.ptx", err = tmp / "nvcc.err";
  args.insert(args.end() - 1, {"-o", out.string()});
  int rc = run_program(args, err.string());
  auto messages = read_text_file(err).value_or("");
  if (rc != 0) {
    std::string msg = rc < 0 ? "could not run nvcc (is the CUDA toolkit on PATH?)" : "nvcc failed:\n" + messages;
    while (!msg.empty() && msg.back() == '\n') msg.pop_back();
    result.error = Diagnostic{{cu_path, 0, 0}, msg, "", "error"};
  } else {
    result.text = read_text_file(out);
    if (!result.text) result.error = Diagnostic{{cu_path, 0, 0}, "nvcc produced no PTX", "", "error"};
    else if (!cached.empty()) {
      auto part = cached.string() + "." + tmp.filename().string();  // unique per call, beside the cache entry
      std::ofstream(part, std::ios::binary) << *result.text;
      fs::rename(part, cached, ec);  // atomic publish: parallel drivers never read half a file
    }
  }
  fs::remove_all(tmp, ec);
  return result;
}

LoadedText load_ptx_or_cuda(const std::string& path, const CudaOptions& options) {
  if (is_cuda_source(path)) return compile_cuda(path, options);
  LoadedText result;
  result.origin = "file";
  result.text = read_text_file(path);
  if (!result.text) result.error = Diagnostic{{path, 0, 0}, "cannot read file", "", "error"};
  return result;
}

}  // namespace ptxcheck
