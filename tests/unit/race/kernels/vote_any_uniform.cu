// expect: race-free  launch: --blockDim=128 --gridDim=4
// __any_sync gives every lane of the warp one result (ISA 9.7.13.9): either lane 0 writes the warp's slot or lane
// 1 does, never both.
__global__ void k(const int* in, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int lane = threadIdx.x % 32;
  if (__any_sync(0xffffffffu, in[i] > 0)) {
    if (lane == 0) out[i / 32] = 1;
  } else if (lane == 1) {
    out[i / 32] = 2;
  }
}
