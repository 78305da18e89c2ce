// expect: race-free   (ISA 9.7.9.25.6.2: after wait_group.read the source may be overwritten; a barrier tells the CTA)
#include "bulk_copy.cuh"
__global__ void tile(const int* in, int* out) {
  __shared__ alignas(128) int buf[64];
  buf[threadIdx.x] = in[threadIdx.x] * 2;
  fence_proxy_async_shared();
  __syncthreads();
  if (threadIdx.x == 0) { bulk_store(out, buf, sizeof buf); bulk_wait_reads(); }
  __syncthreads();
  buf[threadIdx.x] = 0;
}
