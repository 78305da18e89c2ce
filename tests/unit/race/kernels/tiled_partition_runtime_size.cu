// expect: race-free  launch: --blockDim=256 --gridDim=2
// cooperative_groups::tiled_partition(block, n) with a runtime n: the group word packs the tile's type and size
// with mov.b64 {lo, hi} (ISA 9.7.9.10), and tile.sync() switches on the type: every thread takes the arm with
// bar.warp.sync on its tile's mask (9.7.13.3), so the barrier is counted on the thread's path (once a possible
// race: the other arms' paths around it were taken as possible). The read is of the thread's own tile.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out, int n) {
  __shared__ int s[256];
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition(block, n);
  s[threadIdx.x] = threadIdx.x;
  tile.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[block.thread_rank() - tile.thread_rank() + (tile.thread_rank() + 1) % tile.size()];
}
