// See runtime.hpp ("registered host memory"): cudaHostRegister / cudaHostUnregister. The Runtime API's words:
// cudaHostRegister "page-locks the memory range specified by ptr and size and maps it for the device(s)"; with
// unified addressing cudaHostRegisterDefault memory is "both mapped and portable". The interpreter's addresses
// cannot be the program's own (they lie below the generic windows, interp/memory.hpp), so the range gets a device
// region of its size, and the device reports cudaDevAttrCanUseHostPointerForRegisteredMem = 0: then "the device
// pointer returned by cudaHostGetDevicePointer() will not match the original host pointer ptr, but it will be
// suitable for use on all devices". The region's bytes are the host's: copied in before each launch and back after
// it (not back for cudaHostRegisterReadOnly memory, whose region faults on a store), as for pinned memory.
#include "semantics/runtime/runtime.hpp"

#include <cstring>

namespace ptx::runtime {
namespace {
// cudaHostRegister's flags (driver_types.h).
constexpr unsigned kPortable = 0x01, kMapped = 0x02, kIoMemory = 0x04, kReadOnly = 0x08;

bool overlaps(std::uint64_t a, std::uint64_t a_size, std::uint64_t b, std::uint64_t b_size) {
  return a < b + b_size && b < a + a_size;
}
}  // namespace

int Runtime::register_host(void* host, std::uint64_t size, unsigned flags) {
  std::lock_guard lock(mutex_);
  if (int e = sticky()) return e;
  if (!host || !size || (flags & ~(kPortable | kMapped | kIoMemory | kReadOnly))) return record(invalid_value);
  if (flags & kIoMemory) return unimplemented("cudaHostRegister with cudaHostRegisterIoMemory (memory-mapped I/O of another device)");
  const auto h = reinterpret_cast<std::uint64_t>(host);
  for (const auto& [base, r] : registered_)
    if (overlaps(h, size, reinterpret_cast<std::uint64_t>(r.host), r.size)) return record(host_memory_already_registered);
  // Pinned memory (cudaMallocHost, cudaHostAlloc) is in "the same tracking mechanism": registered already.
  for (const auto& [base, bytes] : managed_)
    if (overlaps(h, size, base, bytes)) {
      if (memory_type(reinterpret_cast<const void*>(base)) == 1) return record(host_memory_already_registered);
      return unimplemented("cudaHostRegister of managed memory");
    }
  if (device_bytes(host, 1)) return record(invalid_value);  // device memory is not the host's to register
  // The device region keeps the host address's page offset, so that accesses are aligned there as they are here.
  const std::string name = "cudaHostRegister #" + std::to_string(registered_count_ + 1);
  const std::uint64_t a = device_.memory.allocate(name, size, interp::kManagedPage, (flags & kReadOnly) != 0, 0, h % interp::kManagedPage);
  if (!a) return record(memory_allocation);
  ++registered_count_;
  registered_[a] = {static_cast<std::uint8_t*>(host), size, (flags & kReadOnly) != 0};
  if (monitor_) {
    monitor_->allocated(a, size, name);
    monitor_->device_written(a, size);  // the host's bytes: never "uninitialized"
  }
  return success;
}

// "The base address must be the same one specified to cudaHostRegister()". The device region goes (kept and marked
// under --memcheck, so that a kernel still using its pointer is reported as using freed memory).
int Runtime::unregister_host(void* host) {
  std::lock_guard lock(mutex_);
  if (!host) return record(invalid_value);
  for (auto it = registered_.begin(); it != registered_.end(); ++it) {
    if (it->second.host != host) continue;
    const std::uint64_t base = it->first;
    registered_.erase(it);
    if (monitor_ && monitor_->keep_freed()) {
      freed_.insert(base);
      monitor_->freed(base);
    } else {
      device_.memory.release(base);
    }
    return success;
  }
  // A pointer inside a registered range that is not its base: cudaErrorInvalidValue on an H200 (CUDA 13.0,
  // tests/hardware/h200/exec.txt, host_register); memory never registered: cudaErrorHostMemoryNotRegistered.
  const auto h = reinterpret_cast<std::uint64_t>(host);
  for (const auto& [base, r] : registered_)
    if (h - reinterpret_cast<std::uint64_t>(r.host) < r.size) return record(invalid_value);
  return record(host_memory_not_registered);
}

void* Runtime::registered_device_pointer(const void* host) {
  std::lock_guard lock(mutex_);
  const auto h = reinterpret_cast<std::uint64_t>(host);
  for (const auto& [base, r] : registered_)
    if (h - reinterpret_cast<std::uint64_t>(r.host) < r.size) return reinterpret_cast<void*>(base + (h - reinterpret_cast<std::uint64_t>(r.host)));
  return nullptr;
}

void* Runtime::registered_host_pointer(const void* device) {
  std::lock_guard lock(mutex_);
  const auto a = reinterpret_cast<std::uint64_t>(device);
  auto it = registered_.upper_bound(a);
  if (it == registered_.begin() || a - std::prev(it)->first >= std::prev(it)->second.size) return nullptr;
  return std::prev(it)->second.host + (a - std::prev(it)->first);
}

void Runtime::sync_registered(bool to_device) {
  for (const auto& [base, r] : registered_) {
    auto* region = device_.memory.find(base, r.size);
    if (!region) continue;
    if (to_device) std::memcpy(region->bytes.data(), r.host, r.size);
    else if (!r.read_only) std::memcpy(r.host, region->bytes.data(), r.size);
  }
}

}  // namespace ptx::runtime
