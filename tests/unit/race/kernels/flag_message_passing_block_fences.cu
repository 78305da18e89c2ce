// expect: race  launch: --blockDim=32 --gridDim=2  options: --assume='arg2[*] == 0'
// flag_message_passing_assumed.cu with __threadfence_block (fence.cta) on both sides: CTA scope does not include a
// thread of the other CTA, so the fences are not morally strong (ISA 8.6) and do not synchronize (8.9.4 item 4).
__global__ void k(int* data, volatile int* flag, int* out) {
  if (blockIdx.x == 0 && threadIdx.x == 0) { data[0] = 42; __threadfence_block(); *flag = 1; }
  if (blockIdx.x == 1 && threadIdx.x == 0) { while (*flag != 1) {} __threadfence_block(); out[0] = data[0]; }
}
