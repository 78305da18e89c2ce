// expect: race  launch: --blockDim=128 --gridDim=1   (a write after the arrive is not ordered by the wait of another thread, ISA 9.7.13.3)
__global__ void rotate_late(int* out) {
  __shared__ int buf[128];
  asm volatile("barrier.cluster.arrive.aligned;" ::: "memory");
  buf[threadIdx.x] = threadIdx.x * 5;
  asm volatile("barrier.cluster.wait.aligned;" ::: "memory");
  out[threadIdx.x] = buf[(threadIdx.x + 1) % 128];
}
