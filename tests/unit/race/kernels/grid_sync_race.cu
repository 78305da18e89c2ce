// expect: race  launch: --blockDim=32 --gridDim=4
// The overwrite comes before the grid synchronisation, so the next CTA's read of that element is unordered
// with it: the last thread of CTA b reads a[32(b+1)], which thread 0 of CTA b+1 writes (ISA 8.7.1).
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(int* a, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int right = a[i + 1];
  a[i] = 0;
  cg::this_grid().sync();
  out[i] = right;
}
