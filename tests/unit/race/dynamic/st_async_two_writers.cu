// expect: race 10   (ISA 9.7.9.12: "The store operation is treated as a weak memory operation": two unordered st.async to one word race)
#include "async_store.cuh"
#include <cooperative_groups.h>
__global__ void __cluster_dims__(2, 1, 1) push(int* out) {
  __shared__ alignas(16) int buf[64];
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) mbar_init(&bar, 1);
  cooperative_groups::this_cluster().sync();
  if (blockIdx.x == 0) {
    st_async(peer(&buf[threadIdx.x / 2], 1), threadIdx.x, peer(&bar, 1));  // threads 2k and 2k+1: one word
  } else {
    if (threadIdx.x == 0) mbar_expect_tx(&bar, sizeof buf);
    mbar_wait(&bar, 0);
    out[threadIdx.x] = buf[threadIdx.x];
  }
  cooperative_groups::this_cluster().sync();
}
