// expect: race  launch: --blockDim=64 --gridDim=2
// Both warps of a CTA stage one shared tile and load it with wmma.load after only __syncwarp, which orders a warp's
// own lanes: warp 1's lanes write elements warp 0 loads with no CTA barrier between (ISA 8.7.1); and both warps
// store their product to the same tile of C.
#include <mma.h>
using namespace nvcuda;
__global__ void shared_tile(const half* a, const half* b, float* c) {
  __shared__ half sa[256], sb[256];
  for (unsigned i = threadIdx.x; i < 256; i += blockDim.x) {
    sa[i] = a[blockIdx.x * 256 + i];
    sb[i] = b[blockIdx.x * 256 + i];
  }
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::fill_fragment(fc, 0.0f);
  wmma::load_matrix_sync(fa, sa, 16);
  wmma::load_matrix_sync(fb, sb, 16);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c + blockIdx.x * 256, fc, 16, wmma::mem_row_major);
}
