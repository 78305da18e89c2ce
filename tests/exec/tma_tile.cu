// nvcc: -arch=sm_90a
// expect-exit: 0
// expect-stdout: tma_tile: PASS
// A TMA tile load as a Hopper kernel writes it: the host encodes a 2D tensor map with cuTensorMapEncodeTiled
// (obtained through cudaGetDriverEntryPointByVersion, as CUTLASS does), passes it as a __grid_constant__ kernel
// parameter, and one thread issues cp.async.bulk.tensor.2d completing on an mbarrier (ISA 9.7.9.25.5.2,
// 9.7.13.15); every thread waits on the phase, then copies the tile out. The box reaches past the tensor's edge:
// those elements arrive as zeros (ISA 5.5.3.3).
#include <cuda.h>
#include <cudaTypedefs.h>

#include <cstdio>

constexpr int W = 20, H = 10, BX = 16, BY = 8;

__global__ void tile_load(const __grid_constant__ CUtensorMap map, float* out, int x0, int y0) {
  __shared__ alignas(128) float tile[BY][BX];
  __shared__ alignas(8) unsigned long long bar;
  const unsigned bar_addr = static_cast<unsigned>(__cvta_generic_to_shared(&bar));
  const unsigned tile_addr = static_cast<unsigned>(__cvta_generic_to_shared(tile));
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(bar_addr));
    asm volatile("fence.proxy.async.shared::cta;");
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(bar_addr), "r"(BX * BY * 4) : "memory");
    asm volatile("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1, {%2, %3}], [%4];"
                 ::"r"(tile_addr), "l"(&map), "r"(x0), "r"(y0), "r"(bar_addr) : "memory");
  }
  asm volatile(
      "{\n .reg .pred done;\n"
      "wait_%=:\n mbarrier.try_wait.parity.shared::cta.b64 done, [%0], 0;\n @!done bra wait_%=;\n}" ::"r"(bar_addr) : "memory");
  for (int i = threadIdx.x; i < BX * BY; i += blockDim.x) out[i] = tile[i / BX][i % BX];
}

int main() {
  float host[H][W], *tensor, *out, got[BY * BX];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) host[y][x] = float(100 * y + x);
  cudaMalloc(&tensor, sizeof host);
  cudaMalloc(&out, sizeof got);
  cudaMemcpy(tensor, host, sizeof host, cudaMemcpyHostToDevice);

  PFN_cuTensorMapEncodeTiled_v12000 encode = nullptr;
  cudaDriverEntryPointQueryResult status;
  if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", reinterpret_cast<void**>(&encode), 12000, cudaEnableDefault, &status) != cudaSuccess) {
    std::printf("tma_tile: FAIL no cuTensorMapEncodeTiled\n");
    return 1;
  }
  CUtensorMap map;
  const cuuint64_t dims[2] = {W, H}, strides[1] = {W * sizeof(float)};
  const cuuint32_t box[2] = {BX, BY}, elem[2] = {1, 1};
  CUresult r = encode(&map, CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2, tensor, dims, strides, box, elem, CU_TENSOR_MAP_INTERLEAVE_NONE,
                      CU_TENSOR_MAP_SWIZZLE_NONE, CU_TENSOR_MAP_L2_PROMOTION_NONE, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) { std::printf("tma_tile: FAIL encode %d\n", int(r)); return 1; }
  const int x0 = 8, y0 = 4;
  tile_load<<<1, 64>>>(map, out, x0, y0);
  cudaError_t e = cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < BX * BY; ++i) {
    const int x = x0 + i % BX, y = y0 + i / BX;
    const float expect = x < W && y < H ? host[y][x] : 0.0f;
    if (got[i] != expect && wrong++ < 4) std::printf("element (%d,%d): %g, expected %g\n", x, y, got[i], expect);
  }
  std::printf("tma_tile: %s (%s)\n", e == cudaSuccess && !wrong ? "PASS" : "FAIL", cudaGetErrorString(e));
  return wrong || e != cudaSuccess;
}
