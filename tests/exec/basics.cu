// expect-exit: 0
// expect-stdout: basics: PASS
// expect-stdout: hello from block 2 thread 5: 7 2.50 tile
// A CUDA program as a developer writes it, checking itself against the host: memory copies, a grid of blocks,
// a by-value struct parameter, __constant__ and __device__ variables, atomics, dynamic shared memory with
// __syncthreads, printf, an invalid launch, events and device properties.
#include <cstdio>
#include <cstring>
#include <vector>

struct Affine { float scale; float shift; int n; };
__constant__ float coefficients[4];
__device__ unsigned long long visits;

__global__ void affine(const float* in, float* out, Affine f) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < f.n) {
    out[i] = f.scale * in[i] + f.shift + coefficients[i % 4];
    atomicAdd(&visits, 1ull);
  }
}

__global__ void block_sums(const int* in, int* sums, int n) {
  extern __shared__ int partial[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  partial[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) partial[threadIdx.x] += partial[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
}

__global__ void hello(int x, float y) {
  if (blockIdx.x == 2 && threadIdx.x == 5) printf("hello from block %d thread %d: %d %.2f %s\n", blockIdx.x, threadIdx.x, x, y, "tile");
}

static int failures = 0;
static void check(bool ok, const char* what) {
  if (!ok) { std::printf("basics: FAIL %s\n", what); ++failures; }
}

int main() {
  const int n = 1000;
  std::vector<float> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = 0.5f * i;
  const float c[4] = {1, 2, 3, 4};
  check(cudaMemcpyToSymbol(coefficients, c, sizeof c) == cudaSuccess, "cudaMemcpyToSymbol");
  float *d_in, *d_out;
  check(cudaMalloc(&d_in, n * sizeof(float)) == cudaSuccess, "cudaMalloc");
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMemset(d_out, 0xff, n * sizeof(float));
  cudaMemcpy(d_in, in.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  affine<<<(n + 127) / 128, 128>>>(d_in, d_out, Affine{2.0f, -1.0f, n});
  check(cudaGetLastError() == cudaSuccess, "launch");
  cudaMemcpy(out.data(), d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) check(out[i] == 2.0f * in[i] - 1.0f + c[i % 4], "affine value");
  unsigned long long v = 0;
  cudaMemcpyFromSymbol(&v, visits, sizeof v);
  check(v == n, "atomic visits");

  const int blocks = 7, threads = 64;
  std::vector<int> values(blocks * threads - 5), sums(blocks);
  for (size_t i = 0; i < values.size(); ++i) values[i] = int(i * 7 % 13) - 6;
  int *d_values, *d_sums;
  cudaMalloc(&d_values, values.size() * sizeof(int));
  cudaMalloc(&d_sums, blocks * sizeof(int));
  cudaMemcpy(d_values, values.data(), values.size() * sizeof(int), cudaMemcpyDefault);
  block_sums<<<blocks, threads, threads * sizeof(int)>>>(d_values, d_sums, int(values.size()));
  cudaMemcpy(sums.data(), d_sums, blocks * sizeof(int), cudaMemcpyDefault);
  for (int b = 0; b < blocks; ++b) {
    int expect = 0;
    for (int t = 0; t < threads; ++t) expect += size_t(b * threads + t) < values.size() ? values[b * threads + t] : 0;
    check(sums[b] == expect, "block sum");
  }

  hello<<<3, 32>>>(7, 2.5f);
  check(cudaDeviceSynchronize() == cudaSuccess, "synchronize after printf");

  hello<<<1, 2048>>>(0, 0);  // more threads than a block has
  // cudaErrorInvalidValue, as CUDA 13 on an H200 returns it (tests/hardware/h200/probes.txt).
  check(cudaGetLastError() == cudaErrorInvalidValue, "2048-thread block refused");
  check(cudaGetLastError() == cudaSuccess, "cudaGetLastError resets");

  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  cudaEventRecord(start);
  affine<<<8, 128>>>(d_in, d_out, Affine{1.0f, 0.0f, n});
  cudaEventRecord(stop);
  cudaEventSynchronize(stop);
  float ms = -1;
  check(cudaEventElapsedTime(&ms, start, stop) == cudaSuccess && ms > 0, "event time");

  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  int sms = 0;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
  check(prop.major == 9 && prop.warpSize == 32 && sms == prop.multiProcessorCount, "device properties");
  cudaFree(d_in);
  cudaFree(d_out);
  check(cudaFree(d_in) != cudaSuccess, "double free refused");
  if (failures == 0) std::printf("basics: PASS\n");
  return failures ? 1 : 0;
}
