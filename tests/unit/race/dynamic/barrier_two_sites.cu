// expect: barrier-divergence 7   (the two halves of the CTA wait at different bar.sync instructions, 9.7.13.1 .aligned)
__global__ void k(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x < 32) {
    out[threadIdx.x] = 1;
    __syncthreads();
    out[threadIdx.x] += s[63 - threadIdx.x];
  } else {
    out[threadIdx.x] = 2;
    __syncthreads();
    out[threadIdx.x] *= s[63 - threadIdx.x];
  }
}
