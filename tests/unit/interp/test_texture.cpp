// Textures and surfaces (ISA 9.7.10-9.7.11) on the interpreter: one thread runs one instruction on a registry
// built here, and the result is checked against values worked out by hand from the CUDA Programming Guide's
// "Texture Fetching" formulas (point: T[floor(x)]; linear: xB = x - 0.5, weights in 1/256ths) and the ISA text.
#include "semantics/interp/launch.hpp"
#include "semantics/interp/memory.hpp"
#include "semantics/interp/texture.hpp"
#include "semantics/ir/build.hpp"

#include <doctest/doctest.h>

#include <bit>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {
using namespace ptx::interp;

std::string f32(float v) {
  char b[16];
  std::snprintf(b, sizeof b, "0f%08X", std::bit_cast<std::uint32_t>(v));
  return b;
}

struct Out {
  RunResult r;
  std::array<std::uint32_t, 4> w{};
  float f(unsigned k) const { return std::bit_cast<float>(w[k]); }
};

// `body` with %rd1 = the handle parameter; it leaves its results in %r1-%r4, stored to out[0..3].
Out run_body(TextureRegistry& reg, std::uint64_t handle, const std::string& body, DeviceMemory* device = nullptr) {
  const std::string ptx = R"(.version 9.0
.target sm_90
.address_size 64
.global .texref tex0;
.global .surfref surf0;
.visible .entry k(.param .u64 out, .param .u64 h) {
  .reg .u32 %r<16>; .reg .f32 %f<16>; .reg .u64 %rd<8>; .reg .pred %p<4>; .reg .b16 %rs<8>;
  ld.param.u64 %rd1, [h];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, 0; mov.u32 %r2, 0; mov.u32 %r3, 0; mov.u32 %r4, 0;
)" + body + R"(
  st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};
  ret;
})";
  Out o;
  auto loaded = ptx::ir::load_ptx(ptx, "tex.ptx");
  for (const auto& e : loaded.errors) FAIL(e.render());
  REQUIRE(loaded);
  Launch l;
  l.kernel = "k";
  l.buffers.push_back({"out", std::vector<std::uint8_t>(16)});
  l.params.push_back({"out", {}, 0, {}});
  l.params.push_back({"", ptx::ir::ScalarType::u64, handle, {}});
  Options opt;
  opt.textures = &reg;
  opt.device = device;
  o.r = run(*loaded.module, l, opt);
  if (!o.r.buffers.empty()) std::memcpy(o.w.data(), o.r.buffers[0].second.data(), 16);
  return o;
}

// tex with f32 results into %r1-%r4; `coords` the coordinate operand's text.
std::string tex_f32(const std::string& geom, const std::string& coords, const std::string& ctype = "f32") {
  return "tex." + geom + ".v4.f32." + ctype + " {%f1, %f2, %f3, %f4}, [%rd1, " + coords + "];\n"
         "mov.b32 %r1, %f1; mov.b32 %r2, %f2; mov.b32 %r3, %f3; mov.b32 %r4, %f4;";
}
std::string coord1(float x) { return "mov.f32 %f8, " + f32(x) + ";\n"; }
std::string coord2(float x, float y) { return "mov.f32 %f8, " + f32(x) + "; mov.f32 %f9, " + f32(y) + ";\n"; }

ChannelFormat fmt(unsigned bits, std::uint8_t kind, unsigned channels = 1) {
  ChannelFormat f;
  for (unsigned k = 0; k < channels; ++k) f.bits[k] = static_cast<std::uint8_t>(bits);
  f.kind = kind;
  return f;
}

template <class T> std::uint64_t array_of(TextureRegistry& reg, ChannelFormat f, std::uint64_t w, std::uint64_t h, const std::vector<T>& values,
                                          unsigned flags = 0, std::uint64_t d = 0, bool layered = false) {
  TexArray a;
  a.format = f, a.width = w, a.height = h, a.depth = d, a.layered = layered, a.flags = flags;
  a.data.resize(values.size() * sizeof(T));
  std::memcpy(a.data.data(), values.data(), a.data.size());
  return reg.add_array(std::move(a));
}

std::uint64_t texture(TextureRegistry& reg, std::uint64_t array, Sampler s) {
  TextureObject t;
  t.resource.kind = TexResource::Kind::array;
  t.resource.array = array;
  t.sampler = s;
  return reg.add_texture(t);
}

float tex1d(TextureRegistry& reg, std::uint64_t h, float x) {
  Out o = run_body(reg, h, coord1(x) + tex_f32("1d", "{%f8}"));
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  return o.f(0);
}
}  // namespace

TEST_CASE("tex point sampling: T[floor(x)] and each address mode out of range") {
  TextureRegistry reg;
  const std::uint64_t a = array_of<float>(reg, fmt(32, 2), 4, 0, {10, 20, 30, 40});
  Sampler clamp;
  const std::uint64_t c = texture(reg, a, clamp);
  CHECK(tex1d(reg, c, 2.7f) == 30);
  CHECK(tex1d(reg, c, -3.0f) == 10);  // clamp: below 0 reads T[0]
  CHECK(tex1d(reg, c, 9.0f) == 40);   // above N-1 reads T[N-1]
  Sampler border;
  border.address[0] = AddressMode::border;
  border.border = {7, 0, 0, 0};
  const std::uint64_t b = texture(reg, a, border);
  CHECK(tex1d(reg, b, -0.5f) == 7);  // border: the border colour
  CHECK(tex1d(reg, b, 4.0f) == 7);
  CHECK(tex1d(reg, b, 3.9f) == 40);
  // Normalized coordinates: x = u * N. Wrap: 1.3 * 4 = 5.2 -> texel 5 mod 4 = 1; -0.1 * 4 = -0.4 -> texel -1 = 3.
  Sampler wrap;
  wrap.normalized_coords = true;
  wrap.address[0] = AddressMode::wrap;
  const std::uint64_t w = texture(reg, a, wrap);
  CHECK(tex1d(reg, w, 1.3f) == 20);
  CHECK(tex1d(reg, w, -0.1f) == 40);
  CHECK(tex1d(reg, w, 0.5f) == 30);  // in range: floor(0.5 * 4) = 2
  // Mirror, period 2N: texel 5 -> 8 - 1 - 5 = 2; texel -1 -> 0.
  Sampler mirror = wrap;
  mirror.address[0] = AddressMode::mirror;
  const std::uint64_t m = texture(reg, a, mirror);
  CHECK(tex1d(reg, m, 1.3f) == 30);
  CHECK(tex1d(reg, m, -0.1f) == 10);
  // Wrap with unnormalized coordinates is only defined for normalized ones: it clamps.
  Sampler wrap_unnorm;
  wrap_unnorm.address[0] = AddressMode::wrap;
  CHECK(tex1d(reg, texture(reg, a, wrap_unnorm), 5.2f) == 40);
}

TEST_CASE("tex linear filtering: 9-bit weights with 8 fractional bits") {
  TextureRegistry reg;
  Sampler lin;
  lin.linear = true;
  const std::uint64_t a = texture(reg, array_of<float>(reg, fmt(32, 2), 4, 0, {0, 1, 0, 0}), lin);
  // x = 0.8: xB = 0.3, i = 0, alpha = 0.3 rounds to 77/256 = 0.30078125, not 0.3.
  const float r = tex1d(reg, a, 0.8f);
  CHECK(r == 0.30078125f);
  CHECK(r != 0.3f);
  CHECK(tex1d(reg, a, 1.5f) == 1.0f);  // on a texel centre: that texel
  CHECK(tex1d(reg, a, 1.0f) == 0.5f);  // half way between T[0] and T[1]
  const std::uint64_t b = texture(reg, array_of<float>(reg, fmt(32, 2), 4, 0, {2, 4, 6, 8}), lin);
  CHECK(tex1d(reg, b, 0.25f) == 2.0f);  // xB = -0.25: T[-1] clamps to T[0]
  // 2D: T = [[1, 2], [3, 4]] (row y = 0 first). (1, 1): a = b = 0.5 -> 2.5. (0.75, 1.25): a = 64/256, b = 192/256:
  // 0.75*0.25*1 + 0.25*0.25*2 + 0.75*0.75*3 + 0.25*0.75*4 = 2.75.
  const std::uint64_t t2 = texture(reg, array_of<float>(reg, fmt(32, 2), 2, 2, {1, 2, 3, 4}), lin);
  Out o = run_body(reg, t2, coord2(1, 1) + tex_f32("2d", "{%f8, %f9}"));
  REQUIRE(o.r.ok());
  CHECK(o.f(0) == 2.5f);
  o = run_body(reg, t2, coord2(0.75f, 1.25f) + tex_f32("2d", "{%f8, %f9}"));
  CHECK(o.f(0) == 2.75f);
  // The channels a one-channel format lacks: (v, 0, 0, 1).
  CHECK(o.f(1) == 0.0f);
  CHECK(o.f(2) == 0.0f);
  CHECK(o.f(3) == 1.0f);
  // Normalized coordinates with linear filtering: u = 0.5 on 2 texels is x = 1.0, halfway.
  Sampler nlin = lin;
  nlin.normalized_coords = true;
  const std::uint64_t n2 = texture(reg, array_of<float>(reg, fmt(32, 2), 2, 2, {1, 2, 3, 4}), nlin);
  o = run_body(reg, n2, coord2(0.5f, 0.25f) + tex_f32("2d", "{%f8, %f9}"));
  CHECK(o.f(0) == 1.5f);  // y = 0.5: row 0 only; x = 1.0: (1 + 2) / 2
}

// Values an NVIDIA H200 returned (tests/hardware/h200/probes.txt, tests/hardware/probes/texture_filter.cu): the
// guide leaves the rounding of the weights and the arithmetic open; these pin them down.
TEST_CASE("tex linear filtering as measured on an H200: weights round ties up, 2D products rounded to 1/256") {
  TextureRegistry reg;
  Sampler lin;
  lin.linear = true;
  const std::uint64_t unit = texture(reg, array_of<float>(reg, fmt(32, 2), 2, 0, {0, 1}), lin);
  // x = 0.501953125: frac(xB) * 256 = 0.5 exactly; the H200 takes 1/256 (ties to even would give 0).
  CHECK(tex1d(reg, unit, 0x1.01p-1f) == 0x1p-8f);
  CHECK(tex1d(reg, unit, 0x1.03p-1f) == 0x1p-7f);    // 1.5/256 -> 2/256 (ties to even: 2 as well)
  CHECK(tex1d(reg, unit, 0x1.05p-1f) == 0x1.8p-7f);  // 2.5/256 -> 3/256 (ties to even: 2)
  // 2D, T = {0.125, 0.375; 0.875, 1.875}: a = b = 8/256 at (0x1.102bbp-1, 0x1.101a36p-1): the exact products give
  // 0.156982421875; the H200 gives 0.15625 (ab = 64/65536 rounds to 0, w = 240, 8, 8, 0 in 1/256ths).
  const std::uint64_t t = texture(reg, array_of<float>(reg, fmt(32, 2), 2, 2, {0.125f, 0.375f, 0.875f, 1.875f}), lin);
  Out o = run_body(reg, t, coord2(0x1.102bbp-1f, 0x1.101a36p-1f) + tex_f32("2d", "{%f8, %f9}"));
  REQUIRE(o.r.ok());
  CHECK(o.f(0) == 0x1.4p-3f);
  // b = 16/256: ab = 0.5/256 rounds up to 1/256, w = 233, 7, 15, 1: 0.1826171875 (exact products: 0.18115234375).
  o = run_body(reg, t, coord2(0x1.102bbp-1f, 0x1.201a36p-1f) + tex_f32("2d", "{%f8, %f9}"));
  CHECK(o.f(0) == 0x1.76p-3f);
}

TEST_CASE("tex read modes: normalized float of 8-bit integers, element type") {
  TextureRegistry reg;
  Sampler nf;
  nf.normalized_float = true;
  const std::uint64_t u = texture(reg, array_of<std::uint8_t>(reg, fmt(8, 1, 4), 1, 0, {0, 255, 128, 51}), nf);
  Out o = run_body(reg, u, coord1(0.5f) + tex_f32("1d", "{%f8}"));
  REQUIRE(o.r.ok());
  CHECK(o.f(0) == 0.0f);
  CHECK(o.f(1) == 1.0f);
  CHECK(o.f(2) == 128.0f / 255.0f);
  CHECK(o.f(3) == 0.2f);  // 51 / 255
  // Signed: -128 reads -1.0, others s / 127.
  const std::uint64_t s = texture(reg, array_of<std::int8_t>(reg, fmt(8, 0, 4), 1, 0, {-128, -127, 127, -64}), nf);
  o = run_body(reg, s, coord1(0.5f) + tex_f32("1d", "{%f8}"));
  CHECK(o.f(0) == -1.0f);
  CHECK(o.f(1) == -1.0f);
  CHECK(o.f(2) == 1.0f);
  CHECK(o.f(3) == -64.0f / 127.0f);
  // Element type: the integer, sign-extended for signed formats (integer coordinates: texel indices).
  const std::uint64_t e = texture(reg, array_of<std::int8_t>(reg, fmt(8, 0, 2), 2, 0, {1, 2, -5, 100}), Sampler{});
  o = run_body(reg, e, "mov.u32 %r8, 1;\ntex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r8}];");
  REQUIRE(o.r.ok());
  CHECK(o.w[0] == 0xFFFFFFFBu);
  CHECK(o.w[1] == 100u);
  // Half floats (float kind, 16 bits) read as f32 (0x3C00 = 1.0, 0xC100 = -2.5); .f16 results are half bits.
  const std::uint64_t hf = texture(reg, array_of<std::uint16_t>(reg, fmt(16, 2, 2), 1, 0, {0x3C00, 0xC100}), Sampler{});
  o = run_body(reg, hf, coord1(0.5f) + tex_f32("1d", "{%f8}"));
  REQUIRE(o.r.ok());
  CHECK(o.f(0) == 1.0f);
  CHECK(o.f(1) == -2.5f);
  o = run_body(reg, hf, coord1(0.5f) + "tex.1d.v4.f16.f32 {%rs1, %rs2, %rs3, %rs4}, [%rd1, {%f8}];\n"
                                        "cvt.u32.u16 %r1, %rs1; cvt.u32.u16 %r2, %rs2; cvt.u32.u16 %r3, %rs3; cvt.u32.u16 %r4, %rs4;");
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  CHECK(o.w == std::array<std::uint32_t, 4>{0x3C00, 0xC100, 0, 0x3C00});
  // f32 results from a texture that returns integers: undefined, refused.
  o = run_body(reg, e, coord1(0.5f) + tex_f32("1d", "{%f8}"));
  CHECK(o.r.problem.kind == Problem::Kind::illegal);
}

TEST_CASE("tex on linear memory (tex1Dfetch), layered arrays, .texref, unknown handles") {
  TextureRegistry reg;
  DeviceMemory dm;
  const std::uint64_t addr = dm.memory.allocate("lin", 16);
  const std::int32_t vals[4] = {5, -6, 7, 8};
  std::memcpy(dm.memory.find(addr, 16)->bytes.data(), vals, 16);
  TextureObject lt;
  lt.resource.kind = TexResource::Kind::linear;
  lt.resource.address = addr;
  lt.resource.format = fmt(32, 0);
  lt.resource.width = 4;
  const std::uint64_t h = reg.add_texture(lt);
  Out o = run_body(reg, h, "mov.u32 %r8, 1;\ntex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r8}];", &dm);
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  CHECK(static_cast<std::int32_t>(o.w[0]) == -6);
  o = run_body(reg, h, "mov.u32 %r8, 7;\ntex.1d.v4.s32.s32 {%r1, %r2, %r3, %r4}, [%rd1, {%r8}];", &dm);
  CHECK(o.w[0] == 8u);  // clamp
  // a2d: layer 1 of two 2x1 layers.
  const std::uint64_t la = array_of<float>(reg, fmt(32, 2), 2, 1, {1, 2, 3, 4}, 1, 2, true);
  const std::uint64_t lh = texture(reg, la, Sampler{});
  o = run_body(reg, lh, "mov.u32 %r8, 1;\n" + coord2(1.5f, 0.5f) + tex_f32("a2d", "{%r8, %f8, %f9, %f9}"));
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  CHECK(o.f(0) == 4.0f);
  // A .texref variable bound by name.
  reg.texrefs["tex0"] = reg.textures.at(lh);
  reg.texrefs["tex0"].resource.array = array_of<float>(reg, fmt(32, 2), 3, 0, {9, 8, 7});
  o = run_body(reg, 0, coord1(2.5f) + "tex.1d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f8}];\nmov.b32 %r1, %f1;");
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  CHECK(o.f(0) == 7.0f);
  o = run_body(reg, 999, coord1(0) + tex_f32("1d", "{%f8}"));
  CHECK(o.r.problem.kind == Problem::Kind::illegal);
  CHECK(o.r.problem.message.find("no texture object has handle 999") != std::string::npos);
}

namespace {
// A cubemap of `cubes` x 6 faces of 2x2 f32 texels: layer L texel (i, j) = 100 L + 10 j + i.
std::uint64_t cubemap(TextureRegistry& reg, unsigned cubes) {
  std::vector<float> v;
  for (unsigned l = 0; l < 6 * cubes; ++l)
    for (unsigned j = 0; j < 2; ++j)
      for (unsigned i = 0; i < 2; ++i) v.push_back(static_cast<float>(100 * l + 10 * j + i));
  const std::uint64_t a = array_of<float>(reg, fmt(32, 2), 2, 2, v, 0, 6 * cubes, cubes > 1);
  reg.arrays.at(a).cubemap = true;
  return a;
}
std::string coord3(float x, float y, float z) {
  return "mov.f32 %f8, " + f32(x) + "; mov.f32 %f9, " + f32(y) + "; mov.f32 %f10, " + f32(z) + ";\n";
}
float cube_at(TextureRegistry& reg, std::uint64_t h, float x, float y, float z) {
  Out o = run_body(reg, h, coord3(x, y, z) + tex_f32("cube", "{%f8, %f9, %f10, %f10}"));
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  return o.f(0);
}
}  // namespace

// Programming Guide, Cubemap Textures: the face of the largest-magnitude coordinate m; (s, t) per its table;
// face coordinates ((s/m)+1)/2, ((t/m)+1)/2, scaled by the face's width 2.
TEST_CASE("tex.cube and tex.acube: face selection and face coordinates") {
  TextureRegistry reg;
  const std::uint64_t c = texture(reg, cubemap(reg, 1), Sampler{});
  CHECK(cube_at(reg, c, 1, 0, 0) == 11);           // +x: s = -z = 0, t = -y = 0: (0.5, 0.5) * 2 -> texel (1, 1)
  CHECK(cube_at(reg, c, 1, -0.9f, 0.9f) == 10);    // +x: s = -0.9 -> u 0.05 -> 0; t = 0.9 -> v 0.95 -> 1
  CHECK(cube_at(reg, c, -2, 1, -1) == 100);        // -x: m 2, s = z = -1 -> 0.25 -> 0; t = -y = -1 -> 0
  CHECK(cube_at(reg, c, -0.5f, 2, 0.25f) == 210);  // +y: s = x -> 0.375 -> 0; t = z -> 0.5625 -> 1
  CHECK(cube_at(reg, c, 0.6f, -1, 0.6f) == 301);   // -y: s = x -> 0.8 -> 1; t = -z -> 0.2 -> 0
  CHECK(cube_at(reg, c, 0.9f, 0.1f, 1) == 401);    // +z: s = x -> 0.95 -> 1; t = -y -> 0.45 -> 0
  CHECK(cube_at(reg, c, 0.3f, -0.2f, -4) == 510);  // -z: s = -x -> 0.4625 -> 0; t = -y -> 0.525 -> 1
  Sampler lin;
  lin.linear = true;
  const std::uint64_t l = texture(reg, cubemap(reg, 1), lin);
  CHECK(cube_at(reg, l, 1, 0, 0) == 5.5f);  // the face's centre: xB = 0.5, the four texels' mean (0+1+10+11)/4
  // acube: cube 1 of 2 is layers 6-11; +x is layer 6.
  const std::uint64_t ac = texture(reg, cubemap(reg, 2), Sampler{});
  Out o = run_body(reg, ac, "mov.u32 %r8, 1;\n" + coord3(1, 0, 0) + tex_f32("acube", "{%r8, %f8, %f9, %f10}"));
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  CHECK(o.f(0) == 611);
  // A cubemap fetch of a 2D texture is refused.
  const std::uint64_t flat = texture(reg, array_of<float>(reg, fmt(32, 2), 2, 2, {1, 2, 3, 4}), Sampler{});
  CHECK_FALSE(run_body(reg, flat, coord3(1, 0, 0) + tex_f32("cube", "{%f8, %f9, %f10, %f10}")).r.ok());
}

namespace {
// A mipmapped 4x4 f32 texture of 3 levels (4x4, 2x2, 1x1), level l all 10 (l + 1); normalized coordinates.
std::uint64_t mipmapped(TextureRegistry& reg, Sampler s) {
  std::vector<std::uint64_t> levels;
  for (unsigned l = 0, n = 4; l < 3; ++l, n /= 2)
    levels.push_back(array_of<float>(reg, fmt(32, 2), n, n, std::vector<float>(n * n, 10.0f * (l + 1))));
  TextureObject t;
  t.resource.kind = TexResource::Kind::mipmap;
  t.resource.array = reg.add_mipmap(levels);
  s.normalized_coords = true;
  t.sampler = s;
  return reg.add_texture(t);
}
float tex_lod(TextureRegistry& reg, std::uint64_t h, float lod) {
  Out o = run_body(reg, h, coord2(0.3f, 0.6f) + "mov.f32 %f10, " + f32(lod) + ";\n" +
                             "tex.level.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f8, %f9}], %f10;\nmov.b32 %r1, %f1;");
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  return o.f(0);
}
float tex_grad(TextureRegistry& reg, std::uint64_t h, float dx0, float dx1, float dy0, float dy1) {
  Out o = run_body(reg, h, coord2(0.3f, 0.6f) + "mov.f32 %f10, " + f32(dx0) + "; mov.f32 %f11, " + f32(dx1) + "; mov.f32 %f12, " + f32(dy0) +
                             "; mov.f32 %f13, " + f32(dy1) + ";\n" +
                             "tex.grad.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f8, %f9}], {%f10, %f11}, {%f12, %f13};\nmov.b32 %r1, %f1;");
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  return o.f(0);
}
}  // namespace

TEST_CASE("mipmapped textures: tex.level and tex.grad choose the level(s)") {
  TextureRegistry reg;
  Sampler s;
  s.mip_max = 10;
  const std::uint64_t point = mipmapped(reg, s);
  CHECK(tex_lod(reg, point, 0) == 10);
  CHECK(tex_lod(reg, point, 1) == 20);
  CHECK(tex_lod(reg, point, 0.4f) == 10);  // point mipmap filtering: the nearest level
  CHECK(tex_lod(reg, point, 0.6f) == 20);
  CHECK(tex_lod(reg, point, 7) == 30);     // beyond the last level: the last
  CHECK(tex_lod(reg, point, -3) == 10);
  // Gradients in normalized coordinates scale by level 0's width 4: |(0.25, 0)| * 4 = 1 -> lambda 0;
  // (0.5, 0) -> 2 texels -> 1; (1, 0) -> 4 -> 2; the larger of ddx and ddy counts.
  CHECK(tex_grad(reg, point, 0.25f, 0, 0, 0.25f) == 10);
  CHECK(tex_grad(reg, point, 0.5f, 0, 0, 0.1f) == 20);
  CHECK(tex_grad(reg, point, 0, 0.1f, 0, 1) == 30);
  CHECK(tex_grad(reg, point, 0, 0, 0, 0) == 10);  // no gradient: the finest level
  Sampler lin = s;
  lin.mip_linear = true;
  const std::uint64_t l = mipmapped(reg, lin);
  CHECK(tex_lod(reg, l, 0.25f) == 12.5f);  // 0.75 * 10 + 0.25 * 20
  CHECK(tex_lod(reg, l, 1.5f) == 25);
  Sampler biased = s;
  biased.mip_bias = 1;
  CHECK(tex_lod(reg, mipmapped(reg, biased), 0) == 20);
  Sampler clamped = s;
  clamped.mip_min = 1, clamped.mip_max = 1;
  CHECK(tex_lod(reg, mipmapped(reg, clamped), 0) == 20);
  CHECK(tex_lod(reg, mipmapped(reg, clamped), 2) == 20);
  Out o = run_body(reg, point, "txq.num_mipmap_levels.b32 %r1, [%rd1];");
  REQUIRE(o.r.ok());
  CHECK(o.w[0] == 3);
}

TEST_CASE("tld4 gathers the bilinear footprint counter-clockwise from the lower left") {
  TextureRegistry reg;
  // 3x2, two channels (r, g): r = 10 * y + x, g = -r.
  std::vector<float> v;
  for (int y = 0; y < 2; ++y)
    for (int x = 0; x < 3; ++x) v.insert(v.end(), {float(10 * y + x), float(-(10 * y + x))});
  const std::uint64_t h = texture(reg, array_of<float>(reg, fmt(32, 2, 2), 3, 2, v), Sampler{});
  // (1.7, 1.2): xB = 1.2 -> i = 1; yB = 0.7 -> j = 0: (i, j+1) = 11, (i+1, j+1) = 12, (i+1, j) = 2, (i, j) = 1.
  Out o = run_body(reg, h, coord2(1.7f, 1.2f) + "tld4.r.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f8, %f9}];\n"
                                                 "mov.b32 %r1, %f1; mov.b32 %r2, %f2; mov.b32 %r3, %f3; mov.b32 %r4, %f4;");
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  CHECK(o.f(0) == 11);
  CHECK(o.f(1) == 12);
  CHECK(o.f(2) == 2);
  CHECK(o.f(3) == 1);
  o = run_body(reg, h, coord2(1.7f, 1.2f) + "tld4.g.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f8, %f9}];\nmov.b32 %r1, %f1;");
  CHECK(o.f(0) == -11);
}

TEST_CASE("txq, suq and istypep") {
  TextureRegistry reg;
  Sampler s;
  s.linear = true;
  s.normalized_coords = true;
  s.address = {AddressMode::border, AddressMode::mirror, AddressMode::wrap};
  const std::uint64_t arr = array_of<float>(reg, fmt(32, 2), 5, 3, std::vector<float>(15), 2);
  const std::uint64_t h = texture(reg, arr, s);
  Out o = run_body(reg, h, "txq.width.b32 %r1, [%rd1]; txq.height.b32 %r2, [%rd1]; txq.filter_mode.b32 %r3, [%rd1]; txq.normalized_coords.b32 %r4, [%rd1];");
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  CHECK(o.w == std::array<std::uint32_t, 4>{5, 3, 1, 1});
  // addr_mode: enum { wrap, mirror, clamp_ogl, clamp_to_edge, clamp_to_border } (9.7.10.5).
  o = run_body(reg, h, "txq.addr_mode_0.b32 %r1, [%rd1]; txq.addr_mode_1.b32 %r2, [%rd1]; txq.addr_mode_2.b32 %r3, [%rd1]; txq.depth.b32 %r4, [%rd1];");
  CHECK(o.w == std::array<std::uint32_t, 4>{4, 1, 0, 0});
  TexResource sr;
  sr.array = arr;
  const std::uint64_t surf = reg.add_surface(sr);
  o = run_body(reg, surf, "suq.width.b32 %r1, [%rd1]; suq.height.b32 %r2, [%rd1]; suq.memory_layout.b32 %r3, [%rd1];");
  CHECK(o.w == std::array<std::uint32_t, 4>{5, 3, 0, 0});
  const std::string types = "istypep.texref %p1, %rd1; selp.u32 %r1, 1, 0, %p1; istypep.surfref %p2, %rd1; selp.u32 %r2, 1, 0, %p2;"
                            "istypep.samplerref %p3, %rd1; selp.u32 %r3, 1, 0, %p3;";
  CHECK(run_body(reg, h, types).w == std::array<std::uint32_t, 4>{1, 0, 0, 0});
  CHECK(run_body(reg, surf, types).w == std::array<std::uint32_t, 4>{0, 1, 0, 0});
  CHECK(run_body(reg, 12345, types).w == std::array<std::uint32_t, 4>{0, 0, 0, 0});
  CHECK(run_body(reg, 0, "mov.u64 %rd3, tex0; istypep.texref %p1, %rd3; selp.u32 %r1, 1, 0, %p1;").w[0] == 1);
}

TEST_CASE("surfaces: sust then suld round trip, .trap / .clamp / .zero, sured") {
  TextureRegistry reg;
  // 4 x 2 of s32, surface load/store.
  const std::uint64_t arr = array_of<std::int32_t>(reg, fmt(32, 0), 4, 2, {0, 1, 2, 3, 10, 11, 12, 13}, 2);
  TexResource sr;
  sr.array = arr;
  const std::uint64_t s = reg.add_surface(sr);
  // x is a byte offset: (8, 1) is element (2, 1).
  Out o = run_body(reg, s, "mov.u32 %r8, 8; mov.u32 %r9, 1; mov.u32 %r10, 77;\n"
                           "sust.b.2d.b32.trap [%rd1, {%r8, %r9}], {%r10};\nsuld.b.2d.b32.trap {%r1}, [%rd1, {%r8, %r9}];\n"
                           "mov.u32 %r11, 4; suld.b.2d.b32.trap {%r2}, [%rd1, {%r11, %r9}];");
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  CHECK(o.w[0] == 77);
  CHECK(o.w[1] == 11);
  std::int32_t stored = 0;
  std::memcpy(&stored, reg.arrays.at(arr).data.data() + (1 * 4 + 2) * 4, 4);
  CHECK(stored == 77);
  // Out of range: .trap traps, .zero loads 0, .clamp loads the nearest element (x = 12, the row's last).
  o = run_body(reg, s, "mov.u32 %r8, 16; mov.u32 %r9, 0; suld.b.2d.b32.trap {%r1}, [%rd1, {%r8, %r9}];");
  CHECK(o.r.problem.kind == Problem::Kind::trap);
  o = run_body(reg, s, "mov.u32 %r1, 5; mov.u32 %r8, 16; mov.u32 %r9, 0; suld.b.2d.b32.zero {%r1}, [%rd1, {%r8, %r9}];");
  REQUIRE(o.r.ok());
  CHECK(o.w[0] == 0);
  o = run_body(reg, s, "mov.u32 %r8, 400; mov.u32 %r9, 7; suld.b.2d.b32.clamp {%r1}, [%rd1, {%r8, %r9}];\n"
                       "mov.u32 %r8, -8; mov.u32 %r9, 1; suld.b.2d.b32.clamp {%r2}, [%rd1, {%r8, %r9}];");
  REQUIRE(o.r.ok());
  CHECK(o.w[0] == 13);
  CHECK(o.w[1] == 10);
  // .zero drops an out-of-range store; a misaligned offset is refused.
  o = run_body(reg, s, "mov.u32 %r8, 16; mov.u32 %r9, 0; mov.u32 %r10, 9; sust.b.2d.b32.zero [%rd1, {%r8, %r9}], {%r10};");
  REQUIRE(o.r.ok());
  CHECK(reg.arrays.at(arr).data.size() == 32);
  o = run_body(reg, s, "mov.u32 %r8, 2; mov.u32 %r9, 0; suld.b.2d.b32.trap {%r1}, [%rd1, {%r8, %r9}];");
  CHECK(o.r.problem.kind == Problem::Kind::misaligned);
  // sured.b: add to element (0, 0) = 0; signed min at (1, 0) = 1 with -4; max at (3, 0) = 3 with 2 keeps 3.
  o = run_body(reg, s, "mov.u32 %r8, 0; mov.u32 %r9, 0; mov.u32 %r10, 5; sured.b.add.2d.u32.trap [%rd1, {%r8, %r9}], %r10;\n"
                       "mov.u32 %r8, 4; mov.u32 %r10, -4; sured.b.min.2d.s32.trap [%rd1, {%r8, %r9}], %r10;\n"
                       "mov.u32 %r8, 12; mov.u32 %r10, 2; sured.b.max.2d.s32.trap [%rd1, {%r8, %r9}], %r10;\n"
                       "mov.u32 %r8, 0; suld.b.2d.v4.b32.trap {%r1, %r2, %r3, %r4}, [%rd1, {%r8, %r9}];");
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  CHECK(o.w == std::array<std::uint32_t, 4>{5, 0xFFFFFFFCu, 2, 3});
  // Bytes: a b8 load at byte 4 of row 1 is the low byte of 11.
  o = run_body(reg, s, "mov.u32 %r8, 4; mov.u32 %r9, 1; suld.b.2d.b8.trap {%rs1}, [%rd1, {%r8, %r9}]; cvt.u32.u16 %r1, %rs1;");
  CHECK(o.w[0] == 11);
}

// sust.p (9.7.11.2): x is a sample offset; float formats take .f32 elements, unsigned .u32, signed .s32, converted
// to the channel size (f16: round to nearest even; integers saturate: the interpreter's choice).
TEST_CASE("sust.p converts the elements to the surface's format") {
  TextureRegistry reg;
  auto surface = [&](ChannelFormat f, std::uint64_t w, std::size_t bytes) {
    TexResource sr;
    sr.array = array_of<std::uint8_t>(reg, f, w, 0, std::vector<std::uint8_t>(bytes, 0xAB), 2);
    return std::pair{sr.array, reg.add_surface(sr)};
  };
  // uchar4, sample 1 (bytes 4-7), sample 0 untouched: 300 saturates to 255.
  auto [ua, us] = surface(fmt(8, 1, 4), 2, 8);
  Out o = run_body(reg, us, "mov.u32 %r8, 1; mov.u32 %r9, 300; mov.u32 %r10, 7; mov.u32 %r11, 0; mov.u32 %r12, 255;\n"
                            "sust.p.1d.v4.b32.trap [%rd1, {%r8}], {%r9, %r10, %r11, %r12};");
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  const auto& ub = reg.arrays.at(ua).data;
  CHECK(std::vector<std::uint8_t>(ub.begin(), ub.end()) == std::vector<std::uint8_t>{0xAB, 0xAB, 0xAB, 0xAB, 255, 7, 0, 255});
  // short2, signed: -40000 saturates to -32768; a .v2 store of a 2-channel sample.
  auto [sa, ss] = surface(fmt(16, 0, 2), 1, 4);
  o = run_body(reg, ss, "mov.u32 %r8, 0; mov.u32 %r9, -40000; mov.u32 %r10, -5;\nsust.p.1d.v2.b32.trap [%rd1, {%r8}], {%r9, %r10};");
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  std::int16_t sv[2];
  std::memcpy(sv, reg.arrays.at(sa).data.data(), 4);
  CHECK(sv[0] == -32768);
  CHECK(sv[1] == -5);
  // half2 from f32: 1.5 -> 0x3E00; 2D sample (1, 1) of a 2 x 2 array, the second channel left as it was.
  ChannelFormat h2 = fmt(16, 2, 2);
  TexResource hr;
  hr.array = array_of<std::uint8_t>(reg, h2, 2, 2, std::vector<std::uint8_t>(16, 0), 2);
  const std::uint64_t hs = reg.add_surface(hr);
  o = run_body(reg, hs, "mov.u32 %r8, 1; mov.u32 %r9, 1; mov.f32 %f1, 0f3FC00000;\nsust.p.2d.b32.trap [%rd1, {%r8, %r9}], {%f1};");
  REQUIRE_MESSAGE(o.r.ok(), o.r.problem.message);
  std::uint16_t hv[2];
  std::memcpy(hv, reg.arrays.at(hr.array).data.data() + 12, 4);
  CHECK(hv[0] == 0x3E00);
  CHECK(hv[1] == 0);
  // Out of range with .trap traps; .zero drops the store.
  CHECK(run_body(reg, us, "mov.u32 %r8, 2; sust.p.1d.b32.trap [%rd1, {%r8}], {%r8};").r.problem.kind == Problem::Kind::trap);
  CHECK(run_body(reg, us, "mov.u32 %r8, 2; sust.p.1d.b32.zero [%rd1, {%r8}], {%r8};").r.ok());
}

TEST_CASE("forms the interpreter does not run say why") {
  auto why_of = [](const std::string& line) {
    const std::string ptx = ".version 9.0\n.target sm_90\n.address_size 64\n.global .texref tex0;\n.global .surfref surf0;\n"
                            ".visible .entry k() {\n.reg .f32 %f<8>; .reg .b32 %r<8>;\n" + line + "\nret;\n}";
    auto loaded = ptx::ir::load_ptx(ptx, "why.ptx");
    REQUIRE(loaded);
    const auto& ins = loaded.module->functions[0].body[0];
    CHECK_FALSE(instruction_supported(ins));
    return instruction_unsupported_reason(ins);
  };
  CHECK(why_of("tld4.r.cube.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0, {%f5, %f6, %f7, %f7}];").find("cubemap") != std::string::npos);
  // suld.p is no longer in 9.7.11.1's syntax (the text's release notes: "Unimplemented instructions suld.p and
  // sust.p ... have been removed"): the IR checker refuses it (semantics/ir/syntax_words.def).
  const auto suld_p = ptx::ir::load_ptx(".version 9.0\n.target sm_90\n.address_size 64\n.global .surfref surf0;\n"
                                        ".visible .entry k() {\n.reg .b32 %r<8>;\n"
                                        "suld.p.1d.v4.b32.trap {%r2, %r3, %r4, %r5}, [surf0, {%r1}];\nret;\n}", "why.ptx");
  REQUIRE(suld_p.errors.size() == 1);
  CHECK(suld_p.errors[0].message.find("'.p' is no qualifier of suld") != std::string::npos);
  CHECK(why_of("txq.channel_order.b32 %r1, [tex0];").find("enumeration") != std::string::npos);
  // ISA 8.2.3: a multimem address points to memory on several devices; a launch here has one.
  const std::string multimem = ".reg .b64 %rd<2>;\nmultimem.st.release.gpu.global.f32 [%rd1], %f1;";
  CHECK(why_of(multimem).find("several devices (ISA 8.2.3") != std::string::npos);
}
