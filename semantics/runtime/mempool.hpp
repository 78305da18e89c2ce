// Stream-ordered memory pools (api_mempool.cpp; the Runtime API's "Stream Ordered Memory Allocator" and
// cudaMemPool* calls): each device has a default pool, which is its current pool until cudaDeviceSetMemPool;
// cudaMallocAsync allocates from the current device's current pool, cudaMallocFromPoolAsync from the pool named.
// Allocations are ordinary device allocations (Runtime::allocate, so --memcheck sees them); a pool only keeps the
// counts a program can read back: bytes in use, bytes reserved (freed bytes stay reserved until a synchronization
// releases what exceeds the release threshold, or cudaMemPoolTrimTo), and their high watermarks.
#pragma once

#include <cuda_runtime_api.h>

namespace ptx::runtime {

// Allocates `size` bytes from `pool` (null: the current device's current pool) and counts them there. 0 or the
// error (recorded).
int pool_allocate(void** pointer, size_t size, cudaMemPool_t pool);
// A pointer freed (cudaFree, cudaFreeAsync): its pool, if any, no longer counts it as used.
void pool_release(const void* pointer);
// The properties `pool` was made with; false for a handle that is no pool's.
bool pool_props(cudaMemPool_t pool, cudaMemPoolProps& out);
// A stream, event or device synchronization: each pool releases its reserved bytes beyond max(in use, release
// threshold) ("the allocator will try to release memory back to the OS on the next call to stream, event or
// context synchronize").
void pools_synchronized();

}  // namespace ptx::runtime
