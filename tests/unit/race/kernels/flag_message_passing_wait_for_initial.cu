// expect: race  launch: --blockDim=32 --gridDim=2  options: --assume='arg2[*] == 0'
// The reader waits for the flag to differ from 1, which its initial 0 already does: it need not read the writer's
// value, and nothing orders its read of data after the write (the flag rule sees that the initial content gives it).
__global__ void k(int* data, volatile int* flag, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) { data[0] = 42; __threadfence(); *flag = 1; }
  if (blockIdx.x == 1 && threadIdx.x == 0) { while (*flag == 1) {} __threadfence(); out[0] = data[0]; }
}
