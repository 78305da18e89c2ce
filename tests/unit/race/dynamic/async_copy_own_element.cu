// expect: race 5 7   (one thread reads its own copy's bytes before the wait that completes it, ISA 9.7.9.25.3.3)
#include <cuda_pipeline.h>
__global__ void scale(const float* in, float* out) {
  __shared__ float buf[64];
  __pipeline_memcpy_async(&buf[threadIdx.x], &in[threadIdx.x], sizeof(float));
  __pipeline_commit();
  out[threadIdx.x] = 2 * buf[threadIdx.x];
  __pipeline_wait_prior(0);
}
