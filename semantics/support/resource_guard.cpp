// The watchdog behind ResourceGuard (resource_guard.hpp).
#include "semantics/support/resource_guard.hpp"

#include <pthread.h>
#include <sys/resource.h>
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>

namespace ptxcheck {
namespace {

thread_local ResourceGuard* innermost = nullptr;

// How often the watchdog samples: an overrun of the CPU or wall budget is at most this late, and memory can grow
// only by what the guarded thread allocates in this time before the check stops it.
constexpr auto kPeriod = std::chrono::milliseconds(10);
// The work stops at this share of a budget: what follows (unwinding, Z3 freeing its terms, about half a second per
// GB; what is allocated until the next checkpoint) is paid from the rest, so that the whole stays within it.
constexpr double kStopAt = 0.95;
// Memory stops earlier: Z3 finishes bit-blasting the formula at hand before it sees an interrupt (some tens of MB).
constexpr double kStopMemoryAt = 0.9;

double seconds_of(clockid_t clock) {
  timespec ts{};
  clock_gettime(clock, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::string fixed(double v, int digits) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", digits, v);
  return buf;
}

}  // namespace

namespace {
// The resident bytes a statm file read through `fd` gives (its second field, in pages); 0 when unreadable.
std::size_t resident_in_statm(int fd) {
  if (fd < 0) return 0;
  char buf[128];
  const ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
  if (n <= 0) return 0;
  buf[n] = 0;
  unsigned long size = 0, resident = 0;
  if (std::sscanf(buf, "%lu %lu", &size, &resident) != 2) return 0;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}
}  // namespace

std::size_t resident_memory_bytes() {
  // One descriptor kept open: the watchdog reads it every sample.
  static const int fd = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  return resident_in_statm(fd);
}

std::size_t resident_memory_bytes_of(int pid) {
  const int fd = open(("/proc/" + std::to_string(pid) + "/statm").c_str(), O_RDONLY | O_CLOEXEC);
  const std::size_t bytes = resident_in_statm(fd);
  if (fd >= 0) close(fd);
  return bytes;
}

std::size_t peak_resident_memory_bytes() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return static_cast<std::size_t>(u.ru_maxrss) * 1024;  // Linux reports kilobytes
}

ResourceGuard::ResourceGuard(ResourceLimits limits) : limits_(limits), outer_(innermost) {
  if (pthread_getcpuclockid(pthread_self(), &cpu_clock_) != 0) cpu_clock_ = CLOCK_THREAD_CPUTIME_ID;
  cpu0_ = seconds_of(cpu_clock_);
  wall0_ = seconds_of(CLOCK_MONOTONIC);
  innermost = this;
  watchdog_ = std::thread([this] { watch_loop(); });
}

ResourceGuard::~ResourceGuard() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  watchdog_.join();
  innermost = outer_;
}

ResourceGuard* ResourceGuard::current() { return innermost; }

double ResourceGuard::cpu_seconds() const { return seconds_of(cpu_clock_) - cpu0_; }
double ResourceGuard::wall_seconds() const { return seconds_of(CLOCK_MONOTONIC) - wall0_; }

std::optional<std::string> ResourceGuard::exhausted() const {
  if (fired_.load(std::memory_order_acquire)) {
    std::lock_guard<std::mutex> lock(mutex_);
    return why_;
  }
  if (outer_) return outer_->exhausted();
  return std::nullopt;
}

void ResourceGuard::check() const {
  if (!fired_.load(std::memory_order_relaxed) && !(outer_ && outer_->fired_.load(std::memory_order_relaxed))) return;
  if (auto why = exhausted()) throw BudgetExhausted(*why);
}

void ResourceGuard::checkpoint() {
  if (innermost) innermost->check();
}

void ResourceGuard::watch_loop() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (!stop_) {
    wake_.wait_for(lock, kPeriod);
    if (stop_) break;
    lock.unlock();
    sample();
    lock.lock();
    // Z3 cancels only the call running at the interrupt: keep interrupting, so later calls stop too.
    if (fired_.load(std::memory_order_relaxed))
      for (z3::context* c : contexts_) c->interrupt();
  }
}

void ResourceGuard::sample() {
  if (fired_.load(std::memory_order_relaxed)) return;
  if (limits_.cpu_seconds > 0 && cpu_seconds() > kStopAt * limits_.cpu_seconds)
    return fire("CPU time budget of " + fixed(limits_.cpu_seconds, 1) + " s reached");
  if (limits_.wall_seconds > 0 && wall_seconds() > kStopAt * limits_.wall_seconds)
    return fire("wall-clock budget of " + fixed(limits_.wall_seconds, 1) + " s reached");
  if (limits_.memory_mb > 0) {
    const std::size_t rss = resident_memory_bytes();
    if (static_cast<double>(rss) > kStopMemoryAt * static_cast<double>(limits_.memory_mb) * 1024 * 1024)
      return fire("memory budget of " + std::to_string(limits_.memory_mb) + " MB reached (process resident memory " +
                  std::to_string(rss >> 20) + " MB)");
  }
  if (outer_ && outer_->fired_.load(std::memory_order_relaxed)) fire(outer_->exhausted().value_or("outer budget reached"));
}

void ResourceGuard::fire(std::string why) {
  std::lock_guard<std::mutex> lock(mutex_);
  why_ = std::move(why);
  fired_.store(true, std::memory_order_release);
}

ResourceGuard::Watch::Watch(ResourceGuard* guard, z3::context& c) : guard_(guard), c_(&c) {
  if (!guard_) return;
  std::lock_guard<std::mutex> lock(guard_->mutex_);
  guard_->contexts_.insert(c_);
  if (guard_->fired_.load(std::memory_order_relaxed)) c_->interrupt();
}

ResourceGuard::Watch::~Watch() {
  if (!guard_) return;
  std::lock_guard<std::mutex> lock(guard_->mutex_);
  guard_->contexts_.erase(c_);
}

}  // namespace ptxcheck
