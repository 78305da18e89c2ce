// expect: race  launch: --blockDim=256 --gridDim=2
// The barrier comes before the wait: another thread's copy may still be writing its element when this thread
// reads it (ISA 9.7.9.25.3.3: a copy completes only with the wait that completes its group; the barrier does not
// order it).
#include <cuda_pipeline.h>
__global__ void reverse(const int* in, int* out) {
  __shared__ int buf[256];
  __pipeline_memcpy_async(&buf[threadIdx.x], &in[blockIdx.x * 256 + threadIdx.x], sizeof(int));
  __pipeline_commit();
  __syncthreads();
  __pipeline_wait_prior(0);
  out[blockIdx.x * 256 + threadIdx.x] = buf[255 - threadIdx.x];
}
