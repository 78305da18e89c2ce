// expect: unknown  launch: --blockDim=64 --gridDim=4
// As atomic_ticket_last_block.cu, with the ticket's verdict broadcast to the CTA through shared memory (the
// threadFenceReduction sample's `amLast`): the pair of writes to out[0] is again a possible race only, since the
// two CTAs' atomicIncs cannot both return gridDim.x - 1 unless other CTAs' increments come between them.
__device__ unsigned retired = 0;
__global__ void k(const float* in, float* partial, float* out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    last = atomicInc(&retired, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    __threadfence();
    out[0] = partial[0] + partial[gridDim.x - 1];
  }
}
