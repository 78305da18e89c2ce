// expect: race-free  launch: --blockDim=[32,4] --gridDim=2   (count ntid.x * ntid.y, the CTA's for every shape)
__global__ void transpose_named(int* out) {
  __shared__ int tile[4][32];
  tile[threadIdx.y][threadIdx.x] = threadIdx.x + 100 * threadIdx.y;
  __barrier_sync_count(3, blockDim.x * blockDim.y);
  out[(blockIdx.x * 4 + threadIdx.y) * 32 + threadIdx.x] = tile[3 - threadIdx.y][31 - threadIdx.x];
}
