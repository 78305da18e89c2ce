// Texture instructions (ISA 9.7.10): tex, tld4, txq and istypep in unified mode, on a texture object handle held
// in a .u64 register or a bound .texref variable, over CUDA arrays, linear and pitched device memory (texture.hpp).
// Sampling follows the CUDA Programming Guide's "Texture Fetching" appendix (texture_filter.hpp).
#include "semantics/interp/machine.hpp"
#include "semantics/interp/texture_cube.hpp"
#include "semantics/interp/texture_filter.hpp"
#include "semantics/interp/texture_mip.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

namespace ptx::interp {

using domain::Concrete;
using ir::Opcode;
using OK = Operand::Kind;
namespace tf = texfilter;

namespace {
// The geometries run (9.7.10.3): 1d, 2d, 3d, the layered a1d, a2d, and cube, acube; 2dms and a2dms are not.
enum class Geom : std::uint8_t { d1, d2, d3, a1, a2, cube, acube, other };
Geom geometry(const Instruction& ins) {
  static const std::pair<const char*, Geom> names[] = {{"1d", Geom::d1}, {"2d", Geom::d2}, {"3d", Geom::d3}, {"a1d", Geom::a1},
                                                       {"a2d", Geom::a2}, {"cube", Geom::cube}, {"acube", Geom::acube}};
  for (const auto& [n, g] : names)
    if (ins.q.has_word(n)) return g;
  return Geom::other;
}
unsigned dims_of(Geom g) { return g == Geom::d1 || g == Geom::a1 ? 1 : g == Geom::d3 || g == Geom::cube || g == Geom::acube ? 3 : 2; }
bool layered(Geom g) { return g == Geom::a1 || g == Geom::a2 || g == Geom::acube; }
bool is_cube(Geom g) { return g == Geom::cube || g == Geom::acube; }

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
  if (g == Geom::other) return fail_why(why, "multi-sample textures are not modelled");
  if (tld4 && g != Geom::d2 && g != Geom::a2) return fail_why(why, "tld4 of cubemap textures is not modelled");
  if (o.size() < 2 || o[0].kind != OK::Vector || o[1].kind != OK::Address) return fail_why(why, "the destination predicate d|p is not modelled");
  if (o[1].elements.size() != 1) return fail_why(why, "an explicit sampler (independent texturing mode) is not modelled");
  const ir::ScalarType d = type_at(ins, 0), c = type_at(ins, 1);
  using ST = ir::ScalarType;
  if (d != ST::u32 && d != ST::s32 && d != ST::f32 && !(d == ST::f16 && !tld4)) return fail_why(why, "f16x2 results are not modelled");
  if (c != ST::s32 && c != ST::f32) return fail_why(why, "coordinates must be .s32 or .f32");
  if (is_cube(g) && c != ST::f32) return fail_why(why, "cubemap coordinates are .f32 directions");
  // tex.level / tex.grad (mipmaps, 9.7.10.2): the LOD chooses the level(s) of a mipmapped texture (exec_mip);
  // a texture of one level has only level 0.
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
    s = {a.width, a.height, a.depth, a.layered, a.format, a.cubemap};
    return true;
  }
  if (r.kind == TexResource::Kind::mipmap) {  // level 0's shape
    auto it = reg.mipmaps.find(r.array);
    if (it == reg.mipmaps.end() || it->second.empty()) return false;
    TexResource level0;
    level0.array = it->second[0];
    return texture_shape(reg, level0, s);
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
// texels around the coordinate, weighted as tf::corner_weights says (a, b, c quantized to 1/256; in two dimensions
// the H200's fixed-point weights), summed in double and rounded once to f32.
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
  const std::array<double, 8> w = tf::corner_weights(fp, dims);
  std::array<double, 4> sum{};
  for (unsigned corner = 0; corner < (1u << dims); ++corner) {
    std::array<std::int64_t, 3> idx{};
    for (unsigned k = 0; k < dims; ++k) idx[k] = fp[k].i + ((corner >> k) & 1);
    const tf::Channels v = texel(f, idx, dims, layer);
    for (unsigned ch = 0; ch < 4; ++ch) sum[ch] += w[corner] * v.f[ch];
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
// tex.cube / tex.acube (9.7.10.3): direction `x` picks a face and a point on it (CUDA Programming Guide,
// "Cubemap Textures"); the face is sampled as layer 6 * cube + face, its coordinates normalized. Addressing clamps
// at the face's edges (the guide does not say how filtering crosses faces: the interpreter's choice).
void exec_cube(Machine& m, Thread& t, const Instruction& ins, const TextureObject& tex, const TexShape& shape,
               const std::array<double, 3>& x, std::int64_t cube) {
  if (!shape.cubemap) return m.fail(Problem::Kind::illegal, ir::opcode_text(ins) + ": a cubemap fetch of a texture that is not a cubemap", {&t});
  const tf::CubeFace cf = tf::cube_face(x[0], x[1], x[2]);
  TextureObject face_tex = tex;
  face_tex.sampler.normalized_coords = true;
  face_tex.sampler.address = {AddressMode::clamp, AddressMode::clamp, AddressMode::clamp};
  Fetch f{m, t, ins, face_tex, shape};
  bool is_float = false;
  const tf::Channels v = sample(f, {cf.u, cf.v, 0}, 2, false, cube * 6 + cf.face, is_float);
  write_result(m, t, ins, v, is_float, {0, 1, 2, 3});
}

// tld4 (9.7.10.4): the four texels of the bilinear footprint, component .r/.g/.b/.a of each, counter-clockwise
// from the lower left: (i, j+1), (i+1, j+1), (i+1, j), (i, j).
void exec_gather(Fetch f, const std::array<double, 3>& x, std::int64_t layer) {
  const Instruction& ins = f.ins;
  const unsigned comp = ins.q.has_word("g") ? 1 : ins.q.has_word("b") ? 2 : ins.q.has_word("a") ? 3 : 0;
  const bool is_float = tf::returns_float(f.shape.format, f.tex.sampler.normalized_float);
  const std::array<std::uint64_t, 2> n{f.shape.width, f.shape.height};
  std::array<tf::Footprint, 2> fp{};
  for (unsigned k = 0; k < 2; ++k) fp[k] = tf::linear_footprint(f.tex.sampler.normalized_coords ? x[k] * static_cast<double>(n[k]) : x[k]);
  static constexpr std::array<std::array<int, 2>, 4> corner{{{0, 1}, {1, 1}, {1, 0}, {0, 0}}};
  tf::Channels out;
  for (unsigned k = 0; k < 4 && !f.m.stop_; ++k) {
    const tf::Channels v = texel(f, {fp[0].i + corner[k][0], fp[1].i + corner[k][1], 0}, 2, layer);
    out.f[k] = v.f[comp];
    out.i[k] = v.i[comp];
  }
  if (!f.m.stop_) write_result(f.m, f.t, ins, out, is_float, {0, 1, 2, 3});
}

// Level `level` of a mipmapped texture as a texture of that level's array (same sampler).
TextureObject level_view(const Machine& m, const TextureObject& tex, unsigned level) {
  TextureObject v = tex;
  v.resource = TexResource{};
  v.resource.array = m.textures_.mipmaps.at(tex.resource.array).at(level);
  return v;
}

std::vector<double> read_f32s(Machine& m, Thread& t, const Operand& o) {
  std::vector<double> v;
  if (o.kind == OK::Vector) for (const auto& el : o.elements) v.push_back(coordinate(m.read(t, el, 32), true));
  else v.push_back(coordinate(m.read(t, o, 32), true));
  return v;
}

// The level of detail of a fetch (9.7.10.3): tex.level's operand, tex.grad's from its gradients (texture_mip.hpp),
// 0 for a plain tex (a kernel has no implicit derivatives: the interpreter's choice).
double fetch_lod(Machine& m, Thread& t, const Instruction& ins, const TexShape& shape, bool normalized, unsigned dims) {
  if (ins.q.has_word("level")) return read_f32s(m, t, ins.operands[2])[0];
  if (!ins.q.has_word("grad")) return 0;
  const std::vector<double> gx = read_f32s(m, t, ins.operands[2]), gy = read_f32s(m, t, ins.operands[3]);
  std::array<double, 3> dx{}, dy{};
  for (unsigned k = 0; k < dims; ++k) dx[k] = k < gx.size() ? gx[k] : 0, dy[k] = k < gy.size() ? gy[k] : 0;
  return tf::lod_from_gradients(dx, dy, {shape.width, shape.height, shape.depth}, dims, normalized);
}

// tex of a mipmapped texture: the level(s) the LOD chooses (texture_mip.hpp), each sampled as an array; linear
// mipmap filtering blends two levels with weights (1 - w, w), summed in double and rounded once to f32 (no
// precision documented: the interpreter's choice; integer results read the lower level).
void exec_mip(Machine& m, Thread& t, const Instruction& ins, const TextureObject& tex, const TexShape& shape,
              const std::array<double, 3>& x, unsigned dims, std::int64_t layer) {
  const double lambda = fetch_lod(m, t, ins, shape, tex.sampler.normalized_coords, dims);
  const auto levels = static_cast<unsigned>(m.textures_.mipmaps.at(tex.resource.array).size());
  const tf::LevelChoice c = tf::choose_levels(lambda, tex.sampler, levels);
  bool is_float = false;
  auto at = [&](unsigned level) {
    const TextureObject v = level_view(m, tex, level);
    TexShape s;
    if (!texture_shape(m.textures_, v.resource, s)) {
      m.fail(Problem::Kind::illegal, ir::opcode_text(ins) + ": a level of the mipmapped array was freed", {&t});
      return tf::Channels{};
    }
    Fetch f{m, t, ins, v, s};
    return sample(f, x, dims, false, layer, is_float);
  };
  tf::Channels out = at(c.lo);
  if (m.stop_) return;
  if (c.hi != c.lo && is_float && !m.stop_) {
    const tf::Channels hi = at(c.hi);
    for (unsigned ch = 0; ch < 4; ++ch) out.f[ch] = static_cast<float>((1 - c.w) * out.f[ch] + c.w * static_cast<double>(hi.f[ch]));
  }
  if (!m.stop_) write_result(m, t, ins, out, is_float, {0, 1, 2, 3});
}

// The layer a layered fetch names: a .u32 clamped to the array's layers (cubemaps: to its cubes; the
// interpreter's choice); -1 when the texture is not layered.
std::int64_t layer_of(const CV& v, const TexShape& shape, bool cube) {
  if (!shape.layered) return -1;
  const std::uint64_t layers = std::max<std::uint64_t>(shape.depth / (cube ? 6 : 1), 1);  // CUDA's extent: depth counts layers
  return static_cast<std::int64_t>(std::min<std::uint64_t>(v.u64(), layers - 1));
}

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
  if (layered(g) && (layer = layer_of(e[0], shape, is_cube(g))) < 0)
    return m.fail(Problem::Kind::illegal, ir::opcode_text(ins) + ": a layered fetch of a texture that is not layered", {&t});
  std::array<double, 3> x{};
  for (unsigned k = 0; k < dims; ++k) x[k] = coordinate(e[first + k], !int_coords);
  if (is_cube(g)) return exec_cube(m, t, ins, *tex, shape, x, layer);
  if (tex->resource.kind == TexResource::Kind::mipmap) {
    if (ins.op == Opcode::tex_) return exec_mip(m, t, ins, *tex, shape, x, dims, layer);
    const TextureObject level0 = level_view(m, *tex, 0);  // tld4 gathers from level 0
    return exec_gather(Fetch{m, t, ins, level0, shape}, x, layer);
  }
  if (ins.op == Opcode::tex_) {
    bool is_float = false;
    const tf::Channels v = sample(f, x, dims, int_coords, layer, is_float);
    write_result(m, t, ins, v, is_float, {0, 1, 2, 3});
    return;
  }
  exec_gather(f, x, layer);
}

// txq (9.7.10.5): the texture's size in elements (CUDA's extent: 0 for a dimension it lacks), normalized_coords,
// filter_mode (enum {nearest, linear}), addr_mode_N (enum {wrap, mirror, clamp_ogl, clamp_to_edge,
// clamp_to_border}: CUDA's clamp is clamp_to_edge), array_size (layers of a layered array, else 0), and
// num_mipmap_levels (a mipmapped texture's levels, else 0) / num_samples (0: no texture is multi-sample).
void exec_txq(Machine& m, Thread& t, const Instruction& ins) {
  std::string error;
  const TextureObject* tex = find_texture(m, t, ins.operands[1], error);
  TexShape s;
  if (tex && !texture_shape(m.textures_, tex->resource, s)) error = "the texture's CUDA array was freed";
  if (!error.empty()) return m.fail(Problem::Kind::illegal, ir::opcode_text(ins) + ": " + error, {&t});
  const auto& q = ins.q;
  static constexpr std::uint32_t addr_enum[] = {0, 3, 1, 4};  // CUDA wrap, clamp, mirror, border
  std::uint64_t v = 0;
  const std::uint64_t layers = s.layered ? s.depth / (s.cubemap ? 6 : 1) : 0;  // cubemaps: layers of 6 faces
  if (q.has_word("width")) v = s.width;
  else if (q.has_word("height")) v = s.height;
  else if (q.has_word("depth")) v = s.layered || s.cubemap ? 0 : s.depth;
  else if (q.has_word("normalized_coords")) v = tex->sampler.normalized_coords;
  else if (q.has_word("filter_mode")) v = tex->sampler.linear;
  else if (q.has_word("addr_mode_0")) v = addr_enum[static_cast<unsigned>(tex->sampler.address[0])];
  else if (q.has_word("addr_mode_1")) v = addr_enum[static_cast<unsigned>(tex->sampler.address[1])];
  else if (q.has_word("addr_mode_2")) v = addr_enum[static_cast<unsigned>(tex->sampler.address[2])];
  else if (q.has_word("array_size")) v = layers;
  else if (q.has_word("num_mipmap_levels") && tex->resource.kind == TexResource::Kind::mipmap)
    v = m.textures_.mipmaps.at(tex->resource.array).size();
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
