// nvcc: -arch=sm_90a
// expect-exit: 0
// expect-stdout: tma_im2col: PASS
// A TMA im2col load as a convolution kernel issues it: the host encodes a 4D NHWC tensor map with
// cuTensorMapEncodeIm2col (through cudaGetDriverEntryPointByVersion), with the bounding box of a 3 x 3 filter and
// padding 1 (corners -1, -1: filter bases W in [-1, W - 2], H in [-1, H - 2]); one thread loads a column of 16
// pixels of 8 channels from filter base (-1, -1) with im2col offsets (2, 0) (ISA 5.5.4, 9.7.9.25.5.2). Pixel p's
// base steps through the box W first: (-1 + p mod 5, -1 + p / 5); the element read is base + offsets, zeros where
// that falls outside the image (ISA 5.5.4.3, 5.5.3.3).
#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstdio>

constexpr int C = 8, W = 5, H = 4, PIXELS = 16;

__global__ void im2col_load(const __grid_constant__ CUtensorMap map, float* out) {
  __shared__ alignas(128) float column[PIXELS][C];
  __shared__ alignas(8) unsigned long long bar;
  const unsigned bar_addr = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  const unsigned column_addr = static_cast<unsigned>(__cvta_generic_to_shared(column));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_addr));
    asm volatile("fence.proxy.async.shared::cta;");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    const unsigned short off_w = 2, off_h = 0;
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_addr), "r"(PIXELS * C * 4) : "memory");
    asm volatile(
        "cp.async.bulk.tensor.4d.shared::cluster.global.im2col.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3, %4, %5}], [%6], {%7, %8};"
        ::"r"(column_addr), "l"(&map), "r"(0), "r"(-1), "r"(-1), "r"(0), "r"(bar_addr), "h"(off_w), "h"(off_h) : "memory");
  }
  asm volatile(
      "{\n .reg .pred done;\n"
      "wait_%=:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n @!done bra wait_%=;\n}" ::"r"(bar_addr) : "memory");
  for (int i = threadIdx.x; i < PIXELS * C; i += blockDim.x) out[i] = column[i / C][i % C];
}

int main() {
  float host[H][W][C], *tensor, *out, got[PIXELS * C];
  for (int h = 0; h < H; ++h)
    for (int w = 0; w < W; ++w)
      for (int c = 0; c < C; ++c) host[h][w][c] = float(100 * h + 10 * w + c);
  cudaMalloc(&tensor, sizeof host);
  cudaMalloc(&out, sizeof got);
  cudaMemcpy(tensor, host, sizeof host, cudaMemcpyHostToDevice);

  PFN_cuTensorMapEncodeIm2col_v12000 encode = nullptr;
  cudaDriverEntryPointQueryResult status;
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeIm2col", reinterpret_cast<void**>(&encode), 12000, cudaEnableDefault, &status) != cudaSuccess) {
    std::printf("tma_im2col: FAIL no cuTensorMapEncodeIm2col\n");
    return 1;
  }
  CUtensorMap map;
  const cuuint64_t dims[4] = {C, W, H, 1}, strides[3] = {C * sizeof(float), W * C * sizeof(float), H * W * C * sizeof(float)};
  const int lower[2] = {-1, -1}, upper[2] = {-1, -1};
  const cuuint32_t elem[4] = {1, 1, 1, 1};
  CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 4, tensor, dims, strides, lower, upper, C, PIXELS, elem, CU_TENSOR_MAP_INTERLEAVE_NONE,
                      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) { std::printf("tma_im2col: FAIL encode %d\n", int(r)); return 1; }
  im2col_load<<<1, 64>>>(map, out);
  cudaError_t e = cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int p = 0; p < PIXELS; ++p)
    for (int c = 0; c < C; ++c) {
      const int w = -1 + p % 5 + 2, h = -1 + p / 5;  // the base (5 positions a row: [-1, 3]) plus the offsets
      const float expect = w >= 0 && w < W && h >= 0 && h < H ? host[h][w][c] : 0.0f;
      if (got[p * C + c] != expect && wrong++ < 4) std::printf("pixel %d channel %d: %g, expected %g\n", p, c, got[p * C + c], expect);
    }
  std::printf("tma_im2col: %s (%s)\n", e == cudaSuccess && !wrong ? "PASS" : "FAIL", cudaGetErrorString(e));
  return wrong || e != cudaSuccess;
}
