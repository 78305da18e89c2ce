// exec-flags: --device-props $DIR/blackwell.props.json
// expect-exit: 0
// expect-stdout: device: 10.0, 148 SMs, attribute 10, name ptxcheck interpreter (compute capability 10.0)
// --device-props changes what the program sees of the device (a Blackwell-only program's check passes).
#include <cstdio>

int main() {
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  int major = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  std::printf("device: %d.%d, %d SMs, attribute %d, name %s\n", p.major, p.minor, p.multiProcessorCount, major, p.name);
  return 0;
}
