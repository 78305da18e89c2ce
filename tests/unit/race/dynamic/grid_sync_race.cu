// expect: race 8 9   (after the grid sync thread i reads a[i + 1] while thread i + 1 writes it, unordered: ISA 8.7.1)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* a, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int right = a[i + 1];
  cg::this_grid().sync();
  a[i] = right;
  out[i] = a[i + 1];
}
