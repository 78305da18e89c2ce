// Persistent CTAs: each round thread 0 takes the next tile from a global queue and broadcasts it through shared
// memory; the loop's exit is uniform (no barrier divergence) and no two CTAs or rounds get one tile (race free).
// ptxcheck race examples/race/work_queue_persistent.cu --blockDim=256 --gridDim=8
__global__ void scale_tiles(unsigned* next_tile, unsigned tiles, float* data, float factor) {
  __shared__ unsigned tile;
  while (true) {
    if (threadIdx.x == 0) tile = atomicAdd(next_tile, 1u);
    __syncthreads();
    const unsigned t = tile;
    if (t >= tiles) break;
    data[(unsigned long long)t * blockDim.x + threadIdx.x] *= factor;
    __syncthreads();
  }
}
