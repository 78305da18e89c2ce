// expect: race 10 13   (ISA 9.7.9.12: st.async is asynchronous; CTA 1 learns of its store only through the mbarrier)
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
    int v = buf[(threadIdx.x + 1) % 64];  // the read belongs after the wait
    mbar_wait(&bar, 0);
    out[threadIdx.x] = v;
  }
  cooperative_groups::this_cluster().sync();
}
