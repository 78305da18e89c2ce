// expect: race  launch: --blockDim=256 --gridDim=2
// As warp_sync_logical_warps.cu, but each lane reads the other half's slot (threadIdx.x ^ 16): the half-warp masks
// do not hold both lanes, so nothing orders the write and the read.
__global__ void k(int* out) {
  __shared__ int s[256];
  unsigned lane = threadIdx.x % 32;
  unsigned mask = 0xffffu << (lane & 16);
  s[threadIdx.x] = threadIdx.x;
  __syncwarp(mask);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x ^ 16];
}
