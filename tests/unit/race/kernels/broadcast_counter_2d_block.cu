// expect: race  launch: --blockDim=[32,2] --gridDim=8
// `threadIdx.x == 0` holds for two threads of a 32x2 block: both store `base`, a write-write race on it.
__global__ void k(unsigned* counter, int* out) {
  __shared__ unsigned base;
  if (threadIdx.x == 0) base = atomicAdd(counter, blockDim.x * blockDim.y);
  __syncthreads();
  out[base + threadIdx.y * blockDim.x + threadIdx.x] = threadIdx.x;
}
