// exec-flags: --racecheck --memcheck
// expect-exit: 0
// expect-stdout: samples: PASS
// expect-stderr: racecheck: 4 launches, 0 distinct races, 0 barrier divergences
// expect-stderr: memcheck: 4 launches, 0 uninitialized reads, 0 accesses to freed memory
// CUDA-samples-style programs, each checked against the host and clean under --racecheck --memcheck: tiled
// matrix multiply (shared memory), a shared-memory histogram, the threadFenceReduction pattern (the last block
// to finish, counted with atomicInc after __threadfence, sums the partial sums), and a cooperative-groups grid
// synchronisation.
#include <cooperative_groups.h>

#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;
constexpr int T = 8;

__global__ void matmul(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[T][T], tb[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0;
  for (int k0 = 0; k0 < n; k0 += T) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + k0 + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(k0 + threadIdx.y) * n + col];
    __syncthreads();
    for (int k = 0; k < T; ++k) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = acc;
}

__global__ void histogram(const unsigned char* data, int n, unsigned* bins) {
  __shared__ unsigned local[16];
  if (threadIdx.x < 16) local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) atomicAdd(&local[data[i] % 16], 1u);
  __syncthreads();
  if (threadIdx.x < 16) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

__device__ unsigned blocks_done;
__global__ void fence_reduce(const int* in, int* partial, int* total) {
  __shared__ int s[64];
  __shared__ bool last;
  s[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];
  __syncthreads();
  for (int d = 32; d > 0; d /= 2) {
    if (threadIdx.x < d) s[threadIdx.x] += s[threadIdx.x + d];
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    last = atomicInc(&blocks_done, gridDim.x) == gridDim.x - 1;
  }
  __syncthreads();
  if (last && threadIdx.x == 0) {
    int sum = 0;
    for (int b = 0; b < gridDim.x; ++b) sum += ((volatile int*)partial)[b];
    *total = sum;
  }
}

__global__ void grid_two_phase(int* data, int* out, int n) {
  cg::grid_group grid = cg::this_grid();
  int i = grid.thread_rank();
  if (i < n) data[i] = i * i;
  grid.sync();
  if (i < n) out[i] = data[n - 1 - i];
}

static int failures = 0;
static void check(bool ok, const char* what) {
  if (!ok) { std::printf("samples: FAIL %s\n", what); ++failures; }
}

int main() {
  const int n = 16;
  std::vector<float> a(n * n), b(n * n), c(n * n);
  for (int i = 0; i < n * n; ++i) { a[i] = float(i % 7) - 3; b[i] = float(i % 5) * 0.5f; }
  float *da, *db, *dc;
  cudaMalloc(&da, n * n * 4); cudaMalloc(&db, n * n * 4); cudaMalloc(&dc, n * n * 4);
  cudaMemcpy(da, a.data(), n * n * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * n * 4, cudaMemcpyHostToDevice);
  matmul<<<dim3(n / T, n / T), dim3(T, T)>>>(da, db, dc, n);
  cudaMemcpy(c.data(), dc, n * n * 4, cudaMemcpyDeviceToHost);
  for (int r = 0; r < n; ++r)
    for (int col = 0; col < n; ++col) {
      float e = 0;
      for (int k = 0; k < n; ++k) e += a[r * n + k] * b[k * n + col];  // small integers and halves: exact
      check(c[r * n + col] == e, "matmul");
    }

  std::vector<unsigned char> bytes(1000);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = (unsigned char)(i * 37 + 11);
  unsigned char* dbytes;
  unsigned *bins, hbins[16], expect[16] = {};
  for (unsigned char v : bytes) ++expect[v % 16];
  cudaMalloc(&dbytes, bytes.size());
  cudaMalloc(&bins, sizeof hbins);
  cudaMemcpy(dbytes, bytes.data(), bytes.size(), cudaMemcpyHostToDevice);
  cudaMemset(bins, 0, sizeof hbins);
  histogram<<<4, 64>>>(dbytes, int(bytes.size()), bins);
  cudaMemcpy(hbins, bins, sizeof hbins, cudaMemcpyDeviceToHost);
  for (int k = 0; k < 16; ++k) check(hbins[k] == expect[k], "histogram");

  const int blocks = 5;
  std::vector<int> values(blocks * 64);
  int sum = 0;
  for (size_t i = 0; i < values.size(); ++i) sum += values[i] = int(i % 11) - 4;
  int *dv, *dpartial, *dtotal, total = 0;
  cudaMalloc(&dv, values.size() * 4); cudaMalloc(&dpartial, blocks * 4); cudaMalloc(&dtotal, 4);
  cudaMemcpy(dv, values.data(), values.size() * 4, cudaMemcpyHostToDevice);
  fence_reduce<<<blocks, 64>>>(dv, dpartial, dtotal);
  cudaMemcpy(&total, dtotal, 4, cudaMemcpyDeviceToHost);
  check(total == sum, "threadFenceReduction");

  const int m = 200;
  int *ddata, *dout, hout[m];
  cudaMalloc(&ddata, m * 4); cudaMalloc(&dout, m * 4);
  int mm = m;
  void* args[] = {&ddata, &dout, &mm};
  check(cudaLaunchCooperativeKernel((void*)grid_two_phase, dim3(4), dim3(64), args, 0, 0) == cudaSuccess, "cooperative launch");
  cudaMemcpy(hout, dout, sizeof hout, cudaMemcpyDeviceToHost);
  for (int i = 0; i < m; ++i) check(hout[i] == (m - 1 - i) * (m - 1 - i), "grid sync");
  if (failures == 0) std::printf("samples: PASS\n");
  return failures ? 1 : 0;
}
