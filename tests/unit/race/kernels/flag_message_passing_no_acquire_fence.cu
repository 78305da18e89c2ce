// expect: race  launch: --blockDim=32 --gridDim=2  options: --assume='arg2[*] == 0'
// flag_message_passing_assumed.cu without the reader's fence: a volatile read followed by no acquire fence is no
// acquire pattern (ISA 8.8), so nothing orders the read of data after the write. The replay with zeroed buffers
// (which satisfy the assumption) shows it.
__global__ void k(int* data, volatile int* flag, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) { data[0] = 42; __threadfence(); *flag = 1; }
  if (blockIdx.x == 1 && threadIdx.x == 0) { while (*flag != 1) {} out[0] = data[0]; }
}
