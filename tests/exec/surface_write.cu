// exec-flags: --racecheck
// expect-exit: 0
// expect-stdout: surface_write: PASS
// expect-stderr: racecheck: 5 launches, 0 distinct races, 0 barrier divergences
// A surface write kernel (CUDA samples' simpleSurfaceWrite pattern): a kernel writes f(x, y) into a 2D CUDA array
// through a surface object (x in bytes), a second kernel reads it back through surf2Dread and through a texture
// object on the same array, out-of-range writes are dropped (cudaBoundaryModeZero) and reads clamped
// (cudaBoundaryModeClamp); a 3D array round-trips through cudaMemcpy3D and surf3Dread / surf3Dwrite; a layered
// 2D array is written with surf2DLayeredwrite and read with tex2DLayered.
#include <cstdio>
#include <vector>

#include "check_call.cuh"

constexpr int W = 24, H = 6, D = 3;

__device__ __host__ float f(int x, int y) { return x * 0.5f - y * 3.0f; }

__global__ void write_surface(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = blockIdx.x;
  surf2Dwrite(f(x, y), s, x * (int)sizeof(float), y);
  surf2Dwrite(99.0f, s, (x + W) * (int)sizeof(float), y, cudaBoundaryModeZero);  // outside: dropped
}
__global__ void read_back(cudaSurfaceObject_t s, cudaTextureObject_t t, float* via_surf, float* via_tex, float* clamped) {
  int x = threadIdx.x, y = blockIdx.x;
  via_surf[y * W + x] = surf2Dread<float>(s, x * (int)sizeof(float), y);
  via_tex[y * W + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
  clamped[y * W + x] = surf2Dread<float>(s, (x + 100) * (int)sizeof(float), y - 50, cudaBoundaryModeClamp);
}
__global__ void add_3d(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = threadIdx.y, z = blockIdx.x;
  int v = surf3Dread<int>(s, x * 4, y, z);
  surf3Dwrite(v * 2 + z, s, x * 4, y, z);
}
__global__ void write_layers(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = threadIdx.y, layer = blockIdx.x;
  surf2DLayeredwrite(f(x, y) + 100.0f * layer, s, x * (int)sizeof(float), y, layer);
}
__global__ void read_layers(cudaTextureObject_t t, float* out) {
  int x = threadIdx.x, y = threadIdx.y, layer = blockIdx.x;
  out[(layer * blockDim.y + y) * blockDim.x + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, layer);
}


int main() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &fd, W, H, cudaArraySurfaceLoadStore));
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  cudaSurfaceObject_t surf;
  CHECK(cudaCreateSurfaceObject(&surf, &rd));
  cudaTextureDesc td{};
  cudaTextureObject_t tex;
  CHECK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
  write_surface<<<H, W>>>(surf);
  CHECK(cudaGetLastError());
  float *a, *b, *c;
  CHECK(cudaMalloc(&a, W * H * sizeof(float)));
  CHECK(cudaMalloc(&b, W * H * sizeof(float)));
  CHECK(cudaMalloc(&c, W * H * sizeof(float)));
  read_back<<<H, W>>>(surf, tex, a, b, c);
  std::vector<float> ha(W * H), hb(W * H), hc(W * H), copied(W * H);
  CHECK(cudaMemcpy(ha.data(), a, W * H * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hb.data(), b, W * H * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(hc.data(), c, W * H * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy2DFromArray(copied.data(), W * sizeof(float), arr, 0, 0, W * sizeof(float), H, cudaMemcpyDeviceToHost));
  int bad = 0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const int i = y * W + x;
      const float want = f(x, y), edge = f(W - 1, 0);  // clamped: the last column of row 0
      if ((ha[i] != want || hb[i] != want || copied[i] != want || hc[i] != edge) && bad++ < 5)
        std::printf("(%d, %d): surf %g tex %g copy %g clamped %g; expected %g and %g\n", x, y, ha[i], hb[i], copied[i], hc[i], want, edge);
    }

  // 3D: int array, host -> array by cudaMemcpy3D, doubled in place by a kernel, array -> host.
  cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
  cudaArray_t a3;
  CHECK(cudaMalloc3DArray(&a3, &id, make_cudaExtent(8, 4, D), cudaArraySurfaceLoadStore));
  std::vector<int> h3(8 * 4 * D), back(8 * 4 * D);
  for (int i = 0; i < (int)h3.size(); ++i) h3[i] = i * 3 - 40;
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr(h3.data(), 8 * sizeof(int), 8, 4);
  p.dstArray = a3;
  p.extent = make_cudaExtent(8, 4, D);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  cudaResourceDesc r3{};
  r3.resType = cudaResourceTypeArray;
  r3.res.array.array = a3;
  cudaSurfaceObject_t s3;
  CHECK(cudaCreateSurfaceObject(&s3, &r3));
  add_3d<<<D, dim3(8, 4)>>>(s3);
  cudaMemcpy3DParms q{};
  q.srcArray = a3;
  q.dstPtr = make_cudaPitchedPtr(back.data(), 8 * sizeof(int), 8, 4);
  q.extent = make_cudaExtent(8, 4, D);
  q.kind = cudaMemcpyDeviceToHost;
  CHECK(cudaMemcpy3D(&q));
  for (int i = 0; i < (int)h3.size(); ++i) {
    const int z = i / 32;
    if (back[i] != h3[i] * 2 + z && bad++ < 10) std::printf("3d %d: %d, expected %d\n", i, back[i], h3[i] * 2 + z);
  }

  // Layered: 8 x 4, 3 layers (cudaMalloc3DArray's depth counts the layers).
  cudaArray_t al;
  CHECK(cudaMalloc3DArray(&al, &fd, make_cudaExtent(8, 4, 3), cudaArrayLayered | cudaArraySurfaceLoadStore));
  cudaResourceDesc rl{};
  rl.resType = cudaResourceTypeArray;
  rl.res.array.array = al;
  cudaSurfaceObject_t sl;
  cudaTextureObject_t tl;
  CHECK(cudaCreateSurfaceObject(&sl, &rl));
  CHECK(cudaCreateTextureObject(&tl, &rl, &td, nullptr));
  write_layers<<<3, dim3(8, 4)>>>(sl);
  float* dl;
  CHECK(cudaMalloc(&dl, 8 * 4 * 3 * sizeof(float)));
  read_layers<<<3, dim3(8, 4)>>>(tl, dl);
  std::vector<float> hl(8 * 4 * 3);
  CHECK(cudaMemcpy(hl.data(), dl, hl.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < (int)hl.size(); ++i) {
    const int x = i % 8, y = i / 8 % 4, layer = i / 32;
    if (hl[i] != f(x, y) + 100.0f * layer && bad++ < 15) std::printf("layer %d (%d, %d): %g\n", layer, x, y, hl[i]);
  }
  CHECK(cudaDestroySurfaceObject(sl));
  CHECK(cudaDestroyTextureObject(tl));
  CHECK(cudaFreeArray(al));
  CHECK(cudaFree(dl));

  CHECK(cudaDestroySurfaceObject(surf));
  CHECK(cudaDestroySurfaceObject(s3));
  CHECK(cudaDestroyTextureObject(tex));
  CHECK(cudaFreeArray(arr));
  CHECK(cudaFreeArray(a3));
  std::printf("surface_write: %s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
  return bad ? 1 : 0;
}
