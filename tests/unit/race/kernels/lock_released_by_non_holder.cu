// expect: race  launch: --blockDim=32 --gridDim=2
// Thread 0 of CTA 1 writes the unlocked value without holding the lock, so two threads may be inside the
// critical section at once: the lock does not order them (the check keeps the pair as a possible race, and the
// replayed execution shows it: CTA 1's thread 0 opens the lock while CTA 0's thread 0 holds it).
__device__ int lock = 0;
__global__ void k(int* total, const int* in) {
  if (blockIdx.x == 1 && threadIdx.x == 0) atomicExch(&lock, 0);
  while (atomicCAS(&lock, 0, 1) != 0) {}
  __threadfence();
  *total = *total + in[blockIdx.x * blockDim.x + threadIdx.x];
  __threadfence();
  atomicExch(&lock, 0);
}
