// Deliberately expensive for the symbolic engine: race freedom rests on a nonlinear 64-bit index being injective.
// 2t^3 + 2t^2 + 7t is a permutation of the integers mod 2^w for every w (Rivest 2001: a polynomial is one iff a1 is
// odd and a2+a4+... and a3+a5+... are even), so with one thread per t (budgets.sh checks one-dimensional launches,
// --x-only) no two threads write the same element, but a solver must prove it for 64-bit t.
__global__ void cubes(unsigned long long* a, unsigned long long n) {
  unsigned long long t = blockIdx.x * (unsigned long long)blockDim.x + threadIdx.x;
  if (t < n) a[2 * t * t * t + 2 * t * t + 7 * t] = t;
}
