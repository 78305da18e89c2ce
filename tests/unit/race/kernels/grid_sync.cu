// expect: race-free  launch: --blockDim=32 --gridDim=4
// Each thread reads its right neighbour's element, which a thread of the next CTA overwrites after the grid
// synchronisation: cooperative_groups::this_grid().sync() orders every access before it, in any CTA, before
// every access after it (its release add and acquire spin on the driver's grid counter, ISA 8.9.4).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int right = a[i + 1];
  cg::this_grid().sync();
  a[i] = right;
}
