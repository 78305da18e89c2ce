// expect: race  launch: --blockDim=64 --gridDim=4  options: --assume='arg2[*] == 0'
// flag_release_acquire_per_cta.cu with a relaxed load: no acquire pattern (ISA 8.8), the read of data is unordered.
#include <cuda/atomic>
__global__ void k(int* data, int* flag) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(flag[blockIdx.x]);
  if (threadIdx.x == 0) {
    data[blockIdx.x] = 42;
    f.store(1, cuda::memory_order_release);
  } else if (threadIdx.x == 32) {
    while (f.load(cuda::memory_order_relaxed) == 0) {}
    data[blockIdx.x + 8] = data[blockIdx.x] + 1;
  }
}
