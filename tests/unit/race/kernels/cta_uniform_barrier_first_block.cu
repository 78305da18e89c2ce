// expect: race-free  launch: --blockDim=128 --gridDim=2
// A CTA barrier under a condition on %ctaid alone (issue 37): the condition is uniform within the CTA, so every thread
// of CTA 0 reaches the barrier and none of CTA 1 does; no barrier divergence, and the barrier orders the tile.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void first_block_sync(int* data) {
  __shared__ int tile[128];
  if (blockIdx.x == 0) {
    tile[threadIdx.x] = data[threadIdx.x];
    cg::this_thread_block().sync();
    data[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
  }
}
