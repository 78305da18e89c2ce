// Texture instructions (ISA 9.7.10): tex, tld4, txq and istypep in unified mode, on a texture object handle held
// in a .u64 register or a bound .texref variable, over CUDA arrays, linear and pitched device memory (texture.hpp).
// Sampling follows the CUDA Programming Guide's "Texture Fetching" appendix (texture_filter.hpp).
#include "semantics/interp/machine.hpp"
#include "semantics/interp/texture_filter.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ptx::interp {

using domain::Concrete;
using ir::Opcode;
using OK = Operand::Kind;
namespace tf = texfilter;

namespace {
// The geometries run (9.7.10.3): 1d, 2d, 3d and the layered a1d, a2d; cube, acube, 2dms and a2dms are not.
enum class Geom : std::uint8_t { d1, d2, d3, a1, a2, other };
Geom geometry(const Instruction& ins) {
  static const std::pair<const char*, Geom> names[] = {{"1d", Geom::d1}, {"2d", Geom::d2}, {"3d", Geom::d3}, {"a1d", Geom::a1}, {"a2d", Geom::a2}};
  for (const auto& [n, g] : names)
    if (ins.q.has_word(n)) return g;
  return Geom::other;
}
unsigned dims_of(Geom g) { return g == Geom::d1 || g == Geom::a1 ? 1 : g == Geom::d3 ? 3 : 2; }
bool layered(Geom g) { return g == Geom::a1 || g == Geom::a2; }

ir::ScalarType type_at(const Instruction& ins, std::size_t k) {
  return k < ins.q.types.size() ? ins.q.types[k].scalar : ir::ScalarType::b32;
}

bool fail_why(std::string* why, std::string reason) {
  if (why) *why = std::move(reason);
  return false;
}

// tex and tld4 (9.7.10.3-4): the forms texture.cpp runs.
bool fetch_supported(const Instruction& ins, std::string* why) {
  const auto& o = ins.operands;
  const Geom g = geometry(ins);
  const bool tld4 = ins.op == Opcode::tld4_;
  if (g == Geom::other || (tld4 && g != Geom::d2 && g != Geom::a2))
    return fail_why(why, "cubemap and multi-sample textures are not modelled");
  if (o.size() < 2 || o[0].kind != OK::Vector || o[1].kind != OK::Address) return fail_why(why, "the destination predicate d|p is not modelled");
  if (o[1].elements.size() != 1) return fail_why(why, "an explicit sampler (independent texturing mode) is not modelled");
  const ir::ScalarType d = type_at(ins, 0), c = type_at(ins, 1);
  using ST = ir::ScalarType;
  if (d != ST::u32 && d != ST::s32 && d != ST::f32 && !(d == ST::f16 && !tld4)) return fail_why(why, "f16x2 results are not modelled");
  if (c != ST::s32 && c != ST::f32) return fail_why(why, "coordinates must be .s32 or .f32");
  // tex.level / tex.grad (mipmaps, 9.7.10.2): every texture the interpreter has is one level, which any LOD selects.
  std::size_t extra = ins.q.has_word("level") ? 1 : ins.q.has_word("grad") ? 2 : 0;
  if (o.size() != 2 + extra) return fail_why(why, "the offset (e) and depth-compare (f) operands are not modelled");
  return true;
}
}  // namespace

bool texture_supported(const Instruction& ins, std::string* why) {
  switch (ins.op) {
    case Opcode::istypep_: return true;
    case Opcode::txq_:
      if (ins.q.has_word("channel_data_type") || ins.q.has_word("channel_order"))
        return fail_why(why, "txq channel queries return the driver's enumeration, which the ISA leaves to the source language");
      if (ins.q.has_word("force_unnormalized_coords")) return fail_why(why, "samplers of independent texturing mode are not modelled");
      if (ins.q.has_word("level")) return fail_why(why, "txq.level: mipmapped textures are not modelled");
      return ins.operands.size() == 2 && ins.operands[1].kind == OK::Address;
    case Opcode::tex_: case Opcode::tld4_: return fetch_supported(ins, why);
    default: return false;
  }
}

namespace {
// The texture an operand names (ISA 9.7.10.3 "Indirect texture access"): a .texref variable, or a .u64 holding an
// object handle or a .texref variable's address. Null, with `error` set, when it names none.
const TextureObject* find_texture(Machine& m, Thread& t, const Operand& a, std::string& error) {
  std::string name;
  if (a.base_kind == Operand::BaseKind::Variable) {
    name = m.variable(t, a.var).name;
  } else {
    const std::uint64_t h = a.base_kind == Operand::BaseKind::Register ? m.reg(t, a.reg).u64() : static_cast<std::uint64_t>(a.offset);
    if (auto it = m.textures_.textures.find(h); it != m.textures_.textures.end()) return &it->second;
    for (std::size_t g = 0; g < m.mod_.globals.size() && g < m.global_addr_.size(); ++g)
      if (m.mod_.globals[g].type.scalar == ir::ScalarType::texref && m.global_addr_[g] == h) name = m.mod_.globals[g].name;
    if (name.empty()) {
      error = "no texture object has handle " + std::to_string(h);
      return nullptr;
    }
  }
  if (auto it = m.textures_.texrefs.find(name); it != m.textures_.texrefs.end()) return &it->second;
  error = "texture reference '" + name + "' is not bound";
  return nullptr;
}

struct Fetch {
  Machine& m;
  Thread& t;
  const Instruction& ins;
  const TextureObject& tex;
  TexShape shape;
  bool normalized_float() const { return tex.sampler.normalized_float; }
};
}  // namespace

// The shape of a resource; false when its array is gone.
bool texture_shape(const TextureRegistry& reg, const TexResource& r, TexShape& s) {
  if (r.kind == TexResource::Kind::array) {
    auto it = reg.arrays.find(r.array);
    if (it == reg.arrays.end()) return false;
    const TexArray& a = it->second;
    s = {a.width, a.height, a.depth, a.layered, a.format};
    return true;
  }
  s = {r.width, r.kind == TexResource::Kind::pitch2d ? r.height : 0, 0, false, r.format};
  return true;
}

// The bytes of element (x, y, z) of a resource, all in range (z: the layer of a layered array); null, with the
// problem reported, when linear memory there is not allocated. An observer hears of a read of linear memory.
const std::uint8_t* texture_element(Machine& m, Thread& t, const Instruction& ins, const TexResource& r, std::int64_t x,
                                    std::int64_t y, std::int64_t z) {
  const auto ux = static_cast<std::uint64_t>(x), uy = static_cast<std::uint64_t>(y), uz = static_cast<std::uint64_t>(z);
  if (r.kind == TexResource::Kind::array) {
    TexArray& a = m.textures_.arrays.at(r.array);
    const std::uint64_t h = a.height ? a.height : 1;
    return a.data.data() + ((uz * h + uy) * a.width + ux) * a.format.bytes();
  }
  const std::uint64_t eb = r.format.bytes();
  const std::uint64_t addr = r.address + uy * r.pitch + ux * eb;
  const std::uint8_t* p = m.locate(t, StateSpace::global, addr, eb, false);
  if (p && m.opt_.observer) m.observe_texture(t, ins, addr, static_cast<std::uint32_t>(eb));
  return p;
}

void Machine::observe_texture(Thread& t, const Instruction& ins, std::uint64_t addr, std::uint32_t bytes) {
  MemoryAccess a = access_record(t.top->fn, ins, MemoryAccess::Kind::read, bytes);
  a.space = StateSpace::global;
  a.addr = addr;
  a.texture = true;
  opt_.observer->access(thread_ref(t), a);
}

namespace {
// The channels of texel `idx` after addressing (border: the border colour).
tf::Channels texel(Fetch& f, std::array<std::int64_t, 3> idx, unsigned dims, std::int64_t layer) {
  const std::array<std::uint64_t, 3> n{f.shape.width, std::max<std::uint64_t>(f.shape.height, 1), std::max<std::uint64_t>(f.shape.depth, 1)};
  bool outside = false;
  for (unsigned k = 0; k < dims; ++k) idx[k] = tf::address(idx[k], n[k], f.tex.sampler.address[k], f.tex.sampler.normalized_coords, outside);
  if (outside) {  // cudaAddressModeBorder: the texture's border colour (integers: the colour's value converted)
    tf::Channels c;
    for (unsigned k = 0; k < 4; ++k) {
      c.f[k] = f.tex.sampler.border[k];
      c.i[k] = static_cast<std::uint32_t>(static_cast<std::int64_t>(f.tex.sampler.border[k]));
    }
    return c;
  }
  const std::uint8_t* p = texture_element(f.m, f.t, f.ins, f.tex.resource, idx[0], dims > 1 ? idx[1] : 0, dims > 2 ? idx[2] : layer);
  return p ? tf::decode(f.shape.format, p, f.normalized_float()) : tf::Channels{};
}

double coordinate(const CV& bits, bool is_float) {
  if (!is_float) return static_cast<double>(static_cast<std::int32_t>(bits.u64()));
  const double x = std::bit_cast<float>(static_cast<std::uint32_t>(bits.u64()));
  return std::isnan(x) ? 0.0 : std::clamp(x, -1e12, 1e12);  // (NaN coordinates: undefined; the interpreter reads 0)
}

// tex (9.7.10.3): point sampling (integer coordinates are texel indices) or linear filtering of the 2, 4 or 8
// texels around the coordinate, weights (1-a)(1-b)... with a, b, c quantized to 1/256, summed in double and rounded
// once to f32 (the guide gives the formula, not the hardware's precision: this is the interpreter's).
tf::Channels sample(Fetch& f, const std::array<double, 3>& c, unsigned dims, bool int_coords, std::int64_t layer, bool& is_float) {
  is_float = tf::returns_float(f.shape.format, f.normalized_float());
  const std::array<std::uint64_t, 3> n{f.shape.width, f.shape.height, f.shape.depth};
  std::array<double, 3> x{};
  for (unsigned k = 0; k < dims; ++k) x[k] = f.tex.sampler.normalized_coords && !int_coords ? c[k] * static_cast<double>(n[k]) : c[k];
  if (int_coords || !f.tex.sampler.linear) {
    std::array<std::int64_t, 3> idx{};
    for (unsigned k = 0; k < dims; ++k) idx[k] = static_cast<std::int64_t>(std::floor(x[k]));
    return texel(f, idx, dims, layer);
  }
  std::array<tf::Footprint, 3> fp{};
  for (unsigned k = 0; k < dims; ++k) fp[k] = tf::linear_footprint(x[k]);
  std::array<double, 4> sum{};
  for (unsigned corner = 0; corner < (1u << dims); ++corner) {
    std::array<std::int64_t, 3> idx{};
    double w = 1;
    for (unsigned k = 0; k < dims; ++k) {
      const bool hi = (corner >> k) & 1;
      idx[k] = fp[k].i + hi;
      w *= hi ? fp[k].alpha : 1 - fp[k].alpha;
    }
    const tf::Channels v = texel(f, idx, dims, layer);
    for (unsigned ch = 0; ch < 4; ++ch) sum[ch] += w * v.f[ch];
  }
  tf::Channels out;
  for (unsigned ch = 0; ch < 4; ++ch) out.f[ch] = static_cast<float>(sum[ch]);
  return out;
}

// Writes element k of the result in the destination type: f32 bits, f16 (rounded to nearest even) or the integer.
bool write_result(Machine& m, Thread& t, const Instruction& ins, const tf::Channels& v, bool is_float, const std::array<unsigned, 4>& from) {
  const ir::ScalarType d = type_at(ins, 0);
  const bool want_float = d == ir::ScalarType::f32 || d == ir::ScalarType::f16;
  if (want_float != is_float) {
    m.fail(Problem::Kind::illegal, ir::opcode_text(ins) + ": a ." + std::string(want_float ? "f" : "s32/.u32") +
           " result from a texture whose format and read mode return " + (is_float ? "floats" : "integers") + " (undefined)", {&t});
    return false;
  }
  const auto& dst = ins.operands[0].elements;
  for (std::size_t k = 0; k < dst.size() && k < 4; ++k) {
    const unsigned ch = from[k];
    CV r = Concrete::lit(32, is_float ? std::bit_cast<std::uint32_t>(v.f[ch]) : v.i[ch]);
    if (d == ir::ScalarType::f16) r = Concrete::f2f(domain::FpFormat::f32, domain::FpFormat::f16, domain::Rnd::rn, r);
    m.write(t, dst[k], r);
  }
  return true;
}
}  // namespace

namespace {
void exec_fetch(Machine& m, Thread& t, const Instruction& ins) {
  const Operand& a = ins.operands[1];
  std::string error;
  const TextureObject* tex = find_texture(m, t, a, error);
  TexShape shape;
  if (tex && !texture_shape(m.textures_, tex->resource, shape)) error = "the texture's CUDA array was freed";
  if (!error.empty()) return m.fail(Problem::Kind::illegal, ir::opcode_text(ins) + ": " + error, {&t});
  Fetch f{m, t, ins, *tex, shape};
  const Geom g = geometry(ins);
  const unsigned dims = dims_of(g);
  const bool int_coords = type_at(ins, 1) == ir::ScalarType::s32;
  // Integer coordinates are texel indices where the Programming Guide defines them (tex1Dfetch on linear memory,
  // unfiltered unnormalized arrays); float coordinates on linear memory have no CUDA intrinsic.
  const bool is_linear = tex->resource.kind == TexResource::Kind::linear;
  if (is_linear && !int_coords) return m.fail(Problem::Kind::unsupported, ir::opcode_text(ins) + ": float coordinates on linear memory are not modelled", {&t});
  if (int_coords && !is_linear && (tex->sampler.linear || tex->sampler.normalized_coords))
    return m.fail(Problem::Kind::unsupported, ir::opcode_text(ins) + ": integer coordinates with linear filtering or normalized coordinates are not modelled", {&t});
  const Operand& c = a.elements[0];
  std::vector<CV> e;
  if (c.kind == OK::Vector) for (const auto& el : c.elements) e.push_back(m.read(t, el, 32));
  else e.push_back(m.read(t, c, 32));
  const unsigned first = layered(g) ? 1 : 0;
  if (e.size() < first + dims) return m.fail(Problem::Kind::illegal, ir::opcode_text(ins) + ": too few coordinates", {&t});
  std::int64_t layer = 0;
  if (layered(g)) {  // the layer index is a .u32, clamped to the array's layers (the interpreter's choice)
    const std::uint64_t layers = std::max<std::uint64_t>(shape.depth, 1);  // CUDA's extent: depth counts layers
    layer = static_cast<std::int64_t>(std::min<std::uint64_t>(e[0].u64(), layers - 1));
    if (!shape.layered) return m.fail(Problem::Kind::illegal, ir::opcode_text(ins) + ": a layered fetch of a texture that is not layered", {&t});
  }
  std::array<double, 3> x{};
  for (unsigned k = 0; k < dims; ++k) x[k] = coordinate(e[first + k], !int_coords);
  bool is_float = false;
  if (ins.op == Opcode::tex_) {
    const tf::Channels v = sample(f, x, dims, int_coords, layer, is_float);
    write_result(m, t, ins, v, is_float, {0, 1, 2, 3});
    return;
  }
  // tld4 (9.7.10.4): the four texels of the bilinear footprint, component .r/.g/.b/.a of each, counter-clockwise
  // from the lower left: (i, j+1), (i+1, j+1), (i+1, j), (i, j).
  const unsigned comp = ins.q.has_word("g") ? 1 : ins.q.has_word("b") ? 2 : ins.q.has_word("a") ? 3 : 0;
  is_float = tf::returns_float(shape.format, tex->sampler.normalized_float);
  const std::array<std::uint64_t, 2> n{shape.width, shape.height};
  std::array<tf::Footprint, 2> fp{};
  for (unsigned k = 0; k < 2; ++k) fp[k] = tf::linear_footprint(tex->sampler.normalized_coords ? x[k] * static_cast<double>(n[k]) : x[k]);
  static constexpr std::array<std::array<int, 2>, 4> corner{{{0, 1}, {1, 1}, {1, 0}, {0, 0}}};
  tf::Channels out;
  for (unsigned k = 0; k < 4 && !m.stop_; ++k) {
    const tf::Channels v = texel(f, {fp[0].i + corner[k][0], fp[1].i + corner[k][1], 0}, 2, layer);
    out.f[k] = v.f[comp];
    out.i[k] = v.i[comp];
  }
  if (!m.stop_) write_result(m, t, ins, out, is_float, {0, 1, 2, 3});
}

// txq (9.7.10.5): the texture's size in elements (CUDA's extent: 0 for a dimension it lacks), normalized_coords,
// filter_mode (enum {nearest, linear}), addr_mode_N (enum {wrap, mirror, clamp_ogl, clamp_to_edge,
// clamp_to_border}: CUDA's clamp is clamp_to_edge), array_size (layers of a layered array, else 0), and
// num_mipmap_levels / num_samples (0: no texture is mipmapped or multi-sample).
void exec_txq(Machine& m, Thread& t, const Instruction& ins) {
  std::string error;
  const TextureObject* tex = find_texture(m, t, ins.operands[1], error);
  TexShape s;
  if (tex && !texture_shape(m.textures_, tex->resource, s)) error = "the texture's CUDA array was freed";
  if (!error.empty()) return m.fail(Problem::Kind::illegal, ir::opcode_text(ins) + ": " + error, {&t});
  const auto& q = ins.q;
  static constexpr std::uint32_t addr_enum[] = {0, 3, 1, 4};  // CUDA wrap, clamp, mirror, border
  std::uint64_t v = 0;
  const std::uint64_t layers = s.layered ? s.depth : 0;
  if (q.has_word("width")) v = s.width;
  else if (q.has_word("height")) v = s.height;
  else if (q.has_word("depth")) v = s.layered ? 0 : s.depth;
  else if (q.has_word("normalized_coords")) v = tex->sampler.normalized_coords;
  else if (q.has_word("filter_mode")) v = tex->sampler.linear;
  else if (q.has_word("addr_mode_0")) v = addr_enum[static_cast<unsigned>(tex->sampler.address[0])];
  else if (q.has_word("addr_mode_1")) v = addr_enum[static_cast<unsigned>(tex->sampler.address[1])];
  else if (q.has_word("addr_mode_2")) v = addr_enum[static_cast<unsigned>(tex->sampler.address[2])];
  else if (q.has_word("array_size")) v = layers;
  m.write(t, ins.operands[0], Concrete::lit(32, v));
}

// istypep (9.7.10.6): whether the .u64 names a texture (object or .texref variable) or a surface; no sampler
// exists in unified mode.
void exec_istypep(Machine& m, Thread& t, const Instruction& ins) {
  const std::uint64_t h = m.read(t, ins.operands[1], 64).u64();
  const bool want_tex = ins.q.has_word("texref"), want_surf = ins.q.has_word("surfref");
  bool r = (want_tex && m.textures_.textures.count(h)) || (want_surf && m.textures_.surfaces.count(h));
  for (std::size_t g = 0; g < m.mod_.globals.size() && g < m.global_addr_.size(); ++g) {
    const ir::ScalarType st = m.mod_.globals[g].type.scalar;
    if (m.global_addr_[g] == h && ((want_tex && st == ir::ScalarType::texref) || (want_surf && st == ir::ScalarType::surfref)))
      r = true;
  }
  m.write(t, ins.operands[0], Concrete::boolean(r));
}
}  // namespace

void Machine::exec_texture(Thread& t, const Instruction& ins) {
  switch (ins.op) {
    case Opcode::txq_: exec_txq(*this, t, ins); break;
    case Opcode::istypep_: exec_istypep(*this, t, ins); break;
    default: exec_fetch(*this, t, ins); break;
  }
}

}  // namespace ptx::interp
