// expect: race  launch: --blockDim=128 --gridDim=1   (barrier.cluster.arrive.relaxed orders no memory access before it, ISA 9.7.13.3)
__global__ void rotate_relaxed(int* out) {
  __shared__ int buf[128];
  buf[threadIdx.x] = threadIdx.x * 5;
  asm volatile("barrier.cluster.arrive.relaxed.aligned;\n\tbarrier.cluster.wait.aligned;" ::: "memory");
  out[threadIdx.x] = buf[(threadIdx.x + 1) % 128];
}
