// A block-scope cuda::pipeline with several stages: each stage's tile is copied asynchronously and consumed
// after consumer_wait; a deliberately expensive kernel for the race engine's budgets.
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

template <int Stages, int Tile>
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
template __global__ void stage_sum<4, 256>(const float*, float*, int);
