// expect: unknown  launch: --blockDim=64 --gridDim=2
// Warp-aggregated append over the active lanes: the leader (lowest lane of __activemask()) reserves room for all
// of them with one atomicAdd and broadcasts the base; each lane writes at base + its rank among the active lanes.
// Race free (the atomic gives each warp a disjoint range, ISA 8.10 Atomicity). The symbolic engine does not model
// activemask (which lanes run together is up to the scheduler), so the pair of writes it finds depends on a value
// it does not model: a possible race, not a race, which the replay does not show.
__global__ void k(const int* in, int* out, int* count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && in[i] > 0) {
    unsigned mask = __activemask();
    int lane = threadIdx.x % 32;
    int leader = __ffs(mask) - 1;
    int base = 0;
    if (lane == leader) base = atomicAdd(count, __popc(mask));
    base = __shfl_sync(mask, base, leader);
    int rank = __popc(mask & ((1u << lane) - 1));
    out[base + rank] = in[i];
  }
}
