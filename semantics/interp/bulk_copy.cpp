// Bulk asynchronous copies in the interpreter (PTX ISA 9.0 9.7.9.25.4-6): cp.async.bulk, cp.reduce.async.bulk,
// cp.async.bulk.tensor (.tile, .im2col loads, .im2col_no_offs stores), cp.reduce.async.bulk.tensor (.tile,
// .im2col_no_offs), the prefetches (hints: no effect), and the bulk async-group controls; tensor maps (5.5.8) in
// the interpreter's own 128-byte layout (tensor_map_layout.cpp, docs/async-copies.md).
// A copy completes at issue; with --seed it may complete at a random later scheduling point, and at the latest
// when the program could observe it: an mbarrier wait on its object, a wait_group that covers it, the end of its
// cluster. Completion performs complete-tx on the mbarrier (mbarrier.cpp) with the bytes copied (9.7.9.25.4.1).
// st.async / red.async (async_store.cpp) complete the same way: a "copy" of a value held since issue.
#include "semantics/interp/machine.hpp"
#include "semantics/interp/tensor_map_layout.hpp"
#include "semantics/ir/operation_types.hpp"
#include "semantics/ops/atomic.hpp"

#include <algorithm>
#include <cstring>
#include <variant>

namespace ptx::interp {

using domain::Concrete;
using OK = Operand::Kind;

namespace {

constexpr std::uint64_t kUncommitted = ~std::uint64_t(0);
}  // namespace

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
  TensorMapFields map;
  std::array<std::int64_t, 5> coords{};
  std::array<std::uint16_t, 3> im2col_offsets{};  // .im2col: i2cOffW, i2cOffH, i2cOffD
  std::optional<std::array<std::int64_t, 4>> rows;  // .tile::gather4 / .tile::scatter4: row_idx0..3 (coords[0] is col_idx)
  // Elements the box moves: the map's, or four rows of count(0) (5.5.3.4).
  std::uint64_t elements() const { return rows ? 4 * map.count(0) : map.elements(); }
  bool bulk_group = false;
  std::uint64_t group = kUncommitted;
  // For an observer: the operation's number, and the instruction (in function `fn`) that issued it.
  std::uint64_t op = 0;
  std::uint32_t fn = 0;
  const Instruction* ins = nullptr;
};

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

// The tensor coordinates of a box's elements in shared-memory order, the first fastest.
// .tile (5.5.3): element j (j_i < count(i)) is the tensor's element c_i + j_i * elementStrides[i].
// .tile::gather4 / .tile::scatter4 (5.5.3.4): four boxes of one row (box size 1 in dimension 1), row r of shared
// memory the box at (c_0, row_idx_r), so dimension 1 counts the four rows.
// .im2col (5.5.4, docs/async-copies.md): row p of shared memory is pixel p of the column, channelsPerPixel
// elements from channel c_0. The filter base starts at the instruction's coordinates (W, H, D, then N) and steps
// through the bounding box [lower_s, globalDim_s - 1 + upper_s] of each spatial dimension s, W fastest, by
// elementStrides[s] (5.5.4.2), back to lower_s past the upper end; past the last spatial dimension to the next
// image (N + 1). The pixel read is the base plus the im2col offsets (5.5.4.1); out of the tensor it is filled or
// skipped as in .tile mode, which covers pixels past the batch (5.5.4.3).
class BoxWalk {
 public:
  BoxWalk(const TensorMapFields& m, const std::array<std::int64_t, 5>& coords, const std::array<std::uint16_t, 3>& offsets,
          const std::optional<std::array<std::int64_t, 4>>& rows)
      : m_(m), start_(coords), base_(coords), offsets_(offsets), rows_(rows) { place(); }
  const std::array<std::int64_t, 5>& at() const { return pos_; }
  void next() {
    if (!m_.im2col) {
      for (unsigned i = 0; i < m_.rank && ++j_[i] == (rows_ && i == 1 ? 4 : m_.count(i)); ++i) j_[i] = 0;
    } else if (++j_[0] == m_.channels) {
      j_[0] = 0;
      next_pixel();
    }
    place();
  }

 private:
  void next_pixel() {
    const unsigned last = m_.rank - 1;  // N
    for (unsigned s = 1; s < last; ++s) {
      base_[s] += m_.estride[s];
      if (base_[s] <= static_cast<std::int64_t>(m_.dim[s]) - 1 + m_.upper[s - 1]) return;
      base_[s] = m_.lower[s - 1];
    }
    ++base_[last];
  }
  void place() {
    for (unsigned i = 0; i < m_.rank; ++i) pos_[i] = start_[i] + static_cast<std::int64_t>(j_[i] * m_.estride[i]);
    if (rows_) pos_[1] = (*rows_)[j_[1]];
    if (!m_.im2col) return;
    pos_[0] = start_[0] + static_cast<std::int64_t>(j_[0]);
    for (unsigned s = 1; s + 1 < m_.rank; ++s) pos_[s] = base_[s] + offsets_[s - 1];
    pos_[m_.rank - 1] = base_[m_.rank - 1];
  }
  const TensorMapFields& m_;
  std::array<std::int64_t, 5> start_, base_, pos_{};
  std::array<std::uint16_t, 3> offsets_;
  const std::optional<std::array<std::int64_t, 4>>& rows_;
  std::array<std::uint64_t, 5> j_{};
};

// A tensor copy (5.5.3, 5.5.4): the box is dense in shared memory, each byte at its swizzled offset (5.5.7).
// Loads fill out-of-bound elements with zeros or OOB-NaN (5.5.3.3, 5.5.4.3); stores skip them.
void tensor_copy(Machine& m, BulkCopy& c, Thread& t) {
  const TensorMapFields& map = c.map;
  const unsigned eb = map.type->bytes;
  const bool load = c.kind == BulkCopy::Kind::tensor_load;
  BoxWalk walk(map, c.coords, c.im2col_offsets, c.rows);
  for (std::uint64_t e = 0, n = c.elements(); e < n && !m.stop_; ++e, walk.next()) {
    bool in = true;
    std::uint64_t global = map.address;
    for (unsigned i = 0; i < map.rank; ++i) {
      const std::int64_t g = walk.at()[i];
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
        const std::uint64_t at = swizzled(d.offset + e * eb, map.swizzle, map.atomicity);
        if (std::uint8_t* q = shared_bytes(d, at, eb)) std::memcpy(q, &v, eb), observe(AK::write, StateSpace::shared, at, d.cta);
      }
    } else if (in) {
      const std::uint64_t at = swizzled(c.src + e * eb, map.swizzle, map.atomicity);
      const std::uint8_t* from = shared_bytes({c.cta, 0}, at, eb);
      std::uint8_t* to = from ? m.locate(t, StateSpace::global, global, eb, true) : nullptr;
      if (to) observe(AK::read, StateSpace::shared, at, c.cta), observe(c.reduce ? AK::reduction : AK::write, StateSpace::global, global);
      if (to && c.reduce) reduce_element(*c.reduce, from, to, eb);
      else if (to) std::memcpy(to, from, eb);
    }
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
  if (c.reduce && !ir::bulk_reduction_allowed(*ir::bulk_reduction_op(ins), ins.q.types.back().scalar, to_global)) {
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
static bool tensor_reduce_form(const TensorMapFields& map, ir::AtomOp op, BulkCopy& c) {
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

// The .load_mode of a bulk tensor copy, or the text of one not modelled: .im2col::w and .im2col::w::128 (5.5.5
// places the wHalo elements in shared memory only by Figures 18-19, and wOffset's examples are Figures 20-22).
namespace {
enum class LoadMode { tile, im2col, im2col_no_offs, gather4, scatter4 };
std::variant<LoadMode, const char*> load_mode(const Instruction& ins) {
  for (const char* w : {"im2col::w", "im2col::w::128"})
    if (ins.q.has_word(w)) return w;
  if (ins.q.has_word("tile::gather4")) return LoadMode::gather4;
  if (ins.q.has_word("tile::scatter4")) return LoadMode::scatter4;
  if (ins.q.has_word("im2col")) return LoadMode::im2col;
  return ins.q.has_word("im2col_no_offs") ? LoadMode::im2col_no_offs : LoadMode::tile;
}
}  // namespace

// .im2col: the filter base (the spatial coordinates) must lie in the bounding box (5.5.4.1), and the offsets
// (im2colInfo, W first, rank - 2 of them, .u16) in [0, 2^16-1], [0, 2^8-1], [0, 2^5-1] for 3D, 4D, 5D.
static bool im2col_operands(Machine& m, Thread& t, const Operand* info, BulkCopy& c) {
  const TensorMapFields& map = c.map;
  const unsigned spatial = map.rank - 2;
  if (info && (info->kind != OK::Vector || info->elements.size() != spatial)) {
    m.fail(Problem::Kind::illegal, c.name + ": im2colInfo must be a vector of " + std::to_string(spatial) + " im2col offsets (ISA 9.7.9.25.5.2)", {&t});
    return false;
  }
  const std::uint32_t limit = map.rank == 3 ? 1u << 16 : map.rank == 4 ? 1u << 8 : 1u << 5;
  for (unsigned s = 0; s < spatial; ++s) {
    const std::uint64_t off = info ? m.read(t, info->elements[s], 16).u64() : 0;
    if (off >= limit) {
      m.fail(Problem::Kind::illegal, c.name + ": im2col offset " + std::to_string(off) + " is outside [0, " + std::to_string(limit - 1) + "] for a " +
                                         std::to_string(map.rank) + "D tensor (ISA 5.5.4.1)", {&t});
      return false;
    }
    c.im2col_offsets[s] = static_cast<std::uint16_t>(off);
    const std::int64_t base = c.coords[s + 1], lo = map.lower[s], hi = static_cast<std::int64_t>(map.dim[s + 1]) - 1 + map.upper[s];
    if (base < lo || base > hi) {
      m.fail(Problem::Kind::illegal, c.name + ": the filter base " + std::to_string(base) + " of spatial dimension " + std::to_string(s + 1) +
                                         " is outside the bounding box [" + std::to_string(lo) + ", " + std::to_string(hi) + "] (ISA 5.5.4.1)", {&t});
      return false;
    }
  }
  return true;
}

// .tile::gather4 (loads) / .tile::scatter4 (stores), 5.5.3.4: a 2D tiled map whose box is one row high, and
// tensorCoords {col_idx, row_idx0, .., row_idx3} (9.7.9.25.5.2's table), kept in c.coords[0] and c.rows.
static bool four_row_operands(Machine& m, Thread& t, const std::vector<Operand>& coords, bool load, LoadMode mode, BulkCopy& c) {
  const char* name = mode == LoadMode::gather4 ? ".tile::gather4" : ".tile::scatter4";
  if (load != (mode == LoadMode::gather4) || c.reduce) {
    m.fail(Problem::Kind::illegal, c.name + ": " + name + " is a mode of " + (load ? "stores" : "loads") + " only (ISA 9.7.9.25.5.2-3)", {&t});
    return false;
  }
  if (c.map.im2col || c.map.rank != 2 || coords.size() != 5) {
    m.fail(Problem::Kind::illegal, c.name + ": " + name + " takes a 2D tiled tensor map and five coordinates {col, row0..row3} (ISA 5.5.3.4, 9.7.9.25.5.2)", {&t});
    return false;
  }
  if (c.map.box[1] != 1) {
    m.fail(Problem::Kind::illegal, c.name + ": " + name + " needs a bounding box of size 1 in dimension 1 (ISA 5.5.3.4.1)", {&t});
    return false;
  }
  std::array<std::int64_t, 4> rows{};
  for (unsigned r = 0; r < 4; ++r) rows[r] = static_cast<std::int32_t>(m.read(t, coords[r + 1], 32).u64());
  c.coords[0] = static_cast<std::int32_t>(m.read(t, coords[0], 32).u64());
  c.coords[1] = rows[0];  // a store's non-negative check below sees every row
  c.rows = rows;
  return true;
}

// cp{.reduce}.async.bulk.tensor.dim (9.7.9.25.5.2-3), .tile (and .tile::gather4 / ::scatter4) and .im2col load modes: loads [dstMem],
// [tensorMap, coords], [mbar]{, im2colInfo}{, ctaMask}{, cache-policy}; stores and reductions (.tile,
// .im2col_no_offs: the im2col traversal without offsets) [tensorMap, coords], [srcMem]{, cache-policy}.
static bool issue_tensor(Machine& m, Thread& t, const Instruction& ins, BulkCopy& c) {
  const auto& o = ins.operands;
  const auto mode = load_mode(ins);
  if (const auto* w = std::get_if<const char*>(&mode)) {
    m.fail(Problem::Kind::unsupported, c.name + ": ." + *w + " is not modelled (only the .tile, .tile::gather4/::scatter4, .im2col and .im2col_no_offs load modes, ISA 5.5.3-4)", {&t});
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
  const auto map = decode_tensor_map(bytes);
  if (!map) {
    m.fail(Problem::Kind::illegal, c.name + ": the 128 bytes at the tensorMap address are not a tensor map (the launch's \"tensor_maps\" write them; docs/async-copies.md)", {&t});
    return false;
  }
  c.map = *map;
  // Loads take .im2col, stores and reductions .im2col_no_offs (9.7.9.25.5.2-3's syntax; 5.3's example
  // "cp.reduce...xor.im2col" contradicts it, and ptxas 13 refuses it as an illegal modifier).
  const LoadMode lm = std::get<LoadMode>(mode);
  const bool four_rows = lm == LoadMode::gather4 || lm == LoadMode::scatter4;
  const bool im2col = lm != LoadMode::tile && !four_rows;
  if (im2col != map->im2col || (im2col && (load ? std::get<LoadMode>(mode) != LoadMode::im2col : std::get<LoadMode>(mode) != LoadMode::im2col_no_offs))) {
    m.fail(Problem::Kind::illegal, c.name + ": the load mode is not the tensor map's (" + (map->im2col ? "im2col" : "tiled") +
                                       "; loads take .im2col, stores and reductions .im2col_no_offs, ISA 9.7.9.25.5.2-3)", {&t});
    return false;
  }
  const auto& coords = tm.elements[0].elements;
  const std::string dim = std::to_string(four_rows ? 2 : coords.size()) + "d";
  if (four_rows && !ins.q.has_word(dim)) {
    m.fail(Problem::Kind::illegal, c.name + ": .tile::gather4 and .tile::scatter4 are .2d only (ISA 5.5.3.4)", {&t});
    return false;
  }
  if (four_rows && !four_row_operands(m, t, coords, load, lm, c)) return false;
  if (!four_rows && (!ins.q.has_word(dim) || coords.size() != map->rank)) {
    m.fail(Problem::Kind::illegal, c.name + ": ." + dim + " coordinates for a tensor map of rank " + std::to_string(map->rank), {&t});
    return false;
  }
  for (std::size_t i = 0; i < coords.size() && !four_rows; ++i) c.coords[i] = static_cast<std::int32_t>(m.read(t, coords[i], 32).u64());
  if (im2col && load && o.size() < 4) {
    m.fail(Problem::Kind::illegal, c.name + ": .im2col without its im2colInfo operand (ISA 9.7.9.25.5.2)", {&t});
    return false;
  }
  if (im2col && !im2col_operands(m, t, load ? &o[3] : nullptr, c)) return false;
  if ((c.reduce || map->oob_nan) && map->type->values > 1) {
    m.fail(Problem::Kind::illegal, c.name + ": " + (c.reduce ? "cp.reduce.async.bulk" : "OOB-NaN fill") + " does not take the sub-byte type ." + map->type->name + " (ISA 9.7.9.25.5.1)", {&t});
    return false;
  }
  // A packed type's copy moves whole containers (5.5.1.1): dimension 0 in containers from here on.
  if (const std::string why = packed_to_containers(c.map, c.coords[0]); !why.empty()) {
    m.fail(Problem::Kind::unsupported, c.name + ": " + why, {&t});
    return false;
  }
  c.size = c.elements() * map->type->bytes;
  // 9.7.9.25.5.1: with the 96B swizzle "Box-Size[0] must be less than or equal to 96B".
  if (map->swizzle == kSwizzle96B && (map->im2col ? map->channels : c.map.box[0]) * map->type->bytes > 96) {
    m.fail(Problem::Kind::illegal, c.name + ": the 96B swizzle takes a box of at most 96 bytes in dimension 0 (ISA 9.7.9.25.5.1)", {&t});
    return false;
  }
  const Operand& smem = load ? o[0] : o[1];
  const std::uint64_t a = m.address(t, smem);
  if (map->atomicity != kAtomicity16B && map->swizzle != kSwizzle128B) {
    m.fail(Problem::Kind::illegal, c.name + ": a swizzle atomicity other than 16B goes with the 128B swizzle mode only (ISA 5.5.7, Table 14)", {&t});
    return false;
  }
  const std::uint64_t align = box_alignment(map->swizzle, map->atomicity);
  if (a % align) {
    m.fail(Problem::Kind::misaligned, c.name + ": the shared memory box at " + std::to_string(a) + " is not " + std::to_string(align) +
                                          "-byte aligned (ISA 5.5.3.1; 32 and 64 bytes with the 128B swizzle's 32- and 64-byte atomicity, 5.5.7)", {&t});
    return false;
  }
  if (!load) {
    for (unsigned i = 0; i < map->rank + (c.rows ? 3 : 0); ++i)
      if ((i < map->rank ? c.coords[i] : (*c.rows)[i - 1]) < 0) {
        m.fail(Problem::Kind::illegal, c.name + ": a store's starting coordinates must be non-negative (ISA 9.7.9.25.5.1)", {&t});
        return false;
      }
    // 9.7.9.25.5.1: in the .global.shared::cta direction "the bounding box along the D, W and H dimensions must
    // stay within the tensor boundaries".
    for (unsigned s = 0; map->im2col && s + 2 < map->rank; ++s)
      if (map->lower[s] < 0 || map->upper[s] > 0) {
        m.fail(Problem::Kind::illegal, c.name + ": a store's Bounding-Box Lower-Corner must be non-negative and its Upper-Corner non-positive (ISA 9.7.9.25.5.1)", {&t});
        return false;
      }
    if (c.reduce && !tensor_reduce_form(*map, *ir::bulk_reduction_op(ins), c)) {
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
  const std::size_t mask_at = im2col ? 4 : 3;  // ctaMask follows im2colInfo
  if (o.size() <= mask_at || o[mask_at].kind == OK::Vector) {
    m.fail(Problem::Kind::unsupported, c.name + ": .multicast::cluster without its ctaMask operand (ISA 9.7.9.25.5.2)", {&t});
    return false;
  }
  return multicast(m, t, c, m.read(t, o[mask_at], 16).u64(), c.name, pair);
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
    const auto op = ir::bulk_reduction_op(ins);
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
// directions of 9.7.9.25.4.1-2 with a reduction in their type table; .tile, .tile::gather4 / ::scatter4 and .im2col
// tensor copies (9.7.9.25.5.2-3).
bool bulk_copy_supported(const Instruction& ins) {
  if (ins.q.has_word("prefetch") || ins.q.has_word("commit_group") || ins.q.has_word("wait_group")) return true;
  const StateSpace dst = ins.q.space.value_or(StateSpace::generic), src = ins.q.space2.value_or(StateSpace::generic);
  const bool mbar = ins.q.has(ir::Flag::mbarrier_complete_tx_bytes), group = ins.q.has_word("bulk_group");
  const bool reduce = ins.q.has_word("reduce");
  const bool to_global = dst == StateSpace::global && src == StateSpace::shared && group;
  const bool from_global = (dst == StateSpace::shared || dst == StateSpace::shared_cluster) && src == StateSpace::global && mbar;
  const bool dsmem = dst == StateSpace::shared_cluster && src == StateSpace::shared && mbar;
  if (ins.q.has_word("tensor")) {
    const auto mode = load_mode(ins);
    if (std::holds_alternative<const char*>(mode)) return false;
    const LoadMode lm = std::get<LoadMode>(mode);
    if (lm == LoadMode::gather4 || lm == LoadMode::scatter4) return !reduce && (lm == LoadMode::gather4 ? from_global : to_global);
    if (lm != LoadMode::tile && (lm == LoadMode::im2col) != from_global) return false;
    return reduce ? to_global && ir::bulk_reduction_op(ins).has_value() : to_global || from_global;
  }
  if (!reduce) return to_global || from_global || dsmem;
  const auto op = ir::bulk_reduction_op(ins);
  if (!op || ins.q.types.empty() || !(to_global || dsmem)) return false;
  const ir::ScalarType t = ins.q.types.back().scalar;
  if ((t == ir::ScalarType::f16 || t == ir::ScalarType::bf16) && *op == ir::AtomOp::add && !ins.q.has_word("noftz")) return false;
  return ir::bulk_reduction_allowed(*op, t, to_global);
}

}  // namespace ptx::interp
