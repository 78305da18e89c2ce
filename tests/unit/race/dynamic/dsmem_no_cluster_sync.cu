// expect: race 8 11   (distributed shared memory: the peer CTA's write is ordered with the read only through a cluster barrier)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(2, 1, 1) exchange(int* out) {
  __shared__ int mine[64];
  cg::cluster_group cluster = cg::this_cluster();
  if (threadIdx.x == 0) cluster.sync();  // (every thread arrives at the cluster barrier somewhere)
  mine[threadIdx.x] = blockIdx.x * 100 + threadIdx.x;
  if (threadIdx.x != 0) cluster.sync();
  const int* peer = cluster.map_shared_rank(mine, cluster.block_rank() ^ 1);
  out[blockIdx.x * 64 + threadIdx.x] = peer[63 - threadIdx.x];
  cluster.sync();
}
