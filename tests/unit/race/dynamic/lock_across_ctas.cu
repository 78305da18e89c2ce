// expect: race-free   (a spin lock: atomicCAS + __threadfence on entry and exit orders the critical sections)
__global__ void k(int* lock, int* counter) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {}
    __threadfence();
    counter[0] = counter[0] + 1;
    __threadfence();
    atomicExch(lock, 0);
  }
}
