// exec-flags: --devices 2 --memcheck
// expect-exit: 0
// expect-stdout: sums 4096 4096
// expect-stderr: memcheck: access to device 1's memory from a kernel on device 0 without peer access (cudaDeviceEnablePeerAccess)
// expect-stderr: multi_device_memcheck.cu:15
// expect-stderr: memcheck: 2 launches, 0 uninitialized reads, 0 accesses to freed memory, 1 accesses to another device's memory without peer access
// --memcheck with two devices: a kernel on device 0 reading device 1's cudaMalloc'd memory before
// cudaDeviceEnablePeerAccess(1) is reported with both devices (on a GPU the access is not allowed: "all allocations
// from peerDevice will immediately be accessible" only once it is enabled); the same read after enabling is clean.
// The interpreter has one memory, so both reads give the values.
#include "check_call.cuh"

__global__ void sum(const int* peer, int* out, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += peer[i];
  *out = s;
}
__global__ void sum_enabled(const int* peer, int* out, int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += peer[i];
  *out = s;
}

int main() {
  const int n = 64;
  int host[n], before = 0, after = 0;
  for (int i = 0; i < n; ++i) host[i] = 2 * i + 1;  // the first 64 odd numbers sum to 64 * 64
  int *on1, *out;
  CHECK(cudaSetDevice(1));
  CHECK(cudaMalloc(&on1, n * sizeof(int)));
  CHECK(cudaMemcpy(on1, host, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaSetDevice(0));
  CHECK(cudaMalloc(&out, sizeof(int)));
  sum<<<1, 1>>>(on1, out, n);
  CHECK(cudaMemcpy(&before, out, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK(cudaDeviceEnablePeerAccess(1, 0));
  sum_enabled<<<1, 1>>>(on1, out, n);
  CHECK(cudaMemcpy(&after, out, sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("sums %d %d\n", before, after);
  return 0;
}
