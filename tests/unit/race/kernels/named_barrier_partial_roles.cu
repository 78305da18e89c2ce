// expect: race  launch: --blockDim=96 --gridDim=1
// Warp 0 writes and arrives at barrier 1, warp 1 waits there and reads, and warp 2 passes no operation on it: with
// the count 96 the barrier waits for arrivals that never come, and the engine does not take it as an ordering
// (named_barriers.hpp). Warp 2 reads the buffer with no barrier at all: a race with warp 0's write.
__global__ void k(int* out) {
  __shared__ int s[32];
  if (threadIdx.x < 32) {
    s[threadIdx.x] = threadIdx.x;
    asm volatile("bar.arrive 1, 96;" ::: "memory");
  } else if (threadIdx.x < 64) {
    asm volatile("bar.sync 1, 96;" ::: "memory");
    out[threadIdx.x] = s[threadIdx.x - 32];
  } else {
    out[threadIdx.x] = s[threadIdx.x - 64];
  }
}
