// expect: race-free  launch: --blockDim=32 --gridDim=2  options: --assume='arg2[0] == 0'
// flag_message_passing_assumed.cu with the assumption on the one element the reader reads (`*flag`).
__global__ void k(int* data, volatile int* flag, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) { data[0] = 42; __threadfence(); *flag = 1; }
  if (blockIdx.x == 1 && threadIdx.x == 0) { while (*flag != 1) {} __threadfence(); out[0] = data[0]; }
}
