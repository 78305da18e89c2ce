// expect: race-free   (a cooperative launch: this_grid().sync() orders the neighbour's read before its overwrite, ISA 8.9.4 items 2 and 4)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int right = a[i + 1];
  cg::this_grid().sync();
  a[i] = right;
}
