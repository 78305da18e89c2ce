// expect: race-free  launch: --blockDim=128 --gridDim=4
// Stream compaction by ballot: lane 0 of each warp reserves one slot per kept element (atomicAdd of the ballot's
// population count) and broadcasts the start; a kept lane writes at start + the number of kept lanes below it
// (ISA 9.7.13.9 vote.ballot, 9.7.1.14 popc). The lane's own bit is in the ballot and in no lower lane's mask, so
// the slots of a warp are distinct and below start + popc(ballot), and two warps' ranges are disjoint (ISA 8.10).
__global__ void k(const int* in, int* out, int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool keep = in[i] > 0;
  unsigned ballot = __ballot_sync(0xffffffffu, keep);
  int lane = threadIdx.x % 32;
  int start = 0;
  if (lane == 0) start = atomicAdd(count, __popc(ballot));
  start = __shfl_sync(0xffffffffu, start, 0);
  if (keep) out[start + __popc(ballot & ((1u << lane) - 1))] = in[i];
}
