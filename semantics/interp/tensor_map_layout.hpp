// The interpreter's own 128-byte tensor-map layout (the real one is opaque, ISA 5.5.8; docs/async-copies.md): the
// decoded form a bulk tensor copy reads (bulk_copy.cpp), and the shared-memory swizzle of ISA 5.5.7. Encoding,
// the launch-time checks and tensormap.replace's field rules are in tensor_map_layout.cpp (declared in launch.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace ptx::interp {

// A data type of cuTensorMapEncodeTiled (CUtensorMapDataType, cuda.h): its element bytes, and the bits an
// out-of-bound element gets with oob_fill nan (5.5.3.3 "a special NaN called OOB-NaN"; the ISA does not give its
// bits: the interpreter uses the canonical NaN of the format, docs/async-copies.md).
// A packed sub-byte type (ISA 5.5.1.1) moves `values` values in one container of `bytes` bytes; dimensions, boxes
// and coordinates count values (cuda.h: CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B is "4 bits"), and a copy moves whole
// containers (containers_of). Only .b4x16 is modelled, docs/async-copies.md says why.
struct TensorDataType {
  const char* name;
  unsigned bytes;
  bool is_float;
  std::uint64_t nan;
  unsigned values = 1;
};

// Swizzle modes in the layout's byte 6: Table 33's .swizzle_mode numbering (0-3 are also CUtensorMapSwizzle's).
enum : unsigned { kSwizzleNone = 0, kSwizzle32B = 1, kSwizzle64B = 2, kSwizzle128B = 3, kSwizzle96B = 4 };

// A decoded tensor map: the fields a .tile copy (cuTensorMapEncodeTiled's) or an .im2col copy
// (cuTensorMapEncodeIm2col's, ISA 5.5.4) uses.
struct TensorMapFields {
  const TensorDataType* type = nullptr;
  unsigned rank = 0, swizzle = kSwizzleNone;
  bool oob_nan = false;
  std::uint64_t address = 0;
  std::array<std::uint64_t, 5> dim{}, stride{};  // stride[i]: bytes between elements of dimension i
  std::array<std::uint32_t, 5> box{}, estride{};
  // im2col maps (5.5.4.1): the bounding-box corners of the spatial dimensions 1 .. rank - 2 (index 0: W), and
  // the pixels (rows of shared memory) and channels (elements of a row) a copy moves.
  bool im2col = false;
  std::array<std::int32_t, 3> lower{}, upper{};
  std::uint32_t channels = 0, pixels = 0;
  // Elements the box holds along dimension i: ceil(box / elementStrides) (cuda.h, cuTensorMapEncodeTiled).
  std::uint64_t count(unsigned i) const { return (box[i] + estride[i] - 1) / estride[i]; }
  std::uint64_t elements() const {
    if (im2col) return std::uint64_t(channels) * pixels;
    std::uint64_t n = 1;
    for (unsigned i = 0; i < rank; ++i) n *= count(i);
    return n;
  }
};

// Decodes 128 bytes as a tensor map; nullopt when they are not one the interpreter encoded.
std::optional<TensorMapFields> decode_tensor_map(const std::uint8_t* bytes);

// A tiled map of a packed type in containers, for the copy (dimension 0's size and box, and the start coordinate
// `coord0`, divided by the values a container holds); why not, when one of them is no multiple of it.
std::string packed_to_containers(TensorMapFields& m, std::int64_t& coord0);

// ISA 5.5.7: the 32B, 64B and 128B (16-byte atomicity) swizzle modes permute the 16-byte chunks of each 128-byte
// row of shared memory: chunk c of row r goes to chunk c ^ (r mod 2, 4, 8), the pattern repeating every 256, 512
// or 1024 bytes from an address so aligned. The 96B mode's table is the 32B one (rows of 96 bytes packed densely,
// 5.5.7's example from a 256-byte aligned start). `offset` is the shared-memory offset of a byte.
inline std::uint64_t swizzled(std::uint64_t offset, unsigned swizzle) {
  if (swizzle == kSwizzleNone) return offset;
  const std::uint64_t mask = swizzle == kSwizzle96B ? 1 : (1u << swizzle) - 1;  // 1, 3, 7
  return offset ^ (((offset >> 7) & mask) << 4);
}
// The alignment a swizzled box starts at: 16 bytes without swizzle (5.5.3.1), else the pattern's repeat.
inline std::uint64_t swizzle_repeat(unsigned swizzle) {
  if (swizzle == kSwizzle96B) return 256;
  return swizzle == kSwizzleNone ? 16 : 128u << swizzle;
}

}  // namespace ptx::interp
