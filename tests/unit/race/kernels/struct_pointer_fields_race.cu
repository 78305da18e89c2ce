// expect: race  launch: --blockDim=256 --gridDim=4
// As struct_pointer_fields.cu, but thread i reads p.x[i + 1], which thread i + 1 writes.
template <typename T> struct Particles { T* x; T* y; int n; };
template <typename T> __global__ void k(Particles<T> p, T dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) { p.x[i] = dt * p.x[i + 1]; }
}
template __global__ void k<float>(Particles<float>, float);
