// expect: race-free   (ISA 8.8 release form 3 "fence; strong write" and acquire form 3 "strong read; fence")
__global__ void k(int* data, int* flag, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    atomicExch(flag, 1);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {}
    __threadfence();
    out[0] = data[0];
  }
}
