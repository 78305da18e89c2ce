// expect: race  launch: --blockDim=128 --gridDim=4
// The two-stage pipeline of async_copy_double_buffer.cu waiting with wait_prior(2): the group of tile t + 1 may
// still be pending (only groups older than the two newest complete, ISA 9.7.9.25.3.3) when the CTA reads that
// buffer in the next iteration.
#include <cuda_pipeline.h>
__global__ void sum_tiles(const float* in, float* out, unsigned tiles) {
  __shared__ float buf[2][128];
  const float* base = in + blockIdx.x * tiles * 128;
  float acc = 0;
  __pipeline_memcpy_async(&buf[0][threadIdx.x], &base[threadIdx.x], sizeof(float));
  __pipeline_commit();
  for (unsigned t = 0; t < tiles; ++t) {
    if (t + 1 < tiles) __pipeline_memcpy_async(&buf[(t + 1) % 2][threadIdx.x], &base[(t + 1) * 128 + threadIdx.x], sizeof(float));
    __pipeline_commit();
    __pipeline_wait_prior(2);
    __syncthreads();
    acc += buf[t % 2][(threadIdx.x + 1) % 128];
    __syncthreads();
  }
  out[blockIdx.x * 128 + threadIdx.x] = acc;
}
