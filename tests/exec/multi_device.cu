// exec-flags: --devices 2
// expect-exit: 0
// expect-stdout: devices 2, current 0, other thread 0
// expect-stdout: invalid ordinals: set 101 101 props 101 attribute 101 init 101 peer copy 101, current 0
// expect-stdout: PCI: device 1 is 0000:01:00.0, found again 1, 00:00.0 is 0, bus 1
// expect-stdout: vector add over 2 devices: 4096 of 4096, owners 0 1
// expect-stdout: __device__ tag per device: 10 20, addresses differ 1
// expect-stdout: peer: can 1 0, self 101, enable 0 again 704, disable 0 again 705, flags 1
// expect-stdout: peer kernel: 1024 of 1024, peer copy: 1024 of 1024
// expect-stdout: streams: device 1 0, launch into another device's stream 400, event on another device 400, elapsed across devices 400
// expect-stdout: memory: device 1 free less by 1048576, device 0 unchanged 1
// expect-stdout: sticky on device 1: 700 700, device 0 still 0 0, device 1's stream 700, after reset 0
// expect-stdout: reset frees device 1's memory 1, tag initial again 3
// expect-stderr: out_of_bounds
// Two devices (ptxcheck exec --devices 2), checked against the CUDA Runtime API's device management and peer
// access rules: the current device is per host thread, invalid ordinals are cudaErrorInvalidDevice (101), a vector
// add split across the devices with cudaSetDevice, each device's own copy of a __device__ variable, peer access
// misuse (self: 101, twice: cudaErrorPeerAccessAlreadyEnabled 704, disabling what is not enabled:
// cudaErrorPeerAccessNotEnabled 705, flags: cudaErrorInvalidValue 1), peer copies, streams and events of another
// device (cudaErrorInvalidResourceHandle 400, Programming Guide "stream and event behavior"), per-device memory
// accounting, and a kernel fault sticky for its own device only (cudaErrorIllegalAddress 700) until cudaDeviceReset.
#include "check_call.cuh"

#include <thread>

__device__ int tag = 3;

__global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void read_tag(int* out) { *out = tag; }
__global__ void add_from(const int* peer, int* mine, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) mine[i] += peer[i];
}
__global__ void overrun(int* p, int n) { p[n + threadIdx.x] = 1; }

int vector_add() {
  const int n = 4096, half = n / 2;
  static float a[n], b[n], c[n];
  for (int i = 0; i < n; ++i) a[i] = i, b[i] = 2 * i;
  float *da[2], *db[2], *dc[2];
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaMalloc(&da[d], half * sizeof(float)));
    CHECK(cudaMalloc(&db[d], half * sizeof(float)));
    CHECK(cudaMalloc(&dc[d], half * sizeof(float)));
    CHECK(cudaMemcpy(da[d], a + d * half, half * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db[d], b + d * half, half * sizeof(float), cudaMemcpyHostToDevice));
    vadd<<<half / 256, 256>>>(da[d], db[d], dc[d], half);
    CHECK(cudaGetLastError());
  }
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(c + d * half, dc[d], half * sizeof(float), cudaMemcpyDeviceToHost));
  }
  int good = 0;
  for (int i = 0; i < n; ++i) good += c[i] == 3.0f * i;
  cudaPointerAttributes pa0, pa1;
  CHECK(cudaPointerGetAttributes(&pa0, dc[0]));
  CHECK(cudaPointerGetAttributes(&pa1, dc[1]));
  std::printf("vector add over 2 devices: %d of %d, owners %d %d\n", good, n, pa0.device, pa1.device);
  return 0;
}

int symbols() {
  int value[2] = {10, 20}, seen[2] = {0, 0};
  void* address[2];
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d));
    CHECK(cudaMemcpyToSymbol(tag, &value[d], sizeof(int)));  // the current device's copy
    CHECK(cudaGetSymbolAddress(&address[d], tag));
  }
  for (int d = 0; d < 2; ++d) {
    CHECK(cudaSetDevice(d));
    int* out;
    CHECK(cudaMalloc(&out, sizeof(int)));
    read_tag<<<1, 1>>>(out);
    CHECK(cudaMemcpy(&seen[d], out, sizeof(int), cudaMemcpyDeviceToHost));
    int direct = 0;
    CHECK(cudaMemcpyFromSymbol(&direct, tag, sizeof(int)));
    if (direct != seen[d]) std::printf("cudaMemcpyFromSymbol on device %d: %d, the kernel read %d\n", d, direct, seen[d]);
  }
  std::printf("__device__ tag per device: %d %d, addresses differ %d\n", seen[0], seen[1], address[0] != address[1]);
  return 0;
}

int peers() {
  int can01 = -1, can00 = -1;
  CHECK(cudaDeviceCanAccessPeer(&can01, 0, 1));
  CHECK(cudaDeviceCanAccessPeer(&can00, 0, 0));
  CHECK(cudaSetDevice(0));
  const int self = cudaDeviceEnablePeerAccess(0, 0);
  const int enable = cudaDeviceEnablePeerAccess(1, 0), again = cudaDeviceEnablePeerAccess(1, 0);
  const int disable = cudaDeviceDisablePeerAccess(1), disable_again = cudaDeviceDisablePeerAccess(1);
  const int flags = cudaDeviceEnablePeerAccess(1, 7);
  cudaGetLastError();
  std::printf("peer: can %d %d, self %d, enable %d again %d, disable %d again %d, flags %d\n", can01, can00, self, enable, again, disable,
              disable_again, flags);
  // Device 0 reads device 1's memory with peer access enabled; then a peer copy from device 1 to device 0.
  const int n = 1024;
  static int host[n], back[n];
  for (int i = 0; i < n; ++i) host[i] = i;
  int *on1, *on0, *copy0;
  CHECK(cudaSetDevice(1));
  CHECK(cudaMalloc(&on1, n * sizeof(int)));
  CHECK(cudaMemcpy(on1, host, n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK(cudaSetDevice(0));
  CHECK(cudaDeviceEnablePeerAccess(1, 0));
  CHECK(cudaMalloc(&on0, n * sizeof(int)));
  CHECK(cudaMalloc(&copy0, n * sizeof(int)));
  CHECK(cudaMemcpy(on0, host, n * sizeof(int), cudaMemcpyHostToDevice));
  add_from<<<n / 256, 256>>>(on1, on0, n);
  CHECK(cudaMemcpy(back, on0, n * sizeof(int), cudaMemcpyDeviceToHost));
  int good = 0;
  for (int i = 0; i < n; ++i) good += back[i] == 2 * i;
  CHECK(cudaMemcpyPeerAsync(copy0, 0, on1, 1, n * sizeof(int), 0));
  CHECK(cudaMemcpy(back, copy0, n * sizeof(int), cudaMemcpyDeviceToHost));
  int copied = 0;
  for (int i = 0; i < n; ++i) copied += back[i] == i;
  std::printf("peer kernel: %d of %d, peer copy: %d of %d\n", good, n, copied, n);
  return 0;
}

int streams_and_events() {
  cudaStream_t s1, s0;
  cudaEvent_t e0, e1;
  CHECK(cudaSetDevice(1));
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaEventCreate(&e1));
  CHECK(cudaEventRecord(e1, s1));
  CHECK(cudaSetDevice(0));
  CHECK(cudaStreamCreate(&s0));
  CHECK(cudaEventCreate(&e0));
  int d1 = -1, d0 = -1;
  CHECK(cudaStreamGetDevice(s1, &d1));
  CHECK(cudaStreamGetDevice(s0, &d0));
  int* p;
  CHECK(cudaMalloc(&p, sizeof(int)));
  read_tag<<<1, 1, 0, s1>>>(p);  // s1 belongs to device 1, device 0 is current
  const int launch = cudaGetLastError();
  const int record = cudaEventRecord(e0, s1);
  cudaGetLastError();
  CHECK(cudaEventRecord(e0, s0));
  float ms = 0;
  const int elapsed = cudaEventElapsedTime(&ms, e0, e1);
  cudaGetLastError();
  std::printf("streams: device %d %d, launch into another device's stream %d, event on another device %d, elapsed across devices %d\n", d1,
              d0, launch, record, elapsed);
  return 0;
}

int memory() {
  size_t free0, free0_after, free1, free1_after, total;
  CHECK(cudaSetDevice(0));
  CHECK(cudaMemGetInfo(&free0, &total));
  CHECK(cudaSetDevice(1));
  CHECK(cudaMemGetInfo(&free1, &total));
  void* p;
  CHECK(cudaMalloc(&p, 1 << 20));
  CHECK(cudaMemGetInfo(&free1_after, &total));
  CHECK(cudaSetDevice(0));
  CHECK(cudaMemGetInfo(&free0_after, &total));
  std::printf("memory: device 1 free less by %zu, device 0 unchanged %d\n", free1 - free1_after, free0 == free0_after);
  return 0;
}

int sticky() {
  int* p;
  cudaStream_t s1;
  CHECK(cudaSetDevice(1));
  CHECK(cudaStreamCreate(&s1));
  CHECK(cudaMalloc(&p, 16 * sizeof(int)));
  overrun<<<1, 32>>>(p, 16);
  const int sync1 = cudaDeviceSynchronize();
  void* q;
  const int later1 = cudaMalloc(&q, 16);
  CHECK(cudaSetDevice(0));
  const int sync0 = cudaDeviceSynchronize(), later0 = cudaMalloc(&q, 16), stream1 = cudaStreamSynchronize(s1);
  CHECK(cudaSetDevice(1));
  size_t free_before, free_after, total;
  CHECK(cudaMemGetInfo(&free_before, &total));
  CHECK(cudaDeviceReset());  // destroys device 1's context: its error, its memory, its variables' values go
  const int after_reset = cudaMalloc(&q, 16);
  CHECK(cudaMemGetInfo(&free_after, &total));
  int* out;
  int fresh = -1;
  CHECK(cudaMalloc(&out, sizeof(int)));
  read_tag<<<1, 1>>>(out);
  CHECK(cudaMemcpy(&fresh, out, sizeof(int), cudaMemcpyDeviceToHost));
  std::printf("sticky on device 1: %d %d, device 0 still %d %d, device 1's stream %d, after reset %d\n", sync1, later1, sync0, later0, stream1,
              after_reset);
  // Before the reset device 1 held more than 1 MiB (memory()); after it only the 16 bytes allocated since.
  std::printf("reset frees device 1's memory %d, tag initial again %d\n", free_before < total - (1 << 20) && free_after == total - 16, fresh);
  return 0;
}

int main() {
  int count = 0, current = -1, other = -1;
  CHECK(cudaGetDeviceCount(&count));
  CHECK(cudaSetDevice(1));
  std::thread([&] { cudaGetDevice(&other); }).join();  // a new host thread starts on device 0
  CHECK(cudaSetDevice(0));
  CHECK(cudaGetDevice(&current));
  std::printf("devices %d, current %d, other thread %d\n", count, current, other);

  cudaDeviceProp prop;
  int value = 0, dummy = 0;
  const int set = cudaSetDevice(2), set_negative = cudaSetDevice(-1), props = cudaGetDeviceProperties(&prop, 2);
  const int attribute = cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 2), init = cudaInitDevice(5, 0, 0);
  const int peer_copy = cudaMemcpyPeer(&dummy, 0, &dummy, 3, 4);
  cudaGetLastError();
  CHECK(cudaGetDeviceProperties(&prop, 1));
  CHECK(cudaDeviceGetAttribute(&value, cudaDevAttrWarpSize, 1));
  CHECK(cudaInitDevice(1, 0, 0));  // initialises device 1 without making it current
  CHECK(cudaGetDevice(&current));
  char bus_id[32] = "";
  int by_bus = -1, by_short = -1;
  CHECK(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, 1));
  CHECK(cudaDeviceGetByPCIBusId(&by_bus, bus_id));
  CHECK(cudaDeviceGetByPCIBusId(&by_short, "00:00.0"));
  std::printf("PCI: device 1 is %s, found again %d, 00:00.0 is %d, bus %d\n", bus_id, by_bus, by_short, prop.pciBusID);
  std::printf("invalid ordinals: set %d %d props %d attribute %d init %d peer copy %d, current %d\n", set, set_negative, props, attribute, init,
              peer_copy, current);
  if (vector_add() || symbols() || peers() || streams_and_events() || memory() || sticky()) return 1;
  return 0;
}
