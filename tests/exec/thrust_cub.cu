// expect-exit: 0
// expect-stdout: thrust_cub: PASS
// NVIDIA's own device-wide algorithms (Thrust and CUB from the CUDA toolkit's cccl headers), unmodified, each
// checked against the same computation on the host.
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

static int failures = 0;
static void check(bool ok, const char* what) {
  if (!ok) { std::printf("thrust_cub: FAIL %s\n", what); ++failures; }
}

struct Square {
  __host__ __device__ int operator()(int x) const { return x * x; }
};

int main() {
  const int n = 20000;  // several CTAs: CUB's decoupled look-back across them
  std::vector<int> h(n);
  unsigned s = 12345;
  for (int& x : h) { s = s * 1103515245u + 12345u; x = int(s >> 16) % 1000 - 500; }

  thrust::device_vector<int> d(h.begin(), h.end());
  check(thrust::reduce(d.begin(), d.end()) == std::accumulate(h.begin(), h.end(), 0), "thrust::reduce");
  thrust::device_vector<int> scanned(n);
  thrust::inclusive_scan(d.begin(), d.end(), scanned.begin());
  std::vector<int> expect(n);
  std::partial_sum(h.begin(), h.end(), expect.begin());
  thrust::host_vector<int> got = scanned;
  check(std::equal(expect.begin(), expect.end(), got.begin()), "thrust::inclusive_scan");
  thrust::device_vector<int> squares(n);
  thrust::transform(d.begin(), d.end(), squares.begin(), Square());
  got = squares;
  bool squares_ok = true;
  for (int i = 0; i < n; ++i) squares_ok &= got[i] == h[i] * h[i];
  check(squares_ok, "thrust::transform");
  thrust::sort(d.begin(), d.end());
  std::vector<int> sorted = h;
  std::sort(sorted.begin(), sorted.end());
  got = d;
  check(std::equal(sorted.begin(), sorted.end(), got.begin()), "thrust::sort");

  // CUB: the two-phase temporary-storage calls of DeviceReduce, DeviceScan and DeviceRadixSort.
  int *in, *out, *sum;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMalloc(&sum, sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  void* temp = nullptr;
  size_t bytes = 0;
  cub::DeviceReduce::Sum(temp, bytes, in, sum, n);
  cudaMalloc(&temp, bytes);
  cub::DeviceReduce::Sum(temp, bytes, in, sum, n);
  int total = 0;
  cudaMemcpy(&total, sum, sizeof(int), cudaMemcpyDeviceToHost);
  check(total == std::accumulate(h.begin(), h.end(), 0), "cub::DeviceReduce::Sum");
  cudaFree(temp);

  temp = nullptr;
  cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n);
  cudaMalloc(&temp, bytes);
  cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n);
  std::vector<int> result(n);
  cudaMemcpy(result.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  std::exclusive_scan(h.begin(), h.end(), expect.begin(), 0);
  check(result == expect, "cub::DeviceScan::ExclusiveSum");
  cudaFree(temp);

  temp = nullptr;
  cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, n);
  cudaMalloc(&temp, bytes);
  cub::DeviceRadixSort::SortKeys(temp, bytes, in, out, n);
  cudaMemcpy(result.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  check(result == sorted, "cub::DeviceRadixSort::SortKeys");
  check(cudaGetLastError() == cudaSuccess, "no error");
  if (failures == 0) std::printf("thrust_cub: PASS\n");
  return failures ? 1 : 0;
}
