// expect: race-free  launch: --blockDim=128 --gridDim=4   (split arrive/wait in a loop: the load between arrive and wait reads memory no thread writes; a full arrive_and_wait ends each round, ISA 9.7.13.15.16 items 1 and 5)
#include <cuda/barrier>
__global__ void rotate(int* out, const int* in, int rounds) {
  __shared__ int buf[128];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  int acc = 0;
  for (int r = 0; r < rounds; ++r) {
    buf[threadIdx.x] = threadIdx.x * 3 + r;
    auto token = bar.arrive();
    int mine = in[(blockIdx.x * 128 + threadIdx.x) * rounds + r];
    bar.wait(std::move(token));
    acc += buf[(threadIdx.x + 1) % 128] + mine;
    bar.arrive_and_wait();
  }
  out[blockIdx.x * 128 + threadIdx.x] = acc;
}
