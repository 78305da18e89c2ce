// expect: unknown  launch: --blockDim=32 --gridDim=2
// flag_message_passing_device_variable.cu without the assumption: at launch the __device__ flag may already hold
// the 1 its reader waits for (a previous launch may have left it set), so the reader may pass its loop before the
// write of data: a possible race, with a note naming the --assume that states the flag's initial content.
__device__ volatile int flag;
__global__ void k(int* data, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) { data[0] = 42; __threadfence(); flag = 1; }
  if (blockIdx.x == 1 && threadIdx.x == 0) { while (flag != 1) {} __threadfence(); out[0] = data[0]; }
}
