// Every row of the C++ atomics -> PTX table (ptx-interoperability-13.0 chapter 4), at several scopes,
// plus the legacy atomic functions, __threadfence* and volatile accesses. `ptxcheck abi` checks it.
#include <cuda/atomic>
#include <cuda/std/atomic>

using cuda::std::memory_order_acq_rel;
using cuda::std::memory_order_acquire;
using cuda::std::memory_order_relaxed;
using cuda::std::memory_order_release;
using cuda::std::memory_order_seq_cst;

__device__ cuda::std::atomic<int> sys_counter;

__global__ void table(int* p, int* out, volatile int* flag) {
  cuda::atomic_ref<int, cuda::thread_scope_device> dev(p[0]);
  cuda::atomic_ref<int, cuda::thread_scope_block> blk(p[1]);
  cuda::atomic_ref<int, cuda::thread_scope_system> sys(p[2]);
  int e = 0;
  // Sequentially consistent rows.
  cuda::atomic_thread_fence(memory_order_seq_cst, cuda::thread_scope_device);
  out[0] = dev.load(memory_order_seq_cst);
  dev.store(1, memory_order_seq_cst);
  out[1] = dev.fetch_add(1, memory_order_seq_cst);
  out[2] = blk.exchange(2, memory_order_seq_cst);
  // Release rows.
  cuda::atomic_thread_fence(memory_order_release, cuda::thread_scope_block);
  blk.store(3, memory_order_release);
  out[3] = sys.fetch_or(4, memory_order_release);
  // Acquire rows.
  cuda::atomic_thread_fence(memory_order_acquire, cuda::thread_scope_system);
  out[4] = sys.load(memory_order_acquire);
  out[5] = dev.fetch_and(5, memory_order_acquire);
  // Acquire-release rows.
  cuda::atomic_thread_fence(memory_order_acq_rel, cuda::thread_scope_device);
  out[6] = blk.fetch_xor(6, memory_order_acq_rel);
  dev.compare_exchange_strong(e, 7, memory_order_acq_rel);
  // Relaxed rows.
  out[7] = blk.load(memory_order_relaxed);
  sys.store(8, memory_order_relaxed);
  out[8] = dev.fetch_min(9, memory_order_relaxed);
  out[9] = sys.fetch_max(10, memory_order_relaxed);
  out[10] = dev.fetch_sub(11, memory_order_relaxed);
  // cuda::std::atomic: system scope, seq_cst by default (member calls and operators).
  out[11] = sys_counter.load();
  sys_counter.store(12);
  sys_counter++;
  sys_counter += 13;
  // Legacy atomic functions: relaxed; device scope, _block and _system forms.
  out[12] = atomicAdd(p + 3, 1);
  out[13] = atomicCAS_block(p + 3, 1, 2);
  out[14] = atomicExch_system(p + 3, 3);
  out[15] = atomicMax(p + 3, 4);
  // Fences: __threadfence* are seq_cst fences at device, block and system scope.
  __threadfence();
  __threadfence_block();
  __threadfence_system();
  // Volatile accesses: relaxed at system scope (PTX ISA 8.4.2).
  out[16] = *flag;
  *flag = 1;
}
