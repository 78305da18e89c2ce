// bench/exec: wall time of thrust::sort and cub::DeviceScan::ExclusiveSum of N ints (default 2^20) as the
// program sees it, with the host's std::sort and std::exclusive_scan of the same data timed in the same run as
// the baseline. Run under `ptxcheck exec` (bench/exec/run.sh); checks its results against the host's.
#include <cub/device/device_scan.cuh>
#include <thrust/device_vector.h>
#include <thrust/sort.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>

namespace {
double seconds_since(std::chrono::steady_clock::time_point t) { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count(); }
}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 1 << 20;
  std::vector<int> h(n);
  unsigned s = 7;
  for (int& x : h) { s = s * 1664525u + 1013904223u; x = int(s >> 4); }

  std::vector<int> sorted = h;
  auto t = std::chrono::steady_clock::now();
  std::sort(sorted.begin(), sorted.end());
  const double host_sort = seconds_since(t);
  std::vector<int> scanned(n);
  t = std::chrono::steady_clock::now();
  std::exclusive_scan(h.begin(), h.end(), scanned.begin(), 0);
  const double host_scan = seconds_since(t);

  thrust::device_vector<int> d(h.begin(), h.end());
  cudaDeviceSynchronize();
  t = std::chrono::steady_clock::now();
  thrust::sort(d.begin(), d.end());
  cudaDeviceSynchronize();
  const double device_sort = seconds_since(t);
  const bool sort_ok = thrust::equal(d.begin(), d.end(), thrust::device_vector<int>(sorted.begin(), sorted.end()).begin());

  int *in, *out;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  void* temp = nullptr;
  size_t bytes = 0;
  cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n);
  cudaMalloc(&temp, bytes);
  t = std::chrono::steady_clock::now();
  cub::DeviceScan::ExclusiveSum(temp, bytes, in, out, n);
  cudaDeviceSynchronize();
  const double device_scan = seconds_since(t);
  std::vector<int> result(n);
  cudaMemcpy(result.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  const bool scan_ok = result == scanned;

  std::printf("thrust::sort of %d ints: %.2f s (host std::sort %.3f s)%s\n", n, device_sort, host_sort, sort_ok ? "" : " WRONG");
  std::printf("cub::DeviceScan::ExclusiveSum of %d ints: %.2f s (host std::exclusive_scan %.4f s)%s\n", n, device_scan, host_scan,
              scan_ok ? "" : " WRONG");
  return sort_ok && scan_ok ? 0 : 1;
}
