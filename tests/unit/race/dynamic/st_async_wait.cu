// expect: race-free   (ISA 9.7.9.12: the stores' complete-tx on CTA 1's mbarrier; its wait for the phase orders them first)
#include "async_store.cuh"
#include <cooperative_groups.h>
__global__ void __cluster_dims__(2, 1, 1) push(int* out) {
  __shared__ alignas(16) int buf[64];
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) mbar_init(&bar, 1);
  cooperative_groups::this_cluster().sync();
  if (blockIdx.x == 0) {
    st_async(peer(&buf[threadIdx.x], 1), threadIdx.x * 3 + 7, peer(&bar, 1));
  } else {
    if (threadIdx.x == 0) mbar_expect_tx(&bar, sizeof buf);
    mbar_wait(&bar, 0);
    out[threadIdx.x] = buf[(threadIdx.x + 1) % 64];
  }
  cooperative_groups::this_cluster().sync();
}
