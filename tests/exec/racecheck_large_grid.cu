// exec-flags: --racecheck
// expect-exit: 0
// expect-stdout: sum 131072 last 511
// expect-stderr: racecheck_large_grid.cu:27
// expect-stderr: racecheck: 2 launches, 1 distinct races, 0 barrier divergences
// expect-stderr-not: not (wholly) checked
// Launches of 131,072 threads (512 CTAs of 256), above what a vector clock per thread of the grid would allow:
// the race engine keeps only the resident CTAs' threads and shared memory (docs/race/dynamic-engine.md), so both
// launches are checked whole. A block reduction with __syncthreads() between steps is race free; the first and
// the last CTA writing one word with plain stores is a race (ISA 8.7.1: no causality order between CTAs).
#include <cstdio>

__global__ void block_sum(const int* in, int* out) {
  __shared__ int partial[256];
  partial[threadIdx.x] = in[blockIdx.x * 256 + threadIdx.x];
  __syncthreads();
  for (int s = 128; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) atomicAdd(out, partial[0]);
}

__global__ void last_writer(int* word) {
  // Thread 0 of the first and of the last CTA store their CTA's number.
  if (threadIdx.x == 0 && (blockIdx.x == 0 || blockIdx.x == gridDim.x - 1))
    *word = blockIdx.x;
}

int main() {
  const int n = 512 * 256;
  int *in, *sum, *word;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&sum, sizeof(int));
  cudaMallocManaged(&word, sizeof(int));
  for (int i = 0; i < n; ++i) in[i] = 1;
  *sum = 0;
  block_sum<<<512, 256>>>(in, sum);
  last_writer<<<512, 256>>>(word);
  cudaDeviceSynchronize();
  printf("sum %d last %d\n", *sum, *word);
  return 0;
}
