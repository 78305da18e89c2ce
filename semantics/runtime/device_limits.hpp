// Shared-memory limits of the device the runtime presents (H100/H200-like, sm_90), in one place: the device
// properties report them, a launch is held to them, and the race checker's replay sizes dynamic shared memory by
// the default. Values as CUDA 13 reports them on an H200 (tests/hardware/h200/probes-runtime.txt: "per SM 233472
// optin 232448"; probes.txt, launch_errors: 48 KiB of dynamic shared memory without opting in).
#pragma once

#include <cstdint>

namespace ptx::runtime {

// Shared memory a CTA may use without opting in (cudaDeviceProp::sharedMemPerBlock): also the dynamic shared memory
// a launch may ask for until cudaFuncAttributeMaxDynamicSharedMemorySize raises it (tests/hardware/h200/probes.txt).
inline constexpr std::uint32_t kSharedPerBlock = 48 * 1024;
inline constexpr std::uint32_t kSharedPerBlockOptin = 227 * 1024;  // sharedMemPerBlockOptin
inline constexpr std::uint32_t kSharedPerSm = 228 * 1024;          // sharedMemPerMultiprocessor

}  // namespace ptx::runtime
