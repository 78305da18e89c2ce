// expect: race 5 7   (ISA 9.7.9.25.2, 8.9.5: generic writes read by the async proxy need fence.proxy.async between)
#include "bulk_copy.cuh"
__global__ void tile(const int* in, int* out) {
  __shared__ alignas(128) int buf[64];
  buf[threadIdx.x] = in[threadIdx.x] * 2;
  __syncthreads();
  if (threadIdx.x == 0) { bulk_store(out, buf, sizeof buf); bulk_wait_all(); }
}
