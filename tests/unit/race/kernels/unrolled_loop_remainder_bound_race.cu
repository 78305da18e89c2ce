// expect: race  launch: --blockDim=128 --gridDim=2  options: --assume='arg3 >= 1 && arg3 <= 64'
// unrolled_loop_remainder_bound.cu with the CTA left out of the output index: both CTAs write out[k * 128 + t].
__global__ void tiles_out(const float* in, float* out, int tiles) {
  __shared__ float buf[2][128];
  int t = threadIdx.x;
  buf[0][t] = in[blockIdx.x * tiles * 128 + t];
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles) buf[(k + 1) & 1][t] = in[(blockIdx.x * tiles + k + 1) * 128 + t];
    __syncthreads();
    out[k * 128 + t] = buf[k & 1][(t + 1) % 128];
    __syncthreads();
  }
}
