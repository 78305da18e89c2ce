// Bulk asynchronous copies in the interpreter (PTX ISA 9.0 9.7.9.25.4-6): cp.async.bulk, cp.reduce.async.bulk,
// cp.async.bulk.tensor (.tile), cp.reduce.async.bulk.tensor (.tile), the prefetches (hints: no effect), and the
// bulk async-group controls; tensor maps (5.5.8) in the interpreter's own 128-byte layout (docs/async-copies.md).
// A copy completes at issue; with --seed it may complete at a random later scheduling point, and at the latest
// when the program could observe it: an mbarrier wait on its object, a wait_group that covers it, the end of its
// cluster. Completion performs complete-tx on the mbarrier (mbarrier.cpp) with the bytes copied (9.7.9.25.4.1).
// st.async / red.async (async_store.cpp) complete the same way: a "copy" of a value held since issue.
#include "semantics/interp/machine.hpp"
#include "semantics/ops/atomic.hpp"

#include <algorithm>
#include <cstring>

namespace ptx::interp {

using domain::Concrete;
using OK = Operand::Kind;

namespace {

constexpr std::uint64_t kUncommitted = ~std::uint64_t(0);
constexpr std::uint32_t kTensorMapMagic = 0x314d5450;  // "PTM1": a tensor map the interpreter encoded

// cuTensorMapEncodeTiled's data types (CUtensorMapDataType, cuda.h), their element bytes, and the bits an
// out-of-bound element gets with oob_fill nan (5.5.3.3 "a special NaN called OOB-NaN"; the ISA does not give its
// bits: the interpreter uses the canonical NaN of the format, docs/async-copies.md).
struct DataType {
  const char* name;
  unsigned bytes;
  bool is_float;
  std::uint64_t nan;
};
constexpr DataType kDataTypes[] = {
    {"u8", 1, false, 0},           {"u16", 2, false, 0},          {"u32", 4, false, 0},
    {"s32", 4, false, 0},          {"u64", 8, false, 0},          {"s64", 8, false, 0},
    {"f16", 2, true, 0x7fff},      {"f32", 4, true, 0x7fffffff},  {"f64", 8, true, 0x7fffffffffffffff},
    {"bf16", 2, true, 0x7fff},     {"f32_ftz", 4, true, 0x7fffffff}, {"tf32", 4, true, 0x7fffffff},
    {"tf32_ftz", 4, true, 0x7fffffff}};
const DataType* data_type(std::string_view name) {
  for (const auto& d : kDataTypes)
    if (name == d.name) return &d;
  return nullptr;
}

// A decoded tensor map (the fields of cuTensorMapEncodeTiled that a .tile copy uses).
struct TensorMap {
  const DataType* type = nullptr;
  unsigned rank = 0, swizzle = 0;  // swizzle: 0 none, 1 32B, 2 64B, 3 128B (CUtensorMapSwizzle's values)
  bool oob_nan = false;
  std::uint64_t address = 0;
  std::array<std::uint64_t, 5> dim{}, stride{};  // stride[i]: bytes between elements of dimension i
  std::array<std::uint32_t, 5> box{}, estride{};
  // Elements the box holds along dimension i: ceil(box / elementStrides) (cuda.h, cuTensorMapEncodeTiled).
  std::uint64_t count(unsigned i) const { return (box[i] + estride[i] - 1) / estride[i]; }
  std::uint64_t elements() const {
    std::uint64_t n = 1;
    for (unsigned i = 0; i < rank; ++i) n *= count(i);
    return n;
  }
};

template <class T> void put(std::array<std::uint8_t, 128>& b, std::size_t at, T v) { std::memcpy(b.data() + at, &v, sizeof v); }
template <class T> T get(const std::uint8_t* b, std::size_t at) {
  T v;
  std::memcpy(&v, b + at, sizeof v);
  return v;
}

// Decodes 128 bytes as a tensor map; nullopt when they are not one the interpreter encoded.
std::optional<TensorMap> decode(const std::uint8_t* b) {
  if (get<std::uint32_t>(b, 0) != kTensorMapMagic) return std::nullopt;
  TensorMap m;
  const auto type = get<std::uint8_t>(b, 4);
  if (type >= std::size(kDataTypes)) return std::nullopt;
  m.type = &kDataTypes[type];
  m.rank = get<std::uint8_t>(b, 5);
  m.swizzle = get<std::uint8_t>(b, 6);
  m.oob_nan = get<std::uint8_t>(b, 7) != 0;
  m.address = get<std::uint64_t>(b, 8);
  if (m.rank < 1 || m.rank > 5 || m.swizzle > 3) return std::nullopt;
  for (unsigned i = 0; i < m.rank; ++i) {
    m.dim[i] = get<std::uint64_t>(b, 16 + 8 * i);
    m.stride[i] = i == 0 ? m.type->bytes : get<std::uint64_t>(b, 56 + 8 * (i - 1));
    m.box[i] = get<std::uint16_t>(b, 88 + 2 * i);
    m.estride[i] = get<std::uint8_t>(b, 98 + i);
    if (m.box[i] == 0 || m.estride[i] == 0) return std::nullopt;
  }
  return m;
}

// ISA 5.5.7: the 32B, 64B and 128B (16-byte atomicity) swizzle modes permute the 16-byte chunks of each 128-byte
// row of shared memory: chunk c of row r goes to chunk c ^ (r mod 2, 4, 8), the pattern repeating every 256, 512
// or 1024 bytes from an address so aligned. `offset` is the shared-memory offset of a byte.
std::uint64_t swizzled(std::uint64_t offset, unsigned swizzle) {
  if (swizzle == 0) return offset;
  const std::uint64_t mask = (1u << swizzle) - 1;  // 1, 3, 7
  return offset ^ (((offset >> 7) & mask) << 4);
}
std::uint64_t swizzle_repeat(unsigned swizzle) { return swizzle == 0 ? 16 : 128u << swizzle; }

// The reduction of a cp.reduce.async.bulk (9.7.9.25.4.2) and whether its table allows it for the destination.
std::optional<ir::AtomOp> reduce_op(const Instruction& ins) {
  using ir::AtomOp;
  static const std::pair<const char*, AtomOp> kOps[] = {{"add", AtomOp::add}, {"min", AtomOp::min}, {"max", AtomOp::max},
                                                        {"inc", AtomOp::inc}, {"dec", AtomOp::dec}, {"and", AtomOp::and_},
                                                        {"or", AtomOp::or_},  {"xor", AtomOp::xor_}};
  for (const auto& [w, op] : kOps)
    if (ins.q.has_word(w)) return op;
  return std::nullopt;
}
bool reduce_allowed(ir::AtomOp op, ir::ScalarType t, bool to_global) {
  using ir::AtomOp;
  using ST = ir::ScalarType;
  auto in = [&](std::initializer_list<ST> l) { return std::find(l.begin(), l.end(), t) != l.end(); };
  switch (op) {
    case AtomOp::add: return to_global ? in({ST::u32, ST::s32, ST::u64, ST::f32, ST::f64, ST::f16, ST::bf16}) : in({ST::u32, ST::s32, ST::u64});
    case AtomOp::min: case AtomOp::max: return to_global ? in({ST::u32, ST::s32, ST::u64, ST::s64, ST::f16, ST::bf16}) : in({ST::u32, ST::s32});
    case AtomOp::inc: case AtomOp::dec: return t == ST::u32;
    default: return to_global ? in({ST::b32, ST::b64}) : t == ST::b32;  // and, or, xor
  }
}

}  // namespace

bool bulk_reduce_allowed(ir::AtomOp op, ir::ScalarType t, bool to_global) { return reduce_allowed(op, t, to_global); }

// A bulk copy from issue to completion: everything resolved at issue, so that it can complete later. Kind::store:
// an st.async / red.async, whose source is `data`, the operand's bytes at issue.
struct BulkCopy {
  enum class Kind : std::uint8_t { copy, tensor_load, tensor_store, store };
  Kind kind = Kind::copy;
  std::vector<std::uint8_t> data;
  Cta* cta = nullptr;  // the issuing thread's CTA and index
  std::uint32_t thread = 0;
  std::string name;
  bool src_global = false, dst_global = false;
  std::uint64_t src = 0, dst = 0;      // global addresses, or shared offsets (the source's in `cta`)
  std::vector<SharedTarget> dsts, mbars;  // shared destinations, and the mbarrier of each (mbarrier completion)
  std::uint64_t size = 0;                 // bytes copied (tensor loads: the box's, complete-tx counts them all)
  std::optional<std::uint16_t> byte_mask;  // .cp_mask
  std::optional<ops::AtomicForm> reduce;  // cp.reduce: the operation, element by element
  TensorMap map;
  std::array<std::int64_t, 5> coords{};
  bool bulk_group = false;
  std::uint64_t group = kUncommitted;
  // For an observer: the operation's number, and the instruction (in function `fn`) that issued it.
  std::uint64_t op = 0;
  std::uint32_t fn = 0;
  const Instruction* ins = nullptr;
};

// The interpreter's tensor-map layout (docs/async-copies.md): magic u32 @0, type u8 @4, rank u8 @5, swizzle u8 @6,
// oob-nan u8 @7, global address u64 @8, globalDim u64[5] @16, byte strides of dimensions 1..4 u64[4] @56,
// boxDim u16[5] @88, elementStrides u8[5] @98, zero to byte 127.
std::array<std::uint8_t, 128> encode_tensor_map(const Launch::TensorMap& m, std::uint64_t address) {
  std::array<std::uint8_t, 128> b{};
  const DataType* t = data_type(m.data_type);
  put<std::uint32_t>(b, 0, kTensorMapMagic);
  put<std::uint8_t>(b, 4, static_cast<std::uint8_t>(t - kDataTypes));
  put<std::uint8_t>(b, 5, static_cast<std::uint8_t>(m.global_dim.size()));
  put<std::uint8_t>(b, 6, m.swizzle == "32B" ? 1 : m.swizzle == "64B" ? 2 : m.swizzle == "128B" ? 3 : 0);
  put<std::uint8_t>(b, 7, m.oob_fill == "nan");
  put<std::uint64_t>(b, 8, address);
  for (std::size_t i = 0; i < m.global_dim.size(); ++i) {
    put<std::uint64_t>(b, 16 + 8 * i, m.global_dim[i]);
    if (i > 0) put<std::uint64_t>(b, 56 + 8 * (i - 1), m.global_strides[i - 1]);
    put<std::uint16_t>(b, 88 + 2 * i, static_cast<std::uint16_t>(m.box_dim[i]));
    put<std::uint8_t>(b, 98 + i, static_cast<std::uint8_t>(m.element_strides[i]));
  }
  return b;
}

// tensormap.replace (ISA 9.7.9.26) on the layout above. Table 33 numbers .elemtype in its own order (not
// CUtensorMapDataType's); the per-dimension fields take `ord`; global_stride ord k is dimension k + 1's byte stride
// (dimension 0's is the element size, as in cuTensorMapEncodeTiled's globalStrides).
std::string replace_tensor_map_field(std::uint8_t* b, std::string_view field, unsigned ord, std::uint64_t value) {
  static constexpr const char* kElemTypes[] = {"u8", "u16", "u32", "s32", "u64", "s64", "f16",
                                               "f32", "f32_ftz", "f64", "bf16", "tf32", "tf32_ftz"};
  if (get<std::uint32_t>(b, 0) != kTensorMapMagic) return "the 128 bytes are no tensor map (none made by cuTensorMapEncodeTiled)";
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
    if (value >= std::size(kElemTypes)) return "elemtype " + std::to_string(value) + " (the packed 4- and 6-bit types) is not modelled";
    set(4, static_cast<std::uint8_t>(data_type(kElemTypes[value]) - kDataTypes));
  } else if (field == "swizzle_mode") {
    if (value > 3) return "swizzle_mode " + std::to_string(value) + " (96B) is not modelled";
    set(6, static_cast<std::uint8_t>(value));
  } else if (field == "fill_mode") {
    if (value > 1) return "fill_mode must be 0 (zero fill) or 1 (OOB-NaN fill)";
    set(7, static_cast<std::uint8_t>(value));
  } else if (field == "interleave_layout" || field == "swizzle_atomicity" || field == "swizzle_atomicsity") {
    if (value != 0) return std::string(field) + " " + std::to_string(value) + " is not modelled (only 0, the default)";
  } else {
    return "unknown field ." + std::string(field);
  }
  return "";
}

std::string tensor_map_error(const Launch::TensorMap& m) {
  const DataType* t = data_type(m.data_type);
  if (!t) return "data_type '" + m.data_type + "' is none of u8 u16 u32 s32 u64 s64 f16 f32 f64 bf16 f32_ftz tf32 tf32_ftz (the packed 16U4/16U6 types are not modelled)";
  const std::size_t rank = m.global_dim.size();
  if (rank < 1 || rank > 5) return "the rank (the length of global_dim) must be 1 to 5";
  if (m.global_strides.size() != rank - 1 || m.box_dim.size() != rank || m.element_strides.size() != rank)
    return "global_strides needs rank - 1 entries, box_dim and element_strides rank entries";
  if (m.interleave != "none") return "interleave '" + m.interleave + "' is not modelled (only none)";
  if (m.swizzle != "none" && m.swizzle != "32B" && m.swizzle != "64B" && m.swizzle != "128B")
    return "swizzle '" + m.swizzle + "' is not modelled (none, 32B, 64B, 128B: the patterns ISA 5.5.7 states)";
  if (m.oob_fill != "none" && m.oob_fill != "nan") return "oob_fill must be none or nan";
  if (m.oob_fill == "nan" && !t->is_float) return "oob_fill nan needs a floating-point data_type (cuTensorMapEncodeTiled)";
  if (m.global_offset % 16) return "the global address must be 16-byte aligned (cuTensorMapEncodeTiled)";
  for (std::size_t i = 0; i < rank; ++i) {
    if (m.global_dim[i] == 0 || m.global_dim[i] > (std::uint64_t(1) << 32)) return "global_dim entries must be in [1, 2^32]";
    if (m.box_dim[i] == 0 || m.box_dim[i] > 256) return "box_dim entries must be in [1, 256]";
    if (m.element_strides[i] == 0 || m.element_strides[i] > 8) return "element_strides entries must be in [1, 8]";
  }
  for (auto s : m.global_strides)
    if (s % 16 || s >= (std::uint64_t(1) << 40)) return "global_strides must be multiples of 16 below 2^40";
  const std::uint64_t inner = std::uint64_t(m.box_dim[0]) * t->bytes;
  if (inner % 16) return "box_dim[0] * element size must be a multiple of 16 bytes";
  if (m.element_strides[0] != 1) return "element_strides[0] must be 1 without interleave (ISA 5.5.3.2)";
  const unsigned span = m.swizzle == "32B" ? 32 : m.swizzle == "64B" ? 64 : m.swizzle == "128B" ? 128 : 0;
  if (span && inner > span) return "the box's inner dimension (" + std::to_string(inner) + " bytes) exceeds the swizzle span of " + m.swizzle;
  return "";
}

bool Machine::write_tensor_maps(std::size_t first_buffer_region) {
  for (const auto& m : launch_.tensor_maps) {
    const std::ptrdiff_t into = launch_.buffer_index(m.buffer), of = launch_.buffer_index(m.global);
    std::string why = tensor_map_error(m);
    if (why.empty() && (into < 0 || of < 0 || m.at > launch_.buffers[static_cast<std::size_t>(into)].second.size() ||
                        launch_.buffers[static_cast<std::size_t>(into)].second.size() - m.at < 128))
      why = "no such buffer, or the 128 bytes do not fit";
    if (!why.empty()) {
      result_.problem = {Problem::Kind::bad_launch, "tensor map at byte " + std::to_string(m.at) + " of buffer '" + m.buffer + "': " + why, {}};
      return false;
    }
    const auto bytes = encode_tensor_map(m, buffer_base_[static_cast<std::size_t>(of)] + m.global_offset);
    std::copy(bytes.begin(), bytes.end(), global_.region(first_buffer_region + static_cast<std::size_t>(into)).bytes.begin() + static_cast<std::ptrdiff_t>(m.at));
  }
  return true;
}

namespace {
// Bytes of `size` at shared offset `offset` of a target CTA, or null.
std::uint8_t* shared_bytes(const SharedTarget& s, std::uint64_t offset, std::uint64_t size) {
  if (!s.cta || offset > s.cta->shared.size() || size > s.cta->shared.size() - offset) return nullptr;
  return s.cta->shared.data() + offset;
}
}  // namespace

namespace {
// One element of a reduction (9.7.9.25.4.2, 9.7.9.25.5.3): the destination's `eb` bytes become `old op src`, with
// atom's definition of the operation (semantics/ops/atomic.hpp; .inc/.dec give a result in [0, src]).
void reduce_element(const ops::AtomicForm& f, const std::uint8_t* from, std::uint8_t* to, unsigned eb) {
  std::uint64_t a = 0, b = 0;
  std::memcpy(&a, to, eb);
  std::memcpy(&b, from, eb);
  const CV src = Concrete::lit(eb * 8, b);
  const std::uint64_t r = ops::atomic_written(Concrete{}, f, Concrete::lit(eb * 8, a), src, src).u64();
  std::memcpy(to, &r, eb);
}

// A .tile box (5.5.3): element j (j_i < count(i)) of the box is the tensor's element at coordinates
// c_i + j_i * elementStrides[i]; in shared memory the box is dense, dimension 0 fastest, each byte at its
// swizzled offset (5.5.7). Loads fill out-of-bound elements with zeros or OOB-NaN (5.5.3.3); stores skip them.
void tensor_copy(Machine& m, BulkCopy& c, Thread& t) {
  const TensorMap& map = c.map;
  const unsigned eb = map.type->bytes;
  const bool load = c.kind == BulkCopy::Kind::tensor_load;
  std::array<std::uint64_t, 5> j{};
  for (std::uint64_t e = 0, n = map.elements(); e < n && !m.stop_; ++e) {
    bool in = true;
    std::uint64_t global = map.address;
    for (unsigned i = 0; i < map.rank; ++i) {
      const std::int64_t g = c.coords[i] + static_cast<std::int64_t>(j[i] * map.estride[i]);
      in = in && g >= 0 && static_cast<std::uint64_t>(g) < map.dim[i];
      global += static_cast<std::uint64_t>(g) * map.stride[i];
    }
    using AK = MemoryAccess::Kind;
    auto observe = [&](AK kind, StateSpace space, std::uint64_t addr, const Cta* owner = nullptr) {
      if (m.opt_.observer) m.observe_async(c.op, c.fn, *c.ins, kind, space, addr, eb, owner);
    };
    if (load) {
      std::uint64_t v = map.oob_nan ? map.type->nan : 0;
      if (in)
        if (const std::uint8_t* p = m.locate(t, StateSpace::global, global, eb, false)) std::memcpy(&v, p, eb), observe(AK::read, StateSpace::global, global);
      for (const SharedTarget& d : c.dsts) {
        const std::uint64_t at = swizzled(d.offset + e * eb, map.swizzle);
        if (std::uint8_t* q = shared_bytes(d, at, eb)) std::memcpy(q, &v, eb), observe(AK::write, StateSpace::shared, at, d.cta);
      }
    } else if (in) {
      const std::uint64_t at = swizzled(c.src + e * eb, map.swizzle);
      const std::uint8_t* from = shared_bytes({c.cta, 0}, at, eb);
      std::uint8_t* to = from ? m.locate(t, StateSpace::global, global, eb, true) : nullptr;
      if (to) observe(AK::read, StateSpace::shared, at, c.cta), observe(c.reduce ? AK::reduction : AK::write, StateSpace::global, global);
      if (to && c.reduce) reduce_element(*c.reduce, from, to, eb);
      else if (to) std::memcpy(to, from, eb);
    }
    for (unsigned i = 0; i < map.rank && ++j[i] == map.count(i); ++i) j[i] = 0;  // next element, dimension 0 fastest
  }
}
}  // namespace

// ---------------------------------------------------------------------------------------------- completion
// A non-tensor copy's accesses, for an observer: its source read (none for a store's register source) and its write
// to `dst` (one destination), each as one access of the copy's bytes (a byte mask's skipped bytes included: the copy
// still covers them).
void Machine::observe_bulk(const BulkCopy& c, const Cta* dst_cta, std::uint64_t dst, std::uint64_t size) {
  if (!opt_.observer) return;
  const auto bytes = static_cast<std::uint32_t>(size);
  if (c.kind != BulkCopy::Kind::store)
    observe_async(c.op, c.fn, *c.ins, MemoryAccess::Kind::read, c.src_global ? StateSpace::global : StateSpace::shared, c.src, bytes, c.cta);
  observe_async(c.op, c.fn, *c.ins, c.reduce ? MemoryAccess::Kind::reduction : MemoryAccess::Kind::write,
                c.dst_global ? StateSpace::global : StateSpace::shared, dst, bytes, dst_cta);
}

// Moves the data and performs complete-tx (9.7.9.25.4.1, 9.7.9.25.5.2). Runs in the issuing CTA's context.
void Machine::complete_bulk(BulkCopy& c) {
  Cta* const saved = cta_;
  cta_ = c.cta;
  Thread& t = c.cta->threads[c.thread];
  ++epoch_;
  const unsigned eb = c.reduce ? c.reduce->bits / 8 : 1;
  auto move = [&](const std::uint8_t* from, std::uint8_t* to, std::uint64_t n) {
    if (!c.reduce) {
      for (std::uint64_t k = 0; k < n; ++k)
        if (!c.byte_mask || (*c.byte_mask >> (k % 16) & 1)) to[k] = from[k];
      return;
    }
    for (std::uint64_t k = 0; k + eb <= n; k += eb) reduce_element(*c.reduce, from + k, to + k, eb);
  };
  if (c.kind == BulkCopy::Kind::store) {
    for (const SharedTarget& d : c.dsts)
      if (std::uint8_t* to = shared_bytes(d, d.offset, c.size)) move(c.data.data(), to, c.size), observe_bulk(c, d.cta, d.offset, c.size);
  } else if (c.kind != BulkCopy::Kind::copy) {
    tensor_copy(*this, c, t);
  } else {
    const std::uint8_t* from = c.src_global ? locate(t, StateSpace::global, c.src, c.size, false) : shared_bytes({c.cta, 0}, c.src, c.size);
    if (from && c.dst_global) {
      if (std::uint8_t* to = locate(t, StateSpace::global, c.dst, c.size, true)) move(from, to, c.size), observe_bulk(c, nullptr, c.dst, c.size);
    } else if (from) {
      for (const SharedTarget& d : c.dsts)
        if (std::uint8_t* to = shared_bytes(d, d.offset, c.size)) move(from, to, c.size), observe_bulk(c, d.cta, d.offset, c.size);
    }
  }
  for (const SharedTarget& m : c.mbars) {
    if (stop_) break;
    if (opt_.observer) opt_.observer->async_op_complete_tx(c.op, cta_linear(*m.cta), m.offset, m.cta->mbarriers.count(m.offset) ? m.cta->mbarriers[m.offset].phase : 0);
    mbarrier_complete_tx(t, *m.cta, m.offset, static_cast<std::int64_t>(c.size), c.name);
  }
  cta_ = saved;
}

// ---------------------------------------------------------------------------------------------- issue
namespace {
// The shared-memory target an address of `space` (.shared::cta or .shared::cluster) names, checked to hold
// `size` bytes; reports out_of_bounds and returns an empty target otherwise.
SharedTarget shared_range(Machine& m, Thread& t, StateSpace space, std::uint64_t a, std::uint64_t size, const std::string& name, const char* what) {
  const SharedTarget s = m.shared_target(space, a);
  if (!shared_bytes(s, s.offset, size)) {
    m.fail(Problem::Kind::out_of_bounds, name + ": the " + std::string(what) + " [" + std::to_string(a) + ", +" + std::to_string(size) +
                                             ") is not in the shared memory of " + (space == StateSpace::shared ? "the executing CTA" : "a CTA of the cluster"), {&t});
    return {};
  }
  if (s.cta != m.cta_ && s.cta->exited == s.cta->threads.size()) {  // 2.2.2
    m.fail(Problem::Kind::illegal, name + ": the " + std::string(what) + " is in the shared memory of cluster CTA rank " + std::to_string(s.cta->rank) + ", which has exited (ISA 2.2.2)", {&t});
    return {};
  }
  return s;
}

// The mbarrier operand of an mbarrier-completed copy: 8-aligned, in shared memory of `space`.
SharedTarget mbarrier_target(Machine& m, Thread& t, StateSpace space, const Operand& o, const std::string& name) {
  const std::uint64_t a = m.address(t, o);
  SharedTarget s = shared_range(m, t, space, a, 8, name, "mbarrier object");
  if (s.cta && s.offset % 8) {
    m.fail(Problem::Kind::misaligned, name + ": the mbarrier object at shared offset " + std::to_string(s.offset) + " is not 8-byte aligned", {&t});
    return {};
  }
  return s;
}

// .multicast::cluster (9.7.9.25.4.1, 9.7.9.25.5.2): the same CTA-relative offsets of dst and mbar in each CTA whose
// bit is set in the 16-bit ctaMask, bit r naming the CTA of %cluster_ctarank r. With .cta_group::2 the mbarrier
// signal for destination r goes to the CTA of r's CTA pair whose rank has the parity of the mbarrier's CTA.
bool multicast(Machine& m, Thread& t, BulkCopy& c, std::uint64_t mask, const std::string& name, bool pair = false) {
  const auto& ctas = m.cta_->cluster->ctas;
  if (mask == 0 || mask >> ctas.size()) {
    m.fail(Problem::Kind::illegal, name + ": ctaMask " + std::to_string(mask) + " names no CTA, or a rank at or above %cluster_nctarank " + std::to_string(ctas.size()), {&t});
    return false;
  }
  const std::uint64_t d = c.dsts.front().offset, b = c.mbars.front().offset;
  const std::uint32_t parity = c.mbars.front().cta->rank & 1;
  c.dsts.clear();
  c.mbars.clear();
  for (std::uint32_t r = 0; r < ctas.size(); ++r)
    if (mask >> r & 1) {
      const std::uint32_t signalled = pair ? (r & ~1u) | parity : r;
      if (signalled >= ctas.size()) {
        m.fail(Problem::Kind::illegal, name + ": the CTA pair of rank " + std::to_string(r) + " has no rank " + std::to_string(signalled) + " in the cluster (ISA 9.7.16.5.1)", {&t});
        return false;
      }
      c.dsts.push_back({ctas[r], d});
      c.mbars.push_back({ctas[signalled], b});
    }
  return true;
}
}  // namespace

// cp{.reduce}.async.bulk.dst.src (9.7.9.25.4.1-2): [dstMem], [srcMem], size, then [mbar]{, ctaMask} for the
// mbarrier forms, {, byteMask} for .cp_mask; a trailing cache-policy is a hint. size must be a multiple of 16 and
// both addresses 16-byte aligned.
static bool issue_copy(Machine& m, Thread& t, const Instruction& ins, BulkCopy& c) {
  const auto& o = ins.operands;
  const StateSpace dst = ins.q.space.value_or(StateSpace::generic), src = ins.q.space2.value_or(StateSpace::generic);
  const bool to_global = dst == StateSpace::global && src == StateSpace::shared && ins.q.has_word("bulk_group");
  const bool to_shared = (dst == StateSpace::shared || dst == StateSpace::shared_cluster) && ins.q.has(ir::Flag::mbarrier_complete_tx_bytes) &&
                         (src == StateSpace::global || (src == StateSpace::shared && dst == StateSpace::shared_cluster));
  if (!(to_global || to_shared) || (c.reduce && src == StateSpace::global) || o.size() < 3 || (to_shared && o.size() < 4)) {
    m.fail(Problem::Kind::unsupported, c.name + ": not a form of ISA 9.7.9.25.4.1-2 (direction and completion mechanism)", {&t});
    return false;
  }
  c.size = m.read(t, o[2], 32).u64();
  const std::uint64_t d = m.address(t, o[0]), s = m.address(t, o[1]);
  if (c.size % 16 || d % 16 || s % 16) {
    m.fail(Problem::Kind::misaligned, c.name + ": size " + std::to_string(c.size) + ", dstMem " + std::to_string(d) + " and srcMem " + std::to_string(s) +
                                          " must be multiples of 16 (ISA 9.7.9.25.4.1)", {&t});
    return false;
  }
  if (c.reduce && !reduce_allowed(*reduce_op(ins), ins.q.types.back().scalar, to_global)) {
    m.fail(Problem::Kind::unsupported, c.name + ": this operation and type are not in the table of ISA 9.7.9.25.4.2", {&t});
    return false;
  }
  c.src_global = src == StateSpace::global;
  c.src = s;
  if (!c.src_global) {
    const SharedTarget from = shared_range(m, t, StateSpace::shared, s, c.size, c.name, "source");
    if (!from.cta) return false;
    c.src = from.offset;
  } else if (!m.locate(t, StateSpace::global, s, c.size, false)) {
    return false;
  }
  if (to_global) {
    c.dst_global = true;
    c.dst = d;
    c.bulk_group = true;
    if (!m.locate(t, StateSpace::global, d, c.size, false)) return false;
    if (ins.q.has_word("cp_mask")) {  // byteMask: the last operand, after the optional cache-policy
      if (o.size() < 4) {
        m.fail(Problem::Kind::unsupported, c.name + ": .cp_mask without its byteMask operand (ISA 9.7.9.25.4.1)", {&t});
        return false;
      }
      c.byte_mask = static_cast<std::uint16_t>(m.read(t, o.back(), 16).u64());
    }
    return true;
  }
  const SharedTarget to = shared_range(m, t, dst, d, c.size, c.name, "destination");
  const SharedTarget bar = to.cta ? mbarrier_target(m, t, dst, o[3], c.name) : SharedTarget{};
  if (!bar.cta) return false;
  if (src == StateSpace::shared && to.cta == m.cta_) {
    m.fail(Problem::Kind::illegal, c.name + ": a .shared::cta -> .shared::cluster copy must go to another CTA of the cluster (ISA 9.7.9.25.4.1)", {&t});
    return false;
  }
  c.dsts = {to};
  c.mbars = {bar};
  if (!ins.q.has_word("multicast::cluster")) return true;
  if (o.size() < 5) {
    m.fail(Problem::Kind::unsupported, c.name + ": .multicast::cluster without its ctaMask operand (ISA 9.7.9.25.4.1)", {&t});
    return false;
  }
  return multicast(m, t, c, m.read(t, o[4], 16).u64(), c.name);
}

// The element type a cp.reduce.async.bulk.tensor reduces in: the tensor map's, by the table of 9.7.9.25.5.3
// (.and/.or/.xor on the 32- and 64-bit integer types as .b32/.b64). add.f32 flushes subnormals only for the
// f32_ftz data type (the ISA states the flush for cp.reduce.async.bulk, not for the tensor form).
static bool tensor_reduce_form(const TensorMap& map, ir::AtomOp op, BulkCopy& c) {
  using ST = ir::ScalarType;
  const std::string_view n = map.type->name;
  const bool bitwise = op == ir::AtomOp::and_ || op == ir::AtomOp::or_ || op == ir::AtomOp::xor_;
  std::optional<ST> t;
  if (n == "u32") t = bitwise ? ST::b32 : ST::u32;
  else if (n == "s32") t = bitwise ? ST::b32 : ST::s32;
  else if (n == "u64") t = bitwise ? ST::b64 : ST::u64;
  else if (n == "s64") t = bitwise ? ST::b64 : ST::s64;
  else if (n == "f32" || n == "f32_ftz") t = ST::f32;
  else if (n == "f16") t = ST::f16;
  else if (n == "bf16") t = ST::bf16;
  if (!t) return false;
  const bool ok = op == ir::AtomOp::add ? (*t != ST::s64 && *t != ST::b32 && *t != ST::b64)
                  : op == ir::AtomOp::min || op == ir::AtomOp::max ? *t != ST::f32
                  : op == ir::AtomOp::inc || op == ir::AtomOp::dec ? *t == ST::u32
                  : true;
  if (!ok) return false;
  c.reduce = ops::atomic_form(op, *t);
  c.reduce->f32_ftz = n == "f32_ftz";
  return true;
}

// cp{.reduce}.async.bulk.tensor.dim (9.7.9.25.5.2-3), .tile load mode only: loads [dstMem], [tensorMap, coords],
// [mbar]{, ctaMask}{, cache-policy}; stores and reductions [tensorMap, coords], [srcMem]{, cache-policy}.
static bool issue_tensor(Machine& m, Thread& t, const Instruction& ins, BulkCopy& c) {
  const auto& o = ins.operands;
  for (const char* w : {"tile::gather4", "tile::scatter4", "im2col", "im2col::w", "im2col::w::128", "im2col_no_offs"})
    if (ins.q.has_word(w)) {
      m.fail(Problem::Kind::unsupported, c.name + ": ." + w + " is not modelled (only the .tile load mode, ISA 5.5.3)", {&t});
      return false;
    }
  const StateSpace dst = ins.q.space.value_or(StateSpace::generic);
  const bool load = dst == StateSpace::shared || dst == StateSpace::shared_cluster;
  if ((load && (c.reduce || !ins.q.has(ir::Flag::mbarrier_complete_tx_bytes) || o.size() < 3)) ||
      (!load && (dst != StateSpace::global || !ins.q.has_word("bulk_group") || o.size() < 2))) {
    m.fail(Problem::Kind::unsupported, c.name + ": not a form of ISA 9.7.9.25.5.2-3 (direction and completion mechanism)", {&t});
    return false;
  }
  const Operand& tm = load ? o[1] : o[0];
  if (tm.kind != OK::Address || tm.elements.size() != 1 || tm.elements[0].kind != OK::Vector) {
    m.fail(Problem::Kind::illegal, c.name + ": the tensor operand is not [tensorMap, {coordinates}]", {&t});
    return false;
  }
  // The tensor map: 128 bytes at a generic address in .param, .const or .global (9.7.9.25.5.2).
  const auto [space, at] = Machine::resolve(StateSpace::generic, m.access_address(t, tm, StateSpace::generic));
  const std::uint8_t* bytes = m.locate(t, space, at, 128, false);
  if (!bytes) return false;
  const auto map = decode(bytes);
  if (!map) {
    m.fail(Problem::Kind::illegal, c.name + ": the 128 bytes at the tensorMap address are not a tensor map (the launch's \"tensor_maps\" write them; docs/async-copies.md)", {&t});
    return false;
  }
  c.map = *map;
  const auto& coords = tm.elements[0].elements;
  const std::string dim = std::to_string(coords.size()) + "d";
  if (!ins.q.has_word(dim) || coords.size() != map->rank) {
    m.fail(Problem::Kind::illegal, c.name + ": ." + dim + " coordinates for a tensor map of rank " + std::to_string(map->rank), {&t});
    return false;
  }
  for (std::size_t i = 0; i < coords.size(); ++i) c.coords[i] = static_cast<std::int32_t>(m.read(t, coords[i], 32).u64());
  c.size = map->elements() * map->type->bytes;
  const Operand& smem = load ? o[0] : o[1];
  const std::uint64_t a = m.address(t, smem);
  const std::uint64_t align = swizzle_repeat(map->swizzle);
  if (a % align) {
    m.fail(Problem::Kind::misaligned, c.name + ": the shared memory box at " + std::to_string(a) + " is not " + std::to_string(align) +
                                          "-byte aligned (16 bytes, ISA 5.5.3.1, or the repeat of the swizzle pattern, 5.5.7)", {&t});
    return false;
  }
  if (!load) {
    for (unsigned i = 0; i < map->rank; ++i)
      if (c.coords[i] < 0) {
        m.fail(Problem::Kind::illegal, c.name + ": a store's starting coordinates must be non-negative (ISA 9.7.9.25.5.1)", {&t});
        return false;
      }
    if (c.reduce && !tensor_reduce_form(*map, *reduce_op(ins), c)) {
      m.fail(Problem::Kind::unsupported, c.name + ": this operation on a tensor of " + map->type->name + " is not in the table of ISA 9.7.9.25.5.3", {&t});
      return false;
    }
    const SharedTarget from = shared_range(m, t, StateSpace::shared, a, c.size, c.name, "source box");
    c.kind = BulkCopy::Kind::tensor_store;
    c.src = from.offset;
    c.bulk_group = true;
    return from.cta != nullptr;
  }
  c.kind = BulkCopy::Kind::tensor_load;
  const SharedTarget to = shared_range(m, t, dst, a, c.size, c.name, "destination box");
  const SharedTarget bar = to.cta ? mbarrier_target(m, t, dst, o[2], c.name) : SharedTarget{};
  if (!bar.cta) return false;
  // 9.7.9.25.5.2: with .cta_group::1 (the default) the mbarrier is in the CTA of dstMem; with .cta_group::2 it may
  // be in that CTA's peer (9.7.16.5.2: ranks differing in the last bit).
  const bool pair = ins.q.has_word("cta_group::2");
  if (bar.cta != to.cta && !(pair && (bar.cta->rank ^ 1) == to.cta->rank)) {
    m.fail(Problem::Kind::illegal, c.name + ": the mbarrier must be in the shared memory of the CTA of dstMem" +
                                       std::string(pair ? " or of its peer CTA (.cta_group::2" : " (.cta_group::1") + ", ISA 9.7.9.25.5.2)", {&t});
    return false;
  }
  c.dsts = {to};
  c.mbars = {bar};
  if (!ins.q.has_word("multicast::cluster")) return true;
  if (o.size() < 4 || o[3].kind == OK::Vector) {
    m.fail(Problem::Kind::unsupported, c.name + ": .multicast::cluster without its ctaMask operand (ISA 9.7.9.25.5.2)", {&t});
    return false;
  }
  return multicast(m, t, c, m.read(t, o[3], 16).u64(), c.name, pair);
}

// An issued copy: an observer hears of it, and it completes now or later.
static void start_bulk(Machine& m, Thread& t, const Instruction& ins, std::shared_ptr<BulkCopy> c) {
  c->ins = &ins;
  c->fn = t.top->fn;
  if (m.opt_.observer) {
    c->op = m.next_async_op_++;
    m.opt_.observer->async_op_issue(c->op, {m.thread_ref(t)}, c->bulk_group ? Observer::AsyncGroup::bulk : Observer::AsyncGroup::none, ins);
  }
  // The completion point (9.7.9.25.1): at issue, or with a seed, by chance, later (bulk_tick and the flushes).
  if (m.rng_ && ((*m.rng_)() & 1)) m.bulk_pending_.push_back(std::move(c));
  else m.complete_bulk(*c);
}

// ---------------------------------------------------------------------------------------------- dispatch
void Machine::exec_bulk(Thread& t, const Instruction& ins) {
  const std::string name = ir::opcode_text(ins);
  if (ins.q.has_word("prefetch")) return;  // 9.7.9.25.4.3, 9.7.9.25.5.4: a hint, no effect on memory
  if (ins.q.has_word("commit_group")) {    // 9.7.9.25.6.1: the thread's uncommitted bulk_group copies form a group
    if (opt_.observer) opt_.observer->async_group_commit(thread_ref(t), Observer::AsyncGroup::bulk);
    for (auto& c : bulk_pending_)
      if (c->cta == cta_ && c->thread == t.linear && c->bulk_group && c->group == kUncommitted) c->group = t.bulk_commits;
    ++t.bulk_commits;
    return;
  }
  if (ins.q.has_word("wait_group")) {  // 9.7.9.25.6.2: all but the N most recent groups complete
    const std::uint64_t n = read(t, ins.operands[0], 32).u64();
    // (.read: only their reads of the source; the interpreter completes the whole copies, one run the spec allows.)
    if (opt_.observer) opt_.observer->async_group_wait(thread_ref(t), Observer::AsyncGroup::bulk, n, ins.q.has_word("read"));
    for (std::size_t k = 0; k < bulk_pending_.size() && !stop_;) {
      auto c = bulk_pending_[k];
      if (c->cta == cta_ && c->thread == t.linear && c->group != kUncommitted && c->group + n < t.bulk_commits) {
        bulk_pending_.erase(bulk_pending_.begin() + static_cast<std::ptrdiff_t>(k));
        complete_bulk(*c);
      } else {
        ++k;
      }
    }
    return;
  }
  auto c = std::make_shared<BulkCopy>();
  c->cta = cta_;
  c->thread = t.linear;
  c->name = name;
  if (ins.q.has_word("reduce")) {
    const auto op = reduce_op(ins);
    if (!op) return fail(Problem::Kind::unsupported, name + ": no reduction operation (ISA 9.7.9.25.4.2)", {&t});
    if (!ins.q.has_word("tensor")) {
      if (ins.q.types.empty()) return fail(Problem::Kind::unsupported, name + ": no element type (ISA 9.7.9.25.4.2)", {&t});
      const ir::ScalarType type = ins.q.types.back().scalar;
      if ((type == ir::ScalarType::f16 || type == ir::ScalarType::bf16) && *op == ir::AtomOp::add && !ins.q.has_word("noftz"))
        return fail(Problem::Kind::unsupported, name + ": add.f16 / add.bf16 take .noftz (ISA 9.7.9.25.4.2)", {&t});
      c->reduce = ops::atomic_form(*op, type);
      c->reduce->f32_ftz = true;  // "cp.reduce.async.bulk.add.f32 flushes subnormal inputs and results"
    } else {
      c->reduce = ops::atomic_form(*op, ir::ScalarType::b32);  // the tensor map's type: issue_tensor
    }
  }
  const bool ok = ins.q.has_word("tensor") ? issue_tensor(*this, t, ins, *c) : issue_copy(*this, t, ins, *c);
  if (!ok || stop_) return;
  start_bulk(*this, t, ins, std::move(c));
}

// st.async / red.async (9.7.9.12, 9.7.13.7): one destination, one mbarrier, the value's bytes; red.async reduces
// element by element with atom's definition of its operation (reduce_element).
void Machine::start_async_store(Thread& t, const Instruction& ins, const SharedTarget& dst, const SharedTarget& mbar, std::vector<std::uint8_t> data) {
  auto c = std::make_shared<BulkCopy>();
  c->kind = BulkCopy::Kind::store;
  c->cta = cta_;
  c->thread = t.linear;
  c->name = ir::opcode_text(ins);
  c->size = data.size();
  c->data = std::move(data);
  c->dsts = {dst};
  c->mbars = {mbar};
  if (ins.op == ir::Opcode::red_) c->reduce = ops::atomic_form(ins);
  start_bulk(*this, t, ins, std::move(c));
}

// ---------------------------------------------------------------------------------------------- deferred completion
void Machine::bulk_tick() {
  if (bulk_pending_.empty() || !rng_) return;
  for (std::size_t k = 0; k < bulk_pending_.size() && !stop_;) {
    if ((*rng_)() % 4 == 0) {
      auto c = bulk_pending_[k];
      bulk_pending_.erase(bulk_pending_.begin() + static_cast<std::ptrdiff_t>(k));
      complete_bulk(*c);
    } else {
      ++k;
    }
  }
}

namespace {
template <class Pred> void flush_if(Machine& m, Pred&& p) {
  for (std::size_t k = 0; k < m.bulk_pending_.size() && !m.stop_;) {
    auto c = m.bulk_pending_[k];
    if (!p(*c)) { ++k; continue; }
    m.bulk_pending_.erase(m.bulk_pending_.begin() + static_cast<std::ptrdiff_t>(k));
    m.complete_bulk(*c);
  }
}
}  // namespace

void Machine::bulk_flush_mbarrier(const Cta& home, std::uint64_t object) {
  flush_if(*this, [&](const BulkCopy& c) {
    return std::any_of(c.mbars.begin(), c.mbars.end(), [&](const SharedTarget& s) { return s.cta == &home && s.offset == object; });
  });
}

void Machine::bulk_flush_cluster(const Cluster& cl) {
  auto in = [&](const Cta* x) { return x && x->cluster == &cl; };
  flush_if(*this, [&](const BulkCopy& c) {
    return in(c.cta) || std::any_of(c.dsts.begin(), c.dsts.end(), [&](const SharedTarget& s) { return in(s.cta); });
  });
}

void Machine::bulk_flush_all() {
  flush_if(*this, [](const BulkCopy&) { return true; });
}

// ---------------------------------------------------------------------------------------------- spinning for ever
// A thread whose mbarrier wait fails again at the same instruction with the same registers, and no memory or mbarrier
// changed since the last failure (epoch_), would fail it for ever unless another thread changes something.
void Machine::note_failed_wait(Thread& t, const Instruction& ins) {
  const bool same = t.spin_ins == &ins && t.spin_epoch == epoch_ && t.spin_regs.size() == t.regs.size() &&
                    std::equal(t.regs.begin(), t.regs.end(), t.spin_regs.begin(), [](const CV& a, const CV& b) { return a.w == b.w && a.v == b.v; });
  t.spin_stuck = same;
  if (same) return;
  t.spin_ins = &ins;
  t.spin_epoch = epoch_;
  t.spin_regs.assign(t.regs.begin(), t.regs.end());
}

// Every live thread of `cta` is blocked, or spins on a failed mbarrier wait in a state nothing has changed since.
bool Machine::spinning_forever(const Cta& cta) const {
  if (!bulk_pending_.empty() || !tcgen05_pending_.empty()) return false;
  bool any = false;
  for (const Thread& t : cta.threads) {
    if (t.status == Status::exited) continue;
    if (t.status == Status::running && !(t.spin_stuck && t.spin_epoch == epoch_)) return false;
    any |= t.status == Status::running;
  }
  return any;
}

void Machine::report_spin_deadlock(Cta& cta) {
  cta_ = &cta;
  std::vector<Thread*> stuck;
  for (auto& t : cta.threads)
    if (t.status != Status::exited && stuck.size() < 8) stuck.push_back(&t);
  std::string what;
  for (const auto& [offset, m] : cta.mbarriers)
    what += " mbarrier at shared offset " + std::to_string(offset) + ": phase " + std::to_string(m.phase) + ", " + std::to_string(m.pending) + " of " +
            std::to_string(m.expected) + " arrivals pending, tx-count " + std::to_string(m.tx) + ";";
  fail(Problem::Kind::deadlock, "deadlock: every live thread is blocked or waits on an mbarrier phase that nothing can complete any more;" + what, stuck);
}

// ---------------------------------------------------------------------------------------------- coverage
// Whether exec_bulk runs this form (instruction_supported): every prefetch and group control; the copy and reduce
// directions of 9.7.9.25.4.1-2 with a reduction in their type table; .tile tensor copies (9.7.9.25.5.2-3).
bool bulk_copy_supported(const Instruction& ins) {
  if (ins.q.has_word("prefetch") || ins.q.has_word("commit_group") || ins.q.has_word("wait_group")) return true;
  const StateSpace dst = ins.q.space.value_or(StateSpace::generic), src = ins.q.space2.value_or(StateSpace::generic);
  const bool mbar = ins.q.has(ir::Flag::mbarrier_complete_tx_bytes), group = ins.q.has_word("bulk_group");
  const bool reduce = ins.q.has_word("reduce");
  const bool to_global = dst == StateSpace::global && src == StateSpace::shared && group;
  const bool from_global = (dst == StateSpace::shared || dst == StateSpace::shared_cluster) && src == StateSpace::global && mbar;
  const bool dsmem = dst == StateSpace::shared_cluster && src == StateSpace::shared && mbar;
  if (ins.q.has_word("tensor")) {
    for (const char* w : {"tile::gather4", "tile::scatter4", "im2col", "im2col::w", "im2col::w::128", "im2col_no_offs"})
      if (ins.q.has_word(w)) return false;
    return reduce ? to_global && reduce_op(ins).has_value() : to_global || from_global;
  }
  if (!reduce) return to_global || from_global || dsmem;
  const auto op = reduce_op(ins);
  if (!op || ins.q.types.empty() || !(to_global || dsmem)) return false;
  const ir::ScalarType t = ins.q.types.back().scalar;
  if ((t == ir::ScalarType::f16 || t == ir::ScalarType::bf16) && *op == ir::AtomOp::add && !ins.q.has_word("noftz")) return false;
  return reduce_allowed(*op, t, to_global);
}

}  // namespace ptx::interp
