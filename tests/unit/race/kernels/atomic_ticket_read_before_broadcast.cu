// expect: race  launch: --blockDim=64 --gridDim=1  options: --assume='count == 0'
// A last-block ticket (one CTA, so thread 0's increment always reads the last count) does not order a read that comes
// before the barrier after which the CTA learns its verdict: thread 0's write of x[0] races with the other threads'
// first read of it; the read after the barrier is ordered (tickets.hpp: an access after a load of the broadcast).
__device__ unsigned count;
__global__ void k(float* x, float* out) {
  __shared__ bool amLast;
  if (threadIdx.x == 0) {
    x[0] = 1;
    __threadfence();
    unsigned t = atomicInc(&count, gridDim.x);
    __threadfence();
    amLast = t == gridDim.x - 1;
  }
  out[threadIdx.x] = x[0];
  __syncthreads();
  if (amLast) out[threadIdx.x] += x[0];
}
