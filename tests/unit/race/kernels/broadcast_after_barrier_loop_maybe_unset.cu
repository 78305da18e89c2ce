// expect: race  launch: --blockDim=64 --gridDim=4
// As broadcast_after_barrier_loop, but thread 0 stores the CTA id only when n > 3: otherwise `slot` keeps its
// content before (shared memory is not initialised), which may be one value in two CTAs.
__global__ void k(int* out, int* acc, int n) {
  __shared__ int slot;
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  for (int i = 0; i < n; ++i) {
    __syncthreads();
    acc[blockIdx.x * 64 + threadIdx.x] += s[(threadIdx.x + i) % 64];
  }
  if (threadIdx.x == 0 && n > 3) slot = blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 1) out[slot] = n;
}
