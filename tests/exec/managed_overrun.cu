// expect-exit: 0
// expect-stdout: managed overrun: cudaErrorIllegalAddress
// expect-stderr: out_of_bounds
// expect-stderr: thread 25,0,0
// expect-stderr: CUDA line 13
// Managed memory is mapped in whole pages on the host, but a kernel may reach only the bytes asked for, as with
// cudaMalloc: writing int 25 of a 100-byte cudaMallocManaged allocation (byte 100, inside its page) is an
// illegal address, as compute-sanitizer's memcheck reports it.
#include <cstdio>

__global__ void overrun(int* p, int n) {
  int i = threadIdx.x;
  if (i <= n) p[i] = i;  // i == n is one past the end
}

int main() {
  int* p = nullptr;
  if (cudaMallocManaged(&p, 25 * sizeof(int)) != cudaSuccess) { std::printf("managed overrun: FAIL alloc\n"); return 1; }
  overrun<<<1, 32>>>(p, 25);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("managed overrun: %s\n", cudaGetErrorName(e));
  return 0;
}
