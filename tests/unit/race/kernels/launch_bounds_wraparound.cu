// expect: race-free  launch: --gridDim=1
// The block shape is symbolic, but __launch_bounds__(256) becomes `.maxntid 256, 1, 1`: no launch has more than 256
// threads per CTA in all (ISA 11.4.2), so threadIdx.x < 256 and `threadIdx.x % 256` gives each thread of the first
// row its own slot. Without the directive, threads 0 and 256 of a larger block would write one slot
// (launch_bounds_exceeded.cu).
__global__ void __launch_bounds__(256) k(int* out) {
  if (threadIdx.y == 0 && threadIdx.z == 0) out[threadIdx.x % 256] = threadIdx.x;
}
