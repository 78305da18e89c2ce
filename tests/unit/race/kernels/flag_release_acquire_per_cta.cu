// expect: race-free  launch: --blockDim=64 --gridDim=4  options: --assume='arg2[*] == 0'
// One flag per CTA with cuda::atomic_ref release and acquire (st.release.gpu, ld.acquire.gpu: ISA 8.8 patterns 1):
// warp 1's thread waits for warp 0's thread, which wrote data before the release. Each flag has one writer.
#include <cuda/atomic>
__global__ void k(int* data, int* flag) {
  cuda::atomic_ref<int, cuda::thread_scope_device> f(flag[blockIdx.x]);
  if (threadIdx.x == 0) {
    data[blockIdx.x] = 42;
    f.store(1, cuda::memory_order_release);
  } else if (threadIdx.x == 32) {
    while (f.load(cuda::memory_order_acquire) == 0) {}
    data[blockIdx.x + 8] = data[blockIdx.x] + 1;
  }
}
