// expect: unknown  launch: --blockDim=128 --gridDim=8
// threadFenceReduction (CUDA samples): each CTA reduces in shared memory, thread 0 publishes the partial sum, fences,
// takes an atomicInc ticket and broadcasts amLast; the last CTA adds the partial sums and resets the counter. The
// broadcast is the writer's ticket test (the writer left the reduction loop: it passes the barrier after it), so the
// pairs of the last CTA are possible races only (atomic adjacency and the fences, atomic_ticket_last_block.cu): the
// counter's content at launch is unknown. With --assume 'retirementCount == 0' the ticket orders them
// (atomic_ticket_block_reads.cu).
__device__ unsigned int retirementCount = 0;
__global__ void k(const float *in, float *partial, float *out) {
  __shared__ bool amLast;
  __shared__ float sdata[128];
  unsigned t = threadIdx.x;
  sdata[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
    if (t < s) sdata[t] += sdata[t + s];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = sdata[0];
    __threadfence();
    unsigned ticket = atomicInc(&retirementCount, gridDim.x);
    __threadfence();
    amLast = (ticket == gridDim.x - 1);
  }
  __syncthreads();
  if (amLast && t == 0) {
    float sum = 0;
    for (unsigned i = 0; i < gridDim.x; ++i) sum += partial[i];
    out[0] = sum;
    retirementCount = 0;
  }
}
