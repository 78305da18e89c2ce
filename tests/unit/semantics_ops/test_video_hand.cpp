// The video instructions (ISA 9.7.18) on values computed by hand from the sections' pseudo-code. Each case is
// written as PTX (opcode, qualifiers, selectors, `-`), decoded by semantics/ops/video_form.hpp as the dispatcher
// decodes it, and computed in the concrete domain and, for the same inputs, by Z3's evaluation of the symbolic term.
#include "semantics/domain/concrete.hpp"
#include "semantics/domain/symbolic.hpp"
#include "semantics/ir/video_select.hpp"
#include "semantics/ops/video_form.hpp"

#include <doctest/doctest.h>

#include <sstream>
#include <string>

using namespace ptx;
using domain::Concrete;
using domain::Symbolic;

namespace {

// "vadd2.s32.s32.s32.sat d.h1, a.h01, b, c" -> the instruction, its operands registers with their selectors.
ir::Instruction video_instruction(const std::string& text) {
  std::istringstream in(text);
  std::string head;
  in >> head;
  std::vector<std::string> words;
  std::stringstream hs(head);
  for (std::string w; std::getline(hs, w, '.');) words.push_back(w);
  ir::Instruction ins;
  ins.op = *ir::opcode_from_name(words[0]);
  words.erase(words.begin());
  REQUIRE(ir::decode_qualifiers(ins.op, words, ins.q).empty());
  std::string rest;
  std::getline(in, rest);
  std::stringstream os(rest);
  for (std::string o; std::getline(os, o, ',');) {
    o.erase(0, o.find_first_not_of(' '));
    ir::Operand op;
    op.kind = ir::Operand::Kind::Register;
    if (o[0] == '-') op.minus = true, o.erase(0, 1);
    if (auto dot = o.find('.'); dot != std::string::npos) op.select = *ir::parse_video_select(o.substr(dot + 1));
    ins.operands.push_back(op);
  }
  return ins;
}

template <class D> ops::Val<D> compute(const D& d, const ir::Instruction& in, const ops::Val<D>& a, const ops::Val<D>& b,
                                       const ops::Val<D>& c) {
  switch (ir::video_kind(in.op)) {
    case ir::VideoKind::scalar: return ops::video(d, ops::scalar_video_form(in), a, b, c);
    case ir::VideoKind::mad: return ops::vmad(d, ops::video_mad_form(in), a, b, c);
    default: return ops::video_simd(d, ops::simd_video_form(in), a, b, c);
  }
}

// d of `text` on a, b, c; the symbolic domain must agree (checked here, so each CHECK below tests both).
std::uint32_t run(const std::string& text, std::uint32_t a, std::uint32_t b, std::uint32_t c = 0) {
  const ir::Instruction in = video_instruction(text);
  REQUIRE_MESSAGE(ir::video_form_error(in).empty(), text);
  REQUIRE_MESSAGE(ops::video_modelled(in), text);
  Concrete cd;
  const auto got = compute(cd, in, Concrete::lit(32, a), Concrete::lit(32, b), Concrete::lit(32, c));
  z3::context ctx;
  Symbolic sd(ctx);
  const auto sym = Symbolic::evaluate(compute(sd, in, sd.lit(32, a), sd.lit(32, b), sd.lit(32, c)).simplify());
  CHECK_MESSAGE(sym.v == got.v, text << ": symbolic " << domain::to_hex(sym) << ", concrete " << domain::to_hex(got));
  REQUIRE(got.w == 32);
  return static_cast<std::uint32_t>(got.v);
}

}  // namespace

TEST_CASE("video 9.7.18.1.2: vshr .clamp caps the amount at 32, .wrap takes it mod 32; .add adds c") {
  CHECK(run("vshr.u32.u32.u32.clamp.add d, a, b, c", 0x80000000u, 40, 5) == 5);            // 2^31 >> 32 = 0, + 5
  CHECK(run("vshr.u32.u32.u32.wrap.add d, a, b, c", 0x80000000u, 33, 5) == 0x40000005u);   // 33 & 0x1f = 1
  CHECK(run("vshr.s32.s32.u32.clamp d, a, b", 0x80000000u, 40) == 0xffffffffu);            // -2^31 >> 32 = -1
  // tb = partSelectSignExtend(b, .u32, bsel): b.b1 = 0x21 = 33 > 32 -> 32; 3 << 32 = 2^33 + 2^32.
  CHECK(run("vshl.u32.u32.u32.clamp d, a, b.b1", 3, 0x2100) == 0);                          // low 32 bits
  CHECK(run("vshl.u32.u32.u32.sat.clamp d, a, b.b1", 3, 0x2100) == 0xffffffffu);            // CLAMP to U32_MAX
  CHECK(run("vshl.u32.u32.u32.wrap d, a, b.b1", 3, 0x2100) == 6);                           // 33 & 0x1f = 1
  CHECK(run("vshl.s32.s32.u32.sat.clamp d, a.h1, b", 0xffff0000u, 31) == 0x80000000u);      // -1 << 31 = S32_MIN
  CHECK(run("vshl.s32.s32.u32.sat.clamp d, a.h1, b", 0xffff0000u, 32) == 0x80000000u);      // -2^32 -> S32_MIN
}

TEST_CASE("video 9.7.18.1.1: partSelectSignExtend sign- or zero-extends the selected byte or half-word") {
  // a.b1 = 0x80, b.h1 = 0xfffe: as .s32 -128 + -2 = -130; as .u32 128 + 65534 = 65662.
  CHECK(run("vadd.s32.s32.s32 d, a.b1, b.h1", 0x00008000u, 0xfffe0000u) == 0xffffff7eu);
  CHECK(run("vadd.s32.u32.u32 d, a.b1, b.h1", 0x00008000u, 0xfffe0000u) == 0x1007eu);
  CHECK(run("vsub.s32.s32.u32 d, a.b3, b.b0", 0xff000000u, 0x000000ffu) == 0xffffff00u);     // -1 - 255 = -256
  CHECK(run("vabsdiff.u32.s32.s32 d, a, b", 0xfffffffeu, 3) == 5);                          // |-2 - 3|
  CHECK(run("vadd.u32.u32.u32.sat d, a, b", 0xffffffffu, 2) == 0xffffffffu);                // 2^32 + 1 -> U32_MAX
  CHECK(run("vsub.u32.u32.u32.sat d, a, b", 1, 2) == 0);                                    // -1 -> U32_MIN
  CHECK(run("vsub.s32.s32.s32.sat d, a, b", 0x80000000u, 1) == 0x80000000u);                // -2^31 - 1 -> S32_MIN
  CHECK(run("vmax.s32.u32.s32 d, a, b", 0x80000000u, 0xffffffffu) == 0x80000000u);          // max(2^31, -1) = 2^31
  // No .op2 and no d.dsel: c is read by neither (optSecondaryOp and optMerge return tmp).
  CHECK(run("vadd.u32.u32.u32 d, a, b, c", 1, 2, 0x1234) == 3);
}

TEST_CASE("video 9.7.18.1: optSaturate clamps to the destination part, optMerge puts it into c") {
  CHECK(run("vadd.s32.s32.s32.sat d.b2, a, b, c", 100, 50, 0x11223344u) == 0x117f3344u);    // 150 -> S8_MAX
  CHECK(run("vadd.s32.s32.s32.sat d.b1, a, b, c", 0xffffff00u, 0, 0x11223344u) == 0x11228044u);  // -256 -> S8_MIN
  CHECK(run("vadd.u32.u32.u32.sat d.b0, a, b, c", 200, 100, 0x12345678u) == 0x123456ffu);   // 300 -> U8_MAX
  CHECK(run("vsub.u32.u32.u32.sat d.h1, a, b, c", 5, 7, 0xaaaabbbbu) == 0x0000bbbbu);       // -2 -> U16_MIN
  CHECK(run("vsub.u32.u32.u32 d.h0, a, b, c", 5, 7, 0xaaaabbbbu) == 0xaaaafffeu);           // -2 & 0xffff
  CHECK(run("vadd.s32.s32.s32.sat d.h1, a, b, c", 0x7fff, 1, 0x1111u) == 0x7fff1111u);      // 32768 -> S16_MAX
  CHECK(run("vadd.s32.s32.s32 d.b3, a, b, c", 0x7f, 1, 0x00ffffffu) == 0x80ffffffu);        // no .sat: 128 & 0xff
  // The example of 9.7.18.1.1: vabsdiff.s32.s32.s32.sat r1.h0, r2.b0, r3.b2, c: |(-128) - 127| = 255, in S16.
  CHECK(run("vabsdiff.s32.s32.s32.sat d.h0, a.b0, b.b2, c", 0x80, 0x7f0000, 0xcafe0000u) == 0xcafe00ffu);
}

TEST_CASE("video 9.7.18.1: optSecondaryOp with c signed or unsigned as dtype says") {
  CHECK(run("vmin.s32.s32.s32.max d, a, b, c", 0xfffffffbu, 3, 0xfffffff6u) == 0xfffffffbu);  // max(-5, -10)
  CHECK(run("vmin.u32.s32.s32.max d, a, b, c", 0xfffffffbu, 3, 0xfffffff6u) == 0xfffffff6u);  // max(-5, 2^32 - 10)
  CHECK(run("vmax.u32.u32.u32.min d, a.h0, b.h1, c", 0x1234ffffu, 0x00050000u, 100) == 100);  // min(65535, 100)
  CHECK(run("vabsdiff.u32.u32.u32.max d, a.b0, b.b3, c", 0x10, 0x30000000u, 7) == 0x20);     // max(|16 - 48|, 7)
  CHECK(run("vadd.s32.s32.s32.sat.add d, a, b, c", 0x7fffffffu, 1, 0xffffffffu) == 0x7ffffffeu);  // clamp, then -1
}

TEST_CASE("video 9.7.18.1.4: vset compares the extended parts; the result and c are unsigned") {
  CHECK(run("vset.s32.u32.lt d, a, b", 0xffffffffu, 0) == 1);        // -1 < 0
  CHECK(run("vset.u32.u32.lt d, a, b", 0xffffffffu, 0) == 0);        // 2^32 - 1 < 0 is false
  CHECK(run("vset.u32.s32.gt d, a, b", 0, 0xffffffffu) == 1);        // 0 > -1
  CHECK(run("vset.s32.s32.ge d, a.h1, b.b0", 0x80000000u, 0x7f) == 0);  // -32768 >= 127 is false
  CHECK(run("vset.u32.u32.ge d, a.h1, b.b0", 0x80000000u, 0x7f) == 1);  // 32768 >= 127
  CHECK(run("vset.u32.u32.eq.add d, a, b, c", 7, 7, 41) == 42);
  CHECK(run("vset.u32.u32.ne.max d, a, b, c", 7, 8, 0xffffffffu) == 0xffffffffu);  // c unsigned: max(1, 2^32 - 1)
  CHECK(run("vset.u32.u32.ne d.b3, a, b, c", 1, 2, 0x00ffffffu) == 0x01ffffffu);
  CHECK(run("vset.u32.u32.ne d.h0, a, b.h1, c", 1, 0x00010000u, 0xabcd1234u) == 0xabcd0000u);  // 1 != 1 is false
}

TEST_CASE("video 9.7.18.1.3: vmad negation, plus one, scaling and saturation") {
  CHECK(run("vmad.u32.u32.u32 d, a, b, c", 0xffffffffu, 2, 3) == 1);                      // 0x1fffffffe + 3
  CHECK(run("vmad.u32.u32.u32.sat d, a, b, c", 0xffffffffu, 2, 3) == 0xffffffffu);        // -> U32_MAX
  CHECK(run("vmad.s32.s32.s32 d, -a, b, c", 3, 4, 20) == 8);                              // ~12 + 20 + 1
  CHECK(run("vmad.s32.s32.s32 d, -a, -b, c", 3, 4, 20) == 32);                            // two negations cancel
  CHECK(run("vmad.u32.u32.u32 d, a, b, -c", 3, 4, 20) == 0xfffffff8u);                    // signed final: 12 - 20
  CHECK(run("vmad.u32.u32.u32.sat d, a, b, -c", 3, 4, 20) == 0xfffffff8u);                // -8 is in S32's range
  CHECK(run("vmad.u32.u32.u32.sat d, -a, b, c", 0xffffffffu, 2, 0) == 0x80000000u);       // -(2^33 - 2) -> S32_MIN
  CHECK(run("vmad.u32.u32.u32.po d, a, b, c", 3, 4, 5) == 18);                            // 12 + 5 + 1
  CHECK(run("vmad.s32.s32.s32.shr7 d, a, b, c", 0xffffff00u, 1, 0) == 0xfffffffeu);       // -256 >> 7, sign-extended
  // 9.7.18.1.3's example form: vmad.u32.u32.u32.shr15 r0, r1.h0, r2.h0, r3: (65535^2 + 0x7fff) >> 15.
  CHECK(run("vmad.u32.u32.u32.shr15 d, a.h0, b.h0, c", 0x1234ffffu, 0xffffu, 0x7fff) == 0x1fffdu);
  CHECK(run("vmad.s32.s32.s32.shr7.sat d, a, b, c", 0x7fffffffu, 0x7fffffffu, 0) == 0x7fffffffu);  // 2^55 - 2^25
  CHECK(run("vmad.s32.s32.s32.shr7 d, a, b, c", 0x7fffffffu, 0x7fffffffu, 0) == 0xfe000000u);      // its low 32 bits
  CHECK(run("vmad.s32.s32.s32 d, a.b3, b.h1, c", 0x80000000u, 0x00030000u, 0) == 0xfffffe80u);     // -128 * 3
  CHECK(run("vmad.s32.u32.u32 d, a.b3, b.h1, c", 0x80000000u, 0x00030000u, 0) == 384);             // 128 * 3
}

TEST_CASE("video 9.7.18.2.1, 9.7.18.2.3: SIMD lanes, selectors, saturation and vavrg rounding") {
  CHECK(run("vadd2.s32.s32.s32.sat d, a, b, c", 0x7fff0001u, 0x0001ffffu) == 0x7fff0000u);  // 32768 -> S16_MAX; 1 + -1
  CHECK(run("vadd2.s32.s32.s32 d, a, b, c", 0x7fff0001u, 0x0001ffffu) == 0x80000000u);      // wraps in the lane
  CHECK(run("vsub2.u32.u32.u32.sat d, a, b, c", 0x00010005u, 0x00020003u) == 0x00000002u);  // -1 -> U16_MIN; 2
  // .hxy: lane 1 from half-word x, lane 0 from y, of {b, a}: a.h01 swaps a's halves, b.h22 is b's low half twice.
  CHECK(run("vsub2.s32.s32.s32 d, a.h01, b.h22, c", 0x00050009u, 0x00010002u) == 0x00070003u);
  CHECK(run("vadd2.u32.u32.u32 d, a.h32, b.h10, c", 0x00010002u, 0x00300040u) == 0x00310042u);  // a, b swapped
  // vavrg: (Va + Vb + 1) >> 1 when the sum is >= 0, else (Va + Vb) >> 1: 3 -> 2, -3 -> -2, -1 -> -1.
  CHECK(run("vavrg2.s32.s32.s32 d, a, b, c", 0x0003fffdu, 0) == 0x0002fffeu);
  CHECK(run("vavrg4.s32.s32.s32 d, a, b, c", 0x01ff0302u, 0x00000000u) == 0x01ff0201u);       // 1, -1, 2 (3/2), 1
  CHECK(run("vavrg4.u32.u32.u32 d, a, b, c", 0xff010203u, 0xff000100u) == 0xff010202u);       // 255, 1, 2, 2
  CHECK(run("vadd4.s32.s32.s32.sat d, a, b, c", 0x7f8001ffu, 0x01ff01ffu) == 0x7f8002feu);    // 127, -128, 2, -2
  CHECK(run("vadd4.u32.s32.s32.sat d, a, b, c", 0x7f8001ffu, 0x01ff01ffu) == 0x80000200u);    // 128 fits U8; -129, -2 -> 0
  CHECK(run("vabsdiff4.u32.u32.u32 d, a.b7777, b.b0123, c", 0x00000000u, 0x0a000000u) == 0x0a0a0a0au);  // |byte 7 - bytes 3..0|
  CHECK(run("vmin4.s32.s32.s32 d, a, b, c", 0x80017f02u, 0x7f028001u) == 0x80018001u);
}

TEST_CASE("video 9.7.18.2: the mask merges with c, .add accumulates the masked lanes into c") {
  CHECK(run("vadd2.u32.u32.u32 d.h1, a, b, c", 0x00010001u, 0x00020002u, 0xaaaabbbbu) == 0x0003bbbbu);
  CHECK(run("vadd2.u32.u32.u32 d.h0, a, b, c", 0x00010001u, 0x00020002u, 0xaaaabbbbu) == 0xaaaa0003u);
  CHECK(run("vmax4.u32.u32.u32 d.b31, a, b, c", 0x01020304u, 0x04030201u, 0xaabbccddu) == 0x04bb03ddu);
  CHECK(run("vsub4.s32.s32.s32.sat d.b0, a.b3210, b.b7654, c", 0x00000080u, 0x00000001u, 0x11223344u) == 0x11223380u);
  CHECK(run("vmin2.s32.u32.u32.add d.h10, a, b, c", 0x00050010u, 0x00070003u, 100) == 108);   // 5 + 3
  CHECK(run("vsub2.s32.s32.s32.add d, a, b, c", 0x00010000u, 0x00030001u, 10) == 7);         // -2 + -1
  CHECK(run("vsub2.s32.s32.s32.add d.h0, a, b, c", 0x00010000u, 0x00030001u, 10) == 9);      // lane 0 only
  CHECK(run("vsub4.u32.u32.u32.add d, a, b, c", 0, 0x01010101u, 10) == 6);                  // four -1
  // The example of 9.7.18.2.3 with a mask ptxas takes: vmin4.s32.u32.u32.add r1.b10, r2.b0000, r3.b2222, r1.
  CHECK(run("vmin4.s32.u32.u32.add d.b10, a.b0000, b.b2222, c", 0x00050009u, 0x77777777u, 1000) == 1010);  // min(9, 5) twice
}

TEST_CASE("video 9.7.18.2.2, 9.7.18.2.4: vset2 and vset4 compare lanes, then merge or accumulate") {
  CHECK(run("vset2.s32.u32.lt d, a, b, c", 0xffff0001u, 0x00000001u) == 0x00010000u);        // -1 < 0; 1 < 1
  CHECK(run("vset2.u32.u32.lt d, a, b, c", 0xffff0001u, 0x00000001u) == 0);                  // 65535 < 0 false
  CHECK(run("vset4.u32.u32.ne.add d, a, b, c", 0x01020304u, 0x01000300u, 40) == 42);
  CHECK(run("vset4.u32.u32.ne d.b0, a, b, c", 0x01020304u, 0x01000300u, 0xaabbccddu) == 0xaabbcc01u);
  CHECK(run("vset4.s32.s32.ge d, a.b7654, b.b3210, c", 0x00000000u, 0x80ff0001u) == 0x00000101u);  // b's bytes >= 0
  CHECK(run("vset2.u32.u32.ne.add d.h1, a.h11, b, c", 0x00020000u, 0x00020003u, 5) == 5);    // lane 1: 2 != 2 false
}
