// CUDA runtime API: memory pools (mempool.hpp). What a program can observe is modelled: which pool is a device's
// default and current one, pool attributes (release threshold, the reuse switches, reserved and used bytes and
// their high watermarks), trimming, and allocation from a pool. Reserved bytes are counted exactly (a GPU's driver
// reserves in larger granules), and a freed allocation's bytes stay reserved for the pool until released; which
// devices may reach a pool's allocations (access descriptors, pool_access.hpp, checked by --memcheck). IPC
// (export, import, shareable handles) and host-located and managed pools are refused by name.
#include "semantics/runtime/api_error.hpp"
#include "semantics/runtime/mempool.hpp"

#include "semantics/runtime/pool_access.hpp"
#include "semantics/runtime/runtime.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

using ptx::runtime::Runtime;

namespace {
struct Pool {
  cudaMemPoolProps props{};
  bool is_default = false;
  unsigned long long release_threshold = 0;  // "(default 0)"
  int reuse[3] = {1, 1, 1};                  // the three cudaMemPoolReuse* switches, "(default enabled)"
  unsigned long long used = 0, used_high = 0, reserved = 0, reserved_high = 0;
  bool destroyed = false;
};
struct Pools {
  std::recursive_mutex mutex;
  std::vector<std::unique_ptr<Pool>> all;
  std::map<int, Pool*> default_of, current_of;  // per device
  std::map<const void*, std::pair<Pool*, unsigned long long>> allocations;  // pointer -> its pool and size
};
Pools& pools() {
  static Pools p;
  return p;
}
Pool* pool_of(cudaMemPool_t p) { return reinterpret_cast<Pool*>(p); }
bool known(const Pool* p) {
  auto& all = pools().all;
  return p && !p->destroyed && std::any_of(all.begin(), all.end(), [p](const auto& q) { return q.get() == p; });
}
Pool* default_pool(int device) {
  Pool*& p = pools().default_of[device];
  if (!p) {
    pools().all.push_back(std::make_unique<Pool>());
    p = pools().all.back().get();
    p->is_default = true;
    p->props.allocType = cudaMemAllocationTypePinned;
    p->props.location = {cudaMemLocationTypeDevice, device};
  }
  return p;
}
Pool* current_pool(int device) {
  auto it = pools().current_of.find(device);
  return it != pools().current_of.end() ? it->second : default_pool(device);
}
void release_beyond(Pool& p, unsigned long long keep) { p.reserved = std::min(p.reserved, std::max(p.used, keep)); }
// A descriptor cudaMemPoolSetAccess accepts for a pool on device `owner` (below).
bool valid_access(const cudaMemAccessDesc& d, int owner) {
  const int f = d.flags;
  if (d.location.type != cudaMemLocationTypeDevice || !Runtime::instance().valid_device(d.location.id)) return false;
  if (f != cudaMemAccessFlagsProtNone && f != cudaMemAccessFlagsProtRead && f != cudaMemAccessFlagsProtReadWrite) return false;
  return d.location.id != owner || f == cudaMemAccessFlagsProtReadWrite;
}
}  // namespace

namespace ptx::runtime {

int pool_allocate(void** pointer, size_t size, cudaMemPool_t handle) {
  std::lock_guard lock(pools().mutex);
  Runtime& rt = Runtime::instance();
  Pool* p = handle ? pool_of(handle) : current_pool(rt.current_device());
  if (!known(p)) return rt.record(invalid_value);
  if (p->props.maxSize && p->used + size > p->props.maxSize) return rt.record(memory_allocation);  // the pool's own limit
  const int caller = rt.current_device();
  rt.set_device(p->props.location.id);  // the pool's device owns the memory
  const int e = rt.allocate(pointer, size);
  rt.set_device(caller);
  if (e) return e;
  pools().allocations[*pointer] = {p, size};
  pool_access_allocated(reinterpret_cast<std::uint64_t>(*pointer), size, p, p->props.location.id);
  p->used += size;
  p->used_high = std::max(p->used_high, p->used);
  p->reserved = std::max(p->reserved, p->used);  // freed bytes kept by the pool are reused first
  p->reserved_high = std::max(p->reserved_high, p->reserved);
  return success;
}

void pool_release(const void* pointer) {
  std::lock_guard lock(pools().mutex);
  auto it = pools().allocations.find(pointer);
  if (it == pools().allocations.end()) return;
  auto [p, size] = it->second;
  pools().allocations.erase(it);
  p->used -= size;
}

bool pool_props(cudaMemPool_t handle, cudaMemPoolProps& out) {
  std::lock_guard lock(pools().mutex);
  Pool* p = pool_of(handle);
  if (!known(p)) return false;
  out = p->props;
  return true;
}

void pools_synchronized() {
  std::lock_guard lock(pools().mutex);
  for (auto& p : pools().all) release_beyond(*p, p->release_threshold);
}

}  // namespace ptx::runtime

extern "C" {

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  if (!pool) return invalid();
  if (!Runtime::instance().valid_device(device)) return cudaErrorInvalidDevice;
  std::lock_guard lock(pools().mutex);
  *pool = reinterpret_cast<cudaMemPool_t>(default_pool(device));
  return cudaSuccess;
}
cudaError_t cudaDeviceGetMemPool(cudaMemPool_t* pool, int device) {
  if (!pool) return invalid();
  if (!Runtime::instance().valid_device(device)) return cudaErrorInvalidDevice;
  std::lock_guard lock(pools().mutex);
  *pool = reinterpret_cast<cudaMemPool_t>(current_pool(device));
  return cudaSuccess;
}
// The pool must be of that device.
cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t pool) {
  if (!Runtime::instance().valid_device(device)) return cudaErrorInvalidDevice;
  std::lock_guard lock(pools().mutex);
  Pool* p = pool_of(pool);
  if (!known(p) || p->props.location.id != device) return invalid();
  pools().current_of[device] = p;
  return cudaSuccess;
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t* pool, const cudaMemPoolProps* props) {
  if (!pool || !props) return invalid();
  if (props->location.type != cudaMemLocationTypeDevice)
    return static_cast<cudaError_t>(Runtime::instance().unimplemented("cudaMemPoolCreate of a pool not located on a device"));
  if (props->allocType != cudaMemAllocationTypePinned)
    return static_cast<cudaError_t>(Runtime::instance().unimplemented("cudaMemPoolCreate of a pool of other than pinned memory"));
  if (props->handleTypes != cudaMemHandleTypeNone)
    return static_cast<cudaError_t>(Runtime::instance().unimplemented("cudaMemPoolCreate with shareable handle types (IPC)"));
  if (!Runtime::instance().valid_device(props->location.id)) return invalid();
  std::lock_guard lock(pools().mutex);
  pools().all.push_back(std::make_unique<Pool>());
  pools().all.back()->props = *props;
  *pool = reinterpret_cast<cudaMemPool_t>(pools().all.back().get());
  return cudaSuccess;
}
// "Destroying the current mempool of a device sets the default mempool of that device as the current mempool for
// that device." A default pool cannot be destroyed (cudaErrorInvalidValue). Outstanding allocations stay usable.
cudaError_t cudaMemPoolDestroy(cudaMemPool_t pool) {
  std::lock_guard lock(pools().mutex);
  Pool* p = pool_of(pool);
  if (!known(p) || p->is_default) return invalid();
  p->destroyed = true;
  for (auto it = pools().current_of.begin(); it != pools().current_of.end();) it = it->second == p ? pools().current_of.erase(it) : std::next(it);
  return cudaSuccess;
}

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  std::lock_guard lock(pools().mutex);
  Pool* p = pool_of(pool);
  if (!known(p) || !value) return invalid();
  const auto u64 = *static_cast<const unsigned long long*>(value);
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies: p->reuse[attr - 1] = *static_cast<const int*>(value); return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold: p->release_threshold = u64; return cudaSuccess;
    // "It is illegal to set this attribute to a non-zero value." Reset, the watermark starts again from now.
    case cudaMemPoolAttrReservedMemHigh:
      if (u64) return invalid();
      p->reserved_high = p->reserved;
      return cudaSuccess;
    case cudaMemPoolAttrUsedMemHigh:
      if (u64) return invalid();
      p->used_high = p->used;
      return cudaSuccess;
    default: return invalid();  // the current amounts are read-only
  }
}
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  std::lock_guard lock(pools().mutex);
  Pool* p = pool_of(pool);
  if (!known(p) || !value) return invalid();
  auto* u64 = static_cast<unsigned long long*>(value);
  switch (attr) {
    case cudaMemPoolReuseFollowEventDependencies:
    case cudaMemPoolReuseAllowOpportunistic:
    case cudaMemPoolReuseAllowInternalDependencies: *static_cast<int*>(value) = p->reuse[attr - 1]; return cudaSuccess;
    case cudaMemPoolAttrReleaseThreshold: *u64 = p->release_threshold; return cudaSuccess;
    case cudaMemPoolAttrReservedMemCurrent: *u64 = p->reserved; return cudaSuccess;
    case cudaMemPoolAttrReservedMemHigh: *u64 = p->reserved_high; return cudaSuccess;
    case cudaMemPoolAttrUsedMemCurrent: *u64 = p->used; return cudaSuccess;
    case cudaMemPoolAttrUsedMemHigh: *u64 = p->used_high; return cudaSuccess;
    default: return invalid();
  }
}
// Access descriptors. cudaMemPoolSetAccess "controls visibility of pools between devices": each descriptor names a
// device (cudaMemLocationTypeDevice, an ordinal) and its access (cudaMemAccessFlagsProtNone, ProtRead,
// ProtReadWrite), for the pool's allocations made before and after. The pool's own device keeps read-write access
// ("this access cannot be revoked"): a descriptor giving it less is cudaErrorInvalidValue (ptxcheck's reading: the
// API lists only that error), as is any other location type, an ordinal out of range, or other flags; a list with
// an invalid descriptor changes nothing.
cudaError_t cudaMemPoolSetAccess(cudaMemPool_t pool, const cudaMemAccessDesc* descList, size_t count) {
  std::lock_guard lock(pools().mutex);
  Pool* p = pool_of(pool);
  if (!known(p) || (count && !descList)) return invalid();
  for (size_t k = 0; k < count; ++k)
    if (!valid_access(descList[k], p->props.location.id)) return invalid();
  for (size_t k = 0; k < count; ++k)
    ptx::runtime::pool_access_set(p, descList[k].location.id, static_cast<ptx::runtime::PoolAccess>(descList[k].flags));
  return cudaSuccess;
}
// "Returns the accessibility of the pool's memory from the specified location."
cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags* flags, cudaMemPool_t pool, cudaMemLocation* location) {
  std::lock_guard lock(pools().mutex);
  Pool* p = pool_of(pool);
  if (!known(p) || !flags || !location || location->type != cudaMemLocationTypeDevice || !Runtime::instance().valid_device(location->id))
    return invalid();
  *flags = static_cast<cudaMemAccessFlags>(ptx::runtime::pool_access_get(p, location->id, p->props.location.id));
  return cudaSuccess;
}

// "Releases memory back to the OS until the pool contains fewer than minBytesToKeep reserved bytes, or there is
// no more memory that the allocator can safely release" (not the bytes of outstanding allocations).
cudaError_t cudaMemPoolTrimTo(cudaMemPool_t pool, size_t keep) {
  std::lock_guard lock(pools().mutex);
  Pool* p = pool_of(pool);
  if (!known(p)) return invalid();
  release_beyond(*p, keep);
  return cudaSuccess;
}

}  // extern "C"
