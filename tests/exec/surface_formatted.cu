// expect-exit: 0
// expect-stdout: surface_formatted: PASS
// sust.p (PTX ISA 9.7.11.2, formatted surface store; CUDA C++ has no intrinsic for it, so inline PTX): x is a
// sample offset, the .b32 elements are R, G, B, A, read as .u32 for an unsigned (UINT) array and .f32 for a
// float one, and converted to the sample's format. A uchar4 array and a float2 array are written, copied back
// with cudaMemcpy2DFromArray, and checked against the values stored (all in the format's range).
#include <cstdio>
#include <cstring>
#include <vector>

#include "check_call.cuh"

constexpr int W = 16, H = 4;

__global__ void store_uchar4(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = blockIdx.x;
  unsigned r = x, g = y, b = x + y, a = 200 + x;
  asm volatile("sust.p.2d.v4.b32.trap [%0, {%1, %2}], {%3, %4, %5, %6};" ::"l"(s), "r"(x), "r"(y), "r"(r), "r"(g), "r"(b), "r"(a) : "memory");
}
__global__ void store_float2(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = blockIdx.x;
  float u = x * 0.25f, v = -1.5f * y;
  asm volatile("sust.p.2d.v2.b32.trap [%0, {%1, %2}], {%3, %4};" ::"l"(s), "r"(x), "r"(y), "f"(u), "f"(v) : "memory");
}

int surface_of(cudaArray_t a, cudaSurfaceObject_t* s) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  CHECK(cudaCreateSurfaceObject(s, &rd));
  return 0;
}

int main() {
  int bad = 0;
  cudaArray_t ua, fa;
  cudaChannelFormatDesc uf = cudaCreateChannelDesc<uchar4>(), ff = cudaCreateChannelDesc<float2>();
  CHECK(cudaMallocArray(&ua, &uf, W, H, cudaArraySurfaceLoadStore));
  CHECK(cudaMallocArray(&fa, &ff, W, H, cudaArraySurfaceLoadStore));
  cudaSurfaceObject_t us, fs;
  if (surface_of(ua, &us) || surface_of(fa, &fs)) return 1;
  store_uchar4<<<H, W>>>(us);
  store_float2<<<H, W>>>(fs);
  CHECK(cudaGetLastError());
  std::vector<unsigned char> hu(W * H * 4);
  std::vector<float> hf(W * H * 2);
  CHECK(cudaMemcpy2DFromArray(hu.data(), W * 4, ua, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy2DFromArray(hf.data(), W * 8, fa, 0, 0, W * 8, H, cudaMemcpyDeviceToHost));
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      const unsigned char* p = &hu[(y * W + x) * 4];
      const unsigned char want[4] = {(unsigned char)x, (unsigned char)y, (unsigned char)(x + y), (unsigned char)(200 + x)};
      if (std::memcmp(p, want, 4) && bad++ < 5) std::printf("uchar4 (%d, %d): %u %u %u %u\n", x, y, p[0], p[1], p[2], p[3]);
      const float* q = &hf[(y * W + x) * 2];
      if ((q[0] != x * 0.25f || q[1] != -1.5f * y) && bad++ < 5) std::printf("float2 (%d, %d): %g %g\n", x, y, q[0], q[1]);
    }
  CHECK(cudaDestroySurfaceObject(us));
  CHECK(cudaDestroySurfaceObject(fs));
  CHECK(cudaFreeArray(ua));
  CHECK(cudaFreeArray(fa));
  std::printf("surface_formatted: %s (%d mismatches)\n", bad ? "FAIL" : "PASS", bad);
  return bad ? 1 : 0;
}
