// expect: race 4 9   (no fence on the reader's side: the atomic read alone forms no acquire pattern)
__global__ void k(int* data, int* flag, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    atomicExch(flag, 1);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {}
    out[0] = data[0];
  }
}
