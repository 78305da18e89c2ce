// expect: race  launch: --blockDim=64 --gridDim=2   (the neighbour's store and this thread's copy into one word, both before the phase completes)
#include <cuda/barrier>
__global__ void rotate(const int* in, int* out) {
  __shared__ int buf[64];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  buf[(threadIdx.x + 1) % 64] = 0;
  cuda::memcpy_async(&buf[threadIdx.x], &in[blockIdx.x * 64 + threadIdx.x], cuda::aligned_size_t<4>(sizeof(int)), bar);
  bar.arrive_and_wait();
  out[blockIdx.x * 64 + threadIdx.x] = buf[(threadIdx.x + 1) % 64];
}
