// expect-exit: 0
// expect-stdout: texture_cubemap_mipmap: PASS
// expect-stderr: cudaFreeArray: a level of a mipmapped array is not freed
// Cubemap textures: a cudaArrayCubemap array and a cudaArrayCubemap | cudaArrayLayered one (6 faces as layers,
// filled with cudaMemcpy3D), fetched with texCubemap / texCubemapLayered (PTX tex.cube / tex.acube); each result
// is checked against a host reference written from the CUDA Programming Guide's "Cubemap Textures" text and its
// face table (face of the largest-magnitude coordinate m; face coordinates ((s/m)+1)/2, ((t/m)+1)/2).
// Mipmapped textures: cudaMallocMipmappedArray (levels of max(1, floor(n / 2^l))), cudaGetMipmappedArrayLevel,
// tex2DLod / tex2DGrad (PTX tex.level / tex.grad) with point and linear mipmap filtering, bias and clamps, checked
// against a host reference of the documented level of detail (docs/exec.md: lambda = log2 of the longer gradient
// in texels, plus the bias, clamped; point: the nearest level; linear: the two around lambda).
#include <cmath>
#include <cstdio>
#include <vector>

#include "check_call.cuh"

constexpr int W = 8, N = 96, CUBES = 2;
constexpr int MW = 16, MH = 8, LEVELS = 5;

__global__ void cube(cudaTextureObject_t t, const float4* d, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemap<float>(t, d[i].x, d[i].y, d[i].z);
}
__global__ void cube_layered(cudaTextureObject_t t, const float4* d, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = texCubemapLayered<float>(t, d[i].x, d[i].y, d[i].z, (int)d[i].w);
}

__global__ void lod(cudaTextureObject_t t, const float4* q, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DLod<float>(t, q[i].x, q[i].y, q[i].z);
}
__global__ void grad(cudaTextureObject_t t, const float4* q, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2DGrad<float>(t, q[i].x, q[i].y, make_float2(q[i].z, 0), make_float2(0, q[i].w));
}

// ---- the host reference: the guide's cubemap table, then point sampling T[floor(u * W)] clamped to the face.
float texel_value(int layer, int i, int j) { return (float)(layer * 1000 + j * 10 + i); }

// Face and (u, v); `ambiguous` when u * W or v * W lies within 1e-4 of a texel edge (rounding may differ there).
float host_cube(float x, float y, float z, int cube_index, bool& ambiguous) {
  double ax = std::fabs(x), ay = std::fabs(y), az = std::fabs(z), m, s, t;
  int face;
  if (ax >= ay && ax >= az) face = x >= 0 ? 0 : 1, m = ax, s = x >= 0 ? -z : z, t = -y;
  else if (ay >= az) face = y >= 0 ? 2 : 3, m = ay, s = x, t = y >= 0 ? z : -z;
  else face = z >= 0 ? 4 : 5, m = az, s = z >= 0 ? x : -x, t = -y;
  double u = (s / m + 1) / 2 * W, v = (t / m + 1) / 2 * W;
  ambiguous = std::fabs(u - std::nearbyint(u)) < 1e-4 || std::fabs(v - std::nearbyint(v)) < 1e-4;
  auto clampi = [](int k) { return k < 0 ? 0 : k >= W ? W - 1 : k; };
  return texel_value(cube_index * 6 + face, clampi((int)std::floor(u)), clampi((int)std::floor(v)));
}

cudaTextureObject_t cube_texture(cudaArray_t a) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = a;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = 1;
  cudaTextureObject_t t = 0;
  if (cudaCreateTextureObject(&t, &rd, &td, nullptr) != cudaSuccess) return 0;
  return t;
}

// A W x W cubemap array of `layers` faces, filled through cudaMemcpy3D.
int make_cube(cudaArray_t* a, int layers, unsigned flags) {
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  CHECK(cudaMalloc3DArray(a, &f, make_cudaExtent(W, W, layers), flags));
  std::vector<float> h;
  for (int l = 0; l < layers; ++l)
    for (int j = 0; j < W; ++j)
      for (int i = 0; i < W; ++i) h.push_back(texel_value(l, i, j));
  cudaMemcpy3DParms p = {};
  p.srcPtr = make_cudaPitchedPtr(h.data(), W * sizeof(float), W, W);
  p.dstArray = *a;
  p.extent = make_cudaExtent(W, W, layers);
  p.kind = cudaMemcpyHostToDevice;
  CHECK(cudaMemcpy3D(&p));
  return 0;
}

int run_cubes(int& bad, int& checked) {
  std::vector<float4> dirs;
  unsigned seed = 12345;
  auto rnd = [&] { seed = seed * 1103515245u + 12345u; return ((seed >> 8) & 0xffff) / 32768.0f - 1.0f; };
  const float axes[6][3] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (auto& a : axes) dirs.push_back(make_float4(a[0] * 0.7f + 0.01f, a[1] * 0.7f + 0.02f, a[2] * 0.7f + 0.03f, 1));
  while ((int)dirs.size() < N) dirs.push_back(make_float4(rnd(), rnd(), rnd(), (float)(dirs.size() % CUBES)));
  cudaArray_t single, layered;
  if (make_cube(&single, 6, cudaArrayCubemap) || make_cube(&layered, 6 * CUBES, cudaArrayCubemap | cudaArrayLayered)) return 1;
  cudaTextureObject_t ts = cube_texture(single), tl = cube_texture(layered);
  if (!ts || !tl) { std::printf("cudaCreateTextureObject failed\n"); return 1; }
  float4* dd;
  float* dout;
  CHECK(cudaMalloc(&dd, N * sizeof(float4)));
  CHECK(cudaMalloc(&dout, 2 * N * sizeof(float)));
  CHECK(cudaMemcpy(dd, dirs.data(), N * sizeof(float4), cudaMemcpyHostToDevice));
  cube<<<2, N / 2>>>(ts, dd, dout, N);
  cube_layered<<<2, N / 2>>>(tl, dd, dout + N, N);
  CHECK(cudaGetLastError());
  std::vector<float> out(2 * N);
  CHECK(cudaMemcpy(out.data(), dout, 2 * N * sizeof(float), cudaMemcpyDeviceToHost));
  for (int k = 0; k < 2 * N; ++k) {
    const float4 d = dirs[k % N];
    bool ambiguous = false;
    const float want = host_cube(d.x, d.y, d.z, k < N ? 0 : (int)d.w, ambiguous);
    if (ambiguous) continue;
    ++checked;
    if (out[k] != want && bad++ < 5) std::printf("cube %d (%g, %g, %g): %g, expected %g\n", k, d.x, d.y, d.z, out[k], want);
  }
  CHECK(cudaDestroyTextureObject(ts));
  CHECK(cudaDestroyTextureObject(tl));
  CHECK(cudaFreeArray(single));
  CHECK(cudaFreeArray(layered));
  CHECK(cudaFree(dd));
  CHECK(cudaFree(dout));
  return 0;
}

// ---- mipmaps: level l is max(1, MW >> l) x max(1, MH >> l), texel (i, j) = 1000 l + 16 j + i.
int level_w(int l) { return MW >> l > 0 ? MW >> l : 1; }
int level_h(int l) { return MH >> l > 0 ? MH >> l : 1; }
float mip_value(int l, int i, int j) { return (float)(1000 * l + 16 * j + i); }

double host_level_sample(int l, float u, float v) {
  auto clampi = [](int k, int n) { return k < 0 ? 0 : k >= n ? n - 1 : k; };
  return mip_value(l, clampi((int)std::floor(double(u) * level_w(l)), level_w(l)), clampi((int)std::floor(double(v) * level_h(l)), level_h(l)));
}
float host_mip(float u, float v, double lambda, bool linear, float bias) {
  double l = lambda + bias;
  l = l < 0 ? 0 : l > LEVELS - 1 ? LEVELS - 1 : l;  // min clamp 0, max clamp LEVELS - 1
  if (!linear) return (float)host_level_sample((int)std::floor(l + 0.5), u, v);
  int lo = (int)std::floor(l), hi = lo + 1 < LEVELS ? lo + 1 : lo;
  double w = l - lo;
  if (w == 0) return (float)host_level_sample(lo, u, v);
  return (float)((1 - w) * host_level_sample(lo, u, v) + w * host_level_sample(hi, u, v));
}

int make_mipmap(cudaMipmappedArray_t* m) {
  cudaChannelFormatDesc f = cudaCreateChannelDesc<float>();
  CHECK(cudaMallocMipmappedArray(m, &f, make_cudaExtent(MW, MH, 0), LEVELS, 0));
  for (int l = 0; l < LEVELS; ++l) {
    cudaArray_t a;
    CHECK(cudaGetMipmappedArrayLevel(&a, *m, l));
    cudaExtent ext;
    CHECK(cudaArrayGetInfo(nullptr, &ext, nullptr, a));
    if ((int)ext.width != level_w(l) || (int)ext.height != level_h(l)) {
      std::printf("level %d is %zu x %zu\n", l, ext.width, ext.height);
      return 1;
    }
    std::vector<float> h;
    for (int j = 0; j < level_h(l); ++j)
      for (int i = 0; i < level_w(l); ++i) h.push_back(mip_value(l, i, j));
    CHECK(cudaMemcpy2DToArray(a, 0, 0, h.data(), level_w(l) * sizeof(float), level_w(l) * sizeof(float), level_h(l), cudaMemcpyHostToDevice));
  }
  return 0;
}

cudaTextureObject_t mip_texture(cudaMipmappedArray_t m, bool linear, float bias) {
  cudaResourceDesc rd = {};
  rd.resType = cudaResourceTypeMipmappedArray;
  rd.res.mipmap.mipmap = m;
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModePoint;
  td.normalizedCoords = 1;
  td.mipmapFilterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
  td.mipmapLevelBias = bias;
  td.minMipmapLevelClamp = 0;
  td.maxMipmapLevelClamp = LEVELS - 1;
  cudaTextureObject_t t = 0;
  if (cudaCreateTextureObject(&t, &rd, &td, nullptr) != cudaSuccess) return 0;
  return t;
}

int run_mipmaps(int& bad, int& checked) {
  std::vector<float4> q;
  unsigned seed = 777;
  auto rnd = [&] { seed = seed * 1103515245u + 12345u; return ((seed >> 8) & 0xffff) / 65536.0f; };
  while ((int)q.size() < N) q.push_back(make_float4(rnd(), rnd(), rnd() * 6 - 1, rnd() * 0.8f));
  cudaMipmappedArray_t m;
  if (make_mipmap(&m)) return 1;
  // A level belongs to its mipmapped array, yet cudaFreeArray of one answers cudaSuccess, and the mipmapped array
  // is then freed as usual: measured on an H200 (tests/hardware/h200/exec.txt); tried on an array of its own.
  cudaMipmappedArray_t spare;
  if (make_mipmap(&spare)) return 1;
  cudaArray_t level1;
  CHECK(cudaGetMipmappedArrayLevel(&level1, spare, 1));
  CHECK(cudaFreeArray(level1));
  CHECK(cudaFreeMipmappedArray(spare));
  const struct { bool linear; float bias; } modes[3] = {{false, 0}, {true, 0}, {true, 0.5f}};
  float4* dq;
  float* dout;
  CHECK(cudaMalloc(&dq, N * sizeof(float4)));
  CHECK(cudaMalloc(&dout, 2 * N * sizeof(float)));
  CHECK(cudaMemcpy(dq, q.data(), N * sizeof(float4), cudaMemcpyHostToDevice));
  for (const auto& mode : modes) {
    cudaTextureObject_t t = mip_texture(m, mode.linear, mode.bias);
    if (!t) { std::printf("cudaCreateTextureObject (mipmapped) failed\n"); return 1; }
    lod<<<2, N / 2>>>(t, dq, dout, N);
    grad<<<2, N / 2>>>(t, dq, dout + N, N);
    CHECK(cudaGetLastError());
    std::vector<float> out(2 * N);
    CHECK(cudaMemcpy(out.data(), dout, 2 * N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int k = 0; k < 2 * N; ++k) {
      const float4 p = q[k % N];
      // tex2DGrad's gradients (z, 0) and (0, w) in texels of level 0: z * MW and w * MH.
      const double g = std::fmax(std::fabs(p.z) * MW, std::fabs(p.w) * MH);
      const double lambda = k < N ? p.z : (g > 0 ? std::log2(g) : -1e30);
      const float want = host_mip(p.x, p.y, lambda, mode.linear, mode.bias);
      ++checked;
      if (out[k] != want && bad++ < 5) std::printf("mip %s %d (%g, %g, %g, %g): %g, expected %g\n", k < N ? "lod" : "grad", k, p.x, p.y, p.z, p.w, out[k], want);
    }
    CHECK(cudaDestroyTextureObject(t));
  }
  CHECK(cudaFreeMipmappedArray(m));
  CHECK(cudaFree(dq));
  CHECK(cudaFree(dout));
  return 0;
}

int main() {
  int bad = 0, checked = 0;
  if (run_cubes(bad, checked)) return 1;
  if (run_mipmaps(bad, checked)) return 1;
  if (bad || checked < 7 * N) {
    std::printf("texture_cubemap_mipmap: FAIL (%d of %d wrong)\n", bad, checked);
    return 1;
  }
  std::printf("texture_cubemap_mipmap: PASS (%d fetches)\n", checked);
  return 0;
}
