// expect: race  launch: --blockDim=64 --gridDim=1
// Accesses of different sizes overlap partly: thread 0's 16-byte store of tile[0] covers the 4-byte floats that
// threads 1-3 read at offsets 4, 8 and 12 (ISA 8.7.1: overlapping, not only equal, addresses conflict).
__global__ void mixed_sizes(float* out) {
  __shared__ float4 tile[64];
  if (threadIdx.x == 0) tile[0] = make_float4(1, 2, 3, 4);
  out[threadIdx.x] = reinterpret_cast<float*>(tile)[threadIdx.x];
}
