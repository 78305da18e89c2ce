// expect: race-free  launch: --blockDim=32 --gridDim=1
// The same exchange with __syncwarp() between write and read (a full-mask bar.warp.sync orders the warp).
__global__ void k(int* out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  __syncwarp();
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}
