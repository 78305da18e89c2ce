// expect: race  launch: --blockDim=64 --gridDim=2
// The ISA 9.7.13.1 producer/consumer example with the producer arriving at barrier 1 instead of waiting: its second
// write to the buffer follows nothing the consumer did, and races with the consumer's read.
__global__ void k(const int* in, int* out) {
  __shared__ int buf[32];
  const int lane = threadIdx.x % 32;
  if (threadIdx.x < 32) {
    buf[lane] = in[blockIdx.x * 64 + lane];
    asm volatile("bar.arrive 0, 64;" ::: "memory");
    const int next = in[blockIdx.x * 64 + 32 + lane];
    asm volatile("bar.arrive 1, 64;" ::: "memory");
    buf[lane] = next;
  } else {
    asm volatile("bar.sync 0, 64;" ::: "memory");
    out[blockIdx.x * 32 + lane] = buf[31 - lane];
    asm volatile("bar.arrive 1, 64;" ::: "memory");
  }
}
