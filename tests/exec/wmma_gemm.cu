// nvcc: -arch=sm_80
// exec-flags: --racecheck
// expect-exit: 0
// expect-stdout: wmma f16: 0 wrong
// expect-stdout: wmma s8: 0 wrong
// expect-stderr: racecheck: 2 launches, 0 distinct races, 0 barrier divergences
// nvcuda::wmma as nvcc lowers it (wmma.load / wmma.mma / wmma.store, ISA 9.7.14.4): a 32x32 = 32x16 * 16x32 product,
// one warp a 16x16 tile, A row-major and B column-major, C filled with 1 then every fragment element doubled
// (uniform per-register arithmetic, which 9.7.14.4.1 allows), stored to shared memory and copied out after
// __syncwarp; the same in .s8 with an .s32 accumulator. Small integers: every result is exact.
#include <mma.h>
#include <cstdio>
#include <cuda_fp16.h>
using namespace nvcuda;

template <class In, class Acc>
__global__ void gemm(const In* a, const In* b, Acc* c) {
  __shared__ Acc tile[4][256];
  int w = threadIdx.x / 32, tm = w / 2, tn = w % 2;
  wmma::fragment<wmma::matrix_a, 16, 16, 16, In, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, In, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, Acc> fc;
  wmma::fill_fragment(fc, Acc(1));
  wmma::load_matrix_sync(fa, a + tm * 16 * 16, 16);
  wmma::load_matrix_sync(fb, b + tn * 16 * 16, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  for (int i = 0; i < fc.num_elements; ++i) fc.x[i] *= Acc(2);
  wmma::store_matrix_sync(tile[w], fc, 16, wmma::mem_row_major);
  __syncwarp();
  for (int i = threadIdx.x % 32; i < 256; i += 32) c[(tm * 16 + i / 16) * 32 + tn * 16 + i % 16] = tile[w][i];
}

template <class In, class Acc>
int run(const char* name, In (*convert)(float)) {
  In *a, *b;
  Acc* c;
  cudaMallocManaged(&a, 32 * 16 * sizeof(In));
  cudaMallocManaged(&b, 32 * 16 * sizeof(In));
  cudaMallocManaged(&c, 32 * 32 * sizeof(Acc));
  float A[32][16], B[16][32];
  for (int i = 0; i < 32; ++i)
    for (int k = 0; k < 16; ++k) A[i][k] = (i * 3 + k) % 7 - 3, a[i * 16 + k] = convert(A[i][k]);
  for (int k = 0; k < 16; ++k)
    for (int j = 0; j < 32; ++j) B[k][j] = (k * 5 + j) % 5 - 2, b[j * 16 + k] = convert(B[k][j]);
  gemm<In, Acc><<<1, 128>>>(a, b, c);
  cudaDeviceSynchronize();
  int bad = 0;
  for (int i = 0; i < 32; ++i)
    for (int j = 0; j < 32; ++j) {
      float s = 1;
      for (int k = 0; k < 16; ++k) s += A[i][k] * B[k][j];
      if (float(c[i * 32 + j]) != 2 * s && bad++ < 5) printf("c[%d][%d] = %g, expected %g\n", i, j, float(c[i * 32 + j]), 2 * s);
    }
  printf("wmma %s: %d wrong\n", name, bad);
  return bad;
}

half to_half(float x) { return __float2half(x); }
signed char to_s8(float x) { return static_cast<signed char>(x); }

int main() { return run<half, float>("f16", to_half) + run<signed char, int>("s8", to_s8) != 0; }
