// CUDA runtime API: device memory, host memory, copies and symbols (cuda_runtime_api.h, "Memory Management").
// Asynchronous forms complete before they return: one of the orders a stream allows (docs/exec.md).
#include "semantics/runtime/api_error.hpp"
#include "semantics/runtime/graph_memory.hpp"
#include "semantics/runtime/graph_nodes.hpp"
#include "semantics/runtime/mempool.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>

using ptx::runtime::Runtime;

namespace {

// The device address `offset` bytes into a registered variable, checking that `count` bytes fit.
cudaError_t symbol_at(const void* symbol, size_t count, size_t offset, void*& address) {
  std::uint64_t base = 0, size = 0;
  if (int e = Runtime::instance().symbol(symbol, base, size)) return as_error(e);
  if (offset > size || count > size - offset) return as_error(Runtime::instance().record(ptx::runtime::invalid_value));
  address = reinterpret_cast<void*>(base + offset);
  return cudaSuccess;
}

cudaError_t copy_now(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  return as_error(Runtime::instance().copy(dst, src, count, kind));
}
// cudaFree, cudaFreeAsync: the memory's pool, if any, stops counting it.
cudaError_t release(void* devPtr) {
  const int e = Runtime::instance().release(devPtr);
  if (!e) ptx::runtime::pool_release(devPtr);
  return as_error(e);
}
cudaError_t set_now(void* devPtr, int value, size_t count) { return as_error(Runtime::instance().set(devPtr, value, count)); }
cudaError_t to_symbol_now(const void* symbol, const void* src, size_t count, size_t offset, cudaMemcpyKind kind) {
  void* address = nullptr;
  if (cudaError_t e = symbol_at(symbol, count, offset, address)) return e;
  return copy_now(address, src, count, kind == cudaMemcpyDefault ? cudaMemcpyDefault : kind == cudaMemcpyDeviceToDevice ? kind : cudaMemcpyHostToDevice);
}
cudaError_t from_symbol_now(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind) {
  void* address = nullptr;
  if (cudaError_t e = symbol_at(symbol, count, offset, address)) return e;
  return copy_now(dst, address, count, kind == cudaMemcpyDefault ? cudaMemcpyDefault : kind == cudaMemcpyDeviceToDevice ? kind : cudaMemcpyDeviceToHost);
}
}  // namespace

extern "C" {

cudaError_t cudaMalloc(void** devPtr, size_t size) {
  if (int e = ptx::runtime::capture_forbids("cudaMalloc")) return as_error(e);
  return as_error(Runtime::instance().allocate(devPtr, size));
}
cudaError_t cudaFree(void* devPtr) {
  if (int e = ptx::runtime::capture_forbids("cudaFree")) return as_error(e);
  return as_error(release(devPtr));
}
// Stream-ordered allocation happens at once. In a capture it records a memory allocation node (its address fixed
// now, its memory allocated when the graph runs) and a free node (of an address such a node returned), as the
// Programming Guide's "Graph Memory Nodes" says stream capture does (api_graph_memory.cpp).
// Outside a capture the memory comes from the current device's current pool, or the pool named (mempool.hpp).
cudaError_t cudaMallocFromPoolAsync(void** devPtr, size_t size, cudaMemPool_t pool, cudaStream_t stream) {
  cudaMemAllocNodeParams p{};
  p.poolProps.allocType = cudaMemAllocationTypePinned;
  p.poolProps.location = {cudaMemLocationTypeDevice, 0};
  if (pool && !ptx::runtime::pool_props(pool, p.poolProps)) return as_error(Runtime::instance().record(ptx::runtime::invalid_value));
  if (!ptx::runtime::is_capturing(stream)) return as_error(ptx::runtime::pool_allocate(devPtr, size, pool));
  if (!devPtr) return cudaErrorInvalidValue;
  p.bytesize = size;
  ptx::runtime::GraphNode node;
  if (int e = ptx::runtime::make_mem_alloc_node(p, node)) return as_error(e);
  ptx::runtime::capture_into(stream, std::move(node));
  *devPtr = p.dptr;
  return cudaSuccess;
}
cudaError_t cudaMallocAsync(void** devPtr, size_t size, cudaStream_t stream) { return cudaMallocFromPoolAsync(devPtr, size, nullptr, stream); }
cudaError_t cudaFreeAsync(void* devPtr, cudaStream_t stream) {
  ptx::runtime::Graph* g = ptx::runtime::capture_graph(stream);
  if (!g) return as_error(release(devPtr));
  ptx::runtime::GraphNode node;
  if (int e = ptx::runtime::make_mem_free_node(*g, devPtr, node)) return as_error(e);
  ptx::runtime::capture_into(stream, std::move(node));
  return cudaSuccess;
}

cudaError_t cudaMallocManaged(void** devPtr, size_t size, unsigned int) { return as_error(Runtime::instance().allocate_managed(devPtr, size)); }
// Where managed memory lives is a performance matter: prefetches and advice change no result.
cudaError_t cudaMemPrefetchAsync(const void*, size_t, cudaMemLocation, unsigned int, cudaStream_t) { return cudaSuccess; }
cudaError_t cudaMemAdvise(const void*, size_t, cudaMemoryAdvise, cudaMemLocation) { return cudaSuccess; }

// Pinned host memory: a region the host and the kernels share at one address, as unified addressing makes
// pinned memory (a kernel may read and write it, zero-copy); its contents reach a launch as managed memory's do.
// Memory the program registers (cudaHostRegister) gets a device pointer of its own (host_register.cpp).
cudaError_t cudaMallocHost(void** ptr, size_t size) {
  if (!ptr) return cudaErrorInvalidValue;
  return as_error(Runtime::instance().allocate_managed(ptr, size, "cudaMallocHost"));
}
cudaError_t cudaHostAlloc(void** ptr, size_t size, unsigned int) { return cudaMallocHost(ptr, size); }
cudaError_t cudaFreeHost(void* ptr) {
  if (ptr && !Runtime::instance().is_managed(ptr)) return as_error(Runtime::instance().record(ptx::runtime::invalid_value));
  return as_error(Runtime::instance().release(ptr));
}
// Pinned memory is at one address for both; registered memory's device pointer is its region's (host_register.cpp).
cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned int flags) {
  if (!device || flags != 0) return as_error(Runtime::instance().record(ptx::runtime::invalid_value));
  if (void* registered = Runtime::instance().registered_device_pointer(host)) {
    *device = registered;
    return cudaSuccess;
  }
  if (!Runtime::instance().is_device_pointer(host)) {
    Runtime::instance().report("cudaHostGetDevicePointer: the pointer is not in memory of cudaMallocHost, cudaHostAlloc or cudaHostRegister");
    return as_error(Runtime::instance().record(ptx::runtime::invalid_value));
  }
  *device = host;
  return cudaSuccess;
}
cudaError_t cudaHostGetFlags(unsigned int* flags, void* host) {
  if (!flags || !Runtime::instance().is_device_pointer(host)) return cudaErrorInvalidValue;
  *flags = cudaHostAllocMapped | cudaHostAllocPortable;
  return cudaSuccess;
}
cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags) { return as_error(Runtime::instance().register_host(ptr, size, flags)); }
cudaError_t cudaHostUnregister(void* ptr) { return as_error(Runtime::instance().unregister_host(ptr)); }

// The synchronous calls are legacy stream work, refused while a blocking stream captures (graph.hpp:
// legacy_stream_work); the asynchronous ones are recorded in a capturing stream (the copy reads its source when the graph runs, api_graph.cpp).
cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  if (int e = ptx::runtime::legacy_stream_work("cudaMemcpy")) return as_error(e);
  return copy_now(dst, src, count, kind);
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  return as_error(ptx::runtime::now_or_captured(stream, "cudaMemcpyAsync", ptx::runtime::memcpy_node,
                                                [=] { return static_cast<int>(copy_now(dst, src, count, kind)); },
                                                ptx::runtime::Memcpy1D{dst, src, count, kind}));
}
cudaError_t cudaMemset(void* devPtr, int value, size_t count) {
  if (int e = ptx::runtime::legacy_stream_work("cudaMemset")) return as_error(e);
  return set_now(devPtr, value, count);
}
cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  // (a captured memset keeps its parameters as a node of one row of `count` bytes would)
  return as_error(ptx::runtime::now_or_captured(stream, "cudaMemsetAsync", ptx::runtime::memset_node,
                                                [=] { return static_cast<int>(set_now(devPtr, value, count)); },
                                                cudaMemsetParams{devPtr, 0, static_cast<unsigned>(value) & 0xff, 1, count, 1}));
}

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset, cudaMemcpyKind kind) {
  if (int e = ptx::runtime::legacy_stream_work("cudaMemcpyToSymbol")) return as_error(e);
  return to_symbol_now(symbol, src, count, offset, kind);
}
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind) {
  if (int e = ptx::runtime::legacy_stream_work("cudaMemcpyFromSymbol")) return as_error(e);
  return from_symbol_now(dst, symbol, count, offset, kind);
}
cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count, size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  auto run = [=] { return static_cast<int>(to_symbol_now(symbol, src, count, offset, kind)); };
  return as_error(ptx::runtime::now_or_captured(stream, "cudaMemcpyToSymbolAsync", ptx::runtime::memcpy_node, run));
}
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count, size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  auto run = [=] { return static_cast<int>(from_symbol_now(dst, symbol, count, offset, kind)); };
  return as_error(ptx::runtime::now_or_captured(stream, "cudaMemcpyFromSymbolAsync", ptx::runtime::memcpy_node, run));
}
cudaError_t cudaGetSymbolAddress(void** devPtr, const void* symbol) { return symbol_at(symbol, 0, 0, *devPtr); }
cudaError_t cudaGetSymbolSize(size_t* size, const void* symbol) {
  std::uint64_t base = 0, bytes = 0;
  if (int e = Runtime::instance().symbol(symbol, base, bytes)) return as_error(e);
  *size = bytes;
  return cudaSuccess;
}

// The current device's share of the global window, less what cudaMalloc holds on it (devices.cpp).
cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  Runtime& r = Runtime::instance();
  *total = r.device_total();
  *free = *total - r.device_used(r.current_device());
  return cudaSuccess;
}

cudaError_t cudaPointerGetAttributes(cudaPointerAttributes* attributes, const void* ptr) {
  if (!attributes) return cudaErrorInvalidValue;
  std::memset(attributes, 0, sizeof *attributes);
  // Device memory has no host address; pinned and managed memory have one address for both (unified addressing).
  const auto type = static_cast<cudaMemoryType>(Runtime::instance().memory_type(ptr));
  attributes->type = type;
  const int owner = Runtime::instance().device_of(ptr);  // the allocating device (a module variable: the current one)
  attributes->device = owner >= 0 ? owner : Runtime::instance().current_device();
  attributes->devicePointer = type != cudaMemoryTypeUnregistered ? const_cast<void*>(ptr) : nullptr;
  attributes->hostPointer = type != cudaMemoryTypeDevice ? const_cast<void*>(ptr) : nullptr;
  if (void* device = Runtime::instance().registered_device_pointer(ptr)) attributes->devicePointer = device;  // registered memory
  if (void* host = Runtime::instance().registered_host_pointer(ptr)) attributes->hostPointer = host;
  return cudaSuccess;
}

}  // extern "C"
