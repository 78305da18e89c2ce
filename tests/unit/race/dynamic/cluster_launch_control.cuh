// clusterlaunchcontrol.try_cancel / query_cancel (ISA 9.7.13.17-18) as inline PTX in the style of CUTLASS's
// sm100_tile_scheduler.hpp (issue_clc_query, work_tile_info_from_clc_response), for the dynamic engine's tests of
// the response write. The mbarrier helpers are bulk_copy.cuh's.
#pragma once
#include "bulk_copy.cuh"

// Asks to cancel a cluster that has not started; the 16-byte response lands at `resp` (16-aligned) with complete-tx
// of 16 bytes on `bar`, both of this CTA.
__device__ inline void try_cancel(const void* resp, std::uint64_t* bar) {
  asm volatile("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.b128 [%0], [%1];" ::"r"(smem(resp)),
               "r"(smem(bar)) : "memory");
}
// The same request answered in every CTA of the cluster (.multicast::cluster::all): resp and bar name each CTA's own.
__device__ inline void try_cancel_multicast(const void* resp, std::uint64_t* bar) {
  asm volatile("clusterlaunchcontrol.try_cancel.async.shared::cta.mbarrier::complete_tx::bytes.multicast::cluster::all.b128 [%0], [%1];" ::"r"(
                   smem(resp)),
               "r"(smem(bar)) : "memory");
}

struct Response {
  bool canceled;
  unsigned x;  // the canceled cluster's first ctaid.x
};
// Loads the response (a generic ld.shared.b128, as 9.7.13.17 says: "After loading this response into 16-byte
// register") and decodes it with query_cancel (9.7.13.18).
__device__ inline Response read_response(const void* resp) {
  unsigned ok, x;
  asm volatile(
      "{\n .reg .pred p;\n .reg .b128 h;\n ld.shared.b128 h, [%2];\n"
      " clusterlaunchcontrol.query_cancel.is_canceled.pred.b128 p, h;\n selp.u32 %0, 1, 0, p;\n mov.u32 %1, 0;\n"
      " @p clusterlaunchcontrol.query_cancel.get_first_ctaid::x.b32.b128 %1, h;\n}"
      : "=r"(ok), "=r"(x) : "r"(smem(resp)) : "memory");
  return {ok != 0, x};
}

// The pieces of 9.7.13.17's example loop: the cluster barrier split in arrive / wait (9.7.13.3; .relaxed or the
// default .release arrive), and the wait for the response at .cluster scope.
__device__ inline void cluster_arrive() { asm volatile("barrier.cluster.arrive;" ::: "memory"); }
__device__ inline void cluster_arrive_relaxed() { asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory"); }
__device__ inline void cluster_wait() { asm volatile("barrier.cluster.wait.acquire;" ::: "memory"); }
__device__ inline void mbar_expect_tx_cluster(std::uint64_t* bar, unsigned bytes) {
  asm volatile("mbarrier.arrive.expect_tx.relaxed.cluster.shared::cta.b64 _, [%0], %1;" ::"r"(smem(bar)), "r"(bytes) : "memory");
}
__device__ inline void mbar_wait_cluster(std::uint64_t* bar, unsigned parity) {
  asm volatile(
      "{\n .reg .pred p;\n W: mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 p, [%0], %1;\n @!p bra W;\n}" ::"r"(smem(bar)),
      "r"(parity) : "memory");
}
__device__ inline unsigned cluster_rank() {
  unsigned r;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(r));
  return r;
}
