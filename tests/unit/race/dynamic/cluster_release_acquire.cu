// expect: race-free   (ISA 8.5: .cluster includes every thread of the cluster; 8.8 release/acquire patterns synchronize the two CTAs, 8.9.4 item 4)
#include "cluster_scope.cuh"
__global__ void __cluster_dims__(2, 1, 1) message(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    st_release_cluster(flag, 1);
  } else {
    while (ld_acquire_cluster(flag) == 0) {}
    out[0] = data[0];
  }
}
