// expect: race  launch: --blockDim=32 --gridDim=2  options: --assume='arg2[*] == 0'
// The writer sets the flag before it writes data: a release pattern orders only what precedes it (ISA 8.8).
__global__ void k(int* data, volatile int* flag, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) { __threadfence(); *flag = 1; data[0] = 42; }
  if (blockIdx.x == 1 && threadIdx.x == 0) { while (*flag != 1) {} __threadfence(); out[0] = data[0]; }
}
