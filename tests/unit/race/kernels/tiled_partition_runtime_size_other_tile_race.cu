// expect: race  launch: --blockDim=256 --gridDim=2
// tile.sync() of a runtime-size tile orders its own lanes only (bar.warp.sync with the tile's mask, ISA 9.7.13.3):
// reading the next tile's element races with its owner's write.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* out, int n) {
  __shared__ int s[256];
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition(block, n);
  s[threadIdx.x] = threadIdx.x;
  tile.sync();
  out[blockIdx.x * blockDim.x + threadIdx.x] = s[(block.thread_rank() + tile.size()) % 256];
}
