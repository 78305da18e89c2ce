// st.async (ISA 9.7.9.12) and red.async (9.7.13.7) into a peer CTA's shared memory, completing on the peer's
// mbarrier, as inline PTX, for the dynamic engine's tests of them (the mbarrier helpers are bulk_copy.cuh's).
#pragma once
#include "bulk_copy.cuh"

// The .shared::cluster address of `p` (a shared variable of this CTA) in the CTA of cluster rank `rank` (9.7.9.23).
__device__ inline std::uint32_t peer(const void* p, unsigned rank) {
  std::uint32_t a;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(a) : "r"(smem(p)), "r"(rank));
  return a;
}
__device__ inline void st_async(std::uint32_t dst, int v, std::uint32_t bar) {
  asm volatile("st.async.shared::cluster.mbarrier::complete_tx::bytes.s32 [%0], %1, [%2];" ::"r"(dst), "r"(v), "r"(bar) : "memory");
}
__device__ inline void red_async_add(std::uint32_t dst, unsigned v, std::uint32_t bar) {
  asm volatile("red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%0], %1, [%2];" ::"r"(dst), "r"(v),
               "r"(bar) : "memory");
}
