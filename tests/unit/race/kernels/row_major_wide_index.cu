// expect: race-free  launch: --blockDim=256 --gridDim=16  options: --assume='arg4 >= 1 && arg4 <= 65536'
// Row-major indexing in 64 bits, `(size_t)r * cols + c`: nvcc multiplies the sign-extended row and column count
// (mul.wide.s32) and shifts the sum left by 2, which Z3's simplifier writes as a concatenation with two zero bits.
// Two threads' elements differ by cols * (r1 - r2) + (c1 - c2), with c < cols: the factored difference
// (difference.hpp) with its 64-bit product facts decides it; the plain form was unknown (a 64-bit multiplier).
__global__ void scale_row(float* m, const float* s, int rows, int cols) {
  int r = blockIdx.x;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m[(size_t)r * cols + c] *= s[r];
}
