// expect: race-free  launch: --blockDim=32 --gridDim=1
// The lanes below 28 vote; the highest one in the ballot (lane 27) broadcasts its id, and they read s[27], while
// lanes 28-31 write s[0..3]. Every lane's bit of the ballot is that lane's predicate (ISA 9.7.13.9), so the
// leader is lane 27 and the reads never meet the writes (with only the thread's own bit known, the leader could
// have been any lane, and the pair a definite race).
__global__ void k(int* out) {
  __shared__ int s[32];
  const bool voter = threadIdx.x < 28;
  const unsigned ballot = __ballot_sync(0xffffffffu, voter);
  if (voter) {
    const int leader = 31 - __clz(ballot);
    const int v = __shfl_sync(ballot, (int)threadIdx.x, leader);
    out[threadIdx.x] = s[v];
  }
  if (threadIdx.x >= 28) s[threadIdx.x - 28] = 1;
}
