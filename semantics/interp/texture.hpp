// Textures and surfaces (ISA 9.7.10, 9.7.11) as CUDA's unified mode uses them: CUDA arrays, texture and surface
// objects named by small integer handles, and `.texref` / `.surfref` module variables bound by name.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace ptx::interp {

// cudaChannelFormatDesc: bits of the x, y, z, w channels and their kind (cudaChannelFormatKind: 0 signed,
// 1 unsigned, 2 float). Channels are packed, x at the lowest address.
struct ChannelFormat {
  std::array<std::uint8_t, 4> bits{};
  std::uint8_t kind = 0;  // 0 signed, 1 unsigned, 2 float
  unsigned channels() const {
    unsigned n = 0;
    while (n < 4 && bits[n]) ++n;
    return n;
  }
  unsigned bytes() const { return (bits[0] + bits[1] + bits[2] + bits[3]) / 8; }
  bool is_float() const { return kind == 2; }
  bool is_signed() const { return kind == 0; }
};

// A CUDA array (cudaMallocArray / cudaMalloc3DArray): width x height x depth elements, rows packed (no pitch);
// `layered`: depth counts layers (cudaArrayLayered). Not device memory: only textures and surfaces reach it.
struct TexArray {
  ChannelFormat format;
  std::uint64_t width = 0, height = 0, depth = 0;  // height/depth 0 for fewer dimensions
  bool layered = false;
  bool cubemap = false;  // cudaArrayCubemap: width == height, depth 6 faces (layered: 6 per cubemap)
  unsigned flags = 0;  // cudaArray* flags as given
  std::vector<std::uint8_t> data;
  std::uint64_t row_bytes() const { return width * format.bytes(); }
  std::uint64_t rows() const { return (height ? height : 1) * (depth ? depth : 1); }
};

// What a texture or surface reads (cudaResourceDesc): a CUDA array, linear device memory (tex1Dfetch) or pitched
// 2D device memory.
struct TexResource {
  enum class Kind : std::uint8_t { array, linear, pitch2d, mipmap };
  Kind kind = Kind::array;
  std::uint64_t array = 0;   // Kind::array: its handle; Kind::mipmap: the mipmapped array's
  std::uint64_t address = 0; // linear / pitch2d: device address
  ChannelFormat format;      // linear / pitch2d: the element format
  std::uint64_t width = 0, height = 0, pitch = 0;  // linear: width in elements (sizeInBytes / element size)
};

// cudaTextureAddressMode values: wrap 0, clamp 1, mirror 2, border 3.
enum class AddressMode : std::uint8_t { wrap = 0, clamp = 1, mirror = 2, border = 3 };

// cudaTextureDesc's fields the fetch uses.
struct Sampler {
  std::array<AddressMode, 3> address{AddressMode::clamp, AddressMode::clamp, AddressMode::clamp};
  bool linear = false;           // cudaFilterModeLinear (else point)
  bool normalized_float = false; // cudaReadModeNormalizedFloat (else element type)
  bool normalized_coords = false;
  std::array<float, 4> border{};  // borderColor
  // Mipmapped arrays: mipmapFilterMode (linear: between two levels), mipmapLevelBias, min/maxMipmapLevelClamp.
  bool mip_linear = false;
  float mip_bias = 0, mip_min = 0, mip_max = 0;
};

struct TextureObject {
  TexResource resource;
  Sampler sampler;
};

// The textures and surfaces of a device (ptxcheck exec) or a launch: handles are small integers, below every
// global address (memory.hpp's kGlobalBase), so that a .u64 operand names either an object or a .texref /
// .surfref variable's address (ISA 9.7.10.3 "Indirect texture access"). One counter numbers arrays, textures and
// surfaces, so a handle names one kind of thing; 0 is never a handle.
struct TextureRegistry {
  std::map<std::uint64_t, TexArray> arrays;
  std::map<std::uint64_t, TextureObject> textures;
  std::map<std::uint64_t, TexResource> surfaces;  // a surface's resource is a CUDA array
  // Mipmapped arrays (cudaMallocMipmappedArray): the handles of their levels' arrays, level 0 first.
  std::map<std::uint64_t, std::vector<std::uint64_t>> mipmaps;
  // `.texref` / `.surfref` module variables bound by name (no CUDA 13 API binds them; `ptxcheck run` and tests do).
  std::map<std::string, TextureObject> texrefs;
  std::map<std::string, TexResource> surfrefs;
  std::uint64_t next = 1;
  std::uint64_t add_array(TexArray a) { arrays.emplace(next, std::move(a)); return next++; }
  std::uint64_t add_texture(TextureObject t) { textures.emplace(next, t); return next++; }
  std::uint64_t add_surface(TexResource r) { surfaces.emplace(next, r); return next++; }
  std::uint64_t add_mipmap(std::vector<std::uint64_t> levels) { mipmaps.emplace(next, std::move(levels)); return next++; }
};

// The geometry of a resource: elements per dimension and bytes of one element (linear memory: height 1).
struct TexShape {
  std::uint64_t width = 0, height = 0, depth = 0;
  bool layered = false;
  ChannelFormat format;
  bool cubemap = false;
};

}  // namespace ptx::interp
