// A two-stage TMA pipeline (the shape of CUTLASS's PipelineTmaAsync): warp 0 produces tiles of `in` into stage
// buffers with bulk copies completing on full[s]; warps 1.. consume them and release the stage on empty[s].
// RELEASE_EARLY moves the consumers' release before their read (the mutant: the producer may then overwrite the
// stage while it is read); FENCE_BEFORE_RELEASE puts fence.proxy.async between the read and the release.
#pragma once
#include "bulk_copy.cuh"

constexpr int kTile = 32, kStages = 2, kTiles = 6;

__global__ void pipeline(const int* in, int* out) {
  __shared__ alignas(128) int stage[kStages][kTile];
  __shared__ std::uint64_t full[kStages], empty[kStages];
  const int consumers = blockDim.x - 32;
  if (threadIdx.x == 0)
    for (int s = 0; s < kStages; ++s) mbar_init(&full[s], 1), mbar_init(&empty[s], consumers);
  __syncthreads();
  if (threadIdx.x < 32) {  // producer warp: one elected lane issues the copies
    if (threadIdx.x == 0)
      for (int t = 0; t < kTiles; ++t) {
        const int s = t % kStages;
        if (t >= kStages) mbar_wait(&empty[s], (t / kStages - 1) & 1);
        mbar_expect_tx(&full[s], sizeof stage[s]);
        bulk_load(stage[s], in + t * kTile, sizeof stage[s], &full[s]);
      }
    return;
  }
  const int c = threadIdx.x - 32;
  int sum = 0;
  for (int t = 0; t < kTiles; ++t) {
    const int s = t % kStages;
    mbar_wait(&full[s], (t / kStages) & 1);
#ifdef RELEASE_EARLY
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(&empty[s])) : "memory");
#endif
    sum += stage[s][c % kTile];
#ifdef FENCE_BEFORE_RELEASE
    fence_proxy_async_shared();
#endif
#ifndef RELEASE_EARLY
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];" ::"r"(smem(&empty[s])) : "memory");
#endif
  }
  out[c] = sum;
}
