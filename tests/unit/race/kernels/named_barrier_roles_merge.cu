// expect: race-free  launch: --blockDim=256 --gridDim=1
// Producers (threads 0-127) write and arrive, consumers wait; the consumers read after the two roles' paths merge
// again. Neither path to the read has "waited on every path" (the producers' path arrives), but a thread that
// reads passed the bar.sync (its path condition says so): the producers' writes precede the read (ISA 8.9.4
// item 2, named_barriers.hpp after_sync).
__global__ void produce_consume_merged(int* out, int n) {
  __shared__ int buf[128];
  int t = threadIdx.x;
  if (t < 128) {
    buf[t] = t * n;
    asm volatile("bar.arrive 1, 256;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 256;" ::: "memory");
  }
  if (t >= 128) out[t] = buf[t - 128];
}
