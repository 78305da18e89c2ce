// exec-flags: --memcheck
// nvcc: -Wno-deprecated-declarations
// expect-exit: 0
// expect-stdout: texture_sample: PASS
// expect-stderr: memcheck: 10 launches, 0 uninitialized reads, 0 accesses to freed memory
// simpleTexture's rotation (normalized coordinates, wrap, linear filtering), then sampling of a 2D float CUDA array through texture objects (point and linear filtering,
// clamp / wrap / mirror / border, normalized and unnormalized coordinates), a uchar4 array read as normalized
// floats, tex1Dfetch on linear memory, pitched 2D device memory filtered linearly, and the deprecated
// cudaMemcpyToArray / FromArray; each result is checked against a host texture unit written from the
// CUDA Programming Guide's "Texture Fetching" appendix.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "check_call.cuh"

constexpr int W = 16, H = 8, N = 96;

__global__ void sample(cudaTextureObject_t t, const float2* c, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, c[i].x, c[i].y);
}
// CUDA samples' simpleTexture transformKernel; it also writes the coordinates it sampled, for the host check.
__global__ void rotate(cudaTextureObject_t t, float theta, float* out, float2* used) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  float u = (float)x - (float)W / 2, v = (float)y - (float)H / 2;
  float tu = (u * cosf(theta) - v * sinf(theta)) / (float)W + 0.5f;
  float tv = (v * cosf(theta) + u * sinf(theta)) / (float)H + 0.5f;
  used[y * W + x] = make_float2(tu, tv);
  out[y * W + x] = tex2D<float>(t, tu, tv);
}
__global__ void sample_rgba(cudaTextureObject_t t, float4* out) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * blockDim.x + x] = tex2D<float4>(t, x + 0.5f, y + 0.5f);
}
__global__ void fetch(cudaTextureObject_t t, int* out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(t, i);
}

// ---- the host texture unit
struct Mode {
  bool linear, normalized;
  cudaTextureAddressMode address;
};
const float kBorder = -1.5f;

float texel(const std::vector<float>& img, int i, int j, const Mode& m) {
  auto addr = [&](int k, int n, bool& out) {
    cudaTextureAddressMode a = m.address;
    if (!m.normalized && (a == cudaAddressModeWrap || a == cudaAddressModeMirror)) a = cudaAddressModeClamp;
    if (a == cudaAddressModeWrap) return ((k % n) + n) % n;
    if (a == cudaAddressModeMirror) {
      int p = ((k % (2 * n)) + 2 * n) % (2 * n);
      return p < n ? p : 2 * n - 1 - p;
    }
    if (a == cudaAddressModeBorder) {
      if (k < 0 || k >= n) out = true;
      return k;
    }
    return k < 0 ? 0 : k >= n ? n - 1 : k;
  };
  bool out = false;
  int x = addr(i, W, out), y = addr(j, H, out);
  return out ? kBorder : img[y * W + x];
}

// Point: T[floor(x)]; linear: xB = x - 0.5, weights frac(xB) in 9-bit fixed point (8 fractional bits), rounded
// to nearest with ties up, and the product ab rounded to 1/256 with the other three weights completing it to 1
// (the guide gives (1-a)(1-b), a(1-b), (1-a)b, ab; the rounding is what an H200 does: docs/hardware.md).
float host_tex(const std::vector<float>& img, float u, float v, const Mode& m) {
  double x = m.normalized ? double(u) * W : u, y = m.normalized ? double(v) * H : v;
  if (!m.linear) return texel(img, (int)std::floor(x), (int)std::floor(y), m);
  double xb = x - 0.5, yb = y - 0.5;
  int i = (int)std::floor(xb), j = (int)std::floor(yb);
  double a = std::floor((xb - i) * 256 + 0.5), b = std::floor((yb - j) * 256 + 0.5), ab = std::floor(a * b / 256 + 0.5);
  double r = (256 - a - b + ab) * texel(img, i, j, m) + (a - ab) * texel(img, i + 1, j, m) + (b - ab) * texel(img, i, j + 1, m) +
             ab * texel(img, i + 1, j + 1, m);
  return (float)(r / 256);
}


int main() {
  std::vector<float> img(W * H);
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) img[y * W + x] = float((x * 7 + y * 13) % 23) * 0.25f;
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  CHECK(cudaMallocArray(&arr, &fd, W, H));
  CHECK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice));
  cudaChannelFormatDesc got;
  cudaExtent ext;
  unsigned flags;
  CHECK(cudaArrayGetInfo(&got, &ext, &flags, arr));
  bool ok = got.x == 32 && got.y == 0 && got.f == cudaChannelFormatKindFloat && ext.width == W && ext.height == H && ext.depth == 0;

  // Coordinates from a fixed generator, some outside the texture.
  std::vector<float2> coords(N);
  unsigned s = 12345;
  auto next = [&] { s = s * 1103515245u + 12345u; return float((s >> 8) & 0xffff) / 65536.0f; };
  float2 *dc;
  float* dout;
  CHECK(cudaMalloc(&dc, N * sizeof(float2)));
  CHECK(cudaMalloc(&dout, N * sizeof(float)));
  std::vector<float> out(N);
  const Mode modes[] = {{false, false, cudaAddressModeClamp}, {true, false, cudaAddressModeClamp}, {true, true, cudaAddressModeWrap},
                        {false, true, cudaAddressModeMirror}, {true, true, cudaAddressModeMirror}, {true, false, cudaAddressModeBorder}};
  int bad = 0;
  for (const Mode& m : modes) {
    for (auto& c : coords) {
      c.x = m.normalized ? next() * 2.0f - 0.5f : next() * (W + 8) - 4;
      c.y = m.normalized ? next() * 2.0f - 0.5f : next() * (H + 8) - 4;
    }
    CHECK(cudaMemcpy(dc, coords.data(), N * sizeof(float2), cudaMemcpyHostToDevice));
    cudaResourceDesc rd{};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td{};
    td.addressMode[0] = td.addressMode[1] = m.address;
    td.filterMode = m.linear ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = m.normalized;
    td.borderColor[0] = kBorder;
    cudaTextureObject_t tex;
    CHECK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
    sample<<<(N + 31) / 32, 32>>>(tex, dc, dout, N);
    CHECK(cudaMemcpy(out.data(), dout, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; ++i) {
      float want = host_tex(img, coords[i].x, coords[i].y, m);
      if (std::memcmp(&want, &out[i], 4) != 0 && bad++ < 5)
        std::printf("mode %d/%d/%d at (%g, %g): %.9g, expected %.9g\n", m.linear, m.normalized, (int)m.address, coords[i].x, coords[i].y, out[i], want);
    }
    cudaTextureDesc back;
    CHECK(cudaGetTextureObjectTextureDesc(&back, tex));
    ok = ok && back.filterMode == td.filterMode && back.normalizedCoords == td.normalizedCoords && back.addressMode[1] == m.address;
    CHECK(cudaDestroyTextureObject(tex));
  }

  {  // simpleTexture: rotate by 0.5 radians
    cudaResourceDesc rd{};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
    cudaTextureDesc td{};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeWrap;
    td.filterMode = cudaFilterModeLinear;
    td.normalizedCoords = 1;
    cudaTextureObject_t tex;
    CHECK(cudaCreateTextureObject(&tex, &rd, &td, nullptr));
    float* dr;
    float2* du;
    CHECK(cudaMalloc(&dr, W * H * sizeof(float)));
    CHECK(cudaMalloc(&du, W * H * sizeof(float2)));
    rotate<<<dim3(W / 8, H / 8), dim3(8, 8)>>>(tex, 0.5f, dr, du);
    std::vector<float> rot(W * H);
    std::vector<float2> used(W * H);
    CHECK(cudaMemcpy(rot.data(), dr, W * H * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(used.data(), du, W * H * sizeof(float2), cudaMemcpyDeviceToHost));
    const Mode m{true, true, cudaAddressModeWrap};
    for (int i = 0; i < W * H; ++i) {
      float want = host_tex(img, used[i].x, used[i].y, m);
      if (std::memcmp(&want, &rot[i], 4) != 0 && bad++ < 5) std::printf("rotate %d: %.9g, expected %.9g\n", i, rot[i], want);
    }
    CHECK(cudaDestroyTextureObject(tex));
    CHECK(cudaFree(dr));
    CHECK(cudaFree(du));
  }

  // uchar4 read as normalized floats: each channel c / 255.
  std::vector<uchar4> rgba(W * 2);
  for (int i = 0; i < W * 2; ++i) rgba[i] = make_uchar4(i * 8, 255 - i, i * 3, 128);
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<uchar4>();
  cudaArray_t carr;
  CHECK(cudaMallocArray(&carr, &cd, W, 2));
  CHECK(cudaMemcpy2DToArray(carr, 0, 0, rgba.data(), W * sizeof(uchar4), W * sizeof(uchar4), 2, cudaMemcpyHostToDevice));
  cudaResourceDesc rd{};
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = carr;
  cudaTextureDesc td{};
  td.readMode = cudaReadModeNormalizedFloat;
  cudaTextureObject_t ctex;
  CHECK(cudaCreateTextureObject(&ctex, &rd, &td, nullptr));
  float4* d4;
  CHECK(cudaMalloc(&d4, W * 2 * sizeof(float4)));
  sample_rgba<<<2, W>>>(ctex, d4);
  std::vector<float4> o4(W * 2);
  CHECK(cudaMemcpy(o4.data(), d4, W * 2 * sizeof(float4), cudaMemcpyDeviceToHost));
  for (int i = 0; i < W * 2; ++i) {
    const float want[4] = {rgba[i].x / 255.0f, rgba[i].y / 255.0f, rgba[i].z / 255.0f, rgba[i].w / 255.0f};
    const float have[4] = {o4[i].x, o4[i].y, o4[i].z, o4[i].w};
    for (int k = 0; k < 4; ++k)
      if (want[k] != have[k] && bad++ < 10) std::printf("rgba %d.%d: %.9g, expected %.9g\n", i, k, have[k], want[k]);
  }

  // tex1Dfetch on linear memory.
  std::vector<int> lin(40);
  for (int i = 0; i < 40; ++i) lin[i] = i * i - 100;
  int *dl, *dfetch;
  CHECK(cudaMalloc(&dl, 40 * sizeof(int)));
  CHECK(cudaMalloc(&dfetch, 40 * sizeof(int)));
  CHECK(cudaMemcpy(dl, lin.data(), 40 * sizeof(int), cudaMemcpyHostToDevice));
  cudaResourceDesc ld{};
  ld.resType = cudaResourceTypeLinear;
  ld.res.linear.devPtr = dl;
  ld.res.linear.desc = cudaCreateChannelDesc<int>();
  ld.res.linear.sizeInBytes = 40 * sizeof(int);
  cudaTextureDesc ltd{};
  cudaTextureObject_t ltex;
  CHECK(cudaCreateTextureObject(&ltex, &ld, &ltd, nullptr));
  fetch<<<1, 40>>>(ltex, dfetch, 40);
  std::vector<int> fetched(40);
  CHECK(cudaMemcpy(fetched.data(), dfetch, 40 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 40; ++i)
    if (fetched[i] != lin[i] && bad++ < 15) std::printf("tex1Dfetch %d: %d, expected %d\n", i, fetched[i], lin[i]);

  {  // pitch2D: the image in cudaMalloc'd rows of 24 floats, sampled with linear filtering like the array
    const size_t pitch = 24 * sizeof(float);
    std::vector<float> rows(24 * H, -7.0f);
    for (int y = 0; y < H; ++y) std::memcpy(&rows[y * 24], &img[y * W], W * sizeof(float));
    float* dp;
    CHECK(cudaMalloc(&dp, rows.size() * sizeof(float)));
    CHECK(cudaMemcpy(dp, rows.data(), rows.size() * sizeof(float), cudaMemcpyHostToDevice));
    cudaResourceDesc pd{};
    pd.resType = cudaResourceTypePitch2D;
    pd.res.pitch2D.devPtr = dp;
    pd.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    pd.res.pitch2D.width = W;
    pd.res.pitch2D.height = H;
    pd.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc ptd{};
    ptd.filterMode = cudaFilterModeLinear;
    cudaTextureObject_t ptex;
    CHECK(cudaCreateTextureObject(&ptex, &pd, &ptd, nullptr));
    const Mode m{true, false, cudaAddressModeClamp};
    for (auto& c : coords) c.x = next() * (W + 8) - 4, c.y = next() * (H + 8) - 4;
    CHECK(cudaMemcpy(dc, coords.data(), N * sizeof(float2), cudaMemcpyHostToDevice));
    sample<<<(N + 31) / 32, 32>>>(ptex, dc, dout, N);
    CHECK(cudaMemcpy(out.data(), dout, N * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; ++i) {
      float want = host_tex(img, coords[i].x, coords[i].y, m);
      if (std::memcmp(&want, &out[i], 4) != 0 && bad++ < 20) std::printf("pitch2D at (%g, %g): %.9g, expected %.9g\n", coords[i].x, coords[i].y, out[i], want);
    }
    CHECK(cudaDestroyTextureObject(ptex));
    CHECK(cudaFree(dp));
  }
  {  // cudaMemcpyToArray / FromArray: whole rows from byte offset 0, then part of one row
    std::vector<float> back(W * H, 0.0f);
    CHECK(cudaMemcpyToArray(arr, 0, 0, img.data(), W * H * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpyFromArray(back.data(), arr, 0, 0, W * H * sizeof(float), cudaMemcpyDeviceToHost));
    float part[3];
    CHECK(cudaMemcpyFromArray(part, arr, 5 * sizeof(float), 2, sizeof part, cudaMemcpyDeviceToHost));
    if (back != img || part[0] != img[2 * W + 5] || part[2] != img[2 * W + 7]) {
      std::printf("cudaMemcpyToArray / FromArray round trip differs\n");
      ++bad;
    }
  }

  CHECK(cudaDestroyTextureObject(ctex));
  CHECK(cudaDestroyTextureObject(ltex));
  CHECK(cudaFreeArray(arr));
  CHECK(cudaFreeArray(carr));
  CHECK(cudaFree(dc));
  CHECK(cudaFree(dout));
  CHECK(cudaFree(d4));
  CHECK(cudaFree(dl));
  CHECK(cudaFree(dfetch));
  ok = ok && bad == 0;
  std::printf("texture_sample: %s (%d mismatches)\n", ok ? "PASS" : "FAIL", bad);
  return ok ? 0 : 1;
}
