// exec-flags: --racecheck
// expect-exit: 0
// expect-stderr: race (confirmed on the interpreter)
// expect-stderr: racecheck_missing_sync.cu:17
// expect-stderr: racecheck: 2 launches, 1 distinct races, 0 barrier divergences
// A block sum whose second loop iteration reads a neighbour's partial sum without the __syncthreads() that
// should follow each step: --racecheck reports the shared-memory race (ISA 8.7.1) once, at the CUDA lines,
// though the kernel is launched twice.
#include <cstdio>

__global__ void racy_sum(const int* in, int* out) {
  __shared__ int partial[64];
  partial[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  for (int s = 32; s > 0; s /= 2) {
    if (threadIdx.x < s)
      partial[threadIdx.x] +=
          partial[threadIdx.x + s];
    // missing: __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

int main() {
  int h[128], *in, *out;
  for (int i = 0; i < 128; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, 2 * sizeof(int));
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  racy_sum<<<2, 64>>>(in, out);
  racy_sum<<<2, 64>>>(in, out);
  int sums[2];
  cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
  std::printf("sums %d %d\n", sums[0], sums[1]);
  return 0;
}
