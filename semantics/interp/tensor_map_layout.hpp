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
// The 128B mode's swizzle atomicity in byte 120: Table 33's .swizzle_atomicity numbering (5.5.7, Table 14: the 128B
// mode takes 16B, 32B, 32B with an 8-byte flip, or 64B; every other mode 16B). The 8-byte flip is not modelled.
enum : unsigned { kAtomicity16B = 0, kAtomicity32B = 1, kAtomicity32BFlip8B = 2, kAtomicity64B = 3 };

// A decoded tensor map: the fields a .tile copy (cuTensorMapEncodeTiled's) or an .im2col copy
// (cuTensorMapEncodeIm2col's, ISA 5.5.4) uses.
struct TensorMapFields {
  const TensorDataType* type = nullptr;
  unsigned rank = 0, swizzle = kSwizzleNone, atomicity = kAtomicity16B;
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
// or 1024 bytes. The 128B mode's sub-modes keep larger units intact: with 32-byte atomicity the 32-byte unit u of
// row r goes to u ^ (r mod 4) (its table: rows 0 1 2 3 4 5 6 7 / 2 3 0 1 6 7 4 5 / 4 5 6 7 0 1 2 3 / 6 7 4 5 2 3 0 1
// in 16-byte chunks), with 64-byte atomicity the 64-byte unit u goes to u ^ (r mod 2) (0 1 2 3 4 5 6 7 /
// 4 5 6 7 0 1 2 3). The 96B mode's table is the 32B one (rows of 96 bytes packed densely, 5.5.7's example from a
// 256-byte aligned start). `offset` is the shared-memory address of a byte and r its row of shared memory, not of
// the box: 5.5.7 gives "the swizzle base offset" as 0 when dstMem is on a 1024- (128B), 512- (64B) or 256-byte
// (32B, 96B) boundary, so a box elsewhere starts within the pattern. CUTLASS 3's Hopper GEMMs, which run on the
// hardware, load 128B-swizzled tiles 384 bytes past a 1024-byte boundary and read them with wgmma descriptors whose
// base offset is 0.
inline std::uint64_t swizzled(std::uint64_t offset, unsigned swizzle, unsigned atomicity = kAtomicity16B) {
  if (swizzle == kSwizzleNone) return offset;
  if (swizzle == kSwizzle128B && atomicity == kAtomicity32B) return offset ^ (((offset >> 7) & 3) << 5);
  if (swizzle == kSwizzle128B && atomicity == kAtomicity64B) return offset ^ (((offset >> 7) & 1) << 6);
  const std::uint64_t mask = swizzle == kSwizzle96B ? 1 : (1u << swizzle) - 1;  // 1, 3, 7
  return offset ^ (((offset >> 7) & mask) << 4);
}
// The alignment a tensor copy's shared-memory box must have: 16 bytes (5.5.3.1: "The address of the bounding Box
// must also be aligned to 16 bytes"), 32 and 64 bytes with the 128B mode's 32- and 64-byte atomicity ("This
// sub-mode requires 32 byte alignment at shared memory", "... 64-byte alignment"). Not the pattern's repeat: the
// text requires none (see swizzled). The 96B mode keeps the 256 bytes its example starts from: how its packed
// 96-byte rows continue from elsewhere is not in the text.
inline std::uint64_t box_alignment(unsigned swizzle, unsigned atomicity = kAtomicity16B) {
  if (swizzle == kSwizzle96B) return 256;
  if (swizzle == kSwizzle128B && atomicity == kAtomicity32B) return 32;
  if (swizzle == kSwizzle128B && atomicity == kAtomicity64B) return 64;
  return 16;
}

}  // namespace ptx::interp
