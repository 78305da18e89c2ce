// The differential test of DESIGN.md principle 1: every operation of semantics/ops runs on random and edge
// operands in the concrete domain and as a Z3 term of the symbolic domain; Z3's evaluation must equal the
// concrete bits. `.approx` functions are uninterpreted symbolically and are not compared.
#include "semantics/domain/concrete.hpp"
#include "semantics/domain/symbolic.hpp"
#include "semantics/ops/atomic.hpp"
#include "semantics/ops/compare.hpp"
#include "semantics/ops/convert.hpp"
#include "semantics/ops/logic.hpp"
#include "semantics/ops/minifloat.hpp"
#include "semantics/ops/video.hpp"
#include "semantics/ops/video_mad.hpp"
#include "semantics/ops/video_simd.hpp"
#include "semantics/ops/warp.hpp"

#include <doctest/doctest.h>

#include <functional>
#include <iterator>
#include <random>
#include <string>
#include <vector>

using namespace ptx;
using domain::Concrete;
using domain::CV;
using domain::FpFormat;
using domain::Rnd;
using domain::Symbolic;

namespace {

// How to draw an operand: an integer of a width, or a float format's bit pattern.
struct Kind {
  unsigned width;
  int fp = -1;  // FpFormat index, or -1 for integers
};
Kind I(unsigned w) { return {w, -1}; }
Kind F(FpFormat f) { return {domain::fp_bits(f), static_cast<int>(f)}; }

struct Case {
  std::string name;
  std::vector<Kind> kinds;
  std::function<CV(const std::vector<CV>&)> concrete;
  std::function<z3::expr(const Symbolic&, const std::vector<z3::expr>&)> symbolic;
};

template <class L> Case make_case(std::string name, std::vector<Kind> kinds, L body) {
  Case c{std::move(name), std::move(kinds), {}, {}};
  c.concrete = [body](const std::vector<CV>& x) { Concrete d; return body(d, x); };
  c.symbolic = [body](const Symbolic& d, const std::vector<z3::expr>& x) { return body(d, x); };
  return c;
}

domain::u128 edge_int(std::mt19937_64& rng, unsigned w) {
  domain::u128 m = domain::mask_of(w);
  domain::u128 top = domain::u128(1) << (w - 1);
  const domain::u128 edges[] = {0, 1, 2, m, m - 1, top, top - 1, top + 1, 31, 32, 33, 63, 64, 255, 256};
  if (rng() % 3 == 0) return edges[rng() % std::size(edges)] & m;
  domain::u128 v = (static_cast<domain::u128>(rng()) << 64) | rng();
  return v & m;
}

std::uint64_t edge_float(std::mt19937_64& rng, FpFormat f) {
  auto p = domain::fp_params(f);
  std::uint64_t sign = std::uint64_t(rng() & 1) << (p.bits - 1);
  std::uint64_t exp_all = ((std::uint64_t(1) << p.ebits) - 1) << (p.sbits - 1);
  std::uint64_t mant = (std::uint64_t(1) << (p.sbits - 1)) - 1;
  std::uint64_t one = static_cast<std::uint64_t>(p.bias) << (p.sbits - 1);
  const std::uint64_t edges[] = {0, 1, mant, mant + 1, exp_all, exp_all | 1, exp_all | (mant + 1) >> 1, one,
                                 exp_all - 1, one + 1, one - 1, one + (std::uint64_t(1) << (p.sbits - 1))};
  switch (rng() % 4) {
    case 0: return sign | edges[rng() % std::size(edges)];
    case 1: {  // a value near 1.0 so that operations round in interesting ways
      std::uint64_t e = static_cast<std::uint64_t>(p.bias - 4 + static_cast<int>(rng() % 8)) << (p.sbits - 1);
      return sign | e | (rng() & mant);
    }
    default: return rng() & domain::mask_of(p.bits);
  }
}

// The operand kinds of a case.
using V = std::vector<Kind>;

// Integer arithmetic, bit manipulation, comparison and logic (9.7.1, 9.7.2, 9.7.6, 9.7.8) and prmt (9.7.9.7).
std::vector<Case> integer_cases() {
  std::vector<Case> cs;
  for (unsigned w : {16u, 32u, 64u}) {
    std::string t = std::to_string(w);
    cs.push_back(make_case("add" + t, V{I(w), I(w)}, [](auto& d, auto& x) { return ops::add(d, x[0], x[1]); }));
    cs.push_back(make_case("sub" + t, V{I(w), I(w)}, [](auto& d, auto& x) { return ops::sub(d, x[0], x[1]); }));
    cs.push_back(make_case("mul.lo" + t, V{I(w), I(w)}, [](auto& d, auto& x) { return ops::mul_lo(d, x[0], x[1]); }));
    cs.push_back(make_case("mul.hi.s" + t, V{I(w), I(w)}, [](auto& d, auto& x) { return ops::mul_hi(d, true, x[0], x[1]); }));
    cs.push_back(make_case("mul.wide.u" + t, V{I(w), I(w)}, [](auto& d, auto& x) { return ops::mul_wide(d, false, x[0], x[1]); }));
    cs.push_back(make_case("div.s" + t, V{I(w), I(w)}, [](auto& d, auto& x) { return ops::div(d, true, x[0], x[1]); }));
    cs.push_back(make_case("div.u" + t, V{I(w), I(w)}, [](auto& d, auto& x) { return ops::div(d, false, x[0], x[1]); }));
    cs.push_back(make_case("rem.s" + t, V{I(w), I(w)}, [](auto& d, auto& x) { return ops::rem(d, true, x[0], x[1]); }));
    cs.push_back(make_case("rem.u" + t, V{I(w), I(w)}, [](auto& d, auto& x) { return ops::rem(d, false, x[0], x[1]); }));
    cs.push_back(make_case("abs" + t, V{I(w)}, [](auto& d, auto& x) { return ops::abs(d, x[0]); }));
    cs.push_back(make_case("min.s" + t, V{I(w), I(w)}, [](auto& d, auto& x) { return ops::min(d, true, x[0], x[1]); }));
    cs.push_back(make_case("max.u" + t, V{I(w), I(w)}, [](auto& d, auto& x) { return ops::max(d, false, x[0], x[1]); }));
    cs.push_back(make_case("sad.s" + t, V{I(w), I(w), I(w)}, [](auto& d, auto& x) { return ops::sad(d, true, x[0], x[1], x[2]); }));
    cs.push_back(make_case("popc" + t, V{I(w)}, [](auto& d, auto& x) { return ops::popc(d, x[0]); }));
    cs.push_back(make_case("clz" + t, V{I(w)}, [](auto& d, auto& x) { return ops::clz(d, x[0]); }));
    cs.push_back(make_case("bfind.s" + t, V{I(w)}, [](auto& d, auto& x) { return ops::bfind(d, true, false, x[0]); }));
    cs.push_back(make_case("bfind.shiftamt.u" + t, V{I(w)}, [](auto& d, auto& x) { return ops::bfind(d, false, true, x[0]); }));
    cs.push_back(make_case("brev" + t, V{I(w)}, [](auto& d, auto& x) { return ops::brev(d, x[0]); }));
    cs.push_back(make_case("shl" + t, V{I(w), I(32)}, [](auto& d, auto& x) { return ops::shl(d, x[0], x[1]); }));
    cs.push_back(make_case("shr.s" + t, V{I(w), I(32)}, [](auto& d, auto& x) { return ops::shr(d, true, x[0], x[1]); }));
    cs.push_back(make_case("shr.u" + t, V{I(w), I(32)}, [](auto& d, auto& x) { return ops::shr(d, false, x[0], x[1]); }));
    cs.push_back(make_case("cnot" + t, V{I(w)}, [](auto& d, auto& x) { return ops::cnot(d, x[0]); }));
    cs.push_back(make_case("lop3" + t, V{I(w), I(w), I(w)}, [](auto& d, auto& x) { return ops::lop3(d, x[0], x[1], x[2], 0x96); }));
    cs.push_back(make_case("addc.cc" + t, V{I(w), I(w), I(1)}, [](auto& d, auto& x) {
      auto r = ops::add_carry(d, x[0], x[1], x[2]);
      return d.concat(r.carry, r.value);
    }));
    cs.push_back(make_case("subc.cc" + t, V{I(w), I(w), I(1)}, [](auto& d, auto& x) {
      auto r = ops::sub_carry(d, x[0], x[1], x[2]);
      return d.concat(r.carry, r.value);
    }));
    cs.push_back(make_case("sub.borrow" + t, V{I(w), I(w), I(1)}, [](auto& d, auto& x) {
      auto r = ops::sub_borrow(d, x[0], x[1], x[2]);
      return d.concat(r.carry, r.value);
    }));
    for (auto op : {ir::CompareOp::lt, ir::CompareOp::le, ir::CompareOp::gt, ir::CompareOp::ge, ir::CompareOp::eq,
                    ir::CompareOp::ne, ir::CompareOp::lo, ir::CompareOp::hs})
      cs.push_back(make_case("setp." + std::to_string(static_cast<int>(op)) + ".s" + t, V{I(w), I(w)},
                             [op](auto& d, auto& x) { return ops::compare_int(d, op, true, x[0], x[1]); }));
    cs.push_back(make_case("cvt.sat.s8.s" + t, V{I(w)}, [](auto& d, auto& x) { return ops::cvt_int(d, 8, true, true, true, x[0]); }));
    cs.push_back(make_case("cvt.sat.u16.s" + t, V{I(w)}, [](auto& d, auto& x) { return ops::cvt_int(d, 16, false, true, true, x[0]); }));
  }
  for (bool s : {false, true}) {
    std::string t = s ? ".s" : ".u";
    cs.push_back(make_case("bfe" + t + "32", V{I(32), I(32), I(32)}, [s](auto& d, auto& x) { return ops::bfe(d, s, x[0], x[1], x[2]); }));
    cs.push_back(make_case("bfe" + t + "64", V{I(64), I(32), I(32)}, [s](auto& d, auto& x) { return ops::bfe(d, s, x[0], x[1], x[2]); }));
    cs.push_back(make_case("mul24.hi" + t, V{I(32), I(32)}, [s](auto& d, auto& x) { return ops::mul24(d, s, true, x[0], x[1]); }));
    cs.push_back(make_case("mul24.lo" + t, V{I(32), I(32)}, [s](auto& d, auto& x) { return ops::mul24(d, s, false, x[0], x[1]); }));
    cs.push_back(make_case("dp4a" + t, V{I(32), I(32), I(32)}, [s](auto& d, auto& x) { return ops::dp4a(d, s, !s, x[0], x[1], x[2]); }));
    cs.push_back(make_case("dp2a.hi" + t, V{I(32), I(32), I(32)}, [s](auto& d, auto& x) { return ops::dp2a(d, s, s, true, x[0], x[1], x[2]); }));
    cs.push_back(make_case("szext.clamp" + t, V{I(32), I(32)}, [s](auto& d, auto& x) { return ops::szext(d, s, true, x[0], x[1]); }));
    cs.push_back(make_case("bmsk" + t, V{I(32), I(32)}, [s](auto& d, auto& x) { return ops::bmsk(d, s, x[0], x[1]); }));
    for (bool clamp : {false, true})
      cs.push_back(make_case(std::string("shf") + (s ? ".l" : ".r") + (clamp ? ".clamp" : ".wrap"), V{I(32), I(32), I(32)},
                             [s, clamp](auto& d, auto& x) { return ops::shf(d, s, clamp, x[0], x[1], x[2]); }));
  }
  cs.push_back(make_case("add.sat.s32", V{I(32), I(32)}, [](auto& d, auto& x) { return ops::add_sat_s(d, x[0], x[1]); }));
  cs.push_back(make_case("bfi.b32", V{I(32), I(32), I(32), I(32)}, [](auto& d, auto& x) { return ops::bfi(d, x[0], x[1], x[2], x[3]); }));
  cs.push_back(make_case("bfi.b64", V{I(64), I(64), I(32), I(32)}, [](auto& d, auto& x) { return ops::bfi(d, x[0], x[1], x[2], x[3]); }));
  for (int m = 0; m <= 6; ++m)
    cs.push_back(make_case("prmt." + std::to_string(m), V{I(32), I(32), I(32)},
                           [m](auto& d, auto& x) { return ops::prmt(d, static_cast<ops::PrmtMode>(m), x[0], x[1], x[2]); }));
  return cs;
}

// The video instructions (9.7.18): every scalar operation (vset too) with each secondary operation and with a
// merge, across byte/half-word/word selectors and signednesses; vmad with each negation, .po, scale and .sat; every
// SIMD operation on both lane widths with lane selectors, a mask, .sat and the .add accumulate.
std::vector<Case> video_cases() {
  using ops::VideoOp;
  std::vector<Case> cs;
  const ops::VideoPart parts[] = {{0, 32}, {8, 8}, {24, 8}, {16, 16}, {0, 16}};
  for (int op = 0; op <= 7; ++op)  // add .. shr, set
    for (int sec = 0; sec <= 4; ++sec) {  // none, add, min, max; 4: d.dsel
      ops::ScalarVideo f;
      f.op = static_cast<VideoOp>(op);
      f.d_signed = (sec & 1) && f.op != VideoOp::set;
      f.a_signed = op & 1;
      f.b_signed = (op + sec) & 1;
      f.sat = sec >= 2 && f.op != VideoOp::set;
      f.clamp = op == 5;
      f.cmp = static_cast<ir::CompareOp>(sec);  // eq ne lt le gt
      f.sec = sec < 4 ? static_cast<ops::VideoSecOp>(sec) : ops::VideoSecOp::none;
      f.asel = parts[(op + sec) % 5];
      f.bsel = parts[(op + 2 * sec) % 5];
      if (sec == 4) f.dsel = parts[op % 4 + 1];
      cs.push_back(make_case("video." + std::to_string(op) + "." + std::to_string(sec), V{I(32), I(32), I(32)},
                             [f](auto& d, auto& x) { return ops::video(d, f, x[0], x[1], x[2]); }));
    }
  for (int m = 0; m < 4; ++m)  // plain, -(a*b), -c, .po
    for (unsigned shift : {0u, 7u, 15u}) {
      ops::VideoMad f;
      f.a_signed = m & 1;
      f.b_signed = shift == 7;
      f.negate_product = m == 1;
      f.negate_c = m == 2;
      f.po = m == 3;
      f.shift = shift;
      f.sat = shift != 15;
      f.asel = parts[m];
      f.bsel = parts[(m + 1) % 5];
      cs.push_back(make_case("vmad." + std::to_string(m) + ".shr" + std::to_string(shift), V{I(32), I(32), I(32)},
                             [f](auto& d, auto& x) { return ops::vmad(d, f, x[0], x[1], x[2]); }));
    }
  for (unsigned lanes : {2u, 4u})
    for (VideoOp op : {VideoOp::add, VideoOp::sub, VideoOp::absdiff, VideoOp::min, VideoOp::max, VideoOp::avrg, VideoOp::set})
      for (int variant = 0; variant < 3; ++variant) {  // merge with every lane, merge with a mask and .sat, .add
        ops::SimdVideo f;
        f.op = op;
        f.lanes = lanes;
        f.d_signed = variant == 1 && op != VideoOp::set;
        f.a_signed = variant != 0;
        f.b_signed = variant == 2;
        f.sat = variant == 1 && op != VideoOp::set;
        f.accumulate = variant == 2;
        f.cmp = static_cast<ir::CompareOp>(variant + 2);  // lt le gt
        for (unsigned i = 0; i < lanes; ++i) {
          f.asel[i] = static_cast<std::uint8_t>((3 * i + variant) % (2 * lanes));
          f.bsel[i] = static_cast<std::uint8_t>((lanes + i + variant) % (2 * lanes));
        }
        f.mask = variant == 1 ? 0x5u & ((1u << lanes) - 1) : (1u << lanes) - 1;
        cs.push_back(make_case("vop" + std::to_string(lanes) + "." + std::to_string(static_cast<int>(op)) + "." + std::to_string(variant),
                               V{I(32), I(32), I(32)}, [f](auto& d, auto& x) { return ops::video_simd(d, f, x[0], x[1], x[2]); }));
      }
  return cs;
}

// Conversions to and from the narrow float formats, cvt.rs and cvt.pack (9.7.9.21-22).
std::vector<Case> narrow_conversion_cases() {
  std::vector<Case> cs;
  for (bool s : {false, true}) {
    std::string t = s ? ".s" : ".u";
    for (const auto* f : {&ops::kE4M3, &ops::kE5M2, &ops::kE2M1, &ops::kE2M3, &ops::kE3M2}) {
      const std::string n = "cvt.rn.satfinite" + std::string(s ? ".relu" : "") + ".mini" + std::to_string(f->bits) + "m" + std::to_string(f->mbits);
      cs.push_back(make_case(n, V{F(FpFormat::f32)}, [f, s](auto& d, auto& x) { return ops::f32_to_mini(d, *f, s, x[0]); }));
      if (f->nan_to_max_norm)
        cs.push_back(make_case(n + ".to_f16", V{I(f->bits)}, [f, s](auto& d, auto& x) { return ops::mini_to_f16(d, *f, s, x[0]); }));
    }
    // cvt.rs (9.7.9.21): each format with its random-bit width, with and without .satfinite where it is optional.
    struct RsCase { const ops::MiniFormat* f; unsigned width; const char* name; };
    for (const RsCase& c : {RsCase{&ops::kE4M3, 16, "e4m3"}, RsCase{&ops::kE5M2, 16, "e5m2"}, RsCase{&ops::kE2M3, 16, "e2m3"},
                            RsCase{&ops::kE3M2, 16, "e3m2"}, RsCase{&ops::kE2M1, 8, "e2m1"}, RsCase{&ops::kF16, 13, "f16"},
                            RsCase{&ops::kBF16, 16, "bf16"}})
      for (bool sf : {true, false}) {
        if (!sf && c.f->inf == 0) continue;
        const std::string n = std::string("cvt.rs") + (s ? ".relu" : "") + (sf ? ".satfinite." : ".") + c.name;
        cs.push_back(make_case(n, V{F(FpFormat::f32), I(c.width)}, [c, s, sf](auto& d, auto& x) {
          return ops::f32_to_mini_rs(d, *c.f, s, sf, x[0], x[1]);
        }));
      }
    // cvt to .tf32 (9.7.9.21): .rna without .relu, .rn and .rz with or without it, each with or without .satfinite.
    for (Rnd r : {Rnd::rna, Rnd::rn, Rnd::rz})
      for (bool sf : {true, false}) {
        if (s && r == Rnd::rna) continue;
        const std::string n = std::string(r == Rnd::rna ? "cvt.rna" : r == Rnd::rn ? "cvt.rn" : "cvt.rz") + (sf ? ".satfinite" : "") + (s ? ".relu" : "") + ".tf32.f32";
        cs.push_back(make_case(n, V{F(FpFormat::f32)}, [r, s, sf](auto& d, auto& x) { return ops::f32_to_tf32(d, r, s, sf, x[0]); }));
      }
    for (bool sf : {true, false})
      cs.push_back(make_case(std::string(s ? "cvt.rp" : "cvt.rz") + (sf ? ".satfinite" : "") + ".ue8m0.f32", V{F(FpFormat::f32)},
                             [s, sf](auto& d, auto& x) { return ops::f32_to_ue8m0(d, s, sf, x[0]); }));
    for (unsigned size : {2u, 4u, 8u, 16u})
      cs.push_back(make_case("cvt.pack.sat" + t + std::to_string(size), V{I(32), I(32), I(32)},
                             [s, size](auto& d, auto& x) { return ops::cvt_pack(d, size, s, x[0], x[1], x[2]); }));
  }
  cs.push_back(make_case("cvt.bf16.ue8m0", V{I(8)}, [](auto& d, auto& x) { return ops::ue8m0_to_bf16(d, x[0]); }));
  cs.push_back(make_case("cvt.f16.e4m3", V{I(8)}, [](auto& d, auto& x) { return ops::e4m3_to_f16(d, x[0]); }));
  cs.push_back(make_case("cvt.f16.e5m2", V{I(8)}, [](auto& d, auto& x) { return ops::e5m2_to_f16(d, x[0]); }));
  return cs;
}

// atom / red (9.7.13.5): what every form writes, one definition for the interpreter, race encoder and litmus.
std::vector<Case> atomic_cases() {
  std::vector<Case> cs;
  for (int op = 0; op <= static_cast<int>(ir::AtomOp::max); ++op)
    for (auto t : {ir::ScalarType::u32, ir::ScalarType::s32, ir::ScalarType::u64, ir::ScalarType::s64, ir::ScalarType::f32,
                   ir::ScalarType::f64, ir::ScalarType::f16x2, ir::ScalarType::bf16}) {
      const auto form = ops::atomic_form(static_cast<ir::AtomOp>(op), t);
      const bool fp = ir::is_float(t);
      if (fp && form.op != ir::AtomOp::add && form.op != ir::AtomOp::min && form.op != ir::AtomOp::max) continue;
      const Kind k = fp && !form.packed ? F(*form.fp) : I(ir::scalar_bits(t));
      cs.push_back(make_case(std::string("atom.") + std::to_string(op) + "." + ir::scalar_type_name(t), V{k, k, k},
                             [form](auto& d, auto& x) { return ops::atomic_written(d, form, x[0], x[1], x[2]); }));
    }
  return cs;
}

// Warp exchanges (semantics/ops/warp.hpp): shfl.sync's source lane (9.7.9.6), vote's result (9.7.13.9), redux.sync's
// steps (9.7.13.12), elect.sync's results (9.7.13.14).
std::vector<Case> warp_cases() {
  std::vector<Case> cs;
  for (auto mode : {ops::ShflMode::up, ops::ShflMode::down, ops::ShflMode::bfly, ops::ShflMode::idx}) {
    const std::string m = ".mode" + std::to_string(static_cast<int>(mode));
    cs.push_back(make_case("shfl.lane" + m, V{I(32), I(32), I(32)}, [mode](auto& d, auto& x) { return ops::shfl_source(d, mode, x[0], x[1], x[2]).lane; }));
    cs.push_back(make_case("shfl.pred" + m, V{I(32), I(32), I(32)}, [mode](auto& d, auto& x) { return ops::shfl_source(d, mode, x[0], x[1], x[2]).in_range; }));
  }
  for (auto mode : {ops::VoteMode::ballot, ops::VoteMode::all, ops::VoteMode::any, ops::VoteMode::uni})
    cs.push_back(make_case("vote.mode" + std::to_string(static_cast<int>(mode)), V{I(32), I(32)},
                           [mode](auto& d, auto& x) { return ops::vote_result(d, mode, x[0], x[1]); }));
  struct Redux { ir::AtomOp op; ir::ScalarType t; std::vector<ir::Flag> flags; };
  const std::vector<Redux> forms = {
      {ir::AtomOp::add, ir::ScalarType::u32, {}}, {ir::AtomOp::add, ir::ScalarType::s32, {}},
      {ir::AtomOp::min, ir::ScalarType::u32, {}}, {ir::AtomOp::min, ir::ScalarType::s32, {}},
      {ir::AtomOp::max, ir::ScalarType::u32, {}}, {ir::AtomOp::max, ir::ScalarType::s32, {}},
      {ir::AtomOp::and_, ir::ScalarType::b32, {}}, {ir::AtomOp::or_, ir::ScalarType::b32, {}}, {ir::AtomOp::xor_, ir::ScalarType::b32, {}},
      {ir::AtomOp::min, ir::ScalarType::f32, {}}, {ir::AtomOp::max, ir::ScalarType::f32, {ir::Flag::abs}},
      {ir::AtomOp::min, ir::ScalarType::f32, {ir::Flag::NaN}}, {ir::AtomOp::max, ir::ScalarType::f32, {ir::Flag::abs, ir::Flag::NaN}}};
  for (const Redux& r : forms) {
    ir::Instruction in;
    in.op = ir::Opcode::redux_;
    in.q.atom_op = r.op;
    in.q.types = {ir::Type{r.t, 1}};
    in.q.flags = r.flags;
    const ops::ReduxForm form = ops::redux_form(in);
    const Kind k = r.t == ir::ScalarType::f32 ? F(FpFormat::f32) : I(32);
    const std::string name = "redux." + std::to_string(static_cast<int>(r.op)) + "." + ir::scalar_type_name(r.t) + "." + std::to_string(r.flags.size());
    cs.push_back(make_case(name + ".first", V{k}, [form](auto& d, auto& x) { return ops::redux_first(d, form, x[0]); }));
    cs.push_back(make_case(name + ".step", V{k, k}, [form](auto& d, auto& x) { return ops::redux_step(d, form, x[0], x[1]); }));
  }
  cs.push_back(make_case("elect.leader", V{I(32), I(32)}, [](auto& d, auto& x) { return ops::elect_result(d, x[0], x[1]).leader; }));
  cs.push_back(make_case("elect.is_leader", V{I(32), I(32)}, [](auto& d, auto& x) { return ops::elect_result(d, x[0], x[1]).is_leader; }));
  return cs;
}

// Floating point (9.7.3 - 9.7.5) and the conversions between floats and integers (9.7.9.21), every format and rounding.
std::vector<Case> float_cases() {
  std::vector<Case> cs;
  for (FpFormat f : {FpFormat::f16, FpFormat::bf16, FpFormat::f32, FpFormat::f64}) {
    std::string t = f == FpFormat::f16 ? "f16" : f == FpFormat::bf16 ? "bf16" : f == FpFormat::f32 ? "f32" : "f64";
    for (Rnd r : {Rnd::rn, Rnd::rz, Rnd::rm, Rnd::rp}) {
      ops::FpMods m{r};
      std::string rs = ".r" + std::to_string(static_cast<int>(r));
      cs.push_back(make_case("add" + rs + "." + t, V{F(f), F(f)}, [f, m](auto& d, auto& x) { return ops::fadd(d, f, m, x[0], x[1]); }));
      cs.push_back(make_case("sub" + rs + "." + t, V{F(f), F(f)}, [f, m](auto& d, auto& x) { return ops::fsub(d, f, m, x[0], x[1]); }));
      cs.push_back(make_case("mul" + rs + "." + t, V{F(f), F(f)}, [f, m](auto& d, auto& x) { return ops::fmul(d, f, m, x[0], x[1]); }));
      cs.push_back(make_case("fma" + rs + "." + t, V{F(f), F(f), F(f)}, [f, m](auto& d, auto& x) { return ops::ffma(d, f, m, x[0], x[1], x[2]); }));
      if (f == FpFormat::f32) {  // .f32x2 (9.7.3.3-6): each .f32 half of a .b64 on its own (ops::packed2/3)
        cs.push_back(make_case("add" + rs + ".f32x2", V{I(64), I(64)}, [m](auto& d, auto& x) {
          return ops::packed2(d, x[0], x[1], [&](auto a, auto b) { return ops::fadd(d, FpFormat::f32, m, a, b); });
        }));
        cs.push_back(make_case("fma" + rs + ".f32x2", V{I(64), I(64), I(64)}, [m](auto& d, auto& x) {
          return ops::packed3(d, x[0], x[1], x[2], [&](auto a, auto b, auto c) { return ops::ffma(d, FpFormat::f32, m, a, b, c); });
        }));
      }
      if (f == FpFormat::f16 || f == FpFormat::bf16) {  // 9.7.5 mixed precision .f32.{f16,bf16}
        const ops::FpMods ms{r, false, true};
        const Kind f32 = F(FpFormat::f32);
        cs.push_back(make_case("add" + rs + ".f32." + t, V{F(f), f32}, [f, m](auto& d, auto& x) { return ops::fadd_mixed(d, f, m, false, x[0], x[1]); }));
        cs.push_back(make_case("sub.sat" + rs + ".f32." + t, V{F(f), f32}, [f, ms](auto& d, auto& x) { return ops::fadd_mixed(d, f, ms, true, x[0], x[1]); }));
        cs.push_back(make_case("fma" + rs + ".f32." + t, V{F(f), F(f), f32}, [f, m](auto& d, auto& x) { return ops::ffma_mixed(d, f, m, x[0], x[1], x[2]); }));
      }
      if (f == FpFormat::f32 || f == FpFormat::f64) {
        cs.push_back(make_case("div" + rs + "." + t, V{F(f), F(f)}, [f, m](auto& d, auto& x) { return ops::fdiv(d, f, m, x[0], x[1]); }));
        cs.push_back(make_case("sqrt" + rs + "." + t, V{F(f)}, [f, m](auto& d, auto& x) { return ops::fsqrt(d, f, m, x[0]); }));
        cs.push_back(make_case("cvt.rni" + rs + "." + t, V{F(f)}, [f, m](auto& d, auto& x) { return ops::cvt_fround(d, f, m, x[0]); }));
        cs.push_back(make_case("cvt.s32" + rs + "." + t, V{F(f)}, [f, m](auto& d, auto& x) { return ops::cvt_f2i(d, f, 32, true, m, x[0]); }));
        cs.push_back(make_case("cvt.u64" + rs + "." + t, V{F(f)}, [f, m](auto& d, auto& x) { return ops::cvt_f2i(d, f, 64, false, m, x[0]); }));
        cs.push_back(make_case("cvt.s16" + rs + "." + t, V{F(f)}, [f, m](auto& d, auto& x) { return ops::cvt_f2i(d, f, 16, true, m, x[0]); }));
      }
      cs.push_back(make_case("cvt." + t + rs + ".s32", V{I(32)}, [f, m](auto& d, auto& x) { return ops::cvt_i2f(d, f, true, m, x[0]); }));
      cs.push_back(make_case("cvt." + t + rs + ".u64", V{I(64)}, [f, m](auto& d, auto& x) { return ops::cvt_i2f(d, f, false, m, x[0]); }));
      for (FpFormat to : {FpFormat::f16, FpFormat::bf16, FpFormat::f32, FpFormat::f64})
        cs.push_back(make_case("cvt.f2f" + rs + "." + t + ">" + std::to_string(static_cast<int>(to)), V{F(f)},
                               [f, to, m](auto& d, auto& x) { return ops::cvt_f2f(d, f, to, m, x[0]); }));
    }
    ops::FpMods ftz_sat;
    ftz_sat.ftz = true;
    ftz_sat.sat = true;
    cs.push_back(make_case("add.ftz.sat." + t, V{F(f), F(f)}, [f, ftz_sat](auto& d, auto& x) { return ops::fadd(d, f, ftz_sat, x[0], x[1]); }));
    cs.push_back(make_case("min." + t, V{F(f), F(f)}, [f](auto& d, auto& x) { return ops::fminmax(d, f, false, {}, x[0], x[1]); }));
    cs.push_back(make_case("max.NaN.xorsign.abs." + t, V{F(f), F(f)}, [f](auto& d, auto& x) {
      return ops::fminmax(d, f, true, {false, true, true, true}, x[0], x[1]);
    }));
    cs.push_back(make_case("abs.ftz." + t, V{F(f)}, [f](auto& d, auto& x) { return ops::fabs(d, f, true, x[0]); }));
    cs.push_back(make_case("neg." + t, V{F(f)}, [f](auto& d, auto& x) { return ops::fneg(d, f, false, x[0]); }));
    for (int op = 0; op <= 5; ++op)
      cs.push_back(make_case("testp." + std::to_string(op) + "." + t, V{F(f)},
                             [f, op](auto& d, auto& x) { return ops::testp(d, f, static_cast<ops::TestpOp>(op), x[0]); }));
    for (auto op : {ir::CompareOp::lt, ir::CompareOp::ge, ir::CompareOp::ne, ir::CompareOp::neu, ir::CompareOp::equ,
                    ir::CompareOp::num, ir::CompareOp::nan, ir::CompareOp::leu})
      cs.push_back(make_case("setp." + std::to_string(static_cast<int>(op)) + "." + t, V{F(f), F(f)},
                             [f, op](auto& d, auto& x) { return ops::compare_float(d, f, op, x[0], x[1]); }));
  }
  return cs;
}

std::vector<Case> all_cases() {
  std::vector<Case> cs;
  for (auto group : {integer_cases, video_cases, narrow_conversion_cases, atomic_cases, warp_cases, float_cases}) {
    std::vector<Case> g = group();
    cs.insert(cs.end(), std::make_move_iterator(g.begin()), std::make_move_iterator(g.end()));
  }
  return cs;
}

}  // namespace

TEST_CASE("differential: concrete result == Z3 evaluation of the symbolic term, every operation") {
  z3::context ctx;
  Symbolic sd(ctx);
  std::mt19937_64 rng(20261123);
  const int samples = 60;
  std::size_t total = 0, mismatches = 0;
  for (const Case& c : all_cases()) {
    std::vector<z3::expr> vars;
    for (std::size_t i = 0; i < c.kinds.size(); ++i) vars.push_back(sd.var("x" + std::to_string(i), c.kinds[i].width));
    z3::expr term = c.symbolic(sd, vars);
    int bad = 0;
    for (int s = 0; s < samples; ++s) {
      std::vector<CV> in;
      z3::expr_vector from(ctx), to(ctx);
      for (std::size_t i = 0; i < c.kinds.size(); ++i) {
        const Kind& k = c.kinds[i];
        domain::u128 v = k.fp >= 0 ? edge_float(rng, static_cast<FpFormat>(k.fp)) : edge_int(rng, k.width);
        in.push_back(Concrete::lit(k.width, v));
        from.push_back(vars[i]);
        to.push_back(sd.lit(k.width, v));
      }
      CV want = c.concrete(in);
      z3::expr closed = term.substitute(from, to).simplify();
      ++total;
      REQUIRE_MESSAGE(closed.is_numeral(), c.name << ": the symbolic term did not evaluate to a numeral");
      CV got = Symbolic::evaluate(closed);
      if (got.w != want.w || got.v != want.v) {
        ++mismatches;
        if (bad++ < 3) {
          std::string args;
          for (const auto& x : in) args += " " + domain::to_hex(x);
          FAIL_CHECK(c.name << " on" << args << ": concrete " << domain::to_hex(want) << ", symbolic " << domain::to_hex(got));
        }
      }
    }
  }
  MESSAGE(total << " comparisons, " << mismatches << " mismatches");
  CHECK(mismatches == 0);
}
