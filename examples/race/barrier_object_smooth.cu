// Rounds of neighbour averaging synchronised by a cuda::barrier (an mbarrier, ISA 9.7.13.15): race-free.
// ptxcheck race examples/race/barrier_object_smooth.cu --blockDim=256 --gridDim=8
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init  // the CUDA guide's own idiom for a __shared__ cuda::barrier
__global__ void smooth(const float* in, float* out, unsigned rounds) {
  __shared__ float cell[256];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  const unsigned t = threadIdx.x, n = blockDim.x;
  if (t == 0) init(&bar, n);
  __syncthreads();
  float v = in[blockIdx.x * n + t];
  for (unsigned r = 0; r < rounds; ++r) {
    cell[t] = v;
    bar.arrive_and_wait();  // every write of this round before any read
    v = (cell[(t + n - 1) % n] + v + cell[(t + 1) % n]) / 3.0f;
    bar.arrive_and_wait();  // every read before the next round's writes
  }
  out[blockIdx.x * n + t] = v;
}
