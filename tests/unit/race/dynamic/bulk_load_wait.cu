// expect: race-free   (ISA 9.7.9.25.1: the copy's writes are visible once a wait sees its mbarrier phase complete)
#include "bulk_copy.cuh"
__global__ void tile(const int* in, int* out) {
  __shared__ alignas(128) int buf[64];
  __shared__ std::uint64_t bar;
  if (threadIdx.x == 0) mbar_init(&bar, 1);
  __syncthreads();
  if (threadIdx.x == 0) { mbar_expect_tx(&bar, sizeof buf); bulk_load(buf, in, sizeof buf, &bar); }
  mbar_wait(&bar, 0);
  out[threadIdx.x] = buf[(threadIdx.x + 1) % 64];
}
