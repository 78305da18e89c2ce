// expect: race  launch: --blockDim=64 --gridDim=4  options: --assume='retired == 0'
// atomic_ticket_last_block_assumed.cu with the ticket taken by atomicInc_block (.cta scope): the CTAs' atomics are
// not morally strong (ISA 8.6), so they race with each other (8.7.1) and with the last CTA's reset, and the last
// count orders nothing.
__device__ unsigned retired = 0;
__global__ void k(const float* in, float* partial, float* out) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    unsigned ticket = atomicInc_block(&retired, gridDim.x);
    if (ticket == gridDim.x - 1) {
      __threadfence();
      float sum = 0;
      for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
      out[0] = sum;
    }
  }
}
