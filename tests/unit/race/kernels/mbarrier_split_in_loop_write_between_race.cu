// expect: race  launch: --blockDim=128 --gridDim=4   (in a loop, a write between a thread's arrive and its wait is unordered with a neighbour's read after its wait of the same round, ISA 9.7.13.15.16 item 5)
#include <cuda/barrier>
__global__ void rotate(int* out, int rounds) {
  __shared__ int buf[128];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  int acc = 0;
  for (int r = 0; r < rounds; ++r) {
    auto token = bar.arrive();
    buf[threadIdx.x] = threadIdx.x * 3 + r;
    bar.wait(std::move(token));
    acc += buf[(threadIdx.x + 1) % 128];
    bar.arrive_and_wait();
  }
  out[blockIdx.x * 128 + threadIdx.x] = acc;
}
