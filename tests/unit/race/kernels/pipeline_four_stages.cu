// expect: race-free  launch: --blockDim=64 --gridDim=1
// pipeline_block_scope.cu with four stages and a tile of 128
// floats copied by 64 threads: the slot of stage f is f mod 4 and the parity of its phase (f / 4) mod 2, which the
// exploration of checker/race/pipeline.cpp checks on every run; race-free as the 2-stage kernel.
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

constexpr int Stages = 4, Tile = 128;
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
