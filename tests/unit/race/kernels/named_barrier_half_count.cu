// expect: race  launch: --blockDim=256 --gridDim=1   (bar.sync 1, 128: the first 128 arrivals complete it, the other warps' writes are not ordered)
__global__ void rotate_half(int* out) {
  __shared__ int buf[256];
  int t = threadIdx.x;
  buf[t] = t * 7;
  asm volatile("bar.sync 1, 128;" ::: "memory");
  out[t] = buf[(t + 128) % 256];
}
