// expect: race-free   (ISA 9.7.13.17's example loop: each CTA reads its copy after its own mbarrier wait, fenced)
// nvcc: -arch=sm_100a
#include "cluster_launch_control.cuh"
// 9.7.13.17's example (clusters of 2, one thread per CTA) with the release form of barrier.cluster.arrive: rank 0
// asks with .multicast::cluster::all, "the response is asynchronously written using weak async-proxy writes to the
// corresponding local shared memory addr of each CTA in the requesting cluster. The completion of the writes to
// addr of a particular CTA is signaled via a complete-tx operation to the mbarrier object on the shared memory of
// that CTA": each CTA waits on its own mbarrier, then loads its copy. Before rank 0 asks again, each CTA fences its
// load ("Fence generic->async") and the cluster barrier (arrive releases, wait acquires, 9.7.13.3) carries that to
// rank 0.
__global__ void __cluster_dims__(2, 1, 1) persistent(int* out) {
  __shared__ alignas(16) int resp[4];
  __shared__ std::uint64_t bar;
  const unsigned rank = cluster_rank();
  unsigned first = blockIdx.x - rank, parity = 0;
  mbar_init(&bar, 1);
  cluster_arrive();
  for (;;) {
    cluster_wait();
    mbar_expect_tx_cluster(&bar, 16);
    if (rank == 0) try_cancel_multicast(resp, &bar);
    out[first + rank] = first + rank;  // the work, while the request completes
    mbar_wait_cluster(&bar, parity);
    parity ^= 1;
    const Response r = read_response(resp);
    if (!r.canceled) break;
    first = r.x;
    fence_proxy_async_shared();
    cluster_arrive();
  }
}
