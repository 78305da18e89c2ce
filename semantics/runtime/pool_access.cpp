// See pool_access.hpp.
#include "semantics/runtime/pool_access.hpp"

#include <map>
#include <mutex>
#include <utility>

namespace ptx::runtime {
namespace {
struct Allocation {
  std::uint64_t size = 0;
  const void* pool = nullptr;
  int owner = 0;
};
struct Table {
  std::mutex mutex;
  std::map<std::uint64_t, Allocation> allocations;           // base -> allocation (addresses are never reused)
  std::map<std::pair<const void*, int>, PoolAccess> granted;  // (pool, device) -> access other than the default
};
Table& table() {
  static Table t;
  return t;
}
}  // namespace

void pool_access_allocated(std::uint64_t base, std::uint64_t size, const void* pool, int owner) {
  std::lock_guard lock(table().mutex);
  table().allocations[base] = {size, pool, owner};
}

void pool_access_set(const void* pool, int device, PoolAccess access) {
  std::lock_guard lock(table().mutex);
  table().granted[{pool, device}] = access;
}

PoolAccess pool_access_get(const void* pool, int device, int owner) {
  if (device == owner) return pool_access_read_write;
  std::lock_guard lock(table().mutex);
  auto it = table().granted.find({pool, device});
  return it == table().granted.end() ? pool_access_none : it->second;
}

bool pool_access_at(std::uint64_t address, int device, PoolAccess& access, int& owner) {
  Allocation a;
  {
    std::lock_guard lock(table().mutex);
    auto it = table().allocations.upper_bound(address);
    if (it == table().allocations.begin() || address - std::prev(it)->first >= std::prev(it)->second.size) return false;
    a = std::prev(it)->second;
  }
  owner = a.owner;
  access = pool_access_get(a.pool, device, a.owner);
  return true;
}

}  // namespace ptx::runtime
