// expect: unknown  launch: --blockDim=128 --gridDim=1  reason='outside its object'
// Slot tid + 64 * idx (idx an input below 4) of a 64-int array: within the array only idx = 0 and tid < 64 land,
// each thread in its own slot; two threads meet only outside it (tid 0 with idx 1 and tid 64 with idx 0 both at
// slot 64). A witness outside the object is no evidence of a race (issue 37: a definite verdict needs one): a
// possible race, unknown.
__global__ void k(const unsigned* idx, int* out) {
  __shared__ int s[64];
  const unsigned i = idx[threadIdx.x];
  if (i < 4) s[threadIdx.x + 64u * i] = 1;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x % 64];
}
