// expect: race 8 9   (ISA 8.9.1.1: the neighbour's cp.async is in flight until a wait on the mbarrier completes its phase)
#include <cuda/barrier>
__global__ void rotate(const int* in, int* out) {
  __shared__ int buf[64];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  cuda::memcpy_async(&buf[threadIdx.x], &in[blockIdx.x * 64 + threadIdx.x], cuda::aligned_size_t<4>(sizeof(int)), bar);
  out[blockIdx.x * 64 + threadIdx.x] = buf[(threadIdx.x + 1) % 64];
  bar.arrive_and_wait();
}
