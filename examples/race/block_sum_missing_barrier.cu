// The same reduction without the barrier inside the loop: step d+1 reads what another warp writes in
// step d, with nothing ordering the two (a data race, PTX ISA 8.7.1).
// ptxcheck race examples/race/block_sum_missing_barrier.cu --blockDim=256 --gridDim=4
__global__ void block_sum(const int* in, int* out) {
  __shared__ int s[256];
  unsigned t = threadIdx.x;
  s[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
    if (t < d) s[t] += s[t + d];
  }
  if (t == 0) out[blockIdx.x] = s[0];
}
