// expect: race  launch: --blockDim=64 --gridDim=1
// One thread reads the element its own cp.async writes before waiting for it: the copy's writes are visible to
// the thread only after the wait (ISA 9.7.9.25.3.3). No other thread touches the element.
#include <cuda_pipeline.h>
__global__ void scale(const float* in, float* out) {
  __shared__ float buf[64];
  __pipeline_memcpy_async(&buf[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  out[threadIdx.x] = 2 * buf[threadIdx.x];
  __pipeline_wait_prior(0);
}
