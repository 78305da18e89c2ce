// expect: race  launch: --blockDim=128 --gridDim=2
// pipeline_block_scope.cu releasing the stage (consumer_release: an arrive on the slot's "empty" mbarrier) before
// reading its element: once every thread has released stage t, a thread's producer_acquire for stage t + 2 (a parity
// wait on that "empty" mbarrier, ISA 9.7.13.15.16) returns and its copies refill the slot while a slower thread
// still reads stage t from it (ISA 9.7.9.25.3). Must never be race-free, whatever the engine learns of pipelines.
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
    pipe.consumer_release();
    acc += buf[t % Stages][(threadIdx.x * 7) % Tile];
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
