// expect: race  launch: --blockDim=128 --gridDim=4
// ballot_compaction.cu with every lane writing, kept or not: a lane whose element is not kept has the rank of the
// next kept lane above it (its own bit is not in the ballot), and both write that slot.
__global__ void k(const int* in, int* out, int* count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool keep = in[i] > 0;
  unsigned ballot = __ballot_sync(0xffffffffu, keep);
  int lane = threadIdx.x % 32;
  int start = 0;
  if (lane == 0) start = atomicAdd(count, __popc(ballot));
  start = __shfl_sync(0xffffffffu, start, 0);
  out[start + __popc(ballot & ((1u << lane) - 1))] = keep ? in[i] : 0;
}
