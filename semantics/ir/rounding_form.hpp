// Which instructions must name a rounding and which may not, from the text of each instruction's section (ISA 9.0
// chapter 9.7): fma, mad, div, rcp and sqrt on floating-point types, and cvt's Integer and Floating Point Notes.
#pragma once

#include "semantics/ir/ir.hpp"

#include <string>

namespace ptx::ir {

// What the module declares that these rules depend on: `.version` as major * 10 + minor, and the number of its
// highest-numbered `.target` (sm_90a is 90); 0 when the module does not say.
struct ModuleLevel {
  unsigned version = 0;
  unsigned target = 0;
};

struct RoundingFinding {
  bool warning = false;  // required by the text, but defaulted by ptxas at this PTX ISA version (its Errata)
  std::string message;   // empty when the instruction's rounding is as its section says
};

// Why the instruction lacks a rounding (or .approx / .full) its section requires, or names one its section forbids
// (an empty message when neither):
// - fma: every syntax line writes `fma.rnd` (9.7.3.6; 9.7.4.4 for the half types);
// - mad.f64: "In PTX ISA versions 1.4 and later, a rounding modifier is required" (9.7.3.7); mad.f32: "In PTX ISA
//   versions 2.0 and later, a rounding modifier is required for mad.f32 for sm_20 and higher targets", a warning
//   before 3.2 (the section's Errata: ptxas "silently defaults to mad.rn.f32" there);
// - div: "For PTX ISA version 1.4 and later, one of .approx, .full, or .rnd is required" (9.7.3.8); rcp and sqrt:
//   "one of .approx or .rnd" (9.7.3.13, 9.7.3.15);
// - cvt (9.7.9.21): an integer rounding is required for float-to-integer conversions and allowed only there and in
//   same-type float conversions; a floating-point rounding is required for integer-to-float and narrowing float
//   conversions and allowed only there; every conversion involving a packed or alternate format (.f16x2, .bf16x2,
//   .tf32, the .e*m*x2/x4 and .ue8m0x2 types) needs a rounding, and one to an .e*m*x2/x4 type needs .satfinite.
//   Not judged: .f16 to/from .bf16 (the notes disagree: not "smaller", yet with "loss of precision"; ptxas takes
//   both) and a floating-point rounding on a widening from .bf16 (illegal by the notes, accepted by ptxas).
RoundingFinding rounding_form_finding(const Instruction& in, ModuleLevel level);

}  // namespace ptx::ir
