// expect: race-free  launch: --blockDim=64 --gridDim=1
// Accesses of different sizes side by side: thread 0's 16-byte store of tile[1] (bytes 16-31) and the 4-byte
// floats every thread reads at offsets 0-12 do not overlap.
__global__ void mixed_sizes(float* out) {
  __shared__ float4 tile[64];
  if (threadIdx.x == 0) tile[1] = make_float4(1, 2, 3, 4);
  out[threadIdx.x] = reinterpret_cast<float*>(tile)[threadIdx.x & 3];
}
