// expect: race 21 25   (ISA 9.7.13.3: after a .relaxed arrive, rank 1's load is unordered with the next request)
// nvcc: -arch=sm_100a
#include "cluster_launch_control.cuh"
// clc_multicast.cu with barrier.cluster.arrive.relaxed, as 9.7.13.17's example writes it. 9.7.13.3: "The optional
// .relaxed qualifier on barrier.cluster.arrive specifies that there are no memory ordering and visibility
// guarantees provided for the memory accesses performed prior to barrier.cluster.arrive." So rank 1's fenced load
// of its copy (line 25) is not ordered before rank 0's next request (line 21), whose async-proxy write rewrites that
// copy: a race (write after read). Nor does rank 0 learn that its previous response landed in rank 1 (that
// write completes on rank 1's mbarrier only), so the two responses written there race too (line 21 with itself).
// Rank 0's own load and copy are ordered by its own wait, program order and fence.
__global__ void __cluster_dims__(2, 1, 1) persistent(int* out) {
  __shared__ alignas(16) int resp[4];
  __shared__ std::uint64_t bar;
  const unsigned rank = cluster_rank();
  unsigned first = blockIdx.x - rank, parity = 0;
  mbar_init(&bar, 1);
  cluster_arrive_relaxed();
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
    cluster_arrive_relaxed();
  }
}
