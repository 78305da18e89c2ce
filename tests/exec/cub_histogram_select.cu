// exec-flags: --memcheck
// expect-exit: 0
// expect-stdout: cub_histogram_select: PASS
// expect-stderr: 0 uninitialized reads, 0 accesses to freed memory
// NVIDIA CUB's DeviceHistogram (even bins, shared-memory privatised counters merged with global atomics) and
// DeviceSelect (If and Flagged: a decoupled look-back scan of selection flags across CTAs, then a scatter),
// unmodified, on inputs spanning several CTAs; each result checked against the same computation on the host.
#include <cub/device/device_histogram.cuh>
#include <cub/device/device_select.cuh>

#include <cstdio>
#include <vector>

struct IsMultipleOf3 {
  __host__ __device__ bool operator()(int x) const { return x % 3 == 0; }
};

static int failures = 0;
static void check(bool ok, const char* what) {
  if (!ok) { std::printf("FAIL %s\n", what); ++failures; }
}

int main() {
  const int n = 5000, bins = 16;
  std::vector<int> h(n);
  unsigned state = 12345;
  for (int& x : h) { state = state * 1103515245u + 12345u; x = static_cast<int>((state >> 8) % 1000); }
  int *in, *out, *count, *histogram;
  char* flags;
  cudaMalloc(&in, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMalloc(&count, sizeof(int));
  cudaMalloc(&histogram, bins * sizeof(int));
  cudaMalloc(&flags, n);
  cudaMemcpy(in, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);

  // Even bins over [0, 1000): bin = x * 16 / 1000.
  void* temp = nullptr;
  size_t bytes = 0;
  cub::DeviceHistogram::HistogramEven(temp, bytes, in, histogram, bins + 1, 0, 1000, n);
  cudaMalloc(&temp, bytes);
  cub::DeviceHistogram::HistogramEven(temp, bytes, in, histogram, bins + 1, 0, 1000, n);
  std::vector<int> got(bins), want(bins, 0);
  cudaMemcpy(got.data(), histogram, bins * sizeof(int), cudaMemcpyDeviceToHost);
  for (int x : h) ++want[static_cast<long long>(x) * bins / 1000];
  check(got == want, "cub::DeviceHistogram::HistogramEven");
  cudaFree(temp);

  // DeviceSelect::If keeps the multiples of 3, in order.
  temp = nullptr;
  cub::DeviceSelect::If(temp, bytes, in, out, count, n, IsMultipleOf3{});
  cudaMalloc(&temp, bytes);
  cub::DeviceSelect::If(temp, bytes, in, out, count, n, IsMultipleOf3{});
  std::vector<int> kept;
  for (int x : h) if (x % 3 == 0) kept.push_back(x);
  int selected = 0;
  cudaMemcpy(&selected, count, sizeof(int), cudaMemcpyDeviceToHost);
  std::vector<int> result(kept.size());
  cudaMemcpy(result.data(), out, kept.size() * sizeof(int), cudaMemcpyDeviceToHost);
  check(selected == static_cast<int>(kept.size()) && result == kept, "cub::DeviceSelect::If");
  cudaFree(temp);

  // DeviceSelect::Flagged keeps the items whose flag is set (every odd position here).
  std::vector<char> hflags(n);
  for (int i = 0; i < n; ++i) hflags[i] = i % 2;
  cudaMemcpy(flags, hflags.data(), n, cudaMemcpyHostToDevice);
  temp = nullptr;
  cub::DeviceSelect::Flagged(temp, bytes, in, flags, out, count, n);
  cudaMalloc(&temp, bytes);
  cub::DeviceSelect::Flagged(temp, bytes, in, flags, out, count, n);
  kept.clear();
  for (int i = 0; i < n; ++i) if (hflags[i]) kept.push_back(h[i]);
  cudaMemcpy(&selected, count, sizeof(int), cudaMemcpyDeviceToHost);
  result.assign(kept.size(), 0);
  cudaMemcpy(result.data(), out, kept.size() * sizeof(int), cudaMemcpyDeviceToHost);
  check(selected == static_cast<int>(kept.size()) && result == kept, "cub::DeviceSelect::Flagged");
  cudaFree(temp);

  check(cudaGetLastError() == cudaSuccess, "no error");
  if (failures == 0) std::printf("cub_histogram_select: PASS\n");
  return failures ? 1 : 0;
}
