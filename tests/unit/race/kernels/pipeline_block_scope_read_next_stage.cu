// expect: race  launch: --blockDim=128 --gridDim=2
// pipeline_block_scope.cu reading the slot of the next stage, t + 1, after waiting only for stage t: the copies of
// stage t + 1 by other threads may still be in flight (ISA 9.7.9.25.3; consumer_wait waits for the phase of stage t
// only, 9.7.13.15.16).
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
    acc += buf[(t + 1) % Stages][(threadIdx.x * 7) % Tile];
    pipe.consumer_release();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
