// expect: race 8 12   (ISA 8.5: CTA 2 is in another cluster than CTA 0, so neither .cluster scope includes the other thread: no synchronization, 8.9.4 item 4)
#include "cluster_scope.cuh"
// Four CTAs in clusters of two: CTA 0 (cluster 0) publishes at .cluster scope, CTA 2 (cluster 1) reads. The
// interpreter runs the clusters in order, so the reader's spin ends.
__global__ void __cluster_dims__(2, 1, 1) message(int* data, int* flag, int* out) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 0) {
    data[0] = 42;
    st_release_cluster(flag, 1);
  } else if (blockIdx.x == 2) {
    while (ld_acquire_cluster(flag) == 0) {}
    out[0] = data[0];
  }
}
