// CUDA runtime API: pitched linear memory (cudaMallocPitch, cudaMalloc3D), 2D and 3D copies and sets between
// linear memory (with a CUDA array on one side: api_texture.cpp). Peer copies: api_peer.cpp.
#include "semantics/runtime/api_error.hpp"
#include "semantics/runtime/graph.hpp"
#include "semantics/runtime/pitched.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cstring>
#include <vector>

using ptx::runtime::Runtime;

namespace ptx::runtime {

int copy_rows(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind) {
  if (height > 1 && (width > dpitch || width > spitch)) return Runtime::instance().record(cudaErrorInvalidPitchValue);
  for (size_t y = 0; y < height; ++y)
    if (int err = Runtime::instance().copy(static_cast<char*>(dst) + y * dpitch, static_cast<const char*>(src) + y * spitch, width, kind)) return err;
  return 0;
}

int copy_pitched(const cudaMemcpy3DParms& p) {
  if (p.srcArray || p.dstArray) return copy_3d_array(p);
  const cudaPitchedPtr& s = p.srcPtr;
  const cudaPitchedPtr& d = p.dstPtr;
  const cudaExtent& e = p.extent;
  for (size_t z = 0; z < e.depth; ++z)
    for (size_t y = 0; y < e.height; ++y) {
      const size_t from = ((p.srcPos.z + z) * s.ysize + p.srcPos.y + y) * s.pitch + p.srcPos.x;
      const size_t to = ((p.dstPos.z + z) * d.ysize + p.dstPos.y + y) * d.pitch + p.dstPos.x;
      if (int err = Runtime::instance().copy(static_cast<char*>(d.ptr) + to, static_cast<const char*>(s.ptr) + from, e.width, p.kind)) return err;
    }
  return 0;
}

int set_rows(void* dst, size_t pitch, unsigned value, size_t element, size_t width, size_t height) {
  if (height > 1 && pitch < width * element) return Runtime::instance().record(cudaErrorInvalidPitchValue);
  std::vector<unsigned char> row(width * element);
  for (size_t i = 0; i < width; ++i) std::memcpy(row.data() + i * element, &value, element);  // little-endian: the low bytes
  for (size_t y = 0; y < height; ++y)
    if (int err = Runtime::instance().copy(static_cast<char*>(dst) + y * pitch, row.data(), row.size(), cudaMemcpyHostToDevice)) return err;
  return 0;
}

}  // namespace ptx::runtime

namespace {
}  // namespace

extern "C" {

cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
  if (!devPtr || !pitch) return cudaErrorInvalidValue;
  *pitch = ptx::runtime::pitch_for(width);
  return cudaMalloc(devPtr, *pitch * height);
}
cudaError_t cudaMalloc3D(cudaPitchedPtr* pitched, cudaExtent extent) {
  if (!pitched) return cudaErrorInvalidValue;
  const size_t pitch = ptx::runtime::pitch_for(extent.width);
  void* p = nullptr;
  if (cudaError_t e = cudaMalloc(&p, pitch * extent.height * extent.depth)) return e;
  *pitched = cudaPitchedPtr{p, pitch, extent.width, extent.height};
  return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind) {
  if (int e = ptx::runtime::legacy_stream_work("cudaMemcpy2D")) return as_error(e);
  return as_error(ptx::runtime::copy_rows(dst, dpitch, src, spitch, width, height, kind));
}
cudaError_t cudaMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream) {
  return as_error(ptx::runtime::now_or_captured(stream, "cudaMemcpy2DAsync", ptx::runtime::memcpy_node,
                                                [=] { return ptx::runtime::copy_rows(dst, dpitch, src, spitch, width, height, kind); }));
}
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms* p) {
  if (!p) return cudaErrorInvalidValue;
  if (int e = ptx::runtime::legacy_stream_work("cudaMemcpy3D")) return as_error(e);
  return as_error(ptx::runtime::copy_pitched(*p));
}
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms* p, cudaStream_t stream) {
  if (!p) return cudaErrorInvalidValue;
  const cudaMemcpy3DParms copy = *p;
  return as_error(ptx::runtime::now_or_captured(stream, "cudaMemcpy3DAsync", ptx::runtime::memcpy_node, [copy] { return ptx::runtime::copy_pitched(copy); }));
}

cudaError_t cudaMemset2D(void* devPtr, size_t pitch, int value, size_t width, size_t height) {
  if (int e = ptx::runtime::legacy_stream_work("cudaMemset2D")) return as_error(e);
  return as_error(ptx::runtime::set_rows(devPtr, pitch, static_cast<unsigned>(value), 1, width, height));
}
cudaError_t cudaMemset2DAsync(void* devPtr, size_t pitch, int value, size_t width, size_t height, cudaStream_t stream) {
  return as_error(ptx::runtime::now_or_captured(stream, "cudaMemset2DAsync", ptx::runtime::memset_node,
                                                [=] { return ptx::runtime::set_rows(devPtr, pitch, static_cast<unsigned>(value), 1, width, height); }));
}
// Every slice of extent.height rows of extent.width bytes; slices are pitch * ysize bytes apart.
cudaError_t cudaMemset3D(cudaPitchedPtr p, int value, cudaExtent extent) {
  if (int e = ptx::runtime::legacy_stream_work("cudaMemset3D")) return as_error(e);
  for (size_t z = 0; z < extent.depth; ++z)
    if (int e = ptx::runtime::set_rows(static_cast<char*>(p.ptr) + z * p.pitch * p.ysize, p.pitch, static_cast<unsigned>(value), 1, extent.width, extent.height))
      return as_error(e);
  return cudaSuccess;
}
cudaError_t cudaMemset3DAsync(cudaPitchedPtr p, int value, cudaExtent extent, cudaStream_t stream) {
  return as_error(ptx::runtime::now_or_captured(stream, "cudaMemset3DAsync", ptx::runtime::memset_node, [=] {
    for (size_t z = 0; z < extent.depth; ++z)
      if (int e = ptx::runtime::set_rows(static_cast<char*>(p.ptr) + z * p.pitch * p.ysize, p.pitch, static_cast<unsigned>(value), 1, extent.width, extent.height))
        return e;
    return 0;
  }));
}

}  // extern "C"
