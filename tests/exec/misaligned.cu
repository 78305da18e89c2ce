// expect-exit: 0
// expect-stdout: fault: cudaErrorMisalignedAddress sticky
// expect-stderr: misaligned store of 4 bytes
// expect-stderr: CUDA line 13
// A kernel storing an int at an odd byte address: ISA 6.4.1 requires an address its access size divides and lets
// the instruction fault otherwise, as a GPU does (cudaErrorMisalignedAddress, sticky), reported at the CUDA line.
#include <cstdio>

__global__ void unaligned(char* bytes) {
  // A packed record: an int right after a char.
  int* field = reinterpret_cast<int*>(bytes + 1 + 8 * threadIdx.x);
  if (threadIdx.x == 3)
    *field = 42;
}

int main() {
  char* p;
  cudaMalloc(&p, 64);
  unaligned<<<1, 4>>>(p);
  cudaError_t e = cudaDeviceSynchronize();
  void* q = nullptr;
  cudaError_t later = cudaMalloc(&q, 16);
  std::printf("fault: %s %s\n", cudaGetErrorName(e), later == e ? "sticky" : "not sticky");
  return 0;
}
