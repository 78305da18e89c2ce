// expect: unknown  launch: --blockDim=32 --gridDim=4  options: --O0
// grid_sync.cu at -O0: the workspace pointer goes through the stack frame, so the grid sync is not recognised
// (possible races, not confirmed by the cooperative replay: unknown). Its null check branches around a `trap`,
// which aborts the launch: no barrier divergence for the thread that would trap.
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int right = a[i + 1];
  cg::this_grid().sync();
  a[i] = right;
}
