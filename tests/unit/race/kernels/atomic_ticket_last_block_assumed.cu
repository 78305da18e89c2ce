// expect: race-free  launch: --blockDim=64 --gridDim=4  options: --assume='retired == 0'
// atomic_ticket_last_block.cu with the counter's content at launch stated: each CTA's thread 0 increments it once,
// so the CTA whose atomicInc returns gridDim.x - 1 comes after every other CTA's increment (Atomicity, ISA 8.10), each
// of which it observes through the chain of atomics (8.9.2): their fence + atomicInc (release pattern, 8.8)
// synchronizes with its atomicInc + fence (acquire pattern, 8.9.4 item 4), and the partial sums are ordered before
// its reads (tickets.hpp). Only one CTA reads the last count, so out[0] has one writer.
__device__ unsigned retired = 0;
__global__ void k(const float* in, float* partial, float* out) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    unsigned ticket = atomicInc(&retired, gridDim.x);
    if (ticket == gridDim.x - 1) {
      __threadfence();
      float sum = 0;
      for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
      out[0] = sum;
    }
  }
}
