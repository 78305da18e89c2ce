// expect: race-free  launch: --blockDim=256 --gridDim=4
// A struct of arrays passed by value (`Particles<float> p`): its pointer fields are allocations of their own, as pointer
// arguments are (encode.cpp field_object_name: the no-alias assumption extends to them), so p.x[i] += dt * p.y[i] is
// race free; before, the fields were pointers to anything and p.x could overlap p.y.
template <typename T> struct Particles { T* x; T* y; int n; };
template <typename T> __global__ void k(Particles<T> p, T dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < p.n) { p.x[i] += dt * p.y[i]; }
}
template __global__ void k<float>(Particles<float>, float);
