// One step of a 1-D stencil in place: every thread reads its neighbours, the whole grid synchronises with
// cooperative groups, then each thread overwrites its own element (race free: PTX ISA 8.9.4, a cooperative launch).
// ptxcheck race examples/race/grid_stencil_sync.cu --blockDim=128 --gridDim=8
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void smooth(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float v = 0;
  if (i > 0 && i + 1 < n) v = (x[i - 1] + x[i] + x[i + 1]) / 3;
  cg::this_grid().sync();
  if (i > 0 && i + 1 < n) x[i] = v;
}
