// expect: race-free   (ISA 9.7.13.15.16 item 1: the try_wait that returns True sees every write before the release arrive-ons of its phase)
#include <cuda/barrier>
__global__ void rotate(int* out) {
  __shared__ int buf[64];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  buf[threadIdx.x] = threadIdx.x * 3;
  bar.arrive_and_wait();
  out[blockIdx.x * 64 + threadIdx.x] = buf[(threadIdx.x + 1) % 64];
}
