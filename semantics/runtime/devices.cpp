// See runtime.hpp ("devices"): the N devices `ptxcheck exec --devices N` presents, over one interpreter memory.
// The rules cited are the CUDA Runtime API's (device management, peer device memory access) and the CUDA
// Programming Guide's multi-device section.
#include "semantics/runtime/runtime.hpp"

#include <algorithm>
#include <cstdlib>

namespace ptx::runtime {
namespace {
// "cudaSetDevice: Sets device as the current device for the calling host thread" (Runtime API, device management);
// a thread that never set one uses device 0.
thread_local int current = 0;
constexpr int kMostDevices = 64;
}  // namespace

void Runtime::init_devices() {
  if (const char* s = std::getenv("PTXCHECK_EXEC_DEVICES")) {
    const long n = std::strtol(s, nullptr, 10);
    if (n >= 1 && n <= kMostDevices) device_count_ = static_cast<int>(n);
    else report(std::string("PTXCHECK_EXEC_DEVICES=") + s + " is not a device count from 1 to 64; presenting one device");
  }
  const auto n = static_cast<std::size_t>(device_count_);
  sticky_.assign(n, success);
  parked_globals_.assign(n, {});
  used_.assign(n, 0);
}

int Runtime::current_device() const { return current < device_count_ ? current : 0; }

int Runtime::set_device(int d) {
  if (!valid_device(d)) return invalid_device;
  current = d;
  return success;
}

int Runtime::sticky() {
  std::lock_guard lock(mutex_);
  return sticky_[static_cast<std::size_t>(current_device())];
}

int Runtime::sticky_of(const void* handle) {
  std::lock_guard lock(mutex_);
  const int d = handle_device(handle);
  return sticky_[static_cast<std::size_t>(d >= 0 ? d : current_device())];
}

// The interpreter finds a module's variables in device_.module_globals: the active device's copy is kept there,
// the others' are parked.
void Runtime::activate(int device) {
  if (device == active_) return;
  parked_globals_[static_cast<std::size_t>(active_)] = std::move(device_.module_globals);
  device_.module_globals = std::move(parked_globals_[static_cast<std::size_t>(device)]);
  parked_globals_[static_cast<std::size_t>(device)].clear();
  active_ = device;
}

// An allocation belongs to the device current when it is made ("cudaMalloc: allocates memory on the device"; under
// unified addressing cudaPointerGetAttributes gives that device). cudaMalloc'd bytes count against its memory.
void Runtime::note_allocation(std::uint64_t base, std::uint64_t size, bool counted) {
  const int d = current_device();
  owners_[base] = {d, size, counted};
  if (counted) used_[static_cast<std::size_t>(d)] += size;
}

void Runtime::forget_allocation(std::uint64_t base) {
  auto it = owners_.find(base);
  if (it == owners_.end()) return;
  if (it->second.counted) used_[static_cast<std::size_t>(it->second.device)] -= it->second.size;
  owners_.erase(it);
}

int Runtime::device_of(const void* address) {
  std::lock_guard lock(mutex_);
  const auto a = reinterpret_cast<std::uint64_t>(address);
  auto it = owners_.upper_bound(a);
  if (it == owners_.begin()) return -1;
  --it;
  return a - it->first < std::max<std::uint64_t>(it->second.size, 1) ? it->second.device : -1;
}

std::uint64_t Runtime::device_total() const { return (interp::kSharedWindow - interp::kGlobalBase) / static_cast<std::uint64_t>(device_count_); }

std::uint64_t Runtime::device_used(int d) {
  std::lock_guard lock(mutex_);
  return valid_device(d) ? used_[static_cast<std::size_t>(d)] : 0;
}

// cudaDeviceEnablePeerAccess(peer): "cudaErrorInvalidDevice if cudaDeviceCanAccessPeer() indicates that the current
// device cannot directly access memory from peerDevice" (so for itself: it is not its own peer);
// "cudaErrorPeerAccessAlreadyEnabled if direct access of peerDevice from the current device has already been
// enabled"; disabling what was not enabled is cudaErrorPeerAccessNotEnabled (Runtime API, peer device memory access).
int Runtime::enable_peer(int peer) {
  std::lock_guard lock(mutex_);
  const int d = current_device();
  if (!valid_device(peer) || peer == d) return record(invalid_device);
  if (!peers_.insert({d, peer}).second) return record(peer_access_already_enabled);
  return success;
}

int Runtime::disable_peer(int peer) {
  std::lock_guard lock(mutex_);
  const int d = current_device();
  if (!valid_device(peer) || peer == d) return record(invalid_device);
  if (peers_.erase({d, peer}) == 0) return record(peer_access_not_enabled);
  return success;
}

bool Runtime::peer_enabled(int device, int peer) {
  std::lock_guard lock(mutex_);
  return device == peer || peers_.count({device, peer}) != 0;
}

// cudaDeviceReset "destroys and cleans up all resources associated with the current device": its sticky error
// goes, its cudaMalloc'd memory is freed (kept, marked, under --memcheck), its module variables are placed and
// initialised anew at their next use (except in a module with `__managed__` variables, whose host pointers must
// stay), and peer access stays "until access is explicitly disabled ... or either device is reset".
void Runtime::reset_device() {
  std::lock_guard lock(mutex_);
  const int d = current_device();
  sticky_[static_cast<std::size_t>(d)] = success;
  std::erase_if(peers_, [d](const std::pair<int, int>& p) { return p.first == d || p.second == d; });
  std::vector<std::uint64_t> mine;
  for (const auto& [base, owner] : owners_)
    if (owner.device == d && owner.counted) mine.push_back(base);
  for (std::uint64_t base : mine) release(reinterpret_cast<const void*>(base));
  activate(d);
  std::erase_if(device_.module_globals, [](const auto& entry) {
    const auto& globals = static_cast<const ir::Module*>(entry.first)->globals;
    return std::none_of(globals.begin(), globals.end(), [](const ir::Variable& v) { return v.is_managed; });
  });
}

void Runtime::note_handle(const void* handle, int device) {
  std::lock_guard lock(mutex_);
  if (handle) handles_[handle] = device;
}

void Runtime::forget_handle(const void* handle) {
  std::lock_guard lock(mutex_);
  handles_.erase(handle);
}

int Runtime::handle_device(const void* handle) {
  std::lock_guard lock(mutex_);
  auto it = handles_.find(handle);
  return it == handles_.end() ? -1 : it->second;
}

// CUDA Programming Guide (multi-device system, stream and event behavior): "cudaEventRecord() will fail if the input
// event and input stream are associated to different devices", and so will cudaEventElapsedTime() for two events
// of different devices.
bool different_devices(const void* a, const void* b) {
  Runtime& r = Runtime::instance();
  const int da = r.handle_device(a), db = r.handle_device(b);
  return (da >= 0 ? da : r.current_device()) != (db >= 0 ? db : r.current_device());
}

}  // namespace ptx::runtime
