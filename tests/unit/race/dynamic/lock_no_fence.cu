// expect: race 5   (the same lock without fences: the critical sections are not ordered)
__global__ void k(int* lock, int* counter) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {}
    counter[0] = counter[0] + 1;
    atomicExch(lock, 0);
  }
}
