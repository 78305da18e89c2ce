// CUDA runtime API: peer device memory access and peer copies between the devices of `ptxcheck exec --devices N`
// (devices.cpp). Every device may access every other's memory once the program enables it; copies between
// devices work without it, as CUDA's do.
#include "semantics/runtime/api_error.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cuda_runtime_api.h>

using ptx::runtime::Runtime;

namespace {
cudaError_t invalid_device() { return as_error(Runtime::instance().record(cudaErrorInvalidDevice)); }
}  // namespace

extern "C" {

// "Returns in *canAccessPeer a value of 1 if device device is capable of directly accessing memory from peerDevice
// and 0 otherwise": 1 between two devices here, 0 for a device and itself (it is not its own peer).
cudaError_t cudaDeviceCanAccessPeer(int* can, int device, int peer) {
  if (!can) return cudaErrorInvalidValue;
  Runtime& r = Runtime::instance();
  if (!r.valid_device(device) || !r.valid_device(peer)) return invalid_device();
  *can = device != peer ? 1 : 0;
  return cudaSuccess;
}
// "Returns cudaErrorInvalidValue if flags is not 0"; the other errors: Runtime::enable_peer.
cudaError_t cudaDeviceEnablePeerAccess(int peer, unsigned int flags) {
  if (flags != 0) return as_error(Runtime::instance().record(cudaErrorInvalidValue));
  return as_error(Runtime::instance().enable_peer(peer));
}
cudaError_t cudaDeviceDisablePeerAccess(int peer) { return as_error(Runtime::instance().disable_peer(peer)); }

// "Copies memory from one device to memory on another device": the ordinals must name devices (cudaErrorInvalidDevice);
// under unified addressing the copy itself is a device-to-device copy.
cudaError_t cudaMemcpyPeer(void* dst, int dst_device, const void* src, int src_device, size_t count) {
  if (!Runtime::instance().valid_device(dst_device) || !Runtime::instance().valid_device(src_device)) return invalid_device();
  return cudaMemcpy(dst, src, count, cudaMemcpyDeviceToDevice);
}
cudaError_t cudaMemcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t count, cudaStream_t stream) {
  if (!Runtime::instance().valid_device(dst_device) || !Runtime::instance().valid_device(src_device)) return invalid_device();
  return cudaMemcpyAsync(dst, src, count, cudaMemcpyDeviceToDevice, stream);
}

}  // extern "C"
