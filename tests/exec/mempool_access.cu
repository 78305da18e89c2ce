// exec-flags: --memcheck --devices 3
// expect-exit: 0
// expect-stdout: pool access: as documented
// expect-stdout: device 1 wrote 42, device 2 read 7
// expect-stderr: memcheck: read of a memory pool allocation of device 0 from a kernel on device 1 without access to the pool (cudaMemPoolSetAccess)
// expect-stderr: mempool_access.cu:21
// expect-stderr: memcheck: write to a memory pool allocation of device 0 from a kernel on device 2 without write access to the pool
// expect-stderr: mempool_access.cu:23
// expect-stderr: 0 accesses to another device's memory without peer access, 2 without pool access
// Memory pool access descriptors (cudaMemPoolSetAccess / cudaMemPoolGetAccess). The Programming Guide's
// stream-ordered allocator: pool accessibility "does not follow cudaDeviceEnablePeerAccess"; cudaMemPoolSetAccess
// "modifies what devices can access allocations from a pool"; "by default, allocations are accessible from the
// device where the allocations are located. This access cannot be revoked." cudaMemAccessFlags: ProtNone 0,
// ProtRead 1, ProtReadWrite 3. Here a pool on device 0: device 1, even with peer access to device 0, reads an
// allocation of it (line 21, reported); device 2 with read access reads it (not reported) and writes it (line 23,
// reported); device 1, granted read-write after the allocation was made, writes it (not reported).
#include "check_call.cuh"

#include <cstdio>

__global__ void read_first(const int* p, int* out) { *out = *p; }
__global__ void read_into(const int* p, int* out) { *out = *p; }
__global__ void write_first(int* p, int v) { *p = v; }
__global__ void write_granted(int* p, int v) { *p = v; }

#define EXPECT(cond)                                      \
  do {                                                    \
    if (!(cond)) {                                        \
      std::printf("FAIL line %d: %s\n", __LINE__, #cond); \
      return 1;                                           \
    }                                                     \
  } while (0)

cudaMemAccessFlags access_of(cudaMemPool_t pool, int device) {
  cudaMemLocation where = {cudaMemLocationTypeDevice, device};
  cudaMemAccessFlags f = cudaMemAccessFlagsProtReadWrite;
  if (cudaMemPoolGetAccess(&f, pool, &where) != cudaSuccess) return static_cast<cudaMemAccessFlags>(-1);
  return f;
}
cudaError_t grant(cudaMemPool_t pool, cudaMemLocationType type, int device, int flags) {
  cudaMemAccessDesc d = {};
  d.location = {type, device};
  d.flags = static_cast<cudaMemAccessFlags>(flags);
  return cudaMemPoolSetAccess(pool, &d, 1);
}

int main() {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location = {cudaMemLocationTypeDevice, 0};
  cudaMemPool_t pool;
  CHECK(cudaMemPoolCreate(&pool, &props));
  EXPECT(access_of(pool, 0) == cudaMemAccessFlagsProtReadWrite);
  EXPECT(access_of(pool, 1) == cudaMemAccessFlagsProtNone && access_of(pool, 2) == cudaMemAccessFlagsProtNone);
  // The owner's access cannot be taken away; locations must be devices that exist; flags must be access flags.
  EXPECT(grant(pool, cudaMemLocationTypeDevice, 0, cudaMemAccessFlagsProtNone) == cudaErrorInvalidValue);
  EXPECT(grant(pool, cudaMemLocationTypeDevice, 3, cudaMemAccessFlagsProtReadWrite) == cudaErrorInvalidValue);
  EXPECT(grant(pool, cudaMemLocationTypeHost, 0, cudaMemAccessFlagsProtReadWrite) == cudaErrorInvalidValue);
  EXPECT(grant(pool, cudaMemLocationTypeDevice, 1, 2) == cudaErrorInvalidValue);
  CHECK(grant(pool, cudaMemLocationTypeDevice, 0, cudaMemAccessFlagsProtReadWrite));
  cudaMemLocation nowhere = {cudaMemLocationTypeDevice, 3};
  cudaMemAccessFlags f;
  EXPECT(cudaMemPoolGetAccess(&f, pool, &nowhere) == cudaErrorInvalidValue);
  cudaGetLastError();
  std::printf("pool access: as documented\n");

  int* p = nullptr;
  CHECK(cudaMallocFromPoolAsync((void**)&p, sizeof(int), pool, 0));
  CHECK(cudaMemsetAsync(p, 0, sizeof(int), 0));
  int *out1, *out2, got = 0;
  CHECK(cudaSetDevice(1));
  CHECK(cudaMalloc(&out1, sizeof(int)));
  CHECK(cudaDeviceEnablePeerAccess(0, 0));  // peer access does not reach pool memory
  read_first<<<1, 1>>>(p, out1);
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaSetDevice(2));
  CHECK(cudaMalloc(&out2, sizeof(int)));
  CHECK(grant(pool, cudaMemLocationTypeDevice, 2, cudaMemAccessFlagsProtRead));
  EXPECT(access_of(pool, 2) == cudaMemAccessFlagsProtRead);
  const int seven = 7;
  CHECK(cudaMemcpy(p, &seven, sizeof seven, cudaMemcpyHostToDevice));
  read_into<<<1, 1>>>(p, out2);
  CHECK(cudaMemcpy(&got, out2, sizeof got, cudaMemcpyDeviceToHost));
  write_first<<<1, 1>>>(p, 9);  // read access only
  CHECK(cudaDeviceSynchronize());
  const int read2 = got;
  CHECK(cudaSetDevice(1));
  CHECK(grant(pool, cudaMemLocationTypeDevice, 1, cudaMemAccessFlagsProtReadWrite));
  EXPECT(access_of(pool, 1) == cudaMemAccessFlagsProtReadWrite);
  write_granted<<<1, 1>>>(p, 42);
  CHECK(cudaMemcpy(&got, p, sizeof got, cudaMemcpyDeviceToHost));
  std::printf("device 1 wrote %d, device 2 read %d\n", got, read2);
  return 0;
}
