// expect: barrier-divergence  launch: --blockDim=64 --gridDim=1
// A barrier only the first 16 threads of the CTA reach.
__global__ void k(int* out) {
  __shared__ int s[64];
  s[threadIdx.x] = 1;
  if (threadIdx.x < 16) __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];
}
