// expect: race-free   (ISA 8.8 forms 3: fence.acq_rel.cluster before a relaxed .cluster store, after a relaxed .cluster load, synchronize CTAs of one cluster; 8.7 the flag accesses are morally strong)
#include "cluster_scope.cuh"
__global__ void __cluster_dims__(2, 1, 1) message(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 1) {
    data[0] = 42;
    fence_acq_rel_cluster();
    st_relaxed_cluster(flag, 1);
  } else {
    while (ld_relaxed_cluster(flag) == 0) {}
    fence_acq_rel_cluster();
    out[0] = data[0];
  }
}
