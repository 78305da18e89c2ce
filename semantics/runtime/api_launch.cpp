// CUDA runtime API: registration of a program's device code and kernel launches (crt/host_runtime.h,
// crt/device_functions.h: what nvcc's generated host stubs call; cuda_runtime_api.h: cudaLaunchKernel*).
#include "semantics/runtime/runtime.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>
#include <cstdlib>

using ptx::runtime::Runtime;

namespace {
ptx::runtime::LaunchConfig config_of(dim3 grid, dim3 block, size_t shared, cudaStream_t stream) {
  return {{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shared, stream};
}
}  // namespace

extern "C" {

void** __cudaRegisterFatBinary(void* fatCubin) { return Runtime::instance().register_fatbin(fatCubin); }
void __cudaRegisterFatBinaryEnd(void**) {}
void __cudaUnregisterFatBinary(void**) {}
// Called by nvcc's host code before its first access to a `__managed__` variable, which it then dereferences
// through the pointer __cudaRegisterManagedVar named: without a mapping that would be a null dereference, so the
// program stops here with the reason instead.
char __cudaInitModule(void** handle) {
  if (Runtime::instance().init_module(handle)) return 1;
  std::fprintf(stderr, "ptxcheck exec: stopping: the program's __managed__ variables cannot be placed\n");
  std::exit(1);
}

void __cudaRegisterFunction(void** handle, const char* hostFun, char*, const char* deviceName, int, uint3*, uint3*, dim3*, dim3*, int*) {
  Runtime::instance().register_function(handle, hostFun, deviceName);
}

void __cudaRegisterVar(void** handle, char* hostVar, char*, const char* deviceName, int, size_t size, int, int) {
  Runtime::instance().register_variable(handle, hostVar, deviceName, size);
}

void __cudaRegisterManagedVar(void** handle, void** hostVarPtrAddress, char*, const char* deviceName, int, size_t, int, int) {
  Runtime::instance().register_managed_variable(handle, hostVarPtrAddress, deviceName);
}

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem, struct CUstream_st* stream) {
  Runtime::instance().push_config(config_of(gridDim, blockDim, sharedMem, stream));
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem, void* stream) {
  ptx::runtime::LaunchConfig c;
  if (!Runtime::instance().pop_config(c)) return cudaErrorInvalidConfiguration;
  *gridDim = dim3(c.grid[0], c.grid[1], c.grid[2]);
  *blockDim = dim3(c.block[0], c.block[1], c.block[2]);
  *sharedMem = c.shared_bytes;
  *static_cast<void**>(stream) = c.stream;
  return cudaSuccess;
}

// A kernel handle is the kernel's host stub address: every launch path names the kernel by it.
cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* func) {
  *kernel = reinterpret_cast<cudaKernel_t>(const_cast<void*>(func));
  return Runtime::instance().kernel(func) ? cudaSuccess : cudaErrorInvalidDeviceFunction;
}

cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem, cudaStream_t stream) {
  return static_cast<cudaError_t>(Runtime::instance().launch(func, config_of(gridDim, blockDim, sharedMem, stream), args));
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem, cudaStream_t stream) {
  return cudaLaunchKernel(reinterpret_cast<const void*>(kernel), gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem, cudaStream_t stream) {
  return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args, size_t sharedMem, cudaStream_t stream) {
  ptx::runtime::LaunchExtras extras;
  extras.cooperative = true;
  return static_cast<cudaError_t>(Runtime::instance().launch(func, config_of(gridDim, blockDim, sharedMem, stream), args, extras));
}

// cudaLaunchKernelEx (a template over this): the attributes ptxcheck models are the cluster shape and a
// cooperative launch; the others (priorities, access policies, programmatic serialisation) change no result.
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  if (!config) return cudaErrorInvalidValue;
  ptx::runtime::LaunchExtras extras;
  for (unsigned i = 0; i < config->numAttrs; ++i) {
    const cudaLaunchAttribute& a = config->attrs[i];
    if (a.id == cudaLaunchAttributeClusterDimension)
      extras.cluster = ptx::interp::Dims{a.val.clusterDim.x, a.val.clusterDim.y, a.val.clusterDim.z};
    else if (a.id == cudaLaunchAttributeCooperative)
      extras.cooperative = a.val.cooperative != 0;
  }
  return static_cast<cudaError_t>(
      Runtime::instance().launch(func, config_of(config->gridDim, config->blockDim, config->dynamicSmemBytes, config->stream), args, extras));
}

}  // extern "C"
