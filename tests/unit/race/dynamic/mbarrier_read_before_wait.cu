// expect: race 8 11   (ISA 9.7.13.15.16 item 5: what a thread does between its arrive and its wait is ordered with nothing of the phase)
#include <cuda/barrier>
__global__ void rotate(int* out) {
  __shared__ int buf[64];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  buf[threadIdx.x] = threadIdx.x * 3;
  auto token = bar.arrive();
  // the read belongs after the wait
  int v = buf[(threadIdx.x + 1) % 64];
  bar.wait(std::move(token));
  out[blockIdx.x * 64 + threadIdx.x] = v;
}
