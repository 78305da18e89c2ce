// `ptxcheck exec --memcheck` (environment PTXCHECK_EXEC_MEMCHECK=1), as compute-sanitizer's memcheck and initcheck
// report them: a kernel's read of device memory no one has written (cudaMalloc'd bytes not yet set by a copy, a
// memset or a kernel's write), and any access to memory the program has freed (freed allocations are kept, and
// marked, so that the access is seen). With several devices (--devices N), also a kernel's access to another
// device's cudaMalloc'd memory without peer access from its device (cudaDeviceEnablePeerAccess), or to a memory
// pool's allocation without the access the pool grants that device (cudaMemPoolSetAccess), which real hardware
// does not allow. Out-of-bounds and misaligned accesses are faults of the interpreter in
// every mode. Each finding is reported once per CUDA line (or PTX instruction), with the kernel and thread.
#pragma once

#include "semantics/interp/observer.hpp"
#include "semantics/runtime/runtime.hpp"

#include <map>
#include <set>

namespace ptx::runtime {

class MemcheckMonitor final : public LaunchMonitor, public interp::AccessObserver {
 public:
  // `inner` runs each launch when given (--racecheck too); this monitor's observer is then passed along.
  explicit MemcheckMonitor(std::unique_ptr<LaunchMonitor> inner = nullptr) : inner_(std::move(inner)) {}

  // LaunchMonitor
  interp::RunResult run(const ir::Module& module, const interp::Launch& launch, const interp::Options& options) override;
  std::string summary() override;
  void allocated(std::uint64_t base, std::uint64_t size, const std::string& name = {}) override;
  void device_written(std::uint64_t address, std::uint64_t size) override;
  void freed(std::uint64_t base) override;
  bool keep_freed() const override { return true; }

  // interp::AccessObserver: only accesses matter here.
  void access(const interp::ThreadRef& t, const interp::MemoryAccess& a) override;

 private:
  struct Allocation {
    std::uint64_t number = 0, size = 0;
    std::vector<bool> initialized;
    bool freed = false;
    std::string name;  // what messages call it: "cudaMalloc #number" unless named
  };
  // The allocation holding `address`, with its base; null when none (module variables, launch-local memory).
  std::pair<std::uint64_t, Allocation*> find(std::uint64_t address);
  void report(const char* what, const char* rule, std::uint64_t& count, const interp::ThreadRef& t, const interp::MemoryAccess& a,
              std::uint64_t base, const Allocation& alloc);
  void peer_denied(const interp::ThreadRef& t, const interp::MemoryAccess& a, std::uint64_t base, const Allocation& alloc);

  std::unique_ptr<LaunchMonitor> inner_;
  std::map<std::uint64_t, Allocation> allocations_;
  std::set<std::string> reported_;  // what + where, for one report per source line
  const ir::Module* module_ = nullptr;
  const interp::Launch* launch_ = nullptr;
  std::uint64_t launches_ = 0, uninitialized_ = 0, after_free_ = 0, no_peer_access_ = 0, no_pool_access_ = 0, next_number_ = 1;
  int device_ = 0;  // the device the launch runs on
};

}  // namespace ptx::runtime
