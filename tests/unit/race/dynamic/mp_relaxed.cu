// expect: race 6 10   (relaxed flag accesses are morally strong, but order nothing: data races)
#include <cuda/atomic>
__global__ void k(int* data, int* flag, int* out) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    f.store(1, cuda::memory_order_relaxed);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (f.load(cuda::memory_order_relaxed) == 0) {}
    out[0] = data[0];
  }
}
