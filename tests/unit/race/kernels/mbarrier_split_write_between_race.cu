// expect: race  launch: --blockDim=128 --gridDim=4   (a write between a thread's arrive and its wait is ordered before nothing another thread does after its wait: ISA 9.7.13.15.16 item 5)
#include <cuda/barrier>
__global__ void rotate(int* out) {
  __shared__ int buf[128];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  auto token = bar.arrive();
  buf[threadIdx.x] = threadIdx.x * 3;
  bar.wait(std::move(token));
  out[blockIdx.x * 128 + threadIdx.x] = buf[(threadIdx.x + 1) % 128];
}
