// expect: race-free  launch: --blockDim=16,8 --gridDim=2
// A 16x8 block: warps are 32 consecutive linear thread ids (ISA 2.2), two rows each. Every lane takes the lane id
// of the next lane in its warp (shfl.sync.idx with a computed source) and writes that slot: a rotation.
__global__ void k(int* out) {
  int linear = threadIdx.y * blockDim.x + threadIdx.x;
  int lane = linear % 32;
  int warp = (blockIdx.x * blockDim.x * blockDim.y + linear) / 32;
  int next = __shfl_sync(0xffffffffu, lane, (lane + 1) % 32);
  out[warp * 32 + next] = lane;
}
