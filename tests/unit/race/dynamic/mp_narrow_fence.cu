// expect: race 4 10   (ISA 8.9.4 item 4: a block fence after the read does not synchronize with a release in another CTA)
__global__ void k(int* data, int* flag, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    atomicExch(flag, 1);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {}
    __threadfence_block();
    out[0] = data[0];
  }
}
