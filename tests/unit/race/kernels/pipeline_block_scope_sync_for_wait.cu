// expect: race  launch: --blockDim=128 --gridDim=2
// pipeline_block_scope.cu with __syncthreads() where consumer_wait was: every thread has issued its copies of the
// stage and arrived, but a CTA barrier does not wait for the copies (only the mbarrier phase does, ISA
// 9.7.13.15.15), so a read may see a copy still in flight; and the refill of the slot two stages on is no longer
// after every thread's wait. Not a pipeline the engine follows (an arrive on "empty" without the wait on "full").
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
    __syncthreads();
    acc += buf[t % Stages][(threadIdx.x * 7) % Tile];
    pipe.consumer_release();
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}
