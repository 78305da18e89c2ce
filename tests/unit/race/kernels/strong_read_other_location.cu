// expect: race  launch: --blockDim=64 --gridDim=2
// Thread 0 exchanges out[0] atomically; every other thread takes a ticket from a counter, then reads out[0]
// plainly. The ticket's atomicAdd is a strong read, but of the counter: it observes counter writes only (ISA 8.9.2),
// so it cannot order the exchange of out[0] before the read (8.9.5 item 2), and nothing else can: a race in every
// execution where both run (8.7.1), without a replay.
__global__ void k(int* out, int* counter, int* tickets) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) atomicExch(&out[0], 1);
  else tickets[i] = atomicAdd(counter, 1) + out[0];
}
