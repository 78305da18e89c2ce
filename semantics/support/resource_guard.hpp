// A budget on one unit of work (a kernel's race check, a replay): CPU seconds of the thread that does it, wall
// seconds, and the resident memory of the whole process, Z3's included. Running out is an unknown answer with the
// reason, never a verdict.
#pragma once

#include <z3++.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

namespace ptxcheck {

struct ResourceLimits {
  double cpu_seconds = 0;     // CPU time of the guarded thread (Z3 runs in it); 0: none
  double wall_seconds = 0;    // 0: none
  std::size_t memory_mb = 0;  // resident memory of the whole process; 0: none
};

// Thrown at a checkpoint once the budget ran out; what() is the reason.
struct BudgetExhausted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A watchdog thread samples the three measures every few milliseconds. When one runs out it records why and keeps
// interrupting the Z3 contexts it watches (a running check answers unknown, other Z3 calls throw "canceled"); the
// engines' loops call checkpoint(), which then throws BudgetExhausted. Guards nest per thread: checkpoint() asks
// the innermost, and an inner guard also stops when its outer one has run out.
class ResourceGuard {
 public:
  explicit ResourceGuard(ResourceLimits limits);
  ~ResourceGuard();
  ResourceGuard(const ResourceGuard&) = delete;
  ResourceGuard& operator=(const ResourceGuard&) = delete;

  const ResourceLimits& limits() const { return limits_; }
  // Why the budget ran out; empty while it holds.
  std::optional<std::string> exhausted() const;
  // Throws BudgetExhausted when this guard (or one around it) ran out: one atomic load otherwise.
  void check() const;
  // check() of the calling thread's innermost guard; nothing when there is none.
  static void checkpoint();
  static ResourceGuard* current();

  // While a Watch lives, running out interrupts its context (declare it after the context, so it ends first).
  class Watch {
   public:
    Watch(ResourceGuard* guard, z3::context& c);
    ~Watch();
    Watch(const Watch&) = delete;
    Watch& operator=(const Watch&) = delete;

   private:
    ResourceGuard* guard_;
    z3::context* c_;
  };

  // Measures, for reports and tests.
  double cpu_seconds() const;   // of the guarded thread since the guard began
  double wall_seconds() const;  // since the guard began

 private:
  void watch_loop();
  void sample();
  void fire(std::string why);

  ResourceLimits limits_;
  ResourceGuard* outer_;
  clockid_t cpu_clock_{};
  double cpu0_ = 0, wall0_ = 0;
  std::atomic<bool> fired_{false};
  mutable std::mutex mutex_;  // guards why_, contexts_, stop_
  std::string why_;
  std::set<z3::context*> contexts_;
  bool stop_ = false;
  std::condition_variable wake_;
  std::thread watchdog_;
};

// The resident memory of this process now (Linux /proc/self/statm), and its peak so far (getrusage), in bytes.
std::size_t resident_memory_bytes();
// The resident memory of process `pid` now (/proc/PID/statm), in bytes; 0 when it cannot be read.
std::size_t resident_memory_bytes_of(int pid);
std::size_t peak_resident_memory_bytes();

}  // namespace ptxcheck
