// expect: race  launch: --blockDim=256 --gridDim=1
// The reduction without the barrier inside the loop: iteration d+1 reads what iteration d of another warp writes.
__global__ void k(int* out, const int* in) {
  __shared__ int s[256];
  s[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
    if (threadIdx.x < d) s[threadIdx.x] += s[threadIdx.x + d];
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
