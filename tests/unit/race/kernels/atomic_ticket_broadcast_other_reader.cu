// expect: unknown  launch: --blockDim=64 --gridDim=4  options: --assume='retired == 0'
// atomic_ticket_broadcast_assumed.cu read by thread 1, whose fence follows no atomic of its own: the ticket's reader
// (thread 0) has no acquire fence after its atomicInc, so nothing orders the partial sums before thread 1's reads
// (a barrier is no fence, ISA 8.8, 8.9.4): a possible race by the model, which the interpreter's executions do not show.
__device__ unsigned retired = 0;
__global__ void k(const float* in, float* partial, float* out) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    last = atomicInc(&retired, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 1) {
    __threadfence();
    out[0] = partial[0] + partial[gridDim.x - 1];
  }
}
