// expect: race-free  launch: --blockDim=128 --gridDim=4   (split arrive/wait: the load between the arrive and the wait touches memory no thread writes; the shared write before the arrive is ordered before the read after the wait, ISA 9.7.13.15.16 items 1 and 5)
#include <cuda/barrier>
__global__ void rotate(int* out, const int* in) {
  __shared__ int buf[128];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  buf[threadIdx.x] = threadIdx.x * 3;
  auto token = bar.arrive();
  int mine = in[blockIdx.x * 128 + threadIdx.x] * 2;
  bar.wait(std::move(token));
  out[blockIdx.x * 128 + threadIdx.x] = buf[(threadIdx.x + 1) % 128] + mine;
}
