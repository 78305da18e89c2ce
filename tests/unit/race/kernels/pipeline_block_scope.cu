// expect: race-free  launch: --blockDim=128 --gridDim=2
// A block-scope cuda::pipeline (issue 37): per stage, every thread copies part of a tile with cuda::memcpy_async
// (cp.async, then cp.async.mbarrier.arrive on the stage's "full" mbarrier, ISA 9.7.13.15.15), the CTA waits for
// the stage with consumer_wait (a parity wait on that mbarrier) before reading any element of it, and frees it with
// consumer_release (an arrive on its "empty" mbarrier, which producer_acquire waits on before refilling it).
// Race-free: the engine follows the pipeline's two mbarrier arrays in `state` ("full" at 0 + 16 * stage, "empty"
// at 8 + 16 * stage) through every run of a thread (checker/race/pipeline.cpp) and orders the copies of stage f
// before the reads after the f-th wait on "full", and the reads of stage f before the refill after the (f+2)-th
// wait on "empty" (docs/race/pipeline.md).
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

constexpr int Stages = 2, Tile = 256;
__global__ void stage_sum(const float* in, float* out, int tiles) {
  __shared__ float buf[Stages][Tile];
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, Stages> state;
  auto block = cg::this_thread_block();
  auto pipe = cuda::make_pipeline(block, &state);
  float acc = 0;
  int fetch = 0;
  for (int t = 0; t < tiles; ++t) {
    for (; fetch < tiles && fetch < t + Stages; ++fetch) {
      pipe.producer_acquire();
      cuda::memcpy_async(block, buf[fetch % Stages], in + (size_t)fetch * Tile, sizeof(float) * Tile, pipe);
      pipe.producer_commit();
    }
    pipe.consumer_wait();
    acc += buf[t % Stages][(threadIdx.x * 7) % Tile];
    pipe.consumer_release();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
