// exec-flags: --racecheck
// expect-exit: 0
// expect-stdout: clean: PASS
// expect-stderr: racecheck: 3 launches, 0 distinct races, 0 barrier divergences
// The correct block sum (a __syncthreads() after every step), a warp-shuffle sum and global atomics: race-free
// under --racecheck (no report, only the summary), and the results are right.
#include <cstdio>

__global__ void block_sum(const int* in, int* out) {
  __shared__ int partial[64];
  partial[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  for (int s = 32; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = partial[0];
}

__global__ void warp_sum(const int* in, int* out) {
  int v = in[blockIdx.x * 32 + threadIdx.x];
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}

__global__ void histogram(const int* in, int n, unsigned* bins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&bins[in[i] % 8], 1u);
}

int main() {
  int h[128], *in, *out, sums[4];
  unsigned *bins, hb[8];
  for (int i = 0; i < 128; ++i) h[i] = i;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof sums);
  cudaMalloc(&bins, sizeof hb);
  cudaMemset(bins, 0, sizeof hb);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  bool ok = true;
  block_sum<<<2, 64>>>(in, out);
  cudaMemcpy(sums, out, 2 * sizeof(int), cudaMemcpyDeviceToHost);
  ok &= sums[0] == 2016 && sums[1] == 6112;  // 0+..+63, 64+..+127
  warp_sum<<<4, 32>>>(in, out);
  cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
  for (int b = 0; b < 4; ++b) ok &= sums[b] == 32 * 32 * b + 496;  // sum of 32b .. 32b+31
  histogram<<<3, 32>>>(in, 128, bins);
  cudaMemcpy(hb, bins, sizeof hb, cudaMemcpyDeviceToHost);
  for (int b = 0; b < 8; ++b) ok &= hb[b] == 16;
  std::printf("clean: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
