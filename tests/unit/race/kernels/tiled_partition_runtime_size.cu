// expect: unknown  launch: --blockDim=256 --gridDim=2  reason='possible race'
// cooperative_groups::tiled_partition(block, n) with a runtime n: the group word packs the tile's type and size
// with mov.b64 {lo, hi} (ISA 9.7.9.10), which the encoding now follows, so the type switch before tile.sync() is
// uniform where it is: once a false definite barrier divergence (the packed word was a fresh value per thread).
// Still a possible race: a path through the switch's other cases is not told apart (issue 37, not done).
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
