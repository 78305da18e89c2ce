// The interpreter's 128-byte tensor-map layout (docs/async-copies.md): the checks of cuTensorMapEncodeTiled and
// cuTensorMapEncodeIm2col on a launch's description, encoding, decoding, and tensormap.replace's field rules
// (ISA 9.7.9.26). The copies that read the maps are in bulk_copy.cpp.
#include "semantics/interp/launch.hpp"
#include "semantics/interp/tensor_map_layout.hpp"

#include <cstring>
#include <iterator>

namespace ptx::interp {

namespace {

constexpr std::uint32_t kTensorMapMagic = 0x314d5450;  // "PTM1": a tensor map the interpreter encoded

constexpr TensorDataType kDataTypes[] = {
    {"u8", 1, false, 0},           {"u16", 2, false, 0},          {"u32", 4, false, 0},
    {"s32", 4, false, 0},          {"u64", 8, false, 0},          {"s64", 8, false, 0},
    {"f16", 2, true, 0x7fff},      {"f32", 4, true, 0x7fffffff},  {"f64", 8, true, 0x7fffffffffffffff},
    {"bf16", 2, true, 0x7fff},     {"f32_ftz", 4, true, 0x7fffffff}, {"tf32", 4, true, 0x7fffffff},
    {"tf32_ftz", 4, true, 0x7fffffff},
    // ISA 5.5.1.1: ".b4x16 ... the packed sixteen .b4 elements in a 64-bits container is copied as is between the
    // shared memory and the global memory" (cuda.h's CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B).
    {"b4x16", 8, false, 0, 16}};
const TensorDataType* data_type(std::string_view name) {
  for (const auto& d : kDataTypes)
    if (name == d.name) return &d;
  return nullptr;
}

// Layout offsets (docs/async-copies.md). Bytes 103-119 hold the im2col fields (5.5.4.1).
enum : std::size_t { kMode = 103, kChannels = 104, kPixels = 106, kLower = 108, kUpper = 114, kAtomicity = 120 };

template <class T> void put(std::array<std::uint8_t, 128>& b, std::size_t at, T v) { std::memcpy(b.data() + at, &v, sizeof v); }
template <class T> T get(const std::uint8_t* b, std::size_t at) {
  T v;
  std::memcpy(&v, b + at, sizeof v);
  return v;
}

// ISA 5.5.4.1: the corners' range for a 3D, 4D, 5D tensor ([-2^15, 2^15-1], [-2^7, 2^7-1], [-2^4, 2^4-1]).
std::int32_t corner_limit(std::size_t rank) { return rank == 3 ? 1 << 15 : rank == 4 ? 1 << 7 : 1 << 4; }

// cuTensorMapEncodeIm2col's requirements on the im2col fields (cuda.h) and ISA 5.5.4's: rank - 2
// corners in their range, a bounding box with at least one filter position per dimension, channelsPerPixel in
// [1, 256], pixelsPerColumn in [1, 1024]. Returns the inner dimension's bytes through `inner`.
std::string im2col_error(const Launch::TensorMap& m, unsigned element_bytes, std::uint64_t& inner) {
  const std::size_t rank = m.global_dim.size();
  if (m.pixel_box_lower_corner.size() != rank - 2 || m.pixel_box_upper_corner.size() != rank - 2)
    return "pixel_box_lower_corner and pixel_box_upper_corner need rank - 2 entries (W, H, D order; ISA 5.5.4.1)";
  const std::int32_t lim = corner_limit(rank);
  for (std::size_t s = 0; s + 2 < rank; ++s) {
    const std::int32_t lo = m.pixel_box_lower_corner[s], hi = m.pixel_box_upper_corner[s];
    if (lo < -lim || lo >= lim || hi < -lim || hi >= lim)
      return "the corners of a " + std::to_string(rank) + "D tensor must be in [" + std::to_string(-lim) + ", " + std::to_string(lim - 1) + "] (ISA 5.5.4.1)";
    if (static_cast<std::int64_t>(m.global_dim[s + 1]) + hi - lo < 1) return "the bounding box holds no filter position in spatial dimension " + std::to_string(s + 1);
  }
  if (m.channels_per_pixel < 1 || m.channels_per_pixel > 256) return "channels_per_pixel must be in [1, 256]";
  if (m.pixels_per_column < 1 || m.pixels_per_column > 1024) return "pixels_per_column must be in [1, 1024]";
  if (!m.box_dim.empty()) return "an im2col map takes no box_dim (channels_per_pixel and pixels_per_column size the copy)";
  inner = std::uint64_t(m.channels_per_pixel) * element_bytes;
  if (inner % 16) return "channels_per_pixel * element size must be a multiple of 16 bytes";
  return "";
}

// Why the interpreter does not model the other packed types of 5.5.1.1 and Table 33 (elemtype 14, 15) and the
// interleaved layouts of 5.5.6 (interleave_layout 1, 2): what their text leaves open.
constexpr const char* kPaddedTypesOpen =
    "5.5.1.1 appends padding in shared memory (.b4x16_p64: 8 bytes after each 8, .b6x16_p32: 4 after each 12), but "
    "9.7.9.25.5.2's complete-tx counts the \"amount of data copied in bytes\" without saying whether that is the bytes "
    "read or the padded bytes written, and .b6p2x16 packs 6-bit values \"contiguously\" in an order given only by Figure 7";
constexpr const char* kInterleaveOpen =
    "5.5.6 names NC/8DHWC8 and NC/16HWC16 and groups C in 16- or 32-byte slices, but not which map dimension or "
    "coordinate indexes the slice and the channel in it, nor where a box lands in shared memory (Figures 23-24 only; "
    "its \"8 byte interleave ... 16 bytes\" also disagrees with Table 33's 16B/32B)";
// The launch file's swizzle names, in the order of CUtensorMapSwizzle's values 0-6 (cuda.h), with the mode and
// atomicity each encodes (Table 33's numbering) and the span a box's inner dimension must fit in (cuda.h: "<= 32",
// "<= 64", "<= 128" for every 128B one).
struct SwizzleName {
  const char* name;
  unsigned mode, atomicity, span;
};
constexpr SwizzleName kSwizzleNames[] = {{"none", kSwizzleNone, kAtomicity16B, 0},
                                         {"32B", kSwizzle32B, kAtomicity16B, 32},
                                         {"64B", kSwizzle64B, kAtomicity16B, 64},
                                         {"128B", kSwizzle128B, kAtomicity16B, 128},
                                         {"128B_atom_32B", kSwizzle128B, kAtomicity32B, 128},
                                         {"128B_atom_32B_flip_8B", kSwizzle128B, kAtomicity32BFlip8B, 128},
                                         {"128B_atom_64B", kSwizzle128B, kAtomicity64B, 128}};
const SwizzleName* swizzle_named(std::string_view name) {
  for (const auto& z : kSwizzleNames)
    if (name == z.name) return &z;
  return nullptr;
}
constexpr const char* kFlip8BOpen =
    "5.5.7 says the 8-byte halves of each 16-byte unit flip \"at every alternate shared memory line\" without saying "
    "which lines (Figure 36, an image)";

}  // namespace

std::string packed_to_containers(TensorMapFields& m, std::int64_t& coord0) {
  const unsigned v = m.type->values;
  if (v == 1) return "";
  if (m.im2col) return std::string("an im2col map of the packed type .") + m.type->name + " is not modelled";
  // 5.5.1.1 defines the copy of whole containers "as is": a box or tensor starting or ending inside one is not.
  if (coord0 % v || m.box[0] % v || m.dim[0] % v)
    return std::string("with the packed type .") + m.type->name + " the coordinate, box size and tensor size of dimension 0 must be multiples of " +
           std::to_string(v) + " (ISA 5.5.1.1 copies whole containers \"as is\")";
  m.dim[0] /= v;
  m.box[0] /= v;
  coord0 /= v;
  return "";
}

const char* tensor_map_swizzle_name(unsigned value) {
  return value < std::size(kSwizzleNames) ? kSwizzleNames[value].name : nullptr;
}

std::optional<TensorMapFields> decode_tensor_map(const std::uint8_t* b) {
  if (get<std::uint32_t>(b, 0) != kTensorMapMagic) return std::nullopt;
  TensorMapFields m;
  const auto type = get<std::uint8_t>(b, 4);
  if (type >= std::size(kDataTypes)) return std::nullopt;
  m.type = &kDataTypes[type];
  m.rank = get<std::uint8_t>(b, 5);
  m.swizzle = get<std::uint8_t>(b, 6);
  m.oob_nan = get<std::uint8_t>(b, 7) != 0;
  m.address = get<std::uint64_t>(b, 8);
  m.im2col = get<std::uint8_t>(b, kMode) == 1;
  m.atomicity = get<std::uint8_t>(b, kAtomicity);
  if (m.rank < 1 || m.rank > 5 || m.swizzle > kSwizzle96B || m.atomicity > kAtomicity64B || (m.im2col && m.rank < 3)) return std::nullopt;
  for (unsigned i = 0; i < m.rank; ++i) {
    m.dim[i] = get<std::uint64_t>(b, 16 + 8 * i);
    m.stride[i] = i == 0 ? m.type->bytes : get<std::uint64_t>(b, 56 + 8 * (i - 1));
    m.box[i] = get<std::uint16_t>(b, 88 + 2 * i);
    m.estride[i] = get<std::uint8_t>(b, 98 + i);
    if ((m.box[i] == 0 && !m.im2col) || m.estride[i] == 0) return std::nullopt;
  }
  if (!m.im2col) return m;
  m.channels = get<std::uint16_t>(b, kChannels);
  m.pixels = get<std::uint16_t>(b, kPixels);
  for (unsigned s = 0; s + 2 < m.rank; ++s) {
    m.lower[s] = get<std::int16_t>(b, kLower + 2 * s);
    m.upper[s] = get<std::int16_t>(b, kUpper + 2 * s);
  }
  if (m.channels == 0 || m.pixels == 0) return std::nullopt;
  return m;
}

// The layout (docs/async-copies.md): magic u32 @0, type u8 @4, rank u8 @5, swizzle u8 @6, oob-nan u8 @7, global
// address u64 @8, globalDim u64[5] @16, byte strides of dimensions 1..4 u64[4] @56, boxDim u16[5] @88,
// elementStrides u8[5] @98, mode u8 @103 (0 tiled, 1 im2col), channelsPerPixel u16 @104, pixelsPerColumn u16
// @106, pixelBoxLowerCorner s16[3] @108, pixelBoxUpperCorner s16[3] @114, swizzle atomicity u8 @120, zero to
// byte 127.
std::array<std::uint8_t, 128> encode_tensor_map(const Launch::TensorMap& m, std::uint64_t address) {
  std::array<std::uint8_t, 128> b{};
  const TensorDataType* t = data_type(m.data_type);
  put<std::uint32_t>(b, 0, kTensorMapMagic);
  put<std::uint8_t>(b, 4, static_cast<std::uint8_t>(t - kDataTypes));
  put<std::uint8_t>(b, 5, static_cast<std::uint8_t>(m.global_dim.size()));
  const SwizzleName* z = swizzle_named(m.swizzle);  // tensor_map_error has checked the name
  put<std::uint8_t>(b, 6, static_cast<std::uint8_t>(z ? z->mode : kSwizzleNone));
  put<std::uint8_t>(b, kAtomicity, static_cast<std::uint8_t>(z ? z->atomicity : kAtomicity16B));
  put<std::uint8_t>(b, 7, m.oob_fill == "nan");
  put<std::uint64_t>(b, 8, address);
  for (std::size_t i = 0; i < m.global_dim.size(); ++i) {
    put<std::uint64_t>(b, 16 + 8 * i, m.global_dim[i]);
    if (i > 0) put<std::uint64_t>(b, 56 + 8 * (i - 1), m.global_strides[i - 1]);
    if (!m.im2col) put<std::uint16_t>(b, 88 + 2 * i, static_cast<std::uint16_t>(m.box_dim[i]));
    put<std::uint8_t>(b, 98 + i, static_cast<std::uint8_t>(m.element_strides[i]));
  }
  if (!m.im2col) return b;
  put<std::uint8_t>(b, kMode, 1);
  put<std::uint16_t>(b, kChannels, static_cast<std::uint16_t>(m.channels_per_pixel));
  put<std::uint16_t>(b, kPixels, static_cast<std::uint16_t>(m.pixels_per_column));
  for (std::size_t s = 0; s < m.pixel_box_lower_corner.size(); ++s) {
    put<std::int16_t>(b, kLower + 2 * s, static_cast<std::int16_t>(m.pixel_box_lower_corner[s]));
    put<std::int16_t>(b, kUpper + 2 * s, static_cast<std::int16_t>(m.pixel_box_upper_corner[s]));
  }
  return b;
}

// tensormap.replace (ISA 9.7.9.26) on the layout above. Table 33 numbers .elemtype in its own order (not
// CUtensorMapDataType's); the per-dimension fields take `ord`; global_stride ord k is dimension k + 1's byte stride
// (dimension 0's is the element size, as in cuTensorMapEncodeTiled's globalStrides). The instruction's only
// .mode is .tile, which "specifies the mode of the tensor-map object": an im2col map is refused.
std::string replace_tensor_map_field(std::uint8_t* b, std::string_view field, unsigned ord, std::uint64_t value) {
  static constexpr const char* kElemTypes[] = {"u8", "u16", "u32", "s32", "u64", "s64", "f16",
                                               "f32", "f32_ftz", "f64", "bf16", "tf32", "tf32_ftz", "b4x16"};
  if (get<std::uint32_t>(b, 0) != kTensorMapMagic) return "the 128 bytes are no tensor map (none made by cuTensorMapEncodeTiled)";
  if (get<std::uint8_t>(b, kMode) == 1) return "the tensor map is an im2col one, and .tile names the map's mode (ISA 9.7.9.26)";
  auto set = [&](std::size_t at, auto v) { std::memcpy(b + at, &v, sizeof v); };
  const bool per_dim = field == "box_dim" || field == "global_dim" || field == "element_stride" || field == "global_stride";
  if (per_dim && ord >= (field == "global_stride" ? 4u : 5u)) return "ordinal " + std::to_string(ord) + " is past the fields of a rank-5 tensor";
  if (field == "global_address") set(8, value);
  else if (field == "rank") {
    if (value > 4) return "rank takes the rank minus one, 0 to 4";
    set(5, static_cast<std::uint8_t>(value + 1));
  } else if (field == "box_dim") {
    if (value < 1 || value > 256) return "box_dim must be 1 to 256";
    set(88 + 2 * ord, static_cast<std::uint16_t>(value));
  } else if (field == "global_dim") {
    if (value < 1) return "global_dim must be at least 1";
    set(16 + 8 * ord, value);
  } else if (field == "global_stride") {
    if (value % 16) return "global_stride must be a multiple of 16 bytes";
    set(56 + 8 * ord, value);
  } else if (field == "element_stride") {
    if (value < 1 || value > 8) return "element_stride must be 1 to 8";
    set(98 + ord, static_cast<std::uint8_t>(value));
  } else if (field == "elemtype") {
    if (value == 14 || value == 15)
      return "elemtype " + std::to_string(value) + (value == 14 ? " (.b4x16_p64" : " (.b6x16_p32 / .b6p2x16") + ") is not modelled: " + kPaddedTypesOpen;
    if (value > 15) return "elemtype must be 0 to 15 (Table 33)";
    set(4, static_cast<std::uint8_t>(data_type(kElemTypes[value]) - kDataTypes));
  } else if (field == "swizzle_mode") {
    if (value > kSwizzle96B) return "swizzle_mode must be 0 to 4 (Table 33)";
    set(6, static_cast<std::uint8_t>(value));
  } else if (field == "fill_mode") {
    if (value > 1) return "fill_mode must be 0 (zero fill) or 1 (OOB-NaN fill)";
    set(7, static_cast<std::uint8_t>(value));
  } else if (field == "interleave_layout") {
    if (value == 1 || value == 2) return std::string("interleave_layout ") + (value == 1 ? "1 (16B interleave)" : "2 (32B interleave)") + " is not modelled: " + kInterleaveOpen;
    if (value != 0) return "interleave_layout must be 0 to 2 (Table 33)";
  } else if (field == "swizzle_atomicity" || field == "swizzle_atomicsity") {
    if (value == kAtomicity32BFlip8B) return std::string(field) + " 2 (32B atomicity with 8B flip) is not modelled: " + kFlip8BOpen;
    if (value > kAtomicity64B) return std::string(field) + " must be 0 to 3 (Table 33)";
    set(kAtomicity, static_cast<std::uint8_t>(value));  // only with the 128B mode (Table 14): the copy checks
  } else {
    return "unknown field ." + std::string(field);
  }
  return "";
}

std::string tensor_map_error(const Launch::TensorMap& m) {
  const TensorDataType* t = data_type(m.data_type);
  if (m.data_type == "b4x16_p64" || m.data_type == "b6x16_p32" || m.data_type == "b6p2x16")
    return "data_type '" + m.data_type + "' is not modelled: " + kPaddedTypesOpen;
  if (!t) return "data_type '" + m.data_type + "' is none of u8 u16 u32 s32 u64 s64 f16 f32 f64 bf16 f32_ftz tf32 tf32_ftz b4x16";
  const std::size_t rank = m.global_dim.size();
  if (rank < 1 || rank > 5) return "the rank (the length of global_dim) must be 1 to 5";
  if (m.im2col && rank < 3) return "an im2col map needs rank 3, 4 or 5 (NWC, NHWC, NDHWC; ISA 5.5.4)";
  if (m.global_strides.size() != rank - 1 || (!m.im2col && m.box_dim.size() != rank) || m.element_strides.size() != rank)
    return m.im2col ? "global_strides needs rank - 1 entries, element_strides rank entries" : "global_strides needs rank - 1 entries, box_dim and element_strides rank entries";
  if (m.interleave != "none") return "interleave '" + m.interleave + "' is not modelled (only none): " + kInterleaveOpen;
  if (t->values > 1 && m.im2col) return "an im2col map of the packed type " + m.data_type + " is not modelled";
  if (t->values > 1 && (m.global_dim[0] % t->values || m.box_dim[0] % t->values))
    return "global_dim[0] and box_dim[0] of a " + m.data_type + " tensor must be multiples of " + std::to_string(t->values) +
           " (they count 4-bit values; ISA 5.5.1.1 copies whole 64-bit containers)";
  const SwizzleName* swizzle = swizzle_named(m.swizzle);
  if (swizzle && swizzle->atomicity == kAtomicity32BFlip8B) return "swizzle '" + m.swizzle + "' is not modelled: " + kFlip8BOpen;
  if (!swizzle)
    return "swizzle '" + m.swizzle + "' is none of none, 32B, 64B, 128B, 128B_atom_32B, 128B_atom_64B (the patterns ISA 5.5.7 states; 128B_atom_32B_flip_8B is not modelled)";
  if (m.oob_fill != "none" && m.oob_fill != "nan") return "oob_fill must be none or nan";
  if (m.oob_fill == "nan" && !t->is_float) return "oob_fill nan needs a floating-point data_type (cuTensorMapEncodeTiled)";
  if (m.global_offset % 16) return "the global address must be 16-byte aligned (cuTensorMapEncodeTiled)";
  for (std::size_t i = 0; i < rank; ++i) {
    if (m.global_dim[i] == 0 || m.global_dim[i] > (std::uint64_t(1) << 32)) return "global_dim entries must be in [1, 2^32]";
    if (!m.im2col && (m.box_dim[i] == 0 || m.box_dim[i] > 256)) return "box_dim entries must be in [1, 256]";
    if (m.element_strides[i] == 0 || m.element_strides[i] > 8) return "element_strides entries must be in [1, 8]";
  }
  for (auto s : m.global_strides)
    if (s % 16 || s >= (std::uint64_t(1) << 40)) return "global_strides must be multiples of 16 below 2^40";
  std::uint64_t inner = std::uint64_t(m.im2col ? 0 : m.box_dim[0]) / t->values * t->bytes;
  if (m.im2col) {
    if (auto why = im2col_error(m, t->bytes, inner); !why.empty()) return why;
  } else if (inner % 16) {
    return "box_dim[0] * element size must be a multiple of 16 bytes";
  }
  if (m.element_strides[0] != 1) return "element_strides[0] must be 1 without interleave (ISA 5.5.3.2)";
  if (swizzle->span && inner > swizzle->span)
    return "the box's inner dimension (" + std::to_string(inner) + " bytes) exceeds the swizzle span of " + m.swizzle;
  return "";
}

}  // namespace ptx::interp
