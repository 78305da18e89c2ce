// expect: race-free  launch: --blockDim=64 --gridDim=4
// Each lane writes the slot of its butterfly partner (lane ^ 1, ISA 9.7.9.6 shfl.sync.bfly): a permutation of the
// warp's slots.
__global__ void k(int* out) {
  int lane = threadIdx.x % 32;
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int partner = __shfl_xor_sync(0xffffffffu, lane, 1);
  out[warp * 32 + partner] = lane;
}
