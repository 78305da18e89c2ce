// expect: race-free  launch: --blockDim=128 --gridDim=2   (barrier.cluster.arrive then .wait, as cg::this_cluster().sync(): a CTA barrier, ISA 9.7.13.3)
__global__ void rotate_cluster(int* out) {
  __shared__ int buf[128];
  buf[threadIdx.x] = threadIdx.x * 5;
  asm volatile("barrier.cluster.arrive;\n\tbarrier.cluster.wait;" ::: "memory");
  out[blockIdx.x * 128 + threadIdx.x] = buf[(threadIdx.x + 1) % 128];
}
