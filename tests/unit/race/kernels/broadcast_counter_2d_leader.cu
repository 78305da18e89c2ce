// expect: race-free  launch: --blockDim=[16,16] --gridDim=8
// As broadcast_counter_range.cu in a 2-D block: thread (0,0) is the writer. nvcc tests it as
// `(threadIdx.x | threadIdx.y) == 0`, which fixes both components (found by a query, not by the condition's shape).
__global__ void k(unsigned* counter, int* out) {
  __shared__ unsigned base;
  if (threadIdx.x == 0 && threadIdx.y == 0) base = atomicAdd(counter, blockDim.x * blockDim.y);
  __syncthreads();
  out[base + threadIdx.y * blockDim.x + threadIdx.x] = threadIdx.x;
}
