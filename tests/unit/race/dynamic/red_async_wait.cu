// expect: race-free   (ISA 9.7.13.7: relaxed .cluster reductions are morally strong with each other; the mbarrier orders the read)
#include "async_store.cuh"
#include <cooperative_groups.h>
__global__ void __cluster_dims__(2, 1, 1) count(unsigned* out) {
  __shared__ unsigned total;
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) { total = 0; mbar_init(&bar, 1); }
  cooperative_groups::this_cluster().sync();
  if (blockIdx.x == 0) {
    red_async_add(peer(&total, 1), threadIdx.x + 1, peer(&bar, 1));
  } else {
    if (threadIdx.x == 0) mbar_expect_tx(&bar, 64 * sizeof(unsigned));
    mbar_wait(&bar, 0);
    out[threadIdx.x] = total;
  }
  cooperative_groups::this_cluster().sync();
}
