// Release/acquire and atomics at .cluster scope between CTAs, in inline PTX (ISA 9.7.9.8-9, 9.7.13.5, 9.7.13.4).
#pragma once
__device__ __forceinline__ void st_release_cluster(int* p, int v) {
  asm volatile("st.release.cluster.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ int ld_acquire_cluster(const int* p) {
  int v;
  asm volatile("ld.acquire.cluster.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_relaxed_cluster(int* p, int v) {
  asm volatile("st.relaxed.cluster.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
__device__ __forceinline__ int ld_relaxed_cluster(const int* p) {
  int v;
  asm volatile("ld.relaxed.cluster.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void fence_acq_rel_cluster() { asm volatile("fence.acq_rel.cluster;" ::: "memory"); }
__device__ __forceinline__ void add_relaxed_cluster(int* p, int v) {
  asm volatile("red.relaxed.cluster.global.add.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}
