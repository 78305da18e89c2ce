// expect: race-free   (ISA 9.7.13.2: bar.warp.sync orders the memory operations of the threads taking part)
__global__ void k(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncwarp();
  out[blockIdx.x * 64 + threadIdx.x] = s[threadIdx.x ^ 1];
}
