// exec-flags: --memcheck
// expect-exit: 0
// expect-stdout: managed: PASS
// expect-stderr: memcheck: 3 launches, 0 uninitialized reads
// Managed memory (cudaMallocManaged): the host writes through the pointer, kernels update it in place, the host
// reads the results after cudaDeviceSynchronize, across several launches; freed at the end.
#include <cstdio>

__global__ void step(int* v, int n, int k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = v[i] * 2 + k;
}

int main() {
  const int n = 300;
  int* v = nullptr;
  if (cudaMallocManaged(&v, n * sizeof(int)) != cudaSuccess) { std::printf("managed: FAIL alloc\n"); return 1; }
  for (int i = 0; i < n; ++i) v[i] = i;
  cudaMemPrefetchAsync(v, n * sizeof(int), cudaMemLocation{cudaMemLocationTypeDevice, 0}, 0, 0);
  for (int k = 1; k <= 3; ++k) {
    step<<<(n + 127) / 128, 128>>>(v, n, k);
    cudaDeviceSynchronize();
    v[0] += 100;  // the host's write between launches is seen by the next one
  }
  bool ok = true;
  for (int i = 0; i < n; ++i) {
    int e = i;
    for (int k = 1; k <= 3; ++k) e = e * 2 + k + (i == 0 ? 100 : 0);  // the kernel's step, then the host's write
    ok &= v[i] == e;
  }
  cudaFree(v);
  std::printf("managed: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
