// expect: unknown  launch: --blockDim=32,2 --gridDim=1   (threadIdx.x == 0 holds in two threads of a 32x2 block: a second init is undefined, ISA 9.7.13.15.9)
#include <cooperative_groups.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;
__global__ void rotate(int* out) {
  __shared__ int buf[64];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (threadIdx.x == 0) init(&bar, block.size());
  block.sync();
  buf[block.thread_rank()] = 1;
  bar.arrive_and_wait();
  out[block.thread_rank()] = buf[(block.thread_rank() + 1) % 64];
}
