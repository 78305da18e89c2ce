// expect: race 4 5   (no implicit warp synchrony under independent thread scheduling)
__global__ void k(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  out[blockIdx.x * 64 + threadIdx.x] = s[threadIdx.x ^ 1];
}
