// expect: race  launch: --blockDim=64 --gridDim=1
// With both loads of b[0] equal to 0 (g[0] = 0), thread 0 writes b[0] while the others read it: a race.
__global__ void k(const int* g, int* out) {
  __shared__ int b[64];
  b[threadIdx.x] = g[threadIdx.x];
  __syncthreads();
  if (b[threadIdx.x] == 0 && b[0] == 0) b[threadIdx.x] = 1;
  __syncthreads();
  out[threadIdx.x] = b[threadIdx.x];
}
