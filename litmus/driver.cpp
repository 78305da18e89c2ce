// Model lookup and the file runner: threads sharing a work index, or (with a time budget) one child process
// per test whose result comes back as JSON through a pipe; a child over budget is killed and reported unknown.
#include "litmus/driver.hpp"

#include "litmus/parse/parse.hpp"
#include "litmus/report/report.hpp"
#include "memmodel/cat/parse.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <fstream>
#include <thread>

namespace ptxcheck::litmus {

std::optional<cat::Model> load_named_model(const std::string& name, std::vector<std::string>& errors) {
  std::string path = name == "ptx" ? std::string(PTXCHECK_MODELS_DIR) + "/ptx.cat" : name;
  std::vector<Diagnostic> diags;
  auto m = cat::load_model(path, cat::base_names(), diags);
  for (auto& d : diags) errors.push_back(d.render());
  return m;
}

namespace {
// The test's name from its header line (`ARCH name`), for results of tests that never reported back.
std::string header_name(const std::string& file) {
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
  auto t = cfg.loader ? cfg.loader(file, diags) : load_litmus(file, diags);
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

// The parent stays single-threaded: it forks at most `jobs` children and polls their pipes until each
// closes or its deadline passes.
std::vector<Result> run_processes(const std::vector<std::string>& files, const cat::Model& model, const Options& opt,
                                  const RunConfig& cfg) {
  using clock = std::chrono::steady_clock;
  struct Child { pid_t pid; int fd; std::size_t index; clock::time_point start; std::string data; };
  std::vector<Result> out(files.size());
  std::vector<Child> running;
  std::size_t next = 0;
  auto finish = [&](Child& c, bool timed_out) {
    close(c.fd);
    if (timed_out) kill(c.pid, SIGKILL);
    int status = 0;
    while (waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {}
    double ms = std::chrono::duration<double, std::milli>(clock::now() - c.start).count();
    Result r;
    if (timed_out) {
      r = error_result(files[c.index], header_name(files[c.index]), "time budget exhausted (" + std::to_string(cfg.budget_ms) + " ms)");
      r.result = "unknown";
    } else if (WIFSIGNALED(status)) {
      r = error_result(files[c.index], header_name(files[c.index]), "crashed with signal " + std::to_string(WTERMSIG(status)));
    } else {
      try {
        r = result_from_json(nlohmann::json::parse(c.data));
      } catch (const std::exception& e) {
        r = error_result(files[c.index], files[c.index], std::string("lost result: ") + e.what());
      }
    }
    if (r.result == "unknown" || r.result == "error") r.time_ms = std::max(r.time_ms, ms);
    out[c.index] = std::move(r);
  };
  while (next < files.size() || !running.empty()) {
    while (next < files.size() && static_cast<int>(running.size()) < std::max(1, cfg.jobs)) {
      int fds[2];
      if (pipe(fds) != 0) {
        out[next] = error_result(files[next], files[next], "cannot create a pipe");
        ++next;
        continue;
      }
      std::fflush(nullptr);
      pid_t pid = fork();
      if (pid == 0) {
        close(fds[0]);
        std::string s = render_json(run_one(files[next], model, opt, cfg)).dump();
        for (std::size_t w = 0; w < s.size();) {
          ssize_t k = write(fds[1], s.data() + w, s.size() - w);
          if (k <= 0) break;
          w += static_cast<std::size_t>(k);
        }
        _exit(0);
      }
      close(fds[1]);
      if (pid < 0) {
        close(fds[0]);
        out[next] = error_result(files[next], files[next], "cannot fork");
        ++next;
        continue;
      }
      running.push_back(Child{pid, fds[0], next++, clock::now(), {}});
    }
    std::vector<pollfd> pf;
    auto now = clock::now();
    long long wait_ms = cfg.budget_ms;
    for (auto& c : running) {
      pf.push_back(pollfd{c.fd, POLLIN, 0});
      auto left = cfg.budget_ms - std::chrono::duration_cast<std::chrono::milliseconds>(now - c.start).count();
      wait_ms = std::min(wait_ms, std::max<long long>(0, left));
    }
    int n = poll(pf.data(), pf.size(), static_cast<int>(wait_ms) + 1);
    if (n < 0 && errno != EINTR) break;
    std::vector<Child> still;
    for (std::size_t i = 0; i < running.size(); ++i) {
      auto& c = running[i];
      bool done = false;
      if (pf[i].revents & (POLLIN | POLLHUP | POLLERR)) {
        char buf[65536];
        ssize_t k = read(c.fd, buf, sizeof buf);
        if (k > 0) c.data.append(buf, static_cast<std::size_t>(k));
        else if (k == 0 || errno != EINTR) { finish(c, false); done = true; }
      }
      if (!done && clock::now() - c.start > std::chrono::milliseconds(cfg.budget_ms)) { finish(c, true); done = true; }
      if (!done) still.push_back(std::move(c));
    }
    running = std::move(still);
  }
  return out;
}
}  // namespace

std::vector<Result> run_files(const std::vector<std::string>& files, const cat::Model& model, const Options& opt,
                              const RunConfig& cfg) {
  return cfg.budget_ms > 0 ? run_processes(files, model, opt, cfg) : run_threads(files, model, opt, cfg);
}

std::vector<Result> run_files(const std::vector<std::string>& files, const cat::Model& model, const Options& opt, int jobs) {
  RunConfig cfg;
  cfg.jobs = jobs;
  return run_files(files, model, opt, cfg);
}

}  // namespace ptxcheck::litmus
