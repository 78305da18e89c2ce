// expect-exit: 0
// expect-stdout: 64 KiB without the attribute: cudaErrorInvalidValue
// expect-stdout: 1 MiB: cudaErrorInvalidValue
// expect-stdout: attribute 300 KiB: cudaErrorInvalidValue
// expect-stdout: attribute 64 KiB: cudaSuccess, launch cudaSuccess, sum 2097152, attribute reads 65536
// expect-stdout: 48 KiB: cudaSuccess
// Dynamic shared memory beyond 48 KiB needs cudaFuncAttributeMaxDynamicSharedMemorySize (CUDA Programming Guide,
// shared memory); a launch asking for more is refused with cudaErrorInvalidValue, as CUDA 13 does on an H200
// (tests/hardware/h200/probes.txt, launch_errors). The attribute takes at most sharedMemPerBlockOptin (227 KiB).
#include <cstdio>

__global__ void fill_and_sum(int* out, int words) {
  extern __shared__ int s[];
  for (int i = threadIdx.x; i < words; i += blockDim.x) s[i] = 128;
  __syncthreads();
  if (threadIdx.x == 0) {
    int sum = 0;
    for (int i = 0; i < words; ++i) sum += s[i];
    *out = sum;
  }
}

int main() {
  int* d;
  cudaMalloc(&d, sizeof(int));
  fill_and_sum<<<1, 256, 64 << 10>>>(d, (64 << 10) / 4);
  std::printf("64 KiB without the attribute: %s\n", cudaGetErrorName(cudaGetLastError()));
  fill_and_sum<<<1, 256, 1 << 20>>>(d, 16);
  std::printf("1 MiB: %s\n", cudaGetErrorName(cudaGetLastError()));
  std::printf("attribute 300 KiB: %s\n",
              cudaGetErrorName(cudaFuncSetAttribute(fill_and_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 << 10)));
  cudaGetLastError();
  cudaError_t set = cudaFuncSetAttribute(fill_and_sum, cudaFuncAttributeMaxDynamicSharedMemorySize, 64 << 10);
  fill_and_sum<<<1, 256, 64 << 10>>>(d, (64 << 10) / 4);
  cudaError_t launched = cudaGetLastError();
  int sum = 0;
  cudaMemcpy(&sum, d, sizeof sum, cudaMemcpyDeviceToHost);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, fill_and_sum);
  std::printf("attribute 64 KiB: %s, launch %s, sum %d, attribute reads %d\n", cudaGetErrorName(set), cudaGetErrorName(launched), sum,
              attr.maxDynamicSharedSizeBytes);
  fill_and_sum<<<1, 256, 48 << 10>>>(d, 16);
  std::printf("48 KiB: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
