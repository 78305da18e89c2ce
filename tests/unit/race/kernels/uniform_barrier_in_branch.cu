// expect: race-free  launch: --blockDim=64 --gridDim=4
// A barrier under a condition on blockIdx only: every thread of a CTA takes the same side (not divergence).
__global__ void k(int* out, int n) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  if (blockIdx.x < n) {
    __syncthreads();
    out[blockIdx.x * blockDim.x + threadIdx.x] = s[63 - threadIdx.x];
  }
}
