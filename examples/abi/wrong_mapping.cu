// Source of the hand-written wrong_mapping.ptx: each operation there is compiled against the chapter-4
// table on purpose (wrong, missing, too-narrow scope) or allowed (alternative, strengthened).
#include <cuda/atomic>
__global__ void wrong(int* p, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> a(p[0]);
  out[0] = a.load(cuda::std::memory_order_seq_cst);
  a.store(1, cuda::std::memory_order_release);
  out[1] = a.load(cuda::std::memory_order_acquire);
  a.store(2, cuda::std::memory_order_relaxed);
  out[2] = a.load(cuda::std::memory_order_relaxed);
  out[3] = a.load(cuda::std::memory_order_seq_cst);
  out[4] = a.fetch_add(3, cuda::std::memory_order_acq_rel);
  cuda::atomic_thread_fence(cuda::std::memory_order_seq_cst, cuda::thread_scope_block);
  out[5] = a.fetch_or(4, cuda::std::memory_order_relaxed);
}
