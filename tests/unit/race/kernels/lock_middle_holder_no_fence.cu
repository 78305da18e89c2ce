// expect: unknown  launch: --blockDim=32 --gridDim=4  reason='possible race'
// A lock holder that skips both fences (in[i] == 0) passes nothing on: its relaxed store of `unlocked` is no atomic,
// so observation order (8.9.2) does not carry the previous holder's release through it to the next holder, and the
// first and third holders' updates of *total race (ptx-race.cat on the three-holder test; locks.hpp, the chain).
// (The interpreter's replay does not confirm it, so the verdict is unknown, naming the possible race.)
__device__ unsigned lock = 0;
__global__ void k(int* total, const int* in) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (threadIdx.x != 0) return;
  while (atomicCAS(&lock, 0u, 1u) != 0u) {}
  if (in[i] != 0) {
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
    *total += 1;
    asm volatile("fence.acq_rel.gpu;" ::: "memory");
  }
  asm volatile("st.relaxed.gpu.global.u32 [%0], 0;" :: "l"(&lock) : "memory");
}
