// expect: race-free  launch: --blockDim=64 --gridDim=2
// Each warp stages its own 16x16 tiles of A and B in shared memory, orders the staging before its wmma.load with
// __syncwarp (bar.warp.sync: every lane of the warp takes part, ISA 9.7.13.2), multiplies, and stores its own tile of
// C. The warps' tiles are disjoint, so no two warps touch one element (ISA 9.7.14.4: wmma.load/store are weak
// accesses of the whole matrix by the warp's lanes together).
#include <mma.h>
using namespace nvcuda;
__global__ void warp_tiles(const half* a, const half* b, float* c) {
  __shared__ half sa[2][256], sb[2][256];
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32, tile = blockIdx.x * 2 + warp;
  for (unsigned i = lane; i < 256; i += 32) {
    sa[warp][i] = a[tile * 256 + i];
    sb[warp][i] = b[tile * 256 + i];
  }
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, sa[warp], 16);
  wmma::load_matrix_sync(fb, sb[warp], 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c + tile * 256, fc, 16, wmma::mem_row_major);
}
