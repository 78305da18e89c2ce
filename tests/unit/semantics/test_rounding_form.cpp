// Which instructions must name a rounding and which may not (semantics/ir/rounding_form.hpp), each case written
// from the sentence of ISA 9.0 chapter 9.7 it cites: fma, mad, div, rcp and sqrt (9.7.3.6-15, 9.7.4.4), and cvt's
// "Rounding modifier is mandatory", Integer Notes and Floating Point Notes (9.7.9.21).
#include "tests/unit/semantics/diagnostics.hpp"

#include <doctest/doctest.h>

#include <utility>

using namespace ptx::ir;

namespace {
using testing::Diagnostics;
// The IR checker's messages on `body` in a module of `.version version` / `.target target`.
Diagnostics diagnose(const std::string& body, const std::string& version, const std::string& target) {
  return testing::diagnostics_of(testing::kernel_module(".version " + version + "\n.target " + target + "\n",
                                                        " .reg .b16 %h<4>;\n .reg .b32 %r<4>;\n .reg .b64 %rd<4>;\n"
                                                        " .reg .f32 %f<4>;\n .reg .f64 %fd<4>;\n", body));
}
std::vector<std::string> errors(const std::string& body, const std::string& version = "8.6", const std::string& target = "sm_90") {
  return diagnose(body, version, target).errors;
}
}  // namespace

TEST_CASE("fma, mad, div, rcp and sqrt name the rounding their sections require (ISA 9.7.3.6-15, 9.7.4.4)") {
  CHECK(errors("fma.rn.ftz.f32 %f1, %f2, %f3, %f1;\n fma.rm.f64 %fd1, %fd1, %fd2, %fd3;\n mad.rn.f64 %fd1, %fd1, %fd2, %fd3;\n"
               " mad.rz.f32 %f1, %f2, %f3, %f1;\n fma.rn.relu.bf16 %h1, %h2, %h3, %h1;\n div.full.f32 %f1, %f2, %f3;\n"
               " div.approx.ftz.f32 %f1, %f2, %f3;\n div.rn.f64 %fd1, %fd2, %fd3;\n rcp.approx.f32 %f1, %f2;\n"
               " rcp.rn.f64 %fd1, %fd2;\n sqrt.rz.f32 %f1, %f2;\n sqrt.approx.ftz.f32 %f1, %f2;")
            .empty());
  const std::pair<const char*, std::string> bad[] = {
      {"fma.ftz.f32 %f1, %f2, %f3, %f1;", "'fma.ftz.f32' needs a rounding: fma.rnd (ISA 9.7.3.6)"},
      {"fma.f64 %fd1, %fd1, %fd2, %fd3;", "'fma.f64' needs a rounding: fma.rnd (ISA 9.7.3.6)"},
      {"fma.f16x2 %r1, %r2, %r3, %r1;", "'fma.f16x2' needs a rounding: fma.rnd (ISA 9.7.4.4)"},
      {"mad.f64 %fd1, %fd1, %fd2, %fd3;", "'mad.f64' needs a rounding: mad.rnd.f64 (ISA 9.7.3.7)"},
      {"mad.sat.f32 %f1, %f2, %f3, %f1;",
       "'mad.sat.f32' needs a rounding on sm_20 and later targets: mad.rnd.f32 (ISA 9.7.3.7, PTX ISA and Target ISA Notes)"},
      {"div.ftz.f32 %f1, %f2, %f3;", "'div.ftz.f32' needs one of .approx, .full and a rounding (ISA 9.7.3.8, PTX ISA 1.4 and later)"},
      {"div.f64 %fd1, %fd2, %fd3;", "'div.f64' needs one of .approx, .full and a rounding (ISA 9.7.3.8, PTX ISA 1.4 and later)"},
      {"rcp.f32 %f1, %f2;", "'rcp.f32' needs .approx or a rounding (ISA 9.7.3.13, PTX ISA 1.4 and later)"},
      {"sqrt.f64 %fd1, %fd2;", "'sqrt.f64' needs .approx or a rounding (ISA 9.7.3.15, PTX ISA 1.4 and later)"},
  };
  testing::expect_one_error_each([](const auto& text) { return errors(text); }, bad);
}

TEST_CASE("the rounding rules hold from the PTX ISA version and target the text names (ISA 9.7.3.7-8)") {
  // "In PTX ISA versions 2.0 and later, a rounding modifier is required for mad.f32 for sm_20 and higher targets":
  // sm_1x keeps the form without one (its table in 9.7.3: ".target sm_1x No rounding modifier").
  const char* mad = "mad.f32 %f1, %f2, %f3, %f1;";
  const auto sm13 = diagnose(mad, "2.0", "sm_13");
  CHECK((sm13.errors.empty() && sm13.warnings.empty()));
  // Its Errata: "for PTX ISA version 3.0 and earlier, ptxas does not enforce this requirement ... For PTX ISA version
  // 3.1, ptxas generates a warning ... and ... will enforce the requirement for PTX ISA version 3.2 and later."
  const auto v20 = diagnose(mad, "2.0", "sm_20"), v31 = diagnose(mad, "3.1", "sm_20"), v32 = diagnose(mad, "3.2", "sm_20");
  CHECK((v20.errors.empty() && v20.warnings.size() == 1 && v31.errors.empty() && v31.warnings.size() == 1));
  CHECK((v32.errors.size() == 1 && v32.warnings.empty()));
  // "For PTX ISA versions 1.0 through 1.3, div.f32 defaults to div.approx.ftz.f32": not an error there.
  CHECK(errors("div.f32 %f1, %f2, %f3;\n rcp.f32 %f1, %f2;\n sqrt.f64 %fd1, %fd2;", "1.3", "sm_13").empty());
  CHECK(errors("div.f32 %f1, %f2, %f3;", "1.4", "sm_13").size() == 1);
}

TEST_CASE("cvt: the roundings each conversion requires and allows (ISA 9.7.9.21)") {
  // Integer Notes: required for float-to-integer, allowed in same-size float conversions; Floating Point Notes:
  // required for integer-to-float and float-to-float "that result in loss of precision"; no rounding widens exactly.
  CHECK(errors("cvt.rzi.s32.f32 %r1, %f1;\n cvt.rni.u64.f64 %rd1, %fd1;\n cvt.rn.f32.s32 %f1, %r1;\n"
               " cvt.rm.f64.u64 %fd1, %rd1;\n cvt.rn.f32.f64 %f1, %fd1;\n cvt.rz.f16.f32 %h1, %f1;\n cvt.f64.f32 %fd1, %f1;\n"
               " cvt.f32.f16 %f1, %h1;\n cvt.f32.f32 %f1, %f2;\n cvt.rni.f32.f32 %f1, %f2;\n cvt.rpi.f64.f64 %fd1, %fd2;\n"
               " cvt.s32.s64 %r1, %rd1;\n cvt.sat.u16.s32 %h1, %r1;\n cvt.rn.f16x2.f32 %r1, %f1, %f2;\n"
               " cvt.rn.satfinite.e4m3x2.f32 %h1, %f1, %f2;\n cvt.rna.tf32.f32 %r1, %f1;")
            .empty());
  const char* needs_integer = "needs an integer rounding (.rni, .rzi, .rmi or .rpi): it is required for float-to-integer conversions (ISA 9.7.9.21)";
  const char* needs_float = "needs a floating-point rounding (.rn, .rz, .rm or .rp): it is required for integer-to-float and narrowing float conversions (ISA 9.7.9.21)";
  const char* not_allowed = "has a rounding this conversion does not allow: integer rounding is for float-to-integer and same-type float conversions, floating-point rounding for integer-to-float and narrowing ones (ISA 9.7.9.21)";
  const std::pair<std::string, std::string> bad[] = {
      {"cvt.s32.f32 %r1, %f1;", std::string("'cvt.s32.f32' ") + needs_integer},
      {"cvt.rn.s32.f32 %r1, %f1;", std::string("'cvt.rn.s32.f32' ") + needs_integer},
      {"cvt.f32.s32 %f1, %r1;", std::string("'cvt.f32.s32' ") + needs_float},
      {"cvt.rzi.f64.u32 %fd1, %r1;", std::string("'cvt.rzi.f64.u32' ") + needs_float},
      {"cvt.f32.f64 %f1, %fd1;", std::string("'cvt.f32.f64' ") + needs_float},
      {"cvt.rzi.f16.f32 %h1, %f1;", std::string("'cvt.rzi.f16.f32' ") + needs_float},
      {"cvt.rn.f64.f32 %fd1, %f1;", std::string("'cvt.rn.f64.f32' ") + not_allowed},
      {"cvt.rzi.f64.f32 %fd1, %f1;", std::string("'cvt.rzi.f64.f32' ") + not_allowed},
      {"cvt.rn.f32.f32 %f1, %f2;", std::string("'cvt.rn.f32.f32' ") + not_allowed},
      {"cvt.rn.s32.s64 %r1, %rd1;", std::string("'cvt.rn.s32.s64' ") + not_allowed},
      {"cvt.f16x2.f32 %r1, %f1, %f2;",
       "'cvt.f16x2.f32' needs a rounding: every conversion involving a packed or alternate floating-point type requires one (ISA 9.7.9.21)"},
      {"cvt.rn.e4m3x2.f32 %h1, %f1, %f2;", "'cvt.rn.e4m3x2.f32' needs .satfinite: it is mandatory for conversions to .e4m3x2 (ISA 9.7.9.21)"},
  };
  testing::expect_one_error_each([](const auto& text) { return errors(text); }, bad);
}
