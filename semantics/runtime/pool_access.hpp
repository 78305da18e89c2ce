// Which devices may reach the allocations of each memory pool (cudaMemPoolSetAccess / GetAccess, api_mempool.cpp),
// kept where --memcheck can see it (memcheck.cpp) without the CUDA headers. The Programming Guide's stream-ordered
// allocator, "device accessibility for multi-GPU support": pool accessibility "does not follow
// cudaDeviceEnablePeerAccess"; cudaMemPoolSetAccess "modifies what devices can access allocations from a pool"
// (those made before as well as after); "by default, allocations are accessible from the device where the
// allocations are located. This access cannot be revoked."
#pragma once

#include <cstdint>

namespace ptx::runtime {

// cudaMemAccessFlags' values (driver_types.h).
enum PoolAccess : int { pool_access_none = 0, pool_access_read = 1, pool_access_read_write = 3 };

// An allocation of `size` bytes at `base` from `pool`, which is located on device `owner`.
void pool_access_allocated(std::uint64_t base, std::uint64_t size, const void* pool, int owner);
// What `device` may do to the allocations of `pool` (located on `owner`): the owner always reads and writes.
void pool_access_set(const void* pool, int device, PoolAccess access);
PoolAccess pool_access_get(const void* pool, int device, int owner);
// For the pool allocation holding `address`: the access `device` has and the pool's device; false when `address`
// is in no pool allocation.
bool pool_access_at(std::uint64_t address, int device, PoolAccess& access, int& owner);

}  // namespace ptx::runtime
