// expect: race 9 8   (ISA 9.7.9.25.6.2: the source may be reused only after wait_group.read; the others did not wait)
#include "bulk_copy.cuh"
__global__ void tile(const int* in, int* out) {
  __shared__ alignas(128) int buf[64];
  buf[threadIdx.x] = in[threadIdx.x] * 2;
  fence_proxy_async_shared();
  __syncthreads();
  if (threadIdx.x == 0) bulk_store(out, buf, sizeof buf);
  buf[threadIdx.x] = 0;
  if (threadIdx.x == 0) bulk_wait_reads();
}
