// exec-flags: --racecheck
// expect-exit: 0
// expect-stderr: race (confirmed on the interpreter)
// expect-stderr: racecheck_no_threadfence.cu:18
// expect-stderr: racecheck: 1 launches, 1 distinct races
// The threadFenceReduction pattern with its __threadfence() left out (an injected bug): the last block reads
// the other blocks' partial sums with nothing ordering their writes before the atomic counter it observed
// (ISA 8.7.1: a data race; 8.9: no release pattern before the atomicInc). The program's result happens to be
// right on this schedule; --racecheck still finds the race.
#include <cstdio>

__device__ unsigned blocks_done;
__global__ void fence_reduce(const int* in, int* partial, int* total) {
  __shared__ bool last;
  if (threadIdx.x == 0) {
    int s = 0;
    for (int i = 0; i < 32; ++i) s += in[blockIdx.x * 32 + i];
    partial[blockIdx.x] = s;
    last = atomicInc(&blocks_done, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    int sum = 0;
    for (int b = 0; b < gridDim.x; ++b) sum += ((volatile int*)partial)[b];
    *total = sum;
  }
}

int main() {
  int h[4 * 32], *in, *partial, *total, result = 0;
  for (int i = 0; i < 4 * 32; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h); cudaMalloc(&partial, 4 * sizeof(int)); cudaMalloc(&total, sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  fence_reduce<<<4, 32>>>(in, partial, total);
  cudaMemcpy(&result, total, sizeof result, cudaMemcpyDeviceToHost);
  std::printf("total %d (host %d)\n", result, 127 * 128 / 2);
  return 0;
}
