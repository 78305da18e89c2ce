// expect: race-free  launch: --blockDim=256 --gridDim=2
// Logical warps of 16 lanes (CUB WarpMergeSort): each half-warp synchronises on its own computed membermask
// 0xffff << (lane & 16), which orders the accesses of the lanes in it (ISA 9.7.13.3); the reads stay in the half.
// Once unknown (a partial mask was only a possible ordering).
__global__ void k(int* out) {
  __shared__ int s[256];
  unsigned lane = threadIdx.x % 32;
  unsigned mask = 0xffffu << (lane & 16);
  s[threadIdx.x] = threadIdx.x;
  __syncwarp(mask);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x ^ 1];
}
