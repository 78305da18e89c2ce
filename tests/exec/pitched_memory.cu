// expect-exit: 0
// expect-stdout: pitch 512: 2D 3700 of 3700, set2D 3700 of 3700
// expect-stdout: 3D 5040 of 5040, set3D ok 1
// expect-stdout: zero-copy: 256 of 256 through the device pointer, 256 of 256 through the host pointer
// expect-stdout: callback after the kernel: 1, flags 1
// expect-stdout: pointer types: host 1 device 1 managed 1 unregistered 1
// measured on an H200 (tests/hardware/h200/exec.txt):
// expect-stdout: dynamic shared for 8 blocks of 128: 29184
// Pitched memory (cudaMallocPitch, cudaMemcpy2D, cudaMemset2D, cudaMalloc3D, cudaMemcpy3D, cudaMemset3D), pinned
// memory a kernel reads and writes directly (cudaHostAlloc + cudaHostGetDevicePointer, and a cudaMallocHost
// pointer under unified addressing), a stream callback, stream flags and an occupancy query. Each result is checked
// against the host's own computation; the pitch (512-byte rows) is ptxcheck's documented device (docs/exec.md), the
// occupancy figure cudaOccupancyAvailableDynamicSMemPerBlock's on an H200: 228 KiB per SM / 8 blocks, rounded down
// to 256 bytes, with no per-block reservation taken off (the emulated device has the H200's 228 KiB per SM).
#include <cstdio>

__global__ void scale2d(float* a, size_t pitch, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < width && y < height) {
    float* row = (float*)((char*)a + y * pitch);
    row[x] = row[x] * 2.0f + y;
  }
}
__global__ void add3d(cudaPitchedPtr p, int w, int h, int d) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  if (x < w && y < h && z < d) {
    int* row = (int*)((char*)p.ptr + (z * h + y) * p.pitch);
    row[x] += 1000 * z;
  }
}
__global__ void square(int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * in[i];
}
__global__ void empty_kernel() {}
int callback_seen = -1;
void CUDART_CB after(cudaStream_t, cudaError_t status, void* data) { callback_seen = status == cudaSuccess && *(int*)data == 49; }

int main() {
  const int w = 100, h = 37;
  static float host[h][w], back[h][w];
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) host[y][x] = x * 0.25f - y;
  float* dev;
  size_t pitch;
  cudaMallocPitch((void**)&dev, &pitch, w * sizeof(float), h);
  cudaMemcpy2D(dev, pitch, host, sizeof host[0], w * sizeof(float), h, cudaMemcpyHostToDevice);
  scale2d<<<dim3(1, h), 128>>>(dev, pitch, w, h);
  cudaMemcpy2D(back, sizeof back[0], dev, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost);
  int ok = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) ok += back[y][x] == host[y][x] * 2.0f + y;
  cudaMemset2D(dev, pitch, 0xff, w * sizeof(float), h);
  cudaMemcpy2D(back, sizeof back[0], dev, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost);
  int set = 0;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) set += __builtin_isnan(back[y][x]) != 0;  // 0xffffffff is a NaN
  printf("pitch %zu: 2D %d of %d, set2D %d of %d\n", pitch, ok, w * h, set, w * h);

  const int W = 30, H = 12, D = 14;
  static int cube[D][H][W], out[D][H][W];
  for (int z = 0; z < D; ++z)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) cube[z][y][x] = x + 100 * y;
  cudaPitchedPtr p;
  cudaExtent extent = make_cudaExtent(W * sizeof(int), H, D);
  cudaMalloc3D(&p, extent);
  cudaMemcpy3DParms up = {};
  up.srcPtr = make_cudaPitchedPtr(cube, W * sizeof(int), W, H);
  up.dstPtr = p;
  up.extent = extent;
  up.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&up);
  add3d<<<dim3(H, D), 32>>>(p, W, H, D);
  cudaMemcpy3DParms down = {};
  down.srcPtr = p;
  down.dstPtr = make_cudaPitchedPtr(out, W * sizeof(int), W, H);
  down.extent = extent;
  down.kind = cudaMemcpyDeviceToHost;
  cudaMemcpy3D(&down);
  ok = 0;
  for (int z = 0; z < D; ++z)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) ok += out[z][y][x] == x + 100 * y + 1000 * z;
  cudaMemset3D(p, 0, extent);
  cudaMemcpy3D(&down);
  int zeros = 0;
  for (int z = 0; z < D; ++z)
    for (int y = 0; y < H; ++y)
      for (int x = 0; x < W; ++x) zeros += out[z][y][x] == 0;
  printf("3D %d of %d, set3D ok %d\n", ok, W * H * D, zeros == W * H * D);

  const int n = 256;
  int *in_host, *in_dev, *out_pinned, *dx_probe;
  cudaMalloc(&dx_probe, 16);
  cudaHostAlloc((void**)&in_host, n * sizeof(int), cudaHostAllocMapped);
  cudaMallocHost((void**)&out_pinned, n * sizeof(int));
  for (int i = 0; i < n; ++i) in_host[i] = i - 50;
  cudaHostGetDevicePointer((void**)&in_dev, in_host, 0);
  square<<<n / 64, 64>>>(in_dev, out_pinned, n);  // the kernel reads and writes pinned host memory
  cudaDeviceSynchronize();
  int through_dev = 0, through_host = 0;
  for (int i = 0; i < n; ++i) through_dev += out_pinned[i] == (i - 50) * (i - 50);
  square<<<n / 64, 64>>>(in_host, out_pinned, n);
  cudaDeviceSynchronize();
  for (int i = 0; i < n; ++i) through_host += out_pinned[i] == (i - 50) * (i - 50);
  printf("zero-copy: %d of %d through the device pointer, %d of %d through the host pointer\n", through_dev, n, through_host, n);
  cudaPointerAttributes attr;
  int *managed, on_stack = 0;
  cudaMallocManaged(&managed, 64);
  int types[4];
  const void* probes[4] = {in_host, dx_probe, managed, &on_stack};
  for (int k = 0; k < 4; ++k) types[k] = cudaPointerGetAttributes(&attr, probes[k]) == cudaSuccess ? attr.type : -1;
  printf("pointer types: host %d device %d managed %d unregistered %d\n", types[0] == cudaMemoryTypeHost,
         types[1] == cudaMemoryTypeDevice, types[2] == cudaMemoryTypeManaged, types[3] == cudaMemoryTypeUnregistered);
  cudaFreeHost(in_host);
  cudaFreeHost(out_pinned);

  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  int data = 49;
  empty_kernel<<<1, 1, 0, s>>>();
  cudaStreamAddCallback(s, after, &data, 0);
  cudaStreamSynchronize(s);
  unsigned flags = 0;
  cudaStreamGetFlags(s, &flags);
  printf("callback after the kernel: %d, flags %u\n", callback_seen, flags);

  size_t dynamic = 0;
  cudaOccupancyAvailableDynamicSMemPerBlock(&dynamic, (const void*)empty_kernel, 8, 128);
  printf("dynamic shared for 8 blocks of 128: %zu\n", dynamic);
  return 0;
}
