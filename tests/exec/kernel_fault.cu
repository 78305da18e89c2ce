// expect-exit: 0
// expect-stdout: fault: cudaErrorIllegalAddress sticky
// expect-stderr: out_of_bounds
// expect-stderr: CUDA line 12
// A kernel writing past its allocation: the launch's error is an illegal address, reported at the CUDA line,
// and sticky (every later call fails), as on a GPU.
#include <cstdio>

__global__ void overrun(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= n)
    p[i] = i;  // i == n is one past the end
}

int main() {
  int* p;
  cudaMalloc(&p, 64 * sizeof(int));
  overrun<<<1, 128>>>(p, 64);
  cudaError_t e = cudaDeviceSynchronize();
  void* q = nullptr;
  cudaError_t later = cudaMalloc(&q, 16);
  std::printf("fault: %s %s\n", cudaGetErrorName(e), later == e ? "sticky" : "not sticky");
  return 0;
}
