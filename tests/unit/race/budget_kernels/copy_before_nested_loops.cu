// A cp.async in flight across six nested loops that each read memory: the in-flight analysis follows the iteration
// of each loop a position is in (async_copy.hpp), 6^6 combinations per instruction of the innermost loop; a
// deliberately expensive kernel for that analysis's bound.
#include <cuda_pipeline.h>
__global__ void copy_before_nested_loops(const float* in, const int* n, float* out) {
  __shared__ float buf[256];
  __pipeline_memcpy_async(&buf[threadIdx.x], &in[threadIdx.x], 4);
  __pipeline_commit();
  float acc = 0;
  for (int a = 0; a < n[0]; ++a)
    for (int b = 0; b < n[1]; ++b)
      for (int c = 0; c < n[2]; ++c)
        for (int d = 0; d < n[3]; ++d)
          for (int e = 0; e < n[4]; ++e)
            for (int g = 0; g < n[5]; ++g) acc += in[a + b + c + d + e + g];
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = acc + buf[threadIdx.x ^ 1];
}
