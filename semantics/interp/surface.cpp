// Surface instructions (ISA 9.7.11): suld.b, sust.b, sured.b and suq on a surface object handle held in a .u64
// register or a bound .surfref variable, over CUDA arrays (texture.hpp). The x coordinate is a byte offset.
#include "semantics/interp/machine.hpp"
#include "semantics/interp/surface_format.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

namespace ptx::interp {

using domain::Concrete;
using ir::Opcode;
using OK = Operand::Kind;

bool texture_shape(const TextureRegistry& reg, const TexResource& r, TexShape& s);  // texture.cpp

namespace {
bool fail_why(std::string* why, std::string reason) {
  if (why) *why = std::move(reason);
  return false;
}
unsigned geometry_dims(const Instruction& ins, bool& layered) {
  layered = ins.q.has_word("a1d") || ins.q.has_word("a2d");
  if (ins.q.has_word("1d") || ins.q.has_word("a1d")) return 1;
  if (ins.q.has_word("2d") || ins.q.has_word("a2d")) return 2;
  return ins.q.has_word("3d") ? 3 : 0;
}
enum class Clamp : std::uint8_t { trap, clamp, zero };
Clamp clamp_mode(const Instruction& ins) {
  return ins.q.has_word("clamp") ? Clamp::clamp : ins.q.has_word("zero") ? Clamp::zero : Clamp::trap;
}
}  // namespace

bool surface_supported(const Instruction& ins, std::string* why) {
  if (ins.op == Opcode::suq_) {
    if (ins.q.has_word("channel_data_type") || ins.q.has_word("channel_order"))
      return fail_why(why, "suq channel queries return the driver's enumeration, which the ISA leaves to the source language");
    return ins.operands.size() == 2 && ins.operands[1].kind == OK::Address;
  }
  if (ins.op != Opcode::suld_ && ins.op != Opcode::sust_ && ins.op != Opcode::sured_) return false;
  if (!ins.q.has_word("b") && ins.op != Opcode::sust_)
    return fail_why(why, ins.op == Opcode::suld_ ? "suld.p is not in PTX ISA 9.0 (removed in 2.3)"
                                                 : "sured.p (sample addressing): the ISA does not say how the reduction applies to a sample's channels");
  bool layered = false;
  if (geometry_dims(ins, layered) == 0) return fail_why(why, "unknown geometry");
  if (!ins.q.has_word("b") && layered) return fail_why(why, "sust.p has no layered geometry (9.7.11.2)");
  const auto& o = ins.operands;
  const std::size_t ai = ins.op == Opcode::suld_ ? 1 : 0;
  if (o.size() != 2 || o[ai].kind != OK::Address || o[ai].elements.size() != 1) return fail_why(why, "operand shape");
  return true;
}

namespace {
// The CUDA array a surface operand names; null, with `error` set, when none.
TexArray* find_surface(Machine& m, Thread& t, const Operand& a, std::string& error) {
  const TexResource* r = nullptr;
  std::string name;
  if (a.base_kind == Operand::BaseKind::Variable) {
    name = m.variable(t, a.var).name;
  } else {
    const std::uint64_t h = a.base_kind == Operand::BaseKind::Register ? m.reg(t, a.reg).u64() : static_cast<std::uint64_t>(a.offset);
    if (auto it = m.textures_.surfaces.find(h); it != m.textures_.surfaces.end()) r = &it->second;
    for (std::size_t g = 0; !r && g < m.mod_.globals.size() && g < m.global_addr_.size(); ++g)
      if (m.mod_.globals[g].type.scalar == ir::ScalarType::surfref && m.global_addr_[g] == h) name = m.mod_.globals[g].name;
    if (!r && name.empty()) error = "no surface object has handle " + std::to_string(h);
  }
  if (!r && !name.empty()) {
    if (auto it = m.textures_.surfrefs.find(name); it != m.textures_.surfrefs.end()) r = &it->second;
    else error = "surface reference '" + name + "' is not bound";
  }
  if (!r) return nullptr;
  auto it = m.textures_.arrays.find(r->array);
  if (r->kind != TexResource::Kind::array || it == m.textures_.arrays.end()) {
    error = "the surface's CUDA array was freed";
    return nullptr;
  }
  return &it->second;
}

// The byte offset in the array of an access of `size` bytes at coordinates `c` (x in bytes; layered: the layer
// first), after .clamp / .zero / .trap (9.7.11.1-3): nullopt when the access is dropped (.zero) or failed.
std::optional<std::uint64_t> surface_offset(Machine& m, Thread& t, const Instruction& ins, const TexArray& a,
                                            const std::vector<CV>& c, std::uint64_t size) {
  bool layered = false;
  const unsigned dims = geometry_dims(ins, layered);
  const std::size_t first = layered ? 1 : 0;
  if (c.size() < first + dims) {
    m.fail(Problem::Kind::illegal, ir::opcode_text(ins) + ": too few coordinates", {&t});
    return std::nullopt;
  }
  // x in [0, row - size], y in [0, height), z or the layer in [0, depth)
  const std::int64_t row = static_cast<std::int64_t>(a.row_bytes());
  std::array<std::int64_t, 3> v{static_cast<std::int32_t>(c[first].u64()), 0, 0};
  std::array<std::int64_t, 3> hi{row - static_cast<std::int64_t>(size), static_cast<std::int64_t>(std::max<std::uint64_t>(a.height, 1)) - 1,
                                 static_cast<std::int64_t>(std::max<std::uint64_t>(a.depth, 1)) - 1};
  if (dims > 1) v[1] = static_cast<std::int32_t>(c[first + 1].u64());
  if (dims > 2) v[2] = static_cast<std::int32_t>(c[first + 2].u64());
  if (layered) v[2] = static_cast<std::int64_t>(static_cast<std::uint32_t>(c[0].u64()));
  if (v[0] % static_cast<std::int64_t>(size) != 0) {
    m.fail(Problem::Kind::misaligned, ir::opcode_text(ins) + ": byte offset " + std::to_string(v[0]) + " is not a multiple of the access size " +
           std::to_string(size) + " (undefined, ISA 9.7.11)", {&t});
    return std::nullopt;
  }
  bool outside = false;
  for (unsigned k = 0; k < 3; ++k) outside |= v[k] < 0 || v[k] > hi[k];
  if (outside) {
    const Clamp mode = clamp_mode(ins);
    if (mode == Clamp::zero) return std::nullopt;
    if (mode == Clamp::trap || hi[0] < 0) {
      m.fail(Problem::Kind::trap, ir::opcode_text(ins) + ": coordinates (" + std::to_string(v[0]) + ", " + std::to_string(v[1]) + ", " +
             std::to_string(v[2]) + ") out of range (.trap, ISA 9.7.11)", {&t});
      return std::nullopt;
    }
    for (unsigned k = 0; k < 3; ++k) v[k] = std::clamp<std::int64_t>(v[k], 0, hi[k]);
    v[0] -= v[0] % static_cast<std::int64_t>(size);  // the nearest location, "sized appropriately"
  }
  const std::uint64_t h = std::max<std::uint64_t>(a.height, 1);
  return (static_cast<std::uint64_t>(v[2]) * h + static_cast<std::uint64_t>(v[1])) * a.row_bytes() + static_cast<std::uint64_t>(v[0]);
}

std::vector<CV> coordinates(Machine& m, Thread& t, const Operand& addr) {
  std::vector<CV> c;
  const Operand& e = addr.elements[0];
  if (e.kind == OK::Vector) for (const auto& el : e.elements) c.push_back(m.read(t, el, 32));
  else c.push_back(m.read(t, e, 32));
  return c;
}

std::vector<const Operand*> value_operands(const Operand& o) {
  std::vector<const Operand*> v;
  if (o.kind == OK::Vector) for (const auto& e : o.elements) v.push_back(&e);
  else v.push_back(&o);
  return v;
}

// sured.b (9.7.11.3): add, min, max (signed for .s32/.s64), and, or on the value at the location.
std::uint64_t reduce(const Instruction& ins, std::uint64_t old, std::uint64_t b, unsigned bits) {
  const std::uint64_t mask = bits == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << bits) - 1;
  const ir::ScalarType ty = ins.q.types.empty() ? ir::ScalarType::u32 : ins.q.types[0].scalar;
  const bool is_signed = ty == ir::ScalarType::s32 || ty == ir::ScalarType::s64;
  auto sx = [&](std::uint64_t x) { return bits == 64 ? static_cast<std::int64_t>(x) : static_cast<std::int64_t>(static_cast<std::int32_t>(x)); };
  const bool less = is_signed ? sx(b) < sx(old) : (b & mask) < (old & mask);
  if (ins.q.has_word("min")) return less ? b : old;
  if (ins.q.has_word("max")) return less ? old : b;
  if (ins.q.has_word("and")) return old & b;
  if (ins.q.has_word("or")) return old | b;
  return (old + b) & mask;  // add
}

void exec_access(Machine& m, Thread& t, const Instruction& ins) {
  const bool load = ins.op == Opcode::suld_;
  const Operand& addr = ins.operands[load ? 1 : 0];
  const Operand& val = ins.operands[load ? 0 : 1];
  std::string error;
  TexArray* a = find_surface(m, t, addr, error);
  if (!a) return m.fail(Problem::Kind::illegal, ir::opcode_text(ins) + ": " + error, {&t});
  const unsigned bits = ins.q.types.empty() ? 32 : ir::scalar_bits(ins.q.types[0].scalar);
  const unsigned eb = std::max(1u, bits / 8);
  const std::vector<const Operand*> vals = value_operands(val);
  const std::uint64_t size = std::uint64_t(eb) * std::max<std::size_t>(ins.q.vector_width, 1);
  const std::optional<std::uint64_t> off = surface_offset(m, t, ins, *a, coordinates(m, t, addr), size);
  if (m.stop_) return;
  for (std::size_t k = 0; k < vals.size(); ++k) {
    std::uint64_t v = 0;
    if (off) std::memcpy(&v, a->data.data() + *off + k * eb, eb);
    if (load) {
      m.write(t, *vals[k], Concrete::lit(bits, v));  // .zero: out of range loads zero
      continue;
    }
    if (!off) continue;  // .zero: the store is dropped
    std::uint64_t nv = m.read(t, *vals[k], bits).u64();
    if (ins.op == Opcode::sured_) nv = reduce(ins, v, nv, bits);
    std::memcpy(a->data.data() + *off + k * eb, &nv, eb);
  }
}

// sust.p (9.7.11.2): a formatted store of .b32 elements, R, G, B, A left to right, to the sample at x (a sample
// offset, not bytes). FLOAT formats take .f32, UINT .u32, SINT .s32 (a CUDA channel kind float / unsigned /
// signed: the runtime has no UNORM / SNORM arrays), converted by surface_format.cpp; elements the format lacks are
// ignored, and components the vector lacks are left as they were (the ISA: "unpredictable").
void exec_store_p(Machine& m, Thread& t, const Instruction& ins) {
  std::string error;
  TexArray* a = find_surface(m, t, ins.operands[0], error);
  if (!a) return m.fail(Problem::Kind::illegal, ir::opcode_text(ins) + ": " + error, {&t});
  const std::uint64_t eb = a->format.bytes();
  std::vector<CV> c = coordinates(m, t, ins.operands[0]);
  if (!c.empty()) c[0] = Concrete::lit(32, static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<std::int32_t>(c[0].u64())) * static_cast<std::int64_t>(eb)));
  const std::optional<std::uint64_t> off = surface_offset(m, t, ins, *a, c, eb);
  if (m.stop_ || !off) return;
  const std::vector<const Operand*> vals = value_operands(ins.operands[1]);
  std::vector<std::uint32_t> src;
  for (const Operand* v : vals) src.push_back(static_cast<std::uint32_t>(m.read(t, *v, 32).u64()));
  encode_sample(a->format, src, a->data.data() + *off);
}

// suq (9.7.11.4): width in elements, height, depth (CUDA's extent; a layered array's depth counts its layers and
// reads 0 here), array_size (layers, else 0), memory_layout (0: a CUDA array is not linear memory).
void exec_suq(Machine& m, Thread& t, const Instruction& ins) {
  std::string error;
  TexArray* a = find_surface(m, t, ins.operands[1], error);
  if (!a) return m.fail(Problem::Kind::illegal, ir::opcode_text(ins) + ": " + error, {&t});
  std::uint64_t v = 0;
  if (ins.q.has_word("width")) v = a->width;
  else if (ins.q.has_word("height")) v = a->height;
  else if (ins.q.has_word("depth")) v = a->layered ? 0 : a->depth;
  else if (ins.q.has_word("array_size")) v = a->layered ? a->depth : 0;
  m.write(t, ins.operands[0], Concrete::lit(32, v));
}
}  // namespace

void Machine::exec_surface(Thread& t, const Instruction& ins) {
  if (ins.op == Opcode::suq_) exec_suq(*this, t, ins);
  else if (ins.op == Opcode::sust_ && !ins.q.has_word("b")) exec_store_p(*this, t, ins);
  else exec_access(*this, t, ins);
}

}  // namespace ptx::interp
