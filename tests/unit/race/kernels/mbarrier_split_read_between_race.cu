// expect: race  launch: --blockDim=128 --gridDim=4   (a read between a thread's arrive and its wait is not ordered after another thread's write before its arrive: only the wait acquires, ISA 9.7.13.15.16 items 1 and 5)
#include <cuda/barrier>
__global__ void rotate(int* out) {
  __shared__ int buf[128];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  buf[threadIdx.x] = threadIdx.x * 3;
  auto token = bar.arrive();
  int next = buf[(threadIdx.x + 1) % 128];
  bar.wait(std::move(token));
  out[blockIdx.x * 128 + threadIdx.x] = next;
}
