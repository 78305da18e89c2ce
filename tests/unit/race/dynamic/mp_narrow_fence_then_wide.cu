// expect: race-free   (ISA 8.8 acquire form 3: the gpu fence after the relaxed read acquires the other CTA's release; the
// block fence before it cannot (8.9.4 item 4: its scope does not include the releasing thread), nor does it use it up)
__global__ void k(int* data, int* flag, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    data[0] = 42;
    __threadfence();
    atomicExch(flag, 1);
  } else if (blockIdx.x == 1 && threadIdx.x == 0) {
    while (atomicAdd(flag, 0) == 0) {}
    __threadfence_block();
    __threadfence();
    out[0] = data[0];
  }
}
