// CUDA runtime API: device memory, host memory, copies and symbols (cuda_runtime_api.h, "Memory Management").
// Asynchronous forms complete before they return: one of the orders a stream allows (docs/exec.md).
#include "semantics/runtime/graph.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>

using ptx::runtime::Runtime;

namespace {
cudaError_t as_error(int e) { return static_cast<cudaError_t>(e); }

// The device address `offset` bytes into a registered variable, checking that `count` bytes fit.
cudaError_t symbol_at(const void* symbol, size_t count, size_t offset, void*& address) {
  std::uint64_t base = 0, size = 0;
  if (int e = Runtime::instance().symbol(symbol, base, size)) return as_error(e);
  if (offset > size || count > size - offset) return as_error(Runtime::instance().record(ptx::runtime::invalid_value));
  address = reinterpret_cast<void*>(base + offset);
  return cudaSuccess;
}
}  // namespace

extern "C" {

cudaError_t cudaMalloc(void** devPtr, size_t size) { return as_error(Runtime::instance().allocate(devPtr, size)); }
cudaError_t cudaFree(void* devPtr) { return as_error(Runtime::instance().release(devPtr)); }
cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t) { return cudaMalloc(devPtr, size); }
cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t) { return cudaFree(devPtr); }

cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int) { return as_error(Runtime::instance().allocate_managed(devPtr, size)); }
// Where managed memory lives is a performance matter: prefetches and advice change no result.
cudaError_t cudaMemPrefetchAsync(const void*, size_t, cudaMemLocation, unsigned int, cudaStream_t) { return cudaSuccess; }
cudaError_t cudaMemAdvise(const void*, size_t, cudaMemoryAdvise, cudaMemLocation) { return cudaSuccess; }

// Pinned host memory is host memory: the interpreter copies from any host address.
cudaError_t cudaMallocHost(void** ptr, size_t size) {
  *ptr = std::malloc(size ? size : 1);
  return *ptr ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int) { return cudaMallocHost(ptr, size); }
cudaError_t cudaFreeHost(void* ptr) {
  std::free(ptr);
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  return as_error(Runtime::instance().copy(dst, src, count, kind));
}
// In a capturing stream, recorded: the copy reads its source when the graph runs (api_graph.cpp).
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  if (ptx::runtime::capture_into(stream, {"cudaMemcpyAsync", [=] { return static_cast<int>(cudaMemcpy(dst, src, count, kind)); }}))
    return cudaSuccess;
  return cudaMemcpy(dst, src, count, kind);
}
cudaError_t cudaMemset(void* devPtr, int value, size_t count) { return as_error(Runtime::instance().set(devPtr, value, count)); }
cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  if (ptx::runtime::capture_into(stream, {"cudaMemsetAsync", [=] { return static_cast<int>(cudaMemset(devPtr, value, count)); }}))
    return cudaSuccess;
  return cudaMemset(devPtr, value, count);
}

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset, cudaMemcpyKind kind) {
  void* address = nullptr;
  if (cudaError_t e = symbol_at(symbol, count, offset, address)) return e;
  return cudaMemcpy(address, src, count, kind == cudaMemcpyDefault ? cudaMemcpyDefault : kind == cudaMemcpyDeviceToDevice ? kind : cudaMemcpyHostToDevice);
}
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind) {
  void* address = nullptr;
  if (cudaError_t e = symbol_at(symbol, count, offset, address)) return e;
  return cudaMemcpy(dst, address, count, kind == cudaMemcpyDefault ? cudaMemcpyDefault : kind == cudaMemcpyDeviceToDevice ? kind : cudaMemcpyDeviceToHost);
}
cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  if (ptx::runtime::capture_into(stream, {"cudaMemcpyToSymbolAsync", [=] { return static_cast<int>(cudaMemcpyToSymbol(symbol, src, count, offset, kind)); }}))
    return cudaSuccess;
  return cudaMemcpyToSymbol(symbol, src, count, offset, kind);
}
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  if (ptx::runtime::capture_into(stream, {"cudaMemcpyFromSymbolAsync", [=] { return static_cast<int>(cudaMemcpyFromSymbol(dst, symbol, count, offset, kind)); }}))
    return cudaSuccess;
  return cudaMemcpyFromSymbol(dst, symbol, count, offset, kind);
}
cudaError_t cudaGetSymbolAddress(void** devPtr, const void* symbol) { return symbol_at(symbol, 0, 0, *devPtr); }
cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol) {
  std::uint64_t base = 0, bytes = 0;
  if (int e = Runtime::instance().symbol(symbol, base, bytes)) return as_error(e);
  *size = bytes;
  return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  *total = ptx::interp::kSharedWindow - ptx::interp::kGlobalBase;
  *free = *total;  // the interpreter's memory grows on demand up to the total
  return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  std::memset(attributes, 0, sizeof *attributes);
  const bool device = Runtime::instance().is_device_pointer(ptr);
  attributes->type = device ? cudaMemoryTypeDevice : cudaMemoryTypeUnregistered;
  attributes->devicePointer = device ? const_cast<void*>(ptr) : nullptr;
  attributes->hostPointer = device ? nullptr : const_cast<void*>(ptr);
  return cudaSuccess;
}

}  // extern "C"
