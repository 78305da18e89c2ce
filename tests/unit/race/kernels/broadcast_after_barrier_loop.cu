// expect: race-free  launch: --blockDim=64 --gridDim=4
// Thread 0 of each CTA stores its CTA id to shared `slot` after a loop with a barrier in every iteration; after a
// barrier, thread 1 writes out[slot]: one writer per CTA and element. Thread 0 passes the barrier after the store
// whenever thread 1 does (barrier divergence aside), so it left the loop and ran the store: `slot` is the CTA id,
// not the content before (ISA 8.9.4 item 2, 8.10 Causality).
__global__ void k(int* out, int* acc, int n) {
  __shared__ int slot;
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  for (int i = 0; i < n; ++i) {
    __syncthreads();
    acc[blockIdx.x * 64 + threadIdx.x] += s[(threadIdx.x + i) % 64];
  }
  if (threadIdx.x == 0) slot = blockIdx.x;
  __syncthreads();
  if (threadIdx.x == 1) out[slot] = n;
}
