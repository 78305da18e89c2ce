// tcgen05 Tensor Memory accesses handed from one warp to another (ISA 9.0 9.7.16.6.3-4), as inline PTX, for the
// dynamic engine's tests of what orders them across threads. One CTA of 256 threads: warps 0 and 4 reach the same
// 32 lanes of Tensor Memory (9.7.16.8.1: a warp reaches the lanes of its rank in its warpgroup), so lane i of warp
// 0 and lane i of warp 4 access the same cell (lane i, column 0) with the .32x32b.x1 shape.
#pragma once
#include "cluster_launch_control.cuh"  // bulk_copy.cuh's smem(); the cluster barrier

// Warp 0 allocates 32 columns, writing the address to `slot` (9.7.16.7.1).
__device__ inline void tmem_alloc(unsigned* slot) {
  asm volatile("tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%0], 32;" ::"r"(smem(slot)) : "memory");
  asm volatile("tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;" ::: "memory");
}
__device__ inline void tmem_dealloc(unsigned tmem) {
  asm volatile("tcgen05.dealloc.cta_group::1.sync.aligned.b32 %0, 32;" ::"r"(tmem) : "memory");
}
// The warp writes column 0 of its lanes (one 32-bit cell per thread), asynchronously (9.7.16.6.1).
__device__ inline void tmem_store(unsigned tmem, unsigned v) {
  asm volatile("tcgen05.st.sync.aligned.32x32b.x1.b32 [%0], {%1};" ::"r"(tmem), "r"(v) : "memory");
}
__device__ inline void tmem_wait_store() { asm volatile("tcgen05.wait::st.sync.aligned;" ::: "memory"); }
// The warp reads column 0 of its lanes, and waits for the load (9.7.16.6.2.3) before using the value.
__device__ inline unsigned tmem_load(unsigned tmem) {
  unsigned v;
  asm volatile("tcgen05.ld.sync.aligned.32x32b.x1.b32 {%0}, [%1];\n tcgen05.wait::ld.sync.aligned;" : "=r"(v) : "r"(tmem) : "memory");
  return v;
}
__device__ inline void tc_fence_before() { asm volatile("tcgen05.fence::before_thread_sync;" ::: "memory"); }
__device__ inline void tc_fence_after() { asm volatile("tcgen05.fence::after_thread_sync;" ::: "memory"); }

// The flag, in shared memory: written with a release, relaxed (both morally strong with the reader's .cta access,
// 8.7) or weak st, or a relaxed atomic; read in a spin loop until it has `value`.
__device__ inline void flag_set_release(int* f) { asm volatile("st.release.cta.shared::cta.u32 [%0], 1;" ::"r"(smem(f)) : "memory"); }
__device__ inline void flag_set_relaxed(int* f) { asm volatile("st.relaxed.cta.shared::cta.u32 [%0], 1;" ::"r"(smem(f)) : "memory"); }
__device__ inline void flag_set_weak(int* f) { asm volatile("st.shared::cta.u32 [%0], 1;" ::"r"(smem(f)) : "memory"); }
__device__ inline void flag_set_atom_relaxed(int* f) {
  asm volatile("{\n .reg .b32 old;\n atom.relaxed.cta.shared::cta.exch.b32 old, [%0], 1;\n}" ::"r"(smem(f)) : "memory");
}
__device__ inline void flag_wait_acquire(int* f) {
  asm volatile("{\n .reg .b32 v;\n .reg .pred p;\n W: ld.acquire.cta.shared::cta.u32 v, [%0];\n setp.ne.u32 p, v, 1;\n @p bra W;\n}" ::"r"(
                   smem(f)) : "memory");
}
__device__ inline void flag_wait_relaxed(int* f, unsigned value = 1) {
  asm volatile("{\n .reg .b32 v;\n .reg .pred p;\n W: ld.relaxed.cta.shared::cta.u32 v, [%0];\n setp.ne.u32 p, v, %1;\n @p bra W;\n}" ::"r"(
                   smem(f)), "r"(value) : "memory");
}
// Polls with an atomic that reads the flag (or with 0 leaves it unchanged).
__device__ inline void flag_wait_atom_relaxed(int* f) {
  asm volatile("{\n .reg .b32 v;\n .reg .pred p;\n W: atom.relaxed.cta.shared::cta.or.b32 v, [%0], 0;\n setp.ne.u32 p, v, 1;\n @p bra W;\n}" ::"r"(
                   smem(f)) : "memory");
}
// Waits for the flag to be 1 and makes it 2, in one atomic: a link of an atomic chain (8.9.2).
__device__ inline void flag_pass_on(int* f) {
  asm volatile("{\n .reg .b32 v;\n .reg .pred p;\n W: atom.relaxed.cta.shared::cta.cas.b32 v, [%0], 1, 2;\n setp.ne.u32 p, v, 1;\n @p bra W;\n}" ::"r"(
                   smem(f)) : "memory");
}

// Allocation and clearing of the flags, ordered before both warps by a CTA barrier with the fences around it (the
// canonical way, 9.7.16.6.4.4); and the same before warp 0 deallocates.
__device__ inline unsigned tmem_setup(unsigned* slot, int* flags) {
  if (threadIdx.x / 32 == 0) tmem_alloc(slot);
  if (threadIdx.x < 32) flags[threadIdx.x] = 0;
  tc_fence_before();
  __syncthreads();
  tc_fence_after();
  return *slot;
}
__device__ inline void tmem_teardown(unsigned tmem) {
  tc_fence_before();
  __syncthreads();
  tc_fence_after();
  if (threadIdx.x / 32 == 0) tmem_dealloc(tmem);
}
