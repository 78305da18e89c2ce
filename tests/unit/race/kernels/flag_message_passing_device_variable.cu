// expect: race-free  launch: --blockDim=32 --gridDim=2  options: --assume='flag == 0'
// flag_message_passing_assumed.cu with the flag a __device__ variable, clear at launch (--assume names module
// variables as PTX does): the one writer's release pattern synchronizes with the reader's acquire pattern (ISA 8.8,
// 8.9.4 item 4), so the write of data precedes the read (flags.hpp).
__device__ volatile int flag;
__global__ void k(int* data, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) { data[0] = 42; __threadfence(); flag = 1; }
  if (blockIdx.x == 1 && threadIdx.x == 0) { while (flag != 1) {} __threadfence(); out[0] = data[0]; }
}
