// expect: race-free  launch: --blockDim=256 --gridDim=4
// Classic shared-memory tree reduction with a barrier in every iteration.
__global__ void k(int* out, const int* in) {
  __shared__ int s[256];
  s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
    if (threadIdx.x < d) s[threadIdx.x] += s[threadIdx.x + d];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
