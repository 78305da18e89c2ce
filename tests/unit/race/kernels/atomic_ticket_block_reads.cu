// expect: race-free  launch: --blockDim=128 --gridDim=8  options: --assume='retirementCount == 0'
// threadFenceReduction (CUDA samples) with the whole last CTA reading the partial sums: thread 0 publishes its CTA's
// sum, fences, takes the ticket, fences again (its acquire pattern, ISA 8.8) and broadcasts amLast through shared
// memory; after the barrier (8.9.4 item 2) every thread of the last CTA reads the partial sums, ordered after their
// writes (tickets.hpp). The last CTA resets the counter after its increment, so the counter has no other write.
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
  }
}
