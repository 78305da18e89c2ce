// expect: race-free  launch: --blockDim=128 --gridDim=2
// Write own slot, barrier, read the neighbour's slot: ordered by bar.sync.
__global__ void k(int* out) {
  __shared__ int s[128];
  s[threadIdx.x] = threadIdx.x * 3;
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(threadIdx.x + 1) % blockDim.x];
}
