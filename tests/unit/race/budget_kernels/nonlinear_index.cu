// Deliberately expensive for the symbolic engine: race freedom rests on a nonlinear index being injective.
__global__ void cubes(unsigned long long* a, unsigned long long n) {
  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (t < n) a[t * t * t + 3 * t * t + 7 * t] = t;
}
