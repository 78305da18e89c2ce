// expect: race  launch: --blockDim=256 --gridDim=8
// Thread 0 stores `base` only when its flag is set: in a CTA where it is not, `base` keeps its uninitialised
// content, which may make two CTAs write the same slots.
__global__ void k(unsigned* counter, int* out, const int* flags) {
  __shared__ unsigned base;
  if (threadIdx.x == 0 && flags[blockIdx.x]) base = atomicAdd(counter, blockDim.x);
  __syncthreads();
  out[base + threadIdx.x] = threadIdx.x;
}
