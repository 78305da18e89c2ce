// expect: race  launch: --blockDim=64 --gridDim=4
// As broadcast_after_barrier_loop, but the store is by thread 100 of a 64-thread CTA: no thread runs it, `slot`
// keeps its content before (shared memory is not initialised), which may be one value in two CTAs.
__global__ void k(int* out, int* acc, int n) {
  __shared__ int slot;
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  for (int i = 0; i < n; ++i) {
    __syncthreads();
    acc[blockIdx.x * 64 + threadIdx.x] += s[(threadIdx.x + i) % 64];
  }
  if (threadIdx.x == 100) slot = blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 1) out[slot] = n;
}
