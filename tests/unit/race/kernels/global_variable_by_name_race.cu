// expect: race  launch: --blockDim=2 --gridDim=2
// The same variable addressed by name (`st.global.u32 [last], %r`) written by every thread of CTA 0: a race on it.
__device__ int last;
__global__ void k(int* data) {
  if (blockIdx.x == 0) last = data[threadIdx.x];
}
