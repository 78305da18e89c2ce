// CUDA runtime API: CUDA arrays, texture objects and surface objects (cuda_runtime_api.h, "Memory Management",
// "Texture Object Management", "Surface Object Management"). An array lives in the runtime's texture registry
// (interp/texture.hpp), not in device memory: kernels reach it only through tex / suld / sust / sured, and
// --memcheck does not track its bytes. cudaArray_t, cudaTextureObject_t and cudaSurfaceObject_t are small
// non-zero integers from one counter (an array's handle is cast to the opaque pointer).
#include "semantics/interp/texture_mip.hpp"
#include "semantics/runtime/graph.hpp"
#include "semantics/runtime/pitched.hpp"
#include "semantics/runtime/runtime.hpp"

#include <cuda_runtime_api.h>
#include <surface_types.h>
#include <texture_types.h>

#include <cstring>
#include <iostream>

using ptx::runtime::Runtime;

namespace {
namespace pi = ptx::interp;

cudaError_t fail(cudaError_t e, const std::string& why) {
  std::cerr << "ptxcheck exec: " << why << "\n";
  return static_cast<cudaError_t>(Runtime::instance().record(e));
}

std::uint64_t handle_of(cudaArray_const_t a) { return reinterpret_cast<std::uint64_t>(a); }

pi::TexArray* array_of(cudaArray_const_t a) {
  auto& arrays = Runtime::instance().textures().arrays;
  auto it = arrays.find(handle_of(a));
  return it == arrays.end() ? nullptr : &it->second;
}

// A channel format CUDA accepts: 1, 2 or 4 channels of equal size (8, 16 or 32 bits; floats 16 or 32).
bool to_format(const cudaChannelFormatDesc& d, pi::ChannelFormat& f) {
  const int bits[4] = {d.x, d.y, d.z, d.w};
  unsigned n = 0;
  for (int b : bits) n += b != 0;
  for (unsigned k = 0; k < 4; ++k)
    if ((k < n ? bits[k] != d.x : bits[k] != 0)) return false;
  if (n != 1 && n != 2 && n != 4) return false;
  if (d.x != 8 && d.x != 16 && d.x != 32) return false;
  if (d.f == cudaChannelFormatKindFloat && d.x == 8) return false;
  if (d.f != cudaChannelFormatKindSigned && d.f != cudaChannelFormatKindUnsigned && d.f != cudaChannelFormatKindFloat) return false;
  for (unsigned k = 0; k < 4; ++k) f.bits[k] = static_cast<std::uint8_t>(bits[k]);
  f.kind = static_cast<std::uint8_t>(d.f);
  return true;
}

cudaChannelFormatDesc from_format(const pi::ChannelFormat& f) {
  return {f.bits[0], f.bits[1], f.bits[2], f.bits[3], static_cast<cudaChannelFormatKind>(f.kind)};
}

cudaError_t new_array(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent e, unsigned flags) {
  std::lock_guard lock(Runtime::instance().mutex());
  pi::TexArray a;
  if (!array || !desc) return fail(cudaErrorInvalidValue, "cudaMallocArray: null argument");
  if (!to_format(*desc, a.format)) return fail(cudaErrorInvalidChannelDescriptor, "cudaMallocArray: a channel format CUDA does not have");
  if (flags & ~unsigned(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayTextureGather | cudaArrayCubemap))
    return static_cast<cudaError_t>(Runtime::instance().unimplemented("cudaMallocArray flags " + std::to_string(flags)));
  if (e.width == 0 || (e.height == 0 && e.depth != 0 && !(flags & cudaArrayLayered)))
    return fail(cudaErrorInvalidValue, "cudaMallocArray: an extent CUDA does not accept");
  // cudaMalloc3DArray: a cubemap's width equals its height and its depth is 6 (layered: a multiple of 6).
  const bool cube = flags & cudaArrayCubemap, cube_layered = flags & cudaArrayLayered;
  if (cube && (e.width != e.height || (cube_layered ? e.depth == 0 || e.depth % 6 : e.depth != 6)))
    return fail(cudaErrorInvalidValue, "cudaMalloc3DArray: a cubemap's extent is width x width x 6 (layered: 6 x cubemaps)");
  a.width = e.width, a.height = e.height, a.depth = e.depth;
  a.layered = flags & cudaArrayLayered;
  a.cubemap = cube;
  a.flags = flags;
  a.data.assign(a.row_bytes() * a.rows(), 0);
  *array = reinterpret_cast<cudaArray_t>(Runtime::instance().textures().add_array(std::move(a)));
  return cudaSuccess;
}

// The copy kind between the array's bytes (host memory of this process) and the linear side.
int row_kind(cudaMemcpyKind kind, bool to_array) {
  switch (kind) {
    case cudaMemcpyHostToDevice: return to_array ? cudaMemcpyHostToHost : -1;
    case cudaMemcpyDeviceToHost: return to_array ? -1 : cudaMemcpyHostToHost;
    case cudaMemcpyDeviceToDevice: return to_array ? cudaMemcpyDeviceToHost : cudaMemcpyHostToDevice;
    case cudaMemcpyDefault: return cudaMemcpyDefault;
    default: return -1;
  }
}

// Copies `height` rows x `depth` slices of `width` bytes between array `a` at (x bytes, y, z) and linear memory
// `p` (host or device, rows `pitch` apart, slices `slice` apart), row by row through Runtime::copy (which checks
// device pointers and tells --memcheck what it writes).
cudaError_t copy_rows(const char* api, cudaArray_const_t array, std::size_t x, std::size_t y, std::size_t z, void* p,
                      std::size_t pitch, std::size_t slice, std::size_t width, std::size_t height, std::size_t depth,
                      cudaMemcpyKind kind, bool to_array) {
  std::lock_guard lock(Runtime::instance().mutex());
  pi::TexArray* a = array_of(array);
  if (!a) return fail(cudaErrorInvalidResourceHandle, std::string(api) + ": not a CUDA array");
  const int k = row_kind(kind, to_array);
  if (k < 0) return fail(cudaErrorInvalidMemcpyDirection, std::string(api) + ": a copy direction that is not to or from the array");
  const std::size_t rows = a->height ? a->height : 1, slices = a->depth ? a->depth : 1;
  if (x + width > a->row_bytes() || y + height > rows || z + depth > slices || (height > 1 && pitch < width))
    return fail(cudaErrorInvalidValue, std::string(api) + ": the region does not fit in the array");
  for (std::size_t s = 0; s < depth; ++s)
    for (std::size_t r = 0; r < height; ++r) {
      std::uint8_t* in_array = a->data.data() + ((z + s) * rows + y + r) * a->row_bytes() + x;
      auto* linear = static_cast<std::uint8_t*>(p) + s * slice + r * pitch;
      int e = to_array ? Runtime::instance().copy(in_array, linear, width, k) : Runtime::instance().copy(linear, in_array, width, k);
      if (e) return static_cast<cudaError_t>(e);
    }
  return cudaSuccess;
}

// The registry's resource for a cudaResourceDesc; an error when it names none the interpreter has.
cudaError_t to_resource(const char* api, const cudaResourceDesc* d, pi::TexResource& r) {
  if (!d) return fail(cudaErrorInvalidValue, std::string(api) + ": null resource description");
  switch (d->resType) {
    case cudaResourceTypeArray:
      if (!array_of(d->res.array.array)) return fail(cudaErrorInvalidResourceHandle, std::string(api) + ": not a CUDA array");
      r.kind = pi::TexResource::Kind::array;
      r.array = handle_of(d->res.array.array);
      return cudaSuccess;
    case cudaResourceTypeLinear:
      if (!to_format(d->res.linear.desc, r.format)) return fail(cudaErrorInvalidChannelDescriptor, std::string(api) + ": bad channel format");
      r.kind = pi::TexResource::Kind::linear;
      r.address = reinterpret_cast<std::uint64_t>(d->res.linear.devPtr);
      r.width = d->res.linear.sizeInBytes / r.format.bytes();
      return cudaSuccess;
    case cudaResourceTypePitch2D:
      if (!to_format(d->res.pitch2D.desc, r.format)) return fail(cudaErrorInvalidChannelDescriptor, std::string(api) + ": bad channel format");
      r.kind = pi::TexResource::Kind::pitch2d;
      r.address = reinterpret_cast<std::uint64_t>(d->res.pitch2D.devPtr);
      r.width = d->res.pitch2D.width, r.height = d->res.pitch2D.height, r.pitch = d->res.pitch2D.pitchInBytes;
      return cudaSuccess;
    case cudaResourceTypeMipmappedArray: {
      const auto h = reinterpret_cast<std::uint64_t>(d->res.mipmap.mipmap);
      if (!Runtime::instance().textures().mipmaps.count(h)) return fail(cudaErrorInvalidResourceHandle, std::string(api) + ": not a mipmapped array");
      r.kind = pi::TexResource::Kind::mipmap;
      r.array = h;
      return cudaSuccess;
    }
    default:
      return fail(cudaErrorInvalidValue, std::string(api) + ": an unknown resource type");
  }
}

cudaResourceDesc from_resource(const pi::TexResource& r) {
  cudaResourceDesc d{};
  switch (r.kind) {
    case pi::TexResource::Kind::array:
      d.resType = cudaResourceTypeArray;
      d.res.array.array = reinterpret_cast<cudaArray_t>(r.array);
      break;
    case pi::TexResource::Kind::linear:
      d.resType = cudaResourceTypeLinear;
      d.res.linear = {reinterpret_cast<void*>(r.address), from_format(r.format), r.width * r.format.bytes()};
      break;
    case pi::TexResource::Kind::pitch2d:
      d.resType = cudaResourceTypePitch2D;
      d.res.pitch2D = {reinterpret_cast<void*>(r.address), from_format(r.format), r.width, r.height, r.pitch};
      break;
    case pi::TexResource::Kind::mipmap:
      d.resType = cudaResourceTypeMipmappedArray;
      d.res.mipmap.mipmap = reinterpret_cast<cudaMipmappedArray_t>(r.array);
      break;
  }
  return d;
}

// The element format a resource reads.
pi::ChannelFormat format_of(const pi::TexResource& r) {
  auto& reg = Runtime::instance().textures();
  if (r.kind == pi::TexResource::Kind::mipmap) return reg.arrays.at(reg.mipmaps.at(r.array).at(0)).format;
  if (r.kind != pi::TexResource::Kind::array) return r.format;
  return reg.arrays.at(r.array).format;
}
// The deprecated 1D copies: `count` bytes from (wOffset bytes, hOffset), continuing row after row.
cudaError_t to_array_1d(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t count, cudaMemcpyKind kind) {
  const pi::TexArray* a = array_of(dst);
  if (!a) return fail(cudaErrorInvalidResourceHandle, "cudaMemcpyToArray: not a CUDA array");
  if (wOffset == 0 && count % a->row_bytes() == 0 && count > a->row_bytes())
    return copy_rows("cudaMemcpyToArray", dst, 0, hOffset, 0, const_cast<void*>(src), a->row_bytes(), 0, a->row_bytes(), count / a->row_bytes(), 1, kind, true);
  return copy_rows("cudaMemcpyToArray", dst, wOffset, hOffset, 0, const_cast<void*>(src), count, 0, count, 1, 1, kind, true);
}
cudaError_t from_array_1d(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count, cudaMemcpyKind kind) {
  const pi::TexArray* a = array_of(src);
  if (!a) return fail(cudaErrorInvalidResourceHandle, "cudaMemcpyFromArray: not a CUDA array");
  if (wOffset == 0 && count % a->row_bytes() == 0 && count > a->row_bytes())
    return copy_rows("cudaMemcpyFromArray", src, 0, hOffset, 0, dst, a->row_bytes(), 0, a->row_bytes(), count / a->row_bytes(), 1, kind, false);
  return copy_rows("cudaMemcpyFromArray", src, wOffset, hOffset, 0, dst, count, 0, count, 1, 1, kind, false);
}
}  // namespace

extern "C" {

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) { return {x, y, z, w, f}; }

cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width, size_t height, unsigned int flags) {
  return new_array(array, desc, {width, height, 0}, flags);
}
cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, cudaExtent extent, unsigned int flags) {
  return new_array(array, desc, extent, flags);
}
cudaError_t cudaFreeArray(cudaArray_t array) {
  std::lock_guard lock(Runtime::instance().mutex());
  if (!array) return cudaSuccess;
  // A level goes with its mipmapped array: freeing it alone frees nothing. An H200 answers cudaSuccess (CUDA 13.0,
  // tests/hardware/h200/exec.txt, texture_cubemap_mipmap), so this does too, and says so on stderr.
  for (const auto& [h, levels] : Runtime::instance().textures().mipmaps)
    for (std::uint64_t l : levels)
      if (l == handle_of(array)) {
        Runtime::instance().report("cudaFreeArray: a level of a mipmapped array is not freed (cudaFreeMipmappedArray frees it with its array)");
        return cudaSuccess;
      }
  if (!Runtime::instance().textures().arrays.erase(handle_of(array))) return fail(cudaErrorInvalidValue, "cudaFreeArray: not a CUDA array");
  return cudaSuccess;
}
// Mipmapped arrays (cudaMallocMipmappedArray): numLevels arrays, level l of extent max(1, floor(n / 2^l)) per
// dimension (layers are not halved); each level is a CUDA array of its own (cudaGetMipmappedArrayLevel).
cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t* mipmappedArray, const cudaChannelFormatDesc* desc, cudaExtent extent,
                                     unsigned int numLevels, unsigned int flags) {
  if (!mipmappedArray || numLevels == 0) return fail(cudaErrorInvalidValue, "cudaMallocMipmappedArray: null argument or no levels");
  if (flags & cudaArrayCubemap) return static_cast<cudaError_t>(Runtime::instance().unimplemented("cudaMallocMipmappedArray of a cubemap"));
  std::vector<std::uint64_t> levels;
  for (unsigned l = 0; l < numLevels; ++l) {
    const bool layered = flags & cudaArrayLayered;
    const cudaExtent e{ptx::interp::texfilter::level_extent(extent.width, l), ptx::interp::texfilter::level_extent(extent.height, l),
                       layered ? extent.depth : ptx::interp::texfilter::level_extent(extent.depth, l)};
    cudaArray_t a = nullptr;
    if (cudaError_t err = new_array(&a, desc, e, flags)) {
      for (std::uint64_t h : levels) cudaFreeArray(reinterpret_cast<cudaArray_t>(h));
      return err;
    }
    levels.push_back(handle_of(a));
  }
  std::lock_guard lock(Runtime::instance().mutex());
  *mipmappedArray = reinterpret_cast<cudaMipmappedArray_t>(Runtime::instance().textures().add_mipmap(std::move(levels)));
  return cudaSuccess;
}
cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t* levelArray, cudaMipmappedArray_const_t mipmappedArray, unsigned int level) {
  std::lock_guard lock(Runtime::instance().mutex());
  auto& mips = Runtime::instance().textures().mipmaps;
  auto it = mips.find(reinterpret_cast<std::uint64_t>(mipmappedArray));
  if (it == mips.end() || !levelArray) return fail(cudaErrorInvalidResourceHandle, "cudaGetMipmappedArrayLevel: not a mipmapped array");
  if (level >= it->second.size()) return fail(cudaErrorInvalidValue, "cudaGetMipmappedArrayLevel: no such level");
  *levelArray = reinterpret_cast<cudaArray_t>(it->second[level]);
  return cudaSuccess;
}
cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray) {
  std::lock_guard lock(Runtime::instance().mutex());
  if (!mipmappedArray) return cudaSuccess;
  auto& reg = Runtime::instance().textures();
  auto it = reg.mipmaps.find(reinterpret_cast<std::uint64_t>(mipmappedArray));
  if (it == reg.mipmaps.end()) return fail(cudaErrorInvalidValue, "cudaFreeMipmappedArray: not a mipmapped array");
  for (std::uint64_t h : it->second) reg.arrays.erase(h);
  reg.mipmaps.erase(it);
  return cudaSuccess;
}
cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags, cudaArray_t array) {
  std::lock_guard lock(Runtime::instance().mutex());
  const pi::TexArray* a = array_of(array);
  if (!a) return fail(cudaErrorInvalidResourceHandle, "cudaArrayGetInfo: not a CUDA array");
  if (desc) *desc = from_format(a->format);
  if (extent) *extent = {a->width, a->height, a->depth};
  if (flags) *flags = a->flags;
  return cudaSuccess;
}
cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  std::lock_guard lock(Runtime::instance().mutex());
  const pi::TexArray* a = array_of(array);
  if (!a || !desc) return fail(cudaErrorInvalidResourceHandle, "cudaGetChannelDesc: not a CUDA array");
  *desc = from_format(a->format);
  return cudaSuccess;
}

cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind) {
  return copy_rows("cudaMemcpy2DToArray", dst, wOffset, hOffset, 0, const_cast<void*>(src), spitch, 0, width, height, 1, kind, true);
}
cudaError_t cudaMemcpy2DFromArray(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind) {
  return copy_rows("cudaMemcpy2DFromArray", src, wOffset, hOffset, 0, dst, dpitch, 0, width, height, 1, kind, false);
}
// Asynchronous forms complete before they return (docs/exec.md); in a capturing stream they are recorded.
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t spitch, size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  auto run = [=] { return static_cast<int>(cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind)); };
  return static_cast<cudaError_t>(ptx::runtime::now_or_captured(stream, "cudaMemcpy2DToArrayAsync", ptx::runtime::memcpy_node, run));
}
cudaError_t cudaMemcpy2DFromArrayAsync(void* dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind, cudaStream_t stream) {
  auto run = [=] { return static_cast<int>(cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind)); };
  return static_cast<cudaError_t>(ptx::runtime::now_or_captured(stream, "cudaMemcpy2DFromArrayAsync", ptx::runtime::memcpy_node, run));
}

// The deprecated 1D forms: `count` bytes from (wOffset bytes, hOffset), continuing row after row.
cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t count, cudaMemcpyKind kind) {
  return to_array_1d(dst, wOffset, hOffset, src, count, kind);
}
cudaError_t cudaMemcpyFromArray(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count, cudaMemcpyKind kind) {
  return from_array_1d(dst, src, wOffset, hOffset, count, kind);
}
// (In a capturing stream they are recorded, as the 2D forms: the copy reads its source when the graph runs.)
cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void* src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  auto run = [=] { return static_cast<int>(to_array_1d(dst, wOffset, hOffset, src, count, kind)); };
  return static_cast<cudaError_t>(ptx::runtime::now_or_captured(stream, "cudaMemcpyToArrayAsync", ptx::runtime::memcpy_node, run));
}
cudaError_t cudaMemcpyFromArrayAsync(void* dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  auto run = [=] { return static_cast<int>(from_array_1d(dst, src, wOffset, hOffset, count, kind)); };
  return static_cast<cudaError_t>(ptx::runtime::now_or_captured(stream, "cudaMemcpyFromArrayAsync", ptx::runtime::memcpy_node, run));
}

}  // extern "C"

namespace ptx::runtime {
// cudaMemcpy3D between a CUDA array and linear memory (positions and widths of the array side in elements, of the
// linear side in bytes); array to array is not implemented. (pitched.hpp; cudaMemcpy3D is in api_memory2d.cpp.)
int copy_3d_array(const cudaMemcpy3DParms& q) {
  const cudaMemcpy3DParms* p = &q;
  if (p->srcArray && p->dstArray) return Runtime::instance().unimplemented("cudaMemcpy3D from array to array");
  const bool to_array = p->dstArray;
  const pi::TexArray* a = array_of(to_array ? p->dstArray : p->srcArray);
  if (!a) return fail(cudaErrorInvalidResourceHandle, "cudaMemcpy3D: not a CUDA array");
  const cudaPitchedPtr& lin = to_array ? p->srcPtr : p->dstPtr;
  const cudaPos& at = to_array ? p->dstPos : p->srcPos;
  const cudaPos& lpos = to_array ? p->srcPos : p->dstPos;
  const std::size_t eb = a->format.bytes(), rows_per_slice = lin.ysize ? lin.ysize : 1;
  auto* base = static_cast<std::uint8_t*>(lin.ptr) + lpos.z * lin.pitch * rows_per_slice + lpos.y * lin.pitch + lpos.x;
  return ::copy_rows("cudaMemcpy3D", to_array ? p->dstArray : p->srcArray, at.x * eb, at.y, at.z, base, lin.pitch, lin.pitch * rows_per_slice,
                   p->extent.width * eb, p->extent.height ? p->extent.height : 1, p->extent.depth ? p->extent.depth : 1, p->kind, to_array);
}
}  // namespace ptx::runtime

extern "C" {

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* pTexObject, const cudaResourceDesc* pResDesc, const cudaTextureDesc* pTexDesc,
                                    const cudaResourceViewDesc* pResViewDesc) {
  std::lock_guard lock(Runtime::instance().mutex());
  if (!pTexObject || !pTexDesc) return fail(cudaErrorInvalidValue, "cudaCreateTextureObject: null argument");
  if (pResViewDesc) return static_cast<cudaError_t>(Runtime::instance().unimplemented("cudaCreateTextureObject with a resource view"));
  if (pTexDesc->sRGB) return static_cast<cudaError_t>(Runtime::instance().unimplemented("cudaCreateTextureObject with sRGB"));
  pi::TextureObject t;
  if (cudaError_t e = to_resource("cudaCreateTextureObject", pResDesc, t.resource)) return e;
  for (unsigned k = 0; k < 3; ++k) t.sampler.address[k] = static_cast<pi::AddressMode>(pTexDesc->addressMode[k] & 3);
  t.sampler.linear = pTexDesc->filterMode == cudaFilterModeLinear;
  t.sampler.normalized_float = pTexDesc->readMode == cudaReadModeNormalizedFloat;
  t.sampler.normalized_coords = pTexDesc->normalizedCoords != 0;
  for (unsigned k = 0; k < 4; ++k) t.sampler.border[k] = pTexDesc->borderColor[k];
  t.sampler.mip_linear = pTexDesc->mipmapFilterMode == cudaFilterModeLinear;
  t.sampler.mip_bias = pTexDesc->mipmapLevelBias;
  t.sampler.mip_min = pTexDesc->minMipmapLevelClamp;
  t.sampler.mip_max = pTexDesc->maxMipmapLevelClamp;
  const pi::ChannelFormat f = format_of(t.resource);
  // Programming Guide: normalized float reads are for 8- and 16-bit integers; linear filtering only for textures
  // that return floats.
  if (t.sampler.normalized_float && !f.is_float() && f.bits[0] == 32)
    return fail(cudaErrorInvalidNormSetting, "cudaCreateTextureObject: cudaReadModeNormalizedFloat of 32-bit integers");
  if (t.sampler.linear && !f.is_float() && !t.sampler.normalized_float)
    return fail(cudaErrorInvalidFilterSetting, "cudaCreateTextureObject: linear filtering of a texture that returns integers");
  *pTexObject = Runtime::instance().textures().add_texture(t);
  return cudaSuccess;
}
cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  std::lock_guard lock(Runtime::instance().mutex());
  if (texObject && !Runtime::instance().textures().textures.erase(texObject)) return fail(cudaErrorInvalidValue, "cudaDestroyTextureObject: not a texture object");
  return cudaSuccess;
}
cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* pResDesc, cudaTextureObject_t texObject) {
  std::lock_guard lock(Runtime::instance().mutex());
  auto& t = Runtime::instance().textures().textures;
  auto it = t.find(texObject);
  if (it == t.end() || !pResDesc) return fail(cudaErrorInvalidValue, "cudaGetTextureObjectResourceDesc: not a texture object");
  *pResDesc = from_resource(it->second.resource);
  return cudaSuccess;
}
cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* pTexDesc, cudaTextureObject_t texObject) {
  std::lock_guard lock(Runtime::instance().mutex());
  auto& t = Runtime::instance().textures().textures;
  auto it = t.find(texObject);
  if (it == t.end() || !pTexDesc) return fail(cudaErrorInvalidValue, "cudaGetTextureObjectTextureDesc: not a texture object");
  const pi::Sampler& s = it->second.sampler;
  cudaTextureDesc d{};
  for (unsigned k = 0; k < 3; ++k) d.addressMode[k] = static_cast<cudaTextureAddressMode>(s.address[k]);
  d.filterMode = s.linear ? cudaFilterModeLinear : cudaFilterModePoint;
  d.readMode = s.normalized_float ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  for (unsigned k = 0; k < 4; ++k) d.borderColor[k] = s.border[k];
  d.normalizedCoords = s.normalized_coords;
  d.mipmapFilterMode = s.mip_linear ? cudaFilterModeLinear : cudaFilterModePoint;
  d.mipmapLevelBias = s.mip_bias;
  d.minMipmapLevelClamp = s.mip_min;
  d.maxMipmapLevelClamp = s.mip_max;
  *pTexDesc = d;
  return cudaSuccess;
}

// A surface object reads and writes a CUDA array made with cudaArraySurfaceLoadStore.
cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject, const cudaResourceDesc* pResDesc) {
  std::lock_guard lock(Runtime::instance().mutex());
  if (!pSurfObject || !pResDesc) return fail(cudaErrorInvalidValue, "cudaCreateSurfaceObject: null argument");
  if (pResDesc->resType != cudaResourceTypeArray) return fail(cudaErrorInvalidValue, "cudaCreateSurfaceObject: a surface's resource is a CUDA array");
  pi::TexResource r;
  if (cudaError_t e = to_resource("cudaCreateSurfaceObject", pResDesc, r)) return e;
  if (!(array_of(pResDesc->res.array.array)->flags & cudaArraySurfaceLoadStore))
    return fail(cudaErrorInvalidValue, "cudaCreateSurfaceObject: the array was not made with cudaArraySurfaceLoadStore");
  *pSurfObject = Runtime::instance().textures().add_surface(r);
  return cudaSuccess;
}
cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  std::lock_guard lock(Runtime::instance().mutex());
  if (surfObject && !Runtime::instance().textures().surfaces.erase(surfObject)) return fail(cudaErrorInvalidValue, "cudaDestroySurfaceObject: not a surface object");
  return cudaSuccess;
}
cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* pResDesc, cudaSurfaceObject_t surfObject) {
  std::lock_guard lock(Runtime::instance().mutex());
  auto& s = Runtime::instance().textures().surfaces;
  auto it = s.find(surfObject);
  if (it == s.end() || !pResDesc) return fail(cudaErrorInvalidValue, "cudaGetSurfaceObjectResourceDesc: not a surface object");
  *pResDesc = from_resource(it->second);
  return cudaSuccess;
}

}  // extern "C"
