// expect: race-free  launch: --blockDim=128 --gridDim=2  options: --assume='arg3 >= 1 && arg3 <= 64'
// A tile loop with a symbolic trip count: nvcc unrolls it by 4 and peels the remainder, and the unrolled loop's
// exit test becomes `k + (tiles & 3) - tiles != 0`, which the simplifier rearranges so that neither side is the
// counter alone. Its bound is still the counter minus the difference of the two sides (encode.cpp test_facts);
// without that fact the iteration count was unbounded and CTA 1's stores wrapped around onto CTA 0's (a false race).
__global__ void tiles_out(const float* in, float* out, int tiles) {
  __shared__ float buf[2][128];
  int t = threadIdx.x;
  buf[0][t] = in[blockIdx.x * tiles * 128 + t];
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles) buf[(k + 1) & 1][t] = in[(blockIdx.x * tiles + k + 1) * 128 + t];
    __syncthreads();
    out[(blockIdx.x * tiles + k) * 128 + t] = buf[k & 1][(t + 1) % 128];
    __syncthreads();
  }
}
