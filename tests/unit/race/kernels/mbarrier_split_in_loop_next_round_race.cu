// expect: race  launch: --blockDim=128 --gridDim=4   (without a barrier closing each round, a thread's write of round r+1 is unordered with its neighbour's read of round r: both come after the wait of round r, ISA 9.7.13.15.16 items 1 and 5)
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
  }
  out[blockIdx.x * 128 + threadIdx.x] = acc;
}
