// expect: race 10 12   (without the second wait, round r + 1's write overtakes the neighbour's read of round r)
#include <cuda/barrier>
__global__ void smooth(int* out, unsigned rounds) {
  __shared__ int buf[64];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  if (threadIdx.x == 0) init(&bar, blockDim.x);
  __syncthreads();
  int v = threadIdx.x;
  for (unsigned r = 0; r < rounds; ++r) {
    buf[threadIdx.x] = v;
    bar.arrive_and_wait();
    v += buf[(threadIdx.x + 1) % 64];
  }
  out[blockIdx.x * 64 + threadIdx.x] = v;
}
