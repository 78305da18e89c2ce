// A block-wide tree reduction in shared memory, barriers between the halving steps: race-free.
// ptxcheck race examples/race/block_sum.cu --blockDim=256 --gridDim=4
__global__ void block_sum(const int* in, int* out) {
  __shared__ int s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
    if (t < d) s[t] += s[t + d];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
