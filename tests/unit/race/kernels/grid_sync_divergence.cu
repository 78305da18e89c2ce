// expect: barrier-divergence  launch: --blockDim=32 --gridDim=4
// Only the first CTA reaches the grid synchronisation, which waits for every CTA of the grid: the others never
// arrive (a CTA-uniform condition, so no CTA barrier diverges; the grid one does).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 0) {
    int right = a[i + 1];
    cg::this_grid().sync();
    a[i] = right;
  }
}
