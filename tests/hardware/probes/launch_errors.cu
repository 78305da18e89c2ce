// Hardware probe: the error each invalid launch configuration gives (cudaGetLastError after the launch, then
// again), to compare with what `ptxcheck exec`'s runtime returns (tests/exec/basics.cu expects
// cudaErrorInvalidConfiguration for a 2048-thread block; the H200 said cudaErrorInvalidValue, and tests/exec/basics.cu
// now expects that).
#include <cstdio>

__global__ void hello(int a, float b) {
  if (threadIdx.x == 5 && blockIdx.x == 2) printf("hello %d %.2f\n", a, b);
}
__global__ void big_smem() { extern __shared__ int s[]; s[threadIdx.x] = 0; }

#define TRY(what, launch)                                                                  \
  do {                                                                                     \
    launch;                                                                                \
    cudaError_t first = cudaGetLastError(), second = cudaGetLastError();                   \
    std::printf("%s: %s then %s\n", what, cudaGetErrorName(first), cudaGetErrorName(second)); \
  } while (0)

int main() {
  TRY("valid 3x32", (hello<<<3, 32>>>(7, 2.5f)));
  cudaDeviceSynchronize();
  TRY("block of 2048 threads", (hello<<<1, 2048>>>(0, 0)));
  TRY("block of 1025 threads", (hello<<<1, 1025>>>(0, 0)));
  TRY("block 1x1x65", (hello<<<1, dim3(1, 1, 65)>>>(0, 0)));
  TRY("grid of 0 blocks", (hello<<<0, 32>>>(0, 0)));
  TRY("grid y 65536", (hello<<<dim3(1, 65536), 32>>>(0, 0)));
  TRY("dynamic shared 1 MiB", (big_smem<<<1, 32, 1 << 20>>>()));
  TRY("dynamic shared 64 KiB without the attribute", (big_smem<<<1, 32, 64 << 10>>>()));
  std::printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
