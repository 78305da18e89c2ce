// expect: race  launch: --blockDim=64 --gridDim=4  options: --assume='retired == 0'
// atomic_ticket_last_block_assumed.cu without the fence between a CTA's partial sum and its atomicInc: a relaxed
// atomic alone is no release pattern (ISA 8.8), so nothing orders the partial sum before the last CTA's read of it.
__device__ unsigned retired = 0;
__global__ void k(const float* in, float* partial, float* out) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    unsigned ticket = atomicInc(&retired, gridDim.x);
    if (ticket == gridDim.x - 1) {
      __threadfence();
      float sum = 0;
      for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
      out[0] = sum;
    }
  }
}
