// exec-flags: --memcheck
// expect-exit: 0
// expect-stdout: managed variables: PASS
// `__managed__` variables (PTX `.global .attribute(.managed)`, ISA 5.4.8): one address for the host and the
// device. The initializer is seen by both, the host writes between launches are seen by the next launch, and the
// kernels' writes by the host after cudaDeviceSynchronize; a managed array and a managed struct member too.
#include <cstdio>

struct Totals { int calls; long long sum; };

__managed__ int counter = 5;
__managed__ float table[256];
__managed__ Totals totals = {0, 0};

__global__ void bump(int n) {
  atomicAdd(&counter, n);
  table[threadIdx.x] = threadIdx.x * 1.5f;
  if (threadIdx.x == 0) totals.calls += 1;
  atomicAdd(reinterpret_cast<unsigned long long*>(&totals.sum), static_cast<unsigned long long>(threadIdx.x));
}

int main() {
  bool ok = counter == 5;                  // the initializer, read by the host before any launch
  bump<<<1, 256>>>(3);
  cudaDeviceSynchronize();
  ok &= counter == 5 + 256 * 3;
  for (int i = 0; i < 256; ++i) ok &= table[i] == i * 1.5f;
  counter = 10;                            // the host's write, seen by the next launch
  table[7] = -1.0f;
  bump<<<1, 128>>>(1);
  cudaDeviceSynchronize();
  ok &= counter == 10 + 128;
  ok &= table[7] == 7 * 1.5f && table[200] == 200 * 1.5f;
  ok &= totals.calls == 2 && totals.sum == 255LL * 256 / 2 + 127LL * 128 / 2;
  const int forty = 40;                    // the symbol API names the same object
  int back = 0;
  ok &= cudaMemcpyToSymbol(counter, &forty, sizeof forty) == cudaSuccess && counter == 40;
  bump<<<1, 2>>>(1);
  ok &= cudaMemcpyFromSymbol(&back, counter, sizeof back) == cudaSuccess && back == 42;
  std::printf("counter %d, table[3] %g, calls %d, sum %lld\n", counter, table[3], totals.calls, totals.sum);
  std::printf("managed variables: %s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
