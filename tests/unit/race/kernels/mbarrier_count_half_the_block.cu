// expect: race  launch: --blockDim=64 --gridDim=1   (a phase of 32 arrivals completes before the other warp's store)
#include <cuda/barrier>
__global__ void rotate(int* out) {
  __shared__ int buf[64];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x / 2);
  __syncthreads();
  buf[threadIdx.x] = threadIdx.x * 3;
  bar.arrive_and_wait();
  out[threadIdx.x] = buf[(threadIdx.x + 32) % 64];
}
