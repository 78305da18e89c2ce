// expect: race-free  launch: --blockDim=128 --gridDim=4
// A persistent-threads work queue: each thread takes items with atomicAdd(&next, 1) until they run out. The item a
// thread holds in an iteration is what its add returned before the loop or in an earlier iteration; every write to
// `next` is an add of 1, so two threads' adds return different values (ISA 8.10 Atomicity; the report states that
// the counter is assumed not to wrap around) and no item is written twice.
__device__ unsigned next = 0;
__global__ void k(const float* in, float* out, unsigned n) {
  unsigned i;
  while ((i = atomicAdd(&next, 1u)) < n) out[i] = in[i] * 2.0f;
}
