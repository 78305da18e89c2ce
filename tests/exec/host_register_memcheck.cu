// exec-flags: --memcheck --devices 2
// expect-exit: 0
// expect-stdout: after unregister: cudaSuccess
// expect-stdout: past the range: cudaErrorIllegalAddress
// expect-stdout: other device reads: 120
// expect-stdout: read-only store: cudaErrorIllegalAddress
// expect-stderr: memcheck: access to freed memory: 4 bytes at cudaHostRegister #1+0
// expect-stderr: host_register_memcheck.cu:22
// expect-stderr: out-of-bounds load of 4 bytes
// expect-stderr: CUDA line 22
// expect-stderr: illegal store of 4 bytes
// expect-stderr: to read-only memory 'cudaHostRegister #3'
// expect-stderr-not: memcheck: access to device
// expect-stderr: 1 accesses to freed memory, 0 accesses to another device's memory without peer access
// --memcheck and registered host memory: a kernel using the device pointer of a range after cudaHostUnregister
// uses freed memory; an access one past the registered bytes is out of bounds (a fault in every mode, device 0's
// error); registered memory is every device's ("portable": no peer access needed from device 1); a store to
// cudaHostRegisterReadOnly memory faults (device 1's error: a fault is sticky for its own device only).
#include <cstdio>

__global__ void read_at(const int* p, int i, int* out) {
  *out = p[i];
}
__global__ void sum16(const int* p, int* out) {
  int s = 0;
  for (int i = 0; i < 16; ++i) s += p[i];
  *out = s;
}
__global__ void store(int* p) { *p = 1; }

int main() {
  static int a[16], b[16], c[16];
  for (int i = 0; i < 16; ++i) a[i] = 5, b[i] = i, c[i] = i;  // b sums to 120
  int *da, *db, *dc, *out0, *out1, got = 0;
  cudaMalloc(&out0, sizeof(int));
  cudaHostRegister(a, sizeof a, 0);
  cudaHostGetDevicePointer((void**)&da, a, 0);
  cudaHostUnregister(a);
  read_at<<<1, 1>>>(da, 0, out0);  // (what it reads is undefined; memcheck reports the access, no fault)
  std::printf("after unregister: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaHostRegister(b, sizeof b, cudaHostRegisterPortable);
  cudaHostGetDevicePointer((void**)&db, b, 0);
  cudaHostRegister(c, sizeof c, cudaHostRegisterReadOnly);
  cudaHostGetDevicePointer((void**)&dc, c, 0);
  read_at<<<1, 1>>>(db, 16, out0);
  std::printf("past the range: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaSetDevice(1);
  cudaMalloc(&out1, sizeof(int));
  sum16<<<1, 1>>>(db, out1);
  cudaMemcpy(&got, out1, sizeof got, cudaMemcpyDeviceToHost);
  std::printf("other device reads: %d\n", got);
  store<<<1, 1>>>(dc);
  std::printf("read-only store: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
