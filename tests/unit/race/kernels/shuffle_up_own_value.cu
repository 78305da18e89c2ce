// expect: race  launch: --blockDim=64 --gridDim=4
// shfl.sync.up by 1: lane 0 has no source lane and keeps its own value (ISA 9.7.9.6), 0, which is also what lane
// 1 receives from lane 0: both write slot 0 of the warp.
__global__ void k(int* out) {
  int lane = threadIdx.x % 32;
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int slot = __shfl_up_sync(0xffffffffu, lane, 1);
  out[warp * 32 + slot] = lane;
}
