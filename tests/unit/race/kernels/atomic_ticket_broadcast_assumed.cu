// expect: race-free  launch: --blockDim=64 --gridDim=4  options: --assume='retired == 0'
// atomic_ticket_broadcast.cu with the counter's content at launch stated: thread 0 reads its own verdict after the
// barrier and fences (its atomicInc, then that fence: its acquire pattern, ISA 8.8), so the other CTAs' partial sums
// are ordered before its reads (tickets.hpp; the broadcast value it reads is its own ticket's).
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
