// expect: unknown  launch: --blockDim=32 --gridDim=1
// One warp stores its accumulator tile to shared memory with wmma.store and its lanes read the tile back without
// __syncwarp. Which lane wrote which element is unspecified (ISA 9.7.14.4.1): a lane may read an element another
// lane stored, unordered under independent thread scheduling, or only its own. The race is possible, not definite.
#include <mma.h>
using namespace nvcuda;
__global__ void store_then_read(const half* a, const half* b, float* c) {
  __shared__ float tile[256];
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(tile, fc, 16, wmma::mem_row_major);
  float sum = 0;
  for (unsigned i = 0; i < 8; ++i) sum += tile[threadIdx.x * 8 + i];
  c[threadIdx.x] = sum;
}
