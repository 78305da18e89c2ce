// expect: unknown  launch: --blockDim=64 --gridDim=4  options: --assume='retired == 0'
// atomic_ticket_last_block_assumed.cu without the fence after the last CTA's atomicInc: the relaxed atomic alone is
// no acquire pattern (ISA 8.8), so the last CTA's reads of the partial sums are not ordered after them: a data race
// by the model (8.7.1) that the interpreter's executions do not show, so the race stays possible.
__device__ unsigned retired = 0;
__global__ void k(const float* in, float* partial, float* out) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    unsigned ticket = atomicInc(&retired, gridDim.x);
    if (ticket == gridDim.x - 1) {
      float sum = 0;
      for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
      out[0] = sum;
    }
  }
}
