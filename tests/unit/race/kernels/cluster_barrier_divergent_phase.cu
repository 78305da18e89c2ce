// expect: race  launch: --blockDim=128 --gridDim=1   (the divergent cluster barrier of the first warps counts in the phase the others' common barrier waits for)
__global__ void mixed_phases(int* out) {
  __shared__ int buf[128];
  if (threadIdx.x < 64) {
    asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
    buf[threadIdx.x] = threadIdx.x;
  }
  asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
  out[threadIdx.x] = buf[threadIdx.x % 64];
}
