// expect-exit: 0
// expect-stdout: registered memory: kernels read and write it
// expect-stdout: registered errors: as documented
// expect-stdout: registered read-only: read 2016, store cudaErrorIllegalAddress, host still 7
// expect-stderr: to read-only memory 'cudaHostRegister #
// Host memory registered with cudaHostRegister, as the Runtime API documents it: "Page-locks the memory range ...
// and maps it for the device(s)"; with unified addressing cudaHostRegisterDefault memory is "both mapped and
// portable", and cudaHostGetDevicePointer gives the pointer a kernel uses. Where the device reports
// cudaDevAttrCanUseHostPointerForRegisteredMem = 0 "the device pointer returned ... will not match the original
// host pointer" (and matches it where it is 1). A kernel's writes reach the host's bytes, the host's writes reach
// later kernels, copies through either pointer work, cudaHostUnregister ends the mapping, and the errors are the
// documented ones. A kernel store to cudaHostRegisterReadOnly memory ("considered read-only by the device") faults.
#include "check_call.cuh"

#include <cstdio>
#include <cstdlib>

__global__ void triple_plus_one(int* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = 3 * p[i] + 1;
}
__global__ void copy_one(const int* from, int* to) { *to = *from; }
__global__ void sum(const int* p, int n, int* out) {
  int s = 0;
  for (int i = 0; i < n; ++i) s += p[i];
  *out = s;
}
__global__ void store(int* p) { *p = 1; }

#define EXPECT(cond)                                 \
  do {                                               \
    if (!(cond)) {                                   \
      std::printf("FAIL line %d: %s\n", __LINE__, #cond); \
      return 1;                                      \
    }                                                \
  } while (0)

int main() {
  const int n = 256;
  int* h = static_cast<int*>(std::malloc(n * sizeof(int)));
  for (int i = 0; i < n; ++i) h[i] = i;
  int supported = 0, same_pointer = -1;
  CHECK(cudaDeviceGetAttribute(&supported, cudaDevAttrHostRegisterSupported, 0));
  CHECK(cudaDeviceGetAttribute(&same_pointer, cudaDevAttrCanUseHostPointerForRegisteredMem, 0));
  EXPECT(supported == 1);

  CHECK(cudaHostRegister(h, n * sizeof(int), cudaHostRegisterDefault));
  int *d = nullptr, *d10 = nullptr;
  CHECK(cudaHostGetDevicePointer((void**)&d, h, 0));
  CHECK(cudaHostGetDevicePointer((void**)&d10, h + 10, 0));
  EXPECT(same_pointer ? d == h : d != h);
  EXPECT(d10 == d + 10);
  // A kernel reads and writes it through the device pointer: h[i] = 3i + 1 afterwards.
  triple_plus_one<<<2, 128>>>(d, n);
  CHECK(cudaDeviceSynchronize());
  for (int i = 0; i < n; ++i) EXPECT(h[i] == 3 * i + 1);
  // The host's write reaches the next kernel.
  h[5] = 100;
  int* out = nullptr;
  CHECK(cudaMalloc(&out, sizeof(int)));
  copy_one<<<1, 1>>>(d + 5, out);
  int got = 0;
  CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT(got == 100);
  // Copies through either pointer: device pointer as a device source, host pointer as a host source.
  CHECK(cudaMemcpy(&got, d + 7, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT(got == 22);
  CHECK(cudaMemcpy(out, h + 8, sizeof(int), cudaMemcpyDefault));
  CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT(got == 25);
  CHECK(cudaMemset(d + 9, 0, sizeof(int)));  // through the device pointer: the host sees it
  EXPECT(h[9] == 0);
  cudaPointerAttributes attr;
  CHECK(cudaPointerGetAttributes(&attr, h));
  EXPECT(attr.type == cudaMemoryTypeHost && attr.devicePointer == d && attr.hostPointer == h);
  std::printf("registered memory: kernels read and write it\n");

  // Errors: the range (or part of it) registered already; null pointer or zero size; flags that are none of
  // cudaHostRegister's; unregistering memory never registered, or inside a registered range but not its base; a
  // device pointer for it once unregistered.
  int* other = static_cast<int*>(std::malloc(64 * sizeof(int)));
  EXPECT(cudaHostRegister(h, n * sizeof(int), 0) == cudaErrorHostMemoryAlreadyRegistered);
  EXPECT(cudaHostRegister(h + 100, 16, 0) == cudaErrorHostMemoryAlreadyRegistered);
  EXPECT(cudaHostRegister(nullptr, 16, 0) == cudaErrorInvalidValue);
  EXPECT(cudaHostRegister(other, 0, 0) == cudaErrorInvalidValue);
  EXPECT(cudaHostRegister(other, 16, 0x100) == cudaErrorInvalidValue);
  EXPECT(cudaHostUnregister(other) == cudaErrorHostMemoryNotRegistered);
  EXPECT(cudaHostUnregister(h + 1) == cudaErrorInvalidValue);  // measured on an H200 (tests/hardware/h200/exec.txt)
  CHECK(cudaHostUnregister(h));
  EXPECT(cudaHostUnregister(h) == cudaErrorHostMemoryNotRegistered);
  void* gone = nullptr;
  EXPECT(cudaHostGetDevicePointer(&gone, h, 0) == cudaErrorInvalidValue);
  // Portable and mapped: registered again (its old bytes stay the host's), kernels reach it again.
  CHECK(cudaHostRegister(h, n * sizeof(int), cudaHostRegisterPortable | cudaHostRegisterMapped));
  CHECK(cudaHostGetDevicePointer((void**)&d, h, 0));
  triple_plus_one<<<1, 4>>>(d, 4);  // h[0..3] were 1, 4, 7, 10
  CHECK(cudaDeviceSynchronize());
  EXPECT(h[0] == 4 && h[1] == 13 && h[2] == 22 && h[3] == 31 && h[4] == 13);
  CHECK(cudaHostUnregister(h));
  cudaGetLastError();  // (the error cases above set it)
  std::printf("registered errors: as documented\n");

  // Read-only: kernels read it (0 + 1 + ... + 63 = 2016); a store faults and the host's bytes stay.
  for (int i = 0; i < 64; ++i) other[i] = i;
  CHECK(cudaHostRegister(other, 64 * sizeof(int), cudaHostRegisterReadOnly));
  int* ro = nullptr;
  CHECK(cudaHostGetDevicePointer((void**)&ro, other, 0));
  sum<<<1, 1>>>(ro, 64, out);
  CHECK(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
  other[0] = 7;
  store<<<1, 1>>>(ro);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("registered read-only: read %d, store %s, host still %d\n", got, cudaGetErrorName(e), other[0]);
  return 0;
}
