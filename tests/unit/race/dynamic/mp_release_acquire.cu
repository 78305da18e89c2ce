// expect: race-free   (ISA 8.8/8.9.4: st.release.gpu synchronizes with the ld.acquire.gpu that observes it)
#include <cuda/atomic>
__global__ void k(int* data, int* flag, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    f.store(1, cuda::memory_order_release);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (f.load(cuda::memory_order_acquire) == 0) {}
    out[0] = data[0];
  }
}
