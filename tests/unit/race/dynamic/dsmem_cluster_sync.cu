// expect: race-free   (ISA 9.7.13.3: barrier.cluster.arrive.release / wait.acquire order each CTA's writes before the peer's reads)
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void __cluster_dims__(2, 1, 1) exchange(int* out) {
  __shared__ int mine[64];
  cg::cluster_group cluster = cg::this_cluster();
  mine[threadIdx.x] = blockIdx.x * 100 + threadIdx.x;
  cluster.sync();
  const int* peer = cluster.map_shared_rank(mine, cluster.block_rank() ^ 1);
  out[blockIdx.x * 64 + threadIdx.x] = peer[63 - threadIdx.x];
  cluster.sync();  // the peer's shared memory must outlive the read (ISA 2.2.2)
}
