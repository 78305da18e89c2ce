// The CUDA runtime's error names and messages (cudaGetErrorName / cudaGetErrorString) for the codes ptxcheck's
// runtime returns, worded as NVIDIA's runtime words them.
#include "semantics/runtime/runtime.hpp"

namespace ptx::runtime {
namespace {
struct ErrorText {
  int code;
  const char* name;
  const char* message;
};
constexpr ErrorText kErrors[] = {
    {success, "cudaSuccess", "no error"},
    {invalid_value, "cudaErrorInvalidValue", "invalid argument"},
    {memory_allocation, "cudaErrorMemoryAllocation", "out of memory"},
    {invalid_configuration, "cudaErrorInvalidConfiguration", "invalid configuration argument"},
    {invalid_symbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {invalid_device_pointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {invalid_memcpy_direction, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {invalid_device_function, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {invalid_device, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {no_kernel_image, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"},
    {invalid_ptx, "cudaErrorInvalidPtx", "a PTX JIT compilation failed"},
    {invalid_resource_handle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {illegal_state, "cudaErrorIllegalState", "the operation cannot be performed in the present state"},
    {not_ready, "cudaErrorNotReady", "device not ready"},
    {illegal_address, "cudaErrorIllegalAddress", "an illegal memory access was encountered"},
    {launch_timeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {peer_access_already_enabled, "cudaErrorPeerAccessAlreadyEnabled", "peer access is already enabled"},
    {peer_access_not_enabled, "cudaErrorPeerAccessNotEnabled", "peer access has not been enabled"},
    {assert_failed, "cudaErrorAssert", "device-side assert triggered"},
    {host_memory_already_registered, "cudaErrorHostMemoryAlreadyRegistered", "part or all of the requested memory range is already mapped"},
    {host_memory_not_registered, "cudaErrorHostMemoryNotRegistered", "pointer does not correspond to a registered memory region"},
    {illegal_instruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"},
    {misaligned_address, "cudaErrorMisalignedAddress", "misaligned address"},
    {launch_failure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {not_supported, "cudaErrorNotSupported", "operation not supported"},
    {stream_capture_unsupported, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"},
    {stream_capture_invalidated, "cudaErrorStreamCaptureInvalidated", "operation failed due to a previous error during capture"},
    {stream_capture_merge, "cudaErrorStreamCaptureMerge", "operation would result in a merge of separate capture sequences"},
    {stream_capture_unmatched, "cudaErrorStreamCaptureUnmatched", "capture was not ended in the same stream as it began"},
    {stream_capture_unjoined, "cudaErrorStreamCaptureUnjoined", "capturing stream has unjoined work"},
    {stream_capture_implicit, "cudaErrorStreamCaptureImplicit", "operation would make the legacy stream depend on a capturing blocking stream"},
    {graph_exec_update_failure, "cudaErrorGraphExecUpdateFailure",
     "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"},
    {unknown, "cudaErrorUnknown", "unknown error"},
};
const ErrorText* find(int code) {
  for (const auto& e : kErrors)
    if (e.code == code) return &e;
  return nullptr;
}
}  // namespace

const char* error_string(int error) {
  const ErrorText* e = find(error);
  return e ? e->message : "unrecognized error code";
}
const char* error_name(int error) {
  const ErrorText* e = find(error);
  return e ? e->name : "cudaErrorUnknown";
}

}  // namespace ptx::runtime
