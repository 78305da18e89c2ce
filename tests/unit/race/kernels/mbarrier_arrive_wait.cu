// expect: race-free  launch: --blockDim=128 --gridDim=4   (cuda::barrier arrive_and_wait is a CTA barrier: ISA 9.7.13.15.16 item 1)
#include <cuda/barrier>
__global__ void rotate(int* out) {
  __shared__ int buf[128];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  buf[threadIdx.x] = threadIdx.x * 3;
  bar.arrive_and_wait();
  out[blockIdx.x * 128 + threadIdx.x] = buf[(threadIdx.x + 1) % 128];
}
