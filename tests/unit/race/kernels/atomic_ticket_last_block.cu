// expect: unknown  launch: --blockDim=64 --gridDim=4
// The last CTA to finish (its atomicInc returns gridDim.x - 1) adds up the partial results. Two CTAs' tickets
// are both gridDim.x - 1 only with gridDim.x + 1 other increments between them (atom.inc counts modulo
// gridDim.x + 1, ISA 9.7.13.5), which the launch does not have; the symbolic engine counts no thread beyond the
// two it checks, so the write-write pair on out[0] is a possible race (not a certain one: ISA 8.10 Atomicity puts
// one of the two incs after the other). Nor is `retired` known at launch (a previous launch, or the host, may have
// left any value in it), so the last-block ticket orders nothing (tickets.hpp; the report's note names the --assume
// that states it, which atomic_ticket_last_block_assumed.cu adds).
__device__ unsigned retired = 0;
__global__ void k(const float* in, float* partial, float* out) {
  if (threadIdx.x == 0) {
    partial[blockIdx.x] = in[blockIdx.x];
    __threadfence();
    unsigned ticket = atomicInc(&retired, gridDim.x);
    if (ticket == gridDim.x - 1) {
      __threadfence();
      float sum = 0;
      for (unsigned b = 0; b < gridDim.x; ++b) sum += partial[b];
      out[0] = sum;
    }
  }
}
