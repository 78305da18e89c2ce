// expect: race  launch: --blockDim=256 --gridDim=2
// The barrier count on each thread's path orders only what is on either side of tile.sync(): a read of a tile
// neighbour's element before the sync races with the neighbour's write (ISA 9.7.13.3).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out, int n) {
  __shared__ int s[256];
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition(block, n);
  s[threadIdx.x] = threadIdx.x;
  int early = s[block.thread_rank() - tile.thread_rank() + (tile.thread_rank() + 1) % tile.size()];
  tile.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = early;
}
