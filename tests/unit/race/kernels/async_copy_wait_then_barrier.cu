// expect: race-free  launch: --blockDim=256 --gridDim=2
// Each thread copies its element into shared memory with cp.async, waits for its group, then the barrier makes
// every copy visible to the CTA (ISA 9.7.9.25.3.3, 9.7.13.1): reading a neighbour's element is ordered.
#include <cuda_pipeline.h>
__global__ void reverse(const int* in, int* out) {
  __shared__ int buf[256];
  __pipeline_memcpy_async(&buf[threadIdx.x], &in[blockIdx.x * 256 + threadIdx.x], sizeof(int));
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[blockIdx.x * 256 + threadIdx.x] = buf[255 - threadIdx.x];
}
