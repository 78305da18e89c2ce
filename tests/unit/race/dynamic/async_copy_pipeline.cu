// expect: race-free   (wait_prior(1) completes the group of tile t before the barrier, ISA 9.7.9.25.3.3)
#include <cuda_pipeline.h>
__global__ void sum_tiles(const float* in, float* out, unsigned tiles) {
  __shared__ float buf[2][64];
  const float* base = in + blockIdx.x * tiles * 64;
  float acc = 0;
  __pipeline_memcpy_async(&buf[0][threadIdx.x], &base[threadIdx.x], sizeof(float));
  __pipeline_commit();
  for (unsigned t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) __pipeline_memcpy_async(&buf[(t + 1) % 2][threadIdx.x], &base[(t + 1) * 64 + threadIdx.x], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    acc += buf[t % 2][(threadIdx.x + 1) % 64];
    __syncthreads();
  }
  out[blockIdx.x * 64 + threadIdx.x] = acc;
}
