// See memcheck.hpp.
#include "semantics/runtime/memcheck.hpp"

#include "semantics/runtime/findings.hpp"
#include "semantics/runtime/pool_access.hpp"

#include <iostream>

namespace ptx::runtime {

interp::RunResult MemcheckMonitor::run(const ir::Module& module, const interp::Launch& launch, const interp::Options& options) {
  module_ = &module;
  launch_ = &launch;
  device_ = Runtime::instance().current_device();
  ++launches_;
  interp::Options checked = options;
  checked.observer = this;
  return inner_ ? inner_->run(module, launch, checked) : interp::run(module, launch, checked);
}

std::string MemcheckMonitor::summary() {
  std::string s = "memcheck: " + std::to_string(launches_) + " launches, " + std::to_string(uninitialized_) + " uninitialized reads, " +
                  std::to_string(after_free_) + " accesses to freed memory" +
                  (Runtime::instance().device_count() > 1 ? ", " + std::to_string(no_peer_access_) + " accesses to another device's memory without peer access, " +
                                                                  std::to_string(no_pool_access_) + " without pool access" : "") +
                  " (each reported once per source line)";
  if (inner_) s += "\nptxcheck exec: " + inner_->summary();
  return s;
}

void MemcheckMonitor::allocated(std::uint64_t base, std::uint64_t size, const std::string& name) {
  const std::uint64_t number = name.empty() ? next_number_++ : 0;
  allocations_[base] = {number, size, std::vector<bool>(size, false), false, name.empty() ? "cudaMalloc #" + std::to_string(number) : name};
}

void MemcheckMonitor::device_written(std::uint64_t address, std::uint64_t size) {
  for (std::uint64_t k = 0; k < size; ++k)
    if (auto [base, a] = find(address + k); a) a->initialized[address + k - base] = true;
}

void MemcheckMonitor::freed(std::uint64_t base) {
  if (auto it = allocations_.find(base); it != allocations_.end()) it->second.freed = true;
}

std::pair<std::uint64_t, MemcheckMonitor::Allocation*> MemcheckMonitor::find(std::uint64_t address) {
  auto it = allocations_.upper_bound(address);
  if (it == allocations_.begin()) return {0, nullptr};
  --it;
  if (address - it->first >= it->second.size) return {0, nullptr};
  return {it->first, &it->second};
}

void MemcheckMonitor::access(const interp::ThreadRef& t, const interp::MemoryAccess& a) {
  if (a.space != ir::StateSpace::global) return;
  auto [base, alloc] = find(a.addr);
  if (!alloc) return;
  if (alloc->freed) {
    report("access to freed memory", "ptxcheck.memcheck.freed", after_free_, t, a, base, *alloc);
    return;
  }
  peer_denied(t, a, base, *alloc);  // the access still runs (the interpreter has one memory)
  const bool reads = a.kind == interp::MemoryAccess::Kind::read || a.kind == interp::MemoryAccess::Kind::atomic;
  const bool writes = a.kind != interp::MemoryAccess::Kind::read && (a.kind != interp::MemoryAccess::Kind::atomic || a.wrote);
  const std::uint64_t offset = a.addr - base, end = std::min<std::uint64_t>(offset + a.bytes, alloc->size);
  if (reads)
    for (std::uint64_t k = offset; k < end; ++k)
      if (!alloc->initialized[k]) {
        report("read of uninitialized memory", "ptxcheck.memcheck.uninitialized", uninitialized_, t, a, base, *alloc);
        break;
      }
  if (writes || a.kind == interp::MemoryAccess::Kind::atomic)  // an atomic's value is defined once it has run
    for (std::uint64_t k = offset; k < end; ++k) alloc->initialized[k] = true;
}

// Peer device memory access (Runtime API): once cudaDeviceEnablePeerAccess(peer) has run on a device, "all
// allocations from peerDevice will immediately be accessible by the current device"; before, they are not.
// Managed and pinned memory are every device's. A memory pool's allocations follow the pool's access descriptors
// instead (pool_access.hpp): none, read (a write is reported), or read and write.
void MemcheckMonitor::peer_denied(const interp::ThreadRef& t, const interp::MemoryAccess& a, std::uint64_t base, const Allocation& alloc) {
  Runtime& r = Runtime::instance();
  if (r.device_count() == 1 || r.is_managed(reinterpret_cast<const void*>(base))) return;
  PoolAccess access = pool_access_none;
  if (int pool_device = 0; pool_access_at(base, device_, access, pool_device)) {
    const bool writes = a.kind != interp::MemoryAccess::Kind::read;  // (an atomic needs write access even if it wrote nothing)
    if (access == pool_access_read_write || (access == pool_access_read && !writes)) return;
    const std::string what = std::string(writes ? "write to" : "read of") + " a memory pool allocation of device " + std::to_string(pool_device) +
                             " from a kernel on device " + std::to_string(device_) + " without " + (access == pool_access_read ? "write " : "") +
                             "access to the pool (cudaMemPoolSetAccess)";
    report(what.c_str(), "ptxcheck.memcheck.pool-access", no_pool_access_, t, a, base, alloc);
    return;
  }
  const int owner = r.device_of(reinterpret_cast<const void*>(base));
  if (owner < 0 || r.peer_enabled(device_, owner)) return;
  const std::string what = "access to device " + std::to_string(owner) + "'s memory from a kernel on device " + std::to_string(device_) +
                           " without peer access (cudaDeviceEnablePeerAccess)";
  report(what.c_str(), "ptxcheck.memcheck.peer-access", no_peer_access_, t, a, base, alloc);
}

void MemcheckMonitor::report(const char* what, const char* rule, std::uint64_t& count, const interp::ThreadRef& t, const interp::MemoryAccess& a,
                             std::uint64_t base, const Allocation& alloc) {
  std::string where = "PTX line " + std::to_string(a.ins ? a.ins->loc.ptx_line : 0);
  if (a.ins && a.ins->loc.pos.line) {
    auto file = module_->source_files.find(a.ins->loc.pos.file);
    where = (file != module_->source_files.end() ? file->second : std::string("?")) + ":" + std::to_string(a.ins->loc.pos.line) + " (" + where + ")";
  }
  // Once per CUDA line (an unrolled loop is one line but many instructions), else once per PTX instruction.
  const std::string key = std::string(what) + (a.ins && a.ins->loc.pos.line ? where.substr(0, where.find(" (")) : where);
  if (!reported_.insert(key).second) return;
  ++count;
  std::string file;
  if (a.ins && a.ins->loc.pos.line)
    if (auto it = module_->source_files.find(a.ins->loc.pos.file); it != module_->source_files.end()) file = it->second;
  add_finding({rule, "error",
               std::string(what) + ": " + std::to_string(a.bytes) + " bytes at " + alloc.name + "+" + std::to_string(a.addr - base),
               ir::kernel_title(launch_->kernel), file, a.ins ? a.ins->loc.pos.line : 0});
  auto dims = [](const std::array<std::uint32_t, 3>& d) { return "(" + std::to_string(d[0]) + "," + std::to_string(d[1]) + "," + std::to_string(d[2]) + ")"; };
  std::cerr << "ptxcheck exec: memcheck: " << what << ": " << a.bytes << " bytes at " << alloc.name << "+" << (a.addr - base)
            << " by " << (a.ins ? ir::opcode_text(*a.ins) : std::string("?")) << " at " << where << ", kernel "
            << ir::kernel_title(launch_->kernel) << ", block " << dims(t.ctaid) << " thread " << dims(t.tid) << "\n";
}

}  // namespace ptx::runtime
