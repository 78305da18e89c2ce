// expect: unknown  launch: --blockDim=128 --gridDim=1  reason='values loaded from shared memory'
// CUB BlockRadixSort with values, SortDescending (issue 37): the scatter's ranks come from a shared-memory scan the
// encoding does not follow, and bmsk extracts the digits. Once a definite race between two scatter stores that the
// replay did not confirm; now a possible race whose addresses depend on values loaded from shared memory.
#include <cub/block/block_radix_sort.cuh>
__global__ void sort_pairs_descending(unsigned* keys, int* values) {
  using Sort = cub::BlockRadixSort<unsigned, 128, 4, int>;
  __shared__ typename Sort::TempStorage temp;
  unsigned k[4];
  int v[4];
  for (int i = 0; i < 4; ++i) {
    k[i] = keys[threadIdx.x * 4 + i];
    v[i] = values[threadIdx.x * 4 + i];
  }
  Sort(temp).SortDescending(k, v);
  for (int i = 0; i < 4; ++i) {
    keys[threadIdx.x * 4 + i] = k[i];
    values[threadIdx.x * 4 + i] = v[i];
  }
}
