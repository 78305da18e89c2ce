// expect: race  launch: --blockDim=64 --gridDim=1
// atomicInc(ticket, 1) counts 0, 1, 0, 1, ... (ISA 9.7.13.5 atom.inc: old >= 1 ? 0 : old + 1), so every other
// thread writes out[0]: a race. Two threads' incs that both return 0 need a third thread's between them, which the
// symbolic engine does not count (a possible race); the replay on the interpreter runs such an execution.
__global__ void k(unsigned* ticket, int* out) {
  if (atomicInc(ticket, 1u) == 0u) out[0] = threadIdx.x;
}
