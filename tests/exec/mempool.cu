// expect-exit: 0
// expect-stdout: current is default: 1; threshold 0; reuse switches 1 1 1
// expect-stdout: default pool: used 1048576, high 1048576, reserved >= used: 1; kernel wrote 1048576 bytes of 7
// expect-stdout: threshold 0: after free and sync used 0, reserved 0
// expect-stdout: threshold max: after free and sync used 0, reserved kept 1; after trim to 0: 0
// expect-stdout: high watermark set to 5: cudaErrorInvalidValue; reset to 0: used high 0
// expect-stdout: own pool: used 4096, default pool used 0
// expect-stdout: as current pool: cudaMallocAsync used 12288
// expect-stdout: destroyed: current is default again: 1
// expect-stdout: destroy default pool: cudaErrorInvalidValue
// expect-stdout: beyond maxSize 8192: cudaErrorMemoryAllocation
// expect-stdout: read-only attribute set: cudaErrorInvalidValue
// Stream-ordered memory pools (Runtime API "Stream Ordered Memory Allocator", cudaMemPool* and
// cudaMemPoolAttr in driver_types.h). Values by hand from the documented rules: a device's default pool is its
// current pool; the release threshold defaults to 0 and the reuse switches to enabled; used bytes are those of
// live allocations (1 MiB, 4096, 4096 + 8192); "When more than the release threshold bytes of memory are held by
// the memory pool, the allocator will try to release memory back to the OS on the next call to stream, event or
// context synchronize" (threshold 0: nothing kept; the maximum: the freed MiB kept until cudaMemPoolTrimTo(0));
// high watermarks "can only be reset to zero"; "Destroying the current mempool of a device sets the default
// mempool of that device as the current mempool"; maxSize bounds a pool.
#include "check_call.cuh"

#include <cstdint>
#include <cstdio>

__global__ void fill(unsigned char* p, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) p[i] = 7;
}

unsigned long long attr(cudaMemPool_t pool, cudaMemPoolAttr a) {
  unsigned long long v = 12345;
  cudaMemPoolGetAttribute(pool, a, &v);
  return v;
}

int main() {
  cudaStream_t s;
  CHECK(cudaStreamCreate(&s));
  cudaMemPool_t def, cur;
  CHECK(cudaDeviceGetDefaultMemPool(&def, 0));
  CHECK(cudaDeviceGetMemPool(&cur, 0));
  int reuse[3];
  CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolReuseFollowEventDependencies, &reuse[0]));
  CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse[1]));
  CHECK(cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowInternalDependencies, &reuse[2]));
  std::printf("current is default: %d; threshold %llu; reuse switches %d %d %d\n", cur == def, attr(def, cudaMemPoolAttrReleaseThreshold),
              reuse[0], reuse[1], reuse[2]);

  const int n = 1 << 20;
  unsigned char* p;
  CHECK(cudaMallocAsync(&p, n, s));
  fill<<<64, 256, 0, s>>>(p, n);
  static unsigned char host[1 << 20];
  CHECK(cudaMemcpyAsync(host, p, n, cudaMemcpyDeviceToHost, s));
  CHECK(cudaStreamSynchronize(s));
  int sevens = 0;
  for (int i = 0; i < n; ++i) sevens += host[i] == 7;
  std::printf("default pool: used %llu, high %llu, reserved >= used: %d; kernel wrote %d bytes of 7\n", attr(def, cudaMemPoolAttrUsedMemCurrent),
              attr(def, cudaMemPoolAttrUsedMemHigh), attr(def, cudaMemPoolAttrReservedMemCurrent) >= (unsigned long long)n, sevens);
  CHECK(cudaFreeAsync(p, s));
  CHECK(cudaStreamSynchronize(s));
  std::printf("threshold 0: after free and sync used %llu, reserved %llu\n", attr(def, cudaMemPoolAttrUsedMemCurrent),
              attr(def, cudaMemPoolAttrReservedMemCurrent));

  unsigned long long most = UINT64_MAX;
  CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &most));
  CHECK(cudaMallocAsync(&p, n, s));
  CHECK(cudaFreeAsync(p, s));
  CHECK(cudaStreamSynchronize(s));
  const unsigned long long kept = attr(def, cudaMemPoolAttrReservedMemCurrent);
  CHECK(cudaMemPoolTrimTo(def, 0));
  std::printf("threshold max: after free and sync used %llu, reserved kept %d; after trim to 0: %llu\n", attr(def, cudaMemPoolAttrUsedMemCurrent),
              kept >= (unsigned long long)n, attr(def, cudaMemPoolAttrReservedMemCurrent));
  unsigned long long five = 5, zero = 0;
  cudaError_t bad = cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &five);
  CHECK(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &zero));
  std::printf("high watermark set to 5: %s; reset to 0: used high %llu\n", cudaGetErrorName(bad), attr(def, cudaMemPoolAttrUsedMemHigh));

  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t own;
  CHECK(cudaMemPoolCreate(&own, &props));
  void *a, *b;
  CHECK(cudaMallocFromPoolAsync(&a, 4096, own, s));
  std::printf("own pool: used %llu, default pool used %llu\n", attr(own, cudaMemPoolAttrUsedMemCurrent), attr(def, cudaMemPoolAttrUsedMemCurrent));
  CHECK(cudaDeviceSetMemPool(0, own));
  CHECK(cudaMallocAsync(&b, 8192, s));
  std::printf("as current pool: cudaMallocAsync used %llu\n", attr(own, cudaMemPoolAttrUsedMemCurrent));
  CHECK(cudaFreeAsync(a, s));
  CHECK(cudaFree(b));
  CHECK(cudaMemPoolDestroy(own));
  CHECK(cudaDeviceGetMemPool(&cur, 0));
  std::printf("destroyed: current is default again: %d\n", cur == def);
  std::printf("destroy default pool: %s\n", cudaGetErrorName(cudaMemPoolDestroy(def)));

  props.maxSize = 8192;
  cudaMemPool_t small;
  CHECK(cudaMemPoolCreate(&small, &props));
  std::printf("beyond maxSize 8192: %s\n", cudaGetErrorName(cudaMallocFromPoolAsync(&a, 16384, small, s)));
  std::printf("read-only attribute set: %s\n", cudaGetErrorName(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemCurrent, &zero)));
  cudaGetLastError();
  return 0;
}
