// expect: race-free  launch: --blockDim=256 --gridDim=2
// A four-stage pipeline as CUTLASS writes it: three stages in flight before the loop; in iteration k,
// wait_prior(2) completes every group but the two newest (ISA 9.7.9.25.3.3), so stage k has landed, and the
// barrier orders every read of iteration k - 1 (slot (k - 1) % 4) before the copies of stage k + 3 refill that
// slot. The copies of stages k + 1 and k + 2 are in flight while slot k % 4 is read, into other slots; a copy still
// in flight when the loop ends early (few tiles) was never issued into the slot read last.
#include <cuda_pipeline.h>
constexpr unsigned STAGES = 4;
__global__ void gemm_tiles(const float4* A, const float4* B, float* C, unsigned ktiles) {
  __shared__ float4 sa[STAGES][256], sb[STAGES][256];
  const unsigned base = blockIdx.x * ktiles * 256 + threadIdx.x;
  for (unsigned s = 0; s < STAGES - 1; ++s) {
    if (s < ktiles) {
      __pipeline_memcpy_async(&sa[s][threadIdx.x], &A[base + s * 256], 16);
      __pipeline_memcpy_async(&sb[s][threadIdx.x], &B[base + s * 256], 16);
    }
    __pipeline_commit();
  }
  float acc = 0;
  for (unsigned k = 0; k < ktiles; ++k) {
    __pipeline_wait_prior(STAGES - 2);
    __syncthreads();
    const unsigned next = k + STAGES - 1;
    if (next < ktiles) {
      __pipeline_memcpy_async(&sa[next % STAGES][threadIdx.x], &A[base + next * 256], 16);
      __pipeline_memcpy_async(&sb[next % STAGES][threadIdx.x], &B[base + next * 256], 16);
    }
    __pipeline_commit();
    for (unsigned j = 0; j < 8; ++j) acc += sa[k % STAGES][(threadIdx.x + j) % 256].x * sb[k % STAGES][(threadIdx.x * 3 + j) % 256].y;
  }
  C[blockIdx.x * 256 + threadIdx.x] = acc;
}
