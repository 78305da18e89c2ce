// Hardware probe: what linear texture filtering computes (CUDA Programming Guide, "Texture Fetching": weights in
// 9-bit fixed point with 8 fractional bits; the rounding of frac(x - 0.5) and the arithmetic are not stated).
// Prints hex floats, read by tests/hardware/fit_texture.py:
//   w X R        1D texture {0, 1}, clamp, unnormalized: R is the weight the unit used at coordinate X
//   p T0 T1 X R  1D texture {T0, T1}: the interpolation of two texels at X
//   b X Y R      2D texture 2x2 {1, 3, 7, 15} * 0.125 at (X, Y)
//   c X Y Z R    3D texture 2x2x2 {1, 3, 7, 15, 31, 63, 127, 255} / 64 at (X, Y, Z)
#include <cstdio>
#include <vector>

__global__ void fetch1(cudaTextureObject_t t, const float* x, float* r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) r[i] = tex1D<float>(t, x[i]);
}
__global__ void fetch3(cudaTextureObject_t t, const float4* c, float* r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) r[i] = tex3D<float>(t, c[i].x, c[i].y, c[i].z);
}
__global__ void fetch2(cudaTextureObject_t t, const float2* c, float* r, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) r[i] = tex2D<float>(t, c[i].x, c[i].y);
}

static cudaTextureObject_t texture(cudaArray_t a) {
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td{};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear;
  td.readMode = cudaReadModeElementType;
  cudaTextureObject_t t;
  cudaCreateTextureObject(&t, &rd, &td, nullptr);
  return t;
}

static std::vector<float> run1(const float* texels, const std::vector<float>& xs) {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  cudaMallocArray(&a, &fd, 2, 0);
  cudaMemcpy2DToArray(a, 0, 0, texels, 8, 8, 1, cudaMemcpyHostToDevice);
  cudaTextureObject_t t = texture(a);
  float *dx, *dr;
  int n = int(xs.size());
  cudaMalloc(&dx, n * 4), cudaMalloc(&dr, n * 4);
  cudaMemcpy(dx, xs.data(), n * 4, cudaMemcpyHostToDevice);
  fetch1<<<(n + 127) / 128, 128>>>(t, dx, dr, n);
  std::vector<float> r(n);
  cudaMemcpy(r.data(), dr, n * 4, cudaMemcpyDeviceToHost);
  cudaDestroyTextureObject(t), cudaFreeArray(a), cudaFree(dx), cudaFree(dr);
  return r;
}

int main() {
  // Weights: every 1/4096 of a texel, and the points 1/8192 either side of each 1/512 step.
  std::vector<float> xs;
  for (int k = 0; k <= 4096; ++k) xs.push_back(0.5f + k / 4096.0f);
  for (int k = 0; k <= 512; ++k)
    for (float d : {-1.0f / 8192, 1.0f / 8192}) xs.push_back(0.5f + k / 512.0f + d);
  const float unit[2] = {0.0f, 1.0f};
  std::vector<float> w = run1(unit, xs);
  for (size_t i = 0; i < xs.size(); ++i) std::printf("w %a %a\n", xs[i], w[i]);

  // Arithmetic: texel pairs of several magnitudes at a few fractions.
  const float pairs[][2] = {{1.0f, 2.0f}, {1.0f, 1.0f + 1.0f / 1048576}, {3.0f, -5.0f}, {1000.0f, 1001.0f},
                            {0.1f, 0.7f}, {1e-3f, 7e-3f}, {123.456f, -654.321f}, {1.0f, 16777215.0f},
                            {0.333333343f, 0.666666687f}, {-2.5f, 2.5f}, {65504.0f, 1.0f}, {1e20f, -1e20f}};
  std::vector<float> fx;
  for (int k = 0; k < 256; k += 7) fx.push_back(0.5f + k / 256.0f);
  fx.push_back(0.5f + 255.0f / 256), fx.push_back(1.0f), fx.push_back(0.75f + 1.0f / 8192);
  for (const auto& p : pairs) {
    std::vector<float> r = run1(p, fx);
    for (size_t i = 0; i < fx.size(); ++i) std::printf("p %a %a %a %a\n", p[0], p[1], fx[i], r[i]);
  }

  // Bilinear: a 2x2 texture at 33 x 33 positions.
  const float tex2[4] = {0.125f, 0.375f, 0.875f, 1.875f};
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a;
  cudaMallocArray(&a, &fd, 2, 2);
  cudaMemcpy2DToArray(a, 0, 0, tex2, 8, 8, 2, cudaMemcpyHostToDevice);
  cudaTextureObject_t t = texture(a);
  std::vector<float2> cs;
  for (int i = 0; i <= 32; ++i)
    for (int j = 0; j <= 32; ++j) cs.push_back(make_float2(0.5f + i / 32.0f + 1.0f / 3000, 0.5f + j / 32.0f + 1.0f / 5000));
  int n = int(cs.size());
  float2* dc;
  float* dr;
  cudaMalloc(&dc, n * 8), cudaMalloc(&dr, n * 4);
  cudaMemcpy(dc, cs.data(), n * 8, cudaMemcpyHostToDevice);
  fetch2<<<(n + 127) / 128, 128>>>(t, dc, dr, n);
  std::vector<float> r(n);
  cudaMemcpy(r.data(), dr, n * 4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) std::printf("b %a %a %a\n", cs[i].x, cs[i].y, r[i]);
  // Trilinear: a 2x2x2 texture at 9 x 9 x 9 positions.
  const float tex3[8] = {1 / 64.0f, 3 / 64.0f, 7 / 64.0f, 15 / 64.0f, 31 / 64.0f, 63 / 64.0f, 127 / 64.0f, 255 / 64.0f};
  cudaArray_t a3;
  cudaMalloc3DArray(&a3, &fd, make_cudaExtent(2, 2, 2));
  cudaMemcpy3DParms p{};
  p.srcPtr = make_cudaPitchedPtr((void*)tex3, 8, 2, 2);
  p.dstArray = a3;
  p.extent = make_cudaExtent(2, 2, 2);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
  cudaTextureObject_t t3 = texture(a3);
  std::vector<float4> c3;
  for (int i = 0; i <= 8; ++i)
    for (int j = 0; j <= 8; ++j)
      for (int k = 0; k <= 8; ++k)
        c3.push_back(make_float4(0.5f + i / 8.0f + 1.0f / 3000, 0.5f + j / 8.0f + 1.0f / 5000, 0.5f + k / 8.0f + 1.0f / 7000, 0));
  int n3 = int(c3.size());
  float4* dc3;
  float* dr3;
  cudaMalloc(&dc3, n3 * 16), cudaMalloc(&dr3, n3 * 4);
  cudaMemcpy(dc3, c3.data(), n3 * 16, cudaMemcpyHostToDevice);
  fetch3<<<(n3 + 127) / 128, 128>>>(t3, dc3, dr3, n3);
  std::vector<float> r3(n3);
  cudaMemcpy(r3.data(), dr3, n3 * 4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n3; ++i) std::printf("c %a %a %a %a\n", c3[i].x, c3[i].y, c3[i].z, r3[i]);
  cudaError_t e = cudaDeviceSynchronize();
  std::printf("status %s\n", cudaGetErrorName(e));
  return e != cudaSuccess;
}
