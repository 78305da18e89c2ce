// expect: race-free  launch: --blockDim=16,4,2 --gridDim=3   (a 3-D block: the init counts block.size() threads, thread_rank() 0 alone runs it)
#include <cooperative_groups.h>
#include <cuda/barrier>
namespace cg = cooperative_groups;
__global__ void rotate(int* out) {
  __shared__ int buf[1024];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  buf[block.thread_rank()] = block.thread_rank() * 3;
  bar.arrive_and_wait();
  out[blockIdx.x * block.size() + block.thread_rank()] = buf[(block.thread_rank() + 1) % block.size()];
}
