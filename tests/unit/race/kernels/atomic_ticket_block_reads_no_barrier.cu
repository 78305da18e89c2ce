// expect: race  launch: --blockDim=128 --gridDim=8  options: --assume='retirementCount == 0'
// atomic_ticket_block_reads.cu without the barrier between thread 0's store of amLast and the other threads' loads of
// it: a race on amLast itself.
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
