// expect: unknown  launch: --blockDim=64 --gridDim=1
// Producer warp 0 arrives at barrier 1 in every iteration, consumer warp 1 waits there in every iteration: the
// barrier has a phase per iteration, which the symbolic engine does not count (named_barriers.hpp): its operations
// stay possible orderings, and the pair a possible race, which the replay does not show.
__global__ void k(int* out, int n) {
  __shared__ int s[32];
  for (int i = 0; i < n; ++i) {
    if (threadIdx.x < 32) {
      s[threadIdx.x] = i;
      asm volatile("bar.arrive 1, 64;" ::: "memory");
      asm volatile("bar.sync 2, 64;" ::: "memory");
    } else {
      asm volatile("bar.sync 1, 64;" ::: "memory");
      out[i * 32 + threadIdx.x - 32] = s[threadIdx.x - 32];
      asm volatile("bar.arrive 2, 64;" ::: "memory");
    }
  }
}
