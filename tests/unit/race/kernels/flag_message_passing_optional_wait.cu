// expect: race  launch: --blockDim=32 --gridDim=2  options: --assume='arg2[*] == 0'
// The reader waits for the flag only when c is set: on the other path it reaches its read of data without reading
// the flag at all, so the flag orders nothing there and the read races with the write (found in review: the rule
// must ask that the reader ran its flag read, not only that a run through it waits for the writer's value).
__global__ void k(int* data, volatile int* flag, int* out, int c) {
  if (blockIdx.x == 0 && threadIdx.x == 0) { data[0] = 42; __threadfence(); *flag = 1; }
  if (blockIdx.x == 1 && threadIdx.x == 0) {
    if (c) { while (*flag != 1) {} }
    __threadfence();
    out[0] = data[0];
  }
}
