// expect: unknown  launch: --blockDim=128 --gridDim=8  options: --assume='retirementCount == 0'
// atomic_ticket_block_reads.cu as the CUDA sample writes it, without the fence between thread 0's atomicInc and the
// barrier: no acquire pattern follows the ticket (a barrier is no fence, ISA 8.8, 8.9.4), so the last CTA's reads of
// the partial sums are not ordered after their writes: a data race by the model (8.7.1) that the interpreter's
// executions do not show, so it stays possible.
__device__ unsigned int retirementCount = 0;
__global__ void k(const float* in, float* partial, float* out) {
  __shared__ bool amLast;
  __shared__ float sdata[128];
  unsigned t = threadIdx.x;
  if (t == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    unsigned ticket = atomicInc(&retirementCount, gridDim.x);
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
  }
}
