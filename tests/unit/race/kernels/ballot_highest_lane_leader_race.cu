// expect: race  launch: --blockDim=32 --gridDim=1
// As ballot_highest_lane_leader, but lanes 28-31 write s[24..27]: lane 31 writes s[27], which the voters read.
__global__ void k(int* out) {
  __shared__ int s[32];
  const bool voter = threadIdx.x < 28;
  const unsigned ballot = __ballot_sync(0xffffffffu, voter);
  if (voter) {
    const int leader = 31 - __clz(ballot);
    const int v = __shfl_sync(ballot, (int)threadIdx.x, leader);
    out[threadIdx.x] = s[v];
  }
  if (threadIdx.x >= 28) s[threadIdx.x - 4] = 1;
}
