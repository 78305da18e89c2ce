// nvcc: -arch=sm_80
// expect-exit: 0
// expect-stdout: mma_f16: PASS
// mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 (ISA 9.7.14.5.14) with every fragment placed as the ISA's
// m16n8k16 layouts for .f16 say (9.7.14.5.8): groupID = lane >> 2, threadID_in_group = lane % 4; A element i
// at row groupID (+8 for i = 2, 3, 6, 7), column 2 * threadID_in_group + (i & 1) (+8 for i >= 4); B element i
// at row 2 * threadID_in_group + (i & 1) (+8 for i >= 2), column groupID; C/D element i at row groupID (+8 for
// i >= 2), column 2 * threadID_in_group + (i & 1). Integer-valued data: D = A * B + C is exact in f16.
#include <cuda_fp16.h>

#include <cstdio>

__global__ void mma16816(const __half* a, const __half* b, const __half* c, __half* d) {  // a 16x16, b 16x8, c/d 16x8
  const int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  unsigned ra[4], rb[2], rc[2], rd[2];
  __half fa[8], fb[4], fc[4];
  for (int i = 0; i < 8; ++i) fa[i] = a[(g + ((i & 2) ? 8 : 0)) * 16 + 2 * t + (i & 1) + (i >= 4 ? 8 : 0)];
  for (int i = 0; i < 4; ++i) fb[i] = b[(2 * t + (i & 1) + (i >= 2 ? 8 : 0)) * 8 + g];
  for (int i = 0; i < 4; ++i) fc[i] = c[(g + (i >= 2 ? 8 : 0)) * 8 + 2 * t + (i & 1)];
  for (int r = 0; r < 4; ++r) ra[r] = __half_as_ushort(fa[2 * r]) | unsigned(__half_as_ushort(fa[2 * r + 1])) << 16;
  for (int r = 0; r < 2; ++r) rb[r] = __half_as_ushort(fb[2 * r]) | unsigned(__half_as_ushort(fb[2 * r + 1])) << 16;
  for (int r = 0; r < 2; ++r) rc[r] = __half_as_ushort(fc[2 * r]) | unsigned(__half_as_ushort(fc[2 * r + 1])) << 16;
  asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0, %1}, {%2, %3, %4, %5}, {%6, %7}, {%8, %9};"
               : "=r"(rd[0]), "=r"(rd[1])
               : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]), "r"(rc[0]), "r"(rc[1]));
  for (int i = 0; i < 4; ++i) d[(g + (i >= 2 ? 8 : 0)) * 8 + 2 * t + (i & 1)] = __ushort_as_half((unsigned short)(rd[i / 2] >> (16 * (i & 1))));
}

int main() {
  float fa[16 * 16], fb[16 * 8], fc[16 * 8];
  __half ha[16 * 16], hb[16 * 8], hc[16 * 8], hd[16 * 8];
  for (int i = 0; i < 256; ++i) ha[i] = __float2half(fa[i] = float((i * 7 + 2) % 5 - 2));
  for (int i = 0; i < 128; ++i) hb[i] = __float2half(fb[i] = float((i * 3 + 1) % 5 - 2));
  for (int i = 0; i < 128; ++i) hc[i] = __float2half(fc[i] = float(i % 7 - 3));
  __half *a, *b, *c, *d;
  cudaMalloc(&a, sizeof ha); cudaMalloc(&b, sizeof hb); cudaMalloc(&c, sizeof hc); cudaMalloc(&d, sizeof hd);
  cudaMemcpy(a, ha, sizeof ha, cudaMemcpyHostToDevice);
  cudaMemcpy(b, hb, sizeof hb, cudaMemcpyHostToDevice);
  cudaMemcpy(c, hc, sizeof hc, cudaMemcpyHostToDevice);
  mma16816<<<1, 32>>>(a, b, c, d);
  cudaError_t e = cudaMemcpy(hd, d, sizeof hd, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int r = 0; r < 16; ++r)
    for (int n = 0; n < 8; ++n) {
      float expect = fc[r * 8 + n];
      for (int k = 0; k < 16; ++k) expect += fa[r * 16 + k] * fb[k * 8 + n];
      const float got = __half2float(hd[r * 8 + n]);
      if (got != expect && wrong++ < 4) std::printf("D(%d,%d) = %g, expected %g\n", r, n, got, expect);
    }
  std::printf("mma_f16: %s (%s)\n", e == cudaSuccess && !wrong ? "PASS" : "FAIL", cudaGetErrorString(e));
  return wrong || e != cudaSuccess;
}
