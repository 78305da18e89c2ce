// expect: unknown  launch: --blockDim=32 --gridDim=2  options: --assume='arg2[*] == 0'
// Two threads write data and then the flag: the reader may have read thread 0's flag and not thread 1's, so the flag
// rule (one writer per location) does not apply and thread 1's write of data[1] stays a possible race with the read.
__global__ void k(int* data, volatile int* flag, int* out) {
  if (blockIdx.x == 0 && threadIdx.x < 2) { data[threadIdx.x] = 42; __threadfence(); *flag = 1; }
  if (blockIdx.x == 1 && threadIdx.x == 0) { while (*flag != 1) {} __threadfence(); out[0] = data[0] + data[1]; }
}
