// expect: race-free  launch: --blockDim=2 --gridDim=2
// nvcc addresses a __device__ variable by name (`st.global.u32 [last], %r`): that store is to the variable, an
// allocation distinct from the pointer parameter (the engine's no-alias assumption), so it cannot meet data[1].
__device__ int last;
__global__ void k(int* data) {
  if (blockIdx.x == 0 && threadIdx.x == 0) last = data[0];
  else if (blockIdx.x == 1 && threadIdx.x == 1) data[1] = 5;
}
