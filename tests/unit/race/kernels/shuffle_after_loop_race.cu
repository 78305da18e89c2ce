// expect: race  launch: --blockDim=32 --gridDim=1
// Thread t reads row t + 1 (the lane a shuffle after the loop names) at column 0, which thread t + 1 writes in the
// loop's first iteration: a race, with no barrier between. The symbolic engine once answered race-free: the shuffle's
// lane view tied the writer's loop iteration to its value after the loop (its last iteration, at least 4), so the
// write of iteration 0 was never paired (encode.cpp lane_view: a value of a loop `via` is not in is not tied).
__global__ void k(int* out, unsigned n) {
  __shared__ int s[32 * 64];
  unsigned t = threadIdx.x;
  #pragma unroll 1
  for (unsigned i = 0; i < (n & 31) + 4; ++i) s[t * 64 + i] = i;
  int v = __shfl_sync(~0u, (int)t, (t + 1) & 31);
  out[t] = s[v * 64];
}
