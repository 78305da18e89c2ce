// Model lookup and the file runner: threads sharing a work index, or (with a time budget) worker processes
// whose results come back as JSON through pipes; a worker over a test's budget is killed, the test unknown.
#include "litmus/driver.hpp"

#include "litmus/parse/nvtest.hpp"
#include "litmus/parse/parse.hpp"
#include "litmus/report/report.hpp"
#include "memmodel/cat/parse.hpp"
#include "semantics/support/files.hpp"
#include "semantics/support/install_layout.hpp"
#include "semantics/support/resource_guard.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <optional>
#include <fstream>
#include <thread>

namespace ptxcheck::litmus {

std::optional<cat::Model> load_named_model(const std::string& name, std::vector<std::string>& errors) {
  std::string path = name == "ptx" ? (models_dir() / "ptx.cat").string() : name;
  std::vector<Diagnostic> diags;
  auto m = cat::load_model(path, cat::base_names(), diags);
  for (auto& d : diags) errors.push_back(d.render());
  return m;
}

namespace {
// The test's name from its header line (`ARCH name`), for results of tests that never reported back; a
// `.test` has no header: its name is the path's last component (with `#k`).
std::string header_name(const std::string& file) {
  if (is_nvtest_path(file)) return file.substr(file.find_last_of('/') + 1);
  std::ifstream in(file);
  std::string arch, name;
  in >> arch >> name;
  return name.empty() ? file : name;
}

Result error_result(const std::string& file, const std::string& name, const std::string& reason) {
  Result r;
  r.file = file;
  r.name = name;
  r.result = "error";
  r.reason = reason;
  return r;
}

// One test, start to end, in the calling thread.
Result run_one(const std::string& file, const cat::Model& model, const Options& opt, const RunConfig& cfg) {
  std::vector<Diagnostic> diags;
  auto t = cfg.loader ? cfg.loader(file, diags) : load_any(file, diags);
  if (!t) {
    std::string reason;
    for (auto& d : diags) {
      if (!reason.empty()) reason += '\n';
      reason += d.render();
    }
    return error_result(file, file, reason.empty() ? "cannot read test" : reason);
  }
  Result r;
  try {
    r = run_test(*t, model, opt);
  } catch (const std::exception& e) {
    return error_result(file, t->name, e.what());
  }
  r.file = file;  // the input as given: a template instance keeps its `#k` (t->file is the file, for diagnostics)
  if (cfg.post) cfg.post(*t, r);
  for (auto& s : r.states) s.witness.reset();
  return r;
}

std::vector<Result> run_threads(const std::vector<std::string>& files, const cat::Model& model, const Options& opt,
                                const RunConfig& cfg) {
  std::vector<Result> out(files.size());
  std::atomic<std::size_t> next{0};
  auto work = [&] {
    for (std::size_t i; (i = next++) < files.size();) out[i] = run_one(files[i], model, opt, cfg);
  };
  std::vector<std::thread> pool;
  for (int k = 1; k < std::min<int>(std::max(1, cfg.jobs), static_cast<int>(files.size())); ++k) pool.emplace_back(work);
  work();
  for (auto& th : pool) th.join();
  return out;
}

// Writes all of `data` to `fd`; false when the other end is gone.
bool write_all(int fd, const void* data, std::size_t size) {
  const char* p = static_cast<const char*>(data);
  while (size > 0) {
    ssize_t k = write(fd, p, size);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    size -= static_cast<std::size_t>(k);
  }
  return true;
}

// A worker process: reads test indices (4 bytes each) from `tasks` and answers each with its result as JSON
// (a 4-byte length, then the text) on `results`, until `tasks` closes.
[[noreturn]] void worker_loop(int tasks, int results, const std::vector<std::string>& files, const cat::Model& model,
                              const Options& opt, const RunConfig& cfg) {
  for (;;) {
    std::uint32_t index = 0;
    std::size_t got = 0;
    while (got < sizeof index) {
      ssize_t k = read(tasks, reinterpret_cast<char*>(&index) + got, sizeof index - got);
      if (k < 0 && errno == EINTR) continue;
      if (k <= 0) _exit(0);
      got += static_cast<std::size_t>(k);
    }
    std::string s = render_json(run_one(files[index], model, opt, cfg)).dump();
    auto size = static_cast<std::uint32_t>(s.size());
    if (!write_all(results, &size, sizeof size) || !write_all(results, s.data(), s.size())) _exit(1);
  }
}

constexpr long long kMemoryPollMs = 50;

long long resident_mb(pid_t pid) { return static_cast<long long>(resident_memory_bytes_of(pid) / (1024 * 1024)); }

// At most `jobs` worker processes, each running test after test (so that the process start-up is paid once
// per worker, not per test). The parent stays single-threaded: it hands out indices and polls the result
// pipes until each test answers or its deadline passes; a worker over budget (time, or resident memory read
// from /proc every 50 ms) is killed (the test is unknown) and replaced when there is more work.
std::vector<Result> run_processes(const std::vector<std::string>& files, const cat::Model& model, const Options& opt,
                                  const RunConfig& cfg) {
  using clock = std::chrono::steady_clock;
  struct Worker {
    pid_t pid = -1;
    int tasks = -1, results = -1;
    std::optional<std::size_t> index;  // the test it is running
    clock::time_point start;
    std::string data;
  };
  // A worker that died between tests must not take the parent with it: writing to its pipe fails instead.
  struct IgnorePipeSignal {
    void (*old)(int) = std::signal(SIGPIPE, SIG_IGN);
    ~IgnorePipeSignal() { std::signal(SIGPIPE, old); }
  } ignore_pipe_signal;
  std::vector<Result> out(files.size());
  std::vector<Worker> workers(static_cast<std::size_t>(std::max(1, std::min<int>(cfg.jobs, static_cast<int>(files.size())))));
  std::size_t next = 0, done = 0;
  auto stop = [](Worker& w, bool kill_it) {
    close(w.tasks);
    close(w.results);
    if (kill_it) kill(w.pid, SIGKILL);
    int status = 0;
    while (waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {}
    w.pid = -1;
    return status;
  };
  auto start = [&](Worker& w) {
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0) return false;
    if (pipe(from_child) != 0) { close(to_child[0]); close(to_child[1]); return false; }
    std::fflush(nullptr);
    pid_t pid = fork();
    if (pid == 0) {
      close(to_child[1]);
      close(from_child[0]);
      for (auto& other : workers)
        if (other.pid > 0) { close(other.tasks); close(other.results); }
      worker_loop(to_child[0], from_child[1], files, model, opt, cfg);
    }
    close(to_child[0]);
    close(from_child[1]);
    if (pid < 0) { close(to_child[1]); close(from_child[0]); return false; }
    w = Worker{pid, to_child[1], from_child[0], std::nullopt, {}, {}};
    return true;
  };
  auto finish = [&](Worker& w, Result r) {
    double ms = std::chrono::duration<double, std::milli>(clock::now() - w.start).count();
    if (r.result == "unknown" || r.result == "error") r.time_ms = std::max(r.time_ms, ms);
    out[*w.index] = std::move(r);
    w.index.reset();
    w.data.clear();
    ++done;
  };
  while (done < files.size()) {
    for (auto& w : workers) {
      if (w.index || next >= files.size()) continue;
      if (w.pid < 0 && !start(w)) {
        out[next] = error_result(files[next], files[next], "cannot start a worker process");
        ++next, ++done;
        continue;
      }
      auto index = static_cast<std::uint32_t>(next);
      if (!write_all(w.tasks, &index, sizeof index)) {
        int status = stop(w, true);
        out[next] = error_result(files[next], header_name(files[next]), "worker lost (status " + std::to_string(status) + ")");
        ++next, ++done;
        continue;
      }
      w.index = next++;
      w.start = clock::now();
    }
    std::vector<pollfd> pf;
    std::vector<Worker*> polled;
    long long wait_ms = cfg.memory_mb > 0 ? kMemoryPollMs : cfg.budget_ms > 0 ? cfg.budget_ms : 60000;
    auto now = clock::now();
    for (auto& w : workers) {
      if (!w.index) continue;
      pf.push_back(pollfd{w.results, POLLIN, 0});
      polled.push_back(&w);
      if (cfg.budget_ms <= 0) continue;
      auto left = cfg.budget_ms - std::chrono::duration_cast<std::chrono::milliseconds>(now - w.start).count();
      wait_ms = std::min(wait_ms, std::max<long long>(0, left));
    }
    if (pf.empty()) continue;
    int n = poll(pf.data(), pf.size(), static_cast<int>(wait_ms) + 1);
    if (n < 0 && errno != EINTR) break;
    for (std::size_t i = 0; i < polled.size(); ++i) {
      Worker& w = *polled[i];
      const std::size_t index = *w.index;
      if (pf[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buf[65536];
        ssize_t k = read(w.results, buf, sizeof buf);
        if (k > 0) {
          w.data.append(buf, static_cast<std::size_t>(k));
          std::uint32_t size = 0;
          if (w.data.size() >= sizeof size) std::memcpy(&size, w.data.data(), sizeof size);
          if (w.data.size() >= sizeof size && w.data.size() - sizeof size >= size) {
            Result r;
            try {
              r = result_from_json(nlohmann::json::parse(w.data.substr(sizeof size, size)));
            } catch (const std::exception& e) {
              r = error_result(files[index], files[index], std::string("lost result: ") + e.what());
            }
            finish(w, std::move(r));
          }
          continue;
        }
        if (k < 0 && errno == EINTR) continue;
        int status = stop(w, false);  // the worker died in the middle of a test
        finish(w, error_result(files[index], header_name(files[index]),
                               WIFSIGNALED(status) ? "crashed with signal " + std::to_string(WTERMSIG(status)) : "worker exited"));
        continue;
      }
      std::string over;
      if (cfg.budget_ms > 0 && clock::now() - w.start > std::chrono::milliseconds(cfg.budget_ms))
        over = "time budget exhausted (" + std::to_string(cfg.budget_ms) + " ms)";
      else if (long long mb = cfg.memory_mb > 0 ? resident_mb(w.pid) : 0; mb > cfg.memory_mb)
        over = "memory budget of " + std::to_string(cfg.memory_mb) + " MB reached (resident " + std::to_string(mb) + " MB)";
      if (!over.empty()) {
        stop(w, true);
        Result r = error_result(files[index], header_name(files[index]), over);
        r.result = "unknown";
        finish(w, std::move(r));
      }
    }
  }
  for (auto& w : workers)
    if (w.pid > 0) stop(w, false);  // closing its task pipe ends the worker's loop
  return out;
}
}  // namespace

std::optional<Test> load_any(const std::string& file, std::vector<Diagnostic>& diags) {
  return is_nvtest_path(file) ? load_nvtest(file, diags) : load_litmus(file, diags);
}

std::vector<std::string> expand_inputs(const std::vector<std::string>& files) {
  std::vector<std::string> out;
  for (auto& f : files) {
    std::optional<std::size_t> n;
    if (f.ends_with(".test"))
      if (auto text = read_text_file(f)) n = nvtest_instances(*text);
    if (!n || *n == 0) {
      out.push_back(f);  // one test; an unreadable file or an empty template is reported when it loads
      continue;
    }
    for (std::size_t k = 1; k <= *n; ++k) out.push_back(f + "#" + std::to_string(k));
  }
  return out;
}

std::vector<Result> run_files(const std::vector<std::string>& inputs, const cat::Model& model, const Options& opt,
                              const RunConfig& cfg) {
  const std::vector<std::string> files = expand_inputs(inputs);
  return cfg.budget_ms > 0 || cfg.memory_mb > 0 ? run_processes(files, model, opt, cfg) : run_threads(files, model, opt, cfg);
}

std::vector<Result> run_files(const std::vector<std::string>& files, const cat::Model& model, const Options& opt, int jobs) {
  RunConfig cfg;
  cfg.jobs = jobs;
  return run_files(files, model, opt, cfg);
}

}  // namespace ptxcheck::litmus
