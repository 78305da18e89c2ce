// expect: race  launch: --blockDim=64 --gridDim=4  options: --assume='retired == 0'
// atomic_ticket_last_block_assumed.cu with the last CTA taken to be the one whose ticket is gridDim.x - 2: one CTA
// has not incremented yet when it reads, and its partial sum is unordered with that read.
__device__ unsigned retired = 0;
__global__ void k(const float* in, float* partial, float* out) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    unsigned ticket = atomicInc(&retired, gridDim.x);
    if (ticket == gridDim.x - 2) {
      __threadfence();
      float sum = 0;
      for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
      out[0] = sum;
    }
  }
}
