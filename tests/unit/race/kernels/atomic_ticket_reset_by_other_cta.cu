// expect: unknown  launch: --blockDim=128 --gridDim=8  options: --assume='retirementCount == 0'
// atomic_ticket_block_reads.cu where a CTA that is not the last may reset the counter too: then two CTAs may read the
// last count, so the atomicInc is no last-block ticket (tickets.hpp, named in a note) and the partial sums and the
// last CTAs' writes of out[0] are possible races (unknown: the interpreter's executions do not show them).
__device__ unsigned int retirementCount = 0;
__global__ void k(const float* in, float* partial, float* out) {
  __shared__ bool amLast;
  __shared__ float sdata[128];
  unsigned t = threadIdx.x;
  if (t == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    unsigned ticket = atomicInc(&retirementCount, gridDim.x);
    __threadfence();
    amLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (amLast) {
    float sum = 0;
    for (unsigned i = t; i < gridDim.x; i += blockDim.x) sum += partial[i];
    sdata[t] = sum;
    __syncthreads();
    if (t == 0) {
      float total = 0;
      for (unsigned i = 0; i < blockDim.x; ++i) total += sdata[i];
      out[0] = total;
      retirementCount = 0;
    }
  } else if (t == 0) {
    if (in[0] > 0) {
      retirementCount = 0;
    }
  }
}
