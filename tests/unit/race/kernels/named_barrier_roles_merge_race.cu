// expect: race  launch: --blockDim=256 --gridDim=1
// named_barrier_roles_merge.cu the other way round: the consumers write before their bar.sync and the producers
// read after the merge. bar.arrive does not wait, so nothing orders the consumers' writes before the producers'
// reads (ISA 9.7.13.1).
__global__ void produce_consume_merged(int* out, int n) {
  __shared__ int buf[128];
  int t = threadIdx.x;
  if (t < 128) {
    asm volatile("bar.arrive 1, 256;" ::: "memory");
  } else {
    buf[t - 128] = t * n;
    asm volatile("bar.sync 1, 256;" ::: "memory");
  }
  if (t < 128) out[t] = buf[t];
}
