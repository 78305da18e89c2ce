// expect: unknown  launch: --blockDim=32 --gridDim=1
// Lanes 0-15 arrive at barrier 1 and lanes 16-31 wait there: the lanes of one warp take different aligned barrier
// instructions, which is undefined (ISA 9.7.13.1). The engine takes the barrier as no ordering (a note says why),
// so the pair stays a possible race.
__global__ void k(int* out) {
  __shared__ int s[16];
  if (threadIdx.x < 16) {
    s[threadIdx.x] = threadIdx.x;
    asm volatile("bar.arrive 1, 32;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 32;" ::: "memory");
    out[threadIdx.x] = s[threadIdx.x - 16];
  }
}
