// expect: race-free   (the branch depends on a kernel argument only: every thread takes it or none does)
__global__ void k(int* out, int n) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  if (n > 0) __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = s[63 - threadIdx.x];
}
