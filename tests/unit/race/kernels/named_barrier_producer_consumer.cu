// expect: race  launch: --blockDim=256 --gridDim=1   (bar.arrive 1, 256 by the producers: they do not wait, so their second write races with the consumers' read)
__global__ void produce_consume(int* out) {
  __shared__ int buf[128];
  int t = threadIdx.x;
  if (t < 128) {
    buf[t] = t;
    asm volatile("bar.arrive 1, 256;" ::: "memory");
    buf[t] = t + 1;
  } else {
    asm volatile("bar.sync 1, 256;" ::: "memory");
    out[t] = buf[t - 128];
  }
}
