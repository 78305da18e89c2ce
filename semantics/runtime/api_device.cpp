// CUDA runtime API: the device ptxcheck presents (an H100-like device of compute capability 9.0, the newest
// architecture every sm_90 PTX runs on; docs/exec.md lists its properties), device management, function
// attributes and occupancy.
#include "semantics/runtime/device_limits.hpp"
#include "semantics/runtime/graph.hpp"
#include "semantics/runtime/mempool.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdio>
#include <cstring>

using ptx::runtime::Runtime;
using ptx::runtime::kSharedPerBlock, ptx::runtime::kSharedPerBlockOptin, ptx::runtime::kSharedPerSm;

namespace {

constexpr int kMultiprocessors = 132, kClockKHz = 1755000, kMaxThreadsPerSm = 2048, kMaxBlocksPerSm = 32;
constexpr int kRegistersPerSm = 65536;

// Every device of `--devices N` has these properties; its PCI bus number is its ordinal, and the global window is
// shared out equally among the devices.
cudaDeviceProp device_properties(int device) {
  cudaDeviceProp p;
  std::memset(&p, 0, sizeof p);
  std::strncpy(p.name, "ptxcheck interpreter (H100-like, sm_90)", sizeof p.name - 1);
  p.totalGlobalMem = Runtime::instance().device_total();
  p.pciBusID = device;
  p.sharedMemPerBlock = kSharedPerBlock;
  p.sharedMemPerBlockOptin = kSharedPerBlockOptin;
  p.sharedMemPerMultiprocessor = kSharedPerSm;
  p.regsPerBlock = p.regsPerMultiprocessor = kRegistersPerSm;
  p.warpSize = 32;
  p.memPitch = 2147483647;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsDim[0] = 1024, p.maxThreadsDim[1] = 1024, p.maxThreadsDim[2] = 64;
  p.maxGridSize[0] = 2147483647, p.maxGridSize[1] = 65535, p.maxGridSize[2] = 65535;
  p.totalConstMem = 65536;
  p.major = 9, p.minor = 0;
  p.textureAlignment = 512, p.texturePitchAlignment = 32;
  p.multiProcessorCount = kMultiprocessors;
  p.canMapHostMemory = 0;
  p.concurrentKernels = 1;
  p.unifiedAddressing = 1;
  p.memoryBusWidth = 5120;
  p.l2CacheSize = 50 * 1024 * 1024;
  p.maxThreadsPerMultiProcessor = kMaxThreadsPerSm;
  p.maxBlocksPerMultiProcessor = kMaxBlocksPerSm;
  p.globalL1CacheSupported = p.localL1CacheSupported = 1;
  p.cooperativeLaunch = 1;
  p.clusterLaunch = 1;
  p.reservedSharedMemPerBlock = 1024;
  // cudaHostRegister works, read-only too; the registered range's device pointer is not its host address
  // (semantics/runtime/host_register.cpp).
  p.hostRegisterSupported = p.hostRegisterReadOnlySupported = 1;
  p.canUseHostPointerForRegisteredMem = 0;
  // --device-props: the user's values over these (the names are cudaDeviceProp's).
  for (const auto& [name, value] : Runtime::instance().device_overrides()) {
    const int v = static_cast<int>(value);
    if (name == "major") p.major = v;
    else if (name == "minor") p.minor = v;
    else if (name == "multiProcessorCount") p.multiProcessorCount = v;
    else if (name == "maxThreadsPerBlock") p.maxThreadsPerBlock = v;
    else if (name == "sharedMemPerBlock") p.sharedMemPerBlock = static_cast<size_t>(value);
    else if (name == "sharedMemPerBlockOptin") p.sharedMemPerBlockOptin = static_cast<size_t>(value);
    else if (name == "sharedMemPerMultiprocessor") p.sharedMemPerMultiprocessor = static_cast<size_t>(value);
    else if (name == "maxThreadsPerMultiProcessor") p.maxThreadsPerMultiProcessor = v;
    else if (name == "maxBlocksPerMultiProcessor") p.maxBlocksPerMultiProcessor = v;
    else if (name == "l2CacheSize") p.l2CacheSize = v;
    else if (name == "regsPerBlock") p.regsPerBlock = v;
    else if (name == "regsPerMultiprocessor") p.regsPerMultiprocessor = v;
    else if (name == "totalConstMem") p.totalConstMem = static_cast<size_t>(value);
    else if (name == "clusterLaunch") p.clusterLaunch = v;
    else if (name == "cooperativeLaunch") p.cooperativeLaunch = v;
  }
  if (p.major != 9 || p.minor != 0)
    std::snprintf(p.name, sizeof p.name, "ptxcheck interpreter (compute capability %d.%d)", p.major, p.minor);
  return p;
}

}  // namespace

extern "C" {

// Device management (Runtime API): the count of `--devices N`; the current device is the calling host thread's.
cudaError_t cudaGetDeviceCount(int* count) {
  if (!count) return cudaErrorInvalidValue;
  *count = Runtime::instance().device_count();
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  if (!device) return cudaErrorInvalidValue;
  *device = Runtime::instance().current_device();
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  return static_cast<cudaError_t>(Runtime::instance().record(Runtime::instance().set_device(device)));
}
// "the context will not be made current to device": cudaInitDevice checks the ordinal and changes nothing else.
cudaError_t cudaInitDevice(int device, unsigned int, unsigned int) {
  return Runtime::instance().valid_device(device) ? cudaSuccess : static_cast<cudaError_t>(Runtime::instance().record(cudaErrorInvalidDevice));
}
cudaError_t cudaSetDeviceFlags(unsigned int) { return cudaSuccess; }
cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  *flags = 0;
  return cudaSuccess;
}
cudaError_t cudaDeviceSynchronize() {
  if (int e = ptx::runtime::capture_forbids("cudaDeviceSynchronize")) return static_cast<cudaError_t>(e);
  ptx::runtime::pools_synchronized();
  return static_cast<cudaError_t>(Runtime::instance().sticky());
}
cudaError_t cudaDeviceReset() {
  Runtime::instance().reset_device();
  return cudaSuccess;
}
cudaError_t cudaDriverGetVersion(int* version) {
  *version = CUDART_VERSION;
  return cudaSuccess;
}
cudaError_t cudaRuntimeGetVersion(int* version) {
  *version = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!Runtime::instance().valid_device(device)) return cudaErrorInvalidDevice;
  *prop = device_properties(device);
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (!Runtime::instance().valid_device(device)) return cudaErrorInvalidDevice;
  const cudaDeviceProp p = device_properties(device);
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *value = p.maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *value = p.maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(p.sharedMemPerBlock); break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(p.sharedMemPerBlockOptin); break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(p.sharedMemPerMultiprocessor); break;
    case cudaDevAttrTotalConstantMemory: *value = static_cast<int>(p.totalConstMem); break;
    case cudaDevAttrWarpSize: *value = p.warpSize; break;
    case cudaDevAttrMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; break;
    case cudaDevAttrClockRate: *value = kClockKHz; break;
    case cudaDevAttrMultiProcessorCount: *value = p.multiProcessorCount; break;
    case cudaDevAttrComputeCapabilityMajor: *value = p.major; break;
    case cudaDevAttrComputeCapabilityMinor: *value = p.minor; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *value = p.maxBlocksPerMultiProcessor; break;
    case cudaDevAttrL2CacheSize: *value = p.l2CacheSize; break;
    case cudaDevAttrUnifiedAddressing: *value = 1; break;
    case cudaDevAttrCooperativeLaunch: *value = 1; break;
    case cudaDevAttrClusterLaunch: *value = 1; break;
    case cudaDevAttrConcurrentKernels: *value = 1; break;
    case cudaDevAttrGlobalL1CacheSupported: case cudaDevAttrLocalL1CacheSupported: *value = 1; break;
    case cudaDevAttrMemoryPoolsSupported: *value = 1; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *value = static_cast<int>(p.reservedSharedMemPerBlock); break;
    case cudaDevAttrPciBusId: *value = p.pciBusID; break;
    case cudaDevAttrPciDeviceId: *value = p.pciDeviceID; break;
    case cudaDevAttrPciDomainId: *value = p.pciDomainID; break;
    case cudaDevAttrHostRegisterSupported: *value = p.hostRegisterSupported; break;
    case cudaDevAttrHostRegisterReadOnlySupported: *value = p.hostRegisterReadOnlySupported; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: *value = p.canUseHostPointerForRegisteredMem; break;
    case cudaDevAttrIntegrated: case cudaDevAttrCanMapHostMemory: case cudaDevAttrManagedMemory:
    case cudaDevAttrConcurrentManagedAccess: case cudaDevAttrPageableMemoryAccess: case cudaDevAttrEccEnabled:
    case cudaDevAttrKernelExecTimeout: case cudaDevAttrComputeMode:
      *value = 0;
      break;
    default:
      *value = 0;
      return static_cast<cudaError_t>(Runtime::instance().unimplemented("cudaDeviceGetAttribute(attribute " + std::to_string(static_cast<int>(attr)) + ")"));
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t* value, cudaLimit limit) {
  switch (limit) {
    case cudaLimitStackSize: *value = 1024; break;
    case cudaLimitPrintfFifoSize: *value = 1 << 20; break;
    case cudaLimitMallocHeapSize: *value = 8 << 20; break;
    default: *value = 0; break;
  }
  return cudaSuccess;
}
cudaError_t cudaDeviceSetLimit(cudaLimit, size_t) { return cudaSuccess; }
cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaFuncSetCacheConfig(const void*, cudaFuncCache) { return cudaSuccess; }
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least) *least = 0;
  if (greatest) *greatest = -5;
  return cudaSuccess;
}

// Attributes of a kernel from its PTX: the PTX target as ptxVersion and binaryVersion, its `.maxntid`, static
// shared memory of its module. Register counts are a compiler's choice, so numRegs says 32 (full occupancy).
cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  const ptx::ir::Function* fn = Runtime::instance().kernel_function(func);
  if (!fn) return static_cast<cudaError_t>(Runtime::instance().record(ptx::runtime::invalid_device_function));
  std::memset(attr, 0, sizeof *attr);
  attr->maxThreadsPerBlock = 1024;
  if (auto it = fn->performance.find("maxntid"); it != fn->performance.end()) {
    std::uint64_t n = 1;
    for (auto d : it->second) n *= d;
    attr->maxThreadsPerBlock = static_cast<int>(std::min<std::uint64_t>(n, 1024));
  }
  attr->numRegs = 32;
  attr->ptxVersion = attr->binaryVersion = Runtime::instance().kernel_target(func);
  attr->maxDynamicSharedSizeBytes = static_cast<int>(Runtime::instance().kernel(func)->max_dynamic_shared);
  attr->sharedSizeBytes = Runtime::instance().kernel_static_shared(func);
  return cudaSuccess;
}
cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  if (!Runtime::instance().kernel(func)) return cudaErrorInvalidDeviceFunction;
  if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize) return cudaSuccess;  // carveout, cluster hints: no effect here
  // The limit is sharedMemPerBlockOptin less the kernel's static shared memory; kernel_static_shared counts every
  // kernel of the module, so the whole opt-in is allowed rather than refuse a valid value.
  const std::uint64_t optin = device_properties(Runtime::instance().current_device()).sharedMemPerBlockOptin;
  return static_cast<cudaError_t>(Runtime::instance().set_max_dynamic_shared(func, value, optin));
}

// Blocks per SM limited by threads, blocks and shared memory (registers are not modelled: see numRegs).
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func, int blockSize, size_t dynamicSMemSize, unsigned int) {
  if (!Runtime::instance().kernel(func) || blockSize <= 0) return cudaErrorInvalidValue;
  const std::uint64_t shared = Runtime::instance().kernel_static_shared(func) + dynamicSMemSize + 1024;
  int blocks = std::min(kMaxBlocksPerSm, kMaxThreadsPerSm / ((blockSize + 31) / 32 * 32));
  blocks = std::min<int>(blocks, static_cast<int>(kSharedPerSm / shared));
  *numBlocks = std::max(blocks, 0);
  return cudaSuccess;
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func, int blockSize, size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, 0);
}
// The most dynamic shared memory a block may take with `numBlocks` blocks of `blockSize` threads on one SM: the
// SM's shared memory split evenly, rounded down to 256 bytes, less the kernel's static shared memory, at most the
// per-block limit; cudaErrorInvalidValue when the threads or blocks alone do not fit. That is what an H200 gives
// (CUDA 13.0, tests/hardware/h200/exec.txt, pitched_memory; probed for 1 to 16 blocks of 128 threads: 49152 up to
// 4 blocks, 46592 for 5, 29184 for 8, 14592 for 16; 32 blocks of 128 and 8 of 1024 invalid): unlike the occupancy
// calculation above, it leaves out the 1 KiB the system reserves per block.
cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, const void* func, int numBlocks, int blockSize) {
  if (!dynamicSmemSize || !Runtime::instance().kernel(func) || numBlocks <= 0 || blockSize <= 0) return cudaErrorInvalidValue;
  const int by_threads = std::min(kMaxBlocksPerSm, kMaxThreadsPerSm / ((blockSize + 31) / 32 * 32));
  if (by_threads < numBlocks) return cudaErrorInvalidValue;  // the blocks cannot share an SM at all
  const std::uint64_t fixed = Runtime::instance().kernel_static_shared(func);
  const std::uint64_t per_block = kSharedPerSm / static_cast<std::uint64_t>(numBlocks) / 256 * 256;
  *dynamicSmemSize = per_block <= fixed ? 0 : std::min<std::uint64_t>(per_block - fixed, kSharedPerBlock);
  return cudaSuccess;
}
cudaError_t cudaFuncGetName(const char** name, const void* func) {
  const ptx::runtime::Kernel* k = Runtime::instance().kernel(func);
  if (!name || !k) return cudaErrorInvalidDeviceFunction;
  *name = k->name.c_str();  // the PTX entry name, as the driver knows the kernel
  return cudaSuccess;
}
cudaError_t cudaChooseDevice(int* device, const cudaDeviceProp*) {
  if (!device) return cudaErrorInvalidValue;
  *device = 0;  // every device has the same properties: the first matches as well as any
  return cudaSuccess;
}
// "[domain]:[bus]:[device].[function] where domain, bus, device, and function are all hexadecimal values"
// (Runtime API): 0000:BB:00.0 with the ordinal as bus BB (device_properties).
cudaError_t cudaDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  if (!pciBusId || len <= 0) return cudaErrorInvalidValue;
  if (!Runtime::instance().valid_device(device)) return cudaErrorInvalidDevice;
  std::snprintf(pciBusId, static_cast<size_t>(len), "%04x:%02x:%02x.0", 0, device, 0);
  return cudaSuccess;
}
cudaError_t cudaDeviceGetByPCIBusId(int* device, const char* pciBusId) {
  unsigned domain = 0, bus = 0, slot = 0, function = 0;
  if (!device || !pciBusId) return cudaErrorInvalidValue;
  // The forms [domain]:[bus]:[device].[function], [domain]:[bus]:[device] and [bus]:[device].[function].
  int fields = std::sscanf(pciBusId, "%x:%x:%x.%x", &domain, &bus, &slot, &function);
  if (fields < 3) {
    domain = 0;
    fields = std::sscanf(pciBusId, "%x:%x.%x", &bus, &slot, &function) == 3 ? 3 : 0;
  }
  if (fields < 3 || domain != 0 || slot != 0 || function != 0 || !Runtime::instance().valid_device(static_cast<int>(bus)))
    return cudaErrorInvalidDevice;
  *device = static_cast<int>(bus);
  return cudaSuccess;
}
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* config) {
  if (!config) return cudaErrorInvalidValue;
  *config = cudaFuncCachePreferNone;  // a performance preference: results do not depend on it
  return cudaSuccess;
}

}  // extern "C"
