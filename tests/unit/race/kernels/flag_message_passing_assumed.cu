// expect: race-free  launch: --blockDim=32 --gridDim=2  options: --assume='arg2[*] == 0'
// flag_message_passing.cu with the flag clear at launch (--assume): CTA 1 passes its loop only with the 1 that CTA
// 0's thread 0 wrote after its fence (the only write of the flag, one writer), so that release pattern synchronizes
// with CTA 1's acquire pattern (ISA 8.8, 8.9.4 item 4) and the write of data precedes the read (flags.hpp).
__global__ void k(int* data, volatile int* flag, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) { data[0] = 42; __threadfence(); *flag = 1; }
  if (blockIdx.x == 1 && threadIdx.x == 0) { while (*flag != 1) {} __threadfence(); out[0] = data[0]; }
}
