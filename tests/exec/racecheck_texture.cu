// exec-flags: --racecheck --memcheck
// nvcc: -Wno-deprecated-declarations
// expect-exit: 0
// expect-stdout: racecheck_texture: PASS
// expect-stderr: racecheck_texture.cu:31
// expect-stderr: texture proxy
// expect-stderr: racecheck: 4 launches, 1 distinct races, 0 barrier divergences
// expect-stderr: by tex.1d.v4.s32.s32 at /usr/local/cuda
// expect-stderr: kernel copy(unsigned long long, int*)
// expect-stderr: memcheck: 4 launches, 1 uninitialized reads, 0 accesses to freed memory
// Texture fetches of linear memory under --racecheck and --memcheck. A fetch goes through the texture proxy (ISA
// 8.6), which no proxy fence orders with generic accesses (8.9.5, 9.7.13.4): a kernel that fetches from the
// memory it writes races, even where each thread writes only the element it fetched (the CUDA Programming
// Guide: a texture fetch of an address written in the same kernel call returns undefined data). Fetching what
// an earlier launch wrote is ordered by the launch boundary, and a fetch of memory never written is an
// uninitialized read.
#include <cstdio>
#include <vector>

#include "check_call.cuh"

constexpr int N = 64;

__global__ void smooth(cudaTextureObject_t t, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int l = i > 0 ? i - 1 : 0, r = i < N - 1 ? i + 1 : N - 1;
  out[i] = tex1Dfetch<int>(t, l) + tex1Dfetch<int>(t, i) + tex1Dfetch<int>(t, r);
}
__global__ void double_in_place(cudaTextureObject_t t, int* same) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  same[i] = 2 * tex1Dfetch<int>(t, i);
}
__global__ void copy(cudaTextureObject_t t, int* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = tex1Dfetch<int>(t, i);
}

cudaTextureObject_t linear_texture(int* p) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = p;
  res.res.linear.desc = cudaCreateChannelDesc<int>();
  res.res.linear.sizeInBytes = N * sizeof(int);
  cudaTextureDesc desc = {};
  desc.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &res, &desc, nullptr);
  return t;
}

int main() {
  std::vector<int> a(N), want_b(N), want_c(N), got(N);
  for (int i = 0; i < N; ++i) a[i] = i * i - 7 * i;
  int *da, *db, *dc, *dfresh;
  CHECK(cudaMalloc(&da, N * sizeof(int)));
  CHECK(cudaMalloc(&db, N * sizeof(int)));
  CHECK(cudaMalloc(&dc, N * sizeof(int)));
  CHECK(cudaMalloc(&dfresh, N * sizeof(int)));
  CHECK(cudaMemcpy(da, a.data(), N * sizeof(int), cudaMemcpyHostToDevice));
  cudaTextureObject_t ta = linear_texture(da), tb = linear_texture(db), tfresh = linear_texture(dfresh);
  smooth<<<2, N / 2>>>(ta, db);  // fetches da, writes db: no race
  smooth<<<2, N / 2>>>(tb, dc);  // fetches db, written by the launch before: no race
  CHECK(cudaMemcpy(got.data(), dc, N * sizeof(int), cudaMemcpyDeviceToHost));
  auto at = [](const std::vector<int>& v, int i) { return v[i < 0 ? 0 : i >= N ? N - 1 : i]; };
  for (int i = 0; i < N; ++i) want_b[i] = at(a, i - 1) + a[i] + at(a, i + 1);
  for (int i = 0; i < N; ++i) want_c[i] = at(want_b, i - 1) + want_b[i] + at(want_b, i + 1);
  for (int i = 0; i < N; ++i)
    if (got[i] != want_c[i]) { std::printf("racecheck_texture: FAIL at %d: %d, expected %d\n", i, got[i], want_c[i]); return 1; }
  double_in_place<<<2, N / 2>>>(ta, da);  // fetches and writes da in one launch: a race
  copy<<<2, N / 2>>>(tfresh, dc);         // fetches memory never written: uninitialized
  CHECK(cudaDeviceSynchronize());
  std::printf("racecheck_texture: PASS\n");
  return 0;
}
